//! What an attempt keeps waiting to be expanded: the score buckets, or the
//! stack of a depth-first attempt, behind one trait so that one attempt
//! loop drives either. Both grow fallibly: a push that finds no memory
//! fails, and the attempt ends as out of memory.

use std::cmp::Reverse;
use std::collections::{TryReserveError, VecDeque};

use super::order::{Dive, Queue};
use crate::cards::CARDS;

/// The positions waiting to be expanded, as indices into the visited set.
pub(super) trait Frontier {
    /// Adds a stored position with its score and tie-break (lower first);
    /// fails, adding nothing, when there is no memory for it.
    fn push(&mut self, score: u8, tie: usize, index: u32) -> Result<(), TryReserveError>;
    /// [`Frontier::push`] of a position `depth` moves from the deal.
    fn push_at(
        &mut self,
        score: u8,
        tie: usize,
        index: u32,
        _depth: u16,
    ) -> Result<(), TryReserveError> {
        self.push(score, tie, index)
    }
    /// The next position to expand, with its score.
    fn pop(&mut self) -> Option<(u8, u32)>;
    /// What [`Frontier::pop`] would give next if nothing is pushed before:
    /// a hint for prefetching.
    fn peek(&self) -> Option<u32>;
    /// Drops every position with a score below `floor` (the `--diff` cut);
    /// returns how many.
    fn forget_below(&mut self, floor: usize) -> u64;
    fn waiting(&self) -> u64;
    /// Whether it dropped positions it was given, so that its being empty
    /// proves nothing: a beam's (see [`super::portfolio_beam`]).
    fn forgot(&self) -> bool {
        false
    }
}

/// Highest tie-break value kept apart inside a score bucket.
const MAX_RANK: usize = 63;
/// Queues per score bucket, one per tie-break value.
const TIES: usize = MAX_RANK + 1;

/// One bucket per score, highest first, and inside it one queue per
/// tie-break value (lower first).
#[derive(Clone)]
pub(super) struct Buckets {
    queue: Queue,
    /// Per score, one queue per tie-break value; made on the score's first
    /// push, so that the many small frontiers of a split attempt (see
    /// [`super::split`]) cost only the scores they reach.
    queues: [Vec<VecDeque<u32>>; CARDS + 1],
    /// Per score, a bit per tie-break value whose queue is not empty: the
    /// next queue is one `trailing_zeros` away, with no scan.
    nonempty: [u64; CARDS + 1],
    len: u64,
    /// No waiting position has a higher score.
    best: usize,
}

impl Buckets {
    pub(super) fn new(queue: Queue) -> Buckets {
        Buckets {
            queue,
            queues: std::array::from_fn(|_| Vec::new()),
            nonempty: [0; CARDS + 1],
            len: 0,
            best: 0,
        }
    }

    /// The lowest tie-break waiting at `score`: the queue `pop` takes from.
    #[inline]
    fn first_tie(&self, score: usize) -> usize {
        self.nonempty[score].trailing_zeros() as usize
    }
}

impl Frontier for Buckets {
    #[inline]
    fn push(&mut self, score: u8, tie: usize, index: u32) -> Result<(), TryReserveError> {
        let score = score as usize;
        let tie = tie.min(MAX_RANK);
        let queues = &mut self.queues[score];
        if queues.is_empty() {
            queues.try_reserve_exact(TIES)?;
            queues.resize_with(TIES, VecDeque::new);
        }
        let queue = &mut queues[tie];
        // Allocates only when the queue is full, doubling it as push would.
        queue.try_reserve(1)?;
        queue.push_back(index);
        self.nonempty[score] |= 1 << tie;
        self.len += 1;
        self.best = self.best.max(score);
        Ok(())
    }

    #[inline]
    fn pop(&mut self) -> Option<(u8, u32)> {
        while self.nonempty[self.best] == 0 {
            if self.best == 0 {
                return None;
            }
            self.best -= 1;
        }
        let score = self.best;
        let tie = self.first_tie(score);
        let queue = &mut self.queues[score][tie];
        let index = match self.queue {
            Queue::Fifo => queue.pop_front(),
            Queue::Lifo => queue.pop_back(),
        }?;
        if queue.is_empty() {
            self.nonempty[score] &= !(1 << tie);
        }
        self.len -= 1;
        Some((score as u8, index))
    }

    #[inline]
    fn peek(&self) -> Option<u32> {
        let score = (0..=self.best).rev().find(|&s| self.nonempty[s] != 0)?;
        let queue = &self.queues[score][self.first_tie(score)];
        match self.queue {
            Queue::Fifo => queue.front(),
            Queue::Lifo => queue.back(),
        }
        .copied()
    }

    fn forget_below(&mut self, floor: usize) -> u64 {
        let mut dropped = 0;
        for score in 0..floor.min(CARDS + 1) {
            dropped += self.queues[score]
                .iter()
                .map(|q| q.len() as u64)
                .sum::<u64>();
            self.queues[score] = Vec::new();
            self.nonempty[score] = 0;
        }
        self.len -= dropped;
        dropped
    }

    fn waiting(&self) -> u64 {
        self.len
    }
}

/// The frontier of a depth-first attempt: the children of the last
/// position expanded go on top, in the [`Dive`]'s order, so the search
/// follows one line of play and backs up only when it is exhausted.
#[derive(Clone)]
pub(super) struct Stack {
    dive: Dive,
    stack: Vec<(u8, u32)>,
    /// The children of the position being expanded, until the next pop
    /// sorts them onto the stack.
    children: Vec<(u8, usize, u32)>,
}

impl Stack {
    pub(super) fn new(dive: Dive) -> Stack {
        Stack {
            dive,
            stack: Vec::new(),
            children: Vec::new(),
        }
    }
}

impl Frontier for Stack {
    fn push(&mut self, score: u8, tie: usize, index: u32) -> Result<(), TryReserveError> {
        // Room on the stack too for every child so far, so that the next
        // pop moves them there without allocating.
        self.stack.try_reserve(self.children.len() + 1)?;
        self.children.try_reserve(1)?;
        self.children.push((score, tie, index));
        Ok(())
    }

    fn pop(&mut self) -> Option<(u8, u32)> {
        if !self.children.is_empty() {
            // The child to go first last, where the next pop takes it.
            let children = &mut self.children;
            match self.dive {
                Dive::FewestCards => children.sort_by_key(|&(score, tie, _)| Reverse((score, tie))),
                Dive::MostCards => children.sort_by_key(|&(score, tie, _)| (score, Reverse(tie))),
                Dive::FewestCardsMostInTheWay => {
                    children.sort_by_key(|&(score, tie, _)| (Reverse(score), tie))
                }
            }
            self.stack
                .extend(children.drain(..).map(|(score, _, index)| (score, index)));
        }
        self.stack.pop()
    }

    fn peek(&self) -> Option<u32> {
        if self.children.is_empty() {
            self.stack.last().map(|&(_, index)| index)
        } else {
            None
        }
    }

    fn forget_below(&mut self, floor: usize) -> u64 {
        let before = self.waiting();
        self.stack.retain(|&(score, _)| score as usize >= floor);
        self.children
            .retain(|&(score, _, _)| score as usize >= floor);
        before - self.waiting()
    }

    fn waiting(&self) -> u64 {
        (self.stack.len() + self.children.len()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_dives_into_the_last_children_fewest_foundation_cards_first() {
        let mut stack = Stack::new(Dive::FewestCards);
        stack.push(3, 0, 1).unwrap();
        assert_eq!(stack.pop(), Some((3, 1)));
        // Children of 1: the lower score first, then the lower tie-break.
        stack.push(5, 0, 10).unwrap();
        stack.push(4, 2, 11).unwrap();
        stack.push(4, 1, 12).unwrap();
        assert_eq!(stack.waiting(), 3);
        assert_eq!(stack.pop(), Some((4, 12)));
        // Children of 12 go before its older siblings.
        stack.push(9, 0, 20).unwrap();
        assert_eq!(stack.pop(), Some((9, 20)));
        assert_eq!(stack.pop(), Some((4, 11)));
        assert_eq!(stack.forget_below(5), 0);
        assert_eq!(stack.pop(), Some((5, 10)));
        assert_eq!(stack.pop(), None);
    }

    #[test]
    fn the_buckets_give_the_highest_score_then_the_lowest_tie_break() {
        for (queue, equals) in [(Queue::Fifo, [5, 6]), (Queue::Lifo, [6, 5])] {
            let mut buckets = Buckets::new(queue);
            buckets.push(3, 0, 1).unwrap();
            buckets.push(7, 2, 2).unwrap();
            buckets.push(7, 1, 5).unwrap();
            buckets.push(7, 1, 6).unwrap();
            buckets.push(2, 0, 9).unwrap();
            assert_eq!(buckets.peek(), Some(equals[0]));
            assert_eq!(buckets.pop(), Some((7, equals[0])));
            assert_eq!(buckets.pop(), Some((7, equals[1])));
            assert_eq!(buckets.pop(), Some((7, 2)));
            assert_eq!(buckets.forget_below(3), 1);
            assert_eq!(buckets.waiting(), 1);
            assert_eq!(buckets.pop(), Some((3, 1)));
            assert_eq!(buckets.pop(), None);
        }
    }
}

//! A frontier split by subtree: every position within `depth` moves of the
//! deal starts a frontier of its own, every deeper one joins the frontier
//! of the position it came from, and the frontiers take turns, one
//! expansion each.
//!
//! Why: on the hardest Baker's Dozen deals a search loses itself below one
//! wrong early move. BakersDozen.486222557 is solved in 27 moves, all but
//! the last four with at most 9 cards on the foundation. Of the deal's 11
//! first moves, 5 lead to positions the portfolio solved (4 within 170 000
//! expansions) and 6 to positions it did not decide within 1.6 M; every
//! position sampled from a 1 M-position attempt of ordering 0 was lost
//! (100 of 100, each proven so by a search of its own). The buckets follow
//! the foundation there, to 19 cards and no further, in every ordering:
//! 70 M positions. Given turns, the subtree of a good early move gets its
//! share of expansions however large the lost ones are: ordering 0 split
//! two moves deep solves it in about 3 000 expansions.
//!
//! Only the order changes: every position is still stored once in the one
//! visited set, so an exhausted split attempt is the same proof, under
//! free foundation rules as under forced ones (a move counted in `depth`
//! is one of the search's, a foundation move of the player's included).

use std::collections::TryReserveError;

use super::frontier::Frontier;

pub(super) struct Split<F> {
    groups: Vec<F>,
    /// An empty frontier, cloned for each new group (an empty clone
    /// allocates nothing).
    empty: F,
    /// Positions this many moves from the deal or fewer start a group.
    depth: u16,
    /// The group of the position last popped: where its children go.
    last: usize,
    /// The group whose turn is next.
    next: usize,
}

impl<F: Frontier + Clone> Split<F> {
    pub(super) fn new(depth: u16, empty: F) -> Split<F> {
        Split {
            groups: Vec::new(),
            empty,
            depth,
            last: 0,
            next: 0,
        }
    }
}

impl<F: Frontier + Clone> Frontier for Split<F> {
    fn push(&mut self, score: u8, tie: usize, index: u32) -> Result<(), TryReserveError> {
        self.push_at(score, tie, index, u16::MAX)
    }

    fn push_at(
        &mut self,
        score: u8,
        tie: usize,
        index: u32,
        depth: u16,
    ) -> Result<(), TryReserveError> {
        if depth <= self.depth || self.groups.is_empty() {
            self.groups.try_reserve(1)?;
            let mut group = self.empty.clone();
            group.push(score, tie, index)?;
            self.groups.push(group);
            Ok(())
        } else {
            self.groups[self.last].push(score, tie, index)
        }
    }

    fn pop(&mut self) -> Option<(u8, u32)> {
        while !self.groups.is_empty() {
            let g = self.next % self.groups.len();
            if let Some(found) = self.groups[g].pop() {
                self.last = g;
                self.next = g + 1;
                return Some(found);
            }
            self.groups.swap_remove(g);
            self.next = g;
        }
        None
    }

    fn peek(&self) -> Option<u32> {
        let n = self.groups.len();
        (0..n).find_map(|i| self.groups[(self.next + i) % n].peek())
    }

    fn forget_below(&mut self, floor: usize) -> u64 {
        self.groups.iter_mut().map(|g| g.forget_below(floor)).sum()
    }

    fn waiting(&self) -> u64 {
        self.groups.iter().map(|g| g.waiting()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::frontier::Buckets;
    use crate::search::order::Queue;

    #[test]
    fn groups_take_turns_and_children_join_their_parents_group() {
        let mut split = Split::new(1, Buckets::new(Queue::Fifo));
        split.push_at(0, 0, 0, 0).unwrap();
        assert_eq!(split.pop(), Some((0, 0)));
        // Two first moves: a group each, the better score no matter.
        split.push_at(9, 0, 1, 1).unwrap();
        split.push_at(1, 0, 2, 1).unwrap();
        assert_eq!(split.waiting(), 2);
        assert_eq!(split.pop(), Some((9, 1)));
        // Children of 1 join its group; the other group's turn comes first.
        split.push_at(20, 0, 3, 2).unwrap();
        split.push_at(21, 0, 4, 2).unwrap();
        assert_eq!(split.pop(), Some((1, 2)));
        assert_eq!(split.pop(), Some((21, 4)));
        // Group 2 is empty: the turn goes back to 1's.
        assert_eq!(split.pop(), Some((20, 3)));
        assert_eq!(split.pop(), None);
        assert_eq!(split.waiting(), 0);
    }
}

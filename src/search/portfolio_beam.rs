//! The frontier of a *beam* attempt: breadth-first, one layer of
//! positions per move from the deal, keeping only the `width` best of each
//! layer (the most cards on the foundation, then the lowest tie-break) and
//! dropping the rest, which stay in the visited set: a position met once is
//! never met again, kept or not.
//!
//! Why (issue 13): the Baker's Dozen deals the other orderings leave
//! undecided after 10^8 positions lose them in deep lost subtrees that
//! every best-first or depth-first ordering follows the foundation into. A
//! beam cannot go deep anywhere: each layer holds positions of one depth,
//! and a lost subtree dies out within a few layers while the rest of the
//! layer goes on. Measured with a prototype (width 200 000, own-suit
//! inversions as the tie-break): bd.1797 solved in 4.5 M expansions (29 to
//! 31 moves), bd.1817 in 5.4 M and bd.3404 in 4.5 M, three deals no
//! ordering decided within 134 M positions; widths 50 000 and 100 000
//! solved only bd.3404 of them. Leaving out every position met before,
//! not only those kept, is what keeps a layer from filling with the same
//! few lines: leaving out only those kept, width 200 000 solved only
//! bd.3404. Narrow beams are strong on the hard deals of 1..1000 too
//! (bd.64: 5 700 expansions at width 1 000, where ordering 0 fails within
//! 64 000 positions), but there the other orderings come first and decide.
//!
//! A beam proves nothing once it has dropped a position: an empty
//! frontier then only means the beam is spent ([`Frontier::forgot`]). A
//! beam that never had more children in a layer than its width kept
//! every position it met: that is a breadth-first search, and its empty
//! frontier is the proof any ordering gives.

use std::cmp::Reverse;
use std::collections::TryReserveError;

use super::frontier::Frontier;

/// Positions a beam attempt may store per position of width: the beams
/// that solved the deals above stored 50 to 70 times their width by the
/// layer of the solution (bd.1797, width 200 000: 11 M positions).
pub(super) const STORED_PER_WIDTH: u64 = 64;

/// The narrowest beam: below it, a beam is a few depth-first lines.
const LEAST_WIDTH: usize = 1_000;

/// A position waiting in a layer: its score, tie-break and index.
type Waiting = (u8, usize, u32);

pub(super) struct Beam {
    width: usize,
    /// The layer being expanded, best first, from `at` on.
    layer: Vec<Waiting>,
    at: usize,
    /// The children of the layer, kept or not when it ends.
    next: Vec<Waiting>,
    /// Positions dropped so far: an empty frontier is no proof then.
    dropped: u64,
}

impl Beam {
    /// A beam for an attempt that may store `budget` positions.
    pub(super) fn for_budget(budget: u64) -> Beam {
        let width = (budget / STORED_PER_WIDTH).max(LEAST_WIDTH as u64);
        Beam::new(usize::try_from(width).unwrap_or(usize::MAX))
    }

    pub(super) fn new(width: usize) -> Beam {
        Beam {
            width: width.max(1),
            layer: Vec::new(),
            at: 0,
            next: Vec::new(),
            dropped: 0,
        }
    }

    /// Ends the layer: the best `width` of its children become the next
    /// one, best first, the others are dropped.
    fn next_layer(&mut self) {
        let best_first = |&(score, tie, index): &Waiting| (Reverse(score), tie, index);
        if self.next.len() > self.width {
            self.next.select_nth_unstable_by_key(self.width, best_first);
            self.dropped += (self.next.len() - self.width) as u64;
            self.next.truncate(self.width);
        }
        self.next.sort_unstable_by_key(best_first);
        std::mem::swap(&mut self.layer, &mut self.next);
        self.next.clear();
        self.at = 0;
    }
}

impl Frontier for Beam {
    fn push(&mut self, score: u8, tie: usize, index: u32) -> Result<(), TryReserveError> {
        self.next.try_reserve(1)?;
        self.next.push((score, tie, index));
        Ok(())
    }

    fn pop(&mut self) -> Option<(u8, u32)> {
        if self.at == self.layer.len() {
            self.next_layer();
        }
        let &(score, _, index) = self.layer.get(self.at)?;
        self.at += 1;
        Some((score, index))
    }

    fn peek(&self) -> Option<u32> {
        self.layer.get(self.at).map(|&(_, _, index)| index)
    }

    fn forget_below(&mut self, floor: usize) -> u64 {
        let before = self.waiting();
        let keep = |&(score, _, _): &Waiting| score as usize >= floor;
        self.layer.drain(..self.at);
        self.at = 0;
        self.layer.retain(keep);
        self.next.retain(keep);
        before - self.waiting()
    }

    fn waiting(&self) -> u64 {
        (self.layer.len() - self.at + self.next.len()) as u64
    }

    fn forgot(&self) -> bool {
        self.dropped > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_keeps_its_best_children_and_gives_them_best_first() {
        let mut beam = Beam::new(2);
        beam.push(0, 0, 1).unwrap();
        assert_eq!(beam.pop(), Some((0, 1)));
        // The children of the first layer: two kept, one dropped.
        beam.push(3, 5, 10).unwrap();
        beam.push(4, 9, 11).unwrap();
        beam.push(3, 1, 12).unwrap();
        assert!(!beam.forgot());
        assert_eq!(beam.pop(), Some((4, 11)));
        assert!(beam.forgot());
        // A child pushed now waits for the next layer.
        beam.push(9, 0, 20).unwrap();
        assert_eq!(beam.peek(), Some(12));
        assert_eq!(beam.pop(), Some((3, 12)));
        assert_eq!(beam.pop(), Some((9, 20)));
        assert_eq!(beam.pop(), None);
        assert_eq!(beam.waiting(), 0);
    }

    #[test]
    fn a_beam_wide_enough_drops_nothing() {
        let mut beam = Beam::new(10);
        beam.push(0, 0, 1).unwrap();
        assert_eq!(beam.pop(), Some((0, 1)));
        for i in 0..10 {
            beam.push(1, i, 100 + i as u32).unwrap();
        }
        for i in 0..10 {
            assert_eq!(beam.pop(), Some((1, 100 + i)));
        }
        assert_eq!(beam.pop(), None);
        assert!(!beam.forgot());
    }

    #[test]
    fn forgetting_drops_low_scores_from_both_layers() {
        let mut beam = Beam::new(10);
        beam.push(5, 0, 1).unwrap();
        beam.push(2, 0, 2).unwrap();
        assert_eq!(beam.pop(), Some((5, 1)));
        beam.push(1, 0, 3).unwrap();
        beam.push(6, 0, 4).unwrap();
        assert_eq!(beam.forget_below(3), 2);
        assert_eq!(beam.pop(), Some((6, 4)));
        assert_eq!(beam.pop(), None);
    }

    #[test]
    fn the_width_follows_the_budget() {
        assert_eq!(Beam::for_budget(64 * 200_000).width, 200_000);
        assert_eq!(Beam::for_budget(10).width, LEAST_WIDTH);
    }
}

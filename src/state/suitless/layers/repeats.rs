//! The children a thread has just found, remembered so that a repeat is
//! dropped before its entry is worked out.
//!
//! Why: a position of the search in layers is reached by many moves (on
//! bd.78829's spades-followed game under complete rules, 74 M children
//! for 10.9 M positions), and each child's entry, then its place among
//! the others, was worked out before its repeats were dropped. Many
//! repeats come close together (two moves made in either order), and a
//! few thousand places, each holding the last child whose hash led
//! there, catch about half of them.
//!
//! Dropping a repeat changes nothing: the search files every child it
//! finds, in the cell's set or steps or in a higher layer's pile, where
//! a second copy of an entry is dropped anyway; the child remembered was
//! found by this thread in this search, so it was filed, or its part of
//! the search (a chunk) is searched again whole after a resume, with a
//! new memory.

use super::super::halves::{self, Halves};

/// The places: 4 096, some 200 KB of the followed game's positions, so
/// that they stay in the processor's second-level cache.
const PLACE_BITS: u32 = 12;

/// The last child found at each place, by its hash, and that hash.
///
/// Why the hashes beside the children: a child that is no repeat (half
/// of them) is told by its hash alone, read from 32 KB (a first-level
/// cache's size, where the children take 192 KB), where comparing it with
/// the child held waited on that child's bytes, in the second-level cache
/// or beyond (in a profile of the run of BakersDozen.191326999, that one
/// load took 46% of the children's closure). A repeat's place was
/// written a moment ago.
pub(super) struct Repeats<P> {
    places: Vec<P>,
    hashes: Vec<u64>,
}

impl<P: Halves + PartialEq> Repeats<P> {
    pub(super) fn new() -> Repeats<P> {
        Repeats {
            places: Vec::new(),
            hashes: Vec::new(),
        }
    }

    /// Whether `child` is the child last found at its place, then
    /// remembered there. The places are filled with the first child
    /// found, so that each holds a child found.
    #[inline(always)]
    pub(super) fn again(&mut self, child: &P) -> bool {
        let hash = halves::hash(child);
        if self.places.is_empty() {
            self.places = vec![*child; 1 << PLACE_BITS];
            self.hashes = vec![hash; 1 << PLACE_BITS];
            return false;
        }
        let place = (hash >> (64 - PLACE_BITS)) as usize;
        // The same child has the same hash: one that differs is no repeat.
        if self.hashes[place] == hash && self.places[place] == *child {
            return true;
        }
        self.hashes[place] = hash;
        self.places[place] = *child;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::halves::tests::Two;
    use super::*;

    /// A child is a repeat only if it is the last found at its place:
    /// the first of each is never one, the same again at once always is.
    #[test]
    fn a_repeat_is_a_child_found_before() {
        let mut repeats = Repeats::new();
        let mut found = std::collections::HashSet::new();
        let mut rng = 0x0E5_0171_0000_0007_u64;
        let (mut dropped, mut again) = (0, 0);
        for _ in 0..200_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mut child = Two([0; 32]);
            // Few enough children that many come twice.
            child.0[(rng % 32) as usize] = (rng >> 8) as u8 % 16;
            let seen = !found.insert(child.0);
            if repeats.again(&child) {
                assert!(seen, "{child:?} dropped, never found before");
                dropped += 1;
            }
            if seen {
                again += 1;
            }
            assert!(repeats.again(&child), "found just now");
        }
        assert!(dropped > 0 && dropped < again, "{dropped} of {again}");
    }
}

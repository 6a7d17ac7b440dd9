//! The set of one cell's positions while the cell is searched
//! (`layers.rs`): its entries, `u64` each, in an open-addressing table
//! probed linearly.
//!
//! Why not the standard set: the cells of the longest proofs hold
//! hundreds of millions of positions, and `perf` put 37% of the search
//! in layers in the standard set's insert, waiting on memory. Here a
//! child's slot is asked for ([`CellSet::prefetch`]) as soon as its
//! entry is known, and looked at only once all the children of its
//! position are listed: their waits overlap instead of adding up.
//! A thread's set also gives back the memory of a large cell once it
//! searches a small one ([`CellSet::clear`]).

use std::collections::TryReserveError;

/// The mark of an empty slot. The entry of that value, if any, is held
/// beside the table ([`CellSet::has_empty`]).
const EMPTY: u64 = u64::MAX;

/// The fewest slots of a table that holds anything.
const MIN_SLOTS: usize = 1024;

/// A table is at most 3/4 full: linear probing slows sharply past that.
fn entries_for(slots: usize) -> usize {
    slots / 4 * 3
}

/// A set of `u64`s that grows fallibly (a search under a memory limit
/// stops, open, and never aborts).
#[derive(Default)]
pub(super) struct CellSet {
    /// A power of two of slots, or none.
    slots: Vec<u64>,
    /// Entries held, [`EMPTY`] included.
    len: usize,
    /// Whether the entry [`EMPTY`] is held.
    has_empty: bool,
}

impl CellSet {
    /// Entries held.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Entries it holds without growing.
    pub(super) fn capacity(&self) -> usize {
        entries_for(self.slots.len())
    }

    /// Where `entry`'s probe starts: the top bits of a multiplicative hash
    /// (entries are mixed-radix numbers, near one another; the shift first
    /// brings their high digits down among the low ones).
    #[inline]
    fn home(&self, entry: u64) -> usize {
        let hash = (entry ^ entry >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let bits = self.slots.len().trailing_zeros();
        // A table of no slots: any index (prefetched only, never read).
        hash.checked_shr(u64::BITS - bits).unwrap_or(0) as usize
    }

    /// Asks the processor to start loading `entry`'s slot: an insert of
    /// it soon after finds it in the cache.
    #[inline]
    pub(super) fn prefetch(&self, entry: u64) {
        crate::memory::prefetch(self.slots.as_ptr().wrapping_add(self.home(entry)));
    }

    /// Adds `entry`; false if it was there. Callers make room first
    /// ([`CellSet::try_reserve`]); without room it grows, aborting where
    /// memory is refused, as the standard set does.
    #[inline]
    pub(super) fn insert(&mut self, entry: u64) -> bool {
        if entry == EMPTY {
            let added = !self.has_empty;
            self.has_empty = true;
            self.len += usize::from(added);
            return added;
        }
        if self.len >= entries_for(self.slots.len()) {
            debug_assert!(false, "an insert without room made first");
            let slots = (self.slots.len() * 2).max(MIN_SLOTS);
            self.rehash(vec![EMPTY; slots]);
        }
        let mask = self.slots.len() - 1;
        let mut at = self.home(entry);
        loop {
            let slot = &mut self.slots[at];
            if *slot == entry {
                return false;
            }
            if *slot == EMPTY {
                *slot = entry;
                self.len += 1;
                return true;
            }
            at = (at + 1) & mask;
        }
    }

    /// Makes room for `additional` more entries, or says memory was
    /// refused (the set as it was).
    pub(super) fn try_reserve(&mut self, additional: usize) -> Result<(), TryReserveError> {
        let wanted = self.len.saturating_add(additional);
        if wanted <= self.capacity() {
            return Ok(());
        }
        let mut slots = self.slots.len().max(MIN_SLOTS);
        while entries_for(slots) < wanted {
            slots = slots.saturating_mul(2);
        }
        let mut table = Vec::new();
        table.try_reserve_exact(slots)?;
        table.resize(slots, EMPTY);
        self.rehash(table);
        Ok(())
    }

    /// Moves every entry into `table`, all empty, a power of two long.
    fn rehash(&mut self, table: Vec<u64>) {
        debug_assert!(table.len().is_power_of_two());
        let old = std::mem::replace(&mut self.slots, table);
        let mask = self.slots.len() - 1;
        for entry in old.into_iter().filter(|&entry| entry != EMPTY) {
            let mut at = self.home(entry);
            while self.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = entry;
        }
    }

    /// Calls `f` with each entry, in no order.
    pub(super) fn for_each(&self, mut f: impl FnMut(u64)) {
        self.slots
            .iter()
            .filter(|&&entry| entry != EMPTY)
            .for_each(|&entry| f(entry));
        if self.has_empty {
            f(EMPTY);
        }
    }

    /// Empties it for the next cell. A table sixteen times larger than
    /// what it held is given back rather than wiped: one cell of hundreds
    /// of millions of positions would otherwise keep its gigabytes, and
    /// cost a wipe of them, through every small cell after it.
    pub(super) fn clear(&mut self) {
        if self.slots.len() > MIN_SLOTS && self.len < self.slots.len() / 16 {
            self.slots = Vec::new();
        } else {
            self.slots.fill(EMPTY);
        }
        self.len = 0;
        self.has_empty = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rustc_hash::FxHashSet;

    proptest! {
        /// Inserts answer as the standard set's do, whatever the entries
        /// (near ones, far ones, the empty slot's mark), through growth
        /// and clears, and the entries listed are the standard set's.
        #[test]
        fn it_holds_what_the_standard_set_holds(
            rounds in prop::collection::vec(
                prop::collection::vec(
                    prop_oneof![0u64..3000, any::<u64>(), Just(u64::MAX), Just(0)],
                    0..4000,
                ),
                1..4,
            ),
        ) {
            let mut set = CellSet::default();
            for round in rounds {
                set.clear();
                let mut standard = FxHashSet::default();
                for entry in round {
                    set.try_reserve(1).unwrap();
                    set.prefetch(entry);
                    prop_assert_eq!(set.insert(entry), standard.insert(entry));
                    prop_assert_eq!(set.len(), standard.len());
                    prop_assert!(set.len() <= set.capacity());
                }
                let mut listed = Vec::new();
                set.for_each(|entry| listed.push(entry));
                let each: FxHashSet<u64> = listed.iter().copied().collect();
                prop_assert_eq!(listed.len(), each.len());
                prop_assert_eq!(each, standard);
            }
        }
    }

    #[test]
    fn a_reserve_makes_room_for_that_many_inserts_without_growing() {
        let mut set = CellSet::default();
        set.try_reserve(5000).unwrap();
        let slots = set.slots.len();
        assert!(set.capacity() >= 5000);
        for entry in 0..5000 {
            assert!(set.insert(entry * 7919));
        }
        assert_eq!((set.slots.len(), set.len()), (slots, 5000));
        assert!(!set.insert(7919));
    }

    #[test]
    fn a_large_table_is_given_back_once_a_cell_is_small() {
        let mut set = CellSet::default();
        set.try_reserve(1 << 16).unwrap();
        (0..1 << 16).for_each(|entry| assert!(set.insert(entry)));
        set.clear();
        assert!(set.slots.len() >= 1 << 16, "kept: the cell filled it");
        set.try_reserve(10).unwrap();
        (0..10).for_each(|entry| assert!(set.insert(entry)));
        set.clear();
        assert_eq!((set.slots.len(), set.len()), (0, 0));
        set.try_reserve(1).unwrap();
        assert!(set.insert(3));
        assert!(!set.insert(3));
    }

    #[test]
    fn a_reserve_too_large_is_refused_not_aborted() {
        let mut set = CellSet::default();
        assert!(set.try_reserve(usize::MAX / 2).is_err());
        assert_eq!(set.len(), 0);
    }
}

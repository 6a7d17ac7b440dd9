//! The visited set: every position stored once, in insertion order, with
//! an open-addressing table of indices for look-ups. No per-position heap
//! box: a position is 24 bytes of the store and 4 of the table.
//!
//! Both grow fallibly ([`Visited::make_room`]): a search that runs out of
//! memory ends as `ECHEC` ("out of memory"), never as an abort.

use std::collections::TryReserveError;

use crate::state::Key;

/// One stored position: its key, the index of its parent and its moves
/// from the deal. Packed to 24 bytes: the last key word only ever uses 30
/// bits and an index 27, so the 7 bits left hold the depth (see
/// [`MAX_DEPTH`]).
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
struct Entry {
    key0: u64,
    key1: u64,
    /// The last key word, and above its 30 bits the depth's top 2 bits.
    key2: u32,
    /// The parent's index, and above its 27 bits the depth's low 5 bits.
    parent: u32,
}

/// Bits of the last key word.
const KEY2_BITS: u32 = 30;
/// Bits of the depth kept beside the parent's index.
const DEPTH_LOW_BITS: u32 = u32::BITS - INDEX_BITS;

/// Depths are kept up to this many moves, and deeper ones as this: the
/// orderings' tie-break counts at most 63 (`frontier::MAX_RANK`) and a
/// split at most a few moves, so no search tells 127 from more.
pub(super) const MAX_DEPTH: u16 = (1 << (u32::BITS - KEY2_BITS + DEPTH_LOW_BITS)) - 1;

impl Entry {
    fn new(key: &Key, parent: u32, depth: u16) -> Entry {
        let [key0, key1, key2] = key.words();
        debug_assert!(key2 >> KEY2_BITS == 0 && parent <= INDEX_MASK);
        let depth = depth.min(MAX_DEPTH) as u32;
        Entry {
            key0,
            key1,
            key2: key2 as u32 | (depth >> DEPTH_LOW_BITS) << KEY2_BITS,
            parent: parent | depth << INDEX_BITS,
        }
    }

    fn key(&self) -> Key {
        let key2 = self.key2 & ((1 << KEY2_BITS) - 1);
        Key::from_words([self.key0, self.key1, key2 as u64])
    }

    fn parent(&self) -> u32 {
        self.parent & INDEX_MASK
    }

    fn depth(&self) -> u16 {
        let (key2, parent) = (self.key2, self.parent);
        ((key2 >> KEY2_BITS) << DEPTH_LOW_BITS | parent >> INDEX_BITS) as u16
    }
}

/// The parent of the deal's position: an index no position has.
pub(super) const NO_PARENT: u32 = INDEX_MASK;

/// Bits of a table slot that hold the index: up to 2^27 - 2 positions
/// (over 5 GB of them), far above the default `--max-states`.
const INDEX_BITS: u32 = 27;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;
/// The bits above the index hold this many of the key hash's top bits, so
/// that most probes that miss never touch the store (a cache miss).
const TAG_BITS: u32 = u32::BITS - INDEX_BITS;
/// Where a key's first slot is taken from its hash: the bits from here up
/// (the low bits of the multiply mix least).
const SLOT_SHIFT: u32 = 20;
/// The most positions the visited set can hold.
pub const MAX_STATES: u64 = INDEX_MASK as u64 - 1;

/// Slots of a new table.
const FIRST_TABLE_SLOTS: usize = 1 << 12;
/// The table grows once one more key would fill more than this share of
/// its slots, ...
const MAX_LOAD_PERCENT: usize = 70;
/// ... by this factor (a power of 2 keeps the length one).
const TABLE_GROWTH: usize = 2;

#[inline]
pub(super) fn hash(key: &Key) -> u64 {
    // One multiply-rotate round per word (the FxHash step), finished by a
    // multiply so that the table's high bits see every input bit.
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mut h = 0u64;
    for w in key.words() {
        h = (h.rotate_left(26) ^ w).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

pub(super) struct Visited {
    entries: Vec<Entry>,
    /// Per slot: 0 when empty, else `index + 1` into `entries` in the low
    /// [`INDEX_BITS`] bits and the key hash's tag above them. Length is a
    /// power of 2.
    table: Vec<u32>,
}

/// Where a key is, or where it would go, in the visited set.
pub(super) enum Probe {
    Found,
    Vacant { slot: usize, tag: u32 },
}

/// The one walk of the table: from the first slot of a key of this hash
/// to the first empty slot, stopping early at a slot whose tag matches and
/// whose stored position `is_it` accepts.
#[inline]
fn walk(table: &[u32], hash: u64, mut is_it: impl FnMut(u32) -> bool) -> Probe {
    let mask = table.len() - 1;
    let mut slot = first_slot(hash, mask);
    let tag = ((hash >> (u64::BITS - TAG_BITS)) as u32) << INDEX_BITS;
    loop {
        let at = table[slot];
        if at == 0 {
            return Probe::Vacant { slot, tag };
        }
        if at & !INDEX_MASK == tag && is_it((at & INDEX_MASK) - 1) {
            return Probe::Found;
        }
        slot = (slot + 1) & mask;
    }
}

/// The slot where the walk for a key of this hash starts.
#[inline]
fn first_slot(hash: u64, mask: usize) -> usize {
    (hash >> SLOT_SHIFT) as usize & mask
}

/// Asks the processor to start loading the cache line at `at`.
#[inline]
fn prefetch_line<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing the program sees
    // and never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(at as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

impl Visited {
    /// `capacity`: the most positions this search may store. Reserving
    /// them up front costs address space only (pages are touched as
    /// positions arrive) and spares the store a doubling copy, which would
    /// briefly hold the old and new arrays at once. Where address space is
    /// scarce (`ulimit -v`) and that fails, the store grows as positions
    /// arrive instead.
    pub(super) fn new(capacity: u64) -> Visited {
        let mut entries = Vec::new();
        let _ = entries.try_reserve_exact(capacity.min(MAX_STATES) as usize + 1);
        Visited {
            entries,
            table: vec![0; FIRST_TABLE_SLOTS],
        }
    }

    /// Makes room for `n` more positions in the store and the table, so
    /// that the next `n` probes and inserts allocate nothing. When memory
    /// runs out, fails with the set unchanged.
    pub(super) fn make_room(&mut self, n: usize) -> Result<(), TryReserveError> {
        self.entries.try_reserve(n)?;
        let mut slots = self.table.len();
        while (self.entries.len() + n) * 100 > slots * MAX_LOAD_PERCENT {
            slots *= TABLE_GROWTH;
        }
        if slots > self.table.len() {
            self.grow_to(slots)?;
        }
        Ok(())
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Looks up `key`, whose [`hash`] is `hash`, once
    /// [`Visited::make_room`] has made room for it: the table never fills,
    /// so a vacant slot is always found and stays valid for
    /// [`Visited::insert_at`].
    #[inline]
    pub(super) fn probe(&self, key: &Key, hash: u64) -> Probe {
        debug_assert!((self.entries.len() + 1) * 100 <= self.table.len() * MAX_LOAD_PERCENT);
        let entries = &self.entries;
        walk(&self.table, hash, |index| {
            entries[index as usize].key() == *key
        })
    }

    /// Where `key`, whose [`hash`] is `hash`, is stored, if it is.
    pub(super) fn index_of(&self, key: &Key, hash: u64) -> Option<u32> {
        let mut found = None;
        walk(&self.table, hash, |index| {
            let it = self.entries[index as usize].key() == *key;
            found = found.or(it.then_some(index));
            it
        });
        found
    }

    /// Asks the processor to start loading the first table slot of a key
    /// of this [`hash`].
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        let slot = first_slot(hash, self.table.len() - 1);
        prefetch_line(self.table.as_ptr().wrapping_add(slot));
    }

    /// Once the table slots of a key of this [`hash`] are loaded (see
    /// [`Visited::prefetch`]): asks the processor to start loading the
    /// stored position of the first slot whose tag matches, the one
    /// [`Visited::probe`] will compare with. A key already stored is a
    /// cache miss on its entry; started side by side for all the children
    /// of a position, those misses overlap.
    #[inline]
    pub(super) fn prefetch_match(&self, hash: u64) {
        walk(&self.table, hash, |index| {
            self.prefetch_entry(index);
            true
        });
    }

    /// Asks the processor to start loading a stored position.
    #[inline]
    pub(super) fn prefetch_entry(&self, index: u32) {
        prefetch_line(self.entries.as_ptr().wrapping_add(index as usize));
    }

    /// Stores a key, `depth` moves from the deal, at the vacant slot
    /// [`Visited::probe`] just returned.
    #[inline]
    pub(super) fn insert_at(
        &mut self,
        slot: usize,
        tag: u32,
        key: &Key,
        parent: u32,
        depth: u16,
    ) -> u32 {
        let index = self.entries.len() as u32;
        self.entries.push(Entry::new(key, parent, depth));
        self.table[slot] = tag | (index + 1);
        index
    }

    /// Stores `key` unless already there; returns its new index if new.
    pub(super) fn insert(
        &mut self,
        key: &Key,
        parent: u32,
        depth: u16,
    ) -> Result<Option<u32>, TryReserveError> {
        self.make_room(1)?;
        Ok(match self.probe(key, hash(key)) {
            Probe::Found => None,
            Probe::Vacant { slot, tag } => Some(self.insert_at(slot, tag, key, parent, depth)),
        })
    }

    /// Replaces the table by one of `slots` slots, built before the old one
    /// is dropped: the old table stays when there is no memory for it.
    fn grow_to(&mut self, slots: usize) -> Result<(), TryReserveError> {
        let mut table = Vec::new();
        table.try_reserve_exact(slots)?;
        table.resize(slots, 0);
        for (i, entry) in self.entries.iter().enumerate() {
            // Every key is stored once: only the vacant slot is wanted.
            if let Probe::Vacant { slot, tag } = walk(&table, hash(&entry.key()), |_| false) {
                table[slot] = tag | (i as u32 + 1);
            }
        }
        self.table = table;
        Ok(())
    }

    pub(super) fn key(&self, index: u32) -> Key {
        self.entries[index as usize].key()
    }

    pub(super) fn parent(&self, index: u32) -> u32 {
        self.entries[index as usize].parent()
    }

    /// Moves from the deal, up to [`MAX_DEPTH`].
    pub(super) fn depth(&self, index: u32) -> u16 {
        self.entries[index as usize].depth()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_visited_set_stores_each_key_once() {
        let mut v = Visited::new(16);
        // The last word uses all its 30 bits in some keys.
        let keys: Vec<Key> = (0..20_000u64)
            .map(|i| Key::from_words([i * 7919, i % 13, (i * 0x9E37_79B9) % (1 << 30)]))
            .collect();
        for (i, k) in keys.iter().enumerate() {
            let parent = (i as u32).wrapping_sub(1).min(NO_PARENT);
            assert_eq!(v.insert(k, parent, i as u16 % 200), Ok(Some(i as u32)));
        }
        for k in &keys {
            assert_eq!(v.insert(k, 0, 0), Ok(None));
        }
        assert_eq!(v.len(), keys.len());
        for (i, k) in keys.iter().enumerate() {
            let index = i as u32;
            assert_eq!(v.key(index), *k);
            assert_eq!(v.parent(index), index.wrapping_sub(1).min(NO_PARENT));
            assert_eq!(v.depth(index), (i as u16 % 200).min(MAX_DEPTH));
        }
        assert_eq!(MAX_DEPTH, 127);
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }

    #[test]
    fn room_that_cannot_be_had_is_refused_and_the_set_still_works() {
        let mut v = Visited::new(16);
        let key = |i: u64| Key::from_words([i, 1, 2]);
        assert_eq!(v.insert(&key(1), 0, 0), Ok(Some(0)));
        // More than the address space: refused, not an abort.
        assert!(v.make_room(usize::MAX / 8).is_err());
        assert!(v.make_room(1 << 60).is_err());
        assert_eq!(v.insert(&key(1), 0, 0), Ok(None));
        assert_eq!(v.insert(&key(2), 0, 0), Ok(Some(1)));
        assert_eq!(v.len(), 2);
    }
}

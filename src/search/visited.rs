//! The visited set: every position stored once, in insertion order, with
//! an open-addressing table of indices for look-ups. No per-position heap
//! box: a position is 24 bytes of the store and 4 of the table.
//!
//! Both grow fallibly ([`Visited::make_room`]): a search that runs out of
//! memory ends as `ECHEC` ("out of memory"), never as an abort.

use std::collections::TryReserveError;

use crate::state::Key;

/// One stored position: its key, the index of its parent and its moves
/// from the deal. Packed to 24 bytes: the key's 156 bits leave the top bit
/// of its first two words and 2 bits above its last word's 30 unused, and
/// an index takes 29 of the parent's 32 bits, so the 7 bits left over hold
/// the depth (see [`MAX_DEPTH`]).
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
struct Entry {
    /// The first key word (63 bits), and above it the depth's bit 5.
    key0: u64,
    /// The second key word (63 bits), and above it the depth's bit 6.
    key1: u64,
    /// The last key word, and above its 30 bits the depth's bits 3 and 4.
    key2: u32,
    /// The parent's index, and above its 29 bits the depth's low 3 bits.
    parent: u32,
}

/// Bits of the first two key words: 21 cards of 3 bits each.
const KEY01_MASK: u64 = u64::MAX >> 1;
/// Bits of the last key word.
const KEY2_BITS: u32 = 30;
/// Bits of the depth kept beside the parent's index.
const DEPTH_LOW_BITS: u32 = u32::BITS - INDEX_BITS;
/// Bits of the depth kept above the last key word.
const DEPTH_MID_BITS: u32 = u32::BITS - KEY2_BITS;
/// Where the depth's bits kept in the first two key words start.
const DEPTH_HIGH_SHIFT: u32 = DEPTH_LOW_BITS + DEPTH_MID_BITS;

/// Depths are kept up to this many moves, and deeper ones as this: the
/// orderings' tie-break counts at most 63 (`frontier::MAX_RANK`) and a
/// split at most a few moves, so no search tells 127 from more.
pub(super) const MAX_DEPTH: u16 = (1 << (DEPTH_HIGH_SHIFT + 2)) - 1;

impl Entry {
    fn new(key: &Key, parent: u32, depth: u16) -> Entry {
        let [key0, key1, key2] = key.words();
        debug_assert!(key0 >> 63 == 0 && key1 >> 63 == 0);
        debug_assert!(key2 >> KEY2_BITS == 0 && parent <= INDEX_MASK);
        let depth = depth.min(MAX_DEPTH) as u32;
        let high = |bit: u32| ((depth >> (DEPTH_HIGH_SHIFT + bit)) as u64 & 1) << 63;
        Entry {
            key0: key0 | high(0),
            key1: key1 | high(1),
            key2: key2 as u32 | (depth >> DEPTH_LOW_BITS) << KEY2_BITS,
            parent: parent | depth << INDEX_BITS,
        }
    }

    fn key(&self) -> Key {
        let key2 = self.key2 & ((1 << KEY2_BITS) - 1);
        Key::from_words([self.key0 & KEY01_MASK, self.key1 & KEY01_MASK, key2 as u64])
    }

    fn parent(&self) -> u32 {
        self.parent & INDEX_MASK
    }

    fn depth(&self) -> u16 {
        let (key0, key1, key2, parent) = (self.key0, self.key1, self.key2, self.parent);
        let high = (key0 >> 63 | (key1 >> 63) << 1) as u32;
        let depth = high << DEPTH_HIGH_SHIFT | (key2 >> KEY2_BITS) << DEPTH_LOW_BITS;
        (depth | parent >> INDEX_BITS) as u16
    }
}

/// The parent of the deal's position: an index no position has.
pub(super) const NO_PARENT: u32 = INDEX_MASK;

/// Bits of a stored parent's index: up to 2^29 - 2 positions.
const INDEX_BITS: u32 = 29;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;
/// The most positions one search may store (`--max-states` at most): 24 GB
/// of them at the worst case's [`super::BYTES_PER_POSITION`], 16 GB at the
/// 31 to 33 B a position long searches hold at their peak: what a 24 GB
/// machine can give one search. Their indices fit `INDEX_BITS`, even
/// those of the children stored past the limit (see `OVERSHOOT`).
pub const MAX_STATES: u64 = 500_000_000;
const _: () = assert!(MAX_STATES + (OVERSHOOT as u64) < NO_PARENT as u64);

/// The fewest bits of a table slot that hold the index: the rest hold a
/// tag of the key hash's top bits, so that most probes that miss never
/// touch the store (a cache miss). A table indexes 2^27 - 1 positions
/// with 5 tag bits, and only a larger table (a search past 94 M
/// positions) takes one more index bit from its tags for each doubling,
/// up to [`INDEX_BITS`]: the common case keeps its 5 tag bits.
const LEAST_TABLE_INDEX_BITS: u32 = 27;
/// Where a key's first slot is taken from its hash: the bits from here up
/// (the low bits of the multiply mix least). Below the tags' bits (from
/// bit 32 + the table's index bits up).
const SLOT_SHIFT: u32 = 20;

/// Slots of a new table.
const FIRST_TABLE_SLOTS: usize = 1 << 12;
/// The table grows once one more key would fill more than this share of
/// its slots: to the next power of 2 (twice its length, mostly), or to
/// what the most positions the search may store need (see
/// [`Visited::expect_at_most`]) when that is less. A search stopped by
/// `--max-states` then holds a table filled near this share, not one
/// doubled for positions it will never store (at the default 50 M
/// positions: 286 MB instead of 537 MB). Smaller steps all along would
/// keep every search's table that full, but each step rebuilds the table
/// from the store, one cache miss a position: growing by a quarter at 80%
/// cost 15 to 35% of the time of long searches.
const MAX_LOAD_PERCENT: usize = 70;
/// Positions a search may store beyond its limit: the children of the
/// position whose expansion reached it.
const OVERSHOOT: usize = 1 << 10;

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
    /// Per slot: 0 when empty, else `index + 1` into `entries` in the bits
    /// of `index_mask` and the key hash's tag above them. Any length (see
    /// [`first_slot`]), so that its last growth can stop short.
    table: Vec<u32>,
    /// The bits of a table slot that hold the index: see
    /// [`table_index_mask`].
    index_mask: u32,
    /// The most positions the search may store, once it is known: see
    /// [`Visited::expect_at_most`].
    most: Option<usize>,
}

/// Where a key is, or where it would go, in the visited set.
pub(super) enum Probe {
    Found,
    Vacant { slot: usize, tag: u32 },
}

/// The one walk of the table, whose slots hold an index in the bits of
/// `index_mask`: from the first slot of a key of this hash to the first
/// empty slot, stopping early at a slot whose tag matches and whose stored
/// position `is_it` accepts.
#[inline]
fn walk(table: &[u32], index_mask: u32, hash: u64, mut is_it: impl FnMut(u32) -> bool) -> Probe {
    let mut slot = first_slot(hash, table.len());
    // The hash's top bits, as many as the index leaves.
    let tag = (hash >> 32) as u32 & !index_mask;
    loop {
        let at = table[slot];
        if at == 0 {
            return Probe::Vacant { slot, tag };
        }
        if at & !index_mask == tag && is_it((at & index_mask) - 1) {
            return Probe::Found;
        }
        slot += 1;
        if slot == table.len() {
            slot = 0;
        }
    }
}

/// The bits of a slot of a table `slots` long that hold an index: enough
/// for every position it may hold before it grows (`index + 1`, and 0 for
/// an empty slot), and at least [`LEAST_TABLE_INDEX_BITS`].
fn table_index_mask(slots: usize) -> u32 {
    let most = (slots * MAX_LOAD_PERCENT / 100 + 1) as u64;
    let bits = (u64::BITS - most.leading_zeros()).clamp(LEAST_TABLE_INDEX_BITS, INDEX_BITS);
    ((1u64 << bits) - 1) as u32
}

/// The slot where the walk for a key of this hash starts, among `slots`:
/// 32 bits of the hash scaled to the table's length (a multiply and a
/// shift, where a power-of-2 length would take a mask: no slower within
/// the noise of long searches), so that any length up to 2^32 serves.
#[inline]
fn first_slot(hash: u64, slots: usize) -> usize {
    debug_assert!(slots as u64 <= 1 << 32);
    (((hash >> SLOT_SHIFT) as u32 as u64 * slots as u64) >> 32) as usize
}

impl Visited {
    /// `capacity`: the most positions this search may store. Reserving
    /// them up front costs address space only (pages are touched as
    /// positions arrive) and spares the store a doubling copy, which would
    /// briefly hold the old and new arrays at once. Where address space is
    /// scarce (`ulimit -v`) and that fails, the store grows as positions
    /// arrive instead. The table is not allocated here but by the first
    /// [`Visited::make_room`], where memory that cannot be had is an
    /// outcome: an allocation here would abort the process (seen with
    /// `ulimit -v` and a second thread starting its attempt).
    pub(super) fn new(capacity: u64) -> Visited {
        let mut entries = Vec::new();
        let _ = entries.try_reserve_exact(capacity.min(MAX_STATES) as usize + 1);
        Visited {
            entries,
            table: Vec::new(),
            index_mask: table_index_mask(FIRST_TABLE_SLOTS),
            most: None,
        }
    }

    /// Says that the search will store at most `most` positions (and the
    /// children of the last one expanded): the table never grows beyond
    /// what they need. Only for a budget that will not be raised: a table
    /// sized to a budget that then grows is rebuilt once more than it would
    /// have been (measured: 5% of the time of a long FreeCell proof when
    /// every turn of the prover was capped).
    pub(super) fn expect_at_most(&mut self, most: u64) {
        self.most = Some(most.min(MAX_STATES) as usize + OVERSHOOT);
    }

    /// Makes room for `n` more positions in the store and the table, so
    /// that the next `n` probes and inserts allocate nothing. When memory
    /// runs out, fails with the set unchanged.
    pub(super) fn make_room(&mut self, n: usize) -> Result<(), TryReserveError> {
        let needed = self.entries.len() + n;
        if needed >= NO_PARENT as usize {
            // More than an index can say: refused like memory that cannot
            // be had.
            return Vec::<u8>::new().try_reserve(usize::MAX);
        }
        self.entries.try_reserve(n)?;
        let slots_for = |positions: usize| positions * 100 / MAX_LOAD_PERCENT + 1;
        let slots = if needed * 100 <= self.table.len() * MAX_LOAD_PERCENT {
            self.table.len()
        } else {
            let doubled = slots_for(needed).next_power_of_two();
            match self.most {
                Some(most) if needed <= most => doubled.min(slots_for(most)),
                _ => doubled,
            }
        };
        // The first table (none yet) has at least the first size.
        let slots = slots.max(FIRST_TABLE_SLOTS);
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
        walk(&self.table, self.index_mask, hash, |index| {
            entries[index as usize].key() == *key
        })
    }

    /// Where `key`, whose [`hash`] is `hash`, is stored, if it is.
    pub(super) fn index_of(&self, key: &Key, hash: u64) -> Option<u32> {
        if self.table.is_empty() {
            return None;
        }
        let mut found = None;
        walk(&self.table, self.index_mask, hash, |index| {
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
        let slot = first_slot(hash, self.table.len());
        crate::memory::prefetch(self.table.as_ptr().wrapping_add(slot));
    }

    /// Once the table slots of a key of this [`hash`] are loaded (see
    /// [`Visited::prefetch`]): asks the processor to start loading the
    /// stored position of the first slot whose tag matches, the one
    /// [`Visited::probe`] will compare with. A key already stored is a
    /// cache miss on its entry; started side by side for all the children
    /// of a position, those misses overlap.
    #[inline]
    pub(super) fn prefetch_match(&self, hash: u64) {
        walk(&self.table, self.index_mask, hash, |index| {
            self.prefetch_entry(index);
            true
        });
    }

    /// Asks the processor to start loading a stored position.
    #[inline]
    pub(super) fn prefetch_entry(&self, index: u32) {
        crate::memory::prefetch(self.entries.as_ptr().wrapping_add(index as usize));
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
        debug_assert!(index < self.index_mask);
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

    /// Makes the table `slots` long and refills it from the store, which
    /// holds every key: the old slots are not needed, so the table grows
    /// in place (a large block is remapped, not copied) and the old and
    /// new tables never take memory at once. When there is no memory for
    /// the longer table, the table is left as it was.
    fn grow_to(&mut self, slots: usize) -> Result<(), TryReserveError> {
        self.table.try_reserve_exact(slots - self.table.len())?;
        self.table.clear();
        self.table.resize(slots, 0);
        self.index_mask = table_index_mask(slots);
        let (table, mask) = (&mut self.table, self.index_mask);
        for (i, entry) in self.entries.iter().enumerate() {
            // Every key is stored once: only the vacant slot is wanted.
            if let Probe::Vacant { slot, tag } = walk(table, mask, hash(&entry.key()), |_| false) {
                table[slot] = tag | (i as u32 + 1);
            }
        }
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
    fn every_key_bit_and_every_depth_bit_come_back() {
        let mut v = Visited::new(0);
        // Keys using every bit a key word may hold, with every depth.
        let full = [u64::MAX >> 1, u64::MAX >> 1, (1 << KEY2_BITS) - 1];
        for depth in 0..=MAX_DEPTH + 3 {
            let d = depth as u64;
            let key = Key::from_words([full[0] ^ d, full[1] ^ (d << 40), full[2] ^ d]);
            let parent = NO_PARENT - 1 - depth as u32;
            let index = v.insert(&key, parent, depth).unwrap().unwrap();
            assert_eq!(v.key(index), key);
            assert_eq!(v.parent(index), parent);
            assert_eq!(v.depth(index), depth.min(MAX_DEPTH));
        }
        assert_eq!(v.parent(0), NO_PARENT - 1);
    }

    /// A new set allocates no table (an allocation that fails there would
    /// abort the process): the first room made gives it its first size,
    /// and a look-up before that finds nothing.
    #[test]
    fn the_first_table_comes_with_the_first_room() {
        let mut v = Visited::new(1000);
        assert!(v.table.is_empty());
        let k = Key::from_words([1, 2, 3]);
        assert_eq!(v.index_of(&k, hash(&k)), None);
        v.make_room(1).unwrap();
        assert_eq!(v.table.len(), FIRST_TABLE_SLOTS);
        let index = v.insert(&k, NO_PARENT, 0).unwrap().unwrap();
        assert_eq!(v.index_of(&k, hash(&k)), Some(index));
    }

    #[test]
    fn only_a_table_past_the_old_index_limit_gives_tag_bits_to_the_index() {
        let bits = |slots: usize| u32::BITS - table_index_mask(slots).leading_zeros();
        assert_eq!(bits(FIRST_TABLE_SLOTS), LEAST_TABLE_INDEX_BITS);
        // The table of a search at 134 M positions: 5 tag bits, as before.
        let old_most = (1usize << 27) - 2;
        assert_eq!(bits(old_most * 100 / MAX_LOAD_PERCENT), 27);
        assert_eq!(bits(old_most * 2 * 100 / MAX_LOAD_PERCENT), 28);
        // The table of a search at the most: 3 tag bits, every index fits.
        let most = (MAX_STATES as usize + OVERSHOOT) * 100 / MAX_LOAD_PERCENT + 1;
        assert_eq!(bits(most), INDEX_BITS);
        // The last index past the limit, plus 1 (0 is an empty slot).
        assert!(table_index_mask(most) > MAX_STATES as u32 + OVERSHOOT as u32);
        // A wide index and its tag side by side in a slot: the walk reads
        // each back (indices near the most, with every tag).
        let mask = table_index_mask(most);
        for tag in 0..8u64 {
            let hash = tag << 61 | 12345 << SLOT_SHIFT;
            let mut table = vec![0; 64];
            let Probe::Vacant { slot, tag: t } = walk(&table, mask, hash, |_| false) else {
                panic!("an empty table");
            };
            let index = MAX_STATES as u32 + tag as u32;
            table[slot] = t | (index + 1);
            let mut seen = None;
            let found = walk(&table, mask, hash, |i| {
                seen = Some(i);
                true
            });
            assert!(matches!(found, Probe::Found));
            assert_eq!(seen, Some(index));
            // Another tag passes it by without a look at the store.
            let other = hash ^ 1 << 63;
            assert!(matches!(
                walk(&table, mask, other, |_| true),
                Probe::Vacant { .. }
            ));
        }
    }

    #[test]
    fn a_walk_from_the_last_slot_of_any_length_wraps_to_the_first() {
        for slots in [5, 4096, 5000, 1 << 20] {
            // The largest 32 bits the slot is taken from: the last slot.
            let hash = (u32::MAX as u64) << SLOT_SHIFT;
            assert_eq!(first_slot(hash, slots), slots - 1);
            assert_eq!(first_slot(0, slots), 0);
            let mut table = vec![0; slots];
            // Taken, by a position of another tag.
            let mask = table_index_mask(slots);
            table[slots - 1] = (mask + 1) | 1;
            assert!(matches!(
                walk(&table, mask, hash, |_| true),
                Probe::Vacant { slot: 0, .. }
            ));
        }
    }

    #[test]
    fn a_table_sized_to_its_budget_fills_past_it_and_keeps_every_key() {
        let key = |i: u64| Key::from_words([i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1, i, 7]);
        let mut capped = Visited::new(0);
        let mut doubling = Visited::new(0);
        let most = 100_000u64;
        capped.expect_at_most(most);
        for i in 0..most {
            assert_eq!(capped.insert(&key(i), 0, 0), Ok(Some(i as u32)));
            assert_eq!(doubling.insert(&key(i), 0, 0), Ok(Some(i as u32)));
        }
        // Doubled to the next power of 2; the budget's table is not.
        assert_eq!(doubling.table.len(), 1 << 18);
        let slots = capped.table.len();
        assert!(!slots.is_power_of_two(), "{slots}");
        assert_eq!(
            slots,
            (most as usize + OVERSHOOT) * 100 / MAX_LOAD_PERCENT + 1
        );
        // Past the budget (a search that overshoots, or one misjudged):
        // the table grows again, and no key is lost.
        for i in most..3 * most {
            assert_eq!(capped.insert(&key(i), 0, 0), Ok(Some(i as u32)));
        }
        assert!(capped.table.len() > slots);
        for i in 0..3 * most {
            assert_eq!(capped.insert(&key(i), 1, 1), Ok(None));
            assert_eq!(capped.index_of(&key(i), hash(&key(i))), Some(i as u32));
        }
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

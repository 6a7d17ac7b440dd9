//! A set of `u64` that takes a few bytes a member: the entries a cell of
//! the search in layers holds until its layer comes.
//!
//! Why: a layered search of bd.1649's suitless game holds some 1 G
//! entries at once (docs/hard-deals.md), 16 to 22 bytes each in hash
//! sets, more than this machine's memory. A cell's entries are only
//! added to until the cell is searched, then read once, whole, in any
//! order: a sorted list, each member written as its difference from the
//! one before in as few bytes as it needs (7 bits a byte), holds them in
//! about a third of that. New members wait loose, unsorted, until they
//! are an eighth of the sorted ones; then their repeats are dropped (a
//! cell's entry is filed some four times: bd.49675), and only if half of
//! that room is still taken are both merged. Each member is so rewritten
//! a few times in all, a few nanoseconds each.

use std::collections::TryReserveError;

/// The set (the module doc).
#[derive(Default)]
pub(super) struct Pile {
    /// The sorted members, differences in 7-bit groups, low first, the
    /// high bit set on every byte but a number's last.
    packed: Vec<u8>,
    /// Members in `packed`.
    sorted: usize,
    /// Members added since, unsorted, perhaps repeated.
    loose: Vec<u64>,
}

/// Loose members kept before a merge, at least: a merge of a small pile
/// costs more than its members' bytes save.
const LOOSE_AT_LEAST: usize = 32;

impl Pile {
    /// Members held, repeats among the loose ones counted.
    pub(super) fn len(&self) -> usize {
        self.sorted + self.loose.len()
    }

    /// Bytes held (not counting the pile itself).
    pub(super) fn bytes(&self) -> usize {
        self.packed.capacity() + 8 * self.loose.capacity()
    }

    /// Adds `member`. On a refusal of memory the pile holds the same
    /// members as before.
    pub(super) fn add(&mut self, member: u64) -> Result<(), TryReserveError> {
        let room = LOOSE_AT_LEAST.max(self.sorted / 8);
        if self.loose.len() >= room {
            self.loose.sort_unstable();
            self.loose.dedup();
            if self.loose.len() >= room / 2 {
                self.merge()?;
            }
        }
        if self.loose.len() == self.loose.capacity() {
            // Exactly the room: a loose member never takes more than a
            // byte of each sorted one.
            let room = LOOSE_AT_LEAST.max(self.sorted / 8);
            self.loose.try_reserve_exact(room - self.loose.len())?;
        }
        self.loose.push(member);
        Ok(())
    }

    /// The loose members, sorted and without repeats, merged into the
    /// sorted ones.
    fn merge(&mut self) -> Result<(), TryReserveError> {
        // A member put between two others takes no more bytes than the
        // difference it splits: room enough, then the room left freed.
        let mut packed = Vec::new();
        packed.try_reserve_exact(self.packed.len() + 10 * self.loose.len())?;
        let mut last = 0;
        let mut members = 0;
        merged(&self.packed, &self.loose, |member| {
            write(&mut packed, member - last);
            last = member;
            members += 1;
        });
        packed.shrink_to_fit();
        self.packed = packed;
        self.sorted = members;
        self.loose.clear();
        Ok(())
    }

    /// Every member, in no set order; one added more than once since the
    /// last merge may come more than once.
    pub(super) fn for_each(&self, mut f: impl FnMut(u64)) {
        sorted(&self.packed, &mut f);
        self.loose.iter().copied().for_each(f);
    }
}

/// The members of `packed`, in order.
fn sorted(packed: &[u8], mut f: impl FnMut(u64)) {
    let mut last = 0u64;
    let mut at = 0;
    while at < packed.len() {
        let (difference, next) = read(packed, at);
        last += difference;
        at = next;
        f(last);
    }
}

/// The members of `packed` and of `loose` (sorted, without repeats), in
/// order, each once.
fn merged(packed: &[u8], loose: &[u64], mut f: impl FnMut(u64)) {
    let mut loose = loose.iter().copied().peekable();
    sorted(packed, |member| {
        while let Some(new) = loose.next_if(|&new| new < member) {
            f(new);
        }
        loose.next_if_eq(&member);
        f(member);
    });
    loose.for_each(f);
}

fn write(packed: &mut Vec<u8>, mut number: u64) {
    while number >= 0x80 {
        packed.push(number as u8 | 0x80);
        number >>= 7;
    }
    packed.push(number as u8);
}

/// The number written at `at`, and where the next begins.
fn read(packed: &[u8], mut at: usize) -> (u64, usize) {
    let mut number = 0u64;
    let mut shift = 0;
    loop {
        let byte = packed[at];
        at += 1;
        number |= u64::from(byte & 0x7F) << shift;
        if byte < 0x80 {
            return (number, at);
        }
        shift += 7;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn members(pile: &Pile) -> Vec<u64> {
        let mut all = BTreeSet::new();
        pile.for_each(|member| {
            all.insert(member);
        });
        all.into_iter().collect()
    }

    proptest! {
        /// Whatever is added, repeats and all, the pile gives back the
        /// members a set would hold, loose or merged.
        #[test]
        fn a_pile_holds_what_a_set_holds(
            added in prop::collection::vec(
                prop_oneof![0u64..200, any::<u64>(), Just(0), Just(u64::MAX)], 0..600),
        ) {
            let mut pile = Pile::default();
            let mut set = BTreeSet::new();
            for (i, &member) in added.iter().enumerate() {
                pile.add(member).unwrap();
                set.insert(member);
                if i % 97 == 0 {
                    prop_assert_eq!(members(&pile), set.iter().copied().collect::<Vec<_>>());
                }
            }
            prop_assert_eq!(members(&pile), set.iter().copied().collect::<Vec<_>>());
            prop_assert!(pile.len() >= set.len());
        }
    }

    /// Close members take a byte or two each once merged: the point of it.
    #[test]
    fn close_members_take_few_bytes() {
        let mut pile = Pile::default();
        for member in (0..100_000u64).map(|i| i * 37) {
            pile.add(member).unwrap();
            pile.add(member).unwrap();
        }
        assert_eq!(members(&pile).len(), 100_000);
        assert!(pile.sorted > 80_000, "{} merged", pile.sorted);
        assert!(pile.bytes() < 100_000 * 3, "{} bytes", pile.bytes());
        assert!(pile.len() < 2 * 100_000 / 8 + 100_000 + LOOSE_AT_LEAST);
    }

    #[test]
    fn numbers_take_a_byte_for_each_seven_bits() {
        let widths = [
            (0, 1),
            (1, 1),
            (127, 1),
            (128, 2),
            (16_383, 2),
            (16_384, 3),
            (u64::MAX >> 1, 9),
            (u64::MAX, 10),
        ];
        for (number, width) in widths {
            let mut packed = Vec::new();
            write(&mut packed, number);
            assert_eq!(packed.len(), width, "{number}");
            assert_eq!(read(&packed, 0), (number, packed.len()));
        }
    }
}

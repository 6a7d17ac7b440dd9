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
use std::io::{self, Read, Write};

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
        self.add_with_share(member, 8)
    }

    /// Adds `member`, the loose members up to `1/share` of the sorted
    /// ones before they are merged.
    pub(super) fn add_with_share(
        &mut self,
        member: u64,
        share: usize,
    ) -> Result<(), TryReserveError> {
        let room = LOOSE_AT_LEAST.max(self.sorted / share);
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
            let room = LOOSE_AT_LEAST.max(self.sorted / share);
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

/// A pile read and built in increasing order: what a cell searched
/// breadth-first holds (`layers/lean.rs`).
impl Pile {
    /// Merges the loose members into the sorted ones (the same members,
    /// each once).
    pub(super) fn settle(&mut self) -> Result<(), TryReserveError> {
        if self.loose.is_empty() {
            return Ok(());
        }
        self.loose.sort_unstable();
        self.loose.dedup();
        self.merge()
    }

    /// Its members, in increasing order; a settled pile's, each once.
    pub(super) fn increasing(&self) -> Increasing<'_> {
        debug_assert!(self.loose.is_empty(), "a pile not settled");
        Increasing {
            packed: &self.packed,
            at: 0,
            last: 0,
        }
    }
}

/// A settled pile read in parts: the steps of a cell searched
/// breadth-first are shared by the layer's threads a run of members at a
/// time (`layers/lean.rs`).
impl Pile {
    /// Where each run of `every` members begins, the first at the
    /// first member: one pass over the bytes.
    pub(super) fn marks(&self, every: usize) -> Vec<Mark> {
        let mut marks = Vec::with_capacity(self.sorted.div_ceil(every.max(1)));
        marks.extend(self.each_mark(every));
        marks
    }

    /// [`Pile::marks`], one at a time: for them, and for an [`Index`].
    fn each_mark(&self, every: usize) -> impl Iterator<Item = Mark> + '_ {
        debug_assert!(self.loose.is_empty(), "a pile not settled");
        let mut members = self.increasing();
        std::iter::from_fn(move || {
            (members.at < self.packed.len()).then(|| {
                let mark = Mark {
                    at: members.at,
                    last: members.last,
                };
                members.by_ref().take(every.max(1)).for_each(drop);
                mark
            })
        })
    }

    /// Its members from `mark` on (one of its own [`Pile::marks`]), in
    /// increasing order.
    pub(super) fn increasing_from(&self, mark: Mark) -> Increasing<'_> {
        debug_assert!(self.loose.is_empty(), "a pile not settled");
        Increasing {
            packed: &self.packed,
            at: mark.at,
            last: mark.last,
        }
    }
}

/// A settled pile asked whether it holds a member: a cell searched
/// breadth-first drops the children it already holds as each chunk of a
/// step ends, instead of keeping them until the step's merge.
impl Pile {
    /// Where to look for its members ([`Pile::drop_held`]): the byte and the
    /// member before every [`INDEX_EVERY`]th member, about a fifth of
    /// the pile's bytes beside it.
    pub(super) fn index(&self) -> Result<Index, TryReserveError> {
        let blocks = self.sorted.div_ceil(INDEX_EVERY);
        let mut index = Index::default();
        index.lasts.try_reserve_exact(blocks)?;
        index.ats.try_reserve_exact(blocks)?;
        for mark in self.each_mark(INDEX_EVERY) {
            index.lasts.push(mark.last);
            index.ats.push(mark.at);
        }
        Ok(index)
    }

    /// `members`, increasing, without those it holds, `index` its own:
    /// for each, the last mark below it, found by strides from the last
    /// one's (children of a chunk lie some tens of marks apart, so a
    /// search from the first mark each time read twice the memory: 25%
    /// slower on BakersDozen.191326999's layer 32), then at most
    /// [`INDEX_EVERY`] members read.
    pub(super) fn drop_held(&self, index: &Index, members: &mut Vec<u64>) {
        let lasts = &index.lasts;
        if lasts.is_empty() {
            return;
        }
        // The mark before the last member asked: its last is below it.
        let mut block = 0;
        members.retain(|&member| {
            // Strides doubling while the mark's last is below the member,
            // then a search among the marks passed over.
            let mut stride = 1;
            let mut probe = block + 1;
            while probe < lasts.len() && lasts[probe] < member {
                block = probe;
                stride *= 2;
                probe = block + stride;
            }
            let end = probe.min(lasts.len());
            block += lasts[block + 1..end].partition_point(|&last| last < member);
            let mark = Mark {
                at: index.ats[block],
                last: lasts[block],
            };
            self.increasing_from(mark).find(|&m| m >= member) != Some(member)
        });
    }
}

/// Members between two marks of an [`Index`]: a look-up reads half as
/// many on average, some 35 bytes, where the marks take 16 bytes each
/// (BakersDozen.191326999's layer 32: 83.1 M positions under way after
/// 200 s with a mark every 32 members, 79.0 M every 64, 90.2 M before
/// the children were looked for).
const INDEX_EVERY: usize = 32;

/// Marks of a settled pile ([`Pile::index`]): the member before each
/// mark, apart from where it is read, so that the search among them
/// reads 8 bytes a mark.
#[derive(Default)]
pub(super) struct Index {
    lasts: Vec<u64>,
    ats: Vec<usize>,
}

/// Where a member of a settled pile is read from: its byte and the member
/// before it ([`Pile::marks`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    at: usize,
    last: u64,
}

/// [`Pile::increasing`].
pub(super) struct Increasing<'a> {
    packed: &'a [u8],
    at: usize,
    last: u64,
}

impl Iterator for Increasing<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.at >= self.packed.len() {
            return None;
        }
        let (difference, next) = read(self.packed, self.at);
        self.at = next;
        self.last += difference;
        Some(self.last)
    }
}

/// The members of two increasing lists, in increasing order, each once:
/// for a cell searched breadth-first (`layers.rs`). A pile's own merge
/// keeps `merged`, its closure over the packed bytes, which took a
/// quarter fewer instructions than this iterator with a packer (bd.78829
/// free in layers: 4.70 G against 4.87 G in all, cachegrind).
pub(super) struct Union<A: Iterator<Item = u64>, B: Iterator<Item = u64>> {
    a: std::iter::Peekable<A>,
    b: std::iter::Peekable<B>,
}

impl<A: Iterator<Item = u64>, B: Iterator<Item = u64>> Union<A, B> {
    pub(super) fn of(a: A, b: B) -> Self {
        Union {
            a: a.peekable(),
            b: b.peekable(),
        }
    }
}

impl<A: Iterator<Item = u64>, B: Iterator<Item = u64>> Iterator for Union<A, B> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        match (self.a.peek(), self.b.peek()) {
            (Some(&a), Some(&b)) if a < b => self.a.next(),
            (Some(&a), Some(&b)) if b < a => self.b.next(),
            (Some(_), Some(_)) => {
                self.b.next();
                self.a.next()
            }
            (Some(_), None) => self.a.next(),
            (None, _) => self.b.next(),
        }
    }
}

/// The members of one increasing list not in another, in increasing
/// order: what a cell searched breadth-first keeps for a save (its
/// positions searched: those held but not left to search; its positions
/// to search: its children found not held).
pub(super) struct Difference<A: Iterator<Item = u64>, B: Iterator<Item = u64>> {
    a: A,
    b: std::iter::Peekable<B>,
}

impl<A: Iterator<Item = u64>, B: Iterator<Item = u64>> Difference<A, B> {
    /// The members of `a` not in `b`.
    pub(super) fn of(a: A, b: B) -> Self {
        Difference { a, b: b.peekable() }
    }
}

impl<A: Iterator<Item = u64>, B: Iterator<Item = u64>> Iterator for Difference<A, B> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        for member in self.a.by_ref() {
            while self.b.next_if(|&other| other < member).is_some() {}
            if self.b.next_if_eq(&member).is_none() {
                return Some(member);
            }
        }
        None
    }
}

/// Builds a settled pile from members given in increasing order.
#[derive(Default)]
pub(super) struct Packer {
    packed: Vec<u8>,
    last: u64,
    members: usize,
}

impl Packer {
    /// Adds `member`, larger than every member before it.
    #[inline]
    pub(super) fn push(&mut self, member: u64) -> Result<(), TryReserveError> {
        debug_assert!(self.members == 0 || member > self.last);
        if self.packed.capacity() - self.packed.len() < 10 {
            self.packed.try_reserve(self.packed.len().max(1 << 12))?;
        }
        write(&mut self.packed, member - self.last);
        self.last = member;
        self.members += 1;
        Ok(())
    }

    /// Packs `members`, in increasing order.
    pub(super) fn pack(members: impl Iterator<Item = u64>) -> Result<Pile, TryReserveError> {
        let mut packer = Packer::default();
        for member in members {
            packer.push(member)?;
        }
        Ok(packer.finish())
    }

    pub(super) fn finish(mut self) -> Pile {
        self.packed.shrink_to_fit();
        Pile {
            packed: self.packed,
            sorted: self.members,
            loose: Vec::new(),
        }
    }
}

/// A pile on disk, for a checkpoint of the search in layers: its
/// members as they are held (the sorted ones packed, the loose ones
/// 8 bytes each), so that it is written and read back at the disk's
/// pace, with no sorting.
impl Pile {
    /// Writes the pile: the sorted members' count and bytes, then the
    /// loose members' count and the members.
    pub(super) fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(&(self.sorted as u64).to_le_bytes())?;
        out.write_all(&(self.packed.len() as u64).to_le_bytes())?;
        out.write_all(&self.packed)?;
        out.write_all(&(self.loose.len() as u64).to_le_bytes())?;
        for member in &self.loose {
            out.write_all(&member.to_le_bytes())?;
        }
        Ok(())
    }

    /// A pile written by [`Pile::write_to`]. A file cut short, or bytes
    /// that are not a pile (its sorted members not increasing, not as
    /// many as it says), are an error of kind `InvalidData`, never a
    /// panic; memory refused is one of kind `OutOfMemory`.
    pub(super) fn read_from(input: &mut impl Read) -> io::Result<Pile> {
        let sorted = read_count(input)?;
        let length = read_count(input)?;
        let packed = read_bytes(input, length)?;
        let mut members = 0usize;
        let mut last = None;
        let mut at = 0;
        while at < packed.len() {
            let (difference, next) =
                read_checked(&packed, at).ok_or_else(|| invalid("a member cut short"))?;
            let member = match last {
                None => Some(difference),
                Some(_) if difference == 0 => None,
                Some(last) => u64::checked_add(last, difference),
            };
            last = Some(member.ok_or_else(|| invalid("members not increasing"))?);
            members += 1;
            at = next;
        }
        if members != sorted {
            return Err(invalid("not the members it counts"));
        }
        let count = read_count(input)?;
        let length = count
            .checked_mul(8)
            .ok_or_else(|| invalid("too many members"))?;
        let bytes = read_bytes(input, length)?;
        let mut loose = Vec::new();
        loose
            .try_reserve_exact(count)
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        loose.extend(
            bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default())),
        );
        Ok(Pile {
            packed,
            sorted,
            loose,
        })
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("not a pile: {what}"))
}

/// A count written as 8 bytes, which must fit this machine's `usize`.
fn read_count(input: &mut impl Read) -> io::Result<usize> {
    let mut bytes = [0; 8];
    input.read_exact(&mut bytes)?;
    usize::try_from(u64::from_le_bytes(bytes)).map_err(|_| invalid("a count too large"))
}

/// `count` bytes, read in pieces so that a count larger than what
/// follows fails at the file's end, not by asking that much memory.
fn read_bytes(input: &mut impl Read, count: usize) -> io::Result<Vec<u8>> {
    const PIECE: usize = 1 << 20;
    let mut bytes = Vec::new();
    while bytes.len() < count {
        let piece = PIECE.min(count - bytes.len());
        bytes
            .try_reserve(piece)
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        let at = bytes.len();
        bytes.resize(at + piece, 0);
        input.read_exact(&mut bytes[at..])?;
    }
    bytes.shrink_to_fit();
    Ok(bytes)
}

/// [`read`], or `None` where the bytes end inside a number or it has
/// more than 64 bits.
fn read_checked(packed: &[u8], mut at: usize) -> Option<(u64, usize)> {
    let mut number = 0u64;
    let mut shift = 0;
    loop {
        let byte = *packed.get(at)?;
        at += 1;
        let bits = u64::from(byte & 0x7F);
        if shift > 63 || (shift == 63 && bits > 1) {
            return None;
        }
        number |= bits << shift;
        if byte < 0x80 {
            return Some((number, at));
        }
        shift += 7;
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
            share in prop_oneof![Just(8usize), Just(2), Just(1)],
        ) {
            let mut pile = Pile::default();
            let mut set = BTreeSet::new();
            for (i, &member) in added.iter().enumerate() {
                pile.add_with_share(member, share).unwrap();
                set.insert(member);
                if i % 97 == 0 {
                    prop_assert_eq!(members(&pile), set.iter().copied().collect::<Vec<_>>());
                }
            }
            prop_assert_eq!(members(&pile), set.iter().copied().collect::<Vec<_>>());
            prop_assert!(pile.len() >= set.len());
            // Settled, it lists them in order, each once; packed anew in
            // that order, the same.
            pile.settle().unwrap();
            let increasing: Vec<u64> = pile.increasing().collect();
            prop_assert_eq!(&increasing, &set.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(pile.len(), set.len());
            let mut packer = Packer::default();
            increasing.iter().for_each(|&m| packer.push(m).unwrap());
            let packed = packer.finish();
            prop_assert_eq!(packed.len(), set.len());
            prop_assert_eq!(packed.increasing().collect::<Vec<_>>(), increasing);
        }
    }

    proptest! {
        /// Union and difference of two increasing lists are a set's.
        #[test]
        fn union_and_difference_are_a_sets(
            a in prop::collection::btree_set(0u64..300, 0..120),
            b in prop::collection::btree_set(0u64..300, 0..120),
        ) {
            let (a_in, b_in) = (a.iter().copied(), b.iter().copied());
            prop_assert_eq!(
                Union::of(a_in.clone(), b_in.clone()).collect::<Vec<_>>(),
                a.union(&b).copied().collect::<Vec<_>>()
            );
            prop_assert_eq!(
                Difference::of(a_in, b_in).collect::<Vec<_>>(),
                a.difference(&b).copied().collect::<Vec<_>>()
            );
        }

        /// A settled pile read from each of its marks, `every` members at
        /// a time, is read whole, in order, each member once.
        #[test]
        fn a_pile_read_from_its_marks_is_read_whole(
            members in prop::collection::btree_set(
                prop_oneof![0u64..5000, any::<u64>()], 0..300),
            every in 1usize..40,
        ) {
            let pile = Packer::pack(members.iter().copied()).unwrap();
            let marks = pile.marks(every);
            prop_assert_eq!(marks.len(), members.len().div_ceil(every));
            let read: Vec<u64> = marks
                .iter()
                .flat_map(|&mark| pile.increasing_from(mark).take(every))
                .collect();
            prop_assert_eq!(read, members.into_iter().collect::<Vec<_>>());
        }
    }

    proptest! {
        /// A settled pile drops, by its index, exactly its members from
        /// an increasing list: over many blocks of the index, at their
        /// edges, below the first and above the last (0 and `u64::MAX`
        /// among them), far apart and close together.
        #[test]
        fn a_pile_drops_by_its_index_exactly_its_members(
            members in prop::collection::btree_set(
                prop_oneof![0u64..3000, any::<u64>(), Just(0), Just(u64::MAX)], 0..500),
            asked in prop::collection::btree_set(
                prop_oneof![0u64..3100, any::<u64>(), Just(0), Just(u64::MAX)], 0..300),
            some_held in prop::collection::vec(any::<bool>(), 500),
        ) {
            let pile = Packer::pack(members.iter().copied()).unwrap();
            let index = pile.index().unwrap();
            let mut list: BTreeSet<u64> = asked.clone();
            list.extend(members.iter().zip(&some_held).filter(|&(_, &h)| h).map(|(&m, _)| m));
            let mut kept: Vec<u64> = list.iter().copied().collect();
            pile.drop_held(&index, &mut kept);
            prop_assert_eq!(kept, list.difference(&members).copied().collect::<Vec<_>>());
        }
    }

    proptest! {
        /// A pile written and read back holds the same members, held the
        /// same way (sorted and loose); cut anywhere, it is refused.
        #[test]
        fn a_pile_read_back_is_the_pile_written(
            added in prop::collection::vec(
                prop_oneof![0u64..5000, any::<u64>(), Just(0), Just(u64::MAX)], 0..400),
        ) {
            let mut pile = Pile::default();
            for &member in &added {
                pile.add(member).unwrap();
            }
            let mut bytes = Vec::new();
            pile.write_to(&mut bytes).unwrap();
            let read = Pile::read_from(&mut bytes.as_slice()).unwrap();
            prop_assert_eq!(members(&read), members(&pile));
            prop_assert_eq!((read.sorted, read.len()), (pile.sorted, pile.len()));
            prop_assert_eq!(&read.packed, &pile.packed);
            for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
                prop_assert!(Pile::read_from(&mut &bytes[..cut]).is_err());
            }
        }

        /// Bytes that are not a pile are refused or read as some pile,
        /// never a panic nor a demand for memory they do not hold.
        #[test]
        fn any_bytes_read_as_a_pile_never_panic(
            bytes in prop::collection::vec(any::<u8>(), 0..200),
            counts in (0u64..4, 0u64..40, 0u64..4, any::<u64>()),
        ) {
            let mut file = Vec::new();
            file.extend(counts.0.to_le_bytes());
            file.extend(counts.1.to_le_bytes());
            file.extend(&bytes);
            let _ = Pile::read_from(&mut file.as_slice());
            let mut huge = Vec::new();
            huge.extend(counts.3.to_le_bytes());
            huge.extend(counts.3.to_le_bytes());
            huge.extend(&bytes);
            let _ = Pile::read_from(&mut huge.as_slice());
        }
    }

    /// Sorted members that do not increase, or fewer than counted, are
    /// refused.
    #[test]
    fn a_pile_out_of_order_is_refused() {
        let file = |sorted: u64, packed: &[u8]| {
            let mut file = Vec::new();
            file.extend(sorted.to_le_bytes());
            file.extend((packed.len() as u64).to_le_bytes());
            file.extend(packed);
            file.extend(0u64.to_le_bytes());
            file
        };
        assert!(Pile::read_from(&mut file(2, &[5, 3]).as_slice()).is_ok());
        assert!(Pile::read_from(&mut file(2, &[5, 0]).as_slice()).is_err());
        assert!(Pile::read_from(&mut file(3, &[5, 3]).as_slice()).is_err());
        assert!(Pile::read_from(&mut file(1, &[0x85]).as_slice()).is_err());
        let over = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02];
        assert!(Pile::read_from(&mut file(1, &over).as_slice()).is_err());
        let most = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01];
        let read = Pile::read_from(&mut file(1, &most).as_slice()).unwrap();
        assert_eq!(members(&read), [u64::MAX]);
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

//! `-search`: a best-first search over a visited set of positions, with
//! positions grouped in buckets by score (cards on the foundation), the
//! highest score expanded first.
//!
//! Memory is the limit of an exhaustive search, so everything stored is
//! small: a position is its 20-byte [`Key`] plus the index of the position
//! it came from (24 bytes in all; 2 more for its depth), the visited set is
//! a table of `u32` indices into that store, and the frontier holds indices
//! too. A position
//! is rebuilt from its key when it is expanded; moves are found again by
//! comparing keys when the path is rebuilt at the end.
//!
//! [`search`] runs [`search_with`] with several orderings inside the
//! buckets, small budgets first ([`PORTFOLIO`]); [`search_with`] is one such
//! search. A few of those attempts are depth-first instead (a [`Stack`] in
//! place of the buckets), for the Baker's Dozen deals the buckets miss; the
//! last, unbounded attempt is always the buckets'.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::cards::{CARDS, SUITS, card_of};
use crate::deal::Deal;
use crate::state::{Key, KeyDecoder, Move, REGISTER, State, Survey};

/// Default `--max-states`: about 2 GB at the ~40 bytes each stored
/// position costs at peak, well under the 4 GB a 24 GB machine can spare.
pub const DEFAULT_MAX_STATES: u64 = 50_000_000;

/// What may stop a search before it is exhaustive.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop once this many positions are stored.
    pub max_states: u64,
    /// Stop after this long.
    pub timeout: Option<Duration>,
    /// Forget positions this many cards or more behind the best score seen.
    pub diff: Option<u8>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: DEFAULT_MAX_STATES,
            timeout: None,
            diff: None,
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution: the moves from the deal to the won position.
    Solved(Vec<Move>),
    /// Every reachable position was expanded: no solution exists (with
    /// forced foundation moves; see
    /// [`crate::rules::Rules::forced_foundation_is_exact`]).
    Insoluble,
    /// A limit or a cut stopped the search; nothing is proven.
    GaveUp(Limit),
}

/// What stopped a search that gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `--max-states` positions were stored.
    States,
    /// `--timeout` ran out.
    Time,
    /// `--diff` forgot positions, so an empty frontier proves nothing.
    Forgotten,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::States => "state limit reached",
            Limit::Time => "time limit reached",
            Limit::Forgotten => "positions forgotten by --diff",
        })
    }
}

/// Figures of a search, for the summary line, progress and benchmarks.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Positions stored in the visited set.
    pub stored: u64,
    /// Positions expanded (taken from the frontier, moves generated).
    pub expanded: u64,
    /// Positions waiting in the frontier.
    pub frontier: u64,
    /// Best score seen.
    pub best_score: u8,
    pub elapsed: Duration,
    /// Most positions stored at once (the attempt that held the most).
    pub peak_stored: u64,
    /// Orderings tried, one after another (see [`PORTFOLIO`]).
    pub attempts: u32,
}

/// The result of [`search`].
#[derive(Clone, Debug)]
pub struct Report {
    pub outcome: Outcome,
    pub stats: Stats,
}

/// One stored position: its key and the index of its parent. Packed to 24
/// bytes; the last key word only ever uses 30 bits.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
struct Entry {
    key0: u64,
    key1: u64,
    key2: u32,
    parent: u32,
}

impl Entry {
    fn key(&self) -> Key {
        Key::from_words([self.key0, self.key1, self.key2 as u64])
    }
}

const NO_PARENT: u32 = u32::MAX;

#[inline]
fn hash(key: &Key) -> u64 {
    // One multiply-rotate round per word (the FxHash step), finished by a
    // multiply so that the table's high bits see every input bit.
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mut h = 0u64;
    for w in key.words() {
        h = (h.rotate_left(26) ^ w).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

/// The visited set: every position stored once, in insertion order, with
/// an open-addressing table of indices for look-ups. No per-position heap
/// box; the table grows by doubling while under 70% full.
struct Visited {
    entries: Vec<Entry>,
    /// Per slot: 0 when empty, else `index + 1` into `entries` in the low
    /// [`INDEX_BITS`] bits and a few bits of the key's hash above them, so
    /// that most probes that miss never touch `entries` (a cache miss).
    /// Length is a power of 2.
    table: Vec<u32>,
}

/// Bits of a table slot that hold the index: up to 2^27 - 2 positions
/// (over 5 GB of them), far above the default `--max-states`.
const INDEX_BITS: u32 = 27;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;
/// The most positions the visited set can hold.
pub const MAX_STATES: u64 = INDEX_MASK as u64 - 1;

/// Where a key is, or where it would go, in the visited set.
enum Probe {
    Found,
    Vacant { slot: usize, tag: u32 },
}

impl Visited {
    /// `capacity`: the most positions this search may store. Reserving
    /// them up front costs address space only (pages are touched as
    /// positions arrive) and spares the store a doubling copy, which would
    /// briefly hold the old and new arrays at once.
    fn new(capacity: u64) -> Visited {
        Visited {
            entries: Vec::with_capacity(capacity.min(MAX_STATES) as usize + 1),
            table: vec![0; 1 << 12],
        }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The slot of a hash, and the tag bits kept beside its index.
    #[inline]
    fn place(hash: u64, mask: usize) -> (usize, u32) {
        (
            (hash >> 20) as usize & mask,
            (hash >> (32 + INDEX_BITS)) as u32,
        )
    }

    /// Looks `key` up. Grows the table first when one more key would
    /// make it over 70% full, so a vacant slot stays valid for
    /// [`Visited::insert_at`].
    #[inline]
    fn probe(&mut self, key: &Key) -> Probe {
        self.probe_hashed(key, hash(key))
    }

    /// [`Visited::probe`] with the key's [`hash`] already computed.
    #[inline]
    fn probe_hashed(&mut self, key: &Key, hash: u64) -> Probe {
        if (self.entries.len() + 1) * 10 > self.table.len() * 7 {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let (mut slot, tag) = Self::place(hash, mask);
        let tag = tag << INDEX_BITS;
        loop {
            let at = self.table[slot];
            if at == 0 {
                return Probe::Vacant { slot, tag };
            }
            if at & !INDEX_MASK == tag && self.entries[(at & INDEX_MASK) as usize - 1].key() == *key
            {
                return Probe::Found;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Asks the processor to start loading the first table slot of a key
    /// of this [`hash`].
    #[inline]
    fn prefetch(&self, hash: u64) {
        let (slot, _) = Self::place(hash, self.table.len() - 1);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; `slot` is within the table.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(self.table.as_ptr().add(slot) as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// Once the table slots of a key of this [`hash`] are loaded (see
    /// [`Visited::prefetch`]): asks the processor to start loading the
    /// stored position of the first slot whose tag matches, the one
    /// [`Visited::probe`] will compare with. A key already stored is a
    /// cache miss on its entry; started side by side for all the children
    /// of a position, those misses overlap.
    #[inline]
    fn prefetch_match(&self, hash: u64) {
        let mask = self.table.len() - 1;
        let (mut slot, tag) = Self::place(hash, mask);
        let tag = tag << INDEX_BITS;
        loop {
            let at = self.table[slot];
            if at == 0 {
                return;
            }
            if at & !INDEX_MASK == tag {
                self.prefetch_entry((at & INDEX_MASK) - 1);
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Asks the processor to start loading a stored position.
    #[inline]
    fn prefetch_entry(&self, index: u32) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; `index` is a stored position.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(self.entries.as_ptr().add(index as usize) as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = index;
    }

    /// Stores a key at the vacant slot [`Visited::probe`] just returned.
    #[inline]
    fn insert_at(&mut self, slot: usize, tag: u32, key: &Key, parent: u32) -> u32 {
        let index = self.entries.len() as u32;
        self.entries.push(Entry {
            key0: key.words()[0],
            key1: key.words()[1],
            key2: key.words()[2] as u32,
            parent,
        });
        self.table[slot] = tag | (index + 1);
        index
    }

    /// Stores `key` unless already there; returns its new index if new.
    fn insert(&mut self, key: Key, parent: u32) -> Option<u32> {
        match self.probe(&key) {
            Probe::Found => None,
            Probe::Vacant { slot, tag } => Some(self.insert_at(slot, tag, &key, parent)),
        }
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        let mask = size - 1;
        self.table = vec![0; size];
        for (i, entry) in self.entries.iter().enumerate() {
            let (mut slot, tag) = Self::place(hash(&entry.key()), mask);
            while self.table[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.table[slot] = (tag << INDEX_BITS) | (i as u32 + 1);
        }
    }

    fn key(&self, index: u32) -> Key {
        self.entries[index as usize].key()
    }

    fn parent(&self, index: u32) -> u32 {
        self.entries[index as usize].parent
    }
}

/// Highest tie-break value kept apart inside a score bucket.
const MAX_RANK: usize = 63;

/// The frontier: one bucket per score, and inside it one FIFO queue per
/// tie-break value (lower first). FIFO inside a bucket gives shorter
/// solutions than LIFO (SEARCH-NOTES), for a few more expansions.
struct Frontier {
    lifo: bool,
    queues: Vec<VecDeque<u32>>,
    /// Per score, a bit per tie-break value whose queue is not empty: the
    /// next queue is one `trailing_zeros` away, with no scan.
    nonempty: [u64; CARDS + 1],
    len: u64,
    /// No waiting position has a higher score.
    best: usize,
}

impl Frontier {
    fn new(lifo: bool) -> Frontier {
        Frontier {
            lifo,
            queues: (0..(CARDS + 1) * (MAX_RANK + 1))
                .map(|_| VecDeque::new())
                .collect(),
            nonempty: [0; CARDS + 1],
            len: 0,
            best: 0,
        }
    }

    #[inline]
    fn push(&mut self, score: u8, tie: usize, index: u32) {
        let score = score as usize;
        let tie = tie.min(MAX_RANK);
        self.queues[score * (MAX_RANK + 1) + tie].push_back(index);
        self.nonempty[score] |= 1 << tie;
        self.len += 1;
        self.best = self.best.max(score);
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
        let tie = self.nonempty[score].trailing_zeros() as usize;
        let queue = &mut self.queues[score * (MAX_RANK + 1) + tie];
        let index = if self.lifo {
            queue.pop_back()
        } else {
            queue.pop_front()
        }?;
        if queue.is_empty() {
            self.nonempty[score] &= !(1 << tie);
        }
        self.len -= 1;
        Some((score as u8, index))
    }

    /// The position [`Frontier::pop`] would give next, if nothing is pushed
    /// before: a hint for prefetching.
    #[inline]
    fn peek(&self) -> Option<u32> {
        let score = (0..=self.best).rev().find(|&s| self.nonempty[s] != 0)?;
        let queue =
            &self.queues[score * (MAX_RANK + 1) + self.nonempty[score].trailing_zeros() as usize];
        if self.lifo {
            queue.back()
        } else {
            queue.front()
        }
        .copied()
    }

    /// Drops every position with a score below `floor` (the `--diff` cut).
    fn forget_below(&mut self, floor: usize) -> u64 {
        let mut dropped = 0;
        for score in 0..floor.min(CARDS + 1) {
            if self.nonempty[score] != 0 {
                for q in &mut self.queues[score * (MAX_RANK + 1)..(score + 1) * (MAX_RANK + 1)] {
                    dropped += q.len() as u64;
                    *q = VecDeque::new();
                }
                self.nonempty[score] = 0;
            }
        }
        self.len -= dropped;
        dropped
    }
}

/// What a search keeps waiting to be expanded: the score buckets of
/// [`Frontier`], or the [`Stack`] of a depth-first attempt.
trait Waiting {
    /// Adds a stored position with its score and tie-break (lower first).
    fn push(&mut self, score: u8, tie: usize, index: u32);
    /// The next position to expand, with its score.
    fn pop(&mut self) -> Option<(u8, u32)>;
    /// What [`Waiting::pop`] would give next if nothing is pushed before:
    /// a hint for prefetching.
    fn peek(&self) -> Option<u32>;
    /// Drops every position with a score below `floor` (the `--diff` cut);
    /// returns how many.
    fn forget_below(&mut self, floor: usize) -> u64;
    fn waiting(&self) -> u64;
}

impl Waiting for Frontier {
    fn push(&mut self, score: u8, tie: usize, index: u32) {
        Frontier::push(self, score, tie, index)
    }
    fn pop(&mut self) -> Option<(u8, u32)> {
        Frontier::pop(self)
    }
    fn peek(&self) -> Option<u32> {
        Frontier::peek(self)
    }
    fn forget_below(&mut self, floor: usize) -> u64 {
        Frontier::forget_below(self, floor)
    }
    fn waiting(&self) -> u64 {
        self.len
    }
}

/// The frontier of a depth-first attempt ([`Order::dive`]): the children of
/// the last position expanded go on top, in the [`Dive`]'s order, so the
/// search follows one line of play and backs up only when it is exhausted.
struct Stack {
    dive: Dive,
    stack: Vec<(u8, u32)>,
    /// The children of the position being expanded, until the next pop
    /// sorts them onto the stack.
    children: Vec<(u8, usize, u32)>,
}

impl Stack {
    fn new(dive: Dive) -> Stack {
        Stack {
            dive,
            stack: Vec::new(),
            children: Vec::new(),
        }
    }
}

impl Waiting for Stack {
    fn push(&mut self, score: u8, tie: usize, index: u32) {
        self.children.push((score, tie, index));
    }

    fn pop(&mut self) -> Option<(u8, u32)> {
        if !self.children.is_empty() {
            // The child to go first last, where the next pop takes it.
            use std::cmp::Reverse;
            let children = &mut self.children;
            match self.dive {
                Dive::No | Dive::FewestCards => {
                    children.sort_by_key(|&(score, tie, _)| Reverse((score, tie)))
                }
                Dive::MostCards => children.sort_by_key(|&(score, tie, _)| (score, Reverse(tie))),
                Dive::FewestCardsMostInTheWay => {
                    children.sort_by_key(|&(score, tie, _)| (Reverse(score), tie))
                }
            }
            self.stack.extend(
                self.children
                    .drain(..)
                    .map(|(score, _, index)| (score, index)),
            );
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

/// The order inside a score bucket (lower is expanded first): a weighted
/// count of cards in the way. Any order keeps the search complete: it only
/// chooses which stored position goes first, so an exhausted frontier is a
/// proof whatever the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    /// Weight of the cards lying on each suit's next card: they must move
    /// before the foundation can grow.
    pub next_blockers: u8,
    /// Weight of the cards lying above a lower card of their own suit: each
    /// must move again before that suit can be finished.
    pub own_suit_inversions: u8,
    /// Weight of the cards lying above a lower card of any suit.
    pub any_inversions: u8,
    /// Weight of occupied registers.
    pub registers: u8,
    /// Last in, first out inside a bucket (deeper, longer solutions)
    /// instead of first in, first out.
    pub lifo: bool,
    /// When not 0: one more point per this many moves from the deal, so
    /// that shorter paths to similar positions go first.
    pub depth_divisor: u8,
    /// Not the score buckets but a depth-first search: the children of the
    /// position just expanded go first, in this order (see [`PORTFOLIO`]
    /// for why).
    pub dive: Dive,
}

/// Whether an attempt is depth-first, and how it orders the children of
/// the position it expands; the tie-break is [`Order`]'s weighted count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dive {
    /// Not depth-first: the score buckets.
    No,
    /// The fewest cards on the foundation first, then the lowest tie-break.
    FewestCards,
    /// The most cards on the foundation first, then the lowest tie-break.
    MostCards,
    /// The fewest cards on the foundation first, then the highest
    /// tie-break: the most cards in the way.
    FewestCardsMostInTheWay,
}

impl Order {
    /// The first ordering tried: [`Order::BASE`] plus a point per move from
    /// the deal, which took the FreeCell median of seeds 1..200 from 57 to
    /// 49 moves (Seahaven 36 to 34) for a few more expansions.
    pub const FIRST: Order = Order {
        depth_divisor: 1,
        ..Order::BASE
    };

    /// SEARCH-NOTES measured next-card blockers plus own-suit inversions
    /// cutting FreeCell expansions by 60x over plain buckets.
    pub const BASE: Order = Order {
        next_blockers: 1,
        own_suit_inversions: 1,
        any_inversions: 0,
        registers: 0,
        lifo: false,
        depth_divisor: 0,
        dive: Dive::No,
    };

    fn rank(&self, state: &State, survey: &Survey, depth: u16) -> usize {
        let mut next = 0;
        let foundation = state.foundation();
        for s in 0..SUITS as u8 {
            let height = foundation[s as usize];
            if height < 13 {
                let mut card = card_of(height + 1, s);
                if state.below(card) == REGISTER {
                    continue;
                }
                while let Some(above) = state.above(card) {
                    next += 1;
                    card = above;
                }
            }
        }
        let (own, any) = (survey.own_suit_inversions, survey.any_inversions);
        let registers = state.rules().registers - state.free_registers();
        next * self.next_blockers as usize
            + own * self.own_suit_inversions as usize
            + any * self.any_inversions as usize
            + registers * self.registers as usize
            + match self.depth_divisor {
                0 => 0,
                d => depth as usize / d as usize,
            }
    }
}

/// What the search reports as it goes: [`search`] about once a second,
/// with the figures of all its attempts so far; [`search_with`] every 4096
/// expansions, for its caller to thin out.
pub type Progress<'a> = &'a mut dyn FnMut(&Stats);

/// Searches the deal for a solution within `limits`.
pub fn search(deal: &Deal, limits: &Limits, progress: Option<Progress>) -> Report {
    crate::memory::return_freed_memory();
    let start = Instant::now();
    let mut progress = progress;
    let mut last_shown = start;
    let mut total = Stats::default();
    let mut budget = FIRST_BUDGET;
    loop {
        let last_round = budget >= limits.max_states;
        let orders = if last_round {
            &PORTFOLIO[..1]
        } else {
            &PORTFOLIO[..]
        };
        for order in orders {
            let elapsed = start.elapsed();
            let attempt = Limits {
                max_states: budget.min(limits.max_states),
                timeout: limits.timeout.map(|t| t.saturating_sub(elapsed)),
                diff: limits.diff,
            };
            let report = match progress.as_mut() {
                // Progress about once a second across attempts, most of
                // which are over in well under a second, with the figures
                // of the whole search so far.
                Some(show) => {
                    let mut forward = |s: &Stats| {
                        let now = Instant::now();
                        if now - last_shown >= Duration::from_secs(1) {
                            last_shown = now;
                            show(&Stats {
                                expanded: total.expanded + s.expanded,
                                best_score: total.best_score.max(s.best_score),
                                elapsed: now - start,
                                attempts: total.attempts + 1,
                                ..s.clone()
                            });
                        }
                    };
                    search_with(deal, &attempt, order, Some(&mut forward))
                }
                None => search_with(deal, &attempt, order, None),
            };
            let s = &report.stats;
            total.stored += s.stored;
            total.expanded += s.expanded;
            total.frontier = s.frontier;
            total.best_score = total.best_score.max(s.best_score);
            total.peak_stored = total.peak_stored.max(s.peak_stored);
            total.attempts += 1;
            total.elapsed = start.elapsed();
            let timed_out = limits.timeout.is_some_and(|t| total.elapsed >= t);
            match report.outcome {
                // An attempt's own budget is the portfolio's, not a limit
                // the user set: raise it, or, when the time ran out as it
                // was met, say the time stopped the search. Only the budget
                // is worth raising: a --diff cut stays a cut.
                Outcome::GaveUp(_) if !last_round && s.stored >= attempt.max_states => {
                    if timed_out {
                        return Report {
                            outcome: Outcome::GaveUp(Limit::Time),
                            stats: total,
                        };
                    }
                }
                outcome => {
                    return Report {
                        outcome,
                        stats: total,
                    };
                }
            }
        }
        budget = budget.saturating_mul(BUDGET_GROWTH);
    }
}

/// The orderings [`search`] tries in turn, each with a small budget of
/// stored positions first, then budgets [`BUDGET_GROWTH`] times larger,
/// until the last round gives the first ordering the whole `--max-states`.
/// SEARCH-NOTES measured no single ordering solving more than 73 of Baker's
/// Dozen 1..100 within 1 M positions, and six of them together 95: hard
/// deals are hard for one ordering, rarely for all. The eight bucket
/// orderings were picked on the Baker's Dozen deals of 1..300 that the
/// first one leaves unsolved after 2 s: within 1 M positions each, the
/// first solves 2 of 20, the second 9, and LIFO orderings find what the
/// FIFO ones miss, and the other way round.
///
/// Seven are depth-first ([`Order::dive`]), for the Baker's Dozen deals
/// the buckets do not solve: there a card on the foundation is a target
/// lost, and the highest bucket fills with positions that played too much
/// too early. A solution of bd.64 found depth-first stays at 19 cards or
/// fewer until one move sends the other 33 up; no bucket ordering we tried
/// (twelve) solved it within 20 M positions. Of the 24 deals of 1..1000
/// that the eight bucket orderings left undecided after 10 s, the four
/// dives that take the fewest cards on the foundation first solve 15
/// within 2 M positions each; they take turns with the bucket orderings,
/// so that a round reaches them early. The last three solve 5 of the 10
/// left (bd.312, 326, 532, 755, 848) within 2 M positions each.
///
/// Every attempt keeps all positions, so an attempt that exhausts its
/// frontier is a proof whatever its ordering: the set of positions reached
/// does not depend on the order they are expanded in.
pub const PORTFOLIO: [Order; 15] = [
    Order::FIRST,
    Order {
        next_blockers: 2,
        any_inversions: 1,
        dive: Dive::FewestCards,
        ..Order::BASE
    },
    Order {
        own_suit_inversions: 0,
        lifo: true,
        ..Order::BASE
    },
    Order {
        own_suit_inversions: 0,
        any_inversions: 1,
        dive: Dive::FewestCards,
        ..Order::BASE
    },
    Order {
        next_blockers: 0,
        any_inversions: 1,
        ..Order::BASE
    },
    Order {
        next_blockers: 0,
        any_inversions: 1,
        dive: Dive::FewestCards,
        ..Order::BASE
    },
    Order {
        next_blockers: 0,
        own_suit_inversions: 0,
        any_inversions: 1,
        lifo: true,
        ..Order::BASE
    },
    Order {
        dive: Dive::FewestCards,
        ..Order::BASE
    },
    Order {
        own_suit_inversions: 0,
        ..Order::BASE
    },
    Order {
        next_blockers: 0,
        ..Order::BASE
    },
    Order {
        lifo: true,
        ..Order::BASE
    },
    Order {
        next_blockers: 0,
        own_suit_inversions: 0,
        any_inversions: 1,
        lifo: false,
        ..Order::BASE
    },
    Order {
        next_blockers: 2,
        any_inversions: 1,
        dive: Dive::MostCards,
        ..Order::BASE
    },
    Order {
        own_suit_inversions: 0,
        any_inversions: 1,
        dive: Dive::MostCards,
        ..Order::BASE
    },
    Order {
        next_blockers: 0,
        dive: Dive::FewestCardsMostInTheWay,
        ..Order::BASE
    },
];
/// Positions the first round may store per ordering.
const FIRST_BUDGET: u64 = 20_000;
/// How much larger each round's budget is than the last. Baker's Dozen
/// 1..1000 with 10 s per deal: 991 decided with 4, 989 with 8 (the rounds
/// of 8 grow past 10 s before the later orderings get their turn).
const BUDGET_GROWTH: u64 = 4;

/// Searches with one ordering: inside the score buckets, or depth-first
/// when the ordering says so.
pub fn search_with(
    deal: &Deal,
    limits: &Limits,
    order: &Order,
    progress: Option<Progress>,
) -> Report {
    if order.dive != Dive::No {
        search_from(deal, limits, order, progress, Stack::new(order.dive))
    } else {
        search_from(deal, limits, order, progress, Frontier::new(order.lifo))
    }
}

fn search_from<W: Waiting>(
    deal: &Deal,
    limits: &Limits,
    order: &Order,
    progress: Option<Progress>,
    mut frontier: W,
) -> Report {
    let start = Instant::now();
    let decoder = KeyDecoder::new(deal);
    let root = State::new(deal);
    let mut stats = Stats {
        best_score: root.score(),
        ..Stats::default()
    };
    let finish = |outcome, mut stats: Stats, visited: &Visited, frontier: &W| {
        stats.stored = visited.len() as u64;
        stats.peak_stored = stats.stored;
        stats.attempts = 1;
        stats.frontier = frontier.waiting();
        stats.elapsed = start.elapsed();
        Report { outcome, stats }
    };

    let mut visited = Visited::new(limits.max_states);
    if root.is_won() {
        return finish(Outcome::Solved(Vec::new()), stats, &visited, &frontier);
    }
    // Lost from the deal: a proof already. Every position stored from here
    // on is not blocked, as `State::is_blocked_after` asks of a parent.
    if root.is_blocked_for_good() {
        return finish(Outcome::Insoluble, stats, &visited, &frontier);
    }
    let root_index = visited.insert(root.key(), NO_PARENT).expect("empty set");
    let mut depths: Vec<u16> = vec![0];
    frontier.push(
        root.score(),
        order.rank(&root, &root.survey(), 0),
        root_index,
    );

    let mut progress = progress;
    let mut cut = false;
    let mut children: Vec<(Move, State, u64)> = Vec::with_capacity(128);
    while let Some((score, index)) = frontier.pop() {
        if let Some(d) = limits.diff
            && score as usize + d as usize <= stats.best_score as usize
        {
            cut = true;
            continue;
        }
        stats.expanded += 1;
        if stats.expanded.is_multiple_of(4096) {
            let now = Instant::now();
            if limits.timeout.is_some_and(|t| now - start >= t) {
                return finish(Outcome::GaveUp(Limit::Time), stats, &visited, &frontier);
            }
            if let Some(report) = progress.as_mut() {
                stats.stored = visited.len() as u64;
                stats.frontier = frontier.waiting();
                stats.elapsed = now - start;
                report(&stats);
            }
        }
        let state = decoder.state(visited.key(index));
        // The next position's key is most likely a cache miss: start it now.
        if let Some(next) = frontier.peek() {
            visited.prefetch_entry(next);
        }
        // All children first, so that their table slots are fetched from
        // memory side by side: the look-ups are cache misses, and the main
        // cost of the search.
        children.clear();
        state.for_each_move(|mv| {
            children.push((mv, state.clone(), 0));
            let (_, child, h) = children.last_mut().expect("just pushed");
            child.apply(mv);
            *h = hash(&child.key());
            visited.prefetch(*h);
        });
        for &(_, _, h) in &children {
            visited.prefetch_match(h);
        }
        for (mv, child, h) in &children {
            let mv = *mv;
            if child.is_won() {
                let mut path = path_to(&visited, &decoder, index);
                path.push(mv);
                return finish(
                    Outcome::Solved(shorten(deal, path)),
                    stats,
                    &visited,
                    &frontier,
                );
            }
            let key = child.key();
            let Probe::Vacant { slot, tag } = visited.probe_hashed(&key, *h) else {
                continue;
            };
            // Lost positions are never stored: the cheap tests of the
            // survey first, then the closure that finds chains of blocked
            // cards (Midnight Oil, Baker's Dozen).
            let survey = child.survey();
            if survey.stuck || survey.dead_run || state.is_blocked_after(mv, child) {
                continue;
            }
            let child_index = visited.insert_at(slot, tag, &key, index);
            let child_score = child.score();
            if child_score > stats.best_score {
                stats.best_score = child_score;
                if let Some(d) = limits.diff {
                    let floor = child_score.saturating_sub(d) as usize + 1;
                    if frontier.forget_below(floor) > 0 {
                        cut = true;
                    }
                }
            }
            let depth = depths[index as usize].saturating_add(1);
            depths.push(depth);
            frontier.push(child_score, order.rank(child, &survey, depth), child_index);
        }
        if visited.len() as u64 >= limits.max_states.min(MAX_STATES) {
            return finish(Outcome::GaveUp(Limit::States), stats, &visited, &frontier);
        }
    }
    let outcome = if cut {
        Outcome::GaveUp(Limit::Forgotten)
    } else {
        Outcome::Insoluble
    };
    finish(outcome, stats, &visited, &frontier)
}

/// The moves from the root to the stored position `index`: each step is
/// the one move of the parent whose child has the stored key.
fn path_to(visited: &Visited, decoder: &KeyDecoder, index: u32) -> Vec<Move> {
    let mut chain = vec![index];
    while visited.parent(*chain.last().unwrap()) != NO_PARENT {
        chain.push(visited.parent(*chain.last().unwrap()));
    }
    chain.reverse();
    chain
        .windows(2)
        .map(|pair| {
            let parent = decoder.state(visited.key(pair[0]));
            let want = visited.key(pair[1]);
            let mut found = None;
            parent.for_each_move(|mv| {
                if found.is_none() {
                    let mut child = parent.clone();
                    child.apply(mv);
                    if child.key() == want {
                        found = Some(mv);
                    }
                }
            });
            found.expect("a stored position comes from a move of its parent")
        })
        .collect()
}

/// Cuts detours out of a solution: while some position on the path is one
/// or two moves away from a later one that the path reaches in more (a card
/// parked in a register and taken back, three moves that two would do),
/// the moves between them are replaced by the shorter way. Every step is a legal move between positions of the
/// path, so the result is still a solution, never longer.
pub fn shorten(deal: &Deal, moves: Vec<Move>) -> Vec<Move> {
    let mut moves = moves;
    // Positions before `from` were scanned already and found no shortcut
    // (a cut can only open one to the position it adds, just before it).
    let mut from = 0;
    loop {
        let mut states = vec![State::new(deal)];
        for &mv in &moves {
            let mut next = states.last().unwrap().clone();
            next.apply(mv);
            states.push(next);
        }
        let position: rustc_hash::FxHashMap<Key, usize> = states
            .iter()
            .enumerate()
            .map(|(i, s)| (s.key(), i))
            .collect();
        // The first position with a shortcut of one or two moves, and the
        // farthest position it reaches.
        let mut cut = None;
        for (i, state) in states.iter().enumerate().skip(from) {
            let mut best: Option<(usize, Vec<Move>)> = None;
            let mut consider = |j: usize, via: &[Move]| {
                if j > i + via.len() && best.as_ref().is_none_or(|(b, _)| j > *b) {
                    best = Some((j, via.to_vec()));
                }
            };
            state.for_each_move(|first| {
                let mut child = state.clone();
                child.apply(first);
                if let Some(&j) = position.get(&child.key()) {
                    consider(j, &[first]);
                }
                child.for_each_move(|second| {
                    let mut grandchild = child.clone();
                    grandchild.apply(second);
                    if let Some(&j) = position.get(&grandchild.key()) {
                        consider(j, &[first, second]);
                    }
                });
            });
            if let Some((j, via)) = best {
                cut = Some((i, j, via));
                break;
            }
        }
        let Some((i, j, via)) = cut else {
            return moves;
        };
        moves.splice(i..j, via);
        from = i.saturating_sub(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Verdict, replay_moves};
    use crate::deal::test_deal as deal;

    #[test]
    fn solutions_found_replay_as_won() {
        for (game, seed) in [("fc", 4), ("st", 8), ("mo", 4), ("bd", 5)] {
            let d = deal(game, seed);
            let report = search(&d, &Limits::default(), None);
            let Outcome::Solved(moves) = report.outcome else {
                panic!("{game}.{seed}: {:?}", report.outcome);
            };
            assert!(
                matches!(replay_moves(&d, &moves), Verdict::Won { .. }),
                "{game}.{seed}"
            );
        }
    }

    #[test]
    fn an_insoluble_deal_is_proven_and_a_limit_is_not_a_proof() {
        let d = deal("mo", 1);
        let report = search(&d, &Limits::default(), None);
        assert_eq!(report.outcome, Outcome::Insoluble);
        assert!(report.stats.frontier == 0 && report.stats.stored > 1);
        let limits = Limits {
            max_states: report.stats.stored / 2,
            ..Limits::default()
        };
        assert!(matches!(
            search(&d, &limits, None).outcome,
            Outcome::GaveUp(_)
        ));
    }

    /// A won position's path from the deal (every position on it), by a
    /// plain depth-first search with no pruning at all: `Some(None)` when
    /// none is reachable, `None` past `cap` positions.
    fn solution_without_pruning(deal: &Deal, cap: usize) -> Option<Option<Vec<State>>> {
        let root = State::new(deal);
        let mut seen = rustc_hash::FxHashSet::default();
        seen.insert(root.key());
        // Every position met, with the index of the one it came from.
        let mut met = vec![(root, usize::MAX)];
        let mut stack = vec![0];
        while let Some(index) = stack.pop() {
            if met[index].0.is_won() {
                let mut path = Vec::new();
                let mut at = index;
                while at != usize::MAX {
                    path.push(met[at].0.clone());
                    at = met[at].1;
                }
                path.reverse();
                return Some(Some(path));
            }
            if seen.len() > cap {
                return None;
            }
            let state = met[index].0.clone();
            state.for_each_move(|mv| {
                let mut child = state.clone();
                child.apply(mv);
                if seen.insert(child.key()) {
                    stack.push(met.len());
                    met.push((child, index));
                }
            });
        }
        Some(None)
    }

    /// Whether a won position is reachable without pruning; `None` past
    /// `cap` positions.
    fn solvable_without_pruning(deal: &Deal, cap: usize) -> Option<bool> {
        solution_without_pruning(deal, cap).map(|path| path.is_some())
    }

    /// The dead-run (SPEC §8) and stuck-card prunings never change a
    /// verdict, and no position on a solution found is one they would cut.
    #[test]
    fn pruning_never_loses_a_solution() {
        let mut compared = [0, 0];
        for (game, seeds) in [("mo", 1..=100), ("st", 1..=40), ("bd", 5..=5)] {
            for seed in seeds {
                let d = deal(game, seed);
                let report = search(&d, &Limits::default(), None);
                if let Outcome::Solved(moves) = &report.outcome {
                    let mut state = State::new(&d);
                    for &mv in moves {
                        assert!(!state.has_dead_run() && !state.has_stuck_card());
                        state.apply(mv);
                    }
                }
                if let Some(solvable) = solvable_without_pruning(&d, 300_000) {
                    let solved = matches!(report.outcome, Outcome::Solved(_));
                    assert_eq!(solved, solvable, "{game}.{seed}: {:?}", report.outcome);
                    assert!(solved || report.outcome == Outcome::Insoluble);
                    compared[solved as usize] += 1;
                }
            }
        }
        // Both verdicts must have been compared for the test to mean anything.
        assert!(compared[0] > 50 && compared[1] > 10, "{compared:?}");
    }

    /// The blocked-for-good rule cuts no position of a solution that a
    /// search without any pruning finds on its own.
    #[test]
    fn no_position_of_an_unpruned_solution_is_blocked() {
        let mut checked = 0;
        for (game, seeds) in [("bd", 1..=40), ("mo", 1..=300)] {
            for seed in seeds {
                let d = deal(game, seed);
                if let Some(Some(path)) = solution_without_pruning(&d, 200_000) {
                    for state in &path {
                        assert!(!state.is_blocked_for_good(), "{game}.{seed}\n{state}");
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked >= 20, "{checked}");
    }

    #[test]
    fn shorten_removes_a_detour_and_keeps_a_solution() {
        let d = deal("fc", 1);
        let Outcome::Solved(moves) = search(&d, &Limits::default(), None).outcome else {
            panic!("fc.1 is solvable");
        };
        // Find a position where a top card lies on a card it may be built
        // on, with a register free: park it and put it back, a detour.
        let mut state = State::new(&d);
        let mut detoured = None;
        for (i, &mv) in moves.iter().enumerate() {
            let park = (0..52u8).find(|&c| {
                let below = state.below(c);
                state.is_top(c)
                    && below < crate::state::FLOOR
                    && state.free_registers() > 0
                    && state.rules().build.allows(c, below)
            });
            if let Some(card) = park {
                let onto = state.below(card);
                let mut longer = moves.clone();
                longer.splice(
                    i..i,
                    [
                        Move {
                            card,
                            dest: crate::state::Dest::Register,
                        },
                        Move {
                            card,
                            dest: crate::state::Dest::Card(onto),
                        },
                    ],
                );
                detoured = Some(longer);
                break;
            }
            state.apply(mv);
        }
        let longer = detoured.expect("fc.1's solution passes such a position");
        assert!(matches!(replay_moves(&d, &longer), Verdict::Won { .. }));
        let shorter = shorten(&d, longer.clone());
        assert!(matches!(replay_moves(&d, &shorter), Verdict::Won { .. }));
        assert!(
            shorter.len() <= moves.len(),
            "{} > {}",
            shorter.len(),
            moves.len()
        );
        assert!(shorter.len() < longer.len());
    }

    #[test]
    fn the_stack_dives_into_the_last_children_fewest_foundation_cards_first() {
        let mut stack = Stack::new(Dive::FewestCards);
        stack.push(3, 0, 1);
        assert_eq!(stack.pop(), Some((3, 1)));
        // Children of 1: the lower score first, then the lower tie-break.
        stack.push(5, 0, 10);
        stack.push(4, 2, 11);
        stack.push(4, 1, 12);
        assert_eq!(stack.waiting(), 3);
        assert_eq!(stack.pop(), Some((4, 12)));
        // Children of 12 go before its older siblings.
        stack.push(9, 0, 20);
        assert_eq!(stack.pop(), Some((9, 20)));
        assert_eq!(stack.pop(), Some((4, 11)));
        assert_eq!(stack.forget_below(5), 0);
        assert_eq!(stack.pop(), Some((5, 10)));
        assert_eq!(stack.pop(), None);
    }

    /// A depth-first attempt that exhausts its stack has stored exactly the
    /// positions the buckets store: the reachable set does not depend on
    /// the order, so its INSOLUBLE is the same proof.
    #[test]
    fn depth_first_and_buckets_exhaust_the_same_positions() {
        let depth_first = PORTFOLIO.iter().find(|o| o.dive != Dive::No).unwrap();
        for (game, seed) in [("mo", 1), ("mo", 5), ("st", 35)] {
            let d = deal(game, seed);
            let limits = Limits::default();
            let buckets = search_with(&d, &limits, &Order::FIRST, None);
            let dived = search_with(&d, &limits, depth_first, None);
            assert_eq!(buckets.outcome, Outcome::Insoluble, "{game}.{seed}");
            assert_eq!(dived.outcome, Outcome::Insoluble, "{game}.{seed}");
            assert_eq!(buckets.stats.stored, dived.stats.stored, "{game}.{seed}");
        }
    }

    /// Why the portfolio has depth-first orderings: bd.64, which no bucket
    /// ordering solved within 20 M positions, falls to one within 300 k.
    #[test]
    fn depth_first_solves_what_the_buckets_do_not() {
        let d = deal("bd", 64);
        let limits = Limits {
            max_states: 300_000,
            ..Limits::default()
        };
        let buckets = search_with(&d, &limits, &Order::FIRST, None);
        assert!(matches!(buckets.outcome, Outcome::GaveUp(_)));
        let solved = PORTFOLIO
            .iter()
            .filter(|o| o.dive != Dive::No)
            .find_map(|o| match search_with(&d, &limits, o, None).outcome {
                Outcome::Solved(moves) => Some(moves),
                _ => None,
            })
            .expect("a depth-first ordering solves bd.64");
        assert!(matches!(replay_moves(&d, &solved), Verdict::Won { .. }));
    }

    /// Progress comes about once a second even when every attempt of the
    /// portfolio is shorter than that, and counts all attempts so far.
    #[test]
    fn progress_spans_the_attempts() {
        // Solved after half a minute of search, so still searching at 2.5 s.
        let d = deal("bd", 562);
        let limits = Limits {
            timeout: Some(Duration::from_millis(2500)),
            ..Limits::default()
        };
        let mut shown: Vec<Stats> = Vec::new();
        let mut record = |s: &Stats| shown.push(s.clone());
        let report = search(&d, &limits, Some(&mut record));
        assert!(matches!(report.outcome, Outcome::GaveUp(_)));
        assert!((1..=3).contains(&shown.len()), "{shown:?}");
        for pair in shown.windows(2) {
            assert!(pair[1].elapsed - pair[0].elapsed >= Duration::from_secs(1));
            assert!(pair[1].expanded > pair[0].expanded);
        }
        // Attempts before the first line were counted in it.
        let first = &shown[0];
        assert!(
            first.attempts > 1 && first.expanded > first.stored,
            "{first:?}"
        );
        assert!(first.elapsed >= Duration::from_secs(1));
    }

    #[test]
    fn the_visited_set_stores_each_key_once() {
        let mut v = Visited::new(16);
        let keys: Vec<Key> = (0..20_000u64)
            .map(|i| Key::from_words([i * 7919, i % 13, i % 5]))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(v.insert(k, 0), Some(i as u32));
        }
        for &k in &keys {
            assert_eq!(v.insert(k, 0), None);
        }
        assert_eq!(v.len(), keys.len());
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }
}

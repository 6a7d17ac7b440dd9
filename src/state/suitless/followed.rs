//! The suitless game with some cards followed: relaxations of Baker's
//! Dozen between the suitless game and the real one.
//!
//! Why: where the suitless game wins and the real game is too large to
//! search (bd.63886 under every rule, 20407 62328 85737 with forced
//! moves, BakersDozen.191326999 under free rules), a proof needs a game
//! that forgets less. This one keeps, besides the suitless position,
//! where each of a chosen set of cards (the *followed* cards: a suit, a
//! rank, any set of at most [`MOST_FOLLOWED`]) lies: up, fixed (its
//! place is the deal's), or in the run of a known column. A run's ranks
//! follow from its length, so a column places a followed card exactly;
//! the other moved cards stay forgotten.
//!
//! # Its moves
//!
//! Those of the suitless game (the parent module's doc), with the
//! followed cards kept in place:
//! - a run's top card of rank `r` moved onto a host carries along the
//!   followed card of rank `r` that lies in that column, if one does
//!   (the run's rank-`r` card is its top); a fixed top card moved is
//!   known, and so are the fixed cards below it that join the run;
//! - a run's top card goes up as a followed card only if that card lies
//!   in that column, and as a card not followed only if no followed card
//!   of its rank does;
//! - a card back from the foundation, in a burst, lies where it is put;
//! - a run's top card goes up by itself (the settling) where its identity
//!   is sure: the followed card of its rank lying in that column, or,
//!   when none does, the only card not followed of its rank to have
//!   moved.
//!
//! # Why a lost game proves the real position lost
//!
//! The image of a real position is its suitless image with the column of
//! each followed card lying in a run. A real move of a card onto a host
//! or up is a move above from the image, to the image of where it
//! leads: the suitless part as the suitless game argues, and the
//! followed cards where the real ones are (a followed card moves exactly
//! when it is the card moved; a card not followed that moves is not one
//! of them, so no followed card of its rank lies at its column's top).
//! The cards the real game plays up by itself include those this game
//! plays up at once (bare, their suit's next, the same rule), and the
//! others are moves of it. So every real play is a play of this game
//! from the image, and a real win is a win of it: searched whole and
//! never won, the real position is lost. Every move here maps to a
//! suitless move too (forget the followed cards), so this game is lost
//! wherever the suitless game is.
//!
//! Under xpat2's complete rules, cards come back from the foundation in
//! bursts, as in the suitless game (its module doc has why that is
//! enough): a card back is known (its pile's top), so it is followed
//! exactly, and a column's top put onto the last card back carries its
//! followed card along, as any move onto a host does.

use std::mem::offset_of;

use rustc_hash::FxHashSet;

use super::halves::{self, Halves};
use super::layers::{Keys, Layered};
use super::{
    BestFirst, COLUMNS, Game, Moves, Packed, Position, Suitless, columns_in, next_ranks, search,
};
use crate::cards::{CARDS, Card, KING, SUITS, card_of, rank, suit};
use crate::rules::Build;
use crate::state::{FLOOR, State};

/// The most cards followed: a column each, 4 bits, in a 64-bit key.
pub const MOST_FOLLOWED: usize = 16;

/// Where a followed card that lies in no run is: fixed or up.
const NOWHERE: u8 = 15;

/// Not followed, in [`Following::index`].
const UNFOLLOWED: u8 = u8::MAX;

/// A position of the game: the suitless position, and per followed card
/// the column whose run holds it ([`NOWHERE`] when it is fixed or up).
/// The moves change its bytes a half at a time (`halves.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C)]
pub(super) struct Followed {
    p: Position,
    at: [u8; MOST_FOLLOWED],
}

// SAFETY: `repr(C)`: a `Position` (itself `Halves`), then 16 bytes, the
// whole aligned to 16 by the `Position`.
unsafe impl Halves for Followed {}
const _: () = assert!(size_of::<Followed>() == size_of::<Position>() + MOST_FOLLOWED);

/// The suitless game of a deal with some cards followed.
pub(super) struct Following {
    game: Game,
    /// The followed cards, a bit each.
    cards: u64,
    /// Each card's place in [`Followed::at`], or [`UNFOLLOWED`].
    index: [u8; CARDS],
    /// How many are followed.
    count: usize,
    /// The followed cards of each rank, a bit per place in
    /// [`Followed::at`].
    places_of_rank: [u16; KING as usize + 1],
    /// The card at each place in [`Followed::at`].
    card_at: [Card; MOST_FOLLOWED],
}

/// A position's key: its suitless position packed, and its followed
/// cards' columns, 4 bits each.
type Key = (Packed, u64);

impl Following {
    /// The game of `game`'s deal with `cards` followed, or `None` for
    /// more than [`MOST_FOLLOWED`] cards, or bits that are no card.
    pub(super) fn of(game: Game, cards: u64) -> Option<Following> {
        (cards.count_ones() as usize <= MOST_FOLLOWED && cards >> CARDS == 0)
            .then(|| Following::new(game, cards))
    }

    fn new(game: Game, cards: u64) -> Following {
        let mut index = [UNFOLLOWED; CARDS];
        let mut places_of_rank = [0u16; KING as usize + 1];
        let mut card_at = [0; MOST_FOLLOWED];
        let mut count = 0;
        for (card, place) in index.iter_mut().enumerate() {
            if cards >> card & 1 == 1 {
                *place = count as u8;
                places_of_rank[rank(card as Card) as usize] |= 1 << count;
                card_at[count] = card as Card;
                count += 1;
            }
        }
        Following {
            game,
            cards,
            index,
            count,
            places_of_rank,
            card_at,
        }
    }

    fn key(&self, f: &Followed) -> Key {
        let at = f.at[..self.count]
            .iter()
            .fold(0u64, |key, &c| key << 4 | u64::from(c));
        (self.game.pack(&f.p), at)
    }

    /// The image of `state` (the module doc), settled: the position a
    /// search of it starts from.
    pub(super) fn settled_image(&self, state: &State) -> Followed {
        let mut image = self.image(state);
        let fixed = self.game.fixed_cards(&image.p);
        self.settle(&mut image, fixed);
        image
    }

    /// The image of `state` (the module doc).
    fn image(&self, state: &State) -> Followed {
        let p = self.game.image(state);
        let fixed = self.game.fixed_cards(&p);
        let mut at = [NOWHERE; MOST_FOLLOWED];
        for card in 0..CARDS as Card {
            let place = self.index[card as usize];
            if place == UNFOLLOWED || fixed >> card & 1 == 1 || is_up(&p, card) {
                continue;
            }
            let mut bottom = card;
            while state.below(bottom) < FLOOR {
                bottom = state.below(bottom);
            }
            let column = self.game.bottoms.iter().position(|&b| b == bottom);
            at[place as usize] = column.expect("a card in a run lies in a column") as u8;
        }
        Followed { p, at }
    }

    /// The followed card of rank `r` lying in column `i`'s run, if one
    /// does: the places of rank `r` among those at `i`, all sixteen
    /// compared at once (a walk of the four suits' cards took a
    /// twentieth of a search in layers).
    #[inline(always)]
    fn followed_in(&self, f: &Followed, r: u8, i: usize) -> Option<Card> {
        let here = places_at(&f.at, i as u8) & self.places_of_rank[r as usize];
        (here != 0).then(|| self.card_at[here.trailing_zeros() as usize])
    }

    /// Column `i`'s fixed top card leaves it: as [`Game::take_fixed_top`],
    /// the followed cards that join the run placed in it.
    fn take_fixed_top(&self, f: &mut Followed, i: usize, fixed: &mut u64) {
        let n = f.p.fixed[i] as usize - 1;
        let left = self.game.lower[i][n] as usize;
        for &card in &self.game.fixed[i][left..n] {
            self.place(f, card, i as u8);
        }
        self.game.take_fixed_top(&mut f.p, i, fixed);
    }

    /// `card`, if followed, is now at `column` ([`NOWHERE`]: up).
    fn place(&self, f: &mut Followed, card: Card, column: u8) {
        let place = self.index[card as usize];
        if place != UNFOLLOWED {
            debug_assert!((place as usize) < MOST_FOLLOWED);
            halves::set_byte(f, offset_of!(Followed, at) + place as usize, column);
        }
    }

    /// The card on top of column `i` where it is sure: a fixed top, or a
    /// followed card.
    fn known_top(&self, f: &Followed, i: usize) -> Option<Card> {
        let fixed_top = self.game.fixed_top(&f.p, i)?;
        if f.p.run[i] == 0 {
            Some(fixed_top)
        } else {
            self.followed_in(f, rank(fixed_top) - f.p.run[i], i)
        }
    }

    /// Calls `emit` with each position one move of `f` leads to, settled.
    fn for_each_child(&self, f: &Followed, emit: impl FnMut(Followed)) {
        self.for_each_child_of(f, self.game.fixed_cards(&f.p), emit);
    }

    /// [`Following::for_each_child`] with `fixed_cards`, the fixed cards
    /// of `f`, already known.
    fn for_each_child_of(&self, f: &Followed, fixed_cards: u64, mut emit: impl FnMut(Followed)) {
        let game = &self.game;
        let (tops, topped) = game.tops(&f.p);
        // Unchanged by a move onto a host.
        let next = next_ranks(&f.p);
        // Each child, settled unless `is_settled` says it is already.
        let mut emit = |mut child: Followed, fixed: u64, is_settled: bool| {
            if !is_settled {
                self.settle(&mut child, fixed);
            }
            emit(child);
        };
        self.cards_back(f, fixed_cards, &topped, &mut emit);
        for (i, top) in tops.iter().enumerate().take(game.columns) {
            let Some(r) = *top else { continue };
            let known = self.known_top(f, i);
            // Onto hosts: a card not followed is asked for on its host as
            // from `i` ([`Moves::onto_hosts`]): no followed card of its
            // rank lies at the host, whose run, below a card of the next
            // rank, does not cover it.
            if r < KING {
                let hosts = topped[r as usize + 1] & !(1 << i);
                self.onto_hosts(f, fixed_cards, next, i, hosts, &mut emit);
            }
            // Up: the known top card if any, else any card not followed
            // of its rank, its suit's next, moved.
            let goes_up = |card: Card| rank(card) == f.p.up[suit(card) as usize] + 1;
            let ups = match known {
                Some(card) => u64::from(goes_up(card)) << card,
                None => (0..SUITS as u8)
                    .map(|s| card_of(r, s))
                    .filter(|&c| self.cards >> c & 1 == 0 && fixed_cards >> c & 1 == 0)
                    .filter(|&c| goes_up(c))
                    .fold(0, |ups, c| ups | 1 << c),
            };
            // Bit by bit, not a walk of the 52 cards: that walk, for each
            // column of each position, took a sixth of a search in layers.
            let mut ups = ups;
            while ups != 0 {
                let card = ups.trailing_zeros() as Card;
                ups &= ups - 1;
                let (mut child, mut fixed) = (*f, fixed_cards);
                self.up(&mut child, i, card, &mut fixed);
                emit(child, fixed, false);
            }
        }
    }
}

/// The suitless game's moves (`Moves for Game`), with the followed cards
/// kept in place: a card that moves carries its followed card along
/// where it is known (a fixed top, a followed card, a card back), and a
/// card goes up by itself only where its identity is sure.
impl Moves for Following {
    type Position = Followed;

    fn game(&self) -> &Game {
        &self.game
    }

    fn suitless(f: &Followed) -> &Position {
        &f.p
    }

    /// Always inlined, as the suitless game's: [`Moves::settle`] asks it
    /// of every column (a call for each cost the followed game an eighth
    /// of its time, BakersDozen.191326999 with Queens and Tens followed).
    #[inline(always)]
    fn goes_up_from(&self, f: &Followed, fixed: u64, next: u16, i: usize) -> Option<Card> {
        let fixed_top = self.game.fixed_top(&f.p, i)?;
        let top = rank(fixed_top) - f.p.run[i];
        if next >> top & 1 == 0 {
            return None;
        }
        let card = if f.p.run[i] == 0 {
            fixed_top
        } else if let Some(card) = self.followed_in(f, top, i) {
            card
        } else {
            // Not a followed card: the only other card of its rank to
            // have moved, if it is.
            let mut moved = (0..SUITS as u8)
                .map(|s| card_of(top, s))
                .filter(|&c| self.cards >> c & 1 == 0 && fixed >> c & 1 == 0 && !is_up(&f.p, c));
            match (moved.next(), moved.next()) {
                (Some(card), None) => card,
                _ => return None,
            }
        };
        let s = suit(card) as usize;
        (rank(card) == f.p.up[s] + 1 && self.game.automatic.plays_up(Build::AnySuit, &f.p.up, card))
            .then_some(card)
    }

    fn up(&self, f: &mut Followed, i: usize, card: Card, fixed: &mut u64) {
        f.p.add_up(suit(card) as usize, 1);
        if f.p.run[i] == 0 {
            self.take_fixed_top(f, i, fixed);
        } else {
            f.p.add_run(i, u8::MAX);
        }
        self.place(f, card, NOWHERE);
    }

    #[inline(always)]
    fn lifted(&self, f: &Followed, fixed_cards: u64, i: usize) -> (Followed, u64, Option<Card>) {
        let (mut lifted, mut fixed) = (*f, fixed_cards);
        let known = self.known_top(f, i);
        if f.p.run[i] > 0 {
            lifted.p.add_run(i, u8::MAX);
        } else {
            self.take_fixed_top(&mut lifted, i, &mut fixed);
        }
        (lifted, fixed, known)
    }

    #[inline(always)]
    fn put_onto(&self, mut lifted: Followed, known: Option<Card>, j: usize) -> Followed {
        if let Some(card) = known {
            self.place(&mut lifted, card, j as u8);
        }
        lifted.p.add_run(j, 1);
        lifted
    }

    /// A card known (its pile's top), so followed exactly.
    fn card_back(&self, f: &Followed, s: usize, j: usize) -> Followed {
        let mut child = *f;
        let card = card_of(f.p.up[s], s as u8);
        child.p.add_up(s, u8::MAX);
        child.p.add_run(j, 1);
        self.place(&mut child, card, j as u8);
        child
    }
}

/// The places of `at` that hold `column`, a bit each.
#[inline(always)]
fn places_at(at: &[u8; MOST_FOLLOWED], column: u8) -> u16 {
    const _: () = assert!(MOST_FOLLOWED == 16, "one 16-byte load, a bit of a u16 each");
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of every x86-64 processor; the load reads
        // the 16-byte array, unaligned loads allowed.
        unsafe {
            let at = _mm_loadu_si128(at.as_ptr() as *const __m128i);
            _mm_movemask_epi8(_mm_cmpeq_epi8(at, _mm_set1_epi8(column as i8))) as u16
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    plainly::places_at(at, column)
}

/// Whether `card` is up in `p`.
fn is_up(p: &Position, card: Card) -> bool {
    rank(card) <= p.up[suit(card) as usize]
}

impl BestFirst for Following {
    type Key = Key;
    fn key(&self, f: &Followed) -> Key {
        Following::key(self, f)
    }
    fn position(&self, (packed, mut at): Key) -> Followed {
        let mut f = Followed {
            p: self.game.unpack(packed),
            at: [NOWHERE; MOST_FOLLOWED],
        };
        for column in f.at[..self.count].iter_mut().rev() {
            *column = (at & 0xF) as u8;
            at >>= 4;
        }
        f
    }
    fn for_each_child(&self, f: &Followed, emit: impl FnMut(Followed)) {
        Following::for_each_child(self, f, emit)
    }
}

/// Where each column's run lies by rank: column `i`'s run holds one
/// card of each rank in `low[i]..high[i]`, `high[i]` its fixed top's rank
/// (both 0 for an empty column, and past the columns).
#[derive(Default)]
struct Spans {
    low: [u8; 16],
    high: [u8; 16],
}

const _: () = assert!(COLUMNS <= 16, "a column a bit of a u16");

impl Spans {
    /// The columns whose run holds a card of rank `r`, a bit each: one
    /// comparison of all sixteen spans at once, where a table of every
    /// rank's columns cost a pass over each run's cards.
    #[inline]
    fn covering(&self, r: u8) -> u16 {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8,
                _mm_set1_epi8,
            };
            // SAFETY: SSE2 is part of every x86-64 processor; the loads
            // read the two 16-byte arrays, unaligned loads allowed.
            unsafe {
                let rank = _mm_set1_epi8(r as i8);
                let low = _mm_loadu_si128(self.low.as_ptr() as *const __m128i);
                let high = _mm_loadu_si128(self.high.as_ptr() as *const __m128i);
                // `low <= r` is `max(low, r) == r`, `r < high` its
                // negation for `high`.
                let from = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(low, rank), rank));
                let past = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(high, rank), rank));
                (from & !past) as u16
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        plainly::covering(self, r)
    }
}

/// [`places_at`] and [`Spans::covering`] a place or a column at a time:
/// what the SSE2 forms must equal, and the forms of other processors
/// (compiled and tested on x86-64 too).
#[cfg(any(test, not(target_arch = "x86_64")))]
mod plainly {
    use super::{MOST_FOLLOWED, Spans};

    pub(super) fn places_at(at: &[u8; MOST_FOLLOWED], column: u8) -> u16 {
        let mut bits = 0u16;
        for (place, &c) in at.iter().enumerate() {
            bits |= u16::from(c == column) << place;
        }
        bits
    }

    pub(super) fn covering(spans: &Spans, r: u8) -> u16 {
        let mut bits = 0u16;
        for i in 0..16 {
            bits |= u16::from(spans.low[i] <= r && r < spans.high[i]) << i;
        }
        bits
    }
}

/// The columns a followed card in a run may lie in, as an entry writes
/// the cards (by rank): those whose runs cover its rank, less those the
/// rank's cards written before took, since a run holds one card of each
/// rank it covers (`Following`'s [`Layered`] doc has why).
#[derive(Default)]
struct Untaken {
    rank: u8,
    taken: u16,
}

impl Untaken {
    #[inline(always)]
    fn columns(&mut self, spans: &Spans, rank: u8) -> u16 {
        if rank != self.rank {
            self.rank = rank;
            self.taken = 0;
        }
        spans.covering(rank) & !self.taken
    }

    #[inline(always)]
    fn take(&mut self, column: u8) {
        self.taken |= 1 << column;
    }
}

/// A number in mixed radix being written, digit after digit from the
/// lowest: its value and the radix of its next digit.
struct Digits {
    value: u64,
    radix: u64,
}

impl Default for Digits {
    fn default() -> Digits {
        Digits { value: 0, radix: 1 }
    }
}

// Why the products of [`Digits::push`] never pass 64 bits: an entry's
// first number has a digit of radix at most `KING` for each run but the
// last column's and one of radix `KING + 1` for each suit's foundation;
// its second, one of radix at most `COLUMNS` (a covering column each)
// for each followed card.
const _: () = assert!(
    (KING as u128).pow(COLUMNS as u32 - 1) * (KING as u128 + 1).pow(SUITS as u32)
        <= u64::MAX as u128
);
const _: () = assert!((COLUMNS as u128).pow(MOST_FOLLOWED as u32) <= u64::MAX as u128);

impl Digits {
    /// Writes digit `d` of radix `r`; `None` for a digit past its radix:
    /// no position of the game has one, and none is ever misread.
    #[inline(always)]
    fn push(&mut self, d: u8, r: u8) -> Option<()> {
        debug_assert!(d < r, "digit {d} of radix {r}");
        self.value += u64::from(d) * self.radix;
        self.radix *= u64::from(r);
        (d < r).then_some(())
    }
}

/// What the entries of one cell share ([`Layered::InCell`]): the cell
/// fixes the fixed cards (and without cards back the foundation), and
/// with them each run's radix and so each digit's weight. Why: the
/// entry, a third of a long search in layers, worked these out again
/// for each child, most of which lie in their parent's cell
/// (docs/benchmarks.md).
#[derive(Debug, PartialEq)]
pub(super) struct CellDigits {
    /// Each column's fixed top's rank, 0 for an empty column: where the
    /// runs' spans end, and each run's radix (at least 1).
    high: [u8; 16],
    /// The weight of each run's digit (the last column's run has none),
    /// then, with cards back, of each suit's foundation's.
    weight: [u64; COLUMNS - 1 + SUITS],
    /// The product of those digits' radices: the followed cards'
    /// number's weight.
    radix: u64,
    /// The followed cards not fixed: in runs, or up.
    loose: u64,
}

/// A position's entry in the search in layers: what it holds beyond its
/// cell (the fixed cards, and without cards back the foundation), as
/// digits of a number in mixed radix, each digit's radix known from the
/// cell and the digits before it. A run is shorter than its fixed top's
/// rank; the last column's run is what the others leave of the cards;
/// with cards back, each suit's foundation (0 to 13); and a followed
/// card in a run is in one of the columns whose run covers its rank,
/// but not in one holding a followed card of its rank written before it
/// (a run holds one card of each rank it covers): its index among
/// those. Why: 4 bits a column's run and a followed card's column take
/// 52 + 64 bits, and the search's entries are 64; in mixed radix the
/// positions measured took 39 to 40 (bd.20407, 85737, a suit or three
/// ranks followed). Why the columns taken are left out: `k` runs
/// covering a rank hold `m` of its followed cards in `k!/(k-m)!` ways,
/// not `k^m` (a whole rank in four runs: 24, not 256), which a whole
/// rank followed needs (BakersDozen.191326999's complete game with its
/// Sixes and Fives followed outgrew 64 bits at layer 12). A position that
/// would take more has no entry: the search stops there, open.
impl Layered for Following {
    type InCell = CellDigits;

    fn entry(&self, keys: &Keys, f: &Followed) -> Option<u64> {
        self.entry_in_cell(keys, &self.cell_digits(keys, &f.p), f)
    }

    fn in_cell(&self, keys: &Keys, cell: u64) -> CellDigits {
        self.cell_digits(keys, &keys.position(cell, 0))
    }

    fn entry_in_cell(&self, keys: &Keys, cell: &CellDigits, f: &Followed) -> Option<u64> {
        // Why: the digits of the followed cards' columns are bit counts,
        // which x86-64's baseline computes with a dozen instructions where
        // `popcnt` takes one; the whole search in layers ran 7 to 20%
        // faster with it (docs/benchmarks.md). Every x86-64 processor
        // since 2008 has it, but the binary should not require it.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has `popcnt`, asked just above.
            return unsafe { self.entry_with_popcnt(keys, cell, f) };
        }
        self.entry_in(keys, cell, f)
    }

    fn position(&self, keys: &Keys, cell: u64, entry: u64) -> Followed {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: as in `entry`.
            return unsafe { self.position_with_popcnt(keys, cell, entry) };
        }
        self.position_in(keys, cell, entry)
    }

    fn for_each_child_of(&self, f: &Followed, fixed_cards: u64, emit: impl FnMut(Followed)) {
        Following::for_each_child_of(self, f, fixed_cards, emit)
    }
}

impl Following {
    /// [`Layered::entry`] compiled with `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn entry_with_popcnt(&self, keys: &Keys, cell: &CellDigits, f: &Followed) -> Option<u64> {
        self.entry_in(keys, cell, f)
    }

    /// [`Layered::position`] compiled with `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn position_with_popcnt(&self, keys: &Keys, cell: u64, entry: u64) -> Followed {
        self.position_in(keys, cell, entry)
    }

    /// What the entries of `p`'s cell share: read from its fixed cards
    /// alone (and without cards back, where the foundation is part of the
    /// cell, nothing of the foundation either), so the same for every
    /// position of the cell.
    fn cell_digits(&self, keys: &Keys, p: &Position) -> CellDigits {
        let columns = self.game.columns;
        let mut cell = CellDigits {
            high: [0; 16],
            weight: [0; COLUMNS - 1 + SUITS],
            radix: 1,
            loose: self.cards & !self.game.fixed_cards(p),
        };
        for i in 0..columns {
            cell.high[i] = self.game.fixed_top(p, i).map_or(0, rank);
        }
        for i in 0..columns - 1 {
            cell.weight[i] = cell.radix;
            // `run_radix`, from the fixed top's rank.
            cell.radix *= u64::from(cell.high[i].max(1));
        }
        if keys.returns {
            for s in 0..SUITS {
                cell.weight[COLUMNS - 1 + s] = cell.radix;
                cell.radix *= u64::from(KING + 1);
            }
        }
        cell
    }

    #[inline(always)]
    fn entry_in(&self, keys: &Keys, cell: &CellDigits, f: &Followed) -> Option<u64> {
        // Two numbers of 64 bits, joined by one 128-bit product at the
        // end: the runs and the foundation, each digit by its weight
        // (the cell's), then the followed cards' columns (the same
        // mixed-radix number as one 128-bit sum, which took two 128-bit
        // products a digit).
        let p = &f.p;
        let columns = self.game.columns;
        let mut held = 0u64;
        let mut spans = Spans {
            high: cell.high,
            low: [0; 16],
        };
        for i in 0..columns {
            spans.low[i] = cell.high[i].saturating_sub(p.run[i]);
        }
        for i in 0..columns - 1 {
            let (d, r) = (p.run[i], cell.high[i].max(1));
            debug_assert!(d < r, "a run of {d} under a top of rank {r}");
            if d >= r {
                return None;
            }
            held += u64::from(d) * cell.weight[i];
        }
        if keys.returns {
            for (s, &h) in p.up.iter().enumerate() {
                if h > KING {
                    return None;
                }
                held += u64::from(h) * cell.weight[COLUMNS - 1 + s];
            }
        }
        let mut placed = Digits::default();
        let mut untaken = Untaken::default();
        let mut loose = cell.loose;
        while loose != 0 {
            let card = loose.trailing_zeros() as Card;
            loose &= loose - 1;
            if is_up(p, card) {
                continue;
            }
            let free = untaken.columns(&spans, rank(card));
            let at = f.at[self.index[card as usize] as usize];
            if at >= 16 || free >> at & 1 == 0 {
                debug_assert!(
                    false,
                    "a followed card's column does not cover it, or is taken"
                );
                return None;
            }
            let below = free & ((1u16 << at) - 1);
            placed.push(below.count_ones() as u8, free.count_ones() as u8)?;
            untaken.take(at);
        }
        let entry = u128::from(held) + u128::from(cell.radix) * u128::from(placed.value);
        u64::try_from(entry).ok()
    }

    #[inline(always)]
    fn position_in(&self, keys: &Keys, cell: u64, entry: u64) -> Followed {
        let mut f = Followed {
            p: keys.position(cell, 0),
            at: [NOWHERE; MOST_FOLLOWED],
        };
        let mut entry = entry;
        let mut digit = |r: u8| {
            let d = entry % u64::from(r);
            entry /= u64::from(r);
            d as u8
        };
        let columns = self.game.columns;
        for i in 0..columns - 1 {
            f.p.run[i] = digit(self.run_radix(&f.p, i));
        }
        if keys.returns {
            for h in f.p.up.iter_mut() {
                *h = digit(KING + 1);
            }
        }
        let held = |p: &Position| -> usize {
            let count = |c: &[u8]| c.iter().map(|&n| usize::from(n)).sum::<usize>();
            count(&p.fixed[..columns]) + count(&p.run[..columns - 1]) + count(&p.up)
        };
        f.p.run[columns - 1] = keys.cards.saturating_sub(held(&f.p)) as u8;
        let spans = self.spans(&f.p);
        let mut untaken = Untaken::default();
        for card in self.in_runs(&f.p) {
            let free = untaken.columns(&spans, rank(card));
            let index = digit(free.count_ones() as u8);
            let column = columns_in(free)
                .nth(usize::from(index))
                .expect("a covering column");
            f.at[self.index[card as usize] as usize] = column as u8;
            untaken.take(column as u8);
        }
        f
    }

    /// How many lengths column `i`'s run may have in `p`: fewer than its
    /// fixed top's rank (1 for an empty column, which stays empty).
    fn run_radix(&self, p: &Position, i: usize) -> u8 {
        self.game.fixed_top(p, i).map_or(1, rank)
    }

    /// Where each column's run of `p` lies by rank, in one pass over the
    /// columns: an entry that asked every column for each followed card
    /// spent 44% of a search in layers there.
    fn spans(&self, p: &Position) -> Spans {
        let mut spans = Spans::default();
        for i in 0..self.game.columns {
            if let Some(top) = self.game.fixed_top(p, i) {
                spans.high[i] = rank(top);
                spans.low[i] = rank(top).saturating_sub(p.run[i]);
            }
        }
        spans
    }

    /// The followed cards lying in a run of `p` (neither fixed nor up),
    /// in the order their digits take in an entry: the one walk that
    /// writes an entry and the one that reads it back.
    fn in_runs<'p>(&self, p: &'p Position) -> impl Iterator<Item = Card> + 'p {
        let mut cards = self.cards & !self.game.fixed_cards(p);
        std::iter::from_fn(move || {
            while cards != 0 {
                let card = cards.trailing_zeros() as Card;
                cards &= cards - 1;
                if !is_up(p, card) {
                    return Some(card);
                }
            }
            None
        })
    }
}

/// Searches the suitless game of `state` with `cards` followed (a bit
/// per card, at most [`MOST_FOLLOWED`]; the module doc) whole, the
/// positions with most cards up first, unless it wins, reaches more
/// than `most` positions or `stopped` says so. `Open` where it does not
/// describe the game: not Baker's Dozen, or too many cards followed.
pub fn suitless_followed(
    state: &State,
    cards: u64,
    most: usize,
    stopped: impl Fn() -> bool,
) -> Suitless {
    let Some(following) = Game::of(state).and_then(|(game, _)| Following::of(game, cards)) else {
        return Suitless::Open { positions: 0 };
    };
    let start = following.settled_image(state);
    search(&following, &start, most, &stopped, &FxHashSet::default()).0
}

#[cfg(test)]
mod tests;

//! Positions lost in the *suitless game*: Baker's Dozen with the suits of
//! the cards that have moved forgotten, searched whole.
//!
//! Why: the tests of `lost.rs`, `pairs.rs` and `triples` ask which facts
//! can ever hold together, never in what order things happen, and the
//! tail of Baker's Dozen is lost by order: a Queen that must wait on its
//! dealt place until a King is bared, while the cards that would bare it
//! wait on that Queen. A search of the real game sees the order but is
//! swamped by the ways the moved cards can be shuffled between hosts:
//! with their suits forgotten, those ways collapse, and the search of
//! what is left ends where the real one cannot (bd.78829: 809 000
//! positions, 1.5 s; docs/hard-deals.md).
//!
//! # The game
//!
//! Building ignores suit in Baker's Dozen and an empty column takes
//! nothing (`Build::AnySuit`, [`Rules::only_onto_higher`]). So every
//! column is, from the bottom, its *fixed* cards (up to its topmost card
//! lying on the floor or on a card it may not be built on: that card has
//! never moved, nor has any card below it) and then a *run*: cards each
//! one rank below the card under it, down from the fixed top's rank.
//! A run's ranks follow from its length; only its suits are unknown once
//! forgotten. A position of the suitless game is, per column, how many
//! fixed cards are left and how long its run is; and per suit, how many
//! cards are up. Its moves:
//! - a run's top card onto another column whose top is one rank higher;
//! - a fixed top card with no run on it onto such a column (the fixed
//!   cards below it that were built on one another, as dealt, become the
//!   column's run), or up when its suit's next card;
//! - a run's top card up, when it has the rank of a suit's next card and
//!   that card is not fixed (so it lies in some run: which one is
//!   forgotten, so any run with a top of that rank may give it);
//! - under xpat2's complete rules (SPEC §10), a *burst*: a foundation's
//!   top card onto a column whose top is one rank higher; then, as often
//!   as wanted, another card back, a foundation's top onto the last card
//!   back or the card beneath that one on its pile onto a column's top;
//!   then a column's top card not covered by them onto the last card
//!   back; all in one move.
//!
//! A card the real game plays up by itself (every card that can go up
//! under forced rules; the safe ones in the free and complete searches,
//! `automatic.rs`, a rule of the foundation alone) goes up at once in the
//! suitless game too where the real position surely has it bare: a fixed
//! top card with no run on it, or a run's top card that is the only card
//! of its rank to have moved.
//!
//! # Why a lost suitless game proves the position lost
//!
//! Map each real position to the suitless position that counts its fixed
//! cards, run lengths and foundation. Every real move is one of the
//! moves above from that image, and leads to the image of where it
//! leads: a card moved onto a host lies on a card one rank higher, so
//! cards above the fixed ones always form a run, and a card that leaves
//! a run lowers its length by one (the fixed cards do not change: a card
//! put back where it was dealt lies on a card it may be built on, so it
//! counts in the run); a fixed top card can move only with nothing on
//! it; a run's top card that goes up is its suit's next card, not fixed.
//! A real move is followed by every card its rule plays up: those the
//! suitless game plays up at once are among them (bare in the real
//! position, their suit's next, and the rule the same), and the others
//! are moves of it, so the image of the position reached is reachable. By induction every real play is a play
//! of the suitless game from the image of the start, and a real win
//! (every card up) is a suitless win. When the suitless game is searched
//! whole and never wins, the real position is lost, under forced, free
//! and complete rules alike.
//!
//! Under complete rules, "every real play" is every play whose cards
//! back come in bursts, and that is enough: some winning play does, if
//! any does (`moves.rs`, `for_each_return`: a return is put off until a
//! move needs the card off its pile, a card put onto it or the return of
//! the card beneath it; so each card back is followed by a card onto it,
//! a card back from some pile or, ending the burst, a card not coming
//! back, accessible before the burst began; or by the card beneath it on
//! its pile coming back, onto it or elsewhere). A burst's moves are
//! moves of the list above from the images in turn, and no card goes up
//! between them (a return lowers a foundation, and playing the card
//! straight back up undoes it: no burst has that), so a burst of the
//! real play is a burst of the suitless game. The game is smaller for
//! it: a burst under way (its last card back with nothing on it yet) is
//! a position the suitless game never holds (bd.43311 under complete
//! rules: 3.41 M positions instead of 6.39 M, bd.24648 118 M instead of
//! 158 M).
//!
//! The tests hold this to the game: along random walks of real deals the
//! image of every position reached is a suitless position the search
//! reaches; on small games searched whole, no position a plain search
//! wins is found lost.
//!
//! # Two searches of it
//!
//! [`suitless`] searches it best-first, the positions with most cards up
//! first, keeping every position reached: it finds a win soonest, and
//! holds tens of millions of positions. [`in_layers`] (`layers.rs`)
//! searches the same positions a layer and a cell at a time, forgetting
//! each once searched: it meets a win late, and holds the hundreds of
//! millions the tail's games have (bd.7922: 495 M).
//!
//! [`Rules::only_onto_higher`]: crate::rules::Rules::only_onto_higher

use std::mem::offset_of;

use rustc_hash::FxHashSet;

use halves::Halves;

use super::automatic::Automatic;
use super::{FLOOR, State};
use crate::cards::{CARDS, Card, KING, SUITS, card_of, rank, suit};
use crate::rules::Build;

/// The most columns the packed form holds: Baker's Dozen's 13.
const COLUMNS: usize = 13;
/// The most fixed cards a column may hold (3 bits).
const MOST_FIXED: usize = 7;

/// A suitless position, packed: per column 3 bits of fixed cards and 4
/// of run, per suit 4 bits of cards up.
type Packed = u128;

/// A suitless position (the module doc).
///
/// Aligned to 16 bytes, so 32 in all: its 30 bytes were copied as two
/// overlapping 16-byte moves, and a copy read back across the overlap
/// waited on the store before it (a profile of bd.24648 put a tenth of
/// the search's time there); two aligned halves do not. The moves change
/// its bytes a half at a time for the same reason (`halves.rs`); a
/// position built or read back, copied once, writes them plainly.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(16))]
struct Position {
    fixed: [u8; COLUMNS],
    run: [u8; COLUMNS],
    up: [u8; SUITS],
    /// Always zero: the two bytes that make the halves whole.
    unused: [u8; 2],
}

// SAFETY: `repr(C)`, aligned to 16, 32 bytes of `u8` arrays.
unsafe impl Halves for Position {}
const _: () = assert!(size_of::<Position>() == 2 * COLUMNS + SUITS + 2);

/// Without [`Position::unused`]: a checkpoint names its game by the
/// start position written so (`checkpoint.rs`), as it was before.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("fixed", &self.fixed)
            .field("run", &self.run)
            .field("up", &self.up)
            .finish()
    }
}

impl Position {
    /// No column, `up` the foundation.
    fn with_foundation(up: [u8; SUITS]) -> Position {
        Position {
            fixed: [0; COLUMNS],
            run: [0; COLUMNS],
            up,
            unused: [0; 2],
        }
    }

    /// Column `i`'s run plus `by` (wrapping: `u8::MAX` takes one away).
    #[inline(always)]
    fn add_run(&mut self, i: usize, by: u8) {
        debug_assert!(i < COLUMNS);
        halves::add_byte(self, offset_of!(Position, run) + i, by);
    }

    /// Suit `s`'s foundation plus `by`, as [`Position::add_run`].
    #[inline(always)]
    fn add_up(&mut self, s: usize, by: u8) {
        debug_assert!(s < SUITS);
        halves::add_byte(self, offset_of!(Position, up) + s, by);
    }

    /// Column `i` with `fixed` fixed cards and a run of `run`.
    #[inline(always)]
    fn set_column(&mut self, i: usize, fixed: u8, run: u8) {
        debug_assert!(i < COLUMNS);
        halves::set_byte(self, offset_of!(Position, fixed) + i, fixed);
        halves::set_byte(self, offset_of!(Position, run) + i, run);
    }

    /// Every card up: the suitless game won.
    fn won(&self) -> bool {
        self.up.iter().all(|&h| h == KING)
    }
}

/// What a search of the suitless game ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suitless {
    /// Searched whole, never won: the real position is lost.
    Lost {
        /// Suitless positions reached.
        positions: usize,
    },
    /// Won, which proves nothing of the real game: a longer search of
    /// the same suitless game would not prove more.
    Won {
        /// Suitless positions reached.
        positions: usize,
    },
    /// Stopped at a limit, or a game it does not describe.
    Open {
        /// Suitless positions reached.
        positions: usize,
    },
}

impl Suitless {
    /// Whether the real position was proven lost.
    pub fn is_lost(self) -> bool {
        matches!(self, Suitless::Lost { .. })
    }

    /// Suitless positions reached.
    pub fn positions(self) -> usize {
        match self {
            Suitless::Lost { positions }
            | Suitless::Won { positions }
            | Suitless::Open { positions } => positions,
        }
    }
}

/// How many of the first `n` cards of `column` (bottom first) are fixed:
/// up to the topmost lying on the floor or on a card it may not be built
/// on under `state`'s rules.
fn fixed_count(state: &State, column: &[Card], n: usize) -> usize {
    let build = state.rules().build;
    (1..=n)
        .rev()
        .find(|&k| k == 1 || !build.allows(column[k - 1], column[k - 2]))
        .unwrap_or(0)
}

/// The columns of a set of them, a bit each, lowest first.
fn columns_in(mut set: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        (i < 16).then_some(i)
    })
}

/// The ranks some suit of `p` plays up next, a bit each.
fn next_ranks(p: &Position) -> u16 {
    p.up.iter().fold(0, |ranks, &h| ranks | 1 << (h + 1))
}

/// The last card a burst (the module doc) brought back so far: where it
/// lies, what it is, and the columns the burst's cards back have covered
/// (their tops are no longer the tops they were).
#[derive(Clone, Copy)]
struct LastBack {
    column: usize,
    suit: usize,
    rank: u8,
    covered: u16,
}

/// The suitless game of one real position: its columns' fixed cards,
/// which only ever shrink, and its rules. Tables of arrays, not of
/// vectors: a position's moves read them some twenty times.
struct Game {
    /// Its columns.
    columns: usize,
    /// Each column's bottom card: the column's name, whatever it holds.
    bottoms: Vec<Card>,
    /// Each column's fixed cards, bottom first.
    fixed: [[Card; MOST_FIXED]; COLUMNS],
    /// `lower[i][n]`: the fixed cards of column `i` once all but its first
    /// `n` have left it (those of them built on one another as dealt,
    /// below the topmost left, count in the run then).
    lower: [[u8; MOST_FIXED + 1]; COLUMNS],
    /// `held[i][n]`: column `i`'s first `n` fixed cards, a bit per card.
    held: [[u64; MOST_FIXED + 1]; COLUMNS],
    /// Which cards the real game plays up by itself.
    automatic: Automatic,
    /// A foundation's top card may come back (SPEC §10).
    returns: bool,
    /// Cards come back in bursts only (the module doc); one at a time,
    /// with nothing put on them, only where a test compares the two.
    bursts: bool,
}

impl Game {
    /// The game of `state` and its image, or `None` where the suitless
    /// game does not describe the real one.
    fn of(state: &State) -> Option<(Game, Position)> {
        let rules = state.rules();
        if rules.build != Build::AnySuit || !rules.only_onto_higher() {
            return None;
        }
        let columns = state.columns();
        if columns.len() > COLUMNS {
            return None;
        }
        let mut game = Game {
            columns: columns.len(),
            bottoms: Vec::with_capacity(columns.len()),
            fixed: [[0; MOST_FIXED]; COLUMNS],
            lower: [[0; MOST_FIXED + 1]; COLUMNS],
            held: [[0; MOST_FIXED + 1]; COLUMNS],
            automatic: state.automatic,
            returns: state.returns(),
            bursts: true,
        };
        for (i, column) in columns.iter().enumerate() {
            let count = fixed_count(state, column, column.len());
            if count > MOST_FIXED || column.len() - count > 15 {
                return None;
            }
            game.bottoms.push(column[0]);
            game.fixed[i][..count].copy_from_slice(&column[..count]);
            for n in 0..=count {
                game.lower[i][n] = fixed_count(state, column, n) as u8;
                game.held[i][n] = column[..n].iter().fold(0, |held, &card| held | 1 << card);
            }
        }
        let image = game.settled_image(state);
        Some((game, image))
    }

    /// The image of `state` with the cards the real game surely played
    /// up settled: the suitless position a search of it starts from.
    fn settled_image(&self, state: &State) -> Position {
        let mut image = self.image(state);
        let fixed = self.fixed_cards(&image);
        self.settle(&mut image, fixed);
        image
    }

    /// The suitless position of `state`, a position reached from the one
    /// this game is of.
    fn image(&self, state: &State) -> Position {
        let mut image = Position::with_foundation(state.foundation());
        for (i, &bottom) in self.bottoms.iter().enumerate() {
            if state.below(bottom) != FLOOR {
                continue;
            }
            let mut column = vec![bottom];
            while let Some(next) = state.above(*column.last().expect("a card")) {
                column.push(next);
            }
            let count = fixed_count(state, &column, column.len());
            image.fixed[i] = count as u8;
            image.run[i] = (column.len() - count) as u8;
        }
        image
    }

    fn pack(&self, p: &Position) -> Packed {
        let mut packed: Packed = 0;
        for i in 0..self.columns {
            packed = packed << 7 | Packed::from(p.fixed[i]) << 4 | Packed::from(p.run[i]);
        }
        for s in 0..SUITS {
            packed = packed << 4 | Packed::from(p.up[s]);
        }
        packed
    }

    fn unpack(&self, mut packed: Packed) -> Position {
        let mut p = Position::with_foundation([0; SUITS]);
        for s in (0..SUITS).rev() {
            p.up[s] = (packed & 0xF) as u8;
            packed >>= 4;
        }
        for i in (0..self.columns).rev() {
            p.run[i] = (packed & 0xF) as u8;
            p.fixed[i] = (packed >> 4 & 0x7) as u8;
            packed >>= 7;
        }
        p
    }

    /// Column `i`'s fixed top card, if it has fixed cards.
    fn fixed_top(&self, p: &Position, i: usize) -> Option<Card> {
        let n = p.fixed[i] as usize;
        (n > 0).then(|| self.fixed[i][n - 1])
    }

    /// The rank of column `i`'s top card (its run's, or its fixed top's),
    /// if the column holds any card.
    fn top_rank(&self, p: &Position, i: usize) -> Option<u8> {
        self.fixed_top(p, i).map(|card| rank(card) - p.run[i])
    }

    /// Each column's top rank (`None`: empty), and by rank the columns
    /// with a top of that rank, a bit each: what a position's moves onto
    /// hosts are read from.
    fn tops(&self, p: &Position) -> ([Option<u8>; COLUMNS], [u16; KING as usize + 2]) {
        let tops: [Option<u8>; COLUMNS] = std::array::from_fn(|i| {
            if i < self.columns {
                self.top_rank(p, i)
            } else {
                None
            }
        });
        let mut topped = [0u16; KING as usize + 2];
        for (i, top) in tops.iter().enumerate().take(self.columns) {
            if let Some(top) = *top {
                topped[top as usize] |= 1 << i;
            }
        }
        (tops, topped)
    }

    /// Column `i`'s fixed top card leaves it (a run is on it no more);
    /// `fixed`, the fixed cards of `p` a bit per card, loses it and those
    /// that join the run.
    fn take_fixed_top(&self, p: &mut Position, i: usize, fixed: &mut u64) {
        let n = p.fixed[i] as usize - 1;
        let left = self.lower[i][n] as usize;
        // Its fixed cards from the `left` first on leave the fixed ones.
        *fixed &= !(self.held[i][n + 1] ^ self.held[i][left]);
        p.set_column(i, left as u8, (n - left) as u8);
    }

    /// The fixed cards of `p`, a bit per card.
    fn fixed_cards(&self, p: &Position) -> u64 {
        (0..self.columns).fold(0, |cards, i| cards | self.held[i][p.fixed[i] as usize])
    }

    /// Calls `f` with each position one move of `p`, a settled position
    /// (every position a search holds is), leads to, settled.
    fn for_each_child(&self, p: &Position, f: impl FnMut(Position)) {
        self.for_each_child_of(p, self.fixed_cards(p), f);
    }

    /// [`Game::for_each_child`] with `fixed_cards`, the fixed cards of
    /// `p`, already known (`fixed_cards`).
    fn for_each_child_of(&self, p: &Position, fixed_cards: u64, mut f: impl FnMut(Position)) {
        let columns = self.columns;
        let (tops, topped) = self.tops(p);
        // Unchanged by a move onto a host.
        let next = next_ranks(p);
        // Each child, settled unless `settled` says it is already.
        let mut emit = |mut child: Position, fixed: u64, settled: bool| {
            if !settled {
                self.settle(&mut child, fixed);
            }
            f(child);
        };
        // Onto hosts.
        for (i, top) in tops.iter().enumerate().take(columns) {
            if let Some(top) = *top
                && top < KING
            {
                let hosts = topped[top as usize + 1] & !(1 << i);
                self.onto_hosts(p, fixed_cards, next, i, hosts, &mut emit);
            }
        }
        self.cards_back(p, fixed_cards, &topped, &mut emit);
        // Up.
        for (i, top) in tops.iter().enumerate().take(columns) {
            let (Some(top), Some(fixed_top)) = (*top, self.fixed_top(p, i)) else {
                continue;
            };
            if p.run[i] == 0 {
                if rank(fixed_top) == p.up[suit(fixed_top) as usize] + 1 {
                    let (mut child, mut fixed) = (*p, fixed_cards);
                    self.up(&mut child, i, fixed_top, &mut fixed);
                    emit(child, fixed, false);
                }
                continue;
            }
            for s in 0..SUITS as u8 {
                let card = card_of(top, s);
                if p.up[s as usize] + 1 == top && fixed_cards >> card & 1 == 0 {
                    let (mut child, mut fixed) = (*p, fixed_cards);
                    self.up(&mut child, i, card, &mut fixed);
                    emit(child, fixed, false);
                }
            }
        }
    }
}

/// The moves the suitless game and the game with cards followed
/// (`followed.rs`) each make their own way: their positions differ (the
/// latter's also say where the followed cards lie), the shape of their
/// games does not. The settling and the bursts, which only string these
/// moves together, are written once, here.
trait Moves {
    type Position: Copy;

    /// The suitless game the positions are of.
    fn game(&self) -> &Game;

    /// The suitless position `p` holds.
    fn suitless(p: &Self::Position) -> &Position;

    /// The card on top of column `i` that the real game surely played up
    /// by itself (the module doc), if there is one; `fixed` holds the
    /// fixed cards of `p`, `next` its [`next_ranks`]. A function of the
    /// column's top, the fixed cards and the foundation alone.
    fn goes_up_from(&self, p: &Self::Position, fixed: u64, next: u16, i: usize) -> Option<Card>;

    /// `card`, column `i`'s top, goes up; `fixed`, the fixed cards of
    /// `p`, loses it if it was one.
    fn up(&self, p: &mut Self::Position, i: usize, card: Card, fixed: &mut u64);

    /// `p` with column `i`'s top card taken off it and held, in no
    /// column yet: the position, its fixed cards (`fixed_cards` those of
    /// `p`), and the card where it is known (a fixed top, a followed
    /// card), which carries its place along ([`Moves::put_onto`]).
    fn lifted(
        &self,
        p: &Self::Position,
        fixed_cards: u64,
        i: usize,
    ) -> (Self::Position, u64, Option<Card>);

    /// `lifted` ([`Moves::lifted`]) with the card held, `known` if it
    /// is, put onto column `j`.
    fn put_onto(&self, lifted: Self::Position, known: Option<Card>, j: usize) -> Self::Position;

    /// Calls `emit` with each position column `i`'s top card moved onto
    /// one of `hosts` (a bit per column) leads to, with its fixed cards
    /// and whether it is settled already; `p` is settled, `next` its
    /// [`next_ranks`].
    ///
    /// They are settled already when the card left on top of `i` does
    /// not go up (asked once: column `i` is the same whichever the
    /// host). Why: `p` is settled, the foundation stays, and no other
    /// column's top changes. On its host the card moved goes up no more
    /// than it did from `i`: it is the same card with the same
    /// foundation, known no better (where its identity is asked, as in
    /// the game with cards followed, the host's run below a card of the
    /// next rank holds no other card that could answer for it). A fixed
    /// top moved frees the cards that join the run: the cards that have
    /// moved are then more, which makes no column's top card known that
    /// was not (every run's slot of a rank not holding a followed card
    /// holds one of them, so they are never fewer than one).
    #[inline(always)]
    fn onto_hosts(
        &self,
        p: &Self::Position,
        fixed_cards: u64,
        next: u16,
        i: usize,
        hosts: u16,
        emit: &mut impl FnMut(Self::Position, u64, bool),
    ) {
        if hosts == 0 {
            return;
        }
        let (lifted, fixed, known) = self.lifted(p, fixed_cards, i);
        let settled = self.goes_up_from(&lifted, fixed, next, i).is_none();
        for j in columns_in(hosts) {
            emit(self.put_onto(lifted, known, j), fixed, settled);
        }
    }

    /// `p` with suit `s`'s top card back from the foundation onto column
    /// `j`.
    fn card_back(&self, p: &Self::Position, s: usize, j: usize) -> Self::Position;

    /// Plays up every card the real game would surely have played up by
    /// itself (the module doc), until none is left; `fixed` holds the
    /// fixed cards of `p` (`fixed_cards`).
    fn settle(&self, p: &mut Self::Position, mut fixed: u64) {
        let game = self.game();
        debug_assert_eq!(fixed, game.fixed_cards(Self::suitless(p)));
        if game.automatic == Automatic::Nothing {
            return;
        }
        loop {
            let next = next_ranks(Self::suitless(p));
            let Some((i, card)) = (0..game.columns)
                .find_map(|i| self.goes_up_from(p, fixed, next, i).map(|card| (i, card)))
            else {
                return;
            };
            self.up(p, i, card, &mut fixed);
        }
    }

    /// Calls `f` with each position a card back from the foundation
    /// leads to, under complete rules: each end of the burst it starts
    /// ([`Moves::burst_ends`]), or the card alone where bursts are off
    /// (the tests' comparison); `topped` as [`Game::tops`] gives it. With
    /// each, as [`Moves::onto_hosts`], its fixed cards and whether it is
    /// settled already; `p` is settled.
    fn cards_back(
        &self,
        p: &Self::Position,
        fixed_cards: u64,
        topped: &[u16; KING as usize + 2],
        f: &mut impl FnMut(Self::Position, u64, bool),
    ) {
        let game = self.game();
        if !game.returns {
            return;
        }
        for s in 0..SUITS {
            let height = Self::suitless(p).up[s];
            if height == 0 || height == KING {
                continue;
            }
            for j in columns_in(topped[height as usize + 1]) {
                let child = self.card_back(p, s, j);
                if game.bursts {
                    let last = LastBack {
                        column: j,
                        suit: s,
                        rank: height,
                        covered: 1 << j,
                    };
                    self.burst_ends(&child, last, fixed_cards, topped, f);
                } else {
                    f(child, fixed_cards, false);
                }
            }
        }
    }

    /// Calls `f` with each end of a burst (the module doc) under way in
    /// `p`, its last card back as `last` says: a column's top card, not
    /// coming back, put onto that card (`topped`: the columns by their
    /// top's rank when the burst began, which its cards back change only
    /// where they cover them); or the burst going on, a foundation's top
    /// brought onto that card, or the card beneath it on its pile brought
    /// onto another column's top.
    ///
    /// Each end is settled already, as a move onto a host
    /// ([`Moves::onto_hosts`]), when the card left on top of the column
    /// the last card came from does not go up. Why: the burst began from
    /// a settled position and only lowered foundations, so it plays up
    /// no card that did not go up before, but for the next card of a
    /// suit whose pile it lowered, and that card is the lowest card of
    /// its suit to have come back, covered: by the card that ended the
    /// burst, or by a foundation's top brought onto it (the card beneath
    /// it on its own pile would be lower). The rule that plays cards up
    /// (`Automatic::plays_up`) is kept by no card whose foundation fell,
    /// and each card back is one more card that has moved, so no column's
    /// top is known that was not; the card moved onto the last card back
    /// is the one from a column top the settled position did not play
    /// up. The walks' test (`every_child_is_settled`) settles every
    /// child again and asserts that nothing moves.
    fn burst_ends(
        &self,
        p: &Self::Position,
        last: LastBack,
        fixed_cards: u64,
        topped: &[u16; KING as usize + 2],
        f: &mut impl FnMut(Self::Position, u64, bool),
    ) {
        let LastBack {
            column: j,
            suit,
            rank,
            covered,
        } = last;
        if rank < 2 {
            return;
        }
        let next_up = next_ranks(Self::suitless(p));
        for i in columns_in(topped[rank as usize - 1] & !covered) {
            let (lifted, fixed, known) = self.lifted(p, fixed_cards, i);
            let settled = self.goes_up_from(&lifted, fixed, next_up, i).is_none();
            f(self.put_onto(lifted, known, j), fixed, settled);
        }
        for s in 0..SUITS {
            if Self::suitless(p).up[s] == rank - 1 {
                let child = self.card_back(p, s, j);
                let next = LastBack {
                    suit: s,
                    rank: rank - 1,
                    ..last
                };
                self.burst_ends(&child, next, fixed_cards, topped, f);
            }
        }
        // Its own pile's next card, elsewhere (onto it is a foundation's
        // top onto it, above).
        for i in columns_in(topped[rank as usize] & !covered) {
            let child = self.card_back(p, suit, i);
            let next = LastBack {
                column: i,
                suit,
                rank: rank - 1,
                covered: covered | 1 << i,
            };
            self.burst_ends(&child, next, fixed_cards, topped, f);
        }
    }
}

impl Moves for Game {
    type Position = Position;

    fn game(&self) -> &Game {
        self
    }

    fn suitless(p: &Position) -> &Position {
        p
    }

    /// Always inlined: [`Moves::settle`] asks it of every column, and
    /// most columns are turned away by its first test (their top is no
    /// suit's next card); a call for each cost a tenth of the search's
    /// time (bd.24648, forced rules: 19.9 → 17.3 s of CPU inlined).
    #[inline(always)]
    fn goes_up_from(&self, p: &Position, fixed: u64, next: u16, i: usize) -> Option<Card> {
        let fixed_top = self.fixed_top(p, i)?;
        let top = rank(fixed_top) - p.run[i];
        // A column whose top has none of them has nothing to settle
        // (most, most of the time).
        if next >> top & 1 == 0 {
            return None;
        }
        let card = if p.run[i] == 0 {
            fixed_top
        } else {
            // The only card of its rank that has moved, if it is.
            let mut moved = (0..SUITS as u8)
                .map(|s| card_of(top, s))
                .filter(|&c| fixed >> c & 1 == 0 && rank(c) > p.up[suit(c) as usize]);
            match (moved.next(), moved.next()) {
                (Some(card), None) => card,
                _ => return None,
            }
        };
        let s = suit(card) as usize;
        (rank(card) == p.up[s] + 1 && self.automatic.plays_up(Build::AnySuit, &p.up, card))
            .then_some(card)
    }

    fn up(&self, p: &mut Position, i: usize, card: Card, fixed: &mut u64) {
        p.add_up(suit(card) as usize, 1);
        if p.run[i] == 0 {
            self.take_fixed_top(p, i, fixed);
        } else {
            p.add_run(i, u8::MAX);
        }
    }

    #[inline(always)]
    fn lifted(&self, p: &Position, fixed_cards: u64, i: usize) -> (Position, u64, Option<Card>) {
        let (mut lifted, mut fixed) = (*p, fixed_cards);
        if p.run[i] > 0 {
            lifted.add_run(i, u8::MAX);
        } else {
            self.take_fixed_top(&mut lifted, i, &mut fixed);
        }
        (lifted, fixed, None)
    }

    #[inline(always)]
    fn put_onto(&self, mut lifted: Position, _: Option<Card>, j: usize) -> Position {
        lifted.add_run(j, 1);
        lifted
    }

    fn card_back(&self, p: &Position, s: usize, j: usize) -> Position {
        let mut child = *p;
        child.add_up(s, u8::MAX);
        child.add_run(j, 1);
        child
    }
}

/// Searches the suitless game of `state` whole, the positions with most
/// cards up first (a win, which proves nothing, is found sooner; a loss
/// needs every position anyway), unless it wins, reaches more than `most`
/// positions or `stopped` says so (asked every few thousand positions).
pub fn suitless(state: &State, most: usize, stopped: impl Fn() -> bool) -> Suitless {
    let Some((game, start)) = Game::of(state) else {
        return Suitless::Open { positions: 0 };
    };
    search(&game, &start, most, &stopped, &FxHashSet::default()).0
}

/// The suitless game of one deal asked again and again, from the
/// positions a real search reaches, with every suitless position it has
/// proven lost remembered: a later search that meets one goes no further
/// there, and a real position whose image is one is lost without a
/// search. Why: the searches of a deal's subtrees meet the same
/// suitless positions (bd.1649: the same game of 165 000 positions
/// proven lost twice in 30 s), and what one proved lost is lost for all
/// (every position a lost search reached is lost: it reaches no win).
pub struct Memo {
    game: Game,
    lost: FxHashSet<Packed>,
}

/// The most lost positions a [`Memo`] keeps (some 40 MB): past it, it
/// is emptied and starts again.
const MEMO_KEPT: usize = 2_000_000;

impl Memo {
    /// The memo of the deal `root` is a position of, or `None` where the
    /// suitless game does not describe it (not Baker's Dozen).
    pub fn new(root: &State) -> Option<Memo> {
        let (game, _) = Game::of(root)?;
        Some(Memo {
            game,
            lost: FxHashSet::default(),
        })
    }

    /// Whether `state`'s image was proven lost by an earlier search: a
    /// lookup, no search.
    pub fn known_lost(&self, state: &State) -> bool {
        !self.lost.is_empty()
            && self
                .lost
                .contains(&self.game.pack(&self.game.settled_image(state)))
    }

    /// [`suitless`] from `state`, a position reached from the root, with
    /// what earlier searches proved lost; what this one proves lost is
    /// remembered.
    pub fn search(&mut self, state: &State, most: usize, stopped: impl Fn() -> bool) -> Suitless {
        let start = self.game.settled_image(state);
        let (found, seen) = search(&self.game, &start, most, &stopped, &self.lost);
        if found.is_lost() {
            if self.lost.len() + seen.len() > MEMO_KEPT {
                self.lost.clear();
            }
            // Memory refused: what is kept stays, the rest is forgotten.
            if self.lost.try_reserve(seen.len()).is_ok() {
                self.lost.extend(seen);
            }
        }
        found
    }
}

/// A game [`search`] searches best-first: its positions, the keys its
/// sets hold them by, and its moves. The suitless game is one; the game
/// with some cards followed (`followed.rs`) another.
trait BestFirst: Moves {
    type Key: Copy + Eq + std::hash::Hash;
    fn key(&self, p: &Self::Position) -> Self::Key;
    fn position(&self, key: Self::Key) -> Self::Position;
    /// Calls `f` with each position one move of `p` leads to, settled.
    fn for_each_child(&self, p: &Self::Position, f: impl FnMut(Self::Position));
}

impl BestFirst for Game {
    type Key = Packed;
    fn key(&self, p: &Position) -> Packed {
        self.pack(p)
    }
    fn position(&self, key: Packed) -> Position {
        self.unpack(key)
    }
    fn for_each_child(&self, p: &Position, f: impl FnMut(Position)) {
        Game::for_each_child(self, p, f)
    }
}

/// The search of [`suitless`] (or of another [`BestFirst`] game) from
/// `start`, going no further at the positions of `lost`; with the
/// positions it reached.
fn search<G: BestFirst>(
    game: &G,
    start: &G::Position,
    most: usize,
    stopped: &dyn Fn() -> bool,
    lost: &FxHashSet<G::Key>,
) -> (Suitless, FxHashSet<G::Key>) {
    let mut seen: FxHashSet<G::Key> = FxHashSet::default();
    let open = |seen: FxHashSet<G::Key>| {
        (
            Suitless::Open {
                positions: seen.len(),
            },
            seen,
        )
    };
    let key = game.key(start);
    if lost.contains(&key) {
        return (Suitless::Lost { positions: 0 }, seen);
    }
    // Positions to expand, by cards up; the last found first among equals.
    let mut by_score: Vec<Vec<G::Key>> = vec![Vec::new(); CARDS + 1];
    let score = |p: &G::Position| G::suitless(p).up.iter().sum::<u8>() as usize;
    seen.insert(key);
    by_score[score(start)].push(key);
    let mut best = score(start);
    let mut expanded = 0usize;
    // Set when memory for more positions could not be had: the search
    // stops there, never aborts the process (a search under a memory
    // limit goes on, with this memory given back).
    let mut refused = false;
    loop {
        while best > 0 && by_score[best].is_empty() {
            best -= 1;
        }
        let Some(key) = by_score[best].pop() else {
            break;
        };
        let p = game.position(key);
        if G::suitless(&p).won() {
            let positions = seen.len();
            return (Suitless::Won { positions }, seen);
        }
        expanded += 1;
        if refused || seen.len() > most || (expanded.is_multiple_of(4096) && stopped()) {
            return open(seen);
        }
        // Room for every child, asked for before it is needed.
        if seen.capacity() - seen.len() < 64 && seen.try_reserve(seen.len().max(1024)).is_err() {
            return open(seen);
        }
        game.for_each_child(&p, |child| {
            let key = game.key(&child);
            if refused || lost.contains(&key) || !seen.insert(key) {
                return;
            }
            let up = score(&child);
            let bucket = &mut by_score[up];
            if bucket.len() == bucket.capacity()
                && bucket.try_reserve(bucket.len().max(1024)).is_err()
            {
                refused = true;
                return;
            }
            bucket.push(key);
            best = best.max(up);
        });
    }
    // Lost only when every position found was expanded.
    if refused {
        open(seen)
    } else {
        (
            Suitless::Lost {
                positions: seen.len(),
            },
            seen,
        )
    }
}

/// The suitless game of `state` searched whole (the module doc): lost
/// when no position of it is won, won when one is; open when a limit was
/// reached, when memory was refused, or for a game it does not describe
/// (not Baker's Dozen).
/// `progress` is called after each layer, and every [`LayerLimits::every`]
/// while one is under way.
pub fn in_layers(
    state: &State,
    limits: &LayerLimits,
    progress: &mut dyn FnMut(&Layer),
) -> Suitless {
    followed_in_layers(state, 0, limits, progress)
}

/// [`in_layers`] for the game with `cards` followed (a bit per card, at
/// most [`MOST_FOLLOWED`]; none: the suitless game), whose layers
/// and cells are those of its suitless positions: a move of it is a move
/// of the suitless game (`followed.rs`), so the layers' argument holds.
/// Also open where a position's entry does not fit 64 bits
/// (its entries' doc in `followed.rs`).
pub fn followed_in_layers(
    state: &State,
    cards: u64,
    limits: &LayerLimits,
    progress: &mut dyn FnMut(&Layer),
) -> Suitless {
    search_from(state, cards, None, limits, progress)
}

/// [`in_layers`] resumed from a checkpoint: the same verdict and the same
/// count of positions as the search saved would have reached.
pub fn resumed_in_layers(
    resumed: Resumed,
    limits: &LayerLimits,
    progress: &mut dyn FnMut(&Layer),
) -> Suitless {
    let Resumed {
        state,
        cards,
        layer,
        total,
        cells,
        spilled,
    } = resumed;
    let from = (layer, total, cells, spilled);
    search_from(&state, cards, Some(from), limits, progress)
}

/// [`followed_in_layers`] from its start, or `from` a checkpoint.
fn search_from(
    state: &State,
    cards: u64,
    from: Option<layers::Resume>,
    limits: &LayerLimits,
    progress: &mut dyn FnMut(&Layer),
) -> Suitless {
    let Some((game, start)) = Game::of(state) else {
        return Suitless::Open { positions: 0 };
    };
    if cards == 0 {
        return layers::search_game(state, 0, &game, start, from, limits, progress);
    }
    let Some(following) = followed::Following::of(game, cards) else {
        return Suitless::Open { positions: 0 };
    };
    let start = following.settled_image(state);
    layers::search_game(state, cards, &following, start, from, limits, progress)
}

/// The bits of a cell's key in the search in layers (55 at most: 3 a
/// column and 4 a suit): its filings put the layer's number above them,
/// and a checkpoint holds no key beyond them.
const CELL_BITS: u32 = 56;

mod cell_set;
mod checkpoint;
mod followed;
mod halves;
mod layers;
mod pile;
mod spill;
pub use checkpoint::{Checkpoint, Resumed, Saved};
pub use followed::{MOST_FOLLOWED, suitless_followed};
pub use layers::{EVERY as LAYER_EVERY, LEAN_FROM, Layer, Limits as LayerLimits};

#[cfg(test)]
mod tests;

//! A position and its normalization (SPEC §5); its moves are in `moves.rs`.
//!
//! A position is kept as a relation: for every card, what lies directly
//! below it (another card, the floor of a column, a register, or the
//! foundation). Column order and register order do not exist in this form,
//! so two positions that differ only by them are the same value: the
//! canonical form comes for free, with no sorting. A move changes one entry
//! (and normalization one more per card it plays), which keeps moves cheap
//! and lets the key be updated in place.
//!
//! Beside this file: `moves.rs`, the moves; `automatic.rs`, the foundation
//! moves a position plays by itself (all of them under forced rules, those
//! proven safe in a free search); `key.rs`, the compact key the search's
//! visited set is built on; `bits.rs`, the same relation seen as sets of
//! cards, a bit per card; `lost.rs`, the positions that can never be won
//! (SPEC §8 and the proofs of what it adds), with `pairs.rs` and
//! `suitless.rs` beside it (Baker's Dozen's stronger proofs); `bound.rs`,
//! a lower bound on the moves still needed (`--optimal`'s); `written.rs`,
//! a search's solution with every foundation move written out.

mod automatic;
mod bits;
mod bound;
#[cfg(test)]
mod complete_tests;
mod dig;
mod features;
mod key;
mod lost;
mod moves;
mod pairs;
mod sequence;
mod suitless;
#[cfg(test)]
pub(crate) mod testing;
mod written;

use std::fmt;

use crate::cards::{CARDS, Card, FoundationLine, Name, SUITS, suit};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::rules::Rules;

use automatic::Automatic;
pub use bound::ColumnFacts;
pub use features::{ColumnFeatures, Features};
pub use key::{Key, KeyDecoder};
pub use lost::{Inversions, Survey};
pub use moves::{Dest, Illegal, Move};
pub use pairs::{Pairs, Triples};
pub use suitless::MOST_FOLLOWED as SUITLESS_MOST_FOLLOWED;
pub use suitless::{
    Checkpoint as SuitlessCheckpoint, LAYER_EVERY as SUITLESS_EVERY,
    LEAN_FROM as SUITLESS_LEAN_FROM, Layer as SuitlessLayer, LayerLimits as SuitlessLimits,
    Memo as SuitlessMemo, Resumed as SuitlessResumed, Saved as SuitlessSaved, Suitless,
    followed_in_layers as suitless_followed_in_layers, in_layers as suitless_in_layers,
    resumed_in_layers as suitless_resumed_in_layers, suitless, suitless_followed,
};
pub use written::{as_replayed, free_form, searched_from, written_out, written_out_from};

/// Where a card lies, when not on another card. Card numbers are `0..52`.
pub const FLOOR: u8 = 52;
/// The card is in a register.
pub const REGISTER: u8 = 53;
/// The card is on the foundation.
pub const FOUNDATION: u8 = 54;
/// In `State::above`: nothing lies on this card.
const NOTHING: u8 = 0xFF;

/// Length of `State::above`: one slot per card, and past them slots that
/// [`FLOOR`], [`REGISTER`] and [`FOUNDATION`] index, so that code can write
/// "what lies on what lies below" without a branch; those are never read.
const ABOVE_LEN: usize = FOUNDATION as usize + 1;

/// A position (SPEC §5): normalized under forced rules; under free rules
/// (SPEC §9), with the foundation moves its `Automatic` rule makes.
#[derive(Clone, Debug)]
pub struct State {
    rules: &'static Rules,
    /// The foundation moves it plays by itself after every move.
    automatic: Automatic,
    /// Whether a foundation's top card may come back to the tableau
    /// (xpat2's complete rules, SPEC §10, in the games that allow it).
    returns: bool,
    /// What lies below each card: a card, [`FLOOR`], [`REGISTER`] or
    /// [`FOUNDATION`].
    below: [u8; CARDS],
    /// The card lying on each card, or `NOTHING`.
    above: [u8; ABOVE_LEN],
    /// Cards on the foundation, per suit.
    foundation: [u8; SUITS],
    registers_used: u8,
    empty_columns: u8,
    /// Kept up to date by every change of `below`, so that it costs nothing
    /// to ask for.
    key: Key,
}

impl PartialEq for State {
    /// Two states are the same position when their relation is the same:
    /// column and register order do not count.
    fn eq(&self, other: &State) -> bool {
        std::ptr::eq(self.rules, other.rules) && self.below == other.below
    }
}
impl Eq for State {}

impl State {
    /// The initial position a search starts from: normalized under forced
    /// rules; under free rules, with the foundation moves proven safe
    /// played (see `automatic.rs`), which a search writes out with
    /// [`written_out`].
    pub fn new(deal: &Deal) -> State {
        State::new_telling(deal, |_| {})
    }

    /// [`State::new`], telling `played` each card played up on the way.
    fn new_telling(deal: &Deal, played: impl FnMut(Card)) -> State {
        let mut state = State::dealt(deal, Automatic::for_search(deal));
        state.play_automatic(played);
        state
    }

    /// The initial position a solution file starts from (SPEC §6, §9):
    /// normalized under forced rules; under free rules the deal as dealt,
    /// and no move is followed by any other.
    pub fn for_replay(deal: &Deal) -> State {
        let mut state = State::dealt(deal, Automatic::for_replay(deal));
        state.play_automatic(|_| {});
        state
    }

    /// The deal laid out, nothing played yet.
    fn dealt(deal: &Deal, automatic: Automatic) -> State {
        let mut state = State {
            rules: deal.id.rules,
            automatic,
            returns: deal.foundation == Foundation::Xpat2 && deal.id.rules.returns_from_foundation,
            // Cards never placed below are on the foundation; none are at
            // the start.
            below: [FOUNDATION; CARDS],
            above: [NOTHING; ABOVE_LEN],
            foundation: [0; SUITS],
            registers_used: 0,
            empty_columns: 0,
            key: Key::default(),
        };
        for column in &deal.columns {
            let mut under = FLOOR;
            for &card in column {
                state.place(card, under);
                under = card;
            }
            if column.is_empty() {
                state.empty_columns += 1;
            }
        }
        for &card in &deal.registers {
            state.place(card, REGISTER);
        }
        state
    }

    /// The game being played.
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }

    /// The position's key: equal for positions the search takes as one.
    pub fn key(&self) -> Key {
        self.key
    }

    /// Cards on the foundation: the score of SPEC §5.
    pub fn score(&self) -> u8 {
        self.foundation.iter().sum()
    }

    /// Whether every card is on the foundation.
    pub fn is_won(&self) -> bool {
        self.score() == CARDS as u8
    }

    /// Cards on the foundation, per suit (clubs, spades, hearts, diamonds).
    pub fn foundation(&self) -> [u8; SUITS] {
        self.foundation
    }

    /// Columns holding no card.
    pub fn empty_columns(&self) -> usize {
        self.empty_columns as usize
    }

    /// Registers (free cells) holding no card.
    pub fn free_registers(&self) -> usize {
        self.rules.registers - self.registers_used as usize
    }

    /// What lies below `card`: a card, [`FLOOR`], [`REGISTER`] or [`FOUNDATION`].
    #[inline]
    pub fn below(&self, card: Card) -> u8 {
        self.below[card as usize]
    }

    /// The card lying on `card`, if any.
    #[inline]
    pub fn above(&self, card: Card) -> Option<Card> {
        let a = self.above[card as usize];
        (a != NOTHING).then_some(a)
    }

    /// A column's top card: in a column, with nothing on it.
    #[inline]
    pub fn is_top(&self, card: Card) -> bool {
        self.below[card as usize] <= FLOOR && self.above[card as usize] == NOTHING
    }

    /// A card that may move: a column's top card or a card in a register.
    #[inline]
    pub fn is_accessible(&self, card: Card) -> bool {
        let below = self.below[card as usize];
        below == REGISTER || (below <= FLOOR && self.above[card as usize] == NOTHING)
    }

    /// Cards in registers, in card order (registers are a set).
    pub fn registers(&self) -> impl Iterator<Item = Card> + '_ {
        (0..CARDS as Card).filter(|&c| self.below[c as usize] == REGISTER)
    }

    /// Non-empty columns, each from bottom to top, in card order of their
    /// bottom cards (columns are a set).
    pub fn columns(&self) -> Vec<Vec<Card>> {
        (0..CARDS as Card)
            .filter(|&c| self.below[c as usize] == FLOOR)
            .map(|bottom| {
                let mut column = vec![bottom];
                while let Some(next) = self.above(*column.last().unwrap()) {
                    column.push(next);
                }
                column
            })
            .collect()
    }

    /// Puts a card that is nowhere yet (or on the foundation) on `under`.
    #[inline]
    fn place(&mut self, card: Card, under: u8) {
        self.below[card as usize] = under;
        match under {
            FLOOR | FOUNDATION => {}
            REGISTER => self.registers_used += 1,
            onto => self.above[onto as usize] = card,
        }
        self.key.record(card, under);
    }

    /// Whether a foundation's top card may come back to the tableau here
    /// (SPEC §10).
    #[inline]
    pub fn returns(&self) -> bool {
        self.returns
    }

    /// Takes an accessible card, or a foundation's top card coming back,
    /// from where it lies.
    #[inline]
    fn lift(&mut self, card: Card) {
        match self.below[card as usize] {
            FLOOR => self.empty_columns += 1,
            REGISTER => self.registers_used -= 1,
            FOUNDATION => self.foundation[suit(card) as usize] -= 1,
            under => self.above[under as usize] = NOTHING,
        }
    }

    /// Puts an accessible card, already lifted, on its suit's foundation.
    #[inline]
    fn place_up(&mut self, card: Card) {
        self.place(card, FOUNDATION);
        self.foundation[suit(card) as usize] += 1;
    }
}

impl fmt::Display for State {
    /// The position as a person reads it: foundation, registers, then each
    /// column from bottom to top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", FoundationLine(self.foundation))?;
        if self.rules.registers > 0 {
            write!(f, "Registers: ")?;
            for card in self.registers() {
                write!(f, " {}", Name(card))?;
            }
            for _ in 0..self.free_registers() {
                write!(f, " .")?;
            }
            writeln!(f)?;
        }
        let columns = self.columns();
        for (i, column) in columns.iter().enumerate() {
            write!(f, "{:>2}:", i + 1)?;
            for &card in column {
                write!(f, " {:>3}", Name(card))?;
            }
            writeln!(f)?;
        }
        for i in columns.len()..self.rules.columns {
            writeln!(f, "{:>2}: (empty)", i + 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{deals, foundation_is_consistent, initial, is_normalized, xorshift};
    use super::*;

    #[test]
    fn initial_states_are_normalized_and_keep_the_dealt_order() {
        for (rules, seed, deal, state) in deals(1..=200) {
            assert!(is_normalized(&state), "{} {seed}", rules.name);
            assert!(foundation_is_consistent(&state), "{} {seed}", rules.name);
            // Cards left in place keep their order: each column of the
            // state is a dealt column less a top run played away.
            for column in state.columns() {
                let dealt = deal.columns.iter().find(|d| d[0] == column[0]).unwrap();
                assert_eq!(dealt[..column.len()], column[..]);
            }
        }
    }

    #[test]
    fn normalization_cascades_through_suits() {
        // Some deal among the first 300 of Seahaven has its initial
        // normalization play more than one card of a suit.
        let mut seen_cascade = false;
        for seed in 1..=300 {
            let (_, state) = initial("st", seed);
            if state.foundation.iter().any(|&h| h >= 2) {
                seen_cascade = true;
                assert!(is_normalized(&state) && foundation_is_consistent(&state));
            }
        }
        assert!(seen_cascade);
    }

    /// Random legal walks: every move keeps the state normalized, every
    /// card in one place, and never moves a card that is not next in its
    /// suit onto the foundation.
    #[test]
    fn random_walks_keep_every_invariant() {
        let mut rng = 0x2545F4914F6CDD1Du64;
        for (rules, _, _, mut state) in deals(1..=30) {
            for _ in 0..200 {
                let mut moves = Vec::new();
                state.for_each_move(|m| moves.push(m));
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(xorshift(&mut rng) % moves.len() as u64) as usize];
                assert_eq!(state.check_move(mv), Ok(()), "{mv}");
                let before = state.foundation;
                state.apply(mv);
                assert!(state.foundation.iter().zip(before).all(|(&a, b)| a >= b));
                assert!(is_normalized(&state));
                assert!(foundation_is_consistent(&state));
                let placed = state.columns().iter().map(Vec::len).sum::<usize>()
                    + state.registers().count()
                    + state.score() as usize;
                assert_eq!(placed, CARDS);
                assert_eq!(state.columns().len() + state.empty_columns(), rules.columns);
            }
        }
    }
}

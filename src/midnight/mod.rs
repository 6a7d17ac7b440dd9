//! Midnight Oil under xpat2's complete rules (SPEC §10): two redeals and
//! one turn of a column, every foundation move the player's.
//!
//! A redeal gathers the columns *in their order*, so here, unlike in
//! [`State`](crate::state::State), the order of the columns is part of a
//! position while a redeal is left: a [`Table`] keeps its columns in
//! xpat2's order, as one array of cards from the bottom of column 1 to the
//! top of column 18 (a redeal's own reading), with each column's length.
//! Once both redeals are made the order means nothing again, and the key
//! ([`Table::key`]) forgets it.
//!
//! `moves.rs` says why a move is illegal and lists a position's moves;
//! `lost.rs` finds positions past the last redeal that no play wins;
//! `search.rs` searches these positions; `-check` replays files of these
//! rules through [`Table::try_apply`].

mod lost;
mod moves;
pub mod search;

use std::fmt;

use crate::cards::{CARDS, Card, FoundationLine, KING, Name, SUITS, card_of, rank, suit};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::redeal::{self, CARDS_PER_COLUMN};
use crate::rules::Rules;
use crate::state::{Dest, Illegal, Move};

/// Midnight Oil's columns.
const COLUMNS: usize = 18;
/// Bytes of a [`Key`]: the redeals and turn left, then a byte per card.
pub const KEY_BYTES: usize = 1 + CARDS;
/// In a key, marks a column's top card.
const TOP: u8 = 0x80;

/// A position's identity: what is left of the redeals and of the turn,
/// then the columns' cards, each column's top card marked, in column order
/// while a redeal is left and in the order of their bottom cards after.
/// The foundation is the cards missing: each suit's pile is its lowest
/// cards.
pub type Key = [u8; KEY_BYTES];

/// Whether the game is Midnight Oil under xpat2's complete rules, whose
/// positions are [`Table`]s.
pub fn plays(deal: &Deal) -> bool {
    deal.foundation == Foundation::Xpat2 && deal.id.rules.redeals > 0
}

/// A position of Midnight Oil under the complete rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    rules: &'static Rules,
    /// The deal's seed: every redeal's shuffle starts again from it.
    seed: u32,
    /// The tableau's cards, column after column in order, each from its
    /// bottom card to its top card; `len` of them are cards.
    cards: [Card; CARDS],
    len: u8,
    /// Cards per column, in column order.
    heights: [u8; COLUMNS],
    foundation: [u8; SUITS],
    redeals_left: u8,
    turns_left: u8,
    /// Plays every card that can go up by itself once no redeal is left
    /// (a search's positions; see [`Table::play_automatic`]).
    automatic: bool,
    /// With `automatic`, plays them while a redeal is left too: the quick
    /// attempt of the search, which proves nothing (`search.rs`).
    force_up: bool,
}

impl Table {
    /// The deal as dealt, nothing played: where a file is replayed from.
    pub fn for_replay(deal: &Deal) -> Table {
        debug_assert!(deal.id.rules.columns == COLUMNS);
        let mut table = Table {
            rules: deal.id.rules,
            seed: deal.id.seed,
            cards: [0; CARDS],
            len: 0,
            heights: [0; COLUMNS],
            foundation: [0; SUITS],
            redeals_left: deal.id.rules.redeals,
            turns_left: deal.id.rules.turns,
            automatic: false,
            force_up: false,
        };
        for (i, column) in deal.columns.iter().enumerate() {
            for &card in column {
                table.cards[table.len as usize] = card;
                table.len += 1;
            }
            table.heights[i] = column.len() as u8;
        }
        table
    }

    /// The deal as a search starts from it: as dealt, its positions
    /// playing every card up by themselves once no redeal is left.
    pub fn for_search(deal: &Deal) -> Table {
        Table {
            automatic: true,
            ..Table::for_replay(deal)
        }
    }

    /// This position (a player's, replayed) as a search starts from it:
    /// the same cards, redeals and turn left, its positions playing every
    /// card up by themselves once no redeal is left.
    pub fn searching_from(&self) -> Table {
        Table {
            automatic: true,
            ..self.clone()
        }
    }

    /// The game: Midnight Oil.
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }

    /// Cards on the foundation.
    pub fn score(&self) -> u8 {
        self.foundation.iter().sum()
    }

    /// Whether every card is on the foundation.
    pub fn is_won(&self) -> bool {
        self.score() == CARDS as u8
    }

    /// Redeals the player may still make (two at the deal).
    pub fn redeals_left(&self) -> u8 {
        self.redeals_left
    }

    /// Turns of a column the player may still make (one at the deal).
    pub fn turns_left(&self) -> u8 {
        self.turns_left
    }

    /// Cards on the foundation, per suit (clubs, spades, hearts, diamonds).
    pub fn foundation(&self) -> [u8; SUITS] {
        self.foundation
    }

    /// The columns in order, each from its bottom card to its top card.
    pub fn columns(&self) -> Vec<Vec<Card>> {
        (0..COLUMNS).map(|i| self.column(i).to_vec()).collect()
    }

    /// Where column `i`'s cards start in `cards`.
    #[inline]
    fn start(&self, i: usize) -> usize {
        self.heights[..i].iter().map(|&h| h as usize).sum()
    }

    #[inline]
    fn column(&self, i: usize) -> &[Card] {
        let start = self.start(i);
        &self.cards[start..start + self.heights[i] as usize]
    }

    /// The column holding `card` and its place in it (0 = bottom).
    fn locate(&self, card: Card) -> Option<(usize, usize)> {
        let at = self.cards[..self.len as usize]
            .iter()
            .position(|&c| c == card)?;
        let mut start = 0;
        for (i, &h) in self.heights.iter().enumerate() {
            if at < start + h as usize {
                return Some((i, at - start));
            }
            start += h as usize;
        }
        None
    }

    /// The column whose top card is `card`.
    fn column_topped_by(&self, card: Card) -> Option<usize> {
        self.locate(card)
            .filter(|&(i, at)| at + 1 == self.heights[i] as usize)
            .map(|(i, _)| i)
    }

    #[inline]
    fn is_up(&self, card: Card) -> bool {
        rank(card) <= self.foundation[suit(card) as usize]
    }

    /// Plays `mv` if it is legal.
    pub fn try_apply(&mut self, mv: Move) -> Result<(), Illegal> {
        self.check_move(mv)?;
        self.apply(mv);
        Ok(())
    }

    /// Plays a legal move, then, in a search's position with no redeal
    /// left, every card that can go up.
    pub fn apply(&mut self, mv: Move) {
        self.apply_telling(mv, |_| {});
    }

    /// [`Table::apply`], telling `played` each card that went up by itself.
    pub fn apply_telling(&mut self, mv: Move, played: impl FnMut(Card)) {
        debug_assert_eq!(self.check_move(mv), Ok(()), "{mv}");
        match mv.dest {
            Dest::Redeal => self.redeal(),
            Dest::TurnUp | Dest::TurnDown => {
                let (i, at) = self.locate(mv.card).expect("checked");
                let start = self.start(i);
                let column = &mut self.cards[start + at..start + self.heights[i] as usize];
                if mv.dest == Dest::TurnUp {
                    column.rotate_left(1);
                } else {
                    column.rotate_right(1);
                }
                self.turns_left -= 1;
            }
            Dest::Foundation => self.play_up(mv.card),
            Dest::Card(onto) => {
                let (from, to) = self.columns_topped_by(mv.card, onto);
                self.take_top(from);
                let end = self.start(to) + self.heights[to] as usize;
                let len = self.len as usize;
                self.cards.copy_within(end..len, end + 1);
                self.cards[end] = mv.card;
                self.heights[to] += 1;
                self.len += 1;
            }
            Dest::EmptyColumn | Dest::Register => unreachable!("Midnight Oil has neither"),
        }
        self.play_automatic(played);
    }

    /// The columns whose tops are `a` and `b`, both tops, in one walk.
    #[inline]
    fn columns_topped_by(&self, a: Card, b: Card) -> (usize, usize) {
        let (mut col_a, mut col_b) = (usize::MAX, usize::MAX);
        let mut end = 0;
        for (i, &h) in self.heights.iter().enumerate() {
            end += h as usize;
            if h > 0 {
                let top = self.cards[end - 1];
                if top == a {
                    col_a = i;
                } else if top == b {
                    col_b = i;
                }
            }
        }
        debug_assert!(col_a < COLUMNS && col_b < COLUMNS);
        (col_a, col_b)
    }

    /// Takes the top card of column `i` off the tableau.
    fn take_top(&mut self, i: usize) {
        let at = self.start(i) + self.heights[i] as usize - 1;
        let len = self.len as usize;
        self.cards.copy_within(at + 1..len, at);
        self.heights[i] -= 1;
        self.len -= 1;
    }

    fn play_up(&mut self, card: Card) {
        let i = self.column_topped_by(card).expect("a top card");
        self.take_top(i);
        self.foundation[suit(card) as usize] += 1;
    }

    /// xpat2's redeal (`redeal.rs`): the columns' cards, read in order,
    /// shuffled by the generator restarted from the deal's seed, then cut
    /// into columns of three from column 1 on.
    fn redeal(&mut self) {
        let len = self.len as usize;
        redeal::slot_shuffle(&mut self.cards[..len], self.seed);
        self.heights = [0; COLUMNS];
        for (i, h) in self.heights.iter_mut().enumerate() {
            *h = len
                .saturating_sub(i * CARDS_PER_COLUMN)
                .min(CARDS_PER_COLUMN) as u8;
        }
        self.redeals_left -= 1;
    }

    /// Once no redeal is left, a search's position plays every card that
    /// can go up by itself: that loses no solution. *Proof.* Let `c` be a
    /// column's top card, its suit's next. In a same-suit game only the
    /// card one rank below `c` of its suit, up already, could go onto `c`,
    /// and no card comes back from the foundation. Take a winning sequence
    /// from here; play it from the position with `c` up, leaving out every
    /// move of `c`. Each other move stays legal and leaves the same
    /// position less `c`: a card's targets and the foundation are the same
    /// or freer, and the one turn of a column, whose cards keep their order
    /// less `c`, gives that column less `c`; a turn that would move `c`
    /// itself (naming it, or sending it down as the top card) is left out,
    /// and the turn is then left unused. With no redeal left, nothing else
    /// reads where `c` lies. ∎ While a redeal is left, the next layout
    /// depends on every card still on the tableau, and no foundation move
    /// is safe to force.
    fn play_automatic(&mut self, mut played: impl FnMut(Card)) {
        if !self.automatic || (self.redeals_left > 0 && !self.force_up) {
            return;
        }
        // The tops change only when a card goes up.
        let mut tops = self.top_bits();
        loop {
            let mut any = false;
            for s in 0..SUITS as u8 {
                let height = self.foundation[s as usize];
                if height < KING {
                    let next = card_of(height + 1, s);
                    if tops & 1 << next != 0 {
                        self.play_up(next);
                        played(next);
                        tops = self.top_bits();
                        any = true;
                    }
                }
            }
            if !any {
                return;
            }
        }
    }

    /// The columns' top cards, a bit per card.
    #[inline]
    fn top_bits(&self) -> u64 {
        let mut tops = 0u64;
        let mut end = 0;
        for &h in &self.heights {
            end += h as usize;
            if h > 0 {
                tops |= 1 << self.cards[end - 1];
            }
        }
        tops
    }

    /// The position's [`Key`].
    pub fn key(&self) -> Key {
        let mut key = [0xFF; KEY_BYTES];
        key[0] = self.redeals_left | self.turns_left << 4;
        let mut columns: [(Card, usize, usize); COLUMNS] = [(0, 0, 0); COLUMNS];
        let mut n = 0;
        let mut start = 0;
        for &h in &self.heights {
            if h > 0 {
                columns[n] = (self.cards[start], start, h as usize);
                n += 1;
            }
            start += h as usize;
        }
        if self.redeals_left == 0 {
            columns[..n].sort_unstable_by_key(|c| c.0);
        }
        let mut at = 1;
        for &(_, start, h) in &columns[..n] {
            key[at..at + h].copy_from_slice(&self.cards[start..start + h]);
            key[at + h - 1] |= TOP;
            at += h;
        }
        key
    }
}

impl fmt::Display for Table {
    /// The position as a person reads it: foundation, what is left of the
    /// redeals and the turn, then each column from bottom to top, in
    /// order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", FoundationLine(self.foundation))?;
        writeln!(
            f,
            "Redeals left: {}, turns left: {}",
            self.redeals_left, self.turns_left
        )?;
        for i in 0..COLUMNS {
            write!(f, "{:>2}:", i + 1)?;
            for &card in self.column(i) {
                write!(f, " {:>3}", Name(card))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A file is replayed on a table as on a [`crate::state::State`].
impl crate::check::Replayed for Table {
    fn try_apply(&mut self, mv: Move) -> Result<(), Illegal> {
        Table::try_apply(self, mv)
    }
    fn is_won(&self) -> bool {
        Table::is_won(self)
    }
    fn score(&self) -> u8 {
        Table::score(self)
    }
    fn rules(&self) -> &'static Rules {
        Table::rules(self)
    }
}

#[cfg(test)]
mod tests;

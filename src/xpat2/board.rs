//! xpat2's card array, simulated so a solution becomes the move words
//! xpat2 records (`../shared/XPAT2-SAVE.md` "Piles and card indices" and
//! "A move word").
//!
//! xpat2 replays those words blindly, so every foundation move — the
//! forced ones of normalization included, in the order [`State`] plays
//! them, or under free rules the file's own `F` moves — is a word of its
//! own, a `T` goes to the lowest-numbered empty free cell and a `V` to the
//! lowest-numbered empty column.
//!
//! Under xpat2's complete rules (SPEC §10, `docs/xpat2-complete-rules.md`)
//! a card back from the foundation is an ordinary word whose source pile
//! is a foundation; Midnight Oil's redeal is xpat2's compound group of
//! words ([`redeal::redeal_words`]) and its turn one special word.
//!
//! [`State`]: crate::state::State

use anyhow::{Context, Result, bail};

use crate::cards::{CARDS, Card, KING, Name, SUITS, card_of, suit};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::redeal;
use crate::state::{Dest, Move};

/// Bits of a card index in each half of a move word; the pile number
/// sits above them.
const INDEX_BITS: u32 = 9;
/// A move word is two halves: the move, then what Undo needs.
const HALF_BITS: u32 = 16;

/// xpat2's card array: all cards pile after pile, `first[p]` the index
/// where pile `p` starts (`first[piles] == 52`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// Forced foundation moves: every move is followed by them, and so is
    /// the deal. Under free rules the moves say each one.
    forced: bool,
    /// The deal's seed: a redeal's shuffle starts again from it.
    seed: u32,
    columns: usize,
    registers: usize,
    cards: Vec<Card>,
    first: Vec<usize>,
}

impl Board {
    /// The deal as xpat2 lays it out, nothing played: foundations empty,
    /// the columns in order (bottom card first), the cards dealt to
    /// registers in the free cells the game's row names
    /// ([`Rules::xpat2_cells`](crate::rules::Rules::xpat2_cells)), deck
    /// empty.
    pub(crate) fn deal(deal: &Deal) -> Board {
        let rules = deal.id.rules;
        let (columns, registers) = (rules.columns, rules.registers);
        let mut piles: Vec<Vec<Card>> = vec![Vec::new(); SUITS];
        piles.extend(deal.columns.iter().cloned());
        let mut cells = vec![Vec::new(); registers];
        for (&cell, &card) in rules.xpat2_cells.iter().zip(&deal.registers) {
            cells[cell] = vec![card];
        }
        piles.extend(cells);
        piles.push(Vec::new()); // the deck
        let mut first = Vec::with_capacity(piles.len() + 1);
        let mut cards = Vec::with_capacity(CARDS);
        for pile in &piles {
            first.push(cards.len());
            cards.extend(pile);
        }
        first.push(cards.len());
        Board {
            forced: deal.foundation == Foundation::Forced,
            seed: deal.id.seed,
            columns,
            registers,
            cards,
            first,
        }
    }

    /// Number of piles: foundations, columns, free cells, deck.
    pub(crate) fn piles(&self) -> usize {
        self.first.len() - 1
    }

    /// Pile number of column `i` (from 0).
    pub(crate) fn column_pile(&self, i: usize) -> usize {
        SUITS + i
    }

    /// Pile number of free cell `i` (from 0).
    pub(crate) fn cell_pile(&self, i: usize) -> usize {
        SUITS + self.columns + i
    }

    /// Where pile `p` starts in the array.
    pub(crate) fn first(&self, p: usize) -> usize {
        self.first[p]
    }

    /// Whether every card is on the foundation.
    pub(crate) fn is_won(&self) -> bool {
        (0..SUITS).all(|s| self.pile(s).len() == KING as usize)
    }

    /// Cards of pile `p`, bottom first.
    pub(crate) fn pile(&self, p: usize) -> &[Card] {
        &self.cards[self.first[p]..self.first[p + 1]]
    }

    /// The pile that holds array index `index` (below 52).
    pub(crate) fn pile_of(&self, index: usize) -> usize {
        (0..self.piles())
            .find(|&p| self.first(p) <= index && index < self.first(p + 1))
            .expect("every index below 52 is in a pile")
    }

    fn is_column(&self, p: usize) -> bool {
        (SUITS..SUITS + self.columns).contains(&p)
    }

    /// Whether pile `p` is a free cell.
    pub(crate) fn is_cell(&self, p: usize) -> bool {
        (SUITS + self.columns..SUITS + self.columns + self.registers).contains(&p)
    }

    /// Array index and pile of `card`.
    fn locate(&self, card: Card) -> (usize, usize) {
        let index = self
            .cards
            .iter()
            .position(|&c| c == card)
            .expect("every card is in the array");
        let pile = (0..self.piles())
            .find(|&p| self.first[p] <= index && index < self.first[p + 1])
            .expect("every index is in a pile");
        (index, pile)
    }

    /// Is `card` a column's top card or in a free cell?
    fn is_accessible(&self, card: Card) -> bool {
        let (index, pile) = self.locate(card);
        (self.is_column(pile) && index + 1 == self.first[pile + 1]) || self.is_cell(pile)
    }

    /// Is `card` a foundation's top card (one that may come back under the
    /// complete rules)?
    fn is_foundation_top(&self, card: Card) -> bool {
        let (index, pile) = self.locate(card);
        pile < SUITS && index + 1 == self.first[pile + 1]
    }

    /// The columns in order, each from its bottom card.
    pub(crate) fn columns(&self) -> Vec<Vec<Card>> {
        (0..self.columns)
            .map(|i| self.pile(self.column_pile(i)).to_vec())
            .collect()
    }

    /// Cards on the foundations, which lie before the columns in the array.
    pub(crate) fn on_foundation(&self) -> usize {
        self.first[SUITS]
    }

    /// Midnight Oil's redeal as xpat2 makes it (`MO_DealCards`): returns
    /// its words, the group xpat2 records, and lays the columns out anew.
    /// The cards keep their places in the array while the columns gather
    /// and are cut; the shuffle then reorders the columns' part of it.
    pub(crate) fn redeal(&mut self) -> Vec<u32> {
        let columns = self.columns();
        let words = redeal::redeal_words(&columns, self.on_foundation());
        let mut at = self.on_foundation();
        for (i, column) in redeal::redeal(&columns, self.seed).iter().enumerate() {
            let pile = self.column_pile(i);
            self.first[pile] = at;
            self.cards[at..at + column.len()].copy_from_slice(column);
            at += column.len();
        }
        debug_assert_eq!(at, self.first[self.column_pile(self.columns)]);
        words
    }

    /// Midnight Oil's turn of a column at `card`, a buried card: up to
    /// the top (`TurnUp`, xpat2's `RotateDown`) or the top card down
    /// beneath it (`TurnDown`, `RotateUp`). Returns the word.
    pub(crate) fn turn(&mut self, card: Card, dest: Dest) -> Result<u32> {
        let (index, pile) = self.locate(card);
        let end = self.first[pile + 1];
        if !self.is_column(pile) || index + 1 == end {
            bail!("{} is not a buried card of a column", Name(card));
        }
        let cards = &mut self.cards[index..end];
        if dest == Dest::TurnUp {
            cards.rotate_left(1);
            Ok(redeal::turn_up_word(index))
        } else {
            cards.rotate_right(1);
            Ok(redeal::turn_down_word(index))
        }
    }

    /// Moves the card at `src` onto pile `dst` as xpat2 does, and returns
    /// the move word: low half `src | dst << INDEX_BITS`, high half
    /// `new_index | src_pile << INDEX_BITS`.
    pub(crate) fn move_card(&mut self, src: usize, dst: usize) -> u32 {
        let src_pile = (0..self.piles())
            .find(|&p| self.first[p] <= src && src < self.first[p + 1])
            .expect("a card index");
        let card = self.cards[src];
        let new = if src_pile < dst {
            let new = self.first[dst + 1] - 1;
            self.cards.copy_within(src + 1..=new, src);
            for q in src_pile + 1..=dst {
                self.first[q] -= 1;
            }
            new
        } else {
            let new = self.first[dst + 1];
            self.cards.copy_within(new..src, new + 1);
            for q in dst + 1..=src_pile {
                self.first[q] += 1;
            }
            new
        };
        self.cards[new] = card;
        let low = src as u32 | (dst as u32) << INDEX_BITS;
        let high = new as u32 | (src_pile as u32) << INDEX_BITS;
        low | high << HALF_BITS
    }

    /// Plays every card that can go to the foundation, in the order
    /// `State`'s normalization does: rounds over the suits 0..3, each suit's
    /// next card if it is accessible, until a round plays nothing. Returns
    /// the words: none under free rules, where nothing goes up by itself.
    fn normalize(&mut self) -> Vec<u32> {
        let mut words = Vec::new();
        if !self.forced {
            return words;
        }
        loop {
            let mut played = false;
            for s in 0..SUITS as u8 {
                let height = self.pile(s as usize).len() as u8;
                if height < KING {
                    let next = card_of(height + 1, s);
                    if self.is_accessible(next) {
                        let (index, _) = self.locate(next);
                        words.push(self.move_card(index, s as usize));
                        played = true;
                    }
                }
            }
            if !played {
                return words;
            }
        }
    }

    /// Plays one solution move (legal, as replayed by [`State`]) and the
    /// foundation moves after it; returns the words.
    fn play(&mut self, mv: Move) -> Result<Vec<u32>> {
        match mv.dest {
            Dest::Redeal => return Ok(self.redeal()),
            Dest::TurnUp | Dest::TurnDown => return Ok(vec![self.turn(mv.card, mv.dest)?]),
            _ => {}
        }
        let (src, src_pile) = self.locate(mv.card);
        // A foundation's top card comes back only in a replayed solution
        // of the complete rules, which has checked that it may.
        if !self.is_accessible(mv.card) && !self.is_foundation_top(mv.card) {
            bail!("{} is not accessible in xpat2's layout", Name(mv.card));
        }
        let empty = |board: &Board, p: usize| board.first[p] == board.first[p + 1];
        let dst = match mv.dest {
            Dest::Card(onto) => {
                let (index, pile) = self.locate(onto);
                if !self.is_column(pile) || index + 1 != self.first[pile + 1] {
                    bail!("{} is not a column's top card", Name(onto));
                }
                pile
            }
            Dest::EmptyColumn => (0..self.columns)
                .map(|i| self.column_pile(i))
                .find(|&p| empty(self, p))
                .context("no empty column")?,
            Dest::Register => (0..self.registers)
                .map(|i| self.cell_pile(i))
                .find(|&p| empty(self, p))
                .context("no empty free cell")?,
            // Foundation piles are numbered by suit.
            Dest::Foundation => suit(mv.card) as usize,
            Dest::TurnUp | Dest::TurnDown | Dest::Redeal => unreachable!("played above"),
        };
        if dst == src_pile {
            bail!("{} would stay on its own pile", Name(mv.card));
        }
        let mut words = vec![self.move_card(src, dst)];
        words.extend(self.normalize());
        Ok(words)
    }
}

/// Every move word of a solution: the initial normalization's foundation
/// moves, then each move followed by the foundation moves it causes.
/// `Err` when a move does not fit xpat2's layout (never for a solution
/// that replays).
pub(crate) fn words(deal: &Deal, moves: &[Move]) -> Result<Vec<u32>> {
    words_on(&mut Board::deal(deal), moves)
}

/// The words of `moves` played on `board` (a player's position, say),
/// after the foundation moves the solver would have made there already.
pub(crate) fn words_on(board: &mut Board, moves: &[Move]) -> Result<Vec<u32>> {
    let mut words = board.normalize();
    for (i, &mv) in moves.iter().enumerate() {
        let more = board
            .play(mv)
            .with_context(|| format!("move {} ({mv})", i + 1))?;
        words.extend(more);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal as deal;

    #[test]
    fn worked_example_free_cell_123_nine_of_spades_to_cell_0() {
        // XPAT2-SAVE.md: column 0 is pile 4, indices 0..6, 9♠ (33) on top at
        // index 6; free cell 0 is pile 12 and first[13] is 52.
        let d = deal("fc", 123);
        let mut board = Board::deal(&d);
        assert_eq!(board.pile(4).last(), Some(&33));
        assert_eq!(board.first[13], 52);
        let initial = board.normalize();
        assert!(initial.is_empty(), "FreeCell 123 plays nothing at first");
        let words = board
            .play(Move {
                card: 33,
                dest: Dest::Register,
            })
            .unwrap();
        assert_eq!(words[0] & 0xFFFF, 6 | 12 << 9);
        assert_eq!(words[0] >> 16, 51 | 4 << 9);
        assert_eq!(board.pile(12), [33]);
        assert_eq!(board.pile(4).len(), 6);
    }

    /// Each card dealt to registers has a free cell of its own.
    #[test]
    fn every_row_names_a_free_cell_per_card_dealt_to_registers() {
        for r in &crate::rules::GAMES {
            assert_eq!(r.xpat2_cells.len(), r.dealt_to_registers, "{}", r.name);
            let mut cells = r.xpat2_cells.to_vec();
            cells.sort();
            cells.dedup();
            assert_eq!(cells.len(), r.xpat2_cells.len(), "{}: distinct", r.name);
            assert!(cells.iter().all(|&c| c < r.registers), "{}", r.name);
        }
    }

    /// The words the real xpat2 wrote (`tests/fixtures/xpat2/`, read in
    /// docs/xpat2-complete-rules.md) for redeals, turns and cards back
    /// from the foundation are the words these moves lay out.
    #[test]
    fn complete_rules_moves_are_the_words_xpat2_wrote() {
        let saved = |name: &str| {
            let path = format!("{}/tests/fixtures/xpat2/{name}", env!("CARGO_MANIFEST_DIR"));
            let bytes = std::fs::read(&path).unwrap();
            crate::xpat2::load::read(&bytes).unwrap().words
        };
        let complete = |game, seed| deal(game, seed).with_foundation(Foundation::Xpat2);
        let mv = |card, dest| Move { card, dest };
        let (r, up) = (Move::REDEAL, Dest::Foundation);
        let mo1 = complete("mo", 1);
        let bottom = mo1.columns[0][0];
        let cases: [(&Deal, Vec<Move>, &str); 7] = [
            (&mo1, vec![r], "mo1-redeal.xpat2"),
            (&mo1, vec![r, r], "mo1-two-redeals.xpat2"),
            (
                &mo1,
                vec![mv(1, up), r, mv(3, up), r],
                "mo1-up-redeals.xpat2",
            ),
            (&mo1, vec![mv(bottom, Dest::TurnUp)], "mo1-turn-up.xpat2"),
            (
                &mo1,
                vec![mv(bottom, Dest::TurnUp), r],
                "mo1-turn-up-redeal.xpat2",
            ),
            (
                &complete("mo", 2),
                vec![mv(46, Dest::TurnDown)],
                "mo2-turn-down.xpat2",
            ),
            (
                &complete("fc", 123),
                vec![
                    mv(6, Dest::Register),
                    mv(3, up),
                    mv(3, Dest::Register),
                    mv(3, up),
                    mv(3, Dest::Card(5)),
                ],
                "fc123-foundation-back.xpat2",
            ),
        ];
        for (d, moves, name) in cases {
            assert_eq!(words(d, &moves).unwrap(), saved(name), "{name}");
        }
    }

    /// A turn must name a buried card of a column.
    #[test]
    fn a_turn_of_a_top_card_is_not_laid_out() {
        let d = deal("mo", 1).with_foundation(Foundation::Xpat2);
        let top = *d.columns[0].last().unwrap();
        let e = words(
            &d,
            &[Move {
                card: top,
                dest: Dest::TurnUp,
            }],
        )
        .unwrap_err();
        assert!(format!("{e:#}").contains("not a buried card"), "{e:#}");
    }

    #[test]
    fn seahaven_starts_with_its_two_cards_in_free_cells_0_and_2() {
        for seed in 1..=30 {
            let d = deal("st", seed);
            let board = Board::deal(&d);
            assert_eq!(board.piles(), 4 + 10 + 4 + 1);
            let (c0, c2) = (board.cell_pile(0), board.cell_pile(2));
            assert_eq!(board.pile(c0), [d.registers[0]], "st.{seed}");
            assert!(board.pile(board.cell_pile(1)).is_empty());
            assert_eq!(board.pile(c2), [d.registers[1]], "st.{seed}");
            assert!(board.pile(board.cell_pile(3)).is_empty());
            assert_eq!((board.first[c0], board.first[c2]), (50, 51));
            assert_eq!(board.first[board.piles()], 52);
        }
    }
}

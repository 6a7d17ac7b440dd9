//! Following Midnight Oil under xpat2's complete rules (SPEC §10): the
//! player's single-card moves, their redeals and their turn, on a
//! [`Table`](crate::midnight::Table) that keeps the columns in xpat2's
//! order (a redeal reads them in that order).
//!
//! xpat2 records a redeal as a group of words (`docs/xpat2-complete-
//! rules.md`, "The save words"): `COMPOUND_BEGIN`, the gathering and the
//! cutting words, `SHUFFLING`, `COMPOUND_END`. The group is gathered whole,
//! then followed only if its words are exactly those xpat2 writes for the
//! columns on the table ([`redeal::redeal_words`]); the shuffle they
//! trigger is the deal's own. A turn is one special word naming the
//! clicked card's array index.

use super::follower::{Follower, Position, Refusal};
use super::words::to_where;
use crate::cards::{CARDS, Card, Name, SUITS};
use crate::check::explain;
use crate::redeal::{self, COMPOUND_BEGIN, COMPOUND_END, ROTATE_DOWN, ROTATE_UP};
use crate::state::{Dest, Illegal, Move};

/// The bits of a special word that say which it is; the rest (bits
/// 0..14) are its argument.
const KIND: u32 = !0x7FFF;
/// Bits 15 and 31, set in every special word (`SPECIAL_MOVE`).
const SPECIAL: u32 = 0x8000_8000;
/// The most words a redeal's group holds: its two ends, 17 gathering
/// words, 17 cuts and the shuffle.
const MOST_GROUP_WORDS: usize = 2 + 17 + 17 + 1;

/// Whether `word` is one of xpat2's special words, not a card's move (a
/// card's move never reaches pile 64, whose bit is bit 15).
pub(super) fn is_special(word: u32) -> bool {
    word & SPECIAL == SPECIAL
}

impl Follower {
    /// Follows a special word, or a word inside a redeal's group.
    pub(super) fn follow_special(&mut self, word: u32) -> Result<(), Refusal> {
        if let Some(group) = &mut self.group {
            group.push(word);
            return match word {
                COMPOUND_END => {
                    let group = self.group.take().expect("a group under way");
                    self.redeal(&group)
                }
                COMPOUND_BEGIN => Err((
                    "a redeal".to_string(),
                    "a second redeal begins inside the first one's words".to_string(),
                )),
                _ if group.len() >= MOST_GROUP_WORDS => Err((
                    "a redeal".to_string(),
                    format!("its words run past the {MOST_GROUP_WORDS} a redeal has"),
                )),
                _ => Ok(()),
            };
        }
        let what = match word & KIND {
            COMPOUND_BEGIN => "a redeal".to_string(),
            ROTATE_UP | ROTATE_DOWN => "a turn of a column".to_string(),
            _ => format!("word {word:#010x}"),
        };
        if !matches!(self.position, Position::Table(_)) {
            let why = if self.rules.redeals > 0 {
                format!(
                    "{}'s redeals and turn are xpat2's complete rules: use --rules xpat2",
                    self.rules.name
                )
            } else {
                format!(
                    "a special word xpat2 never writes in {}, which has no redeal or turn",
                    self.rules.name
                )
            };
            return Err((what, why));
        }
        match word & KIND {
            _ if word == COMPOUND_BEGIN => {
                self.group = Some(vec![word]);
                Ok(())
            }
            ROTATE_UP | ROTATE_DOWN => self.turn(word),
            _ => Err((
                what,
                "a special word xpat2 writes only inside a redeal's words, or never in Midnight Oil"
                    .to_string(),
            )),
        }
    }

    /// A redeal's whole group of words, `COMPOUND_BEGIN` to `COMPOUND_END`.
    fn redeal(&mut self, group: &[u32]) -> Result<(), Refusal> {
        let what = || "a redeal".to_string();
        let expected = redeal::redeal_words(&self.board.columns(), self.board.on_foundation());
        if group != expected {
            return Err((
                what(),
                "its words are not the gathering, cutting and shuffle xpat2 writes for the columns on the table".to_string(),
            ));
        }
        self.play_on_table(Move::REDEAL)
            .map_err(|why| (what(), why))?;
        self.board.redeal();
        self.same_position().map_err(|why| (what(), why))
    }

    /// A turn: `ROTATE_DOWN` brings the card at its index up (`U`),
    /// `ROTATE_UP` sends the top card down beneath it (`D`).
    fn turn(&mut self, word: u32) -> Result<(), Refusal> {
        let index = (word & !KIND) as usize;
        if index >= CARDS {
            return Err((
                "a turn of a column".to_string(),
                format!("it names card index {index}, outside the {CARDS} cards"),
            ));
        }
        let dest = if word & KIND == ROTATE_DOWN {
            Dest::TurnUp
        } else {
            Dest::TurnDown
        };
        let pile = self.board.pile_of(index);
        let card = self.board.pile(pile)[index - self.board.first(pile)];
        let what = format!("a turn: {} {}", Name(card), to_where(dest));
        let mv = Move { card, dest };
        self.play_on_table(mv).map_err(|why| (what.clone(), why))?;
        self.board
            .turn(card, dest)
            .map_err(|e| (what.clone(), e.to_string()))?;
        self.same_position().map_err(|why| (what, why))
    }

    /// A card's move word in Midnight Oil under the complete rules: one
    /// card, onto a column's top card or up.
    pub(super) fn table_move(
        &mut self,
        block: &[Card],
        dst: usize,
        onto: Option<Card>,
    ) -> Result<(), String> {
        let [card] = block else {
            return Err(format!(
                "{} cards at once: {} moves one card at a time",
                block.len(),
                self.rules.name
            ));
        };
        let dest = if dst < SUITS {
            Dest::Foundation
        } else {
            onto.map_or(Dest::EmptyColumn, Dest::Card)
        };
        self.play_on_table(Move { card: *card, dest })
    }

    fn play_on_table(&mut self, mv: Move) -> Result<(), String> {
        let Position::Table(table) = &mut self.position else {
            unreachable!("only Midnight Oil's complete rules play on a table")
        };
        table.try_apply(mv).map_err(|illegal| match illegal {
            Illegal::TurnNeedsBuried { top: true } => format!(
                "{} is its column's top card: xpat2 lets that turn change nothing but use the game's one turn, which a solution file cannot say",
                Name(mv.card)
            ),
            _ => {
                let why = explain(self.rules, mv.card, illegal);
                match mv.dest {
                    Dest::Redeal => why,
                    dest => format!("{} {} is illegal: {why}", Name(mv.card), to_where(dest)),
                }
            }
        })?;
        self.moves.push(mv);
        Ok(())
    }
}

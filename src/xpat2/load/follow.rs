//! Following a player's xpat2 move words with the solver's own moves.
//!
//! Two positions are kept side by side (`follower.rs`): the player's,
//! exactly as xpat2 holds it (`Board`, fed the words), and the solver's
//! ([`Position`],
//! fed single-card moves). After every word the solver's position must be
//! the player's (under forced rules, its normalized form); that check,
//! not reasoning about each kind of move, is what makes a followed save
//! trustworthy. Midnight Oil under the complete rules, its redeals and its
//! turn are followed in `special.rs`.

use super::follower::{Follower, Position, Refusal};
use super::special;
use super::words::{describe, to_where};
use crate::cards::{CARDS, Card, Name, SUITS};
use crate::check;
use crate::rules::EmptyColumn;
use crate::state::{Dest, FOUNDATION, Move};

impl Follower {
    /// Plays one move word of the player's (`src | dst << 9` in the low
    /// half, `new | src_pile << 9` in the high half), or a special word
    /// (a redeal's or a turn's).
    pub fn follow(&mut self, word: u32) -> Result<(), Refusal> {
        if self.group.is_some() || special::is_special(word) {
            return self.follow_special(word);
        }
        let (src, dst) = ((word & 0x1FF) as usize, ((word >> 9) & 0x7F) as usize);
        let (new, recorded_pile) = (((word >> 16) & 0x1FF) as usize, (word >> 25) as usize);
        if src >= CARDS || dst >= self.board.piles() {
            return Err((
                format!("word {word:#010x}"),
                format!(
                    "it names card index {src} and pile {dst}, outside this game's {CARDS} cards and {} piles",
                    self.board.piles()
                ),
            ));
        }
        let src_pile = self.board.pile_of(src);
        let block = self.board.pile(src_pile)[src - self.board.first(src_pile)..].to_vec();
        let onto = self.board.pile(dst).last().copied();
        let what = describe(&self.board, &block, src_pile, dst, onto);
        let refuse = |why: String| Err((what.clone(), why));
        if recorded_pile != src_pile {
            return refuse(format!(
                "the word says its cards came from pile {recorded_pile}, the deal has them in pile {src_pile}"
            ));
        }
        if let Some(why) = self.impossible(&block, src_pile, dst, onto) {
            return refuse(why);
        }
        let solver = if matches!(self.position, Position::Table(_)) {
            self.table_move(&block, dst, onto)
        } else {
            self.solver_moves(&block, src_pile, dst, onto)
        };
        if let Err(why) = solver {
            return refuse(why);
        }
        // xpat2 moves the block bottom card first; each lands on top of
        // `dst`, so the order is kept. Going down the array the next card
        // slides into `src`; going up it stays one further on.
        for j in 0..block.len() {
            let at = if src_pile < dst { src } else { src + j };
            self.board.move_card(at, dst);
        }
        let landed = self.board.first(dst + 1) - block.len();
        if new != landed {
            return refuse(format!(
                "the word says the cards land at index {new}, xpat2's layout puts them at {landed}"
            ));
        }
        self.same_position().or_else(refuse)
    }

    /// What xpat2 itself would never record, or the rules followed do not
    /// allow, in words.
    fn impossible(
        &self,
        block: &[Card],
        src_pile: usize,
        dst: usize,
        onto: Option<Card>,
    ) -> Option<String> {
        let deck = self.board.piles() - 1;
        let returns = matches!(&self.position, Position::Exact(state) if state.returns());
        if src_pile == dst {
            Some("the cards would stay where they are".to_string())
        } else if src_pile < SUITS && !self.rules.returns_from_foundation {
            Some(format!(
                "a card back from the foundation: {} never allows it",
                self.rules.name
            ))
        } else if src_pile < SUITS && !returns {
            Some(
                "a card back from the foundation: only xpat2's complete rules allow it (use --rules xpat2)"
                    .to_string(),
            )
        } else if src_pile < SUITS && block.len() > 1 {
            Some("several cards at once from the foundation".to_string())
        } else if src_pile == deck || dst == deck {
            Some("these games have no deck".to_string())
        } else if dst < SUITS && block.len() > 1 {
            Some("several cards at once to the foundation".to_string())
        } else if self.board.is_cell(dst) && (block.len() > 1 || onto.is_some()) {
            Some("a free cell holds one card".to_string())
        } else {
            None
        }
    }

    /// The solver's single-card moves that do what the word does, played.
    /// Under forced rules, cards the solver has already played up are left
    /// out: the top of the block can be among them, never a card with one
    /// still on it. Under free and complete rules every card is where the
    /// player has it, and a card going up or coming back from the
    /// foundation (`src_pile` a foundation) is a move of its own.
    fn solver_moves(
        &mut self,
        block: &[Card],
        src_pile: usize,
        dst: usize,
        onto: Option<Card>,
    ) -> Result<(), String> {
        let exact = self.exact();
        let state = self.state_mut();
        let present: Vec<Card> = block
            .iter()
            .copied()
            .take_while(|&c| exact || state.below(c) != FOUNDATION)
            .collect();
        let Some(&lowest) = present.first() else {
            return Ok(());
        };
        if dst < SUITS {
            if exact {
                return self.play(Move {
                    card: lowest,
                    dest: Dest::Foundation,
                });
            }
            return Err(format!("{} cannot go to the foundation yet", Name(lowest)));
        }
        let dest = if self.board.is_cell(dst) {
            if src_pile >= SUITS && self.state_mut().registers().any(|c| c == lowest) {
                // Free cells are one set to the solver: nothing changes.
                return Ok(());
            }
            Dest::Register
        } else {
            onto.map_or(Dest::EmptyColumn, Dest::Card)
        };
        self.supermove(&present, dest)
    }

    /// Moves a sequence (lowest card first) one card at a time, through
    /// free cells and spare empty columns, as a player would by hand.
    fn supermove(&mut self, cards: &[Card], dest: Dest) -> Result<(), String> {
        let (&lowest, above) = cards.split_first().expect("a card to move");
        if above.is_empty() {
            return self.play(Move { card: lowest, dest });
        }
        let cells = self.state_mut().free_registers();
        if above.len() <= cells {
            for &card in above.iter().rev() {
                self.play(Move {
                    card,
                    dest: Dest::Register,
                })?;
            }
            self.play(Move { card: lowest, dest })?;
            for pair in cards.windows(2) {
                self.play(Move {
                    card: pair[1],
                    dest: Dest::Card(pair[0]),
                })?;
            }
            return Ok(());
        }
        let spare = self.state_mut().empty_columns() - usize::from(dest == Dest::EmptyColumn);
        if spare == 0 || self.rules.empty_column != EmptyColumn::AnyCard {
            return Err(format!(
                "{} cards cannot move at once with {cells} free cells and no empty column to spare",
                cards.len()
            ));
        }
        // Park what one empty column fewer can carry, move the rest, and
        // bring the parked cards back on top.
        let parked = ((cells + 1) << (spare - 1)).min(above.len());
        let (low, high) = cards.split_at(cards.len() - parked);
        self.supermove(high, Dest::EmptyColumn)?;
        self.supermove(low, dest)?;
        self.supermove(high, Dest::Card(*low.last().expect("a card stays low")))
    }

    fn play(&mut self, mv: Move) -> Result<(), String> {
        let exact = self.exact();
        let state = self.state_mut();
        state.try_apply(mv).map_err(|illegal| {
            let why = check::explain(state.rules(), mv.card, illegal);
            let what = format!("{} {}", Name(mv.card), to_where(mv.dest));
            if exact {
                format!("{what} is illegal: {why}")
            } else {
                format!(
                    "the solver plays every card it can to the foundation at once, and then {what} is illegal: {why}"
                )
            }
        })?;
        self.moves.push(mv);
        Ok(())
    }
}

//! Following a player's xpat2 move words with the solver's own moves.
//!
//! Two positions are kept side by side: the player's, exactly as xpat2
//! holds it ([`Board`], fed the words), and the solver's ([`State`], fed
//! single-card moves). After every word the normalized form of the
//! player's position must be the solver's; that check, not reasoning about
//! each kind of move, is what makes a followed save trustworthy.

use crate::cards::{CARDS, Card, KING, Name, SUITS, card_of};
use crate::deal::Deal;
use crate::rules::{EmptyColumn, Rules};
use crate::state::{Dest, FOUNDATION, Move, State};
use crate::xpat2::Board;

const SUIT_SYMBOLS: [&str; SUITS] = ["♣", "♠", "♥", "♦"];

/// The player's position and the solver's, move by move.
pub struct Follower {
    rules: &'static Rules,
    board: Board,
    state: State,
    moves: Vec<Move>,
}

/// A word that cannot be followed: the move in words, and why.
pub type Refusal = (String, String);

impl Follower {
    pub fn new(deal: &Deal) -> Follower {
        Follower {
            rules: deal.id.rules,
            board: Board::deal(deal),
            state: State::new(deal),
            moves: Vec::new(),
        }
    }

    /// The solver's moves so far.
    pub fn into_moves(self) -> Vec<Move> {
        self.moves
    }

    /// The solver's moves so far, from the deal.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The solver's position: the player's, normalized.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The player's position, exactly as xpat2 holds it.
    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    /// Plays one move word of the player's (`src | dst << 9` in the low
    /// half, `new | src_pile << 9` in the high half).
    pub fn follow(&mut self, word: u32) -> Result<(), Refusal> {
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
        let src_pile = pile_of(&self.board, src);
        let block = self.board.pile(src_pile)[src - self.board.first(src_pile)..].to_vec();
        let onto = self.board.pile(dst).last().copied();
        let what = self.describe(&block, src_pile, dst, onto);
        let refuse = |why: String| Err((what.clone(), why));
        if recorded_pile != src_pile {
            return refuse(format!(
                "the word says its cards came from pile {recorded_pile}, the deal has them in pile {src_pile}"
            ));
        }
        if let Some(why) = self.impossible(&block, src_pile, dst, onto) {
            return refuse(why);
        }
        if let Err(why) = self.solver_moves(&block, dst, onto) {
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

    /// What xpat2 itself would never record, in words.
    fn impossible(
        &self,
        block: &[Card],
        src_pile: usize,
        dst: usize,
        onto: Option<Card>,
    ) -> Option<String> {
        let deck = self.board.piles() - 1;
        if src_pile == dst {
            Some("the cards would stay where they are".to_string())
        } else if src_pile < SUITS {
            Some("a card taken back from the foundation: the solver never does that".to_string())
        } else if src_pile == deck || dst == deck {
            Some("these games have no deck".to_string())
        } else if dst < SUITS && block.len() > 1 {
            Some("several cards at once to the foundation".to_string())
        } else if self.is_cell(dst) && (block.len() > 1 || onto.is_some()) {
            Some("a free cell holds one card".to_string())
        } else {
            None
        }
    }

    /// The solver's single-card moves that do what the word does, played.
    /// Cards the solver has already played up are left out: the top of the
    /// block can be among them, never a card with one still on it.
    fn solver_moves(
        &mut self,
        block: &[Card],
        dst: usize,
        onto: Option<Card>,
    ) -> Result<(), String> {
        let present: Vec<Card> = block
            .iter()
            .copied()
            .take_while(|&c| self.state.below(c) != FOUNDATION)
            .collect();
        let Some(&lowest) = present.first() else {
            return Ok(());
        };
        if dst < SUITS {
            return Err(format!("{} cannot go to the foundation yet", Name(lowest)));
        }
        let dest = if self.is_cell(dst) {
            if self.state.registers().any(|c| c == lowest) {
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
        let cells = self.state.free_registers();
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
        let spare = self.state.empty_columns() - usize::from(dest == Dest::EmptyColumn);
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
        self.state.try_apply(mv).map_err(|illegal| {
            let to = match mv.dest {
                Dest::Card(c) => format!("onto {}", Name(c)),
                Dest::EmptyColumn => "to an empty column".to_string(),
                Dest::Register => "to a free cell".to_string(),
                Dest::Foundation => "to the foundation".to_string(),
                Dest::TurnUp | Dest::TurnDown | Dest::Redeal => "turned or redealt".to_string(),
            };
            format!(
                "the solver plays every card it can to the foundation at once, and then {} {to} is illegal: {}",
                Name(mv.card),
                crate::check::explain(self.state.rules(), mv.card, illegal)
            )
        })?;
        self.moves.push(mv);
        Ok(())
    }

    /// `Ok` when the player's position, normalized, is the solver's.
    fn same_position(&self) -> Result<(), String> {
        let rules = self.rules;
        let mut columns: Vec<Vec<Card>> = (0..rules.columns)
            .map(|i| self.board.pile(self.board.column_pile(i)).to_vec())
            .collect();
        let mut cells: Vec<Card> = (0..rules.registers)
            .flat_map(|i| self.board.pile(self.board.cell_pile(i)).to_vec())
            .collect();
        let mut foundation = [0u8; SUITS];
        for (s, height) in foundation.iter_mut().enumerate() {
            *height = self.board.pile(s).len() as u8;
        }
        normalize(&mut columns, &mut cells, &mut foundation);
        columns.retain(|c| !c.is_empty());
        columns.sort();
        cells.sort();
        let mut solver_columns = self.state.columns();
        solver_columns.sort();
        let solver_cells: Vec<Card> = self.state.registers().collect();
        if foundation != self.state.foundation() {
            return Err(format!(
                "the foundation would hold {foundation:?} cards per suit for the player, {:?} for the solver",
                self.state.foundation()
            ));
        }
        if cells != solver_cells || columns != solver_columns {
            return Err(
                "the player's position, with every playable card played up, is not the solver's"
                    .to_string(),
            );
        }
        Ok(())
    }

    fn is_cell(&self, pile: usize) -> bool {
        let first = self.board.cell_pile(0);
        (first..first + self.rules.registers).contains(&pile)
    }

    fn pile_name(&self, pile: usize) -> String {
        if pile < SUITS {
            format!("the {} foundation", SUIT_SYMBOLS[pile])
        } else if self.is_cell(pile) {
            format!("free cell {}", pile - self.board.cell_pile(0) + 1)
        } else if pile < self.board.piles() - 1 {
            format!("column {}", pile - self.board.column_pile(0) + 1)
        } else {
            "the deck".to_string()
        }
    }

    /// The player's move in words: `10♥ 9♠ 8♦ from column 2 onto J♠ in
    /// column 4`.
    fn describe(&self, block: &[Card], src: usize, dst: usize, onto: Option<Card>) -> String {
        let cards: Vec<String> = block.iter().map(|&c| Name(c).to_string()).collect();
        let to = match onto {
            _ if dst < SUITS => "to the foundation".to_string(),
            Some(c) => format!("onto {} in {}", Name(c), self.pile_name(dst)),
            None if self.is_cell(dst) => format!("to {}", self.pile_name(dst)),
            None => format!("to the empty {}", self.pile_name(dst)),
        };
        format!("{} from {} {to}", cards.join(" "), self.pile_name(src))
    }
}

/// The pile of xpat2's card array that holds array index `index` (below
/// 52).
pub(crate) fn pile_of(board: &Board, index: usize) -> usize {
    (0..board.piles())
        .find(|&p| board.first(p) <= index && index < board.first(p + 1))
        .expect("every index below 52 is in a pile")
}

/// Plays every card that can go to the foundation from piles kept as
/// lists, until none can.
fn normalize(columns: &mut [Vec<Card>], cells: &mut Vec<Card>, foundation: &mut [u8; SUITS]) {
    loop {
        let mut played = false;
        for (s, height) in foundation.iter_mut().enumerate() {
            if *height == KING {
                continue;
            }
            let next = card_of(*height + 1, s as u8);
            if let Some(column) = columns.iter_mut().find(|c| c.last() == Some(&next)) {
                column.pop();
            } else if let Some(i) = cells.iter().position(|&c| c == next) {
                cells.remove(i);
            } else {
                continue;
            }
            *height += 1;
            played = true;
        }
        if !played {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal;

    /// The check that ends every word sees a difference the moves made.
    #[test]
    fn a_solver_position_that_is_not_the_players_is_seen() {
        let deal = test_deal("fc", 123);
        let mut follower = Follower::new(&deal);
        assert_eq!(follower.same_position(), Ok(()));
        // 9♠ to a free cell for the solver alone.
        follower.state.apply(Move {
            card: 33,
            dest: Dest::Register,
        });
        let why = follower.same_position().unwrap_err();
        assert!(why.contains("not the solver's"), "{why}");
    }
}

//! Following a player's xpat2 move words with the solver's own moves.
//!
//! Two positions are kept side by side: the player's, exactly as xpat2
//! holds it ([`Board`], fed the words), and the solver's ([`Position`],
//! fed single-card moves). After every word the solver's position must be
//! the player's (under forced rules, its normalized form); that check,
//! not reasoning about each kind of move, is what makes a followed save
//! trustworthy. Midnight Oil under the complete rules, its redeals and its
//! turn are followed in `special.rs`.

use crate::cards::{CARDS, Card, KING, Name, SUITS, card_of};
use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::midnight::{self, Table};
use crate::rules::{EmptyColumn, Rules};
use crate::state::{Dest, FOUNDATION, Move, State};
use crate::xpat2::Board;

const SUIT_SYMBOLS: [&str; SUITS] = ["♣", "♠", "♥", "♦"];

/// The solver's position beside the player's, under the deal's rules.
#[derive(Clone, Debug)]
pub enum Position {
    /// Forced rules: the player's position, normalized (every card that
    /// can go up is up).
    Normalized(State),
    /// Free and complete rules: the player's position exactly, every
    /// foundation move theirs, as a file of those rules is replayed.
    Exact(State),
    /// Midnight Oil under the complete rules: the player's columns in
    /// their order, and the redeals and turn they have left.
    Table(Table),
}

impl Position {
    /// The position as a file's replay reads it.
    fn replayed(&self) -> &dyn check::Replayed {
        match self {
            Position::Normalized(state) | Position::Exact(state) => state,
            Position::Table(table) => table,
        }
    }
}

/// A file from the player's position replays on whichever position it is.
impl check::Replayed for Position {
    fn try_apply(&mut self, mv: Move) -> Result<(), crate::state::Illegal> {
        match self {
            Position::Normalized(state) | Position::Exact(state) => state.try_apply(mv),
            Position::Table(table) => table.try_apply(mv),
        }
    }
    fn is_won(&self) -> bool {
        self.replayed().is_won()
    }
    fn score(&self) -> u8 {
        self.replayed().score()
    }
    fn rules(&self) -> &'static Rules {
        self.replayed().rules()
    }
}

/// The player's position and the solver's, move by move.
#[derive(Debug)]
pub struct Follower {
    pub(super) rules: &'static Rules,
    pub(super) board: Board,
    pub(super) position: Position,
    pub(super) moves: Vec<Move>,
    /// The words of a redeal under way, from its `COMPOUND_BEGIN`.
    pub(super) group: Option<Vec<u32>>,
}

/// A word that cannot be followed: the move in words, and why.
pub type Refusal = (String, String);

impl Follower {
    /// At the deal, under the deal's rules.
    pub fn new(deal: &Deal) -> Follower {
        let position = if deal.foundation.is_forced() {
            Position::Normalized(State::new(deal))
        } else if midnight::plays(deal) {
            Position::Table(Table::for_replay(deal))
        } else {
            Position::Exact(State::for_replay(deal))
        };
        Follower {
            rules: deal.id.rules,
            board: Board::deal(deal),
            position,
            moves: Vec::new(),
            group: None,
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

    /// The solver's position: the player's (normalized under forced
    /// rules).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The solver's position in every game but Midnight Oil under the
    /// complete rules.
    pub fn state(&self) -> Option<&State> {
        match &self.position {
            Position::Normalized(state) | Position::Exact(state) => Some(state),
            Position::Table(_) => None,
        }
    }

    /// Cards on the foundation.
    pub fn score(&self) -> u8 {
        check::Replayed::score(&self.position)
    }

    /// Replays `moves` from the solver's position, as a file from there.
    pub fn replay(&self, moves: &[Move]) -> Verdict {
        check::replay_moves_from(self.position.clone(), moves)
    }

    /// The player's position, exactly as xpat2 holds it.
    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the solver's position is the player's exactly (free and
    /// complete rules), not normalized.
    fn exact(&self) -> bool {
        !matches!(self.position, Position::Normalized(_))
    }

    fn state_mut(&mut self) -> &mut State {
        match &mut self.position {
            Position::Normalized(state) | Position::Exact(state) => state,
            Position::Table(_) => unreachable!("Midnight Oil's complete rules: special.rs"),
        }
    }

    /// Plays one move word of the player's (`src | dst << 9` in the low
    /// half, `new | src_pile << 9` in the high half), or a special word
    /// (a redeal's or a turn's).
    pub fn follow(&mut self, word: u32) -> Result<(), Refusal> {
        if self.group.is_some() || super::special::is_special(word) {
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
        } else if self.is_cell(dst) && (block.len() > 1 || onto.is_some()) {
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
        let dest = if self.is_cell(dst) {
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

    /// `Ok` when the player's position (normalized under forced rules) is
    /// the solver's.
    pub(super) fn same_position(&self) -> Result<(), String> {
        let state = match &self.position {
            Position::Normalized(state) | Position::Exact(state) => state,
            Position::Table(table) => return self.same_table(table),
        };
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
        if !self.exact() {
            normalize(&mut columns, &mut cells, &mut foundation);
        }
        columns.retain(|c| !c.is_empty());
        columns.sort();
        cells.sort();
        let mut solver_columns = state.columns();
        solver_columns.sort();
        let solver_cells: Vec<Card> = state.registers().collect();
        if foundation != state.foundation() {
            return Err(format!(
                "the foundation would hold {foundation:?} cards per suit for the player, {:?} for the solver",
                state.foundation()
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

    pub(super) fn is_cell(&self, pile: usize) -> bool {
        let first = self.board.cell_pile(0);
        (first..first + self.rules.registers).contains(&pile)
    }

    pub(super) fn pile_name(&self, pile: usize) -> String {
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

/// Where a move sends its card, in words.
pub(super) fn to_where(dest: Dest) -> String {
    match dest {
        Dest::Card(c) => format!("onto {}", Name(c)),
        Dest::EmptyColumn => "to an empty column".to_string(),
        Dest::Register => "to a free cell".to_string(),
        Dest::Foundation => "to the foundation".to_string(),
        Dest::TurnUp => "turned up to its column's top".to_string(),
        Dest::TurnDown => "with its column's top card turned down beneath it".to_string(),
        Dest::Redeal => "redealt".to_string(),
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
        follower.state_mut().apply(Move {
            card: 33,
            dest: Dest::Register,
        });
        let why = follower.same_position().unwrap_err();
        assert!(why.contains("not the solver's"), "{why}");
    }
}

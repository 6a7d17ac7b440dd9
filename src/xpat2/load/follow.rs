//! Following a player's xpat2 move words with the solver's own moves.
//!
//! Two positions are kept side by side: the player's, exactly as xpat2
//! holds it ([`Board`], fed the words), and the solver's ([`Position`],
//! fed single-card moves). After every word the solver's position must be
//! the player's (under forced rules, its normalized form); that check,
//! not reasoning about each kind of move, is what makes a followed save
//! trustworthy. Midnight Oil under the complete rules, its redeals and its
//! turn are followed in `special.rs`.

use super::words::to_where;
use crate::cards::{CARDS, Card, Name, SUITS};
use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::midnight::{self, Table};
use crate::rules::{EmptyColumn, Rules};
use crate::state::{Dest, FOUNDATION, Move, State};
use crate::xpat2::Board;

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
    pub(super) fn exact(&self) -> bool {
        !matches!(self.position, Position::Normalized(_))
    }

    pub(super) fn state_mut(&mut self) -> &mut State {
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
        let src_pile = self.board.pile_of(src);
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

    pub(super) fn is_cell(&self, pile: usize) -> bool {
        let first = self.board.cell_pile(0);
        (first..first + self.rules.registers).contains(&pile)
    }
}

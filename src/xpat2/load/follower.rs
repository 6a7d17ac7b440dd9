//! The follower itself: the player's position as xpat2 holds it, beside
//! the solver's, and what the rest of the program reads of them. How each
//! kind of word is followed is in `follow.rs` (a card's move) and
//! `special.rs` (Midnight Oil's redeals and turn); the check after each
//! word in `same.rs`.

use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::midnight::{self, Table};
use crate::rules::Rules;
use crate::state::{Move, State};
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
}

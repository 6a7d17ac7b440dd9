//! What the page shows of one move: the single cards it moves from pile
//! to pile, or the piles it rewrites whole, and the move in words. Both
//! replays write it, the piles' (`replay.rs`) and Midnight Oil's table
//! under the complete rules (`table.rs`).

use crate::cards::Card;
use crate::state::Move;

/// One card going from one of xpat2's piles to another (pile numbers as
/// in `../shared/XPAT2-SAVE.md`: foundations 0..4 by suit, columns, free
/// cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The card that moves.
    pub card: Card,
    /// The pile it leaves.
    pub from: usize,
    /// The pile it lands on.
    pub to: usize,
}

/// A pile whose cards a move changes otherwise than at its top: a column
/// a redeal deals again, or the column of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    /// The pile (numbered as in [`Step`]).
    pub pile: usize,
    /// Its cards before the move, bottom first, and after it.
    pub was: Vec<Card>,
    pub now: Vec<Card>,
    /// The card the page marks: the one a turn moved.
    pub marked: Option<Card>,
}

/// One move as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The move itself.
    pub mv: Move,
    /// Its steps: the move's own first.
    pub steps: Vec<Step>,
    /// The piles it rewrites (a redeal, a turn); then it has no steps.
    pub rewrites: Vec<Rewrite>,
    /// The move in words.
    pub words: String,
}

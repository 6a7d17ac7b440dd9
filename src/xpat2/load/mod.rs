//! Reading a save file a player made in the real xpat2, mid-game, and
//! following the player's moves to the position on their screen, so the
//! solver can take over from there (issue 15).
//!
//! # What xpat2 1.07 writes (seen in files it saved after mouse clicks)
//!
//! The layout is the one of `../shared/XPAT2-SAVE.md`, with these facts
//! learned from saves of FreeCell 123, Seahaven 5 and Baker's Dozen 7 made
//! by clicking under Xvfb (kept in `tests/fixtures/xpat2/`):
//!
//! - **Rule name** (bytes 0..32): NUL-terminated, but the bytes after the
//!   NUL are not zero: they are whatever xpat2's buffer held. Only the text
//!   up to the first NUL counts.
//! - **Header** `a[0..32]`: `a[8]` seed; `a[9]` N, the moves recorded;
//!   `a[10]` how many of them are played, the position on screen. After
//!   Undo, `a[10] < N` and the rest are the moves Redo would replay; a new
//!   move after Undo overwrites them (N shrinks back to `a[10]`).
//!   `a[11]` (cheats), `a[12]` (finished), `a[13]`, `a[14]`, `a[16]`,
//!   `a[17]` were 0; `a[15]` is the magic `0x741a`. The other integers are
//!   −1, except when the player customized the rules: `xpat2 -tmps 3`
//!   writes 3 in `a[18]`. Such a game is not one of ours, and is refused.
//!   `-rng 0` (the old generator) leaves no trace in the file at all.
//! - **Move words**: exactly one per player action, in the order played.
//!   xpat2 plays nothing by itself (no automatic foundation moves): each
//!   card a player sends to the foundation is a word of its own, with the
//!   foundation pile of its suit as destination.
//! - **A sequence moved at once** (FreeCell's 10♥ 9♠ 8♦ onto J♠) is *one*
//!   word: its source index is the array index of the sequence's lowest
//!   card, every card above it moves along, and the high half holds the
//!   index where that lowest card lands (`first[dst + 1] − k` after a move
//!   of `k` cards).
//! - **Free cell to free cell** is a move of its own (a word from one free
//!   cell pile to another).
//! - A left click ("quick move") sends a card to a free cell xpat2 picks:
//!   FreeCell's first quick move went to the *last* free cell (pile 15).
//! - **Padding**: the words are followed by filler up to a multiple of 16
//!   words, and the filler is not zero either (leftover buffer text).
//!   Only the first N words count.
//!
//! # Following the player
//!
//! The solver's position is always normalized: every card that can go to
//! the foundation is there. The player's position is followed as the
//! normalized form of what is on their screen ([`follow`]); a move is
//! refused, naming it, when after it that is not where the solver stands
//! (say, a card put onto a card the solver has already played up).

mod follow;
mod follower;
mod same;
mod special;
#[cfg(test)]
mod tests;
mod words;

use std::fmt;

use super::{HEADER_BYTES, HEADER_INTS, MAGIC, NAME_BYTES, slot};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::rules::{GAMES, GameId, MAX_SEED};
use crate::state::Move;

pub use follower::{Follower, Position};
/// The most bytes of moves a save is read for: over four million moves,
/// where a game played by hand records hundreds.
pub const MAX_MOVE_BYTES: u64 = 16 << 20;
/// Header integers whose meaning is known and whose value may vary (seed,
/// moves, moves played, cheats, finished, counters, magic).
const KNOWN_INTS: std::ops::Range<usize> = 8..18;

/// Why a save cannot be followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The file is not an xpat2 save of one of our games.
    Format(String),
    /// Move `number` (from 1, in the save's order) cannot be followed.
    Move {
        /// The move's number, from 1.
        number: usize,
        /// The move in words.
        what: String,
        /// Why it cannot be followed.
        why: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Format(why) => write!(f, "not a save of an xpat2 game the solver plays: {why}"),
            Error::Move { number, what, why } => {
                write!(
                    f,
                    "move {number} of the save ({what}) cannot be followed: {why}"
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// A save file's contents, as xpat2 wrote them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The game and seed the save is of.
    pub id: GameId,
    /// Every recorded move word (`a[9]` of them).
    pub words: Vec<u32>,
    /// How many of `words` are played: the position on the player's
    /// screen. The rest were undone (Redo would play them).
    pub played: usize,
    /// `a[12]`: xpat2 counts the game as won.
    pub finished: bool,
}

fn int(bytes: &[u8], at: usize) -> i32 {
    i32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// Header integer `i` (`a[i]` of the layout), after the rule name.
fn header_int(bytes: &[u8], i: usize) -> i32 {
    int(bytes, NAME_BYTES + 4 * i)
}

/// The bytes a save needs: its header, then as many as the moves its
/// header announces (4 bytes each; xpat2's padding after them is never
/// read). `head` is what the file's first [`HEADER_BYTES`] hold: when it
/// is no xpat2 header, those bytes are all [`read`] needs to say so. A
/// reader that asks no more than this never reads a device such as
/// `/dev/zero` for ever, nor a huge file whole.
pub fn bytes_needed(head: &[u8]) -> u64 {
    if head.len() < HEADER_BYTES || header_int(head, slot::MAGIC) != MAGIC {
        return HEADER_BYTES as u64;
    }
    let recorded = header_int(head, slot::MOVES).max(0) as u64;
    HEADER_BYTES as u64 + 4 * recorded
}

/// Reads the header and the recorded words.
pub fn read(bytes: &[u8]) -> Result<Saved, Error> {
    let bad = |why: String| Err(Error::Format(why));
    if bytes.len() < HEADER_BYTES {
        return bad(format!(
            "{} bytes, shorter than the {HEADER_BYTES}-byte header of an xpat2 save",
            bytes.len()
        ));
    }
    let a: Vec<i32> = (0..HEADER_INTS).map(|i| header_int(bytes, i)).collect();
    if a[slot::MAGIC] != MAGIC {
        return bad(format!(
            "no xpat2 magic number (header integer 15 is {:#x}, not {MAGIC:#x})",
            a[slot::MAGIC]
        ));
    }
    let name_end = bytes[..NAME_BYTES].iter().position(|&b| b == 0);
    let name = String::from_utf8_lossy(&bytes[..name_end.unwrap_or(NAME_BYTES)]);
    let Some(rules) = GAMES.iter().find(|r| r.xpat2_name == name) else {
        let known: Vec<&str> = GAMES.iter().map(|r| r.xpat2_name).collect();
        return bad(format!(
            "the rules are '{name}', not one of {}",
            known.join(", ")
        ));
    };
    if let Some(i) = (0..HEADER_INTS).find(|i| !KNOWN_INTS.contains(i) && a[*i] != -1) {
        return bad(format!(
            "{name} with customized rules (header integer {i} is {}, as after xpat2 -tmps or -slots)",
            a[i]
        ));
    }
    let seed = a[slot::SEED];
    if !(1..=MAX_SEED as i64).contains(&(seed as i64)) {
        return bad(format!("seed {seed} is out of range 1..{MAX_SEED}"));
    }
    let (recorded, played) = (a[slot::MOVES], a[slot::REPLAYED]);
    let room = (bytes.len() - HEADER_BYTES) / 4;
    if recorded < 0 || recorded as usize > room {
        return bad(format!(
            "the header announces {recorded} moves, the file holds room for {room}"
        ));
    }
    if played < 0 || played > recorded {
        return bad(format!(
            "the header says {played} of its {recorded} moves are played"
        ));
    }
    let words = (0..recorded as usize)
        .map(|i| int(bytes, HEADER_BYTES + 4 * i) as u32)
        .collect();
    Ok(Saved {
        id: GameId {
            rules,
            seed: seed as u32,
        },
        words,
        played: played as usize,
        finished: a[slot::FINISHED] == 1,
    })
}

/// Reads a save and follows the player's played moves: the game, and
/// moves that bring the solver from the deal to the player's position
/// (normalized). Moves the player undid are not followed.
pub fn load(bytes: &[u8]) -> Result<(GameId, Vec<Move>), Error> {
    let saved = read(bytes)?;
    let follower = follow(&saved)?;
    Ok((saved.id, follower.into_moves()))
}

/// Follows the played moves of a save read by [`read`] under forced
/// rules: both the player's position (for a save that continues theirs)
/// and the solver's.
pub fn follow(saved: &Saved) -> Result<Follower, Error> {
    follow_under(saved, Foundation::Forced)
}

/// [`follow`] under the rules `foundation`: under free and complete rules
/// the solver's position is the player's exactly, and under the complete
/// rules cards back from the foundation, Midnight Oil's redeals and its
/// turn are followed too.
pub fn follow_under(saved: &Saved, foundation: Foundation) -> Result<Follower, Error> {
    let deal = Deal::new(saved.id).with_foundation(foundation);
    let mut follower = Follower::new(&deal);
    for (i, &word) in saved.words[..saved.played].iter().enumerate() {
        follower.follow(word).map_err(|(what, why)| Error::Move {
            number: i + 1,
            what,
            why,
        })?;
    }
    if follower.group.is_some() {
        return Err(Error::Move {
            number: saved.played,
            what: "a redeal".to_string(),
            why: "the save's played moves stop inside its words".to_string(),
        });
    }
    Ok(follower)
}

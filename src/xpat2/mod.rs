//! xpat2 save files (`../shared/XPAT2-SAVE.md`), both ways: the solver's
//! solutions written so the real xpat2 replays them, and the saves a
//! player made in xpat2 read and followed so the solver takes over.
//!
//! - [`save`](save()), [`export`]: a solution as a save xpat2 opens on the
//!   deal (Redo plays it) or on the won game (file `save.rs`);
//!   [`continuation`], [`export_continuation`]: a player's own save with
//!   the solver's moves after theirs (`continuation.rs`)
//! - [`load`]: a player's save read ([`load::read`]) and followed move by
//!   move ([`load::follow`]) to the position on their screen
//! - `board.rs`, shared by both ways: xpat2's card array, where a move is
//!   a word naming a card's index and the pile it goes to
//!
//! Both ways read the header's layout from here, so a save the solver
//! writes is one its reader takes back.
//!
//! ```
//! use xpat_solver::deal::Deal;
//! use xpat_solver::search::{Limits, Outcome, search};
//! use xpat_solver::xpat2::{self, At, load};
//!
//! let deal = Deal::new("FreeCell.1".parse().unwrap());
//! let Outcome::Solved(moves) = search(&deal, &Limits::default(), None).outcome else {
//!     panic!("FreeCell 1 is solved");
//! };
//! let bytes = xpat2::save(&deal, &moves, At::End).unwrap();
//! let saved = load::read(&bytes).unwrap();
//! assert_eq!((saved.id, saved.finished), (deal.id, true));
//! ```

mod board;
mod continuation;
pub mod load;
#[cfg(test)]
mod oracle;
mod save;

pub(crate) use board::{Board, words_on};
pub use continuation::{continuation, export_continuation};
pub use save::{export, file_name, save, target};

/// Where the saved game opens in xpat2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// On the deal, every move ready for Redo.
    Start,
    /// On the won position, every move replayed (Replay shows them again).
    End,
}

/// xpat2's magic number, in header integer 15.
pub const MAGIC: i32 = 0x741a;
/// Bytes of the rule name at the head of the file.
const NAME_BYTES: usize = 32;
/// Integers of the header after the name.
const HEADER_INTS: usize = 32;
/// Bytes before the first move word.
pub const HEADER_BYTES: usize = NAME_BYTES + 4 * HEADER_INTS;

/// The header's integer slots that mean something (XPAT2-SAVE.md
/// "Layout"); every other slot holds -1.
mod slot {
    /// The seed of the deal.
    pub const SEED: usize = 8;
    /// How many move words the file records.
    pub const MOVES: usize = 9;
    /// How many of them xpat2 replays on loading.
    pub const REPLAYED: usize = 10;
    /// How many times the player cheated.
    pub const CHEATS: usize = 11;
    /// 1 when the game is finished.
    pub const FINISHED: usize = 12;
    /// xpat2's counters, all 0 in a fresh save.
    pub const COUNTERS: [usize; 4] = [13, 14, 16, 17];
    /// `counter[1]`: Midnight Oil's redeals made.
    pub const REDEALS: usize = 13;
    /// `counter[3]`: Midnight Oil's turns made.
    pub const TURNS: usize = 16;
    /// Where [`MAGIC`](super::MAGIC) goes.
    pub const MAGIC: usize = 15;
}

//! xpat-solver: the card solitaires of xpat2 (FreeCell, Seahaven, Midnight
//! Oil, Baker's Dozen), dealt exactly as xpat2 deals them, checked and
//! solved.
//!
//! The library is everything but the command line: the binary
//! `xpat-solver` (its `src/cli/`) reads the arguments, calls these modules
//! and maps their results onto the exit codes, as any other program may.
//!
//! # Deal, solve and check a game
//!
//! ```
//! use xpat_solver::check::{self, Verdict};
//! use xpat_solver::deal::Deal;
//! use xpat_solver::search::{self, Limits, Outcome};
//! use xpat_solver::solution;
//!
//! // FreeCell deal 1, laid out as xpat2 deals it (forced foundation moves).
//! let deal = Deal::new("FreeCell.1".parse()?);
//! let report = search::search(&deal, &Limits::default(), None);
//! let Outcome::Solved(moves) = report.outcome else {
//!     return Err(format!("FreeCell.1 not solved: {:?}", report.outcome));
//! };
//! // The solution file's text (`CARD DEST` a line), read back and replayed
//! // from the deal as `-check` does.
//! let file = solution::format(&moves);
//! let verdict = check::replay(&deal, &solution::parse(file.as_bytes()));
//! assert_eq!(verdict, Verdict::Won { moves: moves.len() });
//! # Ok::<(), String>(())
//! ```
//!
//! `examples/solve.rs` and `examples/survey.rs` do the same from the
//! command line, and for a range of deals.
//!
//! # Where things are
//!
//! `../shared/SPEC.md` is the contract; each of its sections has one home
//! here:
//!
//! - §1 names, §4 deal shapes, §5 building rules: [`rules`], [`deal`]
//! - §2 cards: [`cards`]; §3 the shuffle: [`shuffle`]
//! - §5 moves and normalization, §8 dead runs: [`state`]; §9 free
//!   foundation moves and §10 xpat2's complete rules: [`foundation`],
//!   [`state`], and for Midnight Oil's redeals and turn [`midnight`],
//!   [`redeal`]
//! - §6 solution files: [`solution`]; §7 verdicts: [`check`]; the search
//!   behind `-search`: [`search`]
//! - xpat2's save files, written and read: [`xpat2`]; a solution as a web
//!   page: [`html`]
//! - many deals at once (`xpat-solver survey`): [`survey`]
//! - files written whole or not at all: [`output`]; the process's memory:
//!   [`memory`]; what both command lines read alike: [`shared_args`]

#![warn(missing_docs)]

pub mod cards;
pub mod check;
pub mod deal;
pub mod foundation;
pub mod html;
mod lock;
pub mod memory;
pub mod midnight;
pub mod output;
mod quote;
pub mod redeal;
pub mod rules;
pub mod search;
pub mod shared_args;
pub mod shuffle;
pub mod solution;
pub mod state;
pub mod survey;
pub mod xpat2;

//! xpat-solver: the card solitaires of xpat2 (FreeCell, Seahaven, Midnight
//! Oil, Baker's Dozen), dealt exactly as xpat2 deals them, checked and
//! solved. `../shared/SPEC.md` is the contract; each of its sections has
//! one home here:
//!
//! - §1 names, §4 deal shapes, §5 building rules: [`rules`], [`deal`]
//! - §2 cards: [`cards`]; §3 the shuffle: [`shuffle`]
//! - §5 moves and normalization, §8 dead runs: [`state`]; §9 free
//!   foundation moves: [`foundation`], [`state`]
//! - §6 solution files: [`solution`]; §7 verdicts: [`check`]
//! - §7 the command line and its exit codes: [`cli`]; xpat2's save
//!   files: [`xpat2`]

pub mod cards;
pub mod check;
pub mod deal;
pub mod foundation;
pub mod html;
pub mod memory;
pub mod midnight;
pub mod output;
pub mod redeal;
pub mod rules;
pub mod search;
pub mod shared_args;
pub mod shuffle;
pub mod solution;
pub mod state;
pub mod survey;
pub mod xpat2;

//! `-search`: a best-first search over a visited set of positions, with
//! positions grouped in buckets by score (cards on the foundation), the
//! highest score expanded first.
//!
//! Memory is the limit of an exhaustive search, so everything stored is
//! small. A position's [`Key`](crate::state::Key) is 3 words (156 bits);
//! the visited set packs it into 20 bytes beside the 4-byte index of the
//! position it came from (24 bytes in all; 2 more for its depth), looks
//! positions up through a table of `u32` indices into that store, and the
//! frontier holds indices too. A position is rebuilt from its key when it
//! is expanded; moves are found again by comparing keys when the path is
//! rebuilt at the end.
//!
//! [`search`] runs one attempt after another, each with its own ordering
//! and a budget of stored positions, small budgets first (the portfolio);
//! a few attempts are depth-first instead of using the buckets, for the
//! Baker's Dozen deals the buckets miss. The last, unbounded attempt is
//! always the buckets'.
//!
//! Where each part lives, in the order a search meets them:
//! `portfolio` (the orderings and budgets), `attempt` (one search: expand
//! a position, admit its children), `order` (the tie-break inside a
//! bucket), `frontier` (buckets and depth-first stack), `visited` (the
//! store and its table), `path` (the moves back from a won position, made
//! shorter), `shorten` (the default's bounded effort to make a solution
//! shorter). `--optimal` runs `optimal` (an A* search, with `open`, its
//! open list) instead of the portfolio.

mod attempt;
mod frontier;
#[cfg(test)]
mod length_tests;
mod open;
mod optimal;
mod order;
mod path;
mod portfolio;
mod shorten;
#[cfg(test)]
mod tests;
mod visited;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::deal::Deal;
use crate::state::Move;

pub use shorten::{SHORTEN_FLOOR, SHORTEN_SHARE_DIVISOR, SHORTEN_TIME_CAP, SHORTEN_TIME_FLOOR};

/// Default `--max-states`: about 2 GB at the ~40 bytes each stored
/// position costs at peak, well under the 4 GB a 24 GB machine can spare.
pub const DEFAULT_MAX_STATES: u64 = 50_000_000;

/// What may stop a search before it is exhaustive.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop once this many positions are stored.
    pub max_states: u64,
    /// Stop after this long.
    pub timeout: Option<Duration>,
    /// Forget positions this many cards or more behind the best score seen.
    pub diff: Option<u8>,
    /// Set from outside (a signal handler, another thread that found the
    /// answer) to stop the search as soon as it next looks at the clock.
    pub cancel: Option<Arc<AtomicBool>>,
    /// How short the solution must be, and so what finding it may cost.
    pub length: Length,
}

/// How short a solution [`search`] looks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Length {
    /// The first solution found, with detours of one or two moves cut
    /// (`--fast`).
    AsFound,
    /// The first solution found, then made shorter within a budget bounded
    /// by the search's own effort (see [`SHORTEN_SHARE_DIVISOR`]): the
    /// default.
    #[default]
    Shortened,
    /// The fewest moves, proven (`--optimal`): an A* search instead of the
    /// portfolio; a solution it returns is a shortest one.
    Optimal,
}

impl Limits {
    /// Whether someone asked the search to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// What stops a search that started at `start`, if anything does
    /// now: the flag, or the time.
    pub fn stop_now(&self, start: Instant) -> Option<Limit> {
        if self.cancelled() {
            Some(Limit::Cancelled)
        } else if self.timeout.is_some_and(|t| start.elapsed() >= t) {
            Some(Limit::Time)
        } else {
            None
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: DEFAULT_MAX_STATES,
            timeout: None,
            diff: None,
            cancel: None,
            length: Length::default(),
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution: the moves from the deal to the won position.
    Solved(Vec<Move>),
    /// Every reachable position was expanded: no solution exists (with
    /// forced foundation moves; see
    /// [`crate::rules::Rules::forced_foundation_is_exact`]).
    Insoluble,
    /// A limit or a cut stopped the search; nothing is proven.
    GaveUp(Limit),
}

/// What stopped a search that gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `--max-states` positions were stored.
    States,
    /// `--timeout` ran out.
    Time,
    /// `--diff` forgot positions, so an empty frontier proves nothing.
    Forgotten,
    /// Stopped from outside through [`Limits::cancel`].
    Cancelled,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::States => "state limit reached",
            Limit::Time => "time limit reached",
            Limit::Forgotten => "positions forgotten by --diff",
            Limit::Cancelled => "interrupted",
        })
    }
}

/// Figures of a search, for the summary line, progress and benchmarks.
/// Every attempt of the portfolio starts from an empty visited set, so
/// what was stored in all and what is held at once are different figures.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Positions stored, summed over the attempts so far: a position
    /// stored by two attempts counts twice.
    pub stored: u64,
    /// Positions in the visited set of the attempt under way (at the end,
    /// of the last attempt).
    pub stored_now: u64,
    /// Most positions stored at once: the visited set of the attempt that
    /// held the most.
    pub peak_stored: u64,
    /// Positions expanded (taken from the frontier, moves generated), by
    /// all attempts so far.
    pub expanded: u64,
    /// Positions waiting in the frontier of the attempt under way (at the
    /// end, of the last attempt).
    pub frontier: u64,
    /// Best score any attempt reached.
    pub best_score: u8,
    pub elapsed: Duration,
    /// Attempts started so far, one ordering each.
    pub attempts: u32,
}

/// The result of [`search`].
#[derive(Clone, Debug)]
pub struct Report {
    pub outcome: Outcome,
    pub stats: Stats,
}

/// What the search reports as it goes: [`search`] about once a second,
/// with the figures of all its attempts so far.
pub type Progress<'a> = &'a mut dyn FnMut(&Stats);

/// Searches the deal for a solution within `limits`.
pub fn search(deal: &Deal, limits: &Limits, progress: Option<Progress>) -> Report {
    crate::memory::return_freed_memory();
    match limits.length {
        Length::AsFound => portfolio::run(deal, limits, progress),
        Length::Shortened => shorten::after(deal, limits, portfolio::run(deal, limits, progress)),
        Length::Optimal => optimal::run(deal, limits, progress),
    }
}

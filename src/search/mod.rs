//! `-search`: a best-first search over a visited set of positions, with
//! positions grouped in buckets by score (cards on the foundation), the
//! highest score expanded first.
//!
//! Memory is the limit of an exhaustive search, so everything stored is
//! small. A position's [`Key`](crate::state::Key) is 3 words (156 bits);
//! the visited set packs it into 20 bytes beside the 4-byte index of the
//! position it came from (24 bytes in all, its depth in their spare
//! bits), looks positions up through a table of `u32` indices into that
//! store, and the frontier holds indices too. A position is rebuilt from its key when it
//! is expanded; moves are found again by comparing keys when the path is
//! rebuilt at the end.
//!
//! [`search`] runs one attempt after another, each with its own ordering
//! and a budget of stored positions, small budgets first (the portfolio);
//! a few attempts are depth-first instead of using the buckets, for the
//! Baker's Dozen deals the buckets miss. The last, unbounded attempt is
//! always the buckets'.
//!
//! Where each part lives, in the order a search meets them: `fast` (in
//! FreeCell and Seahaven, small best-first passes over sequence moves
//! first, which proves nothing), `portfolio` (the attempts in turn),
//! `schedule` (the orderings and budgets), `prover` (the attempt kept
//! between turns), `turns` (an attempt's limits and what its end means),
//! `parallel` (the attempts on `--jobs` threads), `attempt` (one search:
//! expand a position, admit its children), `order` (the tie-break inside
//! a bucket), `frontier` (buckets and depth-first stack), `split` (a
//! frontier per early move), `portfolio_beam` (the beam attempt's
//! frontier), `visited` (the store and its table), `path` (the moves back
//! from a won position, made shorter), `shorten` (the default's bounded
//! effort to make a solution shorter). `--optimal` runs `optimal` (an A* search, with
//! `open`, its open list) instead of the portfolio, and `--components`
//! runs `components` (Baker's Dozen, depth-first over components of host
//! moves, a name stored for each).

mod attempt;
mod complete_rules;
pub mod components;
mod fast;
mod free_rules;
mod frontier;
pub mod layered;
#[cfg(test)]
mod length_tests;
mod open;
mod optimal;
mod order;
mod parallel;
mod path;
mod portfolio;
mod portfolio_beam;
mod prover;
mod rollouts;
mod schedule;
mod shorten;
mod split;
#[cfg(test)]
mod tests;
mod turns;
mod visited;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::rules::Build;
use crate::state::{
    Move, Pairs, State, Suitless, SuitlessCheckpoint, SuitlessLimits, SuitlessResumed, Triples,
};

pub use shorten::{
    SHORTEN_CAP, SHORTEN_FLOOR, SHORTEN_SHARE_DIVISOR, SHORTEN_SQUARE_DIVISOR, SHORTEN_TIME_CAP,
};

/// The most the default `--max-states` is: about 2.4 GB at
/// [`BYTES_PER_POSITION`], well under what a 24 GB machine can spare; a
/// larger search is one a user asks for.
pub const DEFAULT_MAX_STATES: u64 = 50_000_000;

/// The most positions one attempt can index (`--max-states` at most).
pub use visited::MAX_STATES;
/// What one stored position costs at peak, every table counted: 24 bytes
/// in the store (depth included), its share of the table (4 bytes a slot, 35 to
/// 70 % full) and of the frontier. The summary line of long searches says
/// 33 to 44 B (`peak memory ... B/position`); this is the worst case, just
/// after the table and the frontier have doubled.
pub const BYTES_PER_POSITION: u64 = 48;

/// The least default `--max-states`, however little memory is said to be
/// free: a control group counts its page cache as used, so its headroom
/// can read near 0 on a machine that would give the memory back.
pub const MIN_DEFAULT_MAX_STATES: u64 = 1_000_000;

/// How many positions fit in `bytes` at [`BYTES_PER_POSITION`], between
/// [`MIN_DEFAULT_MAX_STATES`] and [`DEFAULT_MAX_STATES`]: the default limit
/// of a search given that much memory (the survey shares it between its
/// searches).
pub fn max_states_for(bytes: u64) -> u64 {
    (bytes / BYTES_PER_POSITION).clamp(MIN_DEFAULT_MAX_STATES, DEFAULT_MAX_STATES)
}

/// The default `--max-states`: what half the memory this process may still
/// take ([`crate::memory::usable`]: the machine's, or its control group's)
/// holds, so that a search on a small machine or in a container gives up
/// with `ECHEC` instead of being killed. The other half is left to what
/// else runs. Read once, at the first call: every search of the process
/// has the same default.
pub fn default_max_states() -> u64 {
    static DEFAULT: OnceLock<u64> = OnceLock::new();
    *DEFAULT.get_or_init(|| {
        crate::memory::usable().map_or(DEFAULT_MAX_STATES, |bytes| max_states_for(bytes / 2))
    })
}

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
    /// Threads the search runs its attempts on (`--jobs`); 1 runs them one
    /// after another on the caller's thread, as a survey of many deals
    /// wants.
    pub jobs: usize,
    /// How short the solution must be, and so what finding it may cost.
    pub length: Length,
    /// Run the portfolio's prover alone with the whole `max_states`, for a
    /// deal that most likely has no solution: a proof needs every position
    /// stored, and the other orderings, which only look for solutions,
    /// would add their rounds to it (see the portfolio's prover).
    pub prover_alone: bool,
    /// The caller searched the deal under forced rules already (a
    /// survey's `--foundation both`): a free search does not begin with a
    /// forced one again (see `free_rules.rs`).
    pub forced_searched: bool,
    /// Prune with the pair test ([`crate::state::Pairs`]), and ask the
    /// triple test and the suitless game ([`crate::state::suitless`]) of a
    /// long search's start: on by default; off (`--no-pairs`) to confirm
    /// a proof without them.
    pub pairs: bool,
    /// In Baker's Dozen, give nested rollouts (`rollouts.rs`) half the
    /// time once the search is about to be long: on by default; off for
    /// `--components`' first look, after which they run anyway.
    pub rollouts: bool,
    /// In Baker's Dozen, ask the suitless game ([`crate::state::suitless`])
    /// of a long search's start (with `pairs`): on by default; off
    /// (`--no-suitless`) to measure or test what the other proofs do.
    pub suitless: bool,
    /// Where the suitless game's search in layers saves itself every
    /// `suitless_checkpoint_every` and resumes from (`--spill DIR`
    /// puts it in DIR): a proof of hours killed halfway goes on from its
    /// last save (`lost_in_suitless_game`).
    pub suitless_checkpoint: Option<std::path::PathBuf>,
    /// The least time between two saves: [`SUITLESS_CHECKPOINT_EVERY`],
    /// less in tests.
    pub suitless_checkpoint_every: Duration,
    /// The largest save allowed: `--spill-max` under `--spill` (nothing
    /// else of the search is in DIR while the usual search runs).
    pub suitless_checkpoint_most: u64,
}

/// How short a solution [`search`] looks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Length {
    /// The first solution found (`--fast`): as the fast pass finds
    /// it, or, from a depth-first attempt (hundreds of moves at times),
    /// with its detours of one or two moves cut.
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

impl Length {
    /// The length `--fast` or `--optimal` asks for (the first when both
    /// are, which the command lines refuse).
    pub fn asked(fast: bool, optimal: bool) -> Length {
        match (fast, optimal) {
            (true, _) => Length::AsFound,
            (_, true) => Length::Optimal,
            _ => Length::Shortened,
        }
    }
}

impl Limits {
    /// Whether someone asked the search to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// What stops any search now from outside, if anything does: memory
    /// run out (`memory::low`), or the flag.
    pub fn interrupted(&self) -> Option<Limit> {
        if crate::memory::low() {
            Some(Limit::Memory)
        } else if self.cancelled() {
            Some(Limit::Cancelled)
        } else {
            None
        }
    }

    /// What stops a search that started at `start`, if anything does
    /// now: [`Limits::interrupted`], or the time.
    pub fn stop_now(&self, start: Instant) -> Option<Limit> {
        self.interrupted().or_else(|| {
            self.timeout
                .is_some_and(|t| start.elapsed() >= t)
                .then_some(Limit::Time)
        })
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: default_max_states(),
            timeout: None,
            diff: None,
            cancel: None,
            jobs: 1,
            length: Length::default(),
            prover_alone: false,
            forced_searched: false,
            pairs: true,
            rollouts: true,
            suitless: true,
            suitless_checkpoint: None,
            suitless_checkpoint_every: SUITLESS_CHECKPOINT_EVERY,
            suitless_checkpoint_most: u64::MAX,
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution: the moves from the deal to the won position, as the
    /// deal's file form writes them (under free rules, with every
    /// foundation move; see [`crate::state::written_out`]).
    Solved(Vec<Move>),
    /// Every reachable position was expanded: no solution exists (under
    /// forced rules, with forced foundation moves; see
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
    /// A table of the search could not grow: the memory the process may
    /// take (`ulimit -v`, the machine's) is used up.
    Memory,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::States => "state limit reached",
            Limit::Time => "time limit reached",
            Limit::Forgotten => "positions forgotten by --diff",
            Limit::Cancelled => "interrupted",
            Limit::Memory => "out of memory",
        })
    }
}

/// Figures of a search, for the summary line, progress and benchmarks.
/// Every attempt of the portfolio but the prover's later turns starts from
/// an empty visited set, so what was stored in all and what is held at
/// once are different figures (a prover's turn counts only what it adds).
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
    /// Time since the search started.
    pub elapsed: Duration,
    /// Attempts started so far, one ordering each.
    pub attempts: u32,
    /// Positions of the suitless game searched (Baker's Dozen,
    /// [`crate::state::suitless`]): at the end, for the proof that ended
    /// the search, else 0; in progress, while it is searched in layers
    /// (`frontier` then holds the entries waiting). Why a figure of its
    /// own: those proofs can take an hour (bd.1649) and are no positions
    /// of the deal, so the summary must not read "0 expanded, proven
    /// without a search".
    pub suitless: u64,
    /// The cards followed in the suitless game that proved the deal lost
    /// (`crate::state::suitless_followed`), a bit each; 0 for the
    /// suitless game itself, or another proof.
    pub followed: u64,
    /// Whether the verdict is a test's of the start (the pair or the
    /// triple test), not a search's of every position: the figures
    /// above are then what was searched before the test was asked.
    pub proven_by_test: bool,
    /// While the suitless game is searched in layers with a checkpoint
    /// (`--spill DIR`), why its last save could not be written, if it
    /// could not: the search goes on, but a run stopped then resumes
    /// from an older save or from nothing, and the person watching
    /// should know (a full disk, a directory made read-only).
    pub unsaved: Option<String>,
}

impl Stats {
    /// The figures of two searches of one deal, `later` run after `self`
    /// (or under way): counts added, the current ones `later`'s, and so
    /// is the proof's (`suitless`, `proven_by_test`): the verdict is the
    /// later search's. A forced proof carried into the complete search
    /// after it was told as that search's proof, and its suitless count
    /// made the progress line read "suitless game" all through an
    /// ordinary search (BakersDozen.191326999 under complete rules).
    pub fn followed_by(&self, later: &Stats) -> Stats {
        Stats {
            stored: self.stored + later.stored,
            stored_now: later.stored_now,
            peak_stored: self.peak_stored.max(later.peak_stored),
            expanded: self.expanded + later.expanded,
            frontier: later.frontier,
            best_score: self.best_score.max(later.best_score),
            elapsed: self.elapsed + later.elapsed,
            attempts: self.attempts + later.attempts,
            suitless: later.suitless,
            followed: later.followed,
            proven_by_test: later.proven_by_test,
            unsaved: later.unsaved.clone(),
        }
    }
}

/// The result of [`search`].
#[derive(Clone, Debug)]
pub struct Report {
    /// How the search ended: a solution, a proof there is none, or a limit.
    pub outcome: Outcome,
    /// What it cost.
    pub stats: Stats,
}

/// What the search reports as it goes: [`search`] about once a second,
/// with the figures of all its attempts so far.
pub type Progress<'a> = &'a mut dyn FnMut(&Stats);

/// Searches the deal for a solution within `limits`, under the deal's
/// foundation rule. Under free rules the positions searched play the
/// foundation moves proven safe by themselves (`state/automatic.rs`), so
/// an exhaustive search is still a proof; the solution writes them out.
/// Under free rules where they differ from forced ones, forced rules first
/// (`free_rules.rs`); under xpat2's complete rules, forced rules first
/// too, then the complete ones (`complete_rules.rs`).
pub fn search(deal: &Deal, limits: &Limits, progress: Option<Progress>) -> Report {
    if deal.foundation == Foundation::Xpat2 && deal.id.rules.returns_from_foundation {
        return complete_rules::search(deal, limits, progress);
    }
    if free_rules::forced_first(deal, limits) {
        return free_rules::search(deal, limits, progress);
    }
    search_from(deal, &State::new(deal), limits, progress)
}

/// The second of two searches of `deal` (see `free_rules.rs`,
/// `complete_rules.rs`), the first having reported `first`: a search from
/// the deal's start within `rest`, the caller's `progress` told the
/// figures of both. The outcome is the second's, the figures both's.
fn search_after(first: Report, deal: &Deal, rest: &Limits, progress: Option<Progress>) -> Report {
    then(first, progress, |told| {
        search_from(deal, &State::new(deal), rest, told)
    })
}

/// A second search (`second`, told a progress) after `first`, as
/// [`search_after`] runs one: the caller's `progress` told the figures of
/// both, the outcome the second's, the figures both's.
fn then(
    first: Report,
    mut progress: Option<Progress>,
    second: impl FnOnce(Option<Progress>) -> Report,
) -> Report {
    let mut told = |stats: &Stats| {
        if let Some(progress) = &mut progress {
            progress(&first.stats.followed_by(stats));
        }
    };
    let second = second(Some(&mut told));
    Report {
        outcome: second.outcome,
        stats: first.stats.followed_by(&second.stats),
    }
}

/// The caller's progress, lent to the first of two searches.
fn lent<'a>(progress: &'a mut Option<Progress<'_>>) -> Option<Progress<'a>> {
    match progress {
        Some(progress) => Some(&mut **progress),
        None => None,
    }
}

/// Searches for a way to win from `root`, a position reached from the
/// deal (a player's, mid-game): the moves found start there, and
/// `Insoluble` means no win from there. Keys still describe positions of
/// `deal`, since every position reached from `root` is one of the deal's.
/// Under free rules `root` is the deal's start (`State::new`) and the
/// moves found are written out from it; a player's position under those
/// rules is searched by [`search_from_played`].
pub fn search_from(
    deal: &Deal,
    root: &State,
    limits: &Limits,
    progress: Option<Progress>,
) -> Report {
    let mut report = run(deal, root, limits, progress);
    if let Outcome::Solved(moves) = &mut report.outcome {
        debug_assert!(deal.foundation == Foundation::Forced || *root == State::new(deal));
        *moves = crate::state::written_out(deal, moves);
    }
    report
}

/// Searches for a way to win from `played`, a position a file's moves
/// reach from the deal under free or complete rules (a player's, followed
/// exactly: nothing played up by itself). The search starts from it with
/// its positions' own foundation moves ([`crate::state::searched_from`]);
/// the moves found start at `played`, every foundation move written.
///
/// Under free rules, where they differ from forced ones, the forced game
/// is searched first, as [`search`] does from a deal's start
/// (`free_rules.rs`).
pub fn search_from_played(
    deal: &Deal,
    played: &State,
    limits: &Limits,
    progress: Option<Progress>,
) -> Report {
    if free_rules::forced_first(deal, limits) {
        return free_rules::search_from_played(deal, played, limits, progress);
    }
    search_exactly_from_played(deal, played, limits, progress)
}

/// [`search_from_played`] under the deal's own rules alone.
fn search_exactly_from_played(
    deal: &Deal,
    played: &State,
    limits: &Limits,
    progress: Option<Progress>,
) -> Report {
    let (root, mut moves) = crate::state::searched_from(played, deal);
    let mut report = run(deal, &root, limits, progress);
    if let Outcome::Solved(found) = &mut report.outcome {
        moves.extend(crate::state::written_out_from(&root, found));
        *found = moves;
    }
    report
}

/// `Insoluble` at once when the pair test proves `root` lost (and
/// `limits` allow the test): the hardest Baker's Dozen deals it decides
/// would fill the memory of any search first (bd.8095). Baker's Dozen
/// only: in Midnight Oil, the other game it models, the deals it proves
/// lost from the start are those the search proves lost within a few dozen
/// positions (65 of 1..1000), and its counts are left as they were.
fn lost_by_pairs(root: &State, limits: &Limits) -> Option<Report> {
    let start = Instant::now();
    let baker = root.rules().build == Build::AnySuit;
    (limits.pairs && baker && Pairs::default().is_lost(root))
        .then(|| proven(root, start, &Stats::default(), Proof::Test))
}

/// `Insoluble` when the triple test proves `root` lost (and `limits`
/// allow the tests), Baker's Dozen only, as [`lost_by_pairs`]. It costs
/// tens of milliseconds, where most deals are decided in a few, so it is
/// asked once, where the search is about to be long: the portfolio says
/// when (`portfolio.rs`), and the search over components asks it after
/// its first look. Its figures are the search's `so_far` (what it
/// stored and expanded before asking), its time the search's since
/// `began`.
/// Not asked once the search is out of time or cancelled.
pub(super) fn lost_by_triples(
    root: &State,
    limits: &Limits,
    began: Instant,
    so_far: &Stats,
) -> Option<Report> {
    let baker = root.rules().build == Build::AnySuit;
    (limits.pairs && baker && in_time(limits, began) && Triples::default().is_lost(root))
        .then(|| proven(root, began, so_far, Proof::Test))
}

/// `Insoluble` when the suitless game of `root` is lost
/// (`crate::state::suitless`; and `limits` allow the tests), Baker's
/// Dozen only. It takes up to seconds, and on a won deal it can only stop
/// by winning a game of its own, at times slower than the search would;
/// so it is asked where the search is about to be long, after the
/// rollouts (which win most of the won deals that get there), for half
/// the time left, or [`SUITLESS_ALONE`] without a timeout
/// ([`SUITLESS_ALONE_LOST`] before a search that expects a loss), within
/// half the positions `--max-states` allows (each takes less room than
/// the search's). Figures and time as [`lost_by_triples`], with the
/// suitless positions searched, in both searches of that game.
///
/// When that search fills its positions with time left and without a
/// win, the suitless game is searched again in layers
/// (`crate::state::suitless_in_layers`) for the rest of that time, on
/// `--jobs` threads, with eight times `--max-states` entries waiting at
/// most (some 5 bytes each, against 48 a position of the search: the
/// memory `--max-states` allows): the proofs of games of
/// hundreds of millions of positions (bd.7922: docs/hard-deals.md), which
/// only a long `--timeout` gives the time for. Its layers are shown as
/// progress: suitless positions searched, entries waiting as frontier.
///
/// With [`Limits::suitless_checkpoint`], the layers save themselves
/// there, and a search that finds a save of the same game there resumes
/// from it, the plain search skipped (the game outgrew it); the save is
/// removed once the game is decided. A file there of another game (the
/// free game's, while the forced one is searched) is left alone, and
/// that search is not saved.
pub(super) fn lost_in_suitless_game(
    root: &State,
    limits: &Limits,
    began: Instant,
    so_far: &Stats,
    progress: Option<Progress>,
) -> Option<Report> {
    let alone = if limits.prover_alone {
        SUITLESS_ALONE_LOST
    } else {
        SUITLESS_ALONE
    };
    let until = suitless_until(root, limits, began, alone)?;
    let stopped = || Instant::now() >= until || limits.interrupted().is_some();
    let path = limits.suitless_checkpoint.as_deref();
    let there = path.filter(|path| path.exists());
    let resumed = there.and_then(|path| SuitlessResumed::read(root, path).ok());
    let mut before = 0;
    if resumed.is_none() {
        let most = usize::try_from(limits.max_states / 2).unwrap_or(usize::MAX);
        let found = crate::state::suitless(root, most, stopped);
        if found.is_lost() {
            return Some(proven(
                root,
                began,
                so_far,
                Proof::Suitless(found.positions() as u64),
            ));
        }
        if !matches!(found, Suitless::Open { .. }) || stopped() {
            return None;
        }
        before = found.positions() as u64;
    }
    let checkpoint = path
        .filter(|_| there.is_none() || resumed.is_some())
        .map(|path| SuitlessCheckpoint {
            path,
            every: limits.suitless_checkpoint_every,
            most_bytes: limits.suitless_checkpoint_most,
            spill_over: usize::MAX,
        });
    let layers = SuitlessLimits {
        threads: limits.jobs.max(1),
        most: usize::try_from(limits.max_states.saturating_mul(8)).unwrap_or(usize::MAX),
        stopped: &stopped,
        every: crate::state::SUITLESS_EVERY,
        checkpoint,
        lean_from: crate::state::SUITLESS_LEAN_FROM,
        room: crate::memory::usable,
    };
    let mut show = progress;
    let mut unsaved = None;
    let mut shown = |layer: &crate::state::SuitlessLayer| {
        match &layer.saved {
            Some(Ok(_)) => unsaved = None,
            Some(Err(why)) => unsaved = Some(why.clone()),
            None => {}
        }
        if let Some(show) = show.as_mut() {
            show(&Stats {
                frontier: layer.waiting as u64,
                suitless: before + (layer.total + layer.under_way) as u64,
                elapsed: began.elapsed(),
                unsaved: unsaved.clone(),
                ..so_far.clone()
            });
        }
    };
    let found = match resumed {
        None => crate::state::suitless_in_layers(root, &layers, &mut shown),
        Some(resumed) => crate::state::suitless_resumed_in_layers(resumed, &layers, &mut shown),
    };
    if let Some(saved) = checkpoint
        && !matches!(found, Suitless::Open { .. })
    {
        // Decided: the save has served (and a failure to remove it
        // leaves a file a later search resumes to the same verdict).
        let _ = std::fs::remove_file(saved.path);
    }
    found.is_lost().then(|| {
        proven(
            root,
            began,
            so_far,
            Proof::Suitless(before + found.positions() as u64),
        )
    })
}

/// `Insoluble` when one of the games with cards followed of `root`
/// ([`FOLLOWED_RANKS`], `crate::state::suitless_followed`) is lost: a
/// proof where the suitless game wins (BakersDozen.191326999 under free
/// rules). Baker's Dozen only, with the tests allowed, for half the time
/// left or [`SUITLESS_ALONE_LOST`], each game within half `--max-states`
/// and [`FOLLOWED_MOST`] positions. Asked of a deal most likely lost
/// (`prover_alone`) once its prover has stopped with time left
/// (`portfolio::run` says why then). Figures as
/// [`lost_in_suitless_game`], the positions of every game asked counted
/// as suitless positions.
pub(super) fn lost_with_cards_followed(
    root: &State,
    limits: &Limits,
    began: Instant,
    so_far: &Stats,
) -> Option<Report> {
    use crate::cards::{RANK_CARDS, card_of};
    let until = suitless_until(root, limits, began, SUITLESS_ALONE_LOST)?;
    let stopped = || Instant::now() >= until || limits.interrupted().is_some();
    let most = usize::try_from(limits.max_states / 2).unwrap_or(usize::MAX);
    let mut positions = 0;
    for (a, b) in FOLLOWED_RANKS {
        if stopped() {
            return None;
        }
        let cards = RANK_CARDS << card_of(a, 0) | RANK_CARDS << card_of(b, 0);
        let found = crate::state::suitless_followed(root, cards, most.min(FOLLOWED_MOST), stopped);
        positions += found.positions() as u64;
        if found.is_lost() {
            return Some(proven(
                root,
                began,
                so_far,
                Proof::Followed(positions, cards),
            ));
        }
    }
    None
}

/// When a proof by the suitless game or its kin, asked now of `root`,
/// must stop: after half the time left, or `alone` without a timeout;
/// `None` where it is not asked (not Baker's Dozen, the tests left out,
/// out of time).
fn suitless_until(
    root: &State,
    limits: &Limits,
    began: Instant,
    alone: Duration,
) -> Option<Instant> {
    let baker = root.rules().build == Build::AnySuit;
    if !(limits.pairs && limits.suitless && baker && in_time(limits, began)) {
        return None;
    }
    let budget = match limits.timeout {
        Some(timeout) => timeout.saturating_sub(began.elapsed()) / 2,
        None => alone,
    };
    Some(Instant::now() + budget)
}

/// The pairs of ranks whose cards the games asked after a won suitless
/// game follow, in turn: the high ranks, whose cards wait longest for a
/// host (Kings never move, so following them tells nothing). Queens and
/// Tens prove BakersDozen.191326999 lost under free rules in 1.96 M
/// positions, Jacks and Tens in 9.96 M; Queens and Jacks win there
/// (docs/hard-deals.md).
const FOLLOWED_RANKS: [(u8, u8); 6] = [(12, 11), (12, 10), (11, 10), (12, 9), (11, 9), (10, 9)];

/// The most positions each game with cards followed may reach (some
/// 40 bytes each, some 1.5 s a million on this machine): within the
/// prover's time for one deal, most of these pairs are asked.
const FOLLOWED_MOST: usize = 4_000_000;

/// How often the suitless game's search in layers saves itself
/// ([`Limits::suitless_checkpoint`]): a save of bd.99807's largest layers
/// takes some 15 s (3 GB), a fortieth of ten minutes.
pub const SUITLESS_CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// The most time the suitless game gets without a timeout: it proves
/// bd.78829 lost in 1.3 s under forced rules (585 000 positions), 1.4 s
/// under free ones and 4.2 s under xpat2's complete rules (990 000
/// positions; 983 000 since cards back come in bursts).
const SUITLESS_ALONE: Duration = Duration::from_secs(5);

/// [`SUITLESS_ALONE`] for a deal most likely lost (`prover_alone`), whose
/// proof by the search would be long.
const SUITLESS_ALONE_LOST: Duration = Duration::from_secs(30);

/// Whether a search that began at `began` may still ask a test that
/// takes time: not once out of time or cancelled.
fn in_time(limits: &Limits, began: Instant) -> bool {
    limits.timeout.is_none_or(|t| began.elapsed() < t) && !limits.cancelled()
}

/// What proved a position lost without a search of every position.
enum Proof {
    /// The pair or the triple test, asked of it.
    Test,
    /// Its suitless game, lost in that many positions.
    Suitless(u64),
    /// Its suitless game won, and with these cards followed lost: that
    /// many positions of the two.
    Followed(u64, u64),
}

/// The report of a proof asked of `root` between the search's steps:
/// the figures of the search `so_far` (nothing stored or expanded when
/// asked first), its time since `began`, and what the `proof` was.
fn proven(root: &State, began: Instant, so_far: &Stats, proof: Proof) -> Report {
    let (suitless, followed, by_test) = match proof {
        Proof::Test => (0, 0, true),
        Proof::Suitless(positions) => (positions, 0, false),
        Proof::Followed(positions, cards) => (positions, cards, false),
    };
    Report {
        outcome: Outcome::Insoluble,
        stats: Stats {
            best_score: so_far.best_score.max(root.score()),
            elapsed: began.elapsed(),
            suitless: so_far.suitless + suitless,
            followed,
            proven_by_test: so_far.proven_by_test || by_test,
            ..so_far.clone()
        },
    }
}

/// The search from `root`, its solution as the search's positions play it.
fn run(deal: &Deal, root: &State, limits: &Limits, progress: Option<Progress>) -> Report {
    crate::memory::return_freed_memory();
    crate::memory::keep_spare();
    if let Some(report) = lost_by_pairs(root, limits) {
        return report;
    }
    match limits.length {
        Length::AsFound => portfolio::run(deal, root, limits, progress),
        Length::Shortened => {
            let found = portfolio::run(deal, root, limits, progress);
            shorten::after(deal, root, limits, found)
        }
        Length::Optimal => optimal::run(deal, root, limits, progress),
    }
}

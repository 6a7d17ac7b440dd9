//! The search over components on `--jobs` threads: each runs its own
//! depth-first search, all sharing one set of names; a thread that runs
//! out of work takes components another one set aside for it.
//!
//! Each thread takes turns with its dives (`dives.rs`): after some
//! components of the exhaustive search, a dive of as many, so that half
//! the work goes to dives (see [`EXHAUSTIVE_PER_DIVE`]).
//!
//! Sharing the names keeps the search exhaustive: a component is entered
//! by the thread that stored its name, and by no other, so the search
//! ends (`INSOLUBLE`) only when every thread is idle and nothing is set
//! aside, that is, when every component stored was expanded.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::dives::{Dived, Dives};
use super::stack::{Frame, cut_lost, next};
use super::{
    Class, Cuts, Expander, Expansion, Failure, LISTED_BYTES, MISMATCH, Names, PROGRESS_EVERY,
    Searched,
};
use crate::search::{BYTES_PER_POSITION, Limit, Limits, Outcome, Progress, Report, Stats};
use crate::state::{Move, State, SuitlessMemo};

/// Searches from `start` (a position of a Baker's Dozen deal under forced
/// or free rules, see [`super::refusal`]) over components, on
/// `limits.jobs` threads, within `limits`: its `max_states` counts names
/// stored. `length`, `diff` and the prover settings are not used: the
/// first solution found, depth-first (more cards up first), is the
/// answer, its moves as the positions play them (nothing written in for
/// the cards they play up by themselves). `expansion` says how
/// components are expanded.
pub fn search(
    start: &State,
    limits: &Limits,
    expansion: Expansion,
    progress: Option<Progress>,
) -> Searched {
    let shared = Shared {
        names: Names::new(),
        listed: AtomicU64::new(0),
        cut: AtomicU64::new(0),
        suitless_cut: AtomicU64::new(0),
        expanded: AtomicU64::new(0),
        best: AtomicU8::new(start.score()),
        pool: Mutex::new(Pool::default()),
        wake: Condvar::new(),
        waiting: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        end: Mutex::new(None),
        jobs: limits.jobs.max(1),
        most_listed: most_listed(limits),
        expansion,
        limits,
        began: Instant::now(),
        start: start.clone(),
    };
    shared.names.insert(Class::of(start).name);
    if start.is_won() {
        shared.finish(End::Won(Vec::new()));
    } else {
        std::thread::scope(|scope| {
            for thread in 1..shared.jobs {
                let shared = &shared;
                let spawned =
                    crate::memory::spawn_scoped(scope, move || work(shared, thread, None, None));
                if spawned.is_err() {
                    shared.never_started();
                }
            }
            work(&shared, 0, Some(start.clone()), progress);
        });
    }
    let stats = shared.stats();
    let (outcome, stopped) = match shared.end.into_inner().expect("end") {
        None => (Outcome::Insoluble, None),
        Some(End::Won(moves)) => (Outcome::Solved(moves), None),
        Some(End::Exhausted) => (Outcome::Insoluble, None),
        Some(End::Limit(limit)) => (Outcome::GaveUp(limit), None),
        Some(End::Mismatch(why)) => (Outcome::Insoluble, Some(why)),
    };
    Searched {
        report: Report { outcome, stats },
        listed: shared.listed.into_inner(),
        cut: Cuts {
            triples: shared.cut.into_inner(),
            suitless: shared.suitless_cut.into_inner(),
        },
        stopped,
    }
}

/// What the threads share.
struct Shared<'a> {
    names: Names,
    /// Positions listed, all threads.
    listed: AtomicU64,
    /// Components the triple test found lost, all threads.
    cut: AtomicU64,
    /// Components the suitless game found lost, all threads.
    suitless_cut: AtomicU64,
    /// Components expanded, all threads.
    expanded: AtomicU64,
    best: AtomicU8,
    /// Components set aside for idle threads.
    pool: Mutex<Pool>,
    wake: Condvar,
    /// Threads waiting for work (the pool's count, read without its lock).
    waiting: AtomicUsize,
    stop: AtomicBool,
    end: Mutex<Option<End>>,
    jobs: usize,
    /// The most positions of one component a thread lists.
    most_listed: usize,
    expansion: Expansion,
    limits: &'a Limits,
    began: Instant,
    /// Where dives start.
    start: State,
}

/// The most positions of one component a thread may list: the memory
/// `--max-states` stands for in the usual search (its positions at
/// [`BYTES_PER_POSITION`]) shared by the threads, at [`LISTED_BYTES`] a
/// listed position. A larger component ends the search at its state
/// limit (`ECHEC`) instead of exhausting the memory. Default limits on
/// this machine: 6 M positions a thread on two threads. bd.7927's
/// components reach 1.5 M positions; bd.7922's, by the memory they
/// took, tens of millions.
fn most_listed(limits: &Limits) -> usize {
    let bytes = limits.max_states.saturating_mul(BYTES_PER_POSITION);
    (bytes / LISTED_BYTES / limits.jobs.max(1) as u64).max(1) as usize
}

#[derive(Default)]
struct Pool {
    /// A component's first position, with the moves to it from the start.
    items: Vec<(State, Vec<Move>)>,
    idle: usize,
}

/// How a search ended before its space did.
enum End {
    Won(Vec<Move>),
    /// A dive expanded every component from the start.
    Exhausted,
    Limit(Limit),
    Mismatch(String),
}

/// Components of the exhaustive search a thread expands for each one
/// its dives do: half the work to dives. A proof takes up to twice as
/// long; dives won deals the exhaustive search alone left undecided after
/// ten minutes (docs/components.md).
const EXHAUSTIVE_PER_DIVE: u64 = 1;

/// How long an idle thread sleeps before looking at the stop flag again.
const IDLE_WAIT: Duration = Duration::from_millis(20);

impl Shared<'_> {
    /// Ends the search for a component that could not be expanded, by
    /// the exhaustive search or a dive.
    fn fail(&self, failure: Failure) {
        self.finish(match failure {
            Failure::Mismatch => End::Mismatch(MISMATCH.into()),
            Failure::TooLarge => End::Limit(Limit::States),
            Failure::Stopped => End::Limit(self.limit().unwrap_or(Limit::Cancelled)),
        });
    }

    /// Counts a component expanded, which listed `listed` positions.
    fn count(&self, listed: u64) {
        self.listed.fetch_add(listed, Relaxed);
        self.expanded.fetch_add(1, Relaxed);
    }

    /// Shows the figures so far, with `frontier` components waiting.
    fn show(&self, progress: &mut Option<Progress>, frontier: u64) {
        if let Some(show) = progress.as_mut() {
            let mut stats = self.stats();
            stats.frontier = frontier;
            show(&stats);
        }
    }

    /// Ends the search with `end`, unless it has ended already.
    fn finish(&self, end: End) {
        let mut first = self.end.lock().expect("end");
        if first.is_none() {
            *first = Some(end);
        }
        self.stop.store(true, Relaxed);
        let _pool = self.pool.lock().expect("pool");
        self.wake.notify_all();
    }

    fn stats(&self) -> Stats {
        let stored = self.names.len();
        Stats {
            stored,
            stored_now: stored,
            peak_stored: stored,
            expanded: self.expanded.load(Relaxed),
            best_score: self.best.load(Relaxed),
            elapsed: self.began.elapsed(),
            attempts: 1,
            ..Stats::default()
        }
    }

    /// Waits for a component set aside; `None` when the search is over
    /// (every thread idle with nothing set aside, or stopped).
    fn take(&self) -> Option<(State, Vec<Move>)> {
        let mut pool = self.pool.lock().expect("pool");
        pool.idle += 1;
        self.waiting.store(pool.idle, Relaxed);
        loop {
            if self.stop.load(Relaxed) {
                return None;
            }
            if let Some(item) = pool.items.pop() {
                pool.idle -= 1;
                self.waiting.store(pool.idle, Relaxed);
                return Some(item);
            }
            if pool.idle == self.jobs {
                self.stop.store(true, Relaxed);
                self.wake.notify_all();
                return None;
            }
            pool = self.wake.wait_timeout(pool, IDLE_WAIT).expect("pool").0;
        }
    }

    /// Counts a thread that could not be started (no memory left for its
    /// stack) as idle for good, so that the others still see when every
    /// thread is out of work and the search is over.
    fn never_started(&self) {
        let mut pool = self.pool.lock().expect("pool");
        pool.idle += 1;
        self.waiting.store(pool.idle, Relaxed);
    }

    /// Sets aside for idle threads the children of the lowest of `frames`
    /// that has some, when other work is left to this thread (the lowest
    /// components are the nearest the start: the largest shares).
    fn share(&self, frames: &mut [Frame], path: &[Move]) {
        let pending: usize = frames.iter().map(|f| f.children.len()).sum();
        let Some(low) = frames.iter_mut().find(|f| !f.children.is_empty()) else {
            return;
        };
        let give = if pending > low.children.len() {
            low.children.len()
        } else {
            low.children.len() / 2
        };
        if give == 0 {
            return;
        }
        let given: Vec<(State, Vec<Move>)> = low
            .children
            .drain(..give)
            .map(|(child, moves)| {
                let mut full = path[..low.depth].to_vec();
                full.extend(moves);
                (child, full)
            })
            .collect();
        let mut pool = self.pool.lock().expect("pool");
        pool.items.extend(given);
        self.wake.notify_all();
    }

    /// The limit reached, if one is.
    fn limit(&self) -> Option<Limit> {
        if crate::memory::low() {
            return Some(Limit::Memory);
        }
        if self.names.len() >= self.limits.max_states {
            return Some(Limit::States);
        }
        if self
            .limits
            .timeout
            .is_some_and(|t| self.began.elapsed() >= t)
        {
            return Some(Limit::Time);
        }
        let cancelled = self.limits.cancel.as_ref();
        cancelled
            .is_some_and(|c| c.load(Relaxed))
            .then_some(Limit::Cancelled)
    }
}

/// One thread's search: from `first`, then from what others set aside.
/// `thread` numbers it (its dives' order). A confirming search
/// (`--list-components`) does not dive: it is run to confirm a proof.
fn work(shared: &Shared, thread: usize, first: Option<State>, progress: Option<Progress>) {
    let mut expander = Expander::new(
        &shared.names,
        shared.most_listed,
        shared.expansion,
        shared.limits.pairs,
    );
    if shared.limits.pairs && shared.limits.suitless {
        expander.lost.suitless = SuitlessMemo::new(&shared.start);
    }
    work_with(shared, thread, first, progress, &mut expander);
    shared.cut.fetch_add(expander.lost.triple_cuts, Relaxed);
    shared
        .suitless_cut
        .fetch_add(expander.lost.suitless_cuts, Relaxed);
}

/// [`work`] with the thread's `expander`.
fn work_with(
    shared: &Shared,
    thread: usize,
    first: Option<State>,
    mut progress: Option<Progress>,
    expander: &mut Expander,
) {
    let mut frames: Vec<Frame> = Vec::new();
    let mut path: Vec<Move> = Vec::new();
    let mut current = first;
    // Components this thread's exhaustive search expanded.
    let mut own = 0u64;
    let mut last_shown = Instant::now();
    let mut dives = (shared.expansion == Expansion::MovesOut)
        .then(|| Dives::new(thread, shared.limits.max_states / 2 / shared.jobs as u64));
    let mut until_dive = dives
        .as_ref()
        .map_or(0, |d| d.budget() * EXHAUSTIVE_PER_DIVE);
    loop {
        let state = match current.take().or_else(|| next(&mut frames, &mut path)) {
            Some(state) => state,
            None => match shared.take() {
                Some((state, moves)) => {
                    path = moves;
                    state
                }
                None => return,
            },
        };
        if shared.stop.load(Relaxed) {
            return;
        }
        let stopped =
            || shared.stop.load(Relaxed) || shared.limit().is_some_and(|l| l != Limit::States);
        let expanded = match expander.expand(&state, &stopped) {
            Ok(expanded) => expanded,
            Err(failure) => return shared.fail(failure),
        };
        shared.count(expanded.listed);
        if let Some(moves) = expanded.won {
            path.extend(moves);
            return shared.finish(End::Won(path));
        }
        if let Some(best) = expanded.children.iter().map(|(c, _)| c.score()).max() {
            shared.best.fetch_max(best, Relaxed);
        }
        own += 1;
        frames.push(Frame::new(&state, expanded.children, path.len(), own));
        cut_lost(&mut frames, own, &mut expander.lost);
        if shared.waiting.load(Relaxed) > 0 {
            shared.share(&mut frames, &path);
        }
        if let Some(limit) = shared.limit() {
            return shared.finish(End::Limit(limit));
        }
        let frontier = || frames.iter().map(|f| f.children.len() as u64).sum();
        if last_shown.elapsed() >= PROGRESS_EVERY {
            last_shown = Instant::now();
            shared.show(&mut progress, frontier());
        }
        until_dive = until_dive.saturating_sub(1);
        if let Some(dives) = dives.as_mut()
            && until_dive == 0
        {
            let waiting = frontier();
            let mut show = || shared.show(&mut progress, waiting);
            let count = |listed| shared.count(listed);
            match dives.dive(&shared.start, expander, &stopped, &count, &mut show) {
                Dived::Won(moves) => return shared.finish(End::Won(moves)),
                Dived::Exhausted => return shared.finish(End::Exhausted),
                Dived::Spent => {}
                Dived::Failed(failure) => return shared.fail(failure),
            }
            until_dive = dives.budget() * EXHAUSTIVE_PER_DIVE;
        }
    }
}

//! `--jobs N`: the portfolio's attempts on N threads at once. Each thread
//! takes the next attempt of the [`Schedule`] when its last one gave up at
//! its budget; the first attempt that decides (a solution, a proof, or a
//! limit of the user's) ends them all through one stop flag.
//!
//! The user's `--max-states` bounds the positions all threads hold at
//! once: an attempt starts only once its budget fits beside the budgets of
//! those running ([`Pool`]), so the last round's attempt, which may store
//! them all, runs alone. The caller's thread only waits, watches the
//! user's cancel flag and shows progress for the whole search.

use std::iter::Enumerate;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::prover::Prover;
use super::schedule::{Planned, Schedule};
use super::turns::{add_finished, attempt_limits, verdict};
use super::{Limit, Limits, Outcome, Progress, Report, Stats, attempt};
use crate::deal::Deal;
use crate::lock::{lock, wait_on};
use crate::state::State;

/// How often the caller's thread looks at the user's cancel flag.
const POLL: Duration = Duration::from_millis(20);
/// How often progress is shown.
const SHOW_EVERY: Duration = Duration::from_secs(1);

/// The part of a search the threads take on: the attempts still to come,
/// after those already run on the caller's thread.
pub(super) struct Threads<'r, 'a> {
    /// The attempts to come, each with its place in the schedule.
    pub(super) schedule: Enumerate<Schedule>,
    /// The figures of the attempts already run.
    pub(super) finished: Stats,
    /// When the search started.
    pub(super) start: Instant,
    /// The portfolio's prover, whichever thread takes its turn.
    pub(super) prover: &'r Prover<'a>,
}

/// Searches the deal on `limits.jobs` threads, or on as many as can be
/// started. When none can (a process short of address space, `ulimit
/// -v`), returns `None` with the schedule untouched, for the caller's
/// thread to go on with, so that the search still ends in a verdict.
pub(super) fn run<'p>(
    deal: &Deal,
    root: &'p State,
    limits: &Limits,
    progress: &mut Option<Progress>,
    threads: &mut Threads<'_, 'p>,
) -> Option<Report> {
    let start = threads.start;
    let prover = threads.prover;
    let free = limits.max_states.saturating_sub(prover.held());
    let shared = Shared {
        deal,
        root,
        limits,
        start,
        prover,
        pool: Pool::new(free, first_place(&threads.schedule), prover.held()),
        schedule: Mutex::new(&mut threads.schedule),
        live: Mutex::new(Live::new(limits.jobs, threads.finished.clone())),
        stop: Arc::new(AtomicBool::new(false)),
    };
    // Room for every thread's one decision, allocated now: a thread that
    // ends its attempt out of memory must still be able to send it (an
    // unbounded channel allocates on the first send).
    let (decided, decisions) = mpsc::sync_channel(limits.jobs);
    let outcome = std::thread::scope(|scope| {
        let mut started = 0;
        for worker in 0..limits.jobs {
            let (shared, decided) = (&shared, decided.clone());
            started += crate::memory::spawn_scoped(scope, move || shared.work(worker, decided))
                .is_ok() as usize;
        }
        drop(decided);
        if started == 0 {
            return None;
        }
        let outcome = shared.wait(decisions, progress);
        shared.stop.store(true, Ordering::Relaxed);
        shared.pool.wake_all();
        Some(outcome)
    })?;
    let stats = lock(&shared.live).so_far(start.elapsed());
    Some(Report { outcome, stats })
}

/// The place in the schedule of its next attempt (any, when none is left).
fn first_place(schedule: &Enumerate<Schedule>) -> usize {
    schedule.clone().next().map_or(0, |(place, _)| place)
}

/// What the threads share.
struct Shared<'a, 's, 'r, 'p> {
    deal: &'a Deal,
    /// Where the search starts: the deal's position or another.
    root: &'p State,
    limits: &'a Limits,
    start: Instant,
    prover: &'r Prover<'p>,
    /// The attempts to come, each with its place in the schedule.
    schedule: Mutex<&'s mut Enumerate<Schedule>>,
    pool: Pool,
    live: Mutex<Live>,
    /// Raised once the search is decided: every attempt stops at its next
    /// look at the clock.
    stop: Arc<AtomicBool>,
}

impl Shared<'_, '_, '_, '_> {
    /// One thread: attempts in the schedule's order until one decides, the
    /// schedule is over or the search is stopped.
    fn work(&self, worker: usize, decided: mpsc::SyncSender<Outcome>) {
        while !self.stop.load(Ordering::Relaxed) {
            let Some((place, planned)) = lock(&self.schedule).next() else {
                return;
            };
            let Some(taken) = self.pool.take(place, &planned, &self.stop) else {
                return;
            };
            let Some(report) = self.attempt(worker, &planned) else {
                // The prover is on another thread: this turn is skipped,
                // and what it took stays the prover's.
                continue;
            };
            if !planned.resume {
                self.pool.give_back(taken);
            }
            let ended = verdict(&planned, &report, self.limits, self.start.elapsed());
            if let Some(outcome) = ended {
                // The receiver is gone only once the search is decided.
                let _ = decided.send(outcome);
                return;
            }
        }
    }

    /// Runs one attempt, its figures kept up to date in [`Live`]; `None`
    /// for a turn of the prover while another thread has it, but for the
    /// last, which waits for it: the search ends with that turn.
    fn attempt(&self, worker: usize, planned: &Planned) -> Option<Report> {
        lock(&self.live).running += 1;
        let cancel = Some(Arc::clone(&self.stop));
        let limits = attempt_limits(planned, self.limits, self.start.elapsed(), cancel);
        let mut note = |stats: &Stats| lock(&self.live).update(worker, stats);
        let (deal, root, order) = (self.deal, self.root, planned.order);
        let report = if planned.resume {
            self.prover
                .turn(deal, root, order, &limits, planned.last, Some(&mut note))
        } else {
            Some(attempt::run(deal, root, &limits, order, Some(&mut note)))
        };
        let mut live = lock(&self.live);
        match &report {
            Some(report) => live.finish(worker, &report.stats),
            None => live.running -= 1,
        }
        report
    }

    /// The caller's thread until the first decision: the user's cancel
    /// flag, and progress once a second.
    fn wait(&self, decisions: mpsc::Receiver<Outcome>, progress: &mut Option<Progress>) -> Outcome {
        let mut last_shown = self.start;
        loop {
            match decisions.recv_timeout(POLL) {
                Ok(outcome) => return outcome,
                // Every thread ended without deciding: only a stop does that.
                Err(RecvTimeoutError::Disconnected) => return Outcome::GaveUp(Limit::Cancelled),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Some(limit) = self.limits.interrupted() {
                return Outcome::GaveUp(limit);
            }
            if let Some(show) = progress.as_mut()
                && last_shown.elapsed() >= SHOW_EVERY
            {
                last_shown = Instant::now();
                show(&lock(&self.live).so_far(self.start.elapsed()));
            }
        }
    }
}

/// The figures of the whole search: the finished attempts, and the last
/// progress of each one under way.
struct Live {
    finished: Stats,
    /// Per thread, its attempt under way (zero when none).
    current: Vec<Stats>,
    running: u32,
    /// Most positions held by all threads at once.
    peak_at_once: u64,
}

impl Live {
    fn new(jobs: usize, finished: Stats) -> Live {
        Live {
            finished,
            current: vec![Stats::default(); jobs],
            running: 0,
            peak_at_once: 0,
        }
    }

    fn update(&mut self, worker: usize, stats: &Stats) {
        self.current[worker] = stats.clone();
        let held = self.current.iter().map(|s| s.stored_now).sum();
        self.peak_at_once = self.peak_at_once.max(held);
    }

    fn finish(&mut self, worker: usize, stats: &Stats) {
        self.update(worker, stats);
        self.current[worker] = Stats::default();
        self.running -= 1;
        add_finished(&mut self.finished, stats);
    }

    fn so_far(&self, elapsed: Duration) -> Stats {
        let mut all = self.finished.clone();
        for s in &self.current {
            all.stored += s.stored;
            all.expanded += s.expanded;
            all.best_score = all.best_score.max(s.best_score);
        }
        all.stored_now = self.current.iter().map(|s| s.stored_now).sum();
        all.frontier = self.current.iter().map(|s| s.frontier).sum();
        all.peak_stored = self.finished.peak_stored.max(self.peak_at_once);
        all.attempts += self.running;
        all.elapsed = elapsed;
        all
    }
}

/// Positions the running attempts may still store between them: an
/// attempt takes its budget before it starts and gives it back when done.
/// Attempts start in the schedule's order, so that the last round's, which
/// takes every position, starts after all the others.
///
/// The prover keeps what it holds between its turns and gives nothing
/// back: the pool counts what it has reserved for the prover, and a
/// turn takes only its budget's growth beyond that, counted when the turn
/// is granted (not when an earlier turn, maybe still running on another
/// thread, ends: asking then for the growth beyond that turn's start
/// would wait forever for positions the prover never gives back).
struct Pool {
    state: Mutex<Room>,
    given_back: Condvar,
}

/// What the pool knows under its lock.
#[derive(Debug)]
struct Room {
    /// Positions free.
    free: u64,
    /// The place in the schedule of the next attempt to start.
    next: usize,
    /// Positions reserved for the prover: its largest budget granted.
    prover: u64,
}

impl Pool {
    /// `place`: the place in the schedule of the first attempt to come;
    /// `prover`: what the prover holds already.
    fn new(positions: u64, place: usize, prover: u64) -> Pool {
        Pool {
            state: Mutex::new(Room {
                free: positions,
                next: place,
                prover,
            }),
            given_back: Condvar::new(),
        }
    }

    /// Waits until the attempts before `place` have started and the
    /// positions `planned` needs are free, and takes them: how many, or
    /// `None` when the search was stopped meanwhile.
    fn take(&self, place: usize, planned: &Planned, stop: &AtomicBool) -> Option<u64> {
        let mut room = lock(&self.state);
        loop {
            let need = if planned.resume {
                planned.budget.saturating_sub(room.prover)
            } else {
                planned.budget
            };
            if room.free >= need && room.next == place {
                room.free -= need;
                room.next = place + 1;
                if planned.resume {
                    room.prover = room.prover.max(planned.budget);
                }
                self.given_back.notify_all();
                return Some(need);
            }
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            room = wait_on(&self.given_back, room, POLL);
        }
    }

    fn give_back(&self, budget: u64) {
        lock(&self.state).free += budget;
        self.given_back.notify_all();
    }

    fn wake_all(&self) {
        self.given_back.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use super::super::schedule::{PORTFOLIO, Planned};
    use super::*;

    /// The prover's turns take only their budget's growth beyond what the
    /// pool reserved for it, even while an earlier turn still runs and
    /// has given nothing back; other attempts take and give back their
    /// whole budget; attempts start in the schedule's order.
    #[test]
    fn a_provers_turn_takes_the_growth_beyond_what_was_reserved() {
        let turn = |budget, last| Planned {
            order: &PORTFOLIO[0],
            budget,
            last,
            resume: true,
        };
        let other = |budget| Planned {
            order: &PORTFOLIO[2],
            budget,
            last: false,
            resume: false,
        };
        // A limit of 100 positions, 20 held by the prover's first turn.
        let pool = Pool::new(80, 0, 20);
        // Raised late, so that a take that would wait forever ends.
        let stop = Arc::new(AtomicBool::new(false));
        let raise = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(10));
            raise.store(true, Ordering::Relaxed);
        });
        // The prover's turn to 50: 30 more, and it keeps them.
        assert_eq!(pool.take(0, &turn(50, false), &stop), Some(30));
        // Another attempt takes the 50 left, and gives them back.
        assert_eq!(pool.take(1, &other(50), &stop), Some(50));
        pool.give_back(50);
        // The last turn, the whole 100, with the turn to 50 still running:
        // 50 more, which are free.
        assert_eq!(pool.take(2, &turn(100, true), &stop), Some(50));
        assert!(!stop.load(Ordering::Relaxed), "the takes waited");
        let room = lock(&pool.state);
        assert_eq!((room.free, room.next, room.prover), (0, 3, 100));
    }
}

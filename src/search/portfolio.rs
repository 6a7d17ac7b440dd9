//! The portfolio: one ordering can be lost on a deal that another solves
//! at once, so [`run`] tries the orderings of [`PORTFOLIO`] in turn, each
//! with a small budget of stored positions, then budgets
//! [`BUDGET_GROWTH`] times larger, until the last round gives the first
//! ordering the whole `--max-states`. Hard deals are hard for one
//! ordering, rarely for all (the README's Search section has the figures).
//!
//! Every attempt keeps all positions it meets, so an attempt that exhausts
//! its frontier is a proof whatever its ordering: the set of positions
//! reached does not depend on the order they are expanded in.
//!
//! # The prover
//!
//! A deal no play wins is decided only by an attempt that stores every
//! position, and every attempt of every round before that one fails: with
//! each ordering starting afresh, FreeCell 945350 (2.1 M positions) took
//! 26.5 M expansions over 61 attempts, 12 times its space. So the last
//! round's ordering is not started afresh: it is the *prover*, one attempt
//! that keeps its visited set and frontier from round to round and goes on
//! where it stopped, ahead of the others (after the first round, each of
//! its turns raises its budget to [`PROVER_AHEAD`] times the round's). A
//! proof then costs the space once, plus the other orderings' rounds below
//! a sixteenth of it; a deal another ordering solves pays the prover's
//! turns on top, which the measurements behind [`PROVER_AHEAD`] found
//! more than repaid by the deals the prover solves or proves sooner.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::attempt::AnyAttempt;
use super::order::{Dive, Kind, Order, Queue};
use super::{Limit, Limits, Outcome, Progress, Report, Stats, attempt, parallel};
use crate::deal::Deal;
use crate::rules::Rules;
use crate::state::State;

/// The orderings tried in turn, each with the reason it is here. The
/// bucket orderings were picked on the Baker's Dozen deals of 1..300 the
/// first leaves unsolved; the depth-first ones on those of 1..1000 that
/// the buckets leave undecided; the split ones (see [`super::split`]) on
/// the 217 of 1..1000 that ordering 0 takes more than 15 000 expansions
/// to decide, where most searches lose themselves below one of the first
/// moves: within 100 000 positions each, 1, 3, 6 and 9 decide 201 to 204
/// of them, and ordering 0 without the split 72. They take turns so that
/// a round reaches the depth-first and split ones early.
pub(super) const PORTFOLIO: [Order; 19] = [
    // 0: short solutions (a point per move).
    Order::FIRST,
    // 1: 0, split two moves deep; the last round's ordering.
    Order {
        split: 2,
        ..Order::FIRST
    },
    // 2: depth-first, fewest cards up (with 5, 8, 11): for what buckets miss.
    Order {
        next_blockers: 2,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 3: 4, split two moves deep: solves bd.562 within 40 000 positions.
    Order {
        split: 2,
        ..BLOCKERS_NEWEST_FIRST
    },
    // 4: blockers alone, newest first: the one that solves bd.192 fastest.
    BLOCKERS_NEWEST_FIRST,
    // 5: depth-first, fewest cards up, on any-suit inversions.
    Order {
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 6: 7, split two moves deep.
    Order {
        split: 2,
        ..INVERSIONS
    },
    // 7: inversions of both kinds, no blockers: the one that solves bd.428.
    INVERSIONS,
    // 8: depth-first, fewest cards up, on 7's weights.
    Order {
        next_blockers: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 9: 12, split two moves deep.
    Order {
        split: 2,
        ..BLOCKERS
    },
    // 10: any-suit inversions alone, newest first (15 is its twin).
    Order {
        next_blockers: 0,
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::Buckets(Queue::Lifo),
        ..Order::BASE
    },
    // 11: depth-first, fewest cards up, on the base weights.
    Order {
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 12: next-card blockers alone, oldest first (4 is its twin).
    BLOCKERS,
    // 13: own-suit inversions alone.
    Order {
        next_blockers: 0,
        ..Order::BASE
    },
    // 14: the base weights, newest first (0 without depth is its twin).
    Order {
        kind: Kind::Buckets(Queue::Lifo),
        ..Order::BASE
    },
    // 15: any-suit inversions alone, oldest first.
    Order {
        next_blockers: 0,
        own_suit_inversions: 0,
        any_inversions: 1,
        ..Order::BASE
    },
    // 16: depth-first, most cards up (with 17, 18): for what 2-15 miss.
    Order {
        next_blockers: 2,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::MostCards),
        ..Order::BASE
    },
    // 17: depth-first, most cards up: the one that solves bd.848.
    Order {
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::MostCards),
        ..Order::BASE
    },
    // 18: depth-first, most cards in the way first: solves bd.532 at once.
    Order {
        next_blockers: 0,
        kind: Kind::DepthFirst(Dive::FewestCardsMostInTheWay),
        ..Order::BASE
    },
];

/// The ordering of the last round, which may store `--max-states`
/// positions: of the 217 hardest Baker's Dozen deals of 1..1000, within
/// 2 M positions, ordering 0 leaves 78 undecided and this one 4.
const LAST_ROUND: usize = 1;

/// Next-card blockers alone, newest first.
const BLOCKERS_NEWEST_FIRST: Order = Order {
    own_suit_inversions: 0,
    kind: Kind::Buckets(Queue::Lifo),
    ..Order::BASE
};

/// Inversions of both kinds, no blockers.
const INVERSIONS: Order = Order {
    next_blockers: 0,
    any_inversions: 1,
    ..Order::BASE
};

/// Next-card blockers alone, oldest first.
const BLOCKERS: Order = Order {
    own_suit_inversions: 0,
    ..Order::BASE
};

/// The beam attempt of the split games (see [`super::beam`]): own-suit
/// inversions as the tie-break inside a layer's score.
pub(super) const BEAM: Order = Order {
    next_blockers: 0,
    kind: Kind::Beam,
    ..Order::BASE
};

/// The round whose end brings the beam's turn, by its budget, and the
/// beam's budget: one beam per search, 200 000 wide (see
/// [`super::beam`]), after the second round, where the orderings have
/// failed on a deal for good (no deal of Baker's Dozen 1..1000 goes past
/// it, so those searches are unchanged). A beam's turn does not grow from
/// round to round as the others' do: wider beams cost more than the
/// rounds they delay (bd.2570, solved by the fourth round's orderings in
/// 7 s, took 22 s behind beams of 320 000 and 700 000).
const BEAM_AFTER: u64 = 80_000;
pub(super) const BEAM_BUDGET: u64 = 200_000 * super::beam::STORED_PER_WIDTH;

/// How often a thread waiting for the prover looks at the stop flag.
const WAIT: Duration = Duration::from_millis(20);

/// Positions the first round may store per ordering.
const FIRST_BUDGET: u64 = 20_000;
/// How much larger each round's budget is than the last. Baker's Dozen
/// 1..1000 with 10 s per deal: 991 decided with 4, 989 with 8 (the rounds
/// of 8 grow past 10 s before the later orderings get their turn).
const BUDGET_GROWTH: u64 = 4;

/// How much larger than the round's budget the prover's is, after the
/// first round: two rounds ahead. Measured with one thread against one
/// round ahead (4) and against starting afresh each round: FreeCell
/// 376548, whose 11 M positions no play wins, 33 M expansions with 4 and
/// 15.6 M with 16 (8 s, so decided within the default 10 s); the 15
/// FreeCell deals of 1..1000000 the old schedule left undecided at 10 s,
/// 35 s of CPU with 4, 28 s with 16; Baker's Dozen 1..1000, 16.4 M
/// expansions afresh, 13.1 M with 4, 11.7 M with 16 (bd.562 2.27 M, 0.63 M
/// with 16); FreeCell 1..3000 and Seahaven 1..1000 the same within 2%.
const PROVER_AHEAD: u64 = BUDGET_GROWTH * BUDGET_GROWTH;

/// One attempt of the portfolio's plan: an ordering and its budget.
#[derive(Clone, Copy, Debug)]
pub(super) struct Planned {
    pub(super) order: &'static Order,
    /// Positions it may store.
    pub(super) budget: u64,
    /// The last round: its budget is the user's `--max-states`, so a
    /// stop at the budget is the user's limit, not the plan's.
    pub(super) last: bool,
    /// The prover's turn: go on with it up to `budget` positions held.
    pub(super) resume: bool,
}

/// The attempts in the order the portfolio tries them: each round every
/// ordering with the round's budget, the prover two rounds ahead, until the
/// prover's budget reaches `--max-states`: that turn is the last, and the
/// rounds are over.
///
/// The split orderings are for the games where a card only goes onto a
/// higher one (Baker's Dozen, Midnight Oil), whose lost subtrees they
/// escape. Elsewhere they cost more than they save: on FreeCell and
/// Seahaven 1..1000 they added 13% and 6% to the positions expanded in all
/// (of the 81 and 21 deals that took over 20 000, 25 and 9 were faster).
/// There the schedule is the one before them, with ordering 0 as the
/// prover.
///
/// The prover takes the first turn of the first round (ordering 0 decides
/// most deals within it) and the second turn of every later round, where
/// its turn costs sixteen of the others': a solution the round's first
/// ordering finds at the round's budget comes before it. In the split
/// games that is the order of [`PORTFOLIO`]; elsewhere the depth-first
/// ordering 2 goes first from the second round on. Measured with one
/// thread on the 107 FreeCell deals of 1..1000000 that took over 0.3 s
/// (`survey --foundation both`): 226 M expansions in all with the prover
/// first, 184 M second; FreeCell 228606, 20.0 M (9.2 s) → 11.5 M (4.7 s),
/// found by ordering 2 in 590 000 positions; FreeCell 1..3000 and Baker's
/// Dozen 1..1000 the same, Seahaven 1..1000 2.5% more.
#[derive(Clone)]
pub(super) struct Schedule {
    max_states: u64,
    /// The orderings of a round, in turn order: the first `orderings` of
    /// them.
    round: [usize; PORTFOLIO.len()],
    orderings: usize,
    /// The prover's ordering: the last round's of the old schedule, which
    /// stores everything when nothing else decides.
    prover: usize,
    budget: u64,
    /// The next turn of the round under way.
    next: usize,
    /// The positions the prover may hold after its last turn: the others
    /// share what is left of `max_states`.
    held: u64,
    /// The prover's last turn was handed out.
    done: bool,
    /// Whether beams take turns: in the split games.
    beams: bool,
    /// The beam's turn comes next: a round of [`BEAM_AFTER`] just ended.
    beam_due: bool,
}

impl Schedule {
    /// The schedule of a search of a deal of `rules` under `--max-states`
    /// `max_states`; with `prover_alone` (see [`Limits::prover_alone`]), the
    /// prover's one turn with the whole budget.
    pub(super) fn new(max_states: u64, rules: &Rules, prover_alone: bool) -> Schedule {
        let split = rules.only_onto_higher();
        let mut round = [0; PORTFOLIO.len()];
        let mut orderings = 0;
        for (i, order) in PORTFOLIO.iter().enumerate() {
            if split || order.split == 0 {
                round[orderings] = i;
                orderings += 1;
            }
        }
        Schedule {
            max_states,
            round,
            orderings,
            prover: if split { LAST_ROUND } else { 0 },
            budget: if prover_alone {
                max_states
            } else {
                FIRST_BUDGET
            },
            next: 0,
            held: 0,
            done: false,
            beams: split,
            beam_due: false,
        }
    }
}

impl Iterator for Schedule {
    type Item = Planned;

    fn next(&mut self) -> Option<Planned> {
        if self.done {
            return None;
        }
        if std::mem::take(&mut self.beam_due) {
            let budget = BEAM_BUDGET.min(self.max_states - self.held);
            if budget >= FIRST_BUDGET {
                return Some(Planned {
                    order: &BEAM,
                    budget,
                    last: false,
                    resume: false,
                });
            }
        }
        let prover = &PORTFOLIO[self.prover];
        if self.budget >= self.max_states {
            // No round fits below the user's limit: the prover alone.
            self.done = true;
            return Some(Planned {
                order: prover,
                budget: self.max_states,
                last: true,
                resume: true,
            });
        }
        let ordering = self.round[self.next];
        if ordering != self.prover {
            let planned = Planned {
                order: &PORTFOLIO[ordering],
                budget: self.budget.min(self.max_states - self.held),
                last: false,
                resume: false,
            };
            self.turn();
            return Some(planned);
        }
        // The first round as it always was; after it, two rounds ahead.
        let ahead = if self.budget == FIRST_BUDGET {
            self.budget
        } else {
            self.budget.saturating_mul(PROVER_AHEAD)
        };
        let last = ahead >= self.max_states;
        self.held = ahead.min(self.max_states);
        let planned = Planned {
            order: prover,
            budget: self.held,
            last,
            resume: true,
        };
        if last {
            self.done = true;
        } else {
            self.turn();
        }
        Some(planned)
    }
}

impl Schedule {
    /// Moves on to the round's next turn, and to the next round after its
    /// last, where the prover goes second.
    fn turn(&mut self) {
        self.next += 1;
        if self.next == self.orderings {
            self.beam_due = self.beams && self.budget == BEAM_AFTER;
            self.next = 0;
            self.budget = self.budget.saturating_mul(BUDGET_GROWTH);
            if self.round[0] == self.prover {
                self.round.swap(0, 1);
            }
        }
    }
}

/// The prover between its turns, shared by the threads of a search.
pub(super) struct Prover<'a> {
    slot: Mutex<Slot<'a>>,
    /// Told when the prover's turn ends, for a thread that waits for it.
    idle: Condvar,
    /// The budget of its last turn: positions it may hold between turns.
    held: AtomicU64,
}

// One per search, held in place: boxing the attempt would be an allocation
// that aborts the process when memory runs out, where running out must be
// an outcome (`Limit::Memory`).
#[allow(clippy::large_enum_variant)]
enum Slot<'a> {
    /// Not begun.
    Unborn,
    /// Between turns.
    Idle(AnyAttempt<'a>),
    /// A thread has it; the other threads skip its turns meanwhile.
    Busy,
}

impl<'a> Prover<'a> {
    pub(super) fn new() -> Prover<'a> {
        Prover {
            slot: Mutex::new(Slot::Unborn),
            idle: Condvar::new(),
            held: AtomicU64::new(0),
        }
    }

    /// Positions it may hold between its turns.
    pub(super) fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    /// Runs the prover's turn: under `limits`, begun with `order` from
    /// `root` the first time. When another thread has it: `None`, or for
    /// the `last` turn, once that thread is done (`None` if the search is
    /// stopped meanwhile). The last turn's budget is final: the prover's
    /// table is sized to it.
    pub(super) fn turn(
        &self,
        deal: &Deal,
        root: &'a State,
        order: &Order,
        limits: &Limits,
        last: bool,
        progress: Option<Progress>,
    ) -> Option<Report> {
        let mut slot = lock(&self.slot);
        while last && matches!(*slot, Slot::Busy) {
            if limits.cancelled() {
                return None;
            }
            slot = wait_on(&self.idle, slot, WAIT);
        }
        let taken = std::mem::replace(&mut *slot, Slot::Busy);
        drop(slot);
        let mut prover = match taken {
            Slot::Unborn => attempt::begin(deal, root, limits, order),
            Slot::Idle(prover) => prover,
            Slot::Busy => return None,
        };
        if last {
            prover.last_turn(limits.max_states);
        }
        let report = prover.resume(limits.clone(), progress);
        self.held.fetch_max(limits.max_states, Ordering::Relaxed);
        *lock(&self.slot) = Slot::Idle(prover);
        self.idle.notify_all();
        Some(report)
    }
}

/// A poisoned lock only means a thread panicked, and the panic reaches the
/// caller when the scope joins it: what it guards is still good to read.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Waits until `condvar` is told or `timeout` is over, whichever comes
/// first; a poisoned lock as in [`lock`].
pub(super) fn wait_on<'g, T>(
    condvar: &Condvar,
    guard: MutexGuard<'g, T>,
    timeout: Duration,
) -> MutexGuard<'g, T> {
    condvar
        .wait_timeout(guard, timeout)
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .0
}

/// What a finished attempt means for the search: go on with the next one,
/// or this is how the search ends.
pub(super) fn verdict(
    planned: &Planned,
    report: &Report,
    limits: &Limits,
    elapsed: Duration,
) -> Option<Outcome> {
    match &report.outcome {
        // An attempt's own budget is the portfolio's, not a limit the user
        // set: go on, or, when the time ran out as it was met, say the time
        // stopped the search. Only the budget is worth raising: a --diff
        // cut stays a cut.
        Outcome::GaveUp(Limit::States) if !planned.last => {
            if limits.cancelled() {
                Some(Outcome::GaveUp(Limit::Cancelled))
            } else if limits.timeout.is_some_and(|t| elapsed >= t) {
                Some(Outcome::GaveUp(Limit::Time))
            } else {
                None
            }
        }
        outcome => Some(outcome.clone()),
    }
}

/// The limits of one planned attempt: its budget, the time left, and
/// `cancel` as the flag that stops it.
pub(super) fn attempt_limits(
    planned: &Planned,
    limits: &Limits,
    elapsed: Duration,
    cancel: Option<Arc<AtomicBool>>,
) -> Limits {
    Limits {
        max_states: planned.budget,
        timeout: limits.timeout.map(|t| t.saturating_sub(elapsed)),
        diff: limits.diff,
        cancel,
        jobs: 1,
        length: limits.length,
        prover_alone: false,
    }
}

/// Searches the deal with the portfolio's attempts until one decides it
/// or a limit of the user's stops the search: one attempt after another,
/// or, with `--jobs` above 1, the first alone and the rest on
/// [`parallel::run`]'s threads. Most deals end within the first attempt,
/// where a second thread would only double the CPU time and, on a busy
/// machine, the wall time too.
pub(super) fn run(
    deal: &Deal,
    root: &State,
    limits: &Limits,
    progress: Option<Progress>,
) -> Report {
    let start = Instant::now();
    let prover = Prover::new();
    let mut search = Portfolio {
        start,
        last_shown: start,
        progress,
        total: Stats::default(),
        prover: &prover,
    };
    let mut schedule =
        Schedule::new(limits.max_states, deal.id.rules, limits.prover_alone).enumerate();
    if limits.jobs > 1 {
        if let Some((_, planned)) = schedule.next()
            && let Some(outcome) = search.plan(deal, root, limits, &planned)
        {
            return search.report(outcome);
        }
        let mut threads = parallel::Threads {
            schedule,
            finished: search.total.clone(),
            start,
            prover: &prover,
        };
        if let Some(report) = parallel::run(deal, root, limits, &mut search.progress, &mut threads)
        {
            return report;
        }
        // No thread could be started: on with the same schedule here.
        schedule = threads.schedule;
    }
    for (_, planned) in schedule {
        if let Some(outcome) = search.plan(deal, root, limits, &planned) {
            return search.report(outcome);
        }
    }
    unreachable!("the schedule ends with an attempt that decides")
}

/// A search under way: the figures of the attempts so far, and where its
/// progress goes.
struct Portfolio<'p, 'r, 'a> {
    start: Instant,
    /// When progress was last shown: about once a second across attempts,
    /// most of which are over in well under a second.
    last_shown: Instant,
    progress: Option<Progress<'p>>,
    total: Stats,
    prover: &'r Prover<'a>,
}

impl<'a> Portfolio<'_, '_, 'a> {
    /// Runs one planned attempt: how the search ends, or `None` to go on.
    fn plan(
        &mut self,
        deal: &Deal,
        root: &'a State,
        limits: &Limits,
        planned: &Planned,
    ) -> Option<Outcome> {
        let attempt = attempt_limits(planned, limits, self.start.elapsed(), limits.cancel.clone());
        let prover = self.prover;
        let report = self.attempt(|progress| {
            if planned.resume {
                prover
                    .turn(deal, root, planned.order, &attempt, planned.last, progress)
                    .expect("one thread: the prover is never busy")
            } else {
                attempt::run(deal, root, &attempt, planned.order, progress)
            }
        });
        verdict(planned, &report, limits, self.total.elapsed)
    }

    /// Runs one attempt and adds its figures to the total.
    fn attempt(&mut self, run: impl FnOnce(Option<Progress>) -> Report) -> Report {
        let report = match self.progress.as_mut() {
            Some(show) => {
                let (start, total) = (self.start, &self.total);
                let last_shown = &mut self.last_shown;
                let mut forward = |attempt: &Stats| {
                    let now = Instant::now();
                    if now - *last_shown >= Duration::from_secs(1) {
                        *last_shown = now;
                        show(&so_far(total, attempt, now - start));
                    }
                };
                run(Some(&mut forward))
            }
            None => run(None),
        };
        add_finished(&mut self.total, &report.stats);
        self.total.elapsed = self.start.elapsed();
        report
    }

    fn report(self, outcome: Outcome) -> Report {
        Report {
            outcome,
            stats: self.total,
        }
    }
}

/// The figures of the whole search while `attempt` is under way.
pub(super) fn so_far(total: &Stats, attempt: &Stats, elapsed: Duration) -> Stats {
    Stats {
        stored: total.stored + attempt.stored,
        stored_now: attempt.stored_now,
        peak_stored: total.peak_stored.max(attempt.stored_now),
        expanded: total.expanded + attempt.expanded,
        frontier: attempt.frontier,
        best_score: total.best_score.max(attempt.best_score),
        elapsed,
        attempts: total.attempts + 1,
    }
}

/// Adds the figures of a finished attempt to the total (all but the time).
pub(super) fn add_finished(total: &mut Stats, attempt: &Stats) {
    total.stored += attempt.stored;
    total.stored_now = attempt.stored_now;
    total.peak_stored = total.peak_stored.max(attempt.peak_stored);
    total.expanded += attempt.expanded;
    total.frontier = attempt.frontier;
    total.best_score = total.best_score.max(attempt.best_score);
    total.attempts += 1;
}

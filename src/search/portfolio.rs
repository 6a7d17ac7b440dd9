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

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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

/// Positions the first round may store per ordering.
const FIRST_BUDGET: u64 = 20_000;
/// How much larger each round's budget is than the last. Baker's Dozen
/// 1..1000 with 10 s per deal: 991 decided with 4, 989 with 8 (the rounds
/// of 8 grow past 10 s before the later orderings get their turn).
const BUDGET_GROWTH: u64 = 4;

/// One attempt of the portfolio's plan: an ordering and its budget.
#[derive(Clone, Copy, Debug)]
pub(super) struct Planned {
    pub(super) order: &'static Order,
    /// Positions it may store.
    pub(super) budget: u64,
    /// The last round: its budget is the user's `--max-states`, so a
    /// stop at the budget is the user's limit, not the plan's.
    pub(super) last: bool,
}

/// The attempts in the order the portfolio tries them: each round every
/// ordering with the round's budget, until the budget reaches
/// `--max-states`, where [`LAST_ROUND`]'s ordering alone gets it all.
///
/// The split orderings are for the games where a card only goes onto a
/// higher one (Baker's Dozen, Midnight Oil), whose lost subtrees they
/// escape. Elsewhere they cost more than they save: on FreeCell and
/// Seahaven 1..1000 they added 13% and 6% to the positions expanded in all
/// (of the 81 and 21 deals that took over 20 000, 25 and 9 were faster).
/// There the schedule is the one before them, with ordering 0 for the
/// last round.
#[derive(Clone)]
pub(super) struct Schedule {
    max_states: u64,
    /// Whether the split orderings take their turns.
    split: bool,
    budget: u64,
    /// The next ordering of the round under way.
    next: usize,
    /// The last round's one attempt was handed out.
    done: bool,
}

impl Schedule {
    pub(super) fn new(max_states: u64, rules: &Rules) -> Schedule {
        Schedule {
            max_states,
            split: rules.only_onto_higher(),
            budget: FIRST_BUDGET,
            next: 0,
            done: false,
        }
    }
}

impl Iterator for Schedule {
    type Item = Planned;

    fn next(&mut self) -> Option<Planned> {
        if self.done {
            return None;
        }
        let last = self.budget >= self.max_states;
        let order = match (last, self.split) {
            (true, true) => &PORTFOLIO[LAST_ROUND],
            (true, false) => &PORTFOLIO[0],
            (false, _) => &PORTFOLIO[self.next],
        };
        let planned = Planned {
            order,
            budget: self.budget.min(self.max_states),
            last,
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
    /// Moves on to the next ordering that takes its turn, and to the next
    /// round after the last one.
    fn turn(&mut self) {
        loop {
            self.next += 1;
            if self.next == PORTFOLIO.len() {
                self.next = 0;
                self.budget = self.budget.saturating_mul(BUDGET_GROWTH);
            }
            if self.split || PORTFOLIO[self.next].split == 0 {
                return;
            }
        }
    }
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
        Outcome::GaveUp(_) if !planned.last && report.stats.stored >= planned.budget => {
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
    let mut search = Portfolio {
        start,
        last_shown: start,
        progress,
        total: Stats::default(),
    };
    let mut schedule = Schedule::new(limits.max_states, deal.id.rules).enumerate();
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
struct Portfolio<'p> {
    start: Instant,
    /// When progress was last shown: about once a second across attempts,
    /// most of which are over in well under a second.
    last_shown: Instant,
    progress: Option<Progress<'p>>,
    total: Stats,
}

impl Portfolio<'_> {
    /// Runs one planned attempt: how the search ends, or `None` to go on.
    fn plan(
        &mut self,
        deal: &Deal,
        root: &State,
        limits: &Limits,
        planned: &Planned,
    ) -> Option<Outcome> {
        let attempt = attempt_limits(planned, limits, self.start.elapsed(), limits.cancel.clone());
        let report = self.attempt(deal, root, &attempt, planned.order);
        verdict(planned, &report, limits, self.total.elapsed)
    }

    /// Runs one attempt and adds its figures to the total.
    fn attempt(&mut self, deal: &Deal, root: &State, limits: &Limits, order: &Order) -> Report {
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
                attempt::run(deal, root, limits, order, Some(&mut forward))
            }
            None => attempt::run(deal, root, limits, order, None),
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

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

use std::time::{Duration, Instant};

use super::order::{Dive, Kind, Order, Queue};
use super::{Limit, Limits, Outcome, Progress, Report, Stats, attempt};
use crate::deal::Deal;
use crate::state::State;

/// The orderings tried in turn, each with the reason it is here. The
/// bucket orderings were picked on the Baker's Dozen deals of 1..300 the
/// first leaves unsolved; the depth-first ones on those of 1..1000 that
/// the buckets leave undecided. They take turns so that a round reaches
/// the depth-first ones early.
pub(super) const PORTFOLIO: [Order; 15] = [
    // 0: short solutions (a point per move); the last round's ordering.
    Order::FIRST,
    // 1: depth-first, fewest cards up (with 3, 5, 7): for what buckets miss.
    Order {
        next_blockers: 2,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 2: blockers alone, newest first: the one that solves bd.192 fastest.
    Order {
        own_suit_inversions: 0,
        kind: Kind::Buckets(Queue::Lifo),
        ..Order::BASE
    },
    // 3: depth-first, fewest cards up, on any-suit inversions.
    Order {
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 4: inversions of both kinds, no blockers: the one that solves bd.428.
    Order {
        next_blockers: 0,
        any_inversions: 1,
        ..Order::BASE
    },
    // 5: depth-first, fewest cards up, on 4's weights.
    Order {
        next_blockers: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 6: any-suit inversions alone, newest first (11 is its twin).
    Order {
        next_blockers: 0,
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::Buckets(Queue::Lifo),
        ..Order::BASE
    },
    // 7: depth-first, fewest cards up, on the base weights.
    Order {
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 8: next-card blockers alone, oldest first (2 is its twin).
    Order {
        own_suit_inversions: 0,
        ..Order::BASE
    },
    // 9: own-suit inversions alone.
    Order {
        next_blockers: 0,
        ..Order::BASE
    },
    // 10: the base weights, newest first (0 without depth is its twin).
    Order {
        kind: Kind::Buckets(Queue::Lifo),
        ..Order::BASE
    },
    // 11: any-suit inversions alone, oldest first.
    Order {
        next_blockers: 0,
        own_suit_inversions: 0,
        any_inversions: 1,
        ..Order::BASE
    },
    // 12: depth-first, most cards up (with 13, 14): for what 1-11 miss.
    Order {
        next_blockers: 2,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::MostCards),
        ..Order::BASE
    },
    // 13: depth-first, most cards up: the one that solves bd.848.
    Order {
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::MostCards),
        ..Order::BASE
    },
    // 14: depth-first, most cards in the way first: solves bd.532 at once.
    Order {
        next_blockers: 0,
        kind: Kind::DepthFirst(Dive::FewestCardsMostInTheWay),
        ..Order::BASE
    },
];

/// Positions the first round may store per ordering.
const FIRST_BUDGET: u64 = 20_000;
/// How much larger each round's budget is than the last. Baker's Dozen
/// 1..1000 with 10 s per deal: 991 decided with 4, 989 with 8 (the rounds
/// of 8 grow past 10 s before the later orderings get their turn).
const BUDGET_GROWTH: u64 = 4;

/// Searches the deal with the portfolio's attempts until one decides it
/// or a limit of the user's stops the search.
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
    let mut budget = FIRST_BUDGET;
    loop {
        let last_round = budget >= limits.max_states;
        let orders = if last_round {
            &PORTFOLIO[..1]
        } else {
            &PORTFOLIO[..]
        };
        for order in orders {
            let attempt = Limits {
                max_states: budget.min(limits.max_states),
                timeout: limits.timeout.map(|t| t.saturating_sub(start.elapsed())),
                ..limits.clone()
            };
            let report = search.attempt(deal, root, &attempt, order);
            match report.outcome {
                // An attempt's own budget is the portfolio's, not a limit
                // the user set: raise it, or, when the time ran out as it
                // was met, say the time stopped the search. Only the budget
                // is worth raising: a --diff cut stays a cut.
                Outcome::GaveUp(_) if !last_round && report.stats.stored >= attempt.max_states => {
                    if limits.cancelled() {
                        return search.report(Outcome::GaveUp(Limit::Cancelled));
                    }
                    if limits.timeout.is_some_and(|t| search.total.elapsed >= t) {
                        return search.report(Outcome::GaveUp(Limit::Time));
                    }
                }
                outcome => return search.report(outcome),
            }
        }
        budget = budget.saturating_mul(BUDGET_GROWTH);
    }
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
fn so_far(total: &Stats, attempt: &Stats, elapsed: Duration) -> Stats {
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
fn add_finished(total: &mut Stats, attempt: &Stats) {
    total.stored += attempt.stored;
    total.stored_now = attempt.stored_now;
    total.peak_stored = total.peak_stored.max(attempt.peak_stored);
    total.expanded += attempt.expanded;
    total.frontier = attempt.frontier;
    total.best_score = total.best_score.max(attempt.best_score);
    total.attempts += 1;
}

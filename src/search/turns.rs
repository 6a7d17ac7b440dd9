//! One turn of the portfolio, whichever thread runs it: the limits of a
//! planned attempt, what its end means for the search, and the figures
//! summed over the attempts.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::schedule::Planned;
use super::{Limit, Limits, Outcome, Report, Stats};

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
        forced_searched: limits.forced_searched,
        pairs: limits.pairs,
        rollouts: limits.rollouts,
        suitless: limits.suitless,
        // One file, one writer: the portfolio's, not each attempt's.
        suitless_checkpoint: None,
        suitless_checkpoint_every: limits.suitless_checkpoint_every,
        suitless_checkpoint_most: limits.suitless_checkpoint_most,
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
        suitless: total.suitless,
        followed: total.followed,
        proven_by_test: total.proven_by_test,
        unsaved: None,
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

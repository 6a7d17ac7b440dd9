//! The portfolio: in FreeCell and Seahaven the fast pass ([`super::fast`])
//! goes first, and the portfolio searches only the deals it leaves. One
//! ordering can be lost on a deal that another solves
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

use std::time::{Duration, Instant};

use super::prover::Prover;
use super::schedule::{Planned, Schedule};
use super::turns::{add_finished, attempt_limits, so_far, verdict};
use super::{Limit, Limits, Outcome, Progress, Report, Stats, attempt, fast, parallel, rollouts};
use crate::deal::Deal;
use crate::state::{Move, State};

/// Searches the deal with the portfolio's attempts ([`attempts`]); a
/// deal most likely lost (`prover_alone`) whose prover stopped at
/// `--max-states` with time left is then asked the games with cards
/// followed (`super::lost_with_cards_followed`). Why last: asked first,
/// they cost the free searches of the deals forcing loses, won, up to
/// 5 s each at `--timeout 10` (bd.3118: 0.13 → 5.04 s), every followed
/// game of a won deal winning or stopping; and the prover's one turn has
/// the whole budget, so there is no between.
pub(super) fn run(
    deal: &Deal,
    root: &State,
    limits: &Limits,
    progress: Option<Progress>,
) -> Report {
    let start = Instant::now();
    let report = attempts(deal, root, limits, progress);
    if limits.prover_alone && matches!(report.outcome, Outcome::GaveUp(Limit::States)) {
        let proof = super::lost_with_cards_followed(root, limits, start, &report.stats);
        return proof.unwrap_or(report);
    }
    report
}

/// Searches the deal with the portfolio's attempts until one decides it
/// or a limit of the user's stops the search: one attempt after another,
/// or, with `--jobs` above 1, the first alone and the rest on
/// [`parallel::run`]'s threads. Most deals end within the first attempt,
/// where a second thread would only double the CPU time and, on a busy
/// machine, the wall time too.
fn attempts(deal: &Deal, root: &State, limits: &Limits, progress: Option<Progress>) -> Report {
    let start = Instant::now();
    let prover = Prover::new();
    let mut search = Portfolio {
        start,
        last_shown: start,
        progress,
        total: Stats::default(),
        prover: &prover,
    };
    // The prover alone is asked for a deal most likely lost: no pass.
    if fast::applies(root)
        && !limits.prover_alone
        && let Some(moves) = fast::run(deal, root, limits, &mut search.total)
    {
        search.total.elapsed = start.elapsed();
        return search.report(Outcome::Solved(moves));
    }
    // The triple test costs tens of milliseconds, the suitless game up to
    // seconds: a deal most likely lost has them before any attempt, others once the attempts have expanded
    // `TRIPLES_AFTER` positions (one deal of Baker's Dozen 1..1000 gets
    // that far), or before the threads start: a search on several threads
    // is one long search.
    if limits.prover_alone
        && let Some(report) =
            super::lost_by_triples(root, limits, start, &search.total).or_else(|| {
                let progress = search.progress.as_mut().map(|p| &mut **p as _);
                super::lost_in_suitless_game(root, limits, start, &search.total, progress)
            })
    {
        return report;
    }
    let mut schedule =
        Schedule::new(limits.max_states, deal.id.rules, limits.prover_alone).enumerate();
    let mut triples_asked = limits.prover_alone;
    if limits.jobs > 1 {
        if let Some((_, planned)) = schedule.next()
            && let Some(outcome) = search.plan(deal, root, limits, &planned)
        {
            return search.report(outcome);
        }
        if !triples_asked && let Some(report) = search.about_to_be_long(deal, root, limits) {
            return report;
        }
        triples_asked = true;
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
        if !triples_asked && search.total.expanded >= TRIPLES_AFTER {
            triples_asked = true;
            if let Some(report) = search.about_to_be_long(deal, root, limits) {
                return report;
            }
        }
    }
    unreachable!("the schedule ends with an attempt that decides")
}

/// Positions the attempts expand before the triple test is asked, and,
/// in Baker's Dozen, nested rollouts are given their share.
const TRIPLES_AFTER: u64 = 500_000;

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

    /// What a search about to be long asks first, in Baker's Dozen: the
    /// triple test, nested rollouts, then the suitless game (after the
    /// rollouts, which win most of the won deals that get there); the
    /// search's end if one of them decides.
    fn about_to_be_long(&mut self, deal: &Deal, root: &State, limits: &Limits) -> Option<Report> {
        if let Some(report) = super::lost_by_triples(root, limits, self.start, &self.total) {
            return Some(report);
        }
        if let Some(moves) = self.roll(deal, root, limits) {
            return Some(Report {
                outcome: Outcome::Solved(moves),
                stats: self.total.clone(),
            });
        }
        let progress = self.progress.as_mut().map(|p| &mut **p as _);
        super::lost_in_suitless_game(root, limits, self.start, &self.total, progress)
    }

    /// Nested rollouts (`rollouts.rs`) for half the time left, in
    /// Baker's Dozen, where the search is about to be long (the triple
    /// test asked and passed): their solution, if they win. Why: on the
    /// tail's deals they win within seconds what the attempts, which
    /// store every position, leave undecided at the limit
    /// (docs/hard-deals.md, twenty-first session).
    fn roll(&mut self, deal: &Deal, root: &State, limits: &Limits) -> Option<Vec<Move>> {
        let (start, total) = (self.start, &self.total);
        let found = match self.progress.as_mut() {
            Some(show) => {
                let mut forward = |rolled: &Stats| {
                    let mut so_far = total.clone();
                    so_far.expanded += rolled.expanded;
                    so_far.best_score = so_far.best_score.max(rolled.best_score);
                    so_far.elapsed = start.elapsed();
                    show(&so_far);
                };
                rollouts::for_half_the_time(deal, root, limits, start, Some(&mut forward))
            }
            None => rollouts::for_half_the_time(deal, root, limits, start, None),
        }?;
        self.total.expanded += found.expanded;
        self.total.best_score = self.total.best_score.max(found.best_score);
        self.total.elapsed = self.start.elapsed();
        found.moves
    }

    fn report(self, outcome: Outcome) -> Report {
        Report {
            outcome,
            stats: self.total,
        }
    }
}

//! `--jobs`: the portfolio on threads decides as on one, within the one
//! state limit, stops when asked; and under free foundation rules too.

use super::super::schedule::PORTFOLIO;
use super::super::{Limit, Limits, Outcome, search};
use crate::check::{Verdict, replay_moves};
use crate::deal::test_deal as deal;
use crate::foundation::Foundation;

/// With threads, a solution still replays, a proof is still a proof, a
/// limit still proves nothing, and every attempt is counted.
#[test]
fn threads_decide_as_one_thread_does() {
    let two = |max_states| Limits {
        jobs: 2,
        max_states,
        ..Limits::default()
    };
    for (game, seed) in [("bd", 64), ("fc", 4), ("st", 8)] {
        let d = deal(game, seed);
        let report = search(&d, &two(Limits::default().max_states), None);
        let Outcome::Solved(moves) = report.outcome else {
            panic!("{game}.{seed}: {:?}", report.outcome);
        };
        assert!(matches!(replay_moves(&d, &moves), Verdict::Won { .. }));
        assert!(report.stats.expanded > 0 && report.stats.attempts >= 1);
    }
    let d = deal("mo", 1);
    let proof = search(&d, &two(Limits::default().max_states), None);
    assert_eq!(proof.outcome, Outcome::Insoluble);
    let cut = search(&d, &two(proof.stats.peak_stored / 2), None);
    assert!(matches!(cut.outcome, Outcome::GaveUp(_)), "{cut:?}");
}

/// `--max-states` bounds what all threads hold at once: the attempts of a
/// round run side by side only while their budgets fit in it. (Without
/// the nested rollouts, which would win the deal before the threads.)
#[test]
fn threads_together_stay_within_the_state_limit() {
    let limits = Limits {
        jobs: 4,
        max_states: 100_000,
        rollouts: false,
        ..Limits::default()
    };
    let report = search(&deal("bd", 1797), &limits, None);
    assert_eq!(report.outcome, Outcome::GaveUp(Limit::States));
    let s = &report.stats;
    // An attempt stops once its budget is met, after admitting the children
    // of one expansion: a few positions more each, fewer than 64.
    assert!(s.peak_stored <= limits.max_states + 4 * 64, "{s:?}");
    assert!(s.peak_stored > limits.max_states / 2, "{s:?}");
    // The round of 20 000, then ordering 0 of the round of 80 000, and the
    // prover's last turn (its turn of the second round, 320 000, is over
    // the limit): so the second round's other attempts never ran.
    assert_eq!(s.attempts as usize, PORTFOLIO.len() + 2, "{s:?}");
}

/// A search on threads that reaches the prover's last turn while its
/// turn before is still running ends at the state limit: the last turn
/// waits for the prover and takes only what the earlier turn did not
/// reserve (it used to wait forever for positions the prover never gives
/// back: Baker's Dozen 1649 with `--max-states 3000000` hung). Watched by a
/// clock, so that the old hang fails the test instead of stalling it.
#[test]
fn the_provers_last_turn_runs_after_a_turn_still_running() {
    use std::sync::mpsc;
    use std::time::Duration;
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let limits = Limits {
            jobs: 2,
            max_states: 3_000_000,
            length: super::super::Length::AsFound,
            ..Limits::default()
        };
        let _ = done.send(search(&deal("bd", 1649), &limits, None));
    });
    let report = finished
        .recv_timeout(Duration::from_secs(120))
        .expect("the search ends");
    assert_eq!(report.outcome, Outcome::GaveUp(Limit::States));
    assert!(
        report.stats.peak_stored <= 3_000_000 + 2 * 64,
        "{:?}",
        report.stats
    );
}

/// A search on threads stops when its caller raises the cancel flag.
#[test]
fn a_cancelled_search_on_threads_stops() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(Arc::clone(&flag)),
        jobs: 2,
        ..Limits::default()
    };
    let report = search(&deal("bd", 1797), &limits, None);
    assert_eq!(report.outcome, Outcome::GaveUp(Limit::Cancelled));
    assert!(flag.load(Ordering::Relaxed));
}

/// Free foundation rules change the positions (each plays its safe
/// foundation moves by itself), not the search: on threads, a free
/// solution is written out with every foundation move and wins under free
/// rules.
#[test]
fn threads_solve_under_free_rules() {
    for (game, seed) in [("bd", 64), ("bd", 3118), ("mo", 4), ("fc", 4)] {
        let d = deal(game, seed).with_foundation(Foundation::Free);
        let limits = Limits {
            jobs: 2,
            ..Limits::default()
        };
        let Outcome::Solved(moves) = search(&d, &limits, None).outcome else {
            panic!("{game}.{seed} is solvable under free rules");
        };
        assert!(matches!(replay_moves(&d, &moves), Verdict::Won { .. }));
    }
}

/// The first attempt runs alone: a deal it decides costs with threads
/// what it costs on one, expansion for expansion, with no other attempt
/// started beside it (in FreeCell and Seahaven that attempt is the fast
/// pass's first; in Midnight Oil and Baker's Dozen the portfolio's).
#[test]
fn a_deal_the_first_attempt_decides_starts_no_thread() {
    for (game, seed) in [("fc", 1), ("st", 8), ("mo", 1), ("bd", 2)] {
        let d = deal(game, seed);
        let with = |jobs| {
            let limits = Limits {
                jobs,
                ..Limits::default()
            };
            search(&d, &limits, None)
        };
        let (one, two) = (with(1), with(2));
        assert_eq!(one.stats.attempts, 1, "{game}.{seed}");
        assert_eq!(two.outcome, one.outcome, "{game}.{seed}");
        assert_eq!(two.stats.attempts, 1, "{game}.{seed}");
        assert_eq!(two.stats.expanded, one.stats.expanded, "{game}.{seed}");
    }
}

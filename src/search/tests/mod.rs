//! The search end to end: verdicts against a search without pruning,
//! solutions replayed by `-check`, the portfolio's attempts and progress.

use std::time::Duration;

use super::order::{Kind, Order};
use super::schedule::{BEAM, BEAM_BUDGET, PORTFOLIO};
use super::{Limits, Outcome, Stats, attempt, search, search_from};
use crate::check::{Verdict, replay_moves};
use crate::deal::{Deal, test_deal as deal};
use crate::foundation::Foundation;
use crate::state::State;

mod threads;

fn is_depth_first(order: &&Order) -> bool {
    matches!(order.kind, Kind::DepthFirst(_))
}

#[test]
fn solutions_found_replay_as_won() {
    for (game, seed) in [("fc", 4), ("st", 8), ("mo", 4), ("bd", 5)] {
        let d = deal(game, seed);
        let report = search(&d, &Limits::default(), None);
        let Outcome::Solved(moves) = report.outcome else {
            panic!("{game}.{seed}: {:?}", report.outcome);
        };
        assert!(
            matches!(replay_moves(&d, &moves), Verdict::Won { .. }),
            "{game}.{seed}"
        );
    }
}

#[test]
fn an_insoluble_deal_is_proven_and_a_limit_is_not_a_proof() {
    let d = deal("mo", 1);
    let report = search(&d, &Limits::default(), None);
    assert_eq!(report.outcome, Outcome::Insoluble);
    assert!(report.stats.frontier == 0 && report.stats.stored > 1);
    let limits = Limits {
        max_states: report.stats.stored / 2,
        ..Limits::default()
    };
    assert!(matches!(
        search(&d, &limits, None).outcome,
        Outcome::GaveUp(_)
    ));
}

/// A won position's path from the deal (every position on it), by a
/// plain depth-first search with no pruning at all: `Some(None)` when
/// none is reachable, `None` past `cap` positions.
fn solution_without_pruning(deal: &Deal, cap: usize) -> Option<Option<Vec<State>>> {
    let root = State::new(deal);
    let mut seen = rustc_hash::FxHashSet::default();
    seen.insert(root.key());
    // Every position met, with the index of the one it came from.
    let mut met = vec![(root, usize::MAX)];
    let mut stack = vec![0];
    while let Some(index) = stack.pop() {
        if met[index].0.is_won() {
            let mut path = Vec::new();
            let mut at = index;
            while at != usize::MAX {
                path.push(met[at].0.clone());
                at = met[at].1;
            }
            path.reverse();
            return Some(Some(path));
        }
        if seen.len() > cap {
            return None;
        }
        let state = met[index].0.clone();
        state.for_each_move(|mv| {
            let mut child = state.clone();
            child.apply(mv);
            if seen.insert(child.key()) {
                stack.push(met.len());
                met.push((child, index));
            }
        });
    }
    Some(None)
}

/// Whether a won position is reachable without pruning; `None` past
/// `cap` positions.
fn solvable_without_pruning(deal: &Deal, cap: usize) -> Option<bool> {
    solution_without_pruning(deal, cap).map(|path| path.is_some())
}

/// The dead-run (SPEC §8) and stuck-card prunings never change a
/// verdict, and no position on a solution found is one they would cut.
#[test]
fn pruning_never_loses_a_solution() {
    let mut compared = [0, 0];
    for (game, seeds) in [("mo", 1..=100), ("st", 1..=40), ("bd", 5..=5)] {
        for seed in seeds {
            let d = deal(game, seed);
            let report = search(&d, &Limits::default(), None);
            if let Outcome::Solved(moves) = &report.outcome {
                let mut state = State::new(&d);
                for &mv in moves {
                    assert!(!state.has_dead_run() && !state.has_stuck_card());
                    state.apply(mv);
                }
            }
            if let Some(solvable) = solvable_without_pruning(&d, 300_000) {
                let solved = matches!(report.outcome, Outcome::Solved(_));
                assert_eq!(solved, solvable, "{game}.{seed}: {:?}", report.outcome);
                assert!(solved || report.outcome == Outcome::Insoluble);
                compared[solved as usize] += 1;
            }
        }
    }
    // Both verdicts must have been compared for the test to mean anything.
    assert!(compared[0] > 50 && compared[1] > 10, "{compared:?}");
}

/// The blocked-for-good rule cuts no position of a solution that a
/// search without any pruning finds on its own.
#[test]
fn no_position_of_an_unpruned_solution_is_blocked() {
    let mut checked = 0;
    for (game, seeds) in [("bd", 1..=40), ("mo", 1..=300)] {
        for seed in seeds {
            let d = deal(game, seed);
            if let Some(Some(path)) = solution_without_pruning(&d, 200_000) {
                for state in &path {
                    assert!(!state.is_blocked_for_good(), "{game}.{seed}\n{state}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "{checked}");
}

/// A depth-first attempt that exhausts its stack has stored exactly the
/// positions the buckets store: the reachable set does not depend on
/// the order, so its INSOLUBLE is the same proof.
#[test]
fn depth_first_and_buckets_exhaust_the_same_positions() {
    let depth_first = PORTFOLIO.iter().find(is_depth_first).unwrap();
    for (game, seed) in [("mo", 1), ("mo", 5), ("st", 35)] {
        let d = deal(game, seed);
        let limits = Limits::default();
        let buckets = attempt::run(&d, &State::new(&d), &limits, &Order::FIRST, None);
        let dived = attempt::run(&d, &State::new(&d), &limits, depth_first, None);
        assert_eq!(buckets.outcome, Outcome::Insoluble, "{game}.{seed}");
        assert_eq!(dived.outcome, Outcome::Insoluble, "{game}.{seed}");
        assert_eq!(buckets.stats.stored, dived.stats.stored, "{game}.{seed}");
    }
}

/// The prover's turns are one attempt cut into pieces: whatever the
/// budgets of its turns, it expands the same positions in the same order
/// as one attempt run at once, to the same proof or the same solution.
#[test]
fn an_attempt_in_turns_is_the_attempt_run_at_once() {
    for (game, seed, order) in [
        ("st", 35, &PORTFOLIO[0]),
        ("st", 12, &PORTFOLIO[1]),
        ("fc", 4, &PORTFOLIO[0]),
        ("bd", 5, &PORTFOLIO[1]),
    ] {
        let d = deal(game, seed);
        let root = State::new(&d);
        let at_once = attempt::run(&d, &root, &Limits::default(), order, None);
        let mut prover = attempt::begin(&d, &root, &Limits::default(), order);
        let (mut expanded, mut stored, mut turns) = (0, 0, 0);
        let ended = loop {
            turns += 1;
            let budget = 50 << (2 * turns);
            let limits = Limits {
                max_states: budget,
                ..Limits::default()
            };
            let turn = prover.resume(limits, None);
            expanded += turn.stats.expanded;
            stored += turn.stats.stored;
            match turn.outcome {
                Outcome::GaveUp(super::Limit::States) => {
                    assert!(turn.stats.stored_now >= budget, "{game}.{seed}");
                }
                outcome => break outcome,
            }
        };
        let what = format!("{game}.{seed}, {turns} turns");
        assert!(turns > 2, "{what}: too small a space to cut");
        assert_eq!(ended, at_once.outcome, "{what}");
        assert_eq!(expanded, at_once.stats.expanded, "{what}");
        assert_eq!(stored, at_once.stats.stored, "{what}");
    }
}

/// A split attempt that exhausts its frontiers has stored exactly the
/// positions one frontier stores: splitting only changes the order. Under
/// free foundation rules too (these Seahaven deals are lost under both).
#[test]
fn split_and_single_frontiers_exhaust_the_same_positions() {
    for foundation in [Foundation::Forced, Foundation::Free] {
        let split = PORTFOLIO.iter().filter(|o| o.split > 0);
        for (order, seed) in split.zip([12, 35, 36, 41]) {
            let d = deal("st", seed).with_foundation(foundation);
            let limits = Limits::default();
            let single = Order { split: 0, ..*order };
            let one = attempt::run(&d, &State::new(&d), &limits, &single, None);
            let many = attempt::run(&d, &State::new(&d), &limits, order, None);
            let what = format!("st.{seed} {foundation:?}");
            assert_eq!(one.outcome, Outcome::Insoluble, "{what}");
            assert_eq!(many.outcome, Outcome::Insoluble, "{what}");
            assert_eq!(one.stats.stored, many.stats.stored, "{what}");
            assert!(one.stats.stored > 100, "{what}: {:?}", one.stats);
        }
    }
}

/// A deal and a limit of `max_states` within which ordering 0 does not
/// decide it.
fn beyond_ordering_0(game: &str, seed: u32, max_states: u64) -> (Deal, Limits) {
    let d = deal(game, seed);
    let limits = Limits {
        max_states,
        ..Limits::default()
    };
    let first = attempt::run(&d, &State::new(&d), &limits, &Order::FIRST, None);
    assert!(matches!(first.outcome, Outcome::GaveUp(_)), "{game}.{seed}");
    (d, limits)
}

/// Why the portfolio has split orderings: BakersDozen.486222557, which took
/// the portfolio without them 70 M positions (every ordering lost below a
/// wrong first move), falls to ordering 0 split two moves deep within
/// 40 000.
#[test]
fn a_split_solves_what_one_frontier_does_not() {
    let (d, limits) = beyond_ordering_0("bd", 486222557, 40_000);
    let split = Order {
        split: 2,
        ..Order::FIRST
    };
    let Outcome::Solved(moves) = attempt::run(&d, &State::new(&d), &limits, &split, None).outcome
    else {
        panic!("the split attempt solves it");
    };
    assert!(matches!(replay_moves(&d, &moves), Verdict::Won { .. }));
}

/// Why the portfolio has depth-first orderings: bd.64, which no bucket
/// ordering solved within 20 M positions, falls to one within 300 k.
#[test]
fn depth_first_solves_what_the_buckets_do_not() {
    let (d, limits) = beyond_ordering_0("bd", 64, 300_000);
    let solved = PORTFOLIO
        .iter()
        .filter(is_depth_first)
        .find_map(
            |o| match attempt::run(&d, &State::new(&d), &limits, o, None).outcome {
                Outcome::Solved(moves) => Some(moves),
                _ => None,
            },
        )
        .expect("a depth-first ordering solves bd.64");
    assert!(matches!(replay_moves(&d, &solved), Verdict::Won { .. }));
}

/// Progress comes about once a second even when every attempt of the
/// portfolio is shorter than that, and counts all attempts so far.
#[test]
fn progress_spans_the_attempts() {
    // Undecided after 10 s of the portfolio, so still searching at 2.5 s;
    // the rollouts, which may win it first, are not what is tested here.
    let d = deal("bd", 1797);
    let limits = Limits {
        timeout: Some(Duration::from_millis(2500)),
        rollouts: false,
        ..Limits::default()
    };
    let mut shown: Vec<Stats> = Vec::new();
    let mut record = |s: &Stats| shown.push(s.clone());
    let report = search(&d, &limits, Some(&mut record));
    assert!(
        matches!(report.outcome, Outcome::GaveUp(_)),
        "{:?}",
        report.outcome
    );
    assert!((1..=3).contains(&shown.len()), "{shown:?}");
    for pair in shown.windows(2) {
        assert!(pair[1].elapsed - pair[0].elapsed >= Duration::from_secs(1));
        assert!(pair[1].expanded > pair[0].expanded);
    }
    // Attempts before the first line were counted in it.
    let first = &shown[0];
    assert!(
        first.attempts > 1 && first.stored > first.stored_now && first.expanded > first.stored_now,
        "{first:?}"
    );
    assert!(first.elapsed >= Duration::from_secs(1));
}

/// The attempts other than the prover start from an empty visited set:
/// the positions stored in all are more than any one attempt held at once.
#[test]
fn stored_sums_the_attempts_and_the_peak_is_one_attempt() {
    let report = search(&deal("bd", 64), &Limits::default(), None);
    assert!(matches!(report.outcome, Outcome::Solved(_)));
    let s = &report.stats;
    assert!(s.attempts > 1, "{s:?}");
    assert!(
        s.stored > s.peak_stored && s.peak_stored >= s.stored_now,
        "{s:?}"
    );
}

#[test]
fn a_cancelled_search_stops_and_proves_nothing() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    // bd.1797 needs millions of positions: a flag raised from another thread
    // must end it long before, as `Limit::Cancelled`, not as a proof.
    let flag = Arc::new(AtomicBool::new(false));
    let raiser = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let limits = Limits {
        cancel: Some(flag),
        ..Limits::default()
    };
    let report = search(&deal("bd", 1797), &limits, None);
    raiser.join().unwrap();
    assert_eq!(report.outcome, Outcome::GaveUp(super::Limit::Cancelled));
    assert!(report.stats.expanded < 20_000_000, "{:?}", report.stats);
}

/// Split orderings take turns in Baker's Dozen and Midnight Oil only; the
/// prover takes one turn a round, first in the first round where it is
/// ordering 0, second in every later one, two rounds ahead after the
/// first, and its last turn, with the whole `--max-states`, ends the
/// schedule. The prover and any other attempt never hold more than
/// `--max-states`.
#[test]
fn the_schedule_splits_only_where_cards_go_onto_higher_ones() {
    use super::schedule::Schedule;
    for (game, splits) in [("fc", false), ("st", false), ("mo", true), ("bd", true)] {
        let rules = deal(game, 1).id.rules;
        let max = 20_000_000;
        let plan: Vec<_> = Schedule::new(max, rules, false).collect();
        // One beam's turn in the split games, after the second round,
        // beside the prover's turn of that round within the limit.
        let beams: Vec<usize> = (0..plan.len())
            .filter(|&i| plan[i].order.kind == Kind::Beam)
            .collect();
        // Every ordering a round in the split games; elsewhere five,
        // none of them split.
        let per_round = if splits { PORTFOLIO.len() } else { 5 };
        assert_eq!(beams, if splits { vec![2 * per_round] } else { vec![] });
        for &i in &beams {
            let beam = &plan[i];
            assert!(!beam.last && !beam.resume && beam.budget == BEAM_BUDGET);
            assert!(beam.budget + 1_280_000 <= max, "{game}");
        }
        let plan: Vec<_> = plan
            .into_iter()
            .filter(|p| p.order.kind != Kind::Beam)
            .collect();
        let (last, rounds) = plan.split_last().unwrap();
        assert_eq!(rounds.iter().any(|p| p.order.split > 0), splits, "{game}");
        assert_eq!(last.order.split > 0, splits, "{game}");
        assert!(last.last && last.resume && last.budget == max, "{game}");
        assert!(rounds.iter().all(|p| !p.last && p.budget < max));
        // Rounds of 20 000, 80 000 and 320 000, the prover's turns to
        // 20 000, 1 280 000 and 5 120 000 (the next, 20 480 000, is the
        // last turn, after the first turn of the fourth round).
        assert_eq!(rounds.len(), 3 * per_round + 1, "{game}");
        let turns: Vec<(usize, u64)> = rounds
            .iter()
            .enumerate()
            .filter(|(_, p)| p.resume)
            .map(|(i, p)| (i, p.budget))
            .collect();
        let first = splits as usize;
        assert_eq!(
            turns,
            [
                (first, 20_000),
                (per_round + 1, 1_280_000),
                (2 * per_round + 1, 5_120_000)
            ],
            "{game}"
        );
        // Every other ordering once a round.
        for round in rounds.chunks(per_round) {
            let mut orders: Vec<_> = round.iter().map(|p| p.order as *const Order).collect();
            orders.sort();
            orders.dedup();
            assert_eq!(orders.len(), round.len().min(per_round), "{game}");
        }
        let mut held = 0;
        for p in rounds {
            if p.resume {
                held = p.budget;
            } else {
                assert!(held + p.budget <= max, "{game}: {p:?}");
            }
        }
        // The prover alone: one turn with everything.
        let alone: Vec<_> = Schedule::new(max, rules, true).collect();
        assert_eq!(alone.len(), 1, "{game}");
        assert!(alone[0].last && alone[0].resume && alone[0].budget == max);
        assert!(std::ptr::eq(alone[0].order, last.order), "{game}");
    }
}

/// The prover alone proves what the whole portfolio proves, storing each
/// position once in one attempt, and still wins a deal that has a
/// solution: FreeCell 92066 no play wins, 307127 forced moves lose
/// (`survey --foundation both` searches both so).
#[test]
fn the_prover_alone_proves_what_the_portfolio_proves() {
    let limits = |prover_alone| Limits {
        length: super::Length::AsFound,
        prover_alone,
        ..Limits::default()
    };
    let lost = deal("fc", 92066).with_foundation(Foundation::Free);
    let whole = search(&lost, &limits(false), None);
    let alone = search(&lost, &limits(true), None);
    assert_eq!(whole.outcome, Outcome::Insoluble);
    assert_eq!(alone.outcome, Outcome::Insoluble);
    assert_eq!(alone.stats.attempts, 1);
    assert_eq!(alone.stats.expanded, alone.stats.stored);
    assert!(
        alone.stats.expanded < whole.stats.expanded,
        "{alone:?} {whole:?}"
    );
    let won = deal("fc", 307127).with_foundation(Foundation::Free);
    let Outcome::Solved(moves) = search(&won, &limits(true), None).outcome else {
        panic!("307127 is won under free rules");
    };
    assert!(matches!(replay_moves(&won, &moves), Verdict::Won { .. }));
}

/// From a position part-way through a solution (a player's, say), the
/// moves found start there and win from there.
#[test]
fn a_search_from_a_later_position_wins_from_it() {
    for (game, seed) in [("fc", 4), ("bd", 5), ("st", 8)] {
        let d = deal(game, seed);
        let Outcome::Solved(moves) = search(&d, &Limits::default(), None).outcome else {
            panic!("{game}.{seed} is solvable");
        };
        let mut root = State::new(&d);
        for &mv in &moves[..moves.len() / 2] {
            root.apply(mv);
        }
        let report = search_from(&d, &root, &Limits::default(), None);
        let Outcome::Solved(rest) = report.outcome else {
            panic!("{game}.{seed}: no win found half-way: {:?}", report.outcome);
        };
        assert!(report.stats.best_score >= root.score());
        for &mv in &rest {
            root.try_apply(mv)
                .expect("the moves found are legal from the root");
        }
        assert!(root.is_won(), "{game}.{seed}");
    }
}

#[test]
fn the_default_limit_follows_the_memory_within_its_bounds() {
    use super::{BYTES_PER_POSITION, DEFAULT_MAX_STATES, MIN_DEFAULT_MAX_STATES, max_states_for};
    assert_eq!(max_states_for(0), MIN_DEFAULT_MAX_STATES);
    assert_eq!(max_states_for(u64::MAX), DEFAULT_MAX_STATES);
    // A 2 GB container: 1 GB for the search, about 22 M positions.
    let gb = 1 << 30;
    assert_eq!(max_states_for(gb), gb / BYTES_PER_POSITION);
    let default = Limits::default().max_states;
    assert!((MIN_DEFAULT_MAX_STATES..=DEFAULT_MAX_STATES).contains(&default));
    assert_eq!(
        Limits::default().max_states,
        default,
        "read once per process"
    );
}

/// Why the portfolio has a beam: Baker's Dozen 64, which ordering 0 does
/// not solve within 64 000 positions (nor twelve bucket orderings within
/// 20 M, see the README), falls to a beam 1 000 wide within 6 000
/// expansions; and its solution wins.
#[test]
fn a_beam_solves_what_one_frontier_does_not() {
    let (d, limits) = beyond_ordering_0("bd", 64, 64_000);
    let report = attempt::run(&d, &State::new(&d), &limits, &BEAM, None);
    let Outcome::Solved(moves) = report.outcome else {
        panic!("{:?}", report.outcome);
    };
    assert!(report.stats.expanded < 10_000, "{:?}", report.stats);
    assert!(matches!(replay_moves(&d, &moves), Verdict::Won { .. }));
}

/// A beam that dropped positions proves nothing when it runs out; one
/// wide enough to keep every position it met is a breadth-first search,
/// and its proof stores what ordering 0's does.
#[test]
fn a_spent_beam_is_no_proof_and_a_beam_that_kept_all_is() {
    for (game, seed) in [("st", 12), ("mo", 81811)] {
        let d = deal(game, seed);
        let root = State::new(&d);
        let whole = attempt::run(&d, &root, &Limits::default(), &Order::FIRST, None);
        assert_eq!(whole.outcome, Outcome::Insoluble, "{game}.{seed}");
        let wide = attempt::run(&d, &root, &Limits::default(), &BEAM, None);
        assert_eq!(wide.outcome, Outcome::Insoluble, "{game}.{seed}");
        assert_eq!(wide.stats.stored, whole.stats.stored, "{game}.{seed}");
        // 1 000 wide: its layers drop positions (Seahaven 12's budget is
        // above its whole space), and it gives up.
        let narrow = Limits {
            max_states: 64_000,
            ..Limits::default()
        };
        let spent = attempt::run(&d, &root, &narrow, &BEAM, None);
        assert_eq!(
            spent.outcome,
            Outcome::GaveUp(super::Limit::States),
            "{game}.{seed}"
        );
        assert!(spent.stats.stored < whole.stats.stored, "{game}.{seed}");
    }
}

/// A search whose proof by the suitless game goes on in layers resumes
/// them from a save of its own game (`Limits::suitless_checkpoint`, which
/// `--spill DIR` sets): the same verdict, the plain suitless search
/// skipped, so only the layers' positions counted (bd.78829's game:
/// 584 523), and the save removed once decided. A save of another game
/// there is left alone, and the search proves the deal lost all the same.
#[test]
fn a_suitless_proof_resumes_from_its_save() {
    use crate::state::{SuitlessCheckpoint, SuitlessLimits, suitless_in_layers};
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved");
    let lost = deal("bd", 78829);
    let limits = Limits {
        max_states: 400_000,
        timeout: Some(Duration::from_secs(60)),
        rollouts: false,
        // Several threads: one long search, the suitless game asked first.
        jobs: 2,
        suitless_checkpoint: Some(path.clone()),
        ..Limits::default()
    };
    let straight = search(&lost, &limits, None);
    assert_eq!(straight.outcome, Outcome::Insoluble);
    assert!(straight.stats.suitless > 584_523, "{:?}", straight.stats);
    assert!(!path.exists());
    // A save after layer 10 of the game of a deal, stopped there.
    let save = |seed: u32| {
        let stop = AtomicBool::new(false);
        let stopped = || stop.load(Relaxed);
        let layers = SuitlessLimits {
            threads: 1,
            most: usize::MAX,
            stopped: &stopped,
            every: Duration::ZERO,
            checkpoint: Some(SuitlessCheckpoint {
                path: &path,
                every: Duration::ZERO,
                most_bytes: u64::MAX,
                spill_over: usize::MAX,
            }),
            lean_from: crate::state::SUITLESS_LEAN_FROM,
            room: || None,
        };
        let state = State::new(&deal("bd", seed));
        suitless_in_layers(&state, &layers, &mut |layer| {
            stop.store(layer.done && layer.number >= 10, Relaxed);
        });
        assert!(path.exists());
    };
    save(78829);
    let resumed = search(&lost, &limits, None);
    assert_eq!(resumed.outcome, Outcome::Insoluble);
    assert_eq!(resumed.stats.suitless, 584_523, "{:?}", resumed.stats);
    assert!(!path.exists());
    save(78830);
    let other = std::fs::read(&path).unwrap();
    let beside = search(&lost, &limits, None);
    assert_eq!(beside.outcome, Outcome::Insoluble);
    assert_eq!(beside.stats.suitless, straight.stats.suitless);
    assert_eq!(std::fs::read(&path).unwrap(), other);
}

/// A save that cannot be written does not stop the proof, and the
/// progress says so while the layers go on (`Stats::unsaved`, which
/// `-search`'s progress line shows): here its directory is missing, or
/// the save would pass its bound, and each layer's end is due a save.
#[test]
fn a_suitless_save_that_fails_is_said_in_the_progress() {
    let dir = tempfile::tempdir().unwrap();
    let lost = deal("bd", 78829);
    let mut limits = Limits {
        max_states: 400_000,
        timeout: Some(Duration::from_secs(60)),
        rollouts: false,
        jobs: 2,
        suitless_checkpoint: Some(dir.path().join("missing").join("saved")),
        suitless_checkpoint_every: Duration::ZERO,
        ..Limits::default()
    };
    let unsaved = |limits: &Limits| {
        let mut said = Vec::new();
        let mut progress = |stats: &Stats| said.extend(stats.unsaved.clone());
        let report = search(&lost, limits, Some(&mut progress));
        assert_eq!(report.outcome, Outcome::Insoluble);
        said
    };
    let said = unsaved(&limits);
    assert!(!said.is_empty());
    assert!(
        said.iter().all(|why| why.contains("cannot write")),
        "{said:?}"
    );
    limits.suitless_checkpoint = Some(dir.path().join("saved"));
    assert_eq!(unsaved(&limits), Vec::<String>::new());
    assert!(!dir.path().join("saved").exists());
    // Bounded (`--spill-max`): a save past the bound is not written,
    // not even in part.
    limits.suitless_checkpoint_most = 1000;
    let said = unsaved(&limits);
    assert!(!said.is_empty());
    assert!(
        said.iter().all(|why| why.contains("--spill-max")),
        "{said:?}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Two searches of one deal, the second under way or done: their work
/// adds up, and the proof is the second's alone (`Stats::followed_by`),
/// so that a first search's proof neither stands for the second's verdict
/// nor makes the second's progress read as its suitless game.
#[test]
fn a_second_search_adds_the_work_and_keeps_its_own_proof() {
    let first = Stats {
        stored: 10,
        expanded: 20,
        attempts: 2,
        suitless: 584_523,
        proven_by_test: true,
        ..Stats::default()
    };
    let under_way = Stats {
        stored: 1,
        expanded: 5,
        frontier: 7,
        attempts: 1,
        ..Stats::default()
    };
    let both = first.followed_by(&under_way);
    assert_eq!((both.stored, both.expanded, both.attempts), (11, 25, 3));
    assert_eq!(both.frontier, 7);
    assert_eq!((both.suitless, both.proven_by_test), (0, false));
    let proven = Stats {
        suitless: 989_647,
        ..under_way
    };
    assert_eq!(first.followed_by(&proven).suitless, 989_647);
}

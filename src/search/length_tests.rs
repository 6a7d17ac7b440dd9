//! Solution lengths: `--optimal` against a plain breadth-first search, the
//! default shortening against the solution as found.

use rustc_hash::FxHashSet;

use super::optimal::shortest;
use super::{Length, Limits, Outcome, search};
use crate::check::{Verdict, replay_moves};
use crate::deal::{Deal, test_deal as deal};
use crate::foundation::Foundation;
use crate::state::{Dest, FOUNDATION, State};

/// The fewest moves from `root` to a won position, by a breadth-first
/// search over every move with no pruning and no bound: `None` when no
/// won position is reachable.
fn fewest_moves(root: &State) -> Option<usize> {
    let mut seen = FxHashSet::default();
    seen.insert(root.key());
    let mut layer = vec![root.clone()];
    for depth in 0.. {
        if layer.iter().any(State::is_won) {
            return Some(depth);
        }
        let mut next = Vec::new();
        for state in &layer {
            state.for_each_move(|mv| {
                let mut child = state.clone();
                child.apply(mv);
                if seen.insert(child.key()) {
                    next.push(child);
                }
            });
        }
        if next.is_empty() {
            return None;
        }
        layer = next;
    }
    unreachable!()
}

fn limits(length: Length) -> Limits {
    Limits {
        length,
        ..Limits::default()
    }
}

fn won(deal: &Deal, moves: &[crate::state::Move]) -> bool {
    matches!(replay_moves(deal, moves), Verdict::Won { .. })
}

#[test]
fn optimal_is_breadth_first_length_on_midnight_oil() {
    let mut solvable = 0;
    for seed in 1..=300 {
        let d = deal("mo", seed);
        let fewest = fewest_moves(&State::new(&d));
        match search(&d, &limits(Length::Optimal), None).outcome {
            Outcome::Solved(moves) => {
                assert!(won(&d, &moves), "mo.{seed}");
                assert_eq!(Some(moves.len()), fewest, "mo.{seed}");
                solvable += 1;
            }
            Outcome::Insoluble => assert_eq!(fewest, None, "mo.{seed}"),
            Outcome::GaveUp(limit) => panic!("mo.{seed}: {limit}"),
        }
    }
    assert!(
        solvable >= 5,
        "{solvable} solvable deals of Midnight Oil 1..300"
    );
}

#[test]
fn optimal_is_breadth_first_length_near_the_end_of_seahaven() {
    for seed in [1, 2, 3, 4, 5, 6, 7, 8] {
        let d = deal("st", seed);
        let Outcome::Solved(moves) = search(&d, &limits(Length::AsFound), None).outcome else {
            continue;
        };
        // Positions 12 and 16 moves before the end of a found solution.
        for back in [12, 16] {
            let mut root = State::new(&d);
            for &mv in &moves[..moves.len().saturating_sub(back)] {
                root.apply(mv);
            }
            let found = shortest(&d, root.clone(), &Limits::default(), None);
            assert_eq!(found.stopped, None, "st.{seed}");
            let length = found.moves.as_ref().map(Vec::len);
            assert_eq!(
                length,
                fewest_moves(&root),
                "st.{seed}, {back} from the end"
            );
            assert!(length <= Some(back));
        }
    }
}

/// Under free rules a file writes every foundation move: from positions
/// near the end of FreeCell and Baker's Dozen games, the file of
/// `--optimal`'s solution is as long as a breadth-first search over the
/// file's own moves (every foundation move one, none automatic) finds,
/// although the search plays the safe ones by itself and counts none.
/// The deals are FreeCell's three of 1..60 and Baker's Dozen's two of
/// 1..30 whose `--fast` files have the fewest cards left to go up with
/// two other moves left (every order of those foundation moves is a
/// position of the breadth-first search, so few keep it small), picked
/// here so that a change of the fast pass picks again (bd.26, once
/// picked by hand, came to leave 34 cards and took minutes).
#[test]
fn free_optimal_is_breadth_first_length_with_foundation_moves_counted() {
    let picked = fewest_left_near_the_end("fc", 1..=60, 3)
        .into_iter()
        .chain(fewest_left_near_the_end("bd", 1..=30, 2));
    for (game, seed) in picked {
        let d = deal(game, seed).with_foundation(Foundation::Free);
        let (replayed, searched) = near_the_end(&d);
        let found = shortest(&d, searched, &Limits::default(), None);
        assert_eq!(found.stopped, None, "{game}.{seed}");
        let moves = found.moves.expect("the file's end is a solution");
        let counted = moves
            .iter()
            .filter(|mv| mv.dest != Dest::Foundation)
            .count();
        assert!(counted > 0, "{game}.{seed}: moves but foundation moves");
        let left_up = 52 - replayed.score() as usize;
        assert_eq!(
            Some(counted + left_up),
            fewest_moves(&replayed),
            "{game}.{seed}"
        );
    }
}

/// The `n` deals of `game` among `seeds` whose `--fast` files (free rules)
/// have the fewest cards left to go up at [`near_the_end`].
fn fewest_left_near_the_end(
    game: &'static str,
    seeds: std::ops::RangeInclusive<u32>,
    n: usize,
) -> Vec<(&'static str, u32)> {
    let mut left: Vec<(usize, u32)> = seeds
        .map(|seed| {
            let d = deal(game, seed).with_foundation(Foundation::Free);
            let (replayed, _) = near_the_end(&d);
            (52 - replayed.score() as usize, seed)
        })
        .collect();
    left.sort();
    left.iter().take(n).map(|&(_, seed)| (game, seed)).collect()
}

/// The position of `d`'s `--fast` file (free rules) where two moves other
/// than foundation moves are left: as a replay has it, and as the
/// search does (the safe foundation moves played).
fn near_the_end(d: &Deal) -> (State, State) {
    let Outcome::Solved(file) = search(d, &limits(Length::AsFound), None).outcome else {
        panic!("{:?} is solvable", d.id);
    };
    let others = file.iter().filter(|mv| mv.dest != Dest::Foundation).count();
    let mut seen = 0;
    let cut = 1 + file
        .iter()
        .position(|mv| {
            seen += usize::from(mv.dest != Dest::Foundation);
            seen + 2 >= others
        })
        .unwrap();
    let (mut replayed, mut searched) = (State::for_replay(d), State::new(d));
    for &mv in &file[..cut] {
        replayed.try_apply(mv).unwrap();
        if mv.dest != Dest::Foundation || searched.below(mv.card) != FOUNDATION {
            searched.try_apply(mv).unwrap();
        }
    }
    (replayed, searched)
}

#[test]
fn optimal_proves_insoluble_and_a_limit_is_no_proof() {
    assert_eq!(
        search(&deal("mo", 1), &limits(Length::Optimal), None).outcome,
        Outcome::Insoluble
    );
    let tight = Limits {
        max_states: 50,
        ..limits(Length::Optimal)
    };
    assert!(matches!(
        search(&deal("st", 2), &tight, None).outcome,
        Outcome::GaveUp(_)
    ));
}

#[test]
fn shortening_never_lengthens_nor_breaks_a_solution() {
    let mut shorter = 0;
    for game in ["fc", "st", "mo", "bd"] {
        for seed in 1..=25 {
            let d = deal(game, seed);
            let found = search(&d, &limits(Length::AsFound), None).outcome;
            let shortened = search(&d, &limits(Length::Shortened), None).outcome;
            let (Outcome::Solved(found), Outcome::Solved(shortened)) = (&found, &shortened) else {
                assert_eq!(found, shortened, "{game}.{seed}: the same verdict");
                continue;
            };
            assert!(won(&d, shortened), "{game}.{seed}");
            assert!(shortened.len() <= found.len(), "{game}.{seed}");
            shorter += usize::from(shortened.len() < found.len());
        }
    }
    assert!(shorter >= 40, "only {shorter} solutions of 100 got shorter");
}

#[test]
fn an_optimal_solution_is_never_longer_than_a_shortened_one() {
    for (game, seed) in [("st", 3), ("st", 5), ("bd", 4), ("fc", 4)] {
        let d = deal(game, seed);
        let Outcome::Solved(optimal) = search(&d, &limits(Length::Optimal), None).outcome else {
            panic!("{game}.{seed} is solved quickly");
        };
        let Outcome::Solved(shortened) = search(&d, &limits(Length::Shortened), None).outcome
        else {
            panic!("{game}.{seed}");
        };
        assert!(won(&d, &optimal));
        assert!(optimal.len() <= shortened.len(), "{game}.{seed}");
    }
}

#[test]
fn a_cancelled_shortening_keeps_the_solution_found() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    // fc.1 is solved in under 4096 expansions, before the search looks at
    // the flag; the shortening looks at once.
    let d = deal("fc", 1);
    let cancelled = Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..limits(Length::Shortened)
    };
    let Outcome::Solved(kept) = search(&d, &cancelled, None).outcome else {
        panic!("fc.1 is solved before the flag is seen");
    };
    let Outcome::Solved(found) = search(&d, &limits(Length::AsFound), None).outcome else {
        panic!("fc.1 is solvable");
    };
    let Outcome::Solved(shortened) = search(&d, &limits(Length::Shortened), None).outcome else {
        panic!("fc.1 is solvable");
    };
    // The default's start is the solution found with its detours cut
    // (which `--fast` leaves in FreeCell's fast pass): that much is kept.
    let cut = super::path::shorten(&State::new(&d), found);
    assert_eq!(kept, cut);
    assert!(shortened.len() < cut.len());
}

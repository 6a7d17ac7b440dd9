use rustc_hash::FxHashSet;

use super::search::search;
use super::*;
use crate::deal::test_deal;
use crate::search::{Limits, Outcome};
use crate::state::testing::xorshift;

fn deal(seed: u32) -> Deal {
    test_deal("mo", seed).with_foundation(Foundation::Xpat2)
}

/// Every legal move, found by trying every card against every
/// destination: none left out as [`Table::for_each_move`] leaves some.
fn every_legal_move(table: &Table) -> Vec<Move> {
    let dests = (0..CARDS as Card).map(Dest::Card).chain([
        Dest::Foundation,
        Dest::TurnUp,
        Dest::TurnDown,
        Dest::EmptyColumn,
        Dest::Register,
    ]);
    let mut moves: Vec<Move> = dests
        .flat_map(|dest| (0..CARDS as Card).map(move |card| Move { card, dest }))
        .filter(|&mv| table.check_move(mv).is_ok())
        .collect();
    if table.check_move(Move::REDEAL).is_ok() {
        moves.push(Move::REDEAL);
    }
    moves
}

fn child(table: &Table, mv: Move) -> Table {
    let mut child = table.clone();
    child.apply(mv);
    child
}

/// Whether some sequence of the moves `moves` gives wins from `table`, by
/// a plain search stopping at the first win; `None` past `cap` positions.
fn winnable(table: &Table, cap: usize, moves: fn(&Table) -> Vec<Move>) -> Option<bool> {
    let mut seen = FxHashSet::default();
    seen.insert(table.key());
    let mut stack = vec![table.clone()];
    while let Some(table) = stack.pop() {
        if table.is_won() {
            return Some(true);
        }
        if seen.len() > cap {
            return None;
        }
        for mv in moves(&table) {
            let next = child(&table, mv);
            if seen.insert(next.key()) {
                stack.push(next);
            }
        }
    }
    Some(false)
}

fn generated(table: &Table) -> Vec<Move> {
    let mut moves = Vec::new();
    table.for_each_move(|mv| moves.push(mv));
    moves
}

/// Positions along random walks of the first deals, every kind of move
/// taken (redeals and the turn included).
fn walks(seeds: std::ops::RangeInclusive<u32>, steps: usize, mut visit: impl FnMut(&Table)) {
    let mut rng = 0x3D_0E_A1_5E_ED_00_00_01u64;
    for seed in seeds {
        let mut table = Table::for_replay(&deal(seed));
        for _ in 0..steps {
            visit(&table);
            let moves = every_legal_move(&table);
            if moves.is_empty() {
                break;
            }
            table.apply(moves[(xorshift(&mut rng) % moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn the_deal_is_laid_in_order_and_keeps_every_card() {
    let d = deal(1);
    let table = Table::for_replay(&d);
    assert_eq!(table.columns(), d.columns);
    assert_eq!((table.redeals_left(), table.turns_left()), (2, 1));
    assert_eq!(table.score(), 0);
}

#[test]
fn generated_moves_reach_every_position_every_legal_move_reaches() {
    let mut looked = 0;
    walks(1..=10, 60, |table| {
        let want: FxHashSet<Key> = every_legal_move(table)
            .into_iter()
            .map(|mv| child(table, mv).key())
            .collect();
        let got: FxHashSet<Key> = generated(table)
            .into_iter()
            .map(|mv| {
                assert_eq!(table.check_move(mv), Ok(()), "{mv}");
                child(table, mv).key()
            })
            .collect();
        assert_eq!(got, want, "\n{table}");
        looked += 1;
    });
    assert!(looked > 300);
}

#[test]
fn a_redeal_keeps_the_cards_and_deals_threes_from_the_first_column() {
    walks(1..=10, 40, |table| {
        if table.redeals_left() == 0 {
            return;
        }
        let after = child(table, Move::REDEAL);
        let mut before: Vec<Card> = table.columns().concat();
        let mut cards: Vec<Card> = after.columns().concat();
        assert_eq!(cards.len(), before.len());
        before.sort_unstable();
        cards.sort_unstable();
        assert_eq!(cards, before);
        let heights: Vec<usize> = after.columns().iter().map(Vec::len).collect();
        let n = cards.len();
        let want: Vec<usize> = (0..COLUMNS)
            .map(|i| n.saturating_sub(3 * i).min(3))
            .collect();
        assert_eq!(heights, want);
        assert_eq!(after.redeals_left(), table.redeals_left() - 1);
        assert_eq!(
            after.columns(),
            redeal::redeal(&table.columns(), table.seed)
        );
    });
}

#[test]
fn illegal_lines_of_the_complete_rules_are_named() {
    let mut table = Table::for_replay(&deal(1));
    let top = *table.columns()[0].last().unwrap();
    let buried = table.columns()[0][0];
    let turn = |card, dest| Move { card, dest };
    assert_eq!(
        table.check_move(turn(top, Dest::TurnUp)),
        Err(Illegal::TurnNeedsBuried { top: true })
    );
    table.try_apply(Move::REDEAL).unwrap();
    table.try_apply(Move::REDEAL).unwrap();
    assert_eq!(table.check_move(Move::REDEAL), Err(Illegal::NoRedealLeft));
    let buried_now = table.columns()[0][0];
    table.try_apply(turn(buried_now, Dest::TurnUp)).unwrap();
    let other = table.columns()[1][0];
    assert_eq!(
        table.check_move(turn(other, Dest::TurnDown)),
        Err(Illegal::TurnUsed)
    );
    // A card up cannot come back in Midnight Oil.
    let mut table = Table::for_replay(&deal(1));
    let ace = (0..CARDS as Card).find(|&c| rank(c) == 1 && table.column_topped_by(c).is_some());
    if let Some(ace) = ace {
        table.try_apply(turn(ace, Dest::Foundation)).unwrap();
        let top = table
            .columns()
            .iter()
            .find_map(|c| c.last().copied())
            .unwrap();
        assert_eq!(
            table.check_move(turn(ace, Dest::Card(top))),
            Err(Illegal::NoReturns)
        );
    }
    let _ = buried;
}

/// With no redeal left, playing every card up by itself keeps the verdict
/// of a search playing none, the turn left or not: positions along
/// solutions of the first deals and short random walks from them, with the
/// redeals taken away.
#[test]
fn cards_played_up_once_no_redeal_is_left_keep_the_verdict() {
    let (mut compared, mut lost, mut won) = (0, 0, 0);
    let mut rng = 0x0A_17_0F_0E_00_00_00_05u64;
    along_solutions(1..=12, 3, &mut rng, |mut plain, _| {
        plain.redeals_left = 0;
        plain.automatic = false;
        let mut auto = plain.clone();
        auto.automatic = true;
        auto.play_automatic(|_| {});
        let cap = 40_000;
        if let (Some(a), Some(b)) = (
            winnable(&plain, cap, every_legal_move),
            winnable(&auto, cap, generated),
        ) {
            assert_eq!(a, b, "\n{plain}");
            compared += 1;
            lost += usize::from(!a);
            won += usize::from(a);
        }
    });
    assert!(
        compared > 30 && lost > 0 && won > 0,
        "{compared} {lost} {won}"
    );
}

#[test]
fn searched_solutions_replay_with_every_foundation_move_written() {
    for seed in 1..=5 {
        let d = deal(seed);
        let report = search(&d, &Limits::default(), None);
        let Outcome::Solved(moves) = report.outcome else {
            panic!("mo.{seed}: {:?}", report.outcome);
        };
        let mut table = Table::for_replay(&d);
        for (i, &mv) in moves.iter().enumerate() {
            assert_eq!(table.try_apply(mv), Ok(()), "mo.{seed} move {}", i + 1);
        }
        assert!(table.is_won(), "mo.{seed}");
    }
}

/// The quick attempt proves nothing: a deal it cannot win goes on to the
/// complete attempt, whose emptied frontier alone says `Insoluble`.
/// Midnight Oil 1 is lost under the course's rules; with its redeals and
/// turn taken away both attempts search that game and find no win.
#[test]
fn only_the_complete_attempt_says_insoluble() {
    let d = deal(1);
    let mut course = Table::for_search(&d);
    course.redeals_left = 0;
    course.turns_left = 0;
    let report = search::search_from(&d, &course, &Limits::default(), None);
    assert_eq!(report.outcome, Outcome::Insoluble);
    assert_eq!(report.stats.attempts, 2);
    // With its redeals it is won, by the quick attempt alone.
    let report = search(&d, &Limits::default(), None);
    assert!(matches!(report.outcome, Outcome::Solved(_)));
    assert_eq!(report.stats.attempts, 1);
}

/// Positions near the end of the first deals' solutions, as played by
/// hand (no card up by itself): along each solution from 24 cards up, at
/// every `every`-th move, then up to five random legal moves; `visit`
/// gets each position and the walk's random numbers.
fn along_solutions(
    seeds: std::ops::RangeInclusive<u32>,
    every: usize,
    rng: &mut u64,
    mut visit: impl FnMut(Table, &mut u64),
) {
    for seed in seeds {
        let d = deal(seed);
        let Outcome::Solved(moves) = search(&d, &Limits::default(), None).outcome else {
            panic!("mo.{seed} is won");
        };
        let mut on_path = Table::for_replay(&d);
        for (i, &mv) in moves.iter().enumerate() {
            on_path.apply(mv);
            if on_path.score() < 24 || i % every != 0 {
                continue;
            }
            let mut table = on_path.clone();
            for _ in 0..(xorshift(rng) % 6) {
                let legal = every_legal_move(&table);
                if legal.is_empty() {
                    break;
                }
                table.apply(legal[(xorshift(rng) % legal.len() as u64) as usize]);
            }
            visit(table, rng);
        }
    }
}

/// Positions past the last redeal, as played by hand, the turn left in
/// about half ([`along_solutions`], every other move).
fn late_positions(seeds: std::ops::RangeInclusive<u32>, mut visit: impl FnMut(Table)) {
    let mut rng = 0x1A_7E_00_C0_5E_00_00_09u64;
    along_solutions(seeds, 2, &mut rng, |mut table, rng| {
        table.redeals_left = 0;
        table.turns_left = (xorshift(rng) % 2) as u8;
        visit(table);
    });
}

/// [`winnable`] with the search's cuts: the turns that cannot matter
/// left out, the positions the closure proves lost not searched.
fn winnable_with_cuts(table: &Table, cap: usize) -> Option<bool> {
    let mut seen = FxHashSet::default();
    seen.insert(table.key());
    let mut stack = vec![table.clone()];
    while let Some(table) = stack.pop() {
        if table.is_won() {
            return Some(true);
        }
        if seen.len() > cap {
            return None;
        }
        for mv in generated(&table) {
            if matches!(mv.dest, Dest::TurnUp | Dest::TurnDown) && !table.turn_can_matter(mv) {
                continue;
            }
            let next = child(&table, mv);
            if seen.insert(next.key()) && !next.is_lost() {
                stack.push(next);
            }
        }
    }
    Some(false)
}

/// The closure calls a position lost only where a plain search of every
/// legal move, nothing played up by itself, finds no win: positions past
/// the last redeal, with the turn left and without, and their children.
#[test]
fn the_closure_calls_lost_only_positions_no_play_wins() {
    let (mut lost, mut open) = (0, 0);
    late_positions(1..=8, |table| {
        let children = every_legal_move(&table)
            .into_iter()
            .map(|mv| child(&table, mv));
        for position in std::iter::once(table.clone()).chain(children) {
            if !position.is_lost() {
                open += 1;
                continue;
            }
            if let Some(won) = winnable(&position, 20_000, every_legal_move) {
                assert!(!won, "called lost, but won:\n{position}");
                lost += 1;
            }
        }
    });
    assert!(lost > 20 && open > 20, "{lost} {open}");
}

/// Searching with the cuts (turns that cannot matter, positions the
/// closure proves lost) and cards played up by themselves keeps the
/// verdict of a plain search of every legal move: positions past the last
/// redeal, the turn left in about half of them.
#[test]
fn the_cuts_past_the_last_redeal_keep_the_verdict() {
    let (mut compared, mut lost, mut won, mut with_turn) = (0, 0, 0, 0);
    late_positions(1..=12, |plain| {
        let mut cut = plain.clone();
        cut.automatic = true;
        cut.play_automatic(|_| {});
        let cap = 40_000;
        if let (Some(a), Some(b)) = (
            winnable(&plain, cap, every_legal_move),
            winnable_with_cuts(&cut, cap),
        ) {
            assert_eq!(a, b, "\n{plain}");
            compared += 1;
            lost += usize::from(!a);
            won += usize::from(a);
            with_turn += usize::from(plain.turns_left > 0);
        }
    });
    assert!(
        compared > 30 && lost > 5 && won > 5 && with_turn > 10,
        "{compared} {lost} {won} {with_turn}"
    );
}

//! Edits of a solution that make it one or two moves shorter, each kept only when
//! the edited moves still replay to a won game: a move left out (a card
//! parked and never needed there), two moves of the same card made one
//! (the card goes straight where its next move takes it), or a card's
//! round trip left out (parked, then put back where it lay).

use super::Budget;
use crate::state::{Dest, Move, State};

/// Applies every edit that keeps a solution, pass after pass while one
/// pays. Says whether the solution got shorter.
pub(super) fn cut(root: &State, moves: &mut Vec<Move>, budget: &mut Budget) -> bool {
    let length = moves.len();
    loop {
        let before = moves.len();
        let mut states = super::positions(root, moves);
        let mut i = 0;
        while i < moves.len() {
            if budget.exhausted() {
                return moves.len() < length;
            }
            match first_cut(&states[i], &moves[i..], budget) {
                Some(rest) => {
                    moves.truncate(i);
                    moves.extend(rest);
                    states = super::positions(root, moves);
                }
                None => i += 1,
            }
        }
        if moves.len() == before {
            return moves.len() < length;
        }
    }
}

/// The first edit of `moves[0]` that keeps a solution from `from`: the
/// shorter moves, or `None`.
fn first_cut(from: &State, moves: &[Move], budget: &mut Budget) -> Option<Vec<Move>> {
    let card = moves[0].card;
    // Left out.
    let mut rest: Vec<Move> = moves[1..].to_vec();
    if wins(from, &rest, budget) {
        return Some(rest);
    }
    // Made one with the card's next move, played now.
    let next = moves[1..].iter().position(|mv| mv.card == card)?;
    let straight = rest.remove(next);
    let round_trip = straight.dest == Dest::Card(from.below(card));
    rest.insert(0, straight);
    if wins(from, &rest, budget) {
        return Some(rest);
    }
    // Both left out, when the next move puts the card back on the card it
    // lies on here: neither can go alone (the card would be put where it
    // already is, or stay parked where a later move wants room).
    if !round_trip {
        return None;
    }
    rest.remove(0);
    wins(from, &rest, budget).then_some(rest)
}

/// Whether `moves` are all legal from `from` and win.
fn wins(from: &State, moves: &[Move], budget: &mut Budget) -> bool {
    let mut state = from.clone();
    budget.spend_moves(moves.len());
    moves.iter().all(|&mv| state.try_apply(mv).is_ok()) && state.is_won()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::check::{Verdict, replay_moves};
    use crate::deal::test_deal as deal;
    use crate::search::path::tests::with_a_detour;
    use crate::search::{Length, Limits, Outcome, search};

    #[test]
    fn a_parked_card_put_back_is_cut_and_the_rest_still_wins() {
        for seed in [1, 2, 3] {
            let d = deal("fc", seed);
            let limits = Limits {
                length: Length::AsFound,
                ..Limits::default()
            };
            let Outcome::Solved(moves) = search(&d, &limits, None).outcome else {
                panic!("fc.{seed} is solvable");
            };
            let root = State::new(&d);
            let mut longer = with_a_detour(&d, &moves).expect("a card to park");
            assert!(matches!(replay_moves(&d, &longer), Verdict::Won { .. }));
            let deadline = Instant::now() + Duration::from_secs(60);
            let mut budget = Budget::new(u64::MAX, deadline, &limits);
            assert!(cut(&root, &mut longer, &mut budget));
            assert!(
                longer.len() <= moves.len(),
                "fc.{seed} {} {}",
                longer.len(),
                moves.len()
            );
            assert!(matches!(replay_moves(&d, &longer), Verdict::Won { .. }));
        }
    }

    #[test]
    fn no_budget_no_edit() {
        let d = deal("fc", 1);
        let root = State::new(&d);
        let limits = Limits::default();
        let Outcome::Solved(moves) = search(&d, &limits, None).outcome else {
            panic!("fc.1 is solvable");
        };
        let mut longer = with_a_detour(&d, &moves).expect("a card to park");
        let before = longer.clone();
        let mut budget = Budget::new(0, Instant::now() + Duration::from_secs(60), &limits);
        assert!(!cut(&root, &mut longer, &mut budget));
        assert_eq!(longer, before);
    }
}

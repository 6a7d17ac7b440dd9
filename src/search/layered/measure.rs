//! The measure that splits a search's positions into layers (see the
//! module doc of [`super`] for why no move lowers it).

use crate::cards::{CARDS, Card, rank};
use crate::state::{FLOOR, FOUNDATION, State};

/// The most a measure can be: every card up and every card moved.
pub(crate) const MOST: usize = 2 * CARDS;

/// Whether `card` is coded ORIGINAL in the position's key: it lies on a
/// card that is not one rank higher, which can only be the card it was
/// dealt on (no move ever builds on any other such card).
#[inline]
fn on_its_dealt_host(state: &State, card: Card) -> bool {
    let below = state.below(card);
    below < FLOOR && rank(below) != rank(card) + 1
}

/// The layer of a position: the cards no longer on their dealt host, plus
/// the cards on the foundation where no card ever comes back from it.
#[inline]
pub(crate) fn measure(state: &State) -> usize {
    let mut moved = 0;
    let mut up = 0;
    for card in 0..CARDS as Card {
        moved += usize::from(!on_its_dealt_host(state, card));
        up += usize::from(state.below(card) == FOUNDATION);
    }
    if state.returns() { moved } else { moved + up }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal;
    use crate::foundation::Foundation;
    use crate::rules::GAMES;

    /// A xorshift step: the same walks on every run.
    fn next(rng: &mut u64) -> u64 {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    }

    /// Along random walks of every game (Midnight Oil's positions without
    /// its redeals, the only ones a search of `State`s meets) under every
    /// rule set, no move lowers the measure, and a card counted as on its
    /// dealt host is one the key codes so: the key of the position with
    /// that card moved differs in that card's code alone.
    #[test]
    fn no_move_lowers_the_measure_along_random_walks() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut moves_seen = 0;
        for rules in &GAMES {
            for foundation in Foundation::EVERY {
                for seed in 1..=25 {
                    let deal = test_deal(rules.alias, seed).with_foundation(foundation);
                    if crate::midnight::plays(&deal) {
                        continue;
                    }
                    let mut state = State::new(&deal);
                    assert!(measure(&state) <= MOST);
                    for _ in 0..300 {
                        let mut moves = Vec::new();
                        state.for_each_move(|mv| moves.push(mv));
                        if moves.is_empty() {
                            break;
                        }
                        let before = measure(&state);
                        // Every child, not only the one walked to.
                        for &mv in &moves {
                            let mut child = state.clone();
                            child.apply(mv);
                            assert!(
                                measure(&child) >= before,
                                "{} {foundation} {seed}: {mv:?}",
                                rules.name
                            );
                            moves_seen += 1;
                        }
                        state.apply(moves[next(&mut rng) as usize % moves.len()]);
                    }
                }
            }
        }
        assert!(moves_seen > 100_000, "{moves_seen}");
    }

    /// A deal's position: every card on its dealt host but the bottom
    /// ones, those dealt on one rank higher, and those the forced
    /// foundation played up at once.
    #[test]
    fn a_deal_measures_its_bottom_cards_and_its_built_pairs() {
        let deal = test_deal("bd", 1).with_foundation(Foundation::Free);
        let state = State::for_replay(&deal);
        let original = deal.original_below();
        let expected = (0..CARDS)
            .filter(|&c| match original[c] {
                None => true,
                Some(below) => rank(below) == rank(c as Card) + 1,
            })
            .count();
        assert_eq!(measure(&state), expected);
    }
}

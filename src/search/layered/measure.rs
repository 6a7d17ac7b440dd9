//! The measure that splits a search's positions into layers (see the
//! module doc of [`super`] for why no move lowers it).

use crate::cards::{CARDS, Card, rank};
use crate::state::{FLOOR, FOUNDATION, Key, State};

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

/// A hash of a position's cell, read from its key: which cards are coded
/// ORIGINAL (a code of 0 in the key), and, where no card comes back
/// (`returns` false), which are on the foundation (a code of 3). Within a
/// layer no move leaves a cell: the set of cards no longer ORIGINAL only
/// grows, and so does the set of cards up where none comes back; two
/// cells of one measure are neither larger than the other. So a layer's
/// positions can be searched a group of cells at a time, and a layer's
/// path found again in its one cell.
pub(crate) fn cell_hash(key: &Key, returns: bool) -> u64 {
    let mut h = 0u64;
    for (moved, up) in key.moved_and_up_fields() {
        let up = if returns { 0 } else { up };
        h = (h.rotate_left(29) ^ moved ^ up.rotate_left(1)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h ^ (h >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal;
    use crate::foundation::Foundation;
    use crate::rules::GAMES;
    use crate::state::testing::xorshift;

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
                        let cell = cell_hash(&state.key(), state.returns());
                        // Every child, not only the one walked to.
                        for &mv in &moves {
                            let mut child = state.clone();
                            child.apply(mv);
                            let after = measure(&child);
                            assert!(
                                after >= before,
                                "{} {foundation} {seed}: {mv:?}",
                                rules.name
                            );
                            if after == before {
                                assert_eq!(cell_hash(&child.key(), child.returns()), cell);
                            }
                            moves_seen += 1;
                        }
                        state.apply(moves[xorshift(&mut rng) as usize % moves.len()]);
                    }
                }
            }
        }
        assert!(moves_seen > 100_000, "{moves_seen}");
    }

    /// The cell hash reads the key as the measure reads the position: two
    /// positions of one measure with the same cards moved (and up) hash
    /// alike, and positions of other cells mostly differ.
    #[test]
    fn the_cell_hash_follows_the_cards_moved_and_up() {
        let mut rng = 0x1234_5678_9ABC_DEF1u64;
        let mut cells = std::collections::HashMap::new();
        for rules in &GAMES {
            let deal = test_deal(rules.alias, 3);
            let mut state = State::new(&deal);
            for _ in 0..200 {
                let moved: u64 = (0..CARDS as Card)
                    .filter(|&c| !on_its_dealt_host(&state, c))
                    .fold(0, |m, c| m | 1 << c);
                let up: u64 = (0..CARDS as Card)
                    .filter(|&c| state.below(c) == FOUNDATION)
                    .fold(0, |m, c| m | 1 << c);
                let h = cell_hash(&state.key(), false);
                assert_eq!(*cells.entry((rules.alias, moved, up)).or_insert(h), h);
                let mut moves = Vec::new();
                state.for_each_move(|mv| moves.push(mv));
                let Some(&mv) = moves.get(xorshift(&mut rng) as usize % moves.len().max(1)) else {
                    break;
                };
                state.apply(mv);
            }
        }
        let hashes: std::collections::HashSet<_> = cells.values().collect();
        assert!(
            hashes.len() * 10 >= cells.len() * 9,
            "{} of {}",
            hashes.len(),
            cells.len()
        );
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

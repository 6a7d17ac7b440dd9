//! What the state's tests share: deals, reproducible random walks, and the
//! invariants every position must keep.

use std::ops::RangeInclusive;

use super::{FOUNDATION, State};
use crate::cards::{CARDS, Card, KING, SUITS, card_of, rank, suit};
use crate::deal::{Deal, test_deal};
use crate::rules::{GAMES, Rules};

/// The deal of `game` (long name or alias) and `seed`, and its normalized
/// initial position.
pub(super) fn initial(game: &str, seed: u32) -> (Deal, State) {
    let deal = test_deal(game, seed);
    let state = State::new(&deal);
    (deal, state)
}

/// Every game's deals of `seeds`, each with its initial position.
pub(super) fn deals(
    seeds: RangeInclusive<u32>,
) -> impl Iterator<Item = (&'static Rules, u32, Deal, State)> {
    GAMES.iter().flat_map(move |rules| {
        seeds.clone().map(move |seed| {
            let (deal, state) = initial(rules.alias, seed);
            (rules, seed, deal, state)
        })
    })
}

/// A xorshift step: the tests' random numbers, the same on every run.
pub(super) fn xorshift(rng: &mut u64) -> u64 {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

/// Calls `visit` with a deal's position and each position of a random
/// legal walk from it, up to `steps` of them.
pub(super) fn walk(
    game: &str,
    seed: u32,
    steps: usize,
    rng: &mut u64,
    mut visit: impl FnMut(&State),
) {
    let (_, mut state) = initial(game, seed);
    for _ in 0..steps {
        visit(&state);
        let mut moves = Vec::new();
        state.for_each_move(|m| moves.push(m));
        if moves.is_empty() {
            break;
        }
        state.apply(moves[(xorshift(rng) % moves.len() as u64) as usize]);
    }
}

/// No accessible card is its suit's next one.
pub(super) fn is_normalized(state: &State) -> bool {
    (0..SUITS as u8).all(|s| {
        let h = state.foundation[s as usize];
        h == KING || !state.is_accessible(card_of(h + 1, s))
    })
}

/// The foundation holds exactly each suit's lowest cards.
pub(super) fn foundation_is_consistent(state: &State) -> bool {
    (0..CARDS as Card)
        .all(|c| (state.below(c) == FOUNDATION) == (rank(c) <= state.foundation[suit(c) as usize]))
}

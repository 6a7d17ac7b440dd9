//! What a quick ranking of positions looks at, gathered in one walk up
//! the columns: the fast pass's (`search/fast.rs`) measure of how far a
//! position looks from won.

use super::State;
use super::bits::{ALL_CARDS, card_bits, lower_of_suit};
use crate::cards::{KING, SUITS, card_of};

/// Counts of cards in the way, each a reason a position is far from won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Cards beneath the built run at their column's top: each must move
    /// before its column is in order.
    pub under_runs: u32,
    /// Cards lying above a lower card of their own suit.
    pub own_inversions: u32,
    /// Cards lying on a suit's next card for the foundation.
    pub next_blockers: u32,
}

impl State {
    /// [`Features`] of this position.
    pub fn features(&self) -> Features {
        let build = self.rules.build;
        let mut next = 0u64;
        for (s, &height) in self.foundation.iter().enumerate().take(SUITS) {
            if height < KING {
                next |= 1 << card_of(height + 1, s as u8);
            }
        }
        let mut features = Features::default();
        let mut bottoms = card_bits(&self.below).floor;
        while bottoms != 0 {
            let mut card = bottoms.trailing_zeros() as u8;
            bottoms &= bottoms - 1;
            let (mut beneath, mut index, mut run_start) = (0u64, 0u32, 0u32);
            // Next cards met, and the sum of their places from the bottom.
            let (mut nexts, mut places) = (0u32, 0u32);
            loop {
                if beneath & lower_of_suit(card) != 0 {
                    features.own_inversions += 1;
                }
                if next & (1 << card) != 0 {
                    nexts += 1;
                    places += index;
                }
                beneath |= 1 << card;
                match self.above(card) {
                    Some(above) => {
                        if !build.allows(above, card) {
                            run_start = index + 1;
                        }
                        card = above;
                        index += 1;
                    }
                    None => break,
                }
            }
            features.under_runs += run_start;
            features.next_blockers += nexts * index - places;
        }
        features
    }
}

impl State {
    /// The cards lying above a lower card of their own suit, a bit per
    /// card: none of them can go up before a move of the player takes it
    /// off that card's column (the lower card goes up first, and cannot
    /// while covered).
    pub fn over_own_lower(&self) -> u64 {
        let mut over = 0u64;
        let mut bottoms = card_bits(&self.below).floor;
        while bottoms != 0 {
            let mut card = bottoms.trailing_zeros() as u8;
            bottoms &= bottoms - 1;
            let mut beneath = 0u64;
            loop {
                if beneath & lower_of_suit(card) != 0 {
                    over |= 1 << card;
                }
                beneath |= 1 << card;
                match self.above(card) {
                    Some(above) => card = above,
                    None => break,
                }
            }
        }
        over
    }

    /// The cards on the foundation, a bit per card.
    pub fn on_foundation(&self) -> u64 {
        let bits = card_bits(&self.below);
        ALL_CARDS & !(bits.in_column | bits.register)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::deals;
    use super::*;

    #[test]
    fn features_count_what_the_columns_show() {
        for (rules, seed, _, state) in deals(1..=30) {
            let (mut under, mut own, mut blockers) = (0, 0, 0);
            let foundation = state.foundation();
            for column in state.columns() {
                let top_run = (1..column.len())
                    .rev()
                    .find(|&i| !rules.build.allows(column[i], column[i - 1]))
                    .unwrap_or(0);
                under += top_run as u32;
                for (i, &card) in column.iter().enumerate() {
                    let s = crate::cards::suit(card);
                    let r = crate::cards::rank(card);
                    if column[..i]
                        .iter()
                        .any(|&c| crate::cards::suit(c) == s && crate::cards::rank(c) < r)
                    {
                        own += 1;
                    }
                    if r == foundation[s as usize] + 1 {
                        blockers += (column.len() - i - 1) as u32;
                    }
                }
            }
            let want = Features {
                under_runs: under,
                own_inversions: own,
                next_blockers: blockers,
            };
            assert_eq!(state.features(), want, "{} {seed}", rules.name);
            assert_eq!(state.over_own_lower().count_ones(), own);
            let up: u32 = foundation.iter().map(|&h| h as u32).sum();
            assert_eq!(state.on_foundation().count_ones(), up);
        }
    }
}

//! What a quick ranking of positions looks at, gathered in one walk up
//! the columns: the fast pass's (`search/fast.rs`) measure of how far a
//! position looks from won.

use super::bits::{ALL_CARDS, card_bits, lower_of_suit};
use super::{FLOOR, State};
use crate::cards::{CARDS, KING, SUITS, card_of};

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

/// A position's [`Features`] column by column, from which a child's come
/// by walking only the columns its step changed ([`State::features_after`]):
/// the fast pass ranks every child of every position it expands, and a
/// step changes two or three columns of eight.
pub struct ColumnFeatures {
    /// For each card in a column, the bottom card of its column.
    bottom: [u8; CARDS],
    /// For each column's bottom card, that column's `under_runs` and
    /// `own_inversions`.
    counts: [(u8, u8); CARDS],
    /// Their sums over the columns.
    under_runs: u32,
    own_inversions: u32,
    /// [`Features::next_blockers`] suit by suit: a child whose step left
    /// a suit's next card and its column alone has the same count there,
    /// and the walk up from that card (a load per card, each waiting for
    /// the one before) is spared.
    blockers: [u8; SUITS],
}

impl State {
    /// [`Features`] of this position.
    pub fn features(&self) -> Features {
        let mut features = Features {
            next_blockers: self.next_blockers(),
            ..Features::default()
        };
        let mut bottoms = card_bits(&self.below).floor;
        while bottoms != 0 {
            let bottom = bottoms.trailing_zeros() as u8;
            bottoms &= bottoms - 1;
            let (under, own) = self.column_counts(bottom, |_| {});
            features.under_runs += under as u32;
            features.own_inversions += own as u32;
        }
        features
    }

    /// The column features of this position, for [`State::features_after`].
    pub fn column_features(&self) -> ColumnFeatures {
        let mut columns = ColumnFeatures {
            bottom: [0; CARDS],
            counts: [(0, 0); CARDS],
            under_runs: 0,
            own_inversions: 0,
            blockers: [0; SUITS],
        };
        for (s, blockers) in columns.blockers.iter_mut().enumerate() {
            *blockers = self.suit_blockers(s) as u8;
        }
        let mut bottoms = card_bits(&self.below).floor;
        while bottoms != 0 {
            let bottom = bottoms.trailing_zeros() as u8;
            bottoms &= bottoms - 1;
            let counts = self.column_counts(bottom, |card| columns.bottom[card as usize] = bottom);
            columns.counts[bottom as usize] = counts;
            columns.under_runs += counts.0 as u32;
            columns.own_inversions += counts.1 as u32;
        }
        columns
    }

    /// [`Features`] of this position, a child of `parent` (`columns` its
    /// column features): the columns that hold no card that moved are
    /// the parent's, and only the others are walked.
    pub fn features_after(&self, parent: &State, columns: &ColumnFeatures) -> Features {
        let mut moved = parent.key.changed_cards(&self.key);
        // The bottom cards of the columns that lost or gained a card.
        let mut touched = 0u64;
        while moved != 0 {
            let card = moved.trailing_zeros() as u8;
            moved &= moved - 1;
            if parent.below(card) <= FLOOR {
                touched |= 1 << columns.bottom[card as usize];
            }
            let mut c = card;
            while self.below(c) <= FLOOR {
                let under = self.below(c);
                if under == FLOOR {
                    touched |= 1 << c;
                    break;
                }
                if parent.below(under) == self.below(under) {
                    touched |= 1 << columns.bottom[under as usize];
                    break;
                }
                c = under;
            }
        }
        let mut next_blockers = 0;
        for s in 0..SUITS {
            let next = self.foundation[s];
            if next >= KING {
                continue;
            }
            let card = card_of(next + 1, s as u8);
            let same = next == parent.foundation[s]
                && parent.below(card) <= FLOOR
                && touched & 1 << columns.bottom[card as usize] == 0;
            next_blockers += if same {
                columns.blockers[s] as u32
            } else {
                self.suit_blockers(s)
            };
        }
        let mut under_runs = columns.under_runs;
        let mut own_inversions = columns.own_inversions;
        while touched != 0 {
            let bottom = touched.trailing_zeros() as u8;
            touched &= touched - 1;
            if parent.below(bottom) == FLOOR {
                let (under, own) = columns.counts[bottom as usize];
                under_runs -= under as u32;
                own_inversions -= own as u32;
            }
            if self.below(bottom) == FLOOR {
                let (under, own) = self.column_counts(bottom, |_| {});
                under_runs += under as u32;
                own_inversions += own as u32;
            }
        }
        debug_assert_eq!(next_blockers, self.next_blockers());
        Features {
            under_runs,
            own_inversions,
            next_blockers,
        }
    }

    /// The column on `bottom`, walked up, `visit` told each card: the
    /// cards beneath its top run, and those lying above a lower card of
    /// their own suit.
    #[inline]
    fn column_counts(&self, bottom: u8, mut visit: impl FnMut(u8)) -> (u8, u8) {
        let build = self.rules.build;
        let (mut beneath, mut index, mut run_start, mut own) = (0u64, 0u8, 0u8, 0u8);
        let mut card = bottom;
        loop {
            visit(card);
            own += u8::from(beneath & lower_of_suit(card) != 0);
            beneath |= 1 << card;
            match self.above(card) {
                Some(above) => {
                    if !build.allows(above, card) {
                        run_start = index + 1;
                    }
                    card = above;
                    index += 1;
                }
                None => return (run_start, own),
            }
        }
    }

    /// The cards lying on a suit's next card for the foundation, counted
    /// from each of those cards up.
    fn next_blockers(&self) -> u32 {
        (0..SUITS).map(|s| self.suit_blockers(s)).sum()
    }

    /// The cards lying on suit `s`'s next card, when it lies in a column.
    fn suit_blockers(&self, s: usize) -> u32 {
        let height = self.foundation[s];
        if height >= KING {
            return 0;
        }
        let mut card = card_of(height + 1, s as u8);
        if self.below(card) > FLOOR {
            return 0;
        }
        let mut blockers = 0;
        while let Some(above) = self.above(card) {
            blockers += 1;
            card = above;
        }
        blockers
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
    use super::super::testing::{deals, walk};
    use super::*;

    /// Along random walks, every child's features, from its parent's
    /// column features, are the ones a whole walk of it counts, whatever
    /// its step: a single move, a sequence move or a dig.
    #[test]
    fn a_childs_features_follow_from_its_parents_columns() {
        let mut rng = 0x5DEE_CE66_D1CE_4E5Bu64;
        let mut children = 0;
        for (rules, seed, _, _) in deals(1..=15) {
            walk(rules.alias, seed, 80, &mut rng, |parent| {
                let columns = parent.column_features();
                let mut check = |child: &State| {
                    assert_eq!(child.features_after(parent, &columns), child.features());
                    children += 1;
                };
                parent.for_each_move(|mv| {
                    let mut child = parent.clone();
                    child.apply(mv);
                    check(&child);
                });
                parent.for_each_sequence_move(|_, child| check(child));
                parent.for_each_dig(|_, child| check(child));
            });
        }
        assert!(children > 10_000, "{children}");
    }

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

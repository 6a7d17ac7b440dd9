//! The deal (SPEC §4): how a permutation of the pack is laid out into a
//! game's columns and registers, before any card goes to the foundation.

use crate::cards::{CARDS, Card, KING, rank};
use crate::foundation::Foundation;
use crate::rules::GameId;
use crate::shuffle::permutation;

/// The cards as xpat2 lays them out for a deal, nothing played yet, and
/// the foundation rule the deal is played by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// The game and the seed it was dealt from.
    pub id: GameId,
    /// Forced foundation moves (SPEC §5, the default) or free (SPEC §9):
    /// every position of the deal, its moves and its files follow it.
    pub foundation: Foundation,
    /// Columns in xpat2's order, each from its bottom (buried) card to its
    /// top card.
    pub columns: Vec<Vec<Card>>,
    /// Cards dealt straight into registers (Seahaven's last two), in order.
    pub registers: Vec<Card>,
}

impl Deal {
    /// Shuffles with xpat2's generator and deals per the game's row.
    pub fn new(id: GameId) -> Deal {
        let rules = id.rules;
        let mut cards = permutation(id.seed).into_iter();
        let mut columns: Vec<Vec<Card>> = rules
            .deal
            .iter()
            .map(|&n| cards.by_ref().take(n as usize).collect())
            .collect();
        let registers: Vec<Card> = cards.collect();
        if rules.kings_to_bottom {
            for column in &mut columns {
                // A stable partition: kings first, each group in its order.
                let (mut kings, others): (Vec<Card>, Vec<Card>) =
                    column.iter().partition(|&&c| rank(c) == KING);
                kings.extend(others);
                *column = kings;
            }
        }
        Deal {
            id,
            foundation: Foundation::Forced,
            columns,
            registers,
        }
    }

    /// The same deal played by the foundation rule `foundation`.
    pub fn with_foundation(self, foundation: Foundation) -> Deal {
        Deal { foundation, ..self }
    }

    /// For every card, the card it lies on in the deal, or `None` for a
    /// column's bottom card or a card dealt into a register. The search's
    /// compact key refers to this table instead of naming the card.
    pub fn original_below(&self) -> [Option<Card>; CARDS] {
        let mut below = [None; CARDS];
        for column in &self.columns {
            for pair in column.windows(2) {
                below[pair[1] as usize] = Some(pair[0]);
            }
        }
        below
    }
}

/// The deal of `game` (long name or alias) and `seed`, for tests.
#[cfg(test)]
pub(crate) fn test_deal(game: &str, seed: u32) -> Deal {
    Deal::new(GameId {
        rules: crate::rules::find(game).expect("a known game"),
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::test_deal as deal;
    use super::*;
    use crate::rules::GAMES;

    #[test]
    fn every_game_deals_its_shape_with_52_distinct_cards() {
        for rules in &GAMES {
            for seed in [1, 123, 999_999_999] {
                let d = deal(rules.alias, seed);
                let sizes: Vec<u8> = d.columns.iter().map(|c| c.len() as u8).collect();
                assert_eq!(sizes, rules.deal, "{} {seed}", rules.name);
                assert_eq!(d.registers.len(), rules.dealt_to_registers);
                let mut seen = [false; 52];
                for &c in d.columns.iter().flatten().chain(&d.registers) {
                    assert!(!seen[c as usize]);
                    seen[c as usize] = true;
                }
                assert!(seen.iter().all(|&s| s));
            }
        }
    }

    #[test]
    fn the_deal_follows_the_permutation() {
        let p = permutation(123);
        let fc = deal("fc", 123);
        assert_eq!(fc.columns[0], p[0..7]);
        assert_eq!(fc.columns[1], p[7..13]);
        assert_eq!(fc.columns[7], p[46..52]);
        let st = deal("st", 123);
        assert_eq!(st.columns[9], p[45..50]);
        assert_eq!(st.registers, p[50..52]);
        let mo = deal("mo", 123);
        assert_eq!(mo.columns[16], p[48..51]);
        assert_eq!(mo.columns[17], [p[51]]);
    }

    #[test]
    fn bakers_dozen_puts_kings_at_the_bottom_keeping_order() {
        let mut columns_with_kings_moved = 0;
        for seed in 1..=50 {
            let p = permutation(seed);
            let d = deal("bd", seed);
            for (i, column) in d.columns.iter().enumerate() {
                let dealt = &p[i * 4..i * 4 + 4];
                let kings: Vec<Card> = dealt.iter().copied().filter(|&c| rank(c) == KING).collect();
                let others: Vec<Card> =
                    dealt.iter().copied().filter(|&c| rank(c) != KING).collect();
                assert_eq!(column[..kings.len()], kings[..], "bd.{seed} column {i}");
                assert_eq!(column[kings.len()..], others[..], "bd.{seed} column {i}");
                if column[..] != dealt[..] {
                    columns_with_kings_moved += 1;
                }
            }
        }
        assert!(columns_with_kings_moved > 0, "the test must see kings move");
    }
}

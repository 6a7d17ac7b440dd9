//! The position seen as sets of cards, a bit per card (bit `c` for card
//! `c`), so that the move generator and the lost-position closure work on
//! all 52 cards with a few word operations instead of a loop per card.
//!
//! On x86-64 the sets are read off the state's byte arrays 16 cards at a
//! time with SSE2 byte compares; this file holds the state's only `unsafe`.
//! Elsewhere a plain loop per card says the same, and the tests hold the
//! two to each other.

use super::{ABOVE_LEN, FLOOR, NOTHING, REGISTER};
use crate::cards::{CARDS, Card, SUIT_CARDS};

#[cfg(not(target_arch = "x86_64"))]
pub(super) use portable::{card_bits, top_bits};
#[cfg(target_arch = "x86_64")]
pub(super) use sse2::{card_bits, top_bits};

/// Every card, a bit per card.
pub(super) const ALL_CARDS: u64 = (1 << CARDS) - 1;

impl super::State {
    /// The top card of every column, a bit per card.
    #[inline]
    pub(super) fn column_tops(&self) -> u64 {
        card_bits(&self.below).in_column & top_bits(&self.above)
    }
}

/// The cards, a bit per card, of lower rank than `card`: card numbers grow
/// with rank, four to a rank (SPEC §2).
#[inline]
pub(super) fn lower_ranks(card: Card) -> u64 {
    (1u64 << (card & !3)) - 1
}

/// The cards, a bit per card, of the suit of `card` and lower rank.
#[inline]
pub(super) fn lower_of_suit(card: Card) -> u64 {
    (SUIT_CARDS << (card % 4)) & lower_ranks(card)
}

/// Cards by where they lie, a bit per card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CardBits {
    /// On a column's floor: the bottom cards.
    pub floor: u64,
    /// In a column: on a card or on the floor.
    pub in_column: u64,
    pub register: u64,
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    use super::{ABOVE_LEN, CARDS, CardBits, FLOOR, NOTHING, REGISTER};

    /// The first card of each 16-card load. Cards 36..52 come last: 16
    /// bytes from 36 overlap the load before and end with the card array,
    /// and the overlap sets the same bits twice.
    const LOADS: [usize; 4] = [0, 16, 32, 36];

    /// The bytes of `bytes[first..first + 16]` equal to `byte`, and those
    /// below it, a bit per byte from bit `first` on. Bytes compare as
    /// signed: callers compare codes below 128, or `NOTHING` (-1) for
    /// equality only.
    #[inline]
    fn compare<const N: usize>(bytes: &[u8; N], first: usize, byte: u8) -> (u64, u64) {
        let chunk = &bytes[first..first + 16];
        // SAFETY: SSE2 is part of x86-64, so these intrinsics are always
        // there; the unaligned load reads exactly the 16 bytes of `chunk`,
        // which the slice's bounds check keeps inside `bytes`.
        let (equal, less) = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let b = _mm_set1_epi8(byte as i8);
            (
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, b)),
                _mm_movemask_epi8(_mm_cmplt_epi8(v, b)),
            )
        };
        (
            (equal as u32 as u64) << first,
            (less as u32 as u64) << first,
        )
    }

    /// Where each card lies, from `State::below`.
    #[inline]
    pub(in super::super) fn card_bits(below: &[u8; CARDS]) -> CardBits {
        let mut bits = CardBits::default();
        for first in LOADS {
            let (floor, on_card) = compare(below, first, FLOOR);
            let (register, _) = compare(below, first, REGISTER);
            bits.floor |= floor;
            bits.in_column |= floor | on_card;
            bits.register |= register;
        }
        bits
    }

    /// The cards nothing lies on, from `State::above`.
    #[inline]
    pub(in super::super) fn top_bits(above: &[u8; ABOVE_LEN]) -> u64 {
        let mut bits = 0;
        for first in LOADS {
            bits |= compare(above, first, NOTHING).0;
        }
        bits
    }
}

/// The same sets, a card at a time: what the SSE2 form must equal.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod portable {
    use super::{ABOVE_LEN, CARDS, CardBits, FLOOR, NOTHING, REGISTER};

    /// Where each card lies, from `State::below`.
    #[inline]
    pub(in super::super) fn card_bits(below: &[u8; CARDS]) -> CardBits {
        let mut bits = CardBits::default();
        for (card, &b) in below.iter().enumerate() {
            bits.floor |= ((b == FLOOR) as u64) << card;
            bits.in_column |= ((b <= FLOOR) as u64) << card;
            bits.register |= ((b == REGISTER) as u64) << card;
        }
        bits
    }

    /// The cards nothing lies on, from `State::above`.
    #[inline]
    pub(in super::super) fn top_bits(above: &[u8; ABOVE_LEN]) -> u64 {
        let mut bits = 0;
        for (card, &a) in above[..CARDS].iter().enumerate() {
            bits |= ((a == NOTHING) as u64) << card;
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::walk;
    use super::*;
    use crate::rules::GAMES;

    /// Over random walks in every game, the sets the fast form reads off a
    /// position are the ones a loop per card finds.
    #[test]
    fn the_fast_sets_are_the_card_by_card_ones() {
        let mut rng = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut registers_seen = false;
        for rules in &GAMES {
            for seed in 1..=10 {
                walk(rules.alias, seed, 100, &mut rng, |state| {
                    let bits = card_bits(&state.below);
                    assert_eq!(bits, portable::card_bits(&state.below));
                    assert_eq!(top_bits(&state.above), portable::top_bits(&state.above));
                    assert_eq!(bits.in_column & ALL_CARDS, bits.in_column);
                    registers_seen |= bits.register != 0;
                });
            }
        }
        assert!(registers_seen);
    }
}

//! The key: a position's compact, canonical identity within one deal, and
//! the decoder that rebuilds the position from it.
//!
//! The search stores keys, not positions, so the key is as small as the
//! relation allows: 3 bits per card saying what lies below it. Every card
//! not on the foundation lies either on a card one rank higher (placed
//! there by a move, or dealt so: coded by that card's suit), or on the card
//! it was dealt on (the one other card a move can never put under it), or
//! on a column's floor, or in a register. The deal supplies the rest.
//! Under free rules too (SPEC §9) a suit's cards on the foundation are its
//! lowest ones, so the foundation is implied by which cards have the
//! foundation's code: a count per suit, and the key stays canonical.

use super::automatic::Automatic;
use super::{ABOVE_LEN, FLOOR, FOUNDATION, NOTHING, REGISTER, State};
use crate::cards::{CARDS, Card, KING, SUITS, card_of, rank, suit};
use crate::deal::Deal;
use crate::rules::Rules;

/// A key code per card, see [`Key`].
mod code {
    /// Lies on the card it lay on in the deal (and that card is not one rank
    /// higher: then it is coded as [`ON_SUIT`] + suit).
    pub const ORIGINAL: u64 = 0;
    pub const FLOOR: u64 = 1;
    pub const REGISTER: u64 = 2;
    pub const FOUNDATION: u64 = 3;
    /// Lies on the card one rank higher of suit `code - ON_SUIT`.
    pub const ON_SUIT: u64 = 4;
}

/// Bits of one card's code.
const CODE_BITS: usize = 3;
/// How many codes there are: what a code can index.
const CODES: usize = 1 << CODE_BITS;
/// One card's code, unshifted, with all its bits set.
const CODE_MASK: u64 = CODES as u64 - 1;
/// Cards per key word: 21 codes fill 63 of a word's 64 bits.
const CARDS_PER_WORD: usize = u64::BITS as usize / CODE_BITS;
/// Key words: three, the last holding 10 cards.
const WORDS: usize = CARDS.div_ceil(CARDS_PER_WORD);

/// The compact, canonical identity of a position within one deal: a 3-bit
/// code per card saying what lies below it (see the module doc). Its
/// 156 bits of content fill three words; a store may pack them tighter
/// through [`Key::words`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Key([u64; WORDS]);

impl Key {
    /// The three words, for a store that packs keys its own way.
    #[inline]
    pub fn words(&self) -> [u64; WORDS] {
        self.0
    }

    /// A key from [`Key::words`].
    #[inline]
    pub fn from_words(words: [u64; WORDS]) -> Key {
        Key(words)
    }

    /// How many cards lie elsewhere in `later` than here, leaving out
    /// those gone to the foundation, when they are `most` or fewer: a
    /// lower bound on the moves from this position to `later`, since a
    /// move places one card and every other change it brings is a card
    /// going up by itself. Counted a bit at a time and given up past
    /// `most`, which is quicker than counting them all where the build
    /// has no population-count instruction.
    #[inline]
    pub fn moved_cards(&self, later: &Key, most: u32) -> Option<u32> {
        let mut moved = 0;
        for (&here, &there) in self.0.iter().zip(&later.0) {
            let changed = here ^ there;
            let changed = (changed | changed >> 1 | changed >> 2) & FIELDS;
            let (b0, b1, b2) = (there & FIELDS, (there >> 1) & FIELDS, (there >> 2) & FIELDS);
            let mut fields = changed & !(b0 & b1 & !b2);
            while fields != 0 {
                if moved == most {
                    return None;
                }
                moved += 1;
                fields &= fields - 1;
            }
        }
        Some(moved)
    }

    /// Per key word, the cards no longer coded ORIGINAL (moved from the
    /// card they were dealt on) and the cards coded FOUNDATION, each as the
    /// lowest bit of its 3-bit field: what a layered search groups
    /// positions by, read straight from the key without decoding it.
    #[inline]
    pub fn moved_and_up_fields(&self) -> [(u64, u64); WORDS] {
        let up_code = code::FOUNDATION * FIELDS;
        self.0.map(|w| {
            let moved = (w | w >> 1 | w >> 2) & FIELDS;
            let other = w ^ up_code;
            let up = !(other | other >> 1 | other >> 2) & FIELDS;
            (moved, up)
        })
    }

    /// The cards that lie elsewhere in `other` than here, a bit per card.
    pub fn changed_cards(&self, other: &Key) -> u64 {
        let mut cards = 0u64;
        for (word, (&here, &there)) in self.0.iter().zip(&other.0).enumerate() {
            let changed = here ^ there;
            let mut fields = (changed | changed >> 1 | changed >> 2) & FIELDS;
            while fields != 0 {
                let field = fields.trailing_zeros() as usize / CODE_BITS;
                fields &= fields - 1;
                cards |= 1 << (word * CARDS_PER_WORD + field);
            }
        }
        cards
    }

    /// The key with `card` coded as lying in a register: a mark that a
    /// game without registers (Baker's Dozen) never uses, so that a key
    /// can also name a set of positions (`search/components`).
    pub fn marked(&self, card: Card) -> Key {
        let mut key = *self;
        key.record(card, REGISTER);
        key
    }

    /// Records that `card` now lies on `under`: a card, [`FLOOR`],
    /// [`REGISTER`] or [`FOUNDATION`].
    #[inline]
    pub(super) fn record(&mut self, card: Card, under: u8) {
        let code = match under {
            FLOOR => code::FLOOR,
            REGISTER => code::REGISTER,
            FOUNDATION => code::FOUNDATION,
            onto if rank(onto) == rank(card) + 1 => code::ON_SUIT + suit(onto) as u64,
            _ => code::ORIGINAL,
        };
        let c = card as usize;
        let (word, shift) = (c / CARDS_PER_WORD, CODE_BITS * (c % CARDS_PER_WORD));
        self.0[word] = (self.0[word] & !(CODE_MASK << shift)) | (code << shift);
    }
}

/// Rebuilds positions of one deal from their keys. What each 3-bit code
/// means for each card is worked out once per deal, so decoding is a table
/// look-up per card with no branch to mispredict (the search decodes every
/// position it expands).
pub struct KeyDecoder {
    rules: &'static Rules,
    automatic: Automatic,
    returns: bool,
    below: [[u8; CODES]; CARDS],
}

impl KeyDecoder {
    /// A decoder for the keys of `deal`'s positions.
    pub fn new(deal: &Deal) -> KeyDecoder {
        let original = deal.original_below();
        let mut below = [[FOUNDATION; CODES]; CARDS];
        for card in 0..CARDS as Card {
            let table = &mut below[card as usize];
            // A code no key holds for this card decodes to the foundation.
            table[code::ORIGINAL as usize] = original[card as usize].unwrap_or(FOUNDATION);
            table[code::FLOOR as usize] = FLOOR;
            table[code::REGISTER as usize] = REGISTER;
            table[code::FOUNDATION as usize] = FOUNDATION;
            if rank(card) < KING {
                for s in 0..SUITS as u8 {
                    table[(code::ON_SUIT + s as u64) as usize] = card_of(rank(card) + 1, s);
                }
            }
        }
        KeyDecoder {
            rules: deal.id.rules,
            automatic: Automatic::for_search(deal),
            returns: State::dealt(deal, Automatic::Nothing).returns,
            below,
        }
    }

    /// The position whose key is `key`.
    #[inline]
    pub fn state(&self, key: Key) -> State {
        let counts = Counts::of(key);
        let mut state = State {
            rules: self.rules,
            automatic: self.automatic,
            returns: self.returns,
            below: [FOUNDATION; CARDS],
            above: [NOTHING; ABOVE_LEN],
            foundation: counts.foundation,
            registers_used: counts.registers as u8,
            empty_columns: (self.rules.columns - counts.bottoms as usize) as u8,
            key,
        };
        // What lies below each card, and above: a card on the floor, in a
        // register or on the foundation marks a slot past the cards, with
        // no branch to mispredict; those slots are cleared after.
        for (word, &bits) in key.0.iter().enumerate() {
            let first = word * CARDS_PER_WORD;
            let cards = (CARDS - first).min(CARDS_PER_WORD);
            let mut bits = bits;
            for card in first..first + cards {
                let below = self.below[card][(bits & CODE_MASK) as usize];
                bits >>= CODE_BITS;
                state.below[card] = below;
                state.above[below as usize] = card as u8;
            }
        }
        state.above[FLOOR as usize..].fill(NOTHING);
        state
    }
}

/// How many cards of a key hold the codes a position counts.
struct Counts {
    /// On a column's floor: one per non-empty column.
    bottoms: u32,
    registers: u32,
    foundation: [u8; SUITS],
}

impl Counts {
    /// Counted from the key's bits a word at a time: for each code field,
    /// whether it holds one code.
    #[inline]
    fn of(key: Key) -> Counts {
        let mut counts = Counts {
            bottoms: 0,
            registers: 0,
            foundation: [0; SUITS],
        };
        for (word, &bits) in key.0.iter().enumerate() {
            let (b0, b1, b2) = (bits & FIELDS, (bits >> 1) & FIELDS, (bits >> 2) & FIELDS);
            let floor = b0 & !b1 & !b2;
            let register = !b0 & b1 & !b2;
            let foundation = b0 & b1 & !b2;
            counts.bottoms += floor.count_ones();
            counts.registers += register.count_ones();
            for (s, height) in counts.foundation.iter_mut().enumerate() {
                *height += (foundation & SUIT_FIELDS[word][s]).count_ones() as u8;
            }
        }
        counts
    }
}

/// The lowest bit of every code field of a key word.
const FIELDS: u64 = {
    let mut m = 0;
    let mut i = 0;
    while i < CARDS_PER_WORD {
        m |= 1 << (CODE_BITS * i);
        i += 1;
    }
    m
};

/// Per key word and suit: the lowest bit of the fields of that suit's cards.
const SUIT_FIELDS: [[u64; SUITS]; WORDS] = {
    let mut m = [[0; SUITS]; WORDS];
    let mut card = 0;
    while card < CARDS {
        m[card / CARDS_PER_WORD][card % SUITS] |= 1 << (CODE_BITS * (card % CARDS_PER_WORD));
        card += 1;
    }
    m
};

#[cfg(test)]
mod tests {
    use super::super::testing::{deals, initial, walk, walk_from};
    use super::*;
    use crate::deal::test_deal;
    use crate::foundation::Foundation;

    /// The decoded position is the position, down to the counts the key
    /// holds only implicitly.
    fn assert_decodes(decoder: &KeyDecoder, state: &State) {
        let back = decoder.state(state.key());
        assert_eq!(back, *state);
        assert_eq!(back.key(), state.key());
        assert_eq!(back.above, state.above);
        assert_eq!(back.foundation, state.foundation);
        assert_eq!(back.empty_columns, state.empty_columns);
        assert_eq!(back.registers_used, state.registers_used);
    }

    #[test]
    fn initial_positions_decode_from_their_keys() {
        for (_, _, deal, state) in deals(1..=200) {
            assert_decodes(&KeyDecoder::new(&deal), &state);
        }
    }

    #[test]
    fn positions_of_random_walks_decode_from_their_keys() {
        let mut rng = 0x2545F4914F6CDD1Du64;
        for (rules, seed, deal, _) in deals(1..=30) {
            let decoder = KeyDecoder::new(&deal);
            walk(rules.alias, seed, 200, &mut rng, |state| {
                assert_decodes(&decoder, state);
            });
        }
    }

    /// Under free rules a suit's cards on the foundation are still its
    /// lowest ones, so counting the foundation codes of each suit still
    /// gives its height: the key stays canonical and decodes, in the free
    /// search's positions and in those of a free replay.
    #[test]
    fn free_positions_decode_from_their_keys() {
        let mut rng = 0x0F0F_F0F0_1357_9BDFu64;
        for rules in &crate::rules::GAMES {
            for seed in 1..=20 {
                let deal = test_deal(rules.alias, seed).with_foundation(Foundation::Free);
                let decoder = KeyDecoder::new(&deal);
                for start in [State::new(&deal), State::for_replay(&deal)] {
                    walk_from(start, 200, &mut rng, |state| {
                        assert_decodes(&decoder, state)
                    });
                }
            }
        }
    }

    /// Along random walks, a position is as many moved cards from each
    /// later one as `moved_cards` says, at most the moves between them;
    /// `changed_cards` names the cards that lie elsewhere.
    #[test]
    fn moved_cards_bound_the_moves_between_two_positions() {
        let mut rng = 0x1234_5678_9ABC_DEF1u64;
        let mut exact = 0;
        for (rules, seed, _, _) in deals(1..=10) {
            let mut path: Vec<State> = Vec::new();
            walk(rules.alias, seed, 60, &mut rng, |state| {
                path.push(state.clone())
            });
            for (i, a) in path.iter().enumerate() {
                for (steps, b) in path[i..].iter().enumerate() {
                    let moved = (0..CARDS as Card)
                        .filter(|&c| a.below(c) != b.below(c) && b.below(c) != FOUNDATION)
                        .count() as u32;
                    assert_eq!(a.key().moved_cards(&b.key(), 52), Some(moved));
                    let most = moved.saturating_sub(1);
                    assert_eq!(
                        a.key().moved_cards(&b.key(), most),
                        (moved == 0).then_some(0)
                    );
                    let changed = (0..CARDS as Card)
                        .filter(|&c| a.below(c) != b.below(c))
                        .fold(0u64, |m, c| m | 1 << c);
                    assert_eq!(a.key().changed_cards(&b.key()), changed);
                    assert!(moved <= steps as u32, "{} {seed}", rules.name);
                    exact += usize::from(moved == steps as u32 && steps > 1);
                }
            }
        }
        assert!(exact > 0);
    }

    #[test]
    fn column_and_register_order_do_not_change_the_key() {
        let (deal, state) = initial("fc", 123);
        let mut swapped = deal.clone();
        swapped.columns.swap(0, 5);
        swapped.columns.swap(2, 7);
        assert_eq!(State::new(&swapped).key(), state.key());
        let (deal, state) = initial("st", 5);
        let mut swapped = deal.clone();
        swapped.registers.reverse();
        assert_eq!(State::new(&swapped).key(), state.key());
    }
}

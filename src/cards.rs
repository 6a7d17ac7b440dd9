//! Cards as plain `u8` numbers, exactly as SPEC §2 numbers them.
//!
//! A card `n` in `0..52` has rank `n / 4 + 1` (Ace = 1 … King = 13) and suit
//! `n % 4`: 0 clubs, 1 spades, 2 hearts, 3 diamonds. Keeping the card a bare
//! byte keeps the search state small; the helpers below are the only place
//! that knows the numbering.

use std::fmt;

/// A card, `0..52` (SPEC §2).
pub type Card = u8;

/// Number of cards in the pack.
pub const CARDS: usize = 52;
/// Number of suits, and of foundation piles.
pub const SUITS: usize = 4;
/// Highest rank (King).
pub const KING: u8 = 13;
/// Every card of suit 0 (clubs), a bit per card (bit `c` for card `c`);
/// shifted left by a suit, that suit's cards.
pub const SUIT_CARDS: u64 = 0x1_1111_1111_1111;
/// The four cards of rank 1 (the Aces), a bit per card; shifted left by
/// `card_of(rank, 0)`, the four cards of that rank.
pub const RANK_CARDS: u64 = 0xF;

/// Rank of a card: 1 (Ace) to 13 (King).
#[inline]
pub const fn rank(card: Card) -> u8 {
    card / 4 + 1
}

/// Suit of a card: 0 clubs, 1 spades, 2 hearts, 3 diamonds.
#[inline]
pub const fn suit(card: Card) -> u8 {
    card % 4
}

/// Hearts and diamonds (suits 2 and 3) are red; clubs and spades black.
#[inline]
pub const fn is_red(card: Card) -> bool {
    suit(card) >= 2
}

/// The card of rank `rank` (1..=13) in suit `suit`.
#[inline]
pub const fn card_of(rank: u8, suit: u8) -> Card {
    (rank - 1) * 4 + suit
}

/// Each suit's next card to go up on foundations of these heights, a bit
/// per card (none past a King).
#[inline]
pub fn next_cards(foundation: &[u8; SUITS]) -> u64 {
    let mut next = 0u64;
    for (s, &height) in foundation.iter().enumerate() {
        if height < KING {
            next |= 1 << card_of(height + 1, s as u8);
        }
    }
    next
}

const RANK_NAMES: [&str; KING as usize] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];
const SUIT_SYMBOLS: [char; SUITS] = ['♣', '♠', '♥', '♦'];

/// Shows a card the way a player names it (`9♠`, `K♦`), for messages and
/// for the printed deal. Solution files only ever hold the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name(pub Card);

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = format!(
            "{}{}",
            RANK_NAMES[rank(self.0) as usize - 1],
            SUIT_SYMBOLS[suit(self.0) as usize]
        );
        f.pad(&name)
    }
}

/// A set of cards (a bit per card) as a person names it: whole ranks as
/// `Queens`, other cards by name, joined by `and` (`Queens and Tens`,
/// `Jacks and 9♠`); `no cards` for none.
pub struct CardSet(pub u64);

const RANK_PLURALS: [&str; KING as usize] = [
    "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
    "Jacks", "Queens", "Kings",
];

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names = Vec::new();
        let mut rest = self.0;
        for r in (1..=KING).rev() {
            let whole = RANK_CARDS << card_of(r, 0);
            if rest & whole == whole {
                names.push(RANK_PLURALS[r as usize - 1].to_string());
                rest &= !whole;
            }
        }
        let singles = (0..CARDS as Card).rev().filter(|&c| rest >> c & 1 == 1);
        names.extend(singles.map(|c| Name(c).to_string()));
        match names.split_last() {
            None => f.write_str("no cards"),
            Some((last, [])) => f.write_str(last),
            Some((last, others)) => write!(f, "{} and {last}", others.join(", ")),
        }
    }
}

/// The foundation as a person reads it, each suit's top card or `-`, and
/// the count: `Foundation:  3♣  ♠ -  A♥  ♦ -   (4 cards)`.
pub struct FoundationLine(pub [u8; SUITS]);

impl fmt::Display for FoundationLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Foundation:")?;
        for (s, &n) in self.0.iter().enumerate() {
            match n {
                0 => write!(f, "  {} -", SUIT_SYMBOLS[s])?,
                n => write!(f, "  {}", Name(card_of(n, s as u8)))?,
            }
        }
        let count: u32 = self.0.iter().map(|&n| u32::from(n)).sum();
        write!(f, "   ({count} cards)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_cards_are_one_above_each_foundation_and_none_past_a_king() {
        let next = next_cards(&[0, 1, KING, 12]);
        assert_eq!(
            next,
            1 << card_of(1, 0) | 1 << card_of(2, 1) | 1 << card_of(13, 3)
        );
    }

    #[test]
    fn numbering_follows_the_spec() {
        assert_eq!((rank(0), suit(0)), (1, 0)); // ace of clubs
        assert_eq!((rank(50), suit(50)), (13, 2)); // king of hearts
        assert_eq!((rank(51), suit(51)), (13, 3)); // king of diamonds
        assert!(!is_red(0) && !is_red(1) && is_red(2) && is_red(3));
        for c in 0..52u8 {
            assert_eq!(card_of(rank(c), suit(c)), c);
        }
    }

    #[test]
    fn sets_of_cards_read_as_ranks_then_cards() {
        let queens = RANK_CARDS << card_of(12, 0);
        let tens = RANK_CARDS << card_of(10, 0);
        assert_eq!(CardSet(queens | tens).to_string(), "Queens and Tens");
        assert_eq!(
            CardSet(tens | 1 << 33 | 1 << 0).to_string(),
            "Tens, 9♠ and A♣"
        );
        assert_eq!(
            CardSet(SUIT_CARDS & !1).to_string().matches('♣').count(),
            12
        );
        assert_eq!(CardSet(0).to_string(), "no cards");
    }

    #[test]
    fn names_read_like_a_player_says_them() {
        assert_eq!(Name(0).to_string(), "A♣");
        assert_eq!(Name(33).to_string(), "9♠");
        assert_eq!(Name(38).to_string(), "10♥");
        assert_eq!(Name(51).to_string(), "K♦");
        assert_eq!(format!("{:>4}", Name(33)), "  9♠");
    }
}

//! A move as a player says it, for the line under the page's buttons.

use crate::cards::{Card, Name};
use crate::state::{Dest, Move};

/// A move as a player says it, with the cards it sends up after it:
/// `9♠ onto 10♥`, `K♦ to an empty column, then A♦ 2♦ to the foundation`.
/// (Words that need more than the move are the functions below.)
pub fn in_words(mv: Move, up: &[Card]) -> String {
    let card = Name(mv.card);
    let mut text = match mv.dest {
        Dest::Card(onto) => format!("{card} onto {}", Name(onto)),
        Dest::EmptyColumn => format!("{card} to an empty column"),
        Dest::Register => format!("{card} to a free cell"),
        Dest::Foundation => format!("{card} to the foundation"),
        Dest::TurnUp => format!("{card} turned up to its column's top"),
        Dest::TurnDown => format!("the top card turned down beneath {card}"),
        Dest::Redeal => "the columns dealt again".to_string(),
    };
    if !up.is_empty() {
        let names: Vec<String> = up.iter().map(|&c| Name(c).to_string()).collect();
        text += &format!(", then {} to the foundation", names.join(" "));
    }
    text
}

/// A card back from the foundation (SPEC §10): `J♣ back from the
/// foundation onto Q♥`.
pub fn back_in_words(mv: Move) -> String {
    let card = Name(mv.card);
    match mv.dest {
        Dest::Card(onto) => format!("{card} back from the foundation onto {}", Name(onto)),
        Dest::EmptyColumn => format!("{card} back from the foundation to an empty column"),
        Dest::Register => format!("{card} back from the foundation to a free cell"),
        _ => in_words(mv, &[]),
    }
}

/// Redeal `number` of the game's `of`: `the columns dealt again (2nd
/// redeal of 2)`.
pub fn redeal_in_words(number: u8, of: u8) -> String {
    let nth = match number {
        1 => "1st".to_string(),
        2 => "2nd".to_string(),
        3 => "3rd".to_string(),
        n => format!("{n}th"),
    };
    format!("the columns dealt again ({nth} redeal of {of})")
}

/// A column's top card `top` turned down beneath its buried `card`:
/// `8♦ turned down beneath 7♠`.
pub fn turn_down_in_words(top: Card, card: Card) -> String {
    format!("{} turned down beneath {}", Name(top), Name(card))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(card: Card, dest: Dest) -> Move {
        Move { card, dest }
    }

    #[test]
    fn moves_read_as_a_player_says_them() {
        assert_eq!(in_words(mv(33, Dest::Card(38)), &[]), "9♠ onto 10♥");
        assert_eq!(
            in_words(mv(51, Dest::EmptyColumn), &[]),
            "K♦ to an empty column"
        );
        assert_eq!(
            in_words(mv(33, Dest::Register), &[3, 7]),
            "9♠ to a free cell, then A♦ 2♦ to the foundation"
        );
        assert_eq!(
            in_words(mv(25, Dest::TurnUp), &[]),
            "7♠ turned up to its column's top"
        );
    }

    #[test]
    fn the_complete_rules_moves_read_as_a_player_says_them() {
        // J♣ is 40, Q♥ 46.
        assert_eq!(
            back_in_words(mv(40, Dest::Card(46))),
            "J♣ back from the foundation onto Q♥"
        );
        assert_eq!(
            back_in_words(mv(40, Dest::Register)),
            "J♣ back from the foundation to a free cell"
        );
        assert_eq!(
            back_in_words(mv(40, Dest::EmptyColumn)),
            "J♣ back from the foundation to an empty column"
        );
        assert_eq!(
            redeal_in_words(2, 2),
            "the columns dealt again (2nd redeal of 2)"
        );
        assert_eq!(
            redeal_in_words(1, 2),
            "the columns dealt again (1st redeal of 2)"
        );
        assert_eq!(turn_down_in_words(31, 25), "8♦ turned down beneath 7♠");
    }
}

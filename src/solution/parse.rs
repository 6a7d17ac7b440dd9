//! One line of a solution file (SPEC §6): `CARD DEST`, strictly. The
//! destination `F` (SPEC §9) reads as a move to the foundation whatever
//! the rules; under forced rules replaying it is illegal, which says why.
//! So do SPEC §10's turns (`CARD U`, `CARD D`) and redeal (`R`, the one
//! line of a single word), legal only in Midnight Oil under `--rules
//! xpat2`.
//!
//! Anything but a card number, one space and a destination is that line's
//! illegal move, with a message that quotes the offending word (escaped and
//! cut by [`quote`]).

use super::Line;
use crate::cards::CARDS;
use crate::quote::quote;
use crate::state::{Dest, Move};

/// Parses one line (without its line ending).
pub fn parse_line(line: &[u8]) -> Line {
    if line.is_empty() {
        return Err("blank line: expected 'CARD DEST'".to_string());
    }
    if line == b"R" {
        return Ok(Move::REDEAL);
    }
    let mut words = line.split(|&b| b == b' ');
    let (Some(card), Some(dest), None) = (words.next(), words.next(), words.next()) else {
        return Err(not_card_dest(line));
    };
    let Some(card) = parse_card(card) else {
        return Err(format!(
            "'{}' is not a card: expected a number from 0 to 51",
            quote(card)
        ));
    };
    let dest = match dest {
        b"V" => Dest::EmptyColumn,
        b"T" => Dest::Register,
        b"F" => Dest::Foundation,
        b"U" => Dest::TurnUp,
        b"D" => Dest::TurnDown,
        word => match parse_card(word) {
            Some(onto) => Dest::Card(onto),
            None => {
                return Err(format!(
                    "'{}' is not a destination: expected a card number 0 to 51, V, T, F, U or D",
                    quote(word)
                ));
            }
        },
    };
    Ok(Move { card, dest })
}

/// The message for a line that is not two words with one space between:
/// also the one for a line too long to be read whole, which cannot be.
pub(super) fn not_card_dest(line: &[u8]) -> String {
    format!(
        "'{}' is not 'CARD DEST' (two words, one space between)",
        quote(line)
    )
}

/// A card number: decimal digits only (no sign, no blank), below 52.
/// Leading zeros are allowed, as in seeds (`07` is card 7): the value
/// counts, not the spelling, and no number of digits can overflow.
fn parse_card(word: &[u8]) -> Option<u8> {
    if word.is_empty() || !word.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let digits = &word[word.iter().take_while(|&&b| b == b'0').count()..];
    if digits.len() > 2 {
        return None;
    }
    let n = digits
        .iter()
        .fold(0usize, |n, &b| n * 10 + (b - b'0') as usize);
    (n < CARDS).then_some(n as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(card: u8, dest: Dest) -> Move {
        Move { card, dest }
    }

    #[test]
    fn reads_the_three_destinations_and_leading_zeros() {
        assert_eq!(parse_line(b"6 T"), Ok(mv(6, Dest::Register)));
        assert_eq!(parse_line(b"33 38"), Ok(mv(33, Dest::Card(38))));
        assert_eq!(parse_line(b"45 V"), Ok(mv(45, Dest::EmptyColumn)));
        assert_eq!(parse_line(b"3 F"), Ok(mv(3, Dest::Foundation)));
        assert_eq!(parse_line(b"3 U"), Ok(mv(3, Dest::TurnUp)));
        assert_eq!(parse_line(b"03 D"), Ok(mv(3, Dest::TurnDown)));
        assert_eq!(parse_line(b"R"), Ok(Move::REDEAL));
        // Leading zeros are the value's spelling, never an overflow.
        assert_eq!(parse_line(b"007 051"), Ok(mv(7, Dest::Card(51))));
        assert_eq!(
            parse_line(b"00000000000000000000000 T"),
            Ok(mv(0, Dest::Register))
        );
    }

    #[test]
    fn refuses_every_malformed_line() {
        for bad in [
            &b""[..],
            b" 1 T",
            b"1 T ",
            b"1  T",
            b"1\tT",
            b"1",
            b"1 T 2",
            b"52 T",
            b"1 52",
            b"-1 T",
            b"+1 T",
            b"1 t",
            b"1 v",
            b"1 f",
            b"1 FF",
            b"1 F ",
            b"a T",
            b"1 X",
            b"1 100",
            b"00000000000000000000052 T",
            b"99999999999999999999999 T",
            b"1 0V",
            b"\xef\xbb\xbf1 T",
            b"1 \xff",
            b"1 T\r",
            b"r",
            b"R ",
            b" R",
            b"RR",
            b"R 1",
            b"1 R",
            b"1 u",
            b"1 UD",
        ] {
            assert!(
                parse_line(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn messages_name_the_fault_and_quote_the_word_escaped() {
        let err = |line: &[u8]| parse_line(line).unwrap_err();
        assert_eq!(err(b""), "blank line: expected 'CARD DEST'");
        assert_eq!(
            err(b"1\tT"),
            "'1\\tT' is not 'CARD DEST' (two words, one space between)"
        );
        assert_eq!(
            err(b"+31 T"),
            "'+31' is not a card: expected a number from 0 to 51"
        );
        assert_eq!(
            err(b"1 t"),
            "'t' is not a destination: expected a card number 0 to 51, V, T, F, U or D"
        );
        assert_eq!(
            err("\u{feff}1 T".as_bytes()),
            "'\\u{feff}1' is not a card: expected a number from 0 to 51"
        );
        let long = [b'9'; 500];
        let mut line = long.to_vec();
        line.extend_from_slice(b" T");
        assert!(err(&line).len() < 200, "{}", err(&line));
    }
}

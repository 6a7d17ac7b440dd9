//! Solution files (SPEC §6, §9): one move per line, `CARD DEST`.
//!
//! Reading is strict, line by line, because `-check` must name the first
//! bad line: anything but a card number, one space and a destination is
//! that line's illegal move. A `\r` before the `\n` and a missing final
//! newline are tolerated. [`Lines`] streams a file of any size in bounded
//! memory; [`parse`] is the same reading of bytes already in memory.

mod parse;
mod read;

pub use parse::parse_line;
// Where callers have always found the quoting of a bad line.
pub use crate::quote::{QUOTE_CHARS, quote, quote_at_most};
pub use read::{LINE_CAP, Lines};

// Kept so that callers of the one-file write compile until they move to
// `output::Outputs`; the write now goes through it.
pub use crate::output::{directory_of, write_atomically};

use crate::state::Move;

/// One line of a solution file: a move, or why it is not one.
pub type Line = Result<Move, String>;

/// Splits a solution file already in memory into lines and parses each,
/// exactly as [`Lines`] reads a stream.
pub fn parse(bytes: &[u8]) -> Vec<Line> {
    // Reading a slice cannot fail: `map_while` only ends the lines.
    Lines::new(bytes).map_while(Result::ok).collect()
}

/// The file's text: exactly `CARD DEST\n` per move.
pub fn format(moves: &[Move]) -> String {
    moves.iter().map(|m| format!("{m}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Dest;

    fn mv(card: u8, dest: Dest) -> Move {
        Move { card, dest }
    }

    #[test]
    fn reads_line_endings_as_spec_6_says() {
        let lines = parse(b"6 T\r\n33 38\n45 V");
        assert_eq!(
            lines,
            vec![
                Ok(mv(6, Dest::Register)),
                Ok(mv(33, Dest::Card(38))),
                Ok(mv(45, Dest::EmptyColumn))
            ]
        );
        assert!(parse(b"").is_empty());
        assert_eq!(parse(b"1 T\n").len(), 1);
        // A blank line inside the file is a line, and an illegal one.
        let lines = parse(b"1 T\n\n2 T\n");
        assert_eq!(lines.len(), 3);
        assert!(lines[1].is_err());
        // A lone `\r` is a blank line once its ending is dropped.
        assert_eq!(parse(b"\r\n")[0], Err(parse_line(b"").unwrap_err()));
    }

    #[test]
    fn writes_what_it_reads() {
        let moves = vec![
            mv(6, Dest::Register),
            mv(33, Dest::Card(38)),
            mv(45, Dest::EmptyColumn),
            mv(3, Dest::Foundation),
        ];
        let text = format(&moves);
        assert_eq!(text, "6 T\n33 38\n45 V\n3 F\n");
        let back: Vec<Move> = parse(text.as_bytes())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(back, moves);
    }
}

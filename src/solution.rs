//! Solution files (SPEC §6): one move per line, `CARD DEST`.
//!
//! Reading is strict, line by line, because `-check` must name the first
//! bad line: anything but a card number, one space and a destination is
//! that line's illegal move. A `\r` before the `\n` and a missing final
//! newline are tolerated.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use crate::cards::CARDS;
use crate::state::{Dest, Move};

/// One line of a solution file: a move, or why it is not one.
pub type Line = Result<Move, String>;

/// Splits a solution file into lines and parses each.
pub fn parse(bytes: &[u8]) -> Vec<Line> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop(); // what follows the final newline is not a line
    }
    lines
        .into_iter()
        .map(|line| parse_line(line.strip_suffix(b"\r").unwrap_or(line)))
        .collect()
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

/// Bytes of a solution file as a message shows them: invisible characters
/// (a tab, a byte-order mark, a stray `\r`) escaped so the reader sees them.
fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).escape_debug().to_string()
}

/// Parses one line (without its line ending).
pub fn parse_line(line: &[u8]) -> Line {
    let shown = show(line);
    if line.is_empty() {
        return Err("blank line: expected 'CARD DEST'".to_string());
    }
    let mut words = line.split(|&b| b == b' ');
    let (Some(card), Some(dest), None) = (words.next(), words.next(), words.next()) else {
        return Err(format!(
            "'{shown}' is not 'CARD DEST' (two words, one space between)"
        ));
    };
    let Some(card) = parse_card(card) else {
        return Err(format!(
            "'{}' is not a card: expected a number from 0 to 51",
            show(card)
        ));
    };
    let dest = match dest {
        b"V" => Dest::EmptyColumn,
        b"T" => Dest::Register,
        word => match parse_card(word) {
            Some(onto) => Dest::Card(onto),
            None => {
                return Err(format!(
                    "'{}' is not a destination: expected a card number 0 to 51, V or T",
                    show(word)
                ));
            }
        },
    };
    Ok(Move { card, dest })
}

/// The file's text: exactly `CARD DEST\n` per move.
pub fn format(moves: &[Move]) -> String {
    moves.iter().map(|m| format!("{m}\n")).collect()
}

/// The directory a file at `path` goes into (`.` for a bare file name):
/// where the temporary file of [`write_atomically`] is made.
pub fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` whole or not at all: a temporary file in the
/// same directory, flushed to disk, then renamed over `path`. A reader
/// never sees half a file, and a failure leaves an existing file alone.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = directory_of(path);
    let name = path
        .file_name()
        .with_context(|| format!("cannot write to '{}': not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> Result<()> {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write '{}'", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(card: u8, dest: Dest) -> Move {
        Move { card, dest }
    }

    #[test]
    fn reads_the_three_destinations_and_line_endings() {
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
        // Leading zeros are the value's spelling, never an overflow.
        assert_eq!(parse_line(b"007 051"), Ok(mv(7, Dest::Card(51))));
        assert_eq!(
            parse_line(b"00000000000000000000000 T"),
            Ok(mv(0, Dest::Register))
        );
        assert_eq!(parse(b"1 T\n").len(), 1);
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
            b"a T",
            b"1 X",
            b"1 100",
            b"00000000000000000000052 T",
            b"99999999999999999999999 T",
            b"1 0V",
            b"\xef\xbb\xbf1 T",
            b"1 \xff",
            b"1 T\r",
        ] {
            assert!(
                parse_line(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        // A blank line inside the file is a line, and an illegal one.
        let lines = parse(b"1 T\n\n2 T\n");
        assert_eq!(lines.len(), 3);
        assert!(lines[1].is_err());
    }

    #[test]
    fn writes_what_it_reads() {
        let moves = vec![
            mv(6, Dest::Register),
            mv(33, Dest::Card(38)),
            mv(45, Dest::EmptyColumn),
        ];
        let text = format(&moves);
        assert_eq!(text, "6 T\n33 38\n45 V\n");
        let back: Vec<Move> = parse(text.as_bytes())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(back, moves);
    }

    #[test]
    fn atomic_write_replaces_whole_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("xpat-sol-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.sol");
        write_atomically(&path, b"old\n").unwrap();
        write_atomically(&path, b"1 T\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"1 T\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert!(write_atomically(&dir.join("missing/out.sol"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

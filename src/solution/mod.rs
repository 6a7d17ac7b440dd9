//! Solution files (SPEC §6): one move per line, `CARD DEST`.
//!
//! Reading is strict, line by line, because `-check` must name the first
//! bad line: anything but a card number, one space and a destination is
//! that line's illegal move. A `\r` before the `\n` and a missing final
//! newline are tolerated. [`Lines`] streams a file of any size in bounded
//! memory; [`parse`] is the same reading of bytes already in memory.

mod parse;
mod quote;
mod read;

pub use parse::parse_line;
pub use quote::{QUOTE_CHARS, quote, quote_at_most};
pub use read::{LINE_CAP, Lines};

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

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

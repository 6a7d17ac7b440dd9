//! Reading a solution file as a stream, one line at a time (`-check`).
//!
//! The input may be anything a user can name: `/dev/zero`, a gigabyte of
//! NULs without a newline, millions of blank lines. So the reader holds one
//! fixed buffer and at most [`LINE_CAP`]` + 1` bytes of the current line,
//! yields each line's move (or why it is none) as soon as the line is read,
//! and judges a line longer than the cap malformed as soon as the cap is
//! passed, without reading the rest of it; the caller stops at the first
//! illegal line and never reads further. Memory is a few kilobytes and the
//! first verdict comes after at most [`LINE_CAP`] bytes, whatever follows.

use std::io::{self, BufRead, BufReader, ErrorKind, Read};

use super::Line;
use super::parse::parse_line;
use crate::quote::quote;

/// The longest line read (without its `\n`). A move is at most 6 bytes
/// (`51 51\r`), so only leading zeros could make a legal line longer: past
/// this, the line is malformed whatever it holds.
pub const LINE_CAP: usize = 256;

/// The read buffer: large enough that reading costs few system calls.
const BUFFER: usize = 8 * 1024;

/// The lines of a solution file, each parsed: `Ok(line)` per line, the
/// line's move or why it is none, or `Err` when reading fails (the file is
/// unreadable: exit 3, not a verdict). After an `Err`, the stream ends.
///
/// Lines end with `\n`; a `\r` before it is dropped, and what follows the
/// last `\n`, if anything, is a last line (SPEC §6).
pub struct Lines<R> {
    input: BufReader<R>,
    /// The line being read, never more than `LINE_CAP + 1` bytes.
    line: Vec<u8>,
    /// The rest of a too-long line, up to its `\n`, is still to be skipped.
    skipping: bool,
    /// The end of the input, or a read error, was met.
    done: bool,
}

impl<R: Read> Lines<R> {
    /// Reads `input` line by line.
    pub fn new(input: R) -> Self {
        Lines {
            input: BufReader::with_capacity(BUFFER, input),
            line: Vec::with_capacity(LINE_CAP + 1),
            skipping: false,
            done: false,
        }
    }

    /// The next line, `None` at the end of the input.
    fn read_line(&mut self) -> io::Result<Option<Line>> {
        if self.skipping && !self.skip_rest_of_line()? {
            return Ok(None);
        }
        self.line.clear();
        loop {
            let available = fill(&mut self.input)?;
            if available.is_empty() {
                return Ok((!self.line.is_empty()).then(|| parse_ending(&self.line)));
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let piece = &available[..newline.unwrap_or(available.len())];
            let take = piece.len().min(LINE_CAP + 1 - self.line.len());
            self.line.extend_from_slice(&piece[..take]);
            let ended = newline.is_some() && take == piece.len();
            self.input.consume(take + usize::from(ended));
            if self.line.len() > LINE_CAP {
                self.skipping = !ended;
                return Ok(Some(Err(too_long(&self.line))));
            }
            if ended {
                return Ok(Some(parse_ending(&self.line)));
            }
        }
    }

    /// Discards input up to and including the next `\n`; false when the
    /// input ends first (the long line was the last).
    fn skip_rest_of_line(&mut self) -> io::Result<bool> {
        loop {
            let available = fill(&mut self.input)?;
            if available.is_empty() {
                return Ok(false);
            }
            match available.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.input.consume(i + 1);
                    self.skipping = false;
                    return Ok(true);
                }
                None => {
                    let n = available.len();
                    self.input.consume(n);
                }
            }
        }
    }
}

impl<R: Read> Iterator for Lines<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_line() {
            Ok(Some(line)) => Some(Ok(line)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Bytes to read, empty at the end of the input; a read interrupted by a
/// signal is retried, as `read_until` does.
fn fill<R: Read>(input: &mut BufReader<R>) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            // What was read, taken again through `buffer`, which never
            // reads: a second `fill_buf` at the end of a terminal's input
            // would wait for more.
            Ok(_) => return Ok(input.buffer()),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// A whole line without its `\n`: one `\r` before it is tolerated.
fn parse_ending(line: &[u8]) -> Line {
    parse_line(line.strip_suffix(b"\r").unwrap_or(line))
}

/// A line past the cap: malformed, quoted by its start.
fn too_long(start: &[u8]) -> String {
    format!(
        "line longer than {LINE_CAP} bytes, starting '{}': expected 'CARD DEST'",
        quote(start)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Dest, Move};

    /// An endless input of one byte, counting what was read of it.
    struct Endless {
        byte: u8,
        read: usize,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            buf.fill(self.byte);
            self.read += buf.len();
            Ok(buf.len())
        }
    }

    /// An input served in pieces: bytes, a failure, or an interruption.
    struct Script(Vec<io::Result<Vec<u8>>>);

    impl Read for Script {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let bytes = self.0.remove(0)?;
            buf[..bytes.len()].copy_from_slice(&bytes);
            Ok(bytes.len())
        }
    }

    fn all(input: impl Read) -> Vec<Line> {
        Lines::new(input).map(Result::unwrap).collect()
    }

    #[test]
    fn an_endless_line_is_judged_after_one_buffer() {
        for byte in [0, b'7', 0xff] {
            let mut input = Endless { byte, read: 0 };
            let first = Lines::new(&mut input).next().unwrap().unwrap();
            let why = first.unwrap_err();
            assert!(why.starts_with("line longer than 256 bytes"), "{why}");
            assert!(why.len() < 400, "{why}");
            assert!(input.read <= BUFFER, "read {} bytes", input.read);
        }
        let mut newlines = Endless {
            byte: b'\n',
            read: 0,
        };
        let first = Lines::new(&mut newlines).next().unwrap().unwrap();
        assert_eq!(first, Err("blank line: expected 'CARD DEST'".to_string()));
        assert!(newlines.read <= BUFFER);
    }

    #[test]
    fn the_cap_is_exact_and_the_next_line_is_read_after_a_long_one() {
        let at_cap = format!("{}1 T", "0".repeat(LINE_CAP - 3));
        let over_cap = format!("0{at_cap}");
        let text = format!("{at_cap}\n{over_cap}\n2 T\n{over_cap}");
        let lines = all(text.as_bytes());
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[0],
            Ok(Move {
                card: 1,
                dest: Dest::Register
            })
        );
        assert!(lines[1].as_ref().unwrap_err().starts_with("line longer"));
        assert_eq!(
            lines[2],
            Ok(Move {
                card: 2,
                dest: Dest::Register
            })
        );
        assert!(lines[3].is_err());
        // The `\r` of a line at the cap counts toward it.
        let crlf = format!("{at_cap}\r\n");
        assert!(all(crlf.as_bytes())[0].is_err());
    }

    #[test]
    fn lines_split_across_reads_are_read_whole() {
        let text = b"6 T\r\n33 38\n\n45 V";
        let whole = all(&text[..]);
        let pieces = Script(text.iter().map(|&b| Ok(vec![b])).collect());
        assert_eq!(all(pieces), whole);
        assert_eq!(whole.len(), 4);
    }

    #[test]
    fn a_read_error_ends_the_lines_after_reporting_it() {
        let interrupted = io::Error::from(ErrorKind::Interrupted);
        let broken = io::Error::other("disk on fire");
        let script = Script(vec![
            Ok(b"1 T\n2".to_vec()),
            Err(interrupted),
            Ok(b" T\n3".to_vec()),
            Err(broken),
            Ok(b" T\n".to_vec()),
        ]);
        let mut lines = Lines::new(script);
        let line = |card| Move {
            card,
            dest: Dest::Register,
        };
        assert_eq!(lines.next().unwrap().unwrap(), Ok(line(1)));
        assert_eq!(lines.next().unwrap().unwrap(), Ok(line(2)));
        let err = lines.next().unwrap().unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");
        assert!(lines.next().is_none());
    }
}

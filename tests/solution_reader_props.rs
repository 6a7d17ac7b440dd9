//! Property tests (fuzzing) of the solution reader and of `-check`'s replay:
//! arbitrary bytes never panic, every line's message stays small and on one
//! line, the streaming reader reads exactly what SPEC §6 says however the
//! input is split into reads, and what the search writes reads back.
//!
//! `cargo test` runs proptest's default 256 cases per property (well under
//! a second). A long pass (the test profile is optimized already):
//! `PROPTEST_CASES=200000 cargo test --test solution_reader_props`.

use std::io::{self, Read};

use proptest::prelude::*;
use xpat_solver::check::{self, Verdict};
use xpat_solver::deal::Deal;
use xpat_solver::solution::{LINE_CAP, Line, Lines, format, parse, parse_line};
use xpat_solver::state::{Dest, Move, State};

/// The longest message a line may get: fixed words plus a quote of at most
/// 80 characters of at most 4 bytes each.
const MESSAGE_MAX: usize = 512;

/// An input served in reads of at most `chunk` bytes.
struct Chunked<'a> {
    bytes: &'a [u8],
    chunk: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// SPEC §6 restated plainly, on bytes in memory: `\n` ends a line, what
/// follows the last `\n` is a line when not empty, one `\r` before the `\n`
/// is dropped, and a line past the cap is malformed whatever it holds.
fn model(bytes: &[u8]) -> Vec<Line> {
    let mut pieces: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if pieces.last().is_some_and(|p| p.is_empty()) {
        pieces.pop();
    }
    pieces
        .into_iter()
        .map(|p| {
            if p.len() > LINE_CAP {
                Err("too long".to_string())
            } else {
                parse_line(p.strip_suffix(b"\r").unwrap_or(p))
            }
        })
        .collect()
}

/// Bytes of solution files, good and bad: mostly the characters a line is
/// made of, sometimes any byte, sometimes a long run of one byte.
fn solution_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        4 => prop::sample::select(b"0123456789 TVF\n\r".to_vec()),
        1 => any::<u8>(),
    ];
    let run = (byte.clone(), 0..3 * LINE_CAP).prop_map(|(b, n)| vec![b; n]);
    let piece = prop_oneof![8 => byte.prop_map(|b| vec![b]), 1 => run];
    prop::collection::vec(piece, 0..200).prop_map(|pieces| pieces.concat())
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    let dest = prop_oneof![
        Just(Dest::EmptyColumn),
        Just(Dest::Register),
        Just(Dest::Foundation),
        (0u8..52).prop_map(Dest::Card),
    ];
    prop::collection::vec(
        (0u8..52, dest).prop_map(|(card, dest)| Move { card, dest }),
        0..300,
    )
}

fn same_verdicts(got: &[Line], want: &[Line]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| match (g, w) {
            (Ok(g), Ok(w)) => g == w,
            (Err(g), Err(w)) if w == "too long" => g.starts_with("line longer than"),
            (Err(g), Err(w)) => g == w,
            _ => false,
        })
}

proptest! {
    #[test]
    fn any_bytes_read_as_spec_6_says_in_any_reads(bytes in solution_bytes(), chunk in 1usize..300) {
        let streamed: Vec<Line> = Lines::new(Chunked { bytes: &bytes, chunk })
            .map(|r| r.expect("reading memory cannot fail"))
            .collect();
        prop_assert!(same_verdicts(&streamed, &model(&bytes)));
        prop_assert_eq!(&streamed, &parse(&bytes));
        for why in streamed.iter().filter_map(|l| l.as_ref().err()) {
            prop_assert!(why.len() <= MESSAGE_MAX, "{} bytes: {}", why.len(), why);
            prop_assert!(!why.chars().any(char::is_control), "{:?}", why);
        }
    }

    #[test]
    fn what_the_search_writes_reads_back(moves in moves(), crlf in any::<bool>(), last_newline in any::<bool>()) {
        let mut text = format(&moves);
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        if !last_newline {
            text.pop();
        }
        let back: Vec<Line> = Lines::new(text.as_bytes()).map(Result::unwrap).collect();
        let want: Vec<Line> = moves.iter().copied().map(Ok).collect();
        // A `\r` ending the last line is dropped too (SPEC §6 tolerates
        // a CRLF file without its final newline).
        prop_assert_eq!(back, want);
    }

    #[test]
    fn check_replays_a_damaged_solution_without_panic(
        cuts in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6)
    ) {
        let deal = Deal::new("FreeCell.123".parse().unwrap());
        let mut bytes = SOLUTION.to_vec();
        for (at, byte) in cuts {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        let lines = parse(&bytes);
        let verdict = check::replay(&deal, &lines);
        // `-check`'s way: the file streamed, replayed line by line.
        let streamed = check::replay_lines(State::new(&deal), Lines::new(Chunked { bytes: &bytes, chunk: 7 }));
        prop_assert_eq!(&streamed.expect("reading memory cannot fail"), &verdict);
        match verdict {
            Verdict::Won { moves } => prop_assert_eq!(moves, lines.len()),
            Verdict::Failed { line, why } => {
                prop_assert!(line >= 1 && line <= lines.len() + 1);
                prop_assert!(why.len() <= 2 * MESSAGE_MAX, "{}", why);
            }
        }
    }
}

/// A solution of FreeCell 123, the deal the damaged files start from.
const SOLUTION: &[u8] = include_bytes!("../solutions/format/fc123-no-final-newline.sol");

#[test]
fn the_undamaged_solution_wins() {
    let deal = Deal::new("FreeCell.123".parse().unwrap());
    let verdict = check::replay(&deal, &parse(SOLUTION));
    assert!(matches!(verdict, Verdict::Won { .. }), "{verdict:?}");
}

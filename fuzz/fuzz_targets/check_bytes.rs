//! Coverage-guided fuzzing of `-check`'s input (needs nightly and
//! cargo-fuzz): `cargo +nightly fuzz run check_bytes -- -max_total_time=600`.
//! Any bytes, read by the streaming reader and replayed on FreeCell 123:
//! no panic, every message small and on one line, the verdict's line
//! within the file, and the same verdict streamed as from the lines.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xpat_solver::check::{self, Verdict};
use xpat_solver::deal::Deal;
use xpat_solver::solution::{Line, Lines};
use xpat_solver::state::State;

fuzz_target!(|data: &[u8]| {
    let lines: Vec<Line> = Lines::new(data).map(|r| r.unwrap()).collect();
    for why in lines.iter().filter_map(|l| l.as_ref().err()) {
        assert!(why.len() <= 512, "{} bytes", why.len());
        assert!(!why.chars().any(char::is_control), "{why:?}");
    }
    let deal = Deal::new("FreeCell.123".parse().unwrap());
    let verdict = check::replay(&deal, &lines);
    // `-check`'s way: the bytes streamed and replayed line by line.
    let streamed = check::replay_lines(State::new(&deal), Lines::new(data));
    assert_eq!(streamed.unwrap(), verdict);
    match verdict {
        Verdict::Won { moves } => assert_eq!(moves, lines.len()),
        Verdict::Failed { line, why } => {
            assert!((1..=lines.len() + 1).contains(&line));
            assert!(why.len() <= 1024 && !why.contains('\n'), "{why:?}");
        }
    }
});

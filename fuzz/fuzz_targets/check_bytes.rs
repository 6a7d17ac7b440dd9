//! Coverage-guided fuzzing of `-check`'s input (needs nightly and
//! cargo-fuzz): `cargo +nightly fuzz run check_bytes -- -max_total_time=600`.
//! Any bytes, read by the streaming reader and replayed on FreeCell 123:
//! no panic, every message small and on one line, the verdict's line
//! within the file.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xpat_solver::check::{self, Verdict};
use xpat_solver::deal::Deal;
use xpat_solver::solution::{Line, Lines};

fuzz_target!(|data: &[u8]| {
    let lines: Vec<Line> = Lines::new(data).map(|r| r.unwrap()).collect();
    for why in lines.iter().filter_map(|l| l.as_ref().err()) {
        assert!(why.len() <= 512, "{} bytes", why.len());
        assert!(!why.chars().any(char::is_control), "{why:?}");
    }
    let deal = Deal::new("FreeCell.123".parse().unwrap());
    match check::replay(&deal, &lines) {
        Verdict::Won { moves } => assert_eq!(moves, lines.len()),
        Verdict::Failed { line, why } => {
            assert!((1..=lines.len() + 1).contains(&line));
            assert!(why.len() <= 1024 && !why.contains('\n'), "{why:?}");
        }
    }
});

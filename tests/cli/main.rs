//! The command line as test scripts and people use it: every bad input,
//! the help, the names of games, the deal display, and the exit protocol
//! of `-check` and `-search` (SPEC §1, §7), all through the real binary.

#[path = "../common/mod.rs"]
mod common;

mod display;
mod modes;
mod streams;
mod usage;

use common::{Run, is_verdict, run};

/// A bad command: exit 3 (never 2, which means INSOLUBLE), one line on
/// stderr that says what is wrong, no verdict on stdout, no panic.
pub fn assert_usage_error(args: &[&str], says: &str) -> Run {
    let r = run(args);
    assert_eq!(r.code, 3, "{args:?}: {r:?}");
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: stderr is not one line: {r:?}");
    assert!(
        lines[0].starts_with("xpat-solver: "),
        "{args:?}: {}",
        lines[0]
    );
    assert!(
        lines[0].contains(says),
        "{args:?}: stderr should say '{says}': {}",
        lines[0]
    );
    assert!(
        !r.stdout.lines().any(is_verdict),
        "{args:?}: a verdict on stdout: {r:?}"
    );
    assert!(r.stdout.is_empty(), "{args:?}: stdout not empty: {r:?}");
    r
}

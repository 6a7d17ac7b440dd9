//! Issue 12, "nothing lost, nothing crashes": the program used as a
//! hostile but realistic user would, through the real binary. Each test
//! names the item of the issue it reproduces; each failed before the fix
//! (data lost, a file replaced, gigabytes read, exit 134).
//!
//! - [`files`]: outputs that are one file, special files, planted links,
//!   outputs refused before the search, permissions kept (items 1, 2, 5,
//!   6, 9).
//! - [`reading`]: `-check` of endless or huge files in a few megabytes
//!   (item 3).
//! - [`memory`]: an allocation that fails is `ECHEC`, never an abort
//!   (item 4).
//! - [`signals`]: SIGINT, SIGTERM, SIGHUP and a terminal that went away
//!   during a search (items 4, 9).
//! - [`pages`]: `--html` of two million moves refused in a few
//!   megabytes, a page of the most moves written in as few, any fragment
//!   of a page's address opened without a script error (issue 27).
//! - [`arguments`]: random command lines never abort (no exit 134).
//! - [`survey`]: `survey` keeps the same promises (issue 27): its rows'
//!   file against its solutions, numeric bounds, streams, SIGHUP, stale
//!   temporary files, one-line messages.
//!
//! `XPAT_SOLVER_UNDER_TEST=/path/to/old/xpat-solver cargo test --test
//! hostile` runs them on another build, to see them fail there.

#[path = "../common/mod.rs"]
mod common;

mod arguments;
mod files;
mod memory;
mod pages;
mod reading;
mod signals;
mod survey;

use std::path::Path;

/// A path as the binary's argument (the tests' paths are UTF-8).
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 test path")
}

/// The names in `dir`, sorted: what a run left behind.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read the test directory")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Nothing left in `dir`: no output, no temporary file.
pub fn assert_empty(dir: &Path) {
    let names = names_in(dir);
    assert!(names.is_empty(), "left behind: {names:?}");
}

//! `xpat-solver survey`: verdicts for many deals in one process, on every
//! core, resumable and shardable (issue 10).
//!
//! - [`args`]: the command line, checked before any search; [`files`]:
//!   the rows' file and the solutions' directory, checked against each
//!   other; [`say`]: the streams, which never make the survey panic
//! - [`seeds`], [`deals`]: which deals, in which order, for which shard
//! - [`run`]: the workers, the signals ([`signals`]), the bar ([`progress`]);
//!   [`finish`]: the exit code and the command that resumes
//! - [`row`], [`table`]: the CSV rows, written whole, read back to resume
//! - [`summary`]: counts, the solvable share's interval, times, per game;
//!   `report`: the same as an HTML page with plots (`--html`)

pub mod args;
pub mod deals;
pub mod files;
pub mod finish;
pub mod progress;
pub(crate) mod report;
pub mod row;
pub mod run;
pub mod say;
pub mod seeds;
pub mod signals;
pub mod summary;
pub mod table;

use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::solution;
use args::{Command, EXIT_USAGE, Under};
use say::shown;

/// Runs `xpat-solver survey ARGS...` (`args`: the words after `survey`);
/// returns the exit code: 0 every deal decided, 1 some undecided, 3 bad
/// arguments or files, 130 interrupted.
pub fn main(args: Vec<OsString>) -> u8 {
    match args::parse(args) {
        Ok(Command::Survey(plan)) => run::run(plan),
        Ok(Command::Summary { files, html }) => summarize(&files, html.as_deref()),
        Err(code) => code,
    }
}

/// `--summary FILE... [--html REPORT]`: the summary of the rows of all
/// the files, each deal once, on stdout, and the page of it at REPORT.
/// Files of different rules are refused together: a deal's verdict
/// depends on the rules (Baker's Dozen 3118 is INSOLUBLE forced and won
/// free), and merged, the first file read would decide it.
fn summarize(files: &[PathBuf], html: Option<&Path>) -> u8 {
    // The page's path is checked before a row is read, and it may not be
    // one of the files read.
    if html.is_some()
        && let Err(message) = signals::install_for_summary()
    {
        say::error(&message);
        return EXIT_USAGE;
    }
    let page = match html.map(|path| report::prepare(path, files)).transpose() {
        Ok(page) => page,
        Err(message) => {
            say::error(&message);
            return EXIT_USAGE;
        }
    };
    let mut results = summary::Results::default();
    let mut rules: Option<(Under, &PathBuf)> = None;
    for file in files {
        let read = match table::read(file, |row| results.add(&row)) {
            Ok(read) => read,
            Err(message) => {
                say::error(&message);
                return EXIT_USAGE;
            }
        };
        match (rules, read.rules) {
            (Some((first, by)), Some(these)) if first != these => {
                say::error(&format!(
                    "cannot merge {} (rules '{}') with {} (rules '{}'): a deal's verdict depends on the rules; summarize each rule set apart",
                    shown(by),
                    first.name(),
                    shown(file),
                    these.name()
                ));
                return EXIT_USAGE;
            }
            (None, Some(these)) => {
                rules = Some((these, file));
                results.rules = Some(these);
            }
            _ => {}
        }
        if let Some(torn) = read.torn {
            say::note(&format!(
                "survey: the last line of {} is torn ('{}'): left out",
                shown(file),
                solution::quote(torn.as_bytes())
            ));
        }
    }
    if results.repeated > 0 {
        say::note(&format!(
            "survey: {} rows repeat a deal already read: each deal counted once",
            results.repeated
        ));
    }
    if let Some(page) = page
        && let Err(message) = report::publish(page, &results, files)
    {
        say::error(&message);
        return EXIT_USAGE;
    }
    match say::out(&results.render()) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => {
            say::error(&format!("cannot write to standard output: {e}"));
            EXIT_USAGE
        }
        _ => u8::from(results.undecided() > 0),
    }
}

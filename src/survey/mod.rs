//! `xpat-solver survey`: verdicts for many deals in one process, on every
//! core, resumable and shardable (issue 10).
//!
//! - [`args`]: the command line, checked before any search
//! - [`seeds`], [`deals`]: which deals, in which order, for which shard
//! - [`run`]: the workers, the signals ([`signals`]), the bar ([`progress`]);
//!   [`finish`]: the exit code and the command that resumes
//! - [`row`], [`table`]: the CSV rows, written whole, read back to resume
//! - [`summary`]: counts, the solvable share's interval, times, per game

pub mod args;
pub mod deals;
pub mod finish;
pub mod progress;
pub mod row;
pub mod run;
pub mod seeds;
pub mod signals;
pub mod summary;
pub mod table;

use std::ffi::OsString;
use std::path::PathBuf;

use args::{Command, EXIT_USAGE};

/// Runs `xpat-solver survey ARGS...` (`args`: the words after `survey`);
/// returns the exit code: 0 every deal decided, 1 some undecided, 3 bad
/// arguments or files, 130 interrupted.
pub fn main(args: Vec<OsString>) -> u8 {
    match args::parse(args) {
        Ok(Command::Survey(plan)) => run::run(plan),
        Ok(Command::Summary(files)) => summarize(&files),
        Err(code) => code,
    }
}

/// `--summary FILE...`: the summary of the rows of all the files, each
/// deal once, on stdout.
fn summarize(files: &[PathBuf]) -> u8 {
    let mut results = summary::Results::default();
    for file in files {
        match table::read(file) {
            Ok(read) => {
                if let Some(torn) = read.torn {
                    eprintln!(
                        "survey: the last line of '{}' is torn ({torn:?}): left out",
                        file.display()
                    );
                }
                read.rows.iter().for_each(|row| results.add(row));
            }
            Err(message) => {
                eprintln!("xpat-solver survey: {message}");
                return EXIT_USAGE;
            }
        }
    }
    if results.repeated > 0 {
        eprintln!(
            "survey: {} rows repeat a deal already read: each deal counted once",
            results.repeated
        );
    }
    print!("{}", results.render());
    u8::from(results.undecided() > 0)
}

//! The progress bar on stderr, when it is a terminal: deals done of those
//! to do, deals per second, the time left, and the verdicts so far.
//!
//! `indicatif` draws it: it rate-limits redraws (a survey ends hundreds of
//! deals a second), estimates the time left from a moving average, and
//! prints messages above the bar without tearing it.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::row::Verdict;

pub struct Progress {
    bar: ProgressBar,
    /// SUCCES, INSOLUBLE, ECHEC so far.
    counts: [u64; 3],
    /// Rows go to the same terminal: hide the bar while one is written.
    rows_on_terminal: bool,
}

impl Progress {
    /// A bar for `total` deals, shown only when stderr is a terminal.
    pub fn new(total: u64, rows_to_stdout: bool) -> Progress {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        let style = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:25}] {pos}/{len} deals, {per_sec}, ETA {eta} | {msg}",
        )
        .expect("the template is valid")
        .progress_chars("=> ");
        bar.set_style(style);
        Progress {
            rows_on_terminal: rows_to_stdout && !bar.is_hidden() && std::io::stdout().is_terminal(),
            bar,
            counts: [0; 3],
        }
    }

    /// One more deal done.
    pub fn add(&mut self, verdict: Verdict) {
        let i = match verdict {
            Verdict::Succes => 0,
            Verdict::Insoluble => 1,
            Verdict::Echec => 2,
        };
        self.counts[i] += 1;
        let [won, lost, open] = self.counts;
        self.bar
            .set_message(format!("SUCCES {won}, INSOLUBLE {lost}, ECHEC {open}"));
        self.bar.inc(1);
    }

    /// Runs `write` (a row to stdout) with the bar out of its way.
    pub fn around_row<R>(&self, write: impl FnOnce() -> R) -> R {
        if self.rows_on_terminal {
            self.bar.suspend(write)
        } else {
            write()
        }
    }

    /// A message line on stderr, above the bar.
    pub fn say(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

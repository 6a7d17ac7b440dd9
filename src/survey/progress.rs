//! The progress bar on stderr, when it is a terminal: deals done of those
//! to do, deals per second, the time left, and the verdicts so far.
//!
//! `indicatif` draws it: it rate-limits redraws (a survey ends hundreds of
//! deals a second), estimates the time left from a moving average, and
//! prints messages above the bar without tearing it.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::row::Verdict;

/// The progress bar on stderr, and the verdicts' counts it shows.
pub struct Progress {
    bar: ProgressBar,
    /// SUCCES, INSOLUBLE, ECHEC so far, read by the bar as it draws, so
    /// that they always agree with the count of deals done beside them.
    counts: Arc<[AtomicU64; 3]>,
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
        let counts: Arc<[AtomicU64; 3]> = Arc::default();
        let shown = counts.clone();
        let verdicts = move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
            let [won, lost, open] = [0, 1, 2].map(|i| shown[i].load(Relaxed));
            let _ = write!(w, "SUCCES {won}, INSOLUBLE {lost}, ECHEC {open}");
        };
        let rate = |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}/s", s.per_sec());
        };
        let style = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:25}] {pos}/{len} deals, {rate}, ETA {eta} | {verdicts}",
        )
        .expect("the template is valid")
        .with_key("verdicts", verdicts)
        .with_key("rate", rate)
        .progress_chars("=> ");
        bar.set_style(style);
        Progress {
            rows_on_terminal: rows_to_stdout && !bar.is_hidden() && std::io::stdout().is_terminal(),
            bar,
            counts,
        }
    }

    /// One more deal done.
    pub fn add(&mut self, verdict: Verdict) {
        let i = match verdict {
            Verdict::Succes => 0,
            Verdict::Insoluble => 1,
            Verdict::Echec => 2,
        };
        self.counts[i].fetch_add(1, Relaxed);
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
            super::say::note(line);
        } else {
            self.bar.println(line);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

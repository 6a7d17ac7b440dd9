//! What both command lines, a single deal's and `survey`'s, read alike:
//! how many threads `--jobs` may ask for and its default, and
//! `--timeout`'s seconds. One home, so `xpat-solver -search` and
//! `xpat-solver survey` take and refuse the same values.

use std::time::Duration;

/// Most threads `--jobs` takes: far more than any machine's cores, few
/// enough that a typo does not start a million threads (`survey --jobs`
/// takes as many).
pub const MAX_JOBS: usize = 1024;

/// `--jobs`'s default: every core this process may use.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_JOBS))
}

/// What [`timeout_seconds`] takes, for a message.
pub const TIMEOUT_EXPECTED: &str =
    "expected a positive number of seconds, below 2^64 (e.g. 10 or 0.5)";

/// `--timeout`'s text as a [`Duration`], when it is a positive, finite
/// number of seconds one can hold (`survey --timeout` takes the same).
///
/// ```
/// use std::time::Duration;
/// use xpat_solver::shared_args::timeout_seconds;
///
/// assert_eq!(timeout_seconds("0.5"), Some(Duration::from_millis(500)));
/// assert_eq!(timeout_seconds("1e20"), None); // over 2^64 seconds
/// assert_eq!(timeout_seconds("0"), None);
/// ```
pub fn timeout_seconds(text: &str) -> Option<Duration> {
    let seconds = text.parse::<f64>().ok().filter(|&s| s > 0.0);
    seconds.and_then(|s| Duration::try_from_secs_f64(s).ok())
}

//! Ctrl-C, `kill` and a closed terminal: the first SIGINT, SIGTERM or
//! SIGHUP asks the survey to stop cleanly (no new deals, rows flushed, a
//! resume command printed); a second one ends the process at once, for
//! when the running deals are too long to wait for. Rows already written
//! are whole either way, and no solution's temporary file is left behind:
//! a worker writing one when the first signal comes finishes it (renamed
//! or removed), and the second signal removes those still pending, as
//! `-search`'s handler does.
//!
//! SIGHUP is one of them because a survey started from a terminal that
//! closes gets it; left to the kernel, it killed the process with
//! solutions half written in their temporary files.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

use crate::output::remove_pending_temp_files;

/// Exit code after an interruption: 128 + SIGINT, as shells report it.
pub const EXIT_INTERRUPTED: u8 = 130;

/// What the second signal says, in one `write` from the handler.
const AT_ONCE: &[u8] =
    b"xpat-solver survey: stopped at once by a second signal (temporary files removed)\n";

/// Installs the handlers; the flag turns true at the first signal.
pub fn install() -> Result<Arc<AtomicBool>, String> {
    let interrupted = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        let flag = interrupted.clone();
        let action = move || {
            if flag.swap(true, SeqCst) {
                remove_pending_temp_files();
                // SAFETY: `write` and `_exit` are async-signal-safe; the
                // message is a static byte string, valid for its length.
                unsafe {
                    libc::write(libc::STDERR_FILENO, AT_ONCE.as_ptr().cast(), AT_ONCE.len());
                    libc::_exit(EXIT_INTERRUPTED.into());
                }
            }
        };
        // SAFETY: the action is async-signal-safe: an atomic swap, then
        // only `remove_pending_temp_files` (atomic swaps and `unlink`),
        // `write` and `_exit`; it allocates, locks and frees nothing.
        unsafe { signal_hook::low_level::register(signal, action) }
            .map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
    }
    Ok(interrupted)
}

/// What a signal during `--summary --html` says, in one `write`.
const SUMMARY_STOPPED: &[u8] =
    b"xpat-solver survey: stopped by a signal (the page's temporary file removed)\n";

/// Installs handlers for `--summary --html`, which has nothing to stop
/// cleanly: the first signal removes the page's temporary file and ends
/// the process at once, as `-search`'s handler does, so no
/// `.xpat-solver-*.tmp` is left beside the page.
pub fn install_for_summary() -> Result<(), String> {
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        let action = || {
            remove_pending_temp_files();
            // SAFETY: as in `install`: `write` and `_exit` are
            // async-signal-safe, the message a static byte string.
            unsafe {
                libc::write(
                    libc::STDERR_FILENO,
                    SUMMARY_STOPPED.as_ptr().cast(),
                    SUMMARY_STOPPED.len(),
                );
                libc::_exit(EXIT_INTERRUPTED.into());
            }
        };
        // SAFETY: the action only calls `remove_pending_temp_files` (atomic
        // swaps and `unlink`), `write` and `_exit`.
        unsafe { signal_hook::low_level::register(signal, action) }
            .map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
    }
    Ok(())
}

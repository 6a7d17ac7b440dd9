//! Ctrl-C and `kill`: the first SIGINT or SIGTERM asks the survey to stop
//! cleanly (no new deals, rows flushed, a resume command printed); a second
//! one ends the process at once, for when the running deals are too long to
//! wait for. Rows already written are whole either way.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;

/// Exit code after an interruption: 128 + SIGINT, as shells report it.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Installs the handlers; the flag turns true at the first signal.
pub fn install() -> Result<Arc<AtomicBool>, String> {
    let interrupted = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        // The exit is registered first, so that it runs before the flag is
        // set and so fires only when the flag was already set: the second
        // signal (signal-hook's documented double Ctrl-C).
        flag::register_conditional_shutdown(signal, EXIT_INTERRUPTED.into(), interrupted.clone())
            .and_then(|_| flag::register(signal, interrupted.clone()))
            .map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
    }
    Ok(interrupted)
}

//! Ctrl-C, `kill` and a closed terminal during `-check` or `-search`: the
//! process ends at once, removes the temporary files of its outputs, and
//! leaves every target as it was.
//!
//! Without a handler the kernel would end the process just as fast, but
//! the temporary files prepared before the search would stay behind. The
//! handler may only do what is async-signal-safe, so it does three things:
//! [`remove_pending_temp_files`] (atomic swaps and `unlink`), one `write`
//! of a fixed message to stderr, and `_exit` with 128 + the signal's
//! number, the code a shell reports for a process a signal killed: 130
//! (SIGINT), 143 (SIGTERM), 129 (SIGHUP). Nothing is printed on stdout:
//! no verdict, since nothing was decided.

use std::ffi::c_int;
use std::io;

use xpat_solver::output::remove_pending_temp_files;

/// The signals that end the process, each with its message.
const HANDLED: [(c_int, &[u8]); 3] = [
    (
        libc::SIGINT,
        b"xpat-solver: stopped by SIGINT (temporary files removed)\n",
    ),
    (
        libc::SIGTERM,
        b"xpat-solver: stopped by SIGTERM (temporary files removed)\n",
    ),
    (
        libc::SIGHUP,
        b"xpat-solver: stopped by SIGHUP (temporary files removed)\n",
    ),
];

/// Installs the handler for SIGINT, SIGTERM and SIGHUP.
pub(super) fn install() -> io::Result<()> {
    for (signal, _) in HANDLED {
        // SAFETY: `sigaction` is plain data, valid when zeroed; the mask
        // is then filled by sigfillset (every signal blocked while the
        // handler runs, so two signals cannot interleave their clean-up)
        // and the handler is an `extern "C" fn(c_int)`, as `sa_sigaction`
        // expects without SA_SIGINFO.
        let installed = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
            libc::sigfillset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if installed != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

extern "C" fn on_signal(signal: c_int) {
    remove_pending_temp_files();
    let message = HANDLED
        .iter()
        .find(|(s, _)| *s == signal)
        .map_or(&b""[..], |(_, m)| m);
    // SAFETY: `write` and `_exit` are async-signal-safe; `message` is a
    // static byte string, valid for its whole length. A failed write has
    // nowhere to be reported, and the process ends either way.
    unsafe {
        libc::write(libc::STDERR_FILENO, message.as_ptr().cast(), message.len());
        libc::_exit(128 + signal);
    }
}

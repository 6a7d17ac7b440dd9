//! The temporary files alive in this process, for a signal handler to
//! remove before the process exits.
//!
//! A handler may only do what is async-signal-safe: no lock (the thread it
//! interrupted may hold it), no allocation, no freeing. So the paths sit in
//! a fixed array of atomic pointers to C strings made when each temporary
//! file is created. [`remove_pending_temp_files`] takes each pointer with an
//! atomic swap and calls `unlink(2)`, which POSIX lists as
//! async-signal-safe; it frees nothing (the process is about to exit, and
//! a string taken by it is never freed by anyone else either, so no
//! address is ever reused while a [`Slot`] still remembers it). The owner
//! of a temporary file takes its pointer back with a compare-and-swap when
//! the file is renamed or removed, and frees it only if the swap succeeded:
//! whichever of the two swaps comes first owns the string.
//!
//! What is left uncovered, honestly: a signal between the creation of a
//! temporary file and its registration (a few microseconds) leaves that
//! file behind; registering the name before creating the file would close
//! that window but open a worse one, removing someone else's file when the
//! random name was already taken.

use std::ffi::{CString, c_char};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering::SeqCst};

/// More temporary files at once than any command writes outputs: a
/// survey's workers each write one solution at a time, and there are at
/// most 1024 of them (`crate::shared_args::MAX_JOBS`); 16 failed a survey whose
/// 17 workers happened to write solutions together.
const SLOTS: usize = 1024 + 64;
const _: () = assert!(SLOTS >= crate::shared_args::MAX_JOBS + 16);

static PENDING: [AtomicPtr<c_char>; SLOTS] = [const { AtomicPtr::new(ptr::null_mut()) }; SLOTS];

/// A registered temporary file; dropping it unregisters the path (the
/// file itself is renamed or removed by its owner).
#[derive(Debug)]
pub(super) struct Slot {
    index: usize,
    path: *mut c_char,
}

/// Registers the temporary file at `path` (absolute: the handler does not
/// know the working directory a relative one would need).
pub(super) fn register(path: &Path) -> io::Result<Slot> {
    let raw = CString::new(path.as_os_str().as_bytes())?.into_raw();
    for (index, slot) in PENDING.iter().enumerate() {
        if slot
            .compare_exchange(ptr::null_mut(), raw, SeqCst, SeqCst)
            .is_ok()
        {
            return Ok(Slot { index, path: raw });
        }
    }
    // SAFETY: `raw` comes from `into_raw` above and was stored nowhere.
    drop(unsafe { CString::from_raw(raw) });
    Err(io::Error::other(format!(
        "more than {SLOTS} outputs pending at once"
    )))
}

// SAFETY: the pointer is never read through by a `Slot`, only compared
// and freed once, after an atomic swap proved it the only owner; that is
// sound from any thread.
unsafe impl Send for Slot {}

impl Drop for Slot {
    fn drop(&mut self) {
        let ours = PENDING[self.index].compare_exchange(self.path, ptr::null_mut(), SeqCst, SeqCst);
        if ours.is_ok() {
            // SAFETY: the pointer comes from `into_raw` in `register`; the
            // successful swap took it out of the array, so no handler can
            // reach it any more and this is its only owner.
            drop(unsafe { CString::from_raw(self.path) });
        }
    }
}

/// Removes every temporary file registered now: for a signal handler, right
/// before the process exits (`_exit`). Async-signal-safe: atomic swaps and
/// `unlink(2)` only, nothing allocated, freed or locked. Outside a handler
/// it works too, but leaks a few bytes per file and makes every pending
/// output fail at its rename: it is meant for a process about to die.
pub fn remove_pending_temp_files() {
    for slot in &PENDING {
        let path = slot.swap(ptr::null_mut(), SeqCst);
        if !path.is_null() {
            // SAFETY: `path` is a NUL-terminated string from `into_raw`,
            // never freed while in the array and never freed once taken
            // out by this swap; unlink only reads it. An error (the file
            // already renamed or removed) is nothing to report here.
            unsafe { libc::unlink(path) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_holds_its_path_while_alive() {
        let slot = register(Path::new("/nowhere/.xpat-solver-test.tmp")).unwrap();
        assert_eq!(PENDING[slot.index].load(SeqCst), slot.path);
        // SAFETY: the string is registered and alive until `slot` drops.
        let held = unsafe { std::ffi::CStr::from_ptr(slot.path) };
        assert_eq!(held.to_bytes(), b"/nowhere/.xpat-solver-test.tmp");
    }

    #[test]
    fn a_path_with_a_nul_is_refused() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(std::ffi::OsStr::from_bytes(b"a\0b"));
        assert!(register(path).is_err());
    }
}

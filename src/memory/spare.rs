//! The spare block that turns running out of memory into an outcome: the
//! binary's allocator, and the mark the searches look at.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// The allocator of the binary: the system's, with a spare block held
/// back for the moment memory runs out.
///
/// Why: the search's big tables grow fallibly and give up cleanly
/// (`ECHEC`, "out of memory"), but small allocations all over the
/// program (a set of names, a thread's buffers, a path being rebuilt) are
/// infallible, and one of them failing aborts the process (exit 134),
/// losing the search. When a small allocation fails, this allocator
/// frees the spare, marks memory [`low`], and tries again; the searches
/// see the mark where they check their limits and give up as out of
/// memory, with the spare's room to finish in. Emacs keeps a spare of the
/// same kind for the same reason (`memory-full`). A large allocation that
/// fails is a table growing fallibly: it gets its error, and the spare
/// stays for the small ones.
pub struct WithSpare;

/// The spare block, or null while it is spent (or before [`keep_spare`]).
static SPARE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
/// Whether the spare was spent since it was last kept.
static LOW: AtomicBool = AtomicBool::new(false);
/// Whether the binary installed [`WithSpare`] (a library user's program
/// keeps no spare).
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The spare's size: room for a search to stop, shorten nothing more,
/// and write its report, and for the largest infallible allocation met
/// at the limit (the search over components' set of lost names grows by
/// 800 kB), yet little enough to be kept with a few megabytes free.
const SPARE_BYTES: usize = 1 << 20;
/// The largest allocation the spare stands in for: one it can hold.
const SMALL: usize = SPARE_BYTES;

fn spare_layout() -> Layout {
    Layout::from_size_align(SPARE_BYTES, 4096).expect("a valid layout")
}

impl WithSpare {
    /// After a failed allocation of `size` bytes: frees the spare, if the
    /// allocation is small and the spare is there, and tries `again`.
    fn spend_spare(size: usize, again: impl FnOnce() -> *mut u8) -> *mut u8 {
        if size > SMALL {
            return std::ptr::null_mut();
        }
        let spare = SPARE.swap(std::ptr::null_mut(), Ordering::AcqRel);
        if spare.is_null() {
            return std::ptr::null_mut();
        }
        LOW.store(true, Ordering::Release);
        // SAFETY: the spare was allocated by `System` with this layout
        // (`keep_spare`) and, swapped out above, is freed once.
        unsafe { System.dealloc(spare, spare_layout()) };
        again()
    }
}

// SAFETY: every call goes to `System` with the caller's arguments; the
// spare is a block of `System`'s own, freed at most once.
unsafe impl GlobalAlloc for WithSpare {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            return block;
        }
        Self::spend_spare(layout.size(), || unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            return block;
        }
        Self::spend_spare(layout.size(), || unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on; a failed realloc
        // leaves `ptr` as it was, so it may be tried again.
        let block = unsafe { System.realloc(ptr, layout, new_size) };
        if !block.is_null() {
            return block;
        }
        Self::spend_spare(new_size, || unsafe {
            System.realloc(ptr, layout, new_size)
        })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Called by the binary that installed [`WithSpare`] as its global
/// allocator: keeps the spare from now on.
pub fn install_spare() {
    INSTALLED.store(true, Ordering::Release);
    keep_spare();
}

/// Keeps a spare again if it was spent, as each search starts (the one
/// before has freed its tables): memory is no longer [`low`] once a spare
/// is held. Does nothing unless [`install_spare`] was called.
pub fn keep_spare() {
    if !INSTALLED.load(Ordering::Acquire) {
        return;
    }
    if SPARE.load(Ordering::Acquire).is_null() {
        // SAFETY: a valid, nonzero layout.
        let spare = unsafe { System.alloc(spare_layout()) };
        if spare.is_null() {
            return;
        }
        let kept = SPARE.compare_exchange(
            std::ptr::null_mut(),
            spare,
            Ordering::AcqRel,
            Ordering::Acquire,
        );
        if kept.is_err() {
            // Another thread kept one first.
            // SAFETY: allocated just above with this layout, never shared.
            unsafe { System.dealloc(spare, spare_layout()) };
        }
    }
    LOW.store(false, Ordering::Release);
}

/// Whether memory ran out since the spare was last kept: a search that
/// sees it gives up as out of memory.
pub fn low() -> bool {
    LOW.load(Ordering::Acquire)
}

/// Marks memory [`low`] where a table failed to grow fallibly without
/// reaching the allocator's spare (a large block), so that every part of
/// the search stops and says "out of memory".
pub fn ran_out() {
    LOW.store(true, Ordering::Release);
}

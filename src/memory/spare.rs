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
/// stays for the small ones. Its big blocks are advised into huge pages
/// (`huge_pages`).
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

/// The least size of a block advised into huge pages ([`huge_pages`]).
const HUGE: usize = 8 << 20;

/// Asks the kernel to back the block at `block`, of `size` bytes, with
/// huge pages (2 MB) where it can. Why: a search's big tables (the
/// visited set, a cell's set in layers) are hundreds of megabytes probed
/// at random, and with 4 kB pages nearly every probe also misses the TLB;
/// this machine's kernel gives huge pages only where asked
/// (`transparent_hugepage` set to `madvise`). Only blocks of [`HUGE`]
/// bytes or more, each its own mapping (`super::return_freed_memory`):
/// the advice never reaches a neighbour's memory. Advice refused changes
/// nothing but speed.
fn huge_pages(block: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    if size >= HUGE {
        const PAGE: usize = 4096;
        let start = (block as usize).next_multiple_of(PAGE);
        let end = (block as usize + size) & !(PAGE - 1);
        if end > start {
            // SAFETY: madvise only changes how the kernel backs these
            // pages, all inside the block just allocated; it reads and
            // writes no memory.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
}

// SAFETY: every call goes to `System` with the caller's arguments; the
// spare is a block of `System`'s own, freed at most once.
unsafe impl GlobalAlloc for WithSpare {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            huge_pages(block, layout.size());
            return block;
        }
        Self::spend_spare(layout.size(), || unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            huge_pages(block, layout.size());
            return block;
        }
        Self::spend_spare(layout.size(), || unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on; a failed realloc
        // leaves `ptr` as it was, so it may be tried again.
        let block = unsafe { System.realloc(ptr, layout, new_size) };
        if !block.is_null() {
            huge_pages(block, new_size);
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The kernel's flags (`VmFlags` of `/proc/self/smaps`) for the
    /// mapping holding `address`.
    fn flags_of_mapping_at(address: usize) -> Vec<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            // A mapping's first line starts with its range, `start-end`.
            let range = line.split_whitespace().next().and_then(|r| {
                let (start, end) = r.split_once('-')?;
                let number = |h| usize::from_str_radix(h, 16).ok();
                Some((number(start)?, number(end)?))
            });
            if let Some((start, end)) = range {
                inside = (start..end).contains(&address);
            } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
                return flags.split_whitespace().map(str::to_string).collect();
            }
        }
        panic!("no mapping holds {address:#x}")
    }

    /// A block of `HUGE` bytes or more is advised into huge pages (`hg`
    /// among its mapping's flags), one smaller is not: the advice reaches
    /// the big tables and only them.
    #[test]
    fn big_blocks_are_advised_into_huge_pages_and_small_ones_are_not() {
        // A kernel without huge pages refuses the advice: nothing to see.
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return;
        }
        crate::memory::return_freed_memory();
        for (size, advised) in [(HUGE, true), (2 * HUGE + 12345, true), (HUGE / 4, false)] {
            let layout = Layout::from_size_align(size, 8).unwrap();
            // SAFETY: a valid, nonzero layout; freed below with it.
            let block = unsafe { WithSpare.alloc(layout) };
            assert!(!block.is_null());
            let middle = block as usize + size / 2;
            let hg = flags_of_mapping_at(middle).iter().any(|f| f == "hg");
            // SAFETY: allocated above with this layout.
            unsafe { WithSpare.dealloc(block, layout) };
            assert_eq!(hg, advised, "{size} bytes");
        }
    }
}

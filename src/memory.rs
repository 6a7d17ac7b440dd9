//! What this process asks of and learns from the operating system about its
//! memory: the allocator setting that keeps one search's freed tables from
//! staying resident under the next, resident sizes for reports, and the
//! spare block that turns running out of memory into an outcome, with huge
//! pages for the big tables.

mod spare;

pub use spare::{WithSpare, install_spare, keep_spare, low, ran_out};

/// Makes glibc give large freed blocks back to the system at once. By
/// default it raises its threshold for that after each large free, so the
/// memory of one portfolio attempt could stay resident under the next and
/// add to the peak. With a fixed 1 MB threshold, every large table is its
/// own mapping, gone when freed (and grown by `mremap`, without a copy).
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        const M_MMAP_THRESHOLD: i32 = -3;
        // SAFETY: mallopt only sets an allocator parameter; glibc documents
        // M_MMAP_THRESHOLD and accepts any value up to 32 MB.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 1 << 20);
        }
    }
}

/// The stack a thread gets from `std::thread::Builder` unless told.
const THREAD_STACK: usize = 2 << 20;

/// [`spawn_scoped_with`] an unnamed thread of the usual stack: the
/// searches' threads.
pub fn spawn_scoped<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    spawn_scoped_with(scope, std::thread::Builder::new(), THREAD_STACK, f)
}

/// Starts a scoped thread from `builder` with `stack` bytes of stack,
/// only where the address space has room for the whole thread.
///
/// Why: a stack the system refuses is an error `spawn` returns, and every
/// caller goes on without that thread; but the standard library also maps
/// an alternate signal stack as the new thread starts, before its closure
/// runs, and when that mapping fails it panics there and the process
/// aborts ("failed to allocate an alternative stack", under `ulimit -v`
/// in `tests/hostile/memory.rs`, two threads with a few megabytes left).
/// So the stack and a margin for the signal stack are mapped first (no
/// access, so nothing is touched: a cgroup counts no memory for it) and
/// released at once; without that room the thread is not started, an
/// error of kind `OutOfMemory`, as for a refused stack. Another thread
/// that allocates at that very instant can still take the room between;
/// the margin is twenty times the signal stack (12 kB here: 8 kB and a
/// guard page).
pub fn spawn_scoped_with<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    builder: std::thread::Builder,
    stack: usize,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    const MARGIN: usize = 256 << 10;
    if !room_for(stack + MARGIN) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            "no room for a thread's stacks",
        ));
    }
    builder.stack_size(stack).spawn_scoped(scope, f)
}

/// Whether `bytes` of address space can be mapped now (mapped with no
/// access and unmapped again).
fn room_for(bytes: usize) -> bool {
    // SAFETY: a fresh private anonymous mapping, touched by no one and
    // unmapped before return; `mmap` fails cleanly when there is no room.
    unsafe {
        let at = libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        );
        if at == libc::MAP_FAILED {
            return false;
        }
        libc::munmap(at, bytes);
    }
    true
}

/// Asks the processor to start loading the cache line at `at`: a table
/// probed at random waits on memory, and a look-up asked for early
/// overlaps that wait with other work.
#[inline]
pub fn prefetch<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing the program sees
    // and never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(at as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// Peak resident memory of this process, in bytes (Linux), for reports.
pub fn peak() -> Option<u64> {
    process_status_bytes("VmHWM:")
}

/// Resident memory now, in bytes (Linux).
pub fn current() -> Option<u64> {
    process_status_bytes("VmRSS:")
}

/// A `kB` figure of `/proc/self/status`, in bytes.
fn process_status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Bytes this process could still take before the machine or its control
/// group runs short: the least of `MemAvailable` (`/proc/meminfo`) and, for
/// the memory control group it runs in and each of its ancestors, the
/// limit less what the group already uses (cgroup v2 `memory.max` and
/// `memory.current`, v1 `memory.limit_in_bytes` and `memory.usage_in_bytes`),
/// its inactive page cache counted as free since the kernel reclaims it
/// first (`memory.stat`), as `MemAvailable` counts it.
/// A container or a Slurm job sees its own share, not the host's, and the
/// figure is what is free *now*, so limits drawn from it leave room for
/// whatever else runs. `None` when nothing could be read (not Linux).
pub fn usable() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let available = read("/proc/meminfo").and_then(|t| meminfo_available(&t));
    let cgroup = match (read("/proc/self/cgroup"), read("/proc/self/mountinfo")) {
        (Some(groups), Some(mounts)) => cgroup_dirs(&groups, &mounts)
            .into_iter()
            .filter_map(|(dir, files)| cgroup_headroom(&dir, files))
            .min(),
        _ => None,
    };
    match (available, cgroup) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    }
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn meminfo_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The files that hold a memory control group's limit and usage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CgroupFiles {
    limit: &'static str,
    usage: &'static str,
    /// The field of `memory.stat` that counts page cache not used lately:
    /// in the usage, yet the kernel takes it back before it fails an
    /// allocation, so it is headroom.
    inactive_file: &'static str,
}

const CGROUP_V2: CgroupFiles = CgroupFiles {
    limit: "memory.max",
    usage: "memory.current",
    inactive_file: "inactive_file",
};
const CGROUP_V1: CgroupFiles = CgroupFiles {
    limit: "memory.limit_in_bytes",
    usage: "memory.usage_in_bytes",
    inactive_file: "total_inactive_file",
};

/// The directories of this process's memory control group, from
/// `/proc/self/cgroup` and `/proc/self/mountinfo`: where each hierarchy
/// that has the memory controller is mounted, joined with the group's
/// path in it. Inside a cgroup namespace the path may not exist under the
/// mount (the mount is then the group itself): the mount point is used.
fn cgroup_dirs(cgroup: &str, mountinfo: &str) -> Vec<(std::path::PathBuf, CgroupFiles)> {
    let mut dirs = Vec::new();
    for mount in mountinfo.lines() {
        // "id parent dev root mountpoint options [tags] - fstype source superoptions"
        let Some((before, after)) = mount.split_once(" - ") else {
            continue;
        };
        let fields: Vec<&str> = before.split(' ').collect();
        let theirs: Vec<&str> = after.split(' ').collect();
        let (Some(&root), Some(&point)) = (fields.get(3), fields.get(4)) else {
            continue;
        };
        let (files, wanted) = match theirs.first() {
            Some(&"cgroup2") => (CGROUP_V2, None),
            Some(&"cgroup")
                if theirs
                    .get(2)
                    .is_some_and(|o| o.split(',').any(|o| o == "memory")) =>
            {
                (CGROUP_V1, Some("memory"))
            }
            _ => continue,
        };
        // "hierarchy:controllers:path"; v2's line has no controllers.
        let path = cgroup.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            let matches = match wanted {
                None => controllers.is_empty(),
                Some(c) => controllers.split(',').any(|x| x == c),
            };
            matches.then_some(path)
        });
        let Some(path) = path else { continue };
        let inside = path
            .strip_prefix(root)
            .unwrap_or(path)
            .trim_start_matches('/');
        let dir = std::path::Path::new(point).join(inside);
        dirs.push((if dir.is_dir() { dir } else { point.into() }, files));
    }
    dirs
}

/// The least headroom (limit less usage, plus the page cache it would give
/// back) of the group in `dir` and its
/// ancestors up to the mount, or `None` when none has a limit.
fn cgroup_headroom(dir: &std::path::Path, files: CgroupFiles) -> Option<u64> {
    let read = |d: &std::path::Path, f: &str| std::fs::read_to_string(d.join(f)).ok();
    let mut least: Option<u64> = None;
    for d in dir.ancestors() {
        let (Some(limit), Some(usage)) = (read(d, files.limit), read(d, files.usage)) else {
            break;
        };
        let cache = read(d, "memory.stat").map_or(0, |stat| stat_field(&stat, files.inactive_file));
        if let Some(room) = headroom(&limit, &usage) {
            let room = room.saturating_add(cache);
            least = Some(least.map_or(room, |l| l.min(room)));
        }
    }
    least
}

/// A field of a `memory.stat` file, in bytes; 0 when absent.
fn stat_field(stat: &str, name: &str) -> u64 {
    stat.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or(0)
}

/// Limit less usage, from the files' text; `None` for no limit (`max`, or
/// v1's page-rounded `i64::MAX`).
fn headroom(limit: &str, usage: &str) -> Option<u64> {
    let limit: u64 = limit.trim().parse().ok()?;
    let usage: u64 = usage.trim().parse().ok()?;
    (limit < 1 << 62).then(|| limit.saturating_sub(usage))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_from_meminfo() {
        let text = "MemTotal:       24683656 kB\nMemFree:        21175536 kB\nMemAvailable:   23814760 kB\n";
        assert_eq!(meminfo_available(text), Some(23814760 * 1024));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn cgroup_limits_and_no_limits() {
        assert_eq!(headroom("max\n", "1000\n"), None);
        assert_eq!(headroom("9223372036854771712\n", "1511661568\n"), None);
        assert_eq!(headroom("4294967296\n", "1073741824\n"), Some(3 << 30));
        assert_eq!(headroom("100\n", "200\n"), Some(0));
        let stat = "active_file 10\ninactive_file_x 7\ninactive_file 4096\n";
        assert_eq!(stat_field(stat, "inactive_file"), 4096);
        assert_eq!(stat_field(stat, "total_inactive_file"), 0);
    }

    #[test]
    fn finds_the_memory_hierarchies() {
        let groups = "4:memory:/job/42\n2:cpu:/\n0::/user.slice/app\n";
        let mounts = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
40 31 0:33 /user.slice /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw
";
        let dirs = cgroup_dirs(groups, mounts);
        let files: Vec<CgroupFiles> = dirs.iter().map(|(_, f)| *f).collect();
        assert_eq!(files, [CGROUP_V1, CGROUP_V2]);
        // Directories that do not exist here fall back to the mount point.
        for (dir, _) in &dirs {
            assert!(dir.starts_with("/sys/fs/cgroup"), "{dir:?}");
        }
    }

    #[test]
    fn usable_memory_is_known_here_and_plausible() {
        let usable = usable().expect("Linux reports available memory");
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
        let total_kb: u64 = meminfo
            .lines()
            .next()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert!(usable > 0 && usable <= total_kb * 1024, "{usable}");
    }
}

//! What this process asks of and learns from the operating system about its
//! memory: the allocator setting that keeps one search's freed tables from
//! staying resident under the next, and resident sizes for reports.

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

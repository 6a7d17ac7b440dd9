//! Prepared outputs in directories an ordinary user cannot write: refused
//! at `prepare`, before any search, and nothing written anywhere.
//!
//! Root writes everywhere, so under root this test runs itself again as
//! `nobody` (with `setpriv`), and skips with a printed reason when that
//! cannot be done.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use xpat_solver::output::Outputs;

const NAME: &str = "an_unwritable_directory_is_refused_before_anything_is_written";

#[test]
fn an_unwritable_directory_is_refused_before_anything_is_written() {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        return rerun_as_nobody();
    }
    let dir = tempfile::tempdir().unwrap();
    let open = dir.path().join("open");
    let read_only = dir.path().join("read-only");
    let shut = dir.path().join("shut");
    for d in [&open, &read_only, &shut] {
        fs::create_dir(d).unwrap();
    }
    fs::write(read_only.join("old.sol"), b"old\n").unwrap();
    fs::create_dir(shut.join("inner")).unwrap();
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o555)).unwrap();
    fs::set_permissions(&shut, fs::Permissions::from_mode(0o000)).unwrap();

    let mut outputs = Outputs::new();
    outputs.prepare(&open.join("a.sol")).unwrap();
    for (path, why) in [
        (read_only.join("new.sol"), "Permission denied"),
        (read_only.join("old.sol"), "Permission denied"),
        (shut.join("inner/out.sol"), "Permission denied"),
    ] {
        let err = outputs.prepare(&path).unwrap_err().to_string();
        assert!(err.starts_with("cannot write '"), "{err}");
        assert!(err.contains(why), "{err}");
        // The system's reason, not the name of a temporary file.
        assert!(!err.contains(".xpat-solver-"), "{err}");
    }
    drop(outputs);
    fs::set_permissions(&shut, fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(fs::read_dir(&open).unwrap().count(), 0);
    assert_eq!(fs::read_dir(&read_only).unwrap().count(), 1);
    assert_eq!(fs::read(read_only.join("old.sol")).unwrap(), b"old\n");
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs this very test as `nobody`, and fails unless it ran and passed.
fn rerun_as_nobody() {
    let exe = std::env::current_exe().unwrap();
    let ran = Command::new("setpriv")
        .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        .arg(&exe)
        .args(["--exact", NAME, "--test-threads=1"])
        .env("TMPDIR", std::env::temp_dir())
        .output();
    let out = match ran {
        Ok(out) => out,
        Err(e) => {
            println!("SKIPPED {NAME}: running as root, and setpriv cannot be started ({e})");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // setpriv's own failures: 126 (cannot run the binary: nobody may not
    // reach this directory), 127 (not found).
    if matches!(out.status.code(), Some(126 | 127)) {
        println!("SKIPPED {NAME}: setpriv cannot run the test as nobody: {stderr}");
        return;
    }
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "as nobody: {:?}\n{stdout}\n{stderr}",
        out.status
    );
}

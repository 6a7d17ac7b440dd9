//! A signal during a write: the handler design the CLI is to use (remove
//! the pending temporary files, then `_exit`) leaves no temporary file and
//! the old target intact.
//!
//! One test only in this file: `remove_pending_temp_files` acts on the
//! whole process, and the test process here is the one killed, run again
//! as a child of the test.

use std::ffi::c_int;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use xpat_solver::output::{Outputs, remove_pending_temp_files};

const NAME: &str = "a_signal_mid_write_leaves_no_temporary_and_the_old_file";
const CHILD: &str = "XPAT_SOLVER_SIGNAL_TEST_DIR";
const READY: &str = "OUTPUTS-READY";

extern "C" fn on_signal(signal: c_int) {
    remove_pending_temp_files();
    // SAFETY: _exit is async-signal-safe and ends the process at once.
    unsafe { libc::_exit(128 + signal) };
}

#[test]
fn a_signal_mid_write_leaves_no_temporary_and_the_old_file() {
    if let Some(dir) = std::env::var_os(CHILD) {
        return be_the_child(Path::new(&dir));
    }
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("keep.sol");
    fs::write(&old, b"old\n").unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", NAME, "--nocapture", "--test-threads=1"])
        .env(CHILD, dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let ready = stdout
        .lines()
        .map_while(Result::ok)
        .any(|l| l.ends_with(READY));
    assert!(ready, "the child never got its outputs ready");
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        3,
        "two temporaries"
    );
    // SAFETY: kill has no memory preconditions; the pid is our child's.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["keep.sol"]);
    assert_eq!(fs::read(&old).unwrap(), b"old\n");

    // In this process: the files removed under a live `Outputs`, publishing
    // fails cleanly (no panic) and writes nothing.
    let mut outputs = Outputs::new();
    let id = outputs.prepare(&old).unwrap();
    outputs.write(id, b"1 T\n").unwrap();
    remove_pending_temp_files();
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    let err = outputs.publish_all().unwrap_err().to_string();
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(fs::read(&old).unwrap(), b"old\n");
}

fn be_the_child(dir: &Path) {
    // SAFETY: the handler only calls async-signal-safe functions.
    unsafe { libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t) };
    let mut outputs = Outputs::new();
    let keep = outputs.prepare(&dir.join("keep.sol")).unwrap();
    let new = outputs.prepare(&dir.join("new.sol")).unwrap();
    outputs.write(keep, b"1 T\n").unwrap();
    outputs.write(new, b"half").unwrap();
    // The harness may print on the same line before it: the token ends it.
    println!("{READY}");
    std::io::stdout().flush().unwrap();
    std::thread::sleep(std::time::Duration::from_secs(60));
    panic!("no signal came");
}

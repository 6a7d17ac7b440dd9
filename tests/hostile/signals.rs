//! Signals during a search, and a terminal that goes away under its
//! progress line.

use std::ffi::CStr;
use std::fs::{self, File};
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{TempDir, bin, is_verdict};
use crate::{arg, names_in};

/// A search that runs for many seconds: Baker's Dozen 1649, lost, whose
/// proof takes an hour (`docs/hard-deals.md`), so that nothing can end it
/// early. (bd.1797, used before, is undecided at 10 s by the usual search
/// but sometimes won by the nested rollouts in 1.4 s, before the progress
/// line the terminal test waits for.)
fn long_search(out: &Path, save: &Path) -> Command {
    let mut command = Command::new(bin());
    command.args(["bd.1649", "-search", arg(out), "--xpat2", arg(save)]);
    command
}

/// Waits until `dir` holds `count` temporary files: the outputs are
/// prepared, and the search under way.
fn wait_for_temporaries(dir: &Path, count: usize, child: &mut Child) -> Vec<String> {
    let start = Instant::now();
    loop {
        let temps: Vec<String> = names_in(dir)
            .into_iter()
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        if temps.len() == count {
            return temps;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before the signal"
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no temporary files"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Items 4 and 9: a signal during the search leaves no temporary file,
/// the old target as it was, and exits 128 + the signal.
#[test]
fn a_signal_during_a_search_leaves_the_old_file_and_no_temporary() {
    for (signal, name, code) in [
        (libc::SIGINT, "SIGINT", 130),
        (libc::SIGTERM, "SIGTERM", 143),
        (libc::SIGHUP, "SIGHUP", 129),
    ] {
        let dir = TempDir::new("signal");
        let out = dir.join("out.sol");
        fs::write(&out, b"old\n").unwrap();
        let mut child = long_search(&out, &dir.join("save"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let temps = wait_for_temporaries(dir.path(), 2, &mut child);
        // Unguessable names, created with O_EXCL: nothing about the
        // process or the target in them.
        for temp in &temps {
            let random = temp
                .strip_prefix(".xpat-solver-")
                .and_then(|t| t.strip_suffix(".tmp"))
                .unwrap_or_else(|| panic!("{temp}"));
            assert_eq!(random.len(), 12, "{temp}");
            assert!(!temp.contains(&child.id().to_string()), "{temp}");
        }
        std::thread::sleep(Duration::from_millis(200));
        // SAFETY: kill has no memory preconditions; the pid is our child's.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let ended = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&ended.stdout);
        let stderr = String::from_utf8_lossy(&ended.stderr);
        assert_eq!(ended.status.code(), Some(code), "{name}: {stderr}");
        assert!(!stdout.lines().any(is_verdict), "{name}: {stdout}");
        assert_eq!(
            stderr,
            format!("xpat-solver: stopped by {name} (temporary files removed)\n")
        );
        assert_eq!(names_in(dir.path()), ["out.sol"], "{name}");
        assert_eq!(fs::read(&out).unwrap(), b"old\n", "{name}");
    }
}

/// A pseudo-terminal: the side a program writes to, and the side that
/// reads it, which closing makes the terminal go away.
fn pseudo_terminal() -> (OwnedFd, File) {
    // SAFETY: posix_openpt returns a new descriptor or -1; grantpt,
    // unlockpt and ptsname take it as it is; ptsname's string is copied
    // before any other call could overwrite it.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "no pseudo-terminal");
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let name = CStr::from_ptr(libc::ptsname(master)).to_owned();
        let slave = File::options()
            .write(true)
            .open(name.to_str().unwrap())
            .unwrap();
        (OwnedFd::from_raw_fd(master), slave)
    }
}

/// Item 4: the progress line to a terminal that went away (EIO) killed a
/// running search (exit 134) and lost its solution. Now what cannot be
/// written to stderr is dropped and the search goes on to its verdict.
#[test]
fn a_terminal_that_goes_away_does_not_stop_the_search() {
    let dir = TempDir::new("eio");
    let (master, terminal) = pseudo_terminal();
    let child = long_search(&dir.join("out.sol"), dir.path())
        .args(["--timeout", "4"])
        .stdout(Stdio::piped())
        .stderr(terminal)
        .spawn()
        .unwrap();
    // Read the terminal until the progress line shows, then close it.
    let mut shown = Vec::new();
    let mut reader = File::from(master);
    let mut buf = [0; 256];
    while !String::from_utf8_lossy(&shown).contains("stored") {
        let n = reader.read(&mut buf).expect("read the terminal");
        assert!(n > 0, "the terminal closed first");
        shown.extend_from_slice(&buf[..n]);
    }
    drop(reader);
    let ended = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&ended.stdout);
    let verdict = stdout.lines().last().unwrap_or("");
    match ended.status.code() {
        Some(0) => assert_eq!(verdict, "SUCCES"),
        Some(1) => assert_eq!(verdict, "ECHEC", "{stdout}"),
        other => panic!("{other:?}: {stdout}"),
    }
    assert!(stdout.contains("positions stored"), "{stdout}");
}

//! Streams that cannot be written: a message that has nowhere to go is
//! dropped, never an abort (it was exit 134); a verdict that cannot be
//! written is exit 3, since the caller would read nothing.

use std::fs::File;
use std::path::Path;

use crate::common::{run_to, solutions_dir};

/// `/dev/full`: every write fails with "no space left on device".
fn full() -> Option<File> {
    let path = Path::new("/dev/full");
    if !path.exists() {
        eprintln!("SKIPPED: no /dev/full on this system");
        return None;
    }
    Some(
        File::options()
            .write(true)
            .open(path)
            .expect("open /dev/full"),
    )
}

fn good_solution() -> String {
    let path = solutions_dir().join("format/fc123-no-final-newline.sol");
    path.to_str().unwrap().to_string()
}

#[test]
fn a_full_stderr_loses_the_message_not_the_exit_code() {
    let Some(_) = full() else { return };
    for args in [
        &["fc.1", "-check", "/no/such/file.sol"][..],
        &["fc.0"],
        &["fc.1", "-search", "x.sol", "--timeout", "1e20"],
    ] {
        let r = run_to(args, None, full());
        assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{args:?}: {r:?}");
    }
    let r = run_to(["fc.123", "-check", &good_solution()], None, full());
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
}

#[test]
fn a_stdout_that_cannot_take_the_output_is_exit_3() {
    let Some(_) = full() else { return };
    let good = good_solution();
    for args in [
        &["--help"][..],
        &["--version"],
        &["fc.1"],
        &["fc.123", "-check", &good],
    ] {
        let r = run_to(args, full(), None);
        assert_eq!(r.code, 3, "{args:?}: {r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {r:?}");
        assert!(
            r.stderr.contains("cannot write to standard output"),
            "{args:?}: {r:?}"
        );
    }
}

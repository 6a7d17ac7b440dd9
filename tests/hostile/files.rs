//! Outputs: never two names for one file, never a special file or a link
//! replaced, every refusal before the search, permissions kept.

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

use crate::common::{Run, TempDir, bin, run, scratch_device, solutions_dir};
use crate::{arg, assert_empty, names_in};

/// A solution of FreeCell 123, to check and to overwrite.
fn solution_of_fc123(dir: &TempDir) -> std::path::PathBuf {
    let path = dir.join("keep.sol");
    fs::copy(
        solutions_dir().join("format/fc123-no-final-newline.sol"),
        &path,
    )
    .unwrap();
    path
}

/// Exit 3 with one line on stderr that says `says`, and nothing on
/// stdout: refused before any search or replay.
fn assert_refused(r: &Run, says: &str) {
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "", "refused after the work: {r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(r.stderr.contains(says), "should say '{says}': {r:?}");
}

/// Item 1: `--xpat2` wrote its binary save over the solution file or over
/// the file being checked, and said SUCCES.
#[test]
fn an_output_that_is_another_output_or_the_input_is_refused() {
    let dir = TempDir::new("same-file");
    let same = dir.join("same.sol");
    let r = run(["fc.123", "-search", arg(&same), "--xpat2", arg(&same)]);
    assert_refused(&r, "also written");
    assert_empty(dir.path());

    let keep = solution_of_fc123(&dir);
    let before = fs::read(&keep).unwrap();
    fs::hard_link(&keep, dir.join("hard.sol")).unwrap();
    std::os::unix::fs::symlink(&keep, dir.join("link.sol")).unwrap();
    for save in ["keep.sol", "hard.sol", "./keep.sol"] {
        let save = dir.path().join(save);
        let r = run(["fc.123", "-check", arg(&keep), "--xpat2", arg(&save)]);
        assert_refused(&r, "the file being read");
    }
    let r = run([
        "fc.123",
        "-check",
        arg(&keep),
        "--xpat2",
        arg(&dir.join("link.sol")),
    ]);
    assert_refused(&r, "symbolic link");
    assert_eq!(fs::read(&keep).unwrap(), before);

    // The natural one: the solution named as xpat2 names its saves, and
    // the save asked in the same directory.
    let named = dir.join("FreeCell.000000123");
    fs::write(&named, b"old\n").unwrap();
    for xpat2_dir in [dir.path().to_path_buf(), dir.path().join(".")] {
        let r = run([
            "FreeCell.123",
            "-search",
            arg(&named),
            "--xpat2",
            arg(&xpat2_dir),
        ]);
        assert_refused(&r, "also written");
    }
    assert_eq!(fs::read(&named).unwrap(), b"old\n");
    assert_eq!(
        names_in(dir.path()),
        ["FreeCell.000000123", "hard.sol", "keep.sol", "link.sol"]
    );
}

/// Item 2: the write renamed a regular file over a device or a FIFO (as
/// root, `-search /dev/null` destroyed the device node; the device here is
/// one made for the test, see `scratch_device`).
#[test]
fn special_files_are_refused_never_replaced() {
    let dir = TempDir::new("special");
    let device = scratch_device(dir.path());
    let r = run(["fc.1", "-search", arg(&device)]);
    assert_refused(&r, "it is a character device, not a regular file");
    assert!(fs::metadata(&device).unwrap().file_type().is_char_device());
    if device.starts_with(dir.path()) {
        fs::remove_file(&device).unwrap();
    }

    let fifo = dir.join("fifo");
    let path = std::ffi::CString::new(arg(&fifo)).unwrap();
    // SAFETY: `path` is a NUL-terminated string alive for the call.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    let keep = solution_of_fc123(&dir);
    for args in [
        vec!["fc.1", "-search", arg(&fifo)],
        vec![
            "fc.1",
            "-search",
            arg(&dir.join("a.sol")),
            "--xpat2",
            arg(&fifo),
        ],
        vec!["fc.123", "-check", arg(&keep), "--xpat2", arg(&fifo)],
    ] {
        assert_refused(&run(&args), "it is a FIFO, not a regular file");
    }
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names_in(dir.path()), ["fifo", "keep.sol"]);
}

/// Item 5: a link planted where the output goes sent the write to the
/// file it names.
#[test]
fn a_planted_link_is_never_followed() {
    let dir = TempDir::new("links");
    let victim = dir.join("victim");
    fs::write(&victim, b"precious\n").unwrap();
    let link = dir.join("out.sol");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let dangling = dir.join("dangling.sol");
    std::os::unix::fs::symlink(dir.join("created-through-link"), &dangling).unwrap();
    for out in [&link, &dangling] {
        let r = run(["fc.1", "-search", arg(out)]);
        assert_refused(&r, "it is a symbolic link (to '");
    }
    assert_eq!(fs::read(&victim).unwrap(), b"precious\n");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(names_in(dir.path()), ["dangling.sol", "out.sol", "victim"]);
}

/// Item 6: a name too long for the temporary file's, or `newdir/`, failed
/// only after the search; `--xpat2` into a missing directory wrote the
/// solution, then failed.
#[test]
fn outputs_that_cannot_be_written_are_refused_before_the_search() {
    let dir = TempDir::new("early");
    let r = run(["fc.1", "-search", &format!("{}/newdir/", arg(dir.path()))]);
    assert_refused(&r, "that is a directory's name");
    let too_long = dir.join(&"x".repeat(256));
    let r = run(["fc.1", "-search", arg(&too_long)]);
    assert_refused(&r, "the file name is 256 bytes long");
    let solution = dir.join("a.sol");
    let nowhere = dir.join("no/such/dir/save");
    let r = run(["fc.1", "-search", arg(&solution), "--xpat2", arg(&nowhere)]);
    assert_refused(&r, "no directory");
    assert_empty(dir.path());

    // 245 to 255 bytes: the old temporary name (".NAME.PID.tmp") did not
    // fit; now it is short and fixed, and the file is written.
    for length in [245, 255] {
        let name = dir.join(&"y".repeat(length));
        let r = run(["fc.1", "-search", arg(&name)]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
        assert!(name.is_file());
    }
}

/// Item 6, in directories an ordinary user cannot write (root writes
/// everywhere, so as root the binary runs as `nobody`).
#[test]
fn an_unwritable_directory_is_refused_before_the_search_and_nothing_written() {
    let dir = TempDir::new("read-only");
    let read_only = dir.join("ro");
    fs::create_dir(&read_only).unwrap();
    fs::write(read_only.join("old.sol"), b"old\n").unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o555)).unwrap();
    let solution = dir.join("ok.sol");
    let (new, old, save) = (
        read_only.join("new.sol"),
        read_only.join("old.sol"),
        read_only.join("save"),
    );
    let cases = [
        vec!["fc.1", "-search", arg(&new)],
        vec!["fc.1", "-search", arg(&old)],
        vec![
            "fc.1",
            "-search",
            arg(&solution),
            "--xpat2",
            arg(&read_only),
        ],
        vec!["fc.1", "-search", arg(&solution), "--xpat2", arg(&save)],
    ];
    for args in cases {
        let Some(r) = run_unprivileged(&args) else {
            return;
        };
        assert_refused(&r, "Permission denied");
    }
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(names_in(dir.path()), ["ro"]);
    assert_eq!(names_in(&read_only), ["old.sol"]);
    assert_eq!(fs::read(read_only.join("old.sol")).unwrap(), b"old\n");
}

/// Runs the binary as an ordinary user: as `nobody` under root, with
/// `setpriv`; `None` (and a printed reason) when that cannot be done.
fn run_unprivileged(args: &[&str]) -> Option<Run> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Some(run(args));
    }
    let out = Command::new("setpriv")
        .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        .arg(bin())
        .args(args)
        .output();
    let skip = |why: String| {
        println!("SKIPPED the read-only directory cases: running as root, and {why}");
        None
    };
    match out {
        Err(e) => skip(format!("setpriv cannot be started ({e})")),
        Ok(out) if matches!(out.status.code(), Some(126 | 127)) => skip(format!(
            "setpriv cannot run the binary as nobody: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(out) => Some(Run {
            code: out.status.code().expect("killed by a signal"),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }),
    }
}

/// Item 9: replacing a file gave it the default mode (600 became 644).
#[test]
fn a_replaced_file_keeps_its_permissions() {
    let dir = TempDir::new("mode");
    for mode in [0o600, 0o640, 0o604] {
        let out = dir.join(&format!("{mode:o}.sol"));
        fs::write(&out, b"old\n").unwrap();
        fs::set_permissions(&out, fs::Permissions::from_mode(mode)).unwrap();
        let r = run(["fc.1", "-search", arg(&out), "--xpat2", arg(dir.path())]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
        assert_ne!(fs::read(&out).unwrap(), b"old\n");
        let now = fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(now, mode, "{}", out.display());
    }
    assert!(Path::new(&dir.join("FreeCell.000000001")).is_file());
}

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use super::*;

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The names in `dir`, sorted: what a user listing it would see.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Two outputs prepared in `dir`: `a.sol` and `b.sol`.
fn two_outputs(dir: &Path) -> (Outputs, OutputId, OutputId) {
    let mut outputs = Outputs::new();
    let a = outputs.prepare(&dir.join("a.sol")).unwrap();
    let b = outputs.prepare(&dir.join("b.sol")).unwrap();
    (outputs, a, b)
}

fn refusal(path: &Path) -> String {
    Outputs::new().prepare(path).unwrap_err().to_string()
}

#[test]
fn publishes_every_output_whole_and_leaves_no_temporary() {
    let dir = scratch();
    let (mut outputs, a, b) = two_outputs(dir.path());
    assert_eq!(
        outputs.target(a),
        dir.path().canonicalize().unwrap().join("a.sol")
    );
    // Prepared: each temporary file exists, hidden, no target yet.
    let temps = listing(dir.path());
    assert_eq!(temps.len(), 2, "{temps:?}");
    assert!(
        temps
            .iter()
            .all(|n| n.starts_with(".xpat-solver-") && n.ends_with(".tmp"))
    );
    outputs.write(a, b"1 T\n").unwrap();
    outputs.write(b, b"\x00\x01").unwrap();
    outputs.write(a, b"2 T\n").unwrap();
    outputs.publish_all().unwrap();
    assert_eq!(listing(dir.path()), ["a.sol", "b.sol"]);
    assert_eq!(fs::read(dir.path().join("a.sol")).unwrap(), b"1 T\n2 T\n");
    assert_eq!(fs::read(dir.path().join("b.sol")).unwrap(), b"\x00\x01");
}

#[test]
fn dropped_unpublished_leaves_nothing_and_the_old_file_intact() {
    let dir = scratch();
    let old = dir.path().join("old.sol");
    fs::write(&old, b"old\n").unwrap();
    let mut outputs = Outputs::new();
    let id = outputs.prepare(&old).unwrap();
    outputs.prepare(&dir.path().join("new.sol")).unwrap();
    outputs.write(id, b"1 T\n").unwrap();
    drop(outputs);
    assert_eq!(listing(dir.path()), ["old.sol"]);
    assert_eq!(fs::read(&old).unwrap(), b"old\n");
}

#[test]
fn an_output_never_written_publishes_nothing() {
    let dir = scratch();
    let (mut outputs, a, _) = two_outputs(dir.path());
    outputs.write(a, b"1 T\n").unwrap();
    let err = outputs.publish_all().unwrap_err().to_string();
    assert!(err.contains("nothing written to"), "{err}");
    assert!(listing(dir.path()).is_empty());
}

#[test]
fn an_existing_file_keeps_its_permission_bits() {
    let dir = scratch();
    for mode in [0o600, 0o664, 0o640, 0o444] {
        let path = dir.path().join(format!("m{mode:o}.sol"));
        fs::write(&path, b"old\n").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(mode)).unwrap();
        write_atomically(&path, b"1 T\n").unwrap();
        let now = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(now, mode, "{mode:o} became {now:o}");
        assert_eq!(fs::read(&path).unwrap(), b"1 T\n");
    }
}

#[test]
fn refuses_a_missing_directory_and_a_directory_spelt_as_a_file() {
    let dir = scratch();
    let err = refusal(&dir.path().join("no/such/out.sol"));
    assert!(
        err.contains("no directory") && err.contains("no/such"),
        "{err}"
    );
    let file = dir.path().join("file");
    fs::write(&file, b"").unwrap();
    let err = refusal(&file.join("out.sol"));
    assert!(err.contains("is not a directory"), "{err}");
    for spelt in ["newdir/", "newdir/.", "newdir/..", "."] {
        let err = refusal(&dir.path().join(spelt));
        assert!(err.contains("directory"), "{spelt}: {err}");
    }
    let err = refusal(dir.path());
    assert!(err.ends_with("it is a directory"), "{err}");
    assert!(refusal(Path::new("")).contains("empty file name"));
    assert_eq!(listing(dir.path()), ["file"]);
}

#[test]
fn refuses_a_name_longer_than_the_file_system_takes() {
    let dir = scratch();
    // 255 bytes is the limit of the usual Linux file systems: the longest
    // name works (the temporary name does not depend on it), one more not.
    let longest = dir.path().join("x".repeat(255));
    write_atomically(&longest, b"1 T\n").unwrap();
    let err = refusal(&dir.path().join("y".repeat(256)));
    assert!(
        err.contains("256 bytes long") && err.contains("at most 255"),
        "{err}"
    );
    assert_eq!(listing(dir.path()), ["x".repeat(255)]);
}

#[test]
fn refuses_special_files_rather_than_replace_them() {
    let err = refusal(Path::new("/dev/null"));
    assert!(
        err.contains("a character device, not a regular file"),
        "{err}"
    );
    // Refused, not replaced: as root a rename would have made it a file.
    assert!(
        fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let dir = scratch();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let err = refusal(&fifo);
        assert!(err.contains("a FIFO, not a regular file"), "{err}");
    } else {
        println!("SKIPPED the FIFO case: mkfifo is not available");
    }
    let socket = dir.path().join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    assert!(refusal(&socket).contains("a socket, not a regular file"));
}

#[test]
fn refuses_a_symbolic_link_and_says_where_it_points() {
    let dir = scratch();
    let real = dir.path().join("real.sol");
    fs::write(&real, b"keep\n").unwrap();
    let link = dir.path().join("link.sol");
    symlink(&real, &link).unwrap();
    let err = refusal(&link);
    assert!(
        err.contains("symbolic link") && err.contains("real.sol"),
        "{err}"
    );
    let dangling = dir.path().join("dangling.sol");
    symlink(dir.path().join("nowhere"), &dangling).unwrap();
    assert!(refusal(&dangling).contains("symbolic link"));
    assert_eq!(fs::read(&real).unwrap(), b"keep\n");
    // A link among the directories is resolved, not refused.
    let via = dir.path().join("via");
    symlink(dir.path(), &via).unwrap();
    write_atomically(&via.join("through.sol"), b"1 T\n").unwrap();
    assert_eq!(fs::read(dir.path().join("through.sol")).unwrap(), b"1 T\n");
}

#[test]
fn two_outputs_naming_one_file_are_refused_however_spelt() {
    let dir = scratch();
    fs::create_dir(dir.path().join("sub")).unwrap();
    let mut outputs = Outputs::new();
    outputs.prepare(&dir.path().join("a.sol")).unwrap();
    let err = outputs
        .prepare(&dir.path().join("sub/../a.sol"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("also written"), "{err}");
    // A hard link is the same file under another name.
    let first = dir.path().join("first");
    fs::write(&first, b"x").unwrap();
    fs::hard_link(&first, dir.path().join("second")).unwrap();
    outputs.prepare(&first).unwrap();
    let err = outputs
        .prepare(&dir.path().join("second"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("also written"), "{err}");
}

#[test]
fn the_xpat2_save_named_as_the_solution_file_is_refused() {
    // `FreeCell.123 -search FreeCell.000000123 --xpat2 .`: the CLI resolves
    // `.` to `./FreeCell.000000123`, a second spelling of the first output.
    let dir = scratch();
    let mut outputs = Outputs::new();
    outputs
        .prepare(&dir.path().join("FreeCell.000000123"))
        .unwrap();
    let resolved = dir.path().join(".").join("FreeCell.000000123");
    let err = outputs.prepare(&resolved).unwrap_err().to_string();
    assert!(err.contains("also written"), "{err}");
}

#[test]
fn an_output_may_not_be_the_file_being_read() {
    let dir = scratch();
    let input = dir.path().join("keep.sol");
    fs::write(&input, b"1 T\n").unwrap();
    let link_dir = dir.path().join("elsewhere");
    symlink(dir.path(), &link_dir).unwrap();
    let mut outputs = Outputs::new();
    outputs.add_input(&input).unwrap();
    for spelling in [input.clone(), link_dir.join("keep.sol")] {
        let err = outputs.prepare(&spelling).unwrap_err().to_string();
        assert!(err.contains("the file being read"), "{err}");
    }
    // Prepared first, named as input after: refused all the same.
    let mut outputs = Outputs::new();
    outputs.prepare(&input).unwrap();
    let err = outputs.add_input(&input).unwrap_err().to_string();
    assert!(err.contains("the file being read"), "{err}");
    assert!(
        Outputs::new()
            .add_input(&dir.path().join("missing"))
            .is_err()
    );
    drop(outputs);
    assert_eq!(fs::read(&input).unwrap(), b"1 T\n");
}

#[test]
fn a_target_turned_into_a_directory_during_the_search_publishes_nothing() {
    let dir = scratch();
    let (mut outputs, a, b) = two_outputs(dir.path());
    outputs.write(a, b"1 T\n").unwrap();
    outputs.write(b, b"1 T\n").unwrap();
    fs::create_dir(dir.path().join("b.sol")).unwrap();
    let err = outputs.publish_all().unwrap_err().to_string();
    assert!(err.contains("a directory"), "{err}");
    assert_eq!(listing(dir.path()), ["b.sol"]);
}

#[test]
fn an_unwritable_directory_fails_at_prepare() {
    // Even root cannot create a file in /proc: this refusal holds for any
    // user (the read-only directory of an ordinary user is in tests/).
    let err = refusal(Path::new("/proc/self/out.sol"));
    assert!(err.contains("cannot create a file in"), "{err}");
}

#[test]
fn messages_show_a_path_on_one_line_escaped() {
    let dir = scratch();
    let odd = dir.path().join("new\nline\x1b[31m/out.sol");
    let err = refusal(&odd);
    assert!(!err.contains('\n') && !err.contains('\x1b'), "{err:?}");
    assert!(err.contains("new\\nline\\u{1b}[31m"), "{err}");
    let _: PathBuf = odd;
}

#[test]
fn only_our_own_temporary_names_are_ours() {
    assert!(is_temp_file_name(".xpat-solver-AbCdEf012345.tmp"));
    for name in [
        ".xpat-solver-AbCdEf01234.tmp",
        ".xpat-solver-AbCdEf0123456.tmp",
        ".xpat-solver-AbCdEf01234-.tmp",
        "xpat-solver-AbCdEf012345.tmp",
        ".xpat-solver-AbCdEf012345",
        "FreeCell.1.sol",
    ] {
        assert!(!is_temp_file_name(name), "{name}");
    }
}

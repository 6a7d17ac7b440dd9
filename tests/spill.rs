//! `-search --spill DIR` through the real binary: past a tiny
//! `--max-states` the search goes on in layers on disk and still decides,
//! leaves DIR as it found it, resumes a run stopped by its time or disk
//! limit, and refuses a directory of another search.

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use common::{TempDir, arg, run};

/// The layered phase forced by a tiny limit: at 1000 positions the usual
/// search (the fast pass, then the portfolio) gives Seahaven 31 and 40
/// up, which the layers win, and 35, which they prove lost.
fn spilled(deal: &str, file: &Path, dir: &Path, more: &[&str]) -> common::Run {
    let mut args = vec![deal, "-search", arg(file), "--spill", arg(dir)];
    args.extend(["--max-states", "1000", "--jobs", "1", "--fast"]);
    args.extend(more);
    run(&args)
}

fn checked(deal: &str, file: &Path) {
    let r = run([deal, "-check", arg(file)]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
}

/// The directory's names, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_layers_solve_and_prove_and_leave_only_the_users_files() {
    let tmp = TempDir::new("spill-decide");
    let dir = tmp.join("spill");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let file = tmp.join("st31.sol");
    let r = spilled("st.31", &file, &dir, &[]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    assert!(r.stderr.contains("layer "), "{}", r.stderr);
    checked("st.31", &file);
    assert_eq!(names(&dir), ["notes.txt"]);
    let r = spilled("st.35", &tmp.join("st35.sol"), &dir, &[]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert_eq!(names(&dir), ["notes.txt"]);
}

/// A directory the search made is gone again when nothing is left in it:
/// after a deal the usual search decides, and after the layers decide.
#[test]
fn a_spill_directory_the_search_made_goes_when_left_empty() {
    let tmp = TempDir::new("spill-made");
    let dir = tmp.join("new-spill");
    let file = tmp.join("bd1.sol");
    let r = run(["bd.1", "-search", arg(&file), "--spill", arg(&dir)]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    assert!(!dir.exists());
    let r = spilled("st.31", &tmp.join("st31.sol"), &dir, &[]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    assert!(r.stderr.contains("layer "), "{}", r.stderr);
    assert!(!dir.exists());
}

/// Stopped by `--spill-max`: ECHEC, a line saying so, the manifest kept;
/// the same command with room resumes and solves.
#[test]
fn a_search_stopped_by_its_disk_limit_resumes_with_more_room() {
    let tmp = TempDir::new("spill-disk");
    let dir = tmp.join("spill");
    let file = tmp.join("st31.sol");
    let r = spilled("st.31", &file, &dir, &["--spill-max", "2K"]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    assert!(r.stdout.contains("--spill-max"), "{}", r.stdout);
    assert!(!file.exists());
    assert!(names(&dir).contains(&"xpat-spill-manifest".to_string()));
    let r = spilled("st.31", &file, &dir, &[]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    checked("st.31", &file);
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
}

/// Stopped by `--timeout` inside the layers, the same command resumes and
/// ends as a search never stopped does.
#[test]
fn a_search_stopped_by_its_timeout_resumes_where_it_stopped() {
    let tmp = TempDir::new("spill-time");
    let whole = spilled("st.40", &tmp.join("a.sol"), &tmp.join("whole"), &[]);
    let dir = tmp.join("spill");
    let first = spilled("st.40", &tmp.join("b.sol"), &dir, &["--timeout", "0.3"]);
    if first.stdout.contains("stopped in layer") {
        assert_eq!(first.verdict(), ("ECHEC", 1), "{first:?}");
        assert!(names(&dir).contains(&"xpat-spill-manifest".to_string()));
        let again = spilled("st.40", &tmp.join("b.sol"), &dir, &[]);
        assert_eq!(again.verdict(), whole.verdict(), "{again:?}");
        assert_eq!(
            again.reason().split(": gave up").nth(1),
            whole.reason().split(": gave up").nth(1)
        );
    } else {
        // A machine fast enough to end before the timeout.
        assert_eq!(first.verdict(), whole.verdict(), "{first:?}");
    }
}

#[test]
fn a_directory_of_another_search_is_refused() {
    let tmp = TempDir::new("spill-foreign");
    let dir = tmp.join("spill");
    let r = spilled("st.31", &tmp.join("a.sol"), &dir, &["--spill-max", "2K"]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    for (deal, rules) in [("st.35", "forced"), ("st.31", "free")] {
        let r = spilled(deal, &tmp.join("b.sol"), &dir, &["--rules", rules]);
        assert_eq!(r.code, 3, "{r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains("another search"), "{}", r.stderr);
    }
    // Still resumable by its own search.
    let r = spilled("st.31", &tmp.join("a.sol"), &dir, &[]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
}

#[test]
fn what_the_layers_cannot_search_is_refused_in_a_line() {
    let tmp = TempDir::new("spill-refused");
    let dir = tmp.join("spill");
    let file = tmp.join("a.sol");
    // A spill directory that is none, or one no file can be made in
    // (procfs, even for root), is refused before the search, not once
    // the layers first write.
    let cases: [&[&str]; 7] = [
        &["mo.1", "--rules", "xpat2", "--spill", arg(&dir)],
        &["st.3", "--spill", "/dev/null"],
        &["st.3", "--spill", "/proc"],
        &["st.3", "--spill-max", "1G"],
        &["st.3", "--spill", arg(&dir), "--spill-max", "lots"],
        &["st.3", "--spill", arg(&dir), "--diff", "3"],
        &["st.3", "--spill", arg(&dir), "--optimal"],
    ];
    for case in cases {
        let mut args = vec![case[0], "-search", arg(&file)];
        args.extend(&case[1..]);
        let r = run(&args);
        assert_eq!(r.code, 3, "{args:?}: {r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(!file.exists());
    }
}

/// Makes a FIFO at `path`, and a watchdog for it: from `after` on, it
/// opens the FIFO each second at both ends without waiting, which lets a
/// binary blocked opening it go on (to say something the test refuses)
/// instead of hanging the tests. The flag returned tells whether a
/// reader was found waiting on it.
fn fifo(path: &Path, after: std::time::Duration) -> std::sync::Arc<AtomicBool> {
    use std::os::unix::fs::OpenOptionsExt;
    let waited = std::sync::Arc::new(AtomicBool::new(false));
    let seen = waited.clone();
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        std::thread::sleep(after);
        const O_NONBLOCK: i32 = 0o4000;
        loop {
            let mut open = std::fs::OpenOptions::new();
            open.custom_flags(O_NONBLOCK);
            let reader = open.clone().read(true).open(&path);
            // Opened without waiting only where a reader has it open.
            let writer = open.write(true).open(&path);
            if writer.is_ok() {
                seen.store(true, Ordering::Relaxed);
            }
            drop((reader, writer));
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    });
    waited
}

/// What lies in DIR under a name the search keeps there but is no file
/// (a FIFO, which an open would wait on forever) is refused with a line,
/// or removed where the search makes that file new.
#[test]
fn a_fifo_under_a_name_of_ours_is_refused_or_replaced_never_waited_on() {
    let after = std::time::Duration::from_secs(60);
    let tmp = TempDir::new("spill-fifo");
    let dir = tmp.join("spill");
    std::fs::create_dir(&dir).unwrap();
    let refused = |r: &common::Run| {
        assert_eq!(r.code, 3, "{r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    };
    let manifest = dir.join("xpat-spill-manifest");
    fifo(&manifest, after);
    refused(&spilled("st.31", &tmp.join("a.sol"), &dir, &[]));
    std::fs::remove_file(&manifest).unwrap();

    // The manifest's temporary file is made new at each save.
    fifo(&dir.join("xpat-spill-manifest.tmp"), after);
    let r = spilled("st.31", &tmp.join("a.sol"), &dir, &["--spill-max", "2K"]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    assert!(manifest.is_file());

    // A layer file of the search stopped, which its resumption reopens.
    let layer = names(&dir)
        .into_iter()
        .find(|name| name.starts_with("xpat-spill-layer-"))
        .expect("a layer file");
    std::fs::remove_file(dir.join(&layer)).unwrap();
    fifo(&dir.join(&layer), after);
    refused(&spilled("st.31", &tmp.join("a.sol"), &dir, &[]));
    assert!(!tmp.join("a.sol").exists());
}

/// A FIFO where the suitless game's save would be is another file than
/// a save of this game: left alone, and the proof made without saving.
#[test]
fn a_fifo_where_the_suitless_save_goes_is_left_alone() {
    let tmp = TempDir::new("spill-fifo-suitless");
    let dir = tmp.join("spill");
    std::fs::create_dir(&dir).unwrap();
    let save = dir.join("xpat-spill-suitless-checkpoint");
    let waited = fifo(&save, std::time::Duration::from_secs(60));
    let file = tmp.join("bd.sol");
    let r = run([
        "bd.78829",
        "-search",
        arg(&file),
        "--spill",
        arg(&dir),
        "--jobs",
        "1",
    ]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(!r.stderr.contains("not a regular file"), "{}", r.stderr);
    assert!(std::fs::symlink_metadata(&save).is_ok_and(|m| !m.is_file()));
    assert!(
        !waited.load(Ordering::Relaxed),
        "the search waited on the FIFO"
    );
}

//! Issue 27: `xpat-solver survey` keeps the promises `-search` keeps.
//! Each test failed on the survey before it (rows replaced by a solution,
//! a panic, threads without end, exit 129 with temporary files left, a
//! message split over two lines or a terminal escape sent raw).

use std::fs::{self, File};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use crate::common::{Run, TempDir, bin, run, run_in, run_to, survey};
use crate::{arg, names_in};

/// Exit 3, nothing on stdout, and one line on stderr that says `says`
/// and holds no control character.
fn assert_refused(r: &Run, args: &[&str], says: &str) {
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{args:?}: {r:?}");
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {r:?}");
    assert!(
        lines[0].starts_with("xpat-solver survey: ") && lines[0].contains(says),
        "{args:?}: {}",
        lines[0]
    );
    assert!(!lines[0].chars().any(char::is_control), "{}", lines[0]);
}

/// A survey file begun under the course's rules with deal 2 done.
fn rows_with_deal_2(dir: &TempDir) -> std::path::PathBuf {
    let rows = dir.join("rows.csv");
    let r = survey(&["fc", "2", "--out", arg(&rows)]);
    assert_eq!(r.code, 0, "{r:?}");
    rows
}

/// `survey fc 1-3 --solutions sd --out sd/FreeCell.1.sol` exited 0 with
/// the rows replaced by deal 1's solution. The rows' file is refused
/// when it is a solution the survey writes, whatever the spelling, before
/// anything is written (the directory it would have made is not made).
#[test]
fn rows_that_are_a_solution_file_are_refused_before_anything_is_written() {
    let dir = TempDir::new("survey-clash");
    let abs = dir.path().to_str().unwrap().to_string();
    let spellings: &[&[&str]] = &[
        &["--solutions", "sd", "--out", "sd/FreeCell.1.sol"],
        &["--solutions", "./sd/", "--out", "sd/../sd/FreeCell.3.sol"],
        &[
            "--solutions",
            &format!("{abs}/sd"),
            "--out",
            "sd/FreeCell.2.sol",
        ],
    ];
    for words in spellings {
        let args: Vec<&str> = ["survey", "fc", "1-3", "--timeout", "5"]
            .into_iter()
            .chain(words.iter().copied())
            .collect();
        let r = run_in(dir.path(), &args);
        assert_refused(
            &r,
            &args,
            "where --solutions writes the solution of FreeCell.",
        );
        assert!(
            names_in(dir.path()).is_empty(),
            "{args:?}: {:?}",
            names_in(dir.path())
        );
    }
    // Free solutions are named apart: `--foundation both` writes both.
    let args = [
        "survey",
        "bd",
        "3118",
        "--foundation",
        "both",
        "--solutions",
        "sd",
        "--out",
        "sd/BakersDozen.3118.free.sol",
    ];
    assert_refused(&run_in(dir.path(), args), &args, "BakersDozen.3118");
    // And so are xpat2's (`--rules xpat2`).
    let args = [
        "survey",
        "mo",
        "1",
        "--rules",
        "xpat2",
        "--solutions",
        "sd",
        "--out",
        "sd/MidnightOil.1.xpat2.sol",
    ];
    assert_refused(&run_in(dir.path(), args), &args, "MidnightOil.1");
    // A CSV in the directory under another name is no solution's.
    let args = [
        "survey",
        "fc",
        "1",
        "--solutions",
        "sd",
        "--out",
        "sd/rows.csv",
    ];
    let r = run_in(dir.path(), args);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(names_in(&dir.join("sd")), ["FreeCell.1.sol", "rows.csv"]);
}

/// The rows' file reached through a link from the solutions' directory:
/// a symbolic link (to it, or to where it would be created) or a hard
/// link is the same file, refused, and the rows are left as they were.
#[test]
fn rows_linked_from_the_solutions_directory_are_refused() {
    let dir = TempDir::new("survey-links");
    let rows = rows_with_deal_2(&dir);
    let before = fs::read(&rows).unwrap();
    let sd = dir.join("sd");
    fs::create_dir(&sd).unwrap();
    let resume = [
        "fc",
        "1-3",
        "--out",
        arg(&rows),
        "--resume",
        "--solutions",
        arg(&sd),
    ];
    std::os::unix::fs::symlink("../rows.csv", sd.join("FreeCell.1.sol")).unwrap();
    assert_refused(&survey(&resume), &resume, "FreeCell.1");
    fs::remove_file(sd.join("FreeCell.1.sol")).unwrap();
    fs::hard_link(&rows, sd.join("FreeCell.3.sol")).unwrap();
    assert_refused(&survey(&resume), &resume, "FreeCell.3");
    assert_eq!(fs::read(&rows).unwrap(), before);
    let link = fs::metadata(sd.join("FreeCell.3.sol")).unwrap();
    assert_eq!(link.ino(), fs::metadata(&rows).unwrap().ino());
    // A link to rows not yet created: the CSV would be made there.
    fs::remove_file(sd.join("FreeCell.3.sol")).unwrap();
    let new = dir.join("new.csv");
    std::os::unix::fs::symlink("../new.csv", sd.join("FreeCell.2.sol")).unwrap();
    let args = ["fc", "1-3", "--out", arg(&new), "--solutions", arg(&sd)];
    assert_refused(&survey(&args), &args, "FreeCell.2");
    assert!(!new.exists());
}

/// `--timeout 1e20` panicked (exit 134 in a release build) and `--jobs`
/// took any number: 18446744073709551615 started threads without end,
/// 100000 shared the memory so thin that won deals ended ECHEC. Now the
/// bounds are `-search`'s, each refused in one line.
#[test]
fn numeric_options_have_the_bounds_of_search() {
    let dir = TempDir::new("survey-numbers");
    let sol = dir.join("x.sol");
    for timeout in ["1e20", "1e308", "inf", "NaN", "0", "-1", "1e-400", "ten"] {
        let args = ["fc", "1", "--timeout", timeout];
        let r = survey(&args);
        assert_refused(&r, &args, "--timeout");
        let search = run(["fc.1", "-search", arg(&sol), "--timeout", timeout]);
        assert_eq!(search.code, 3, "-search --timeout {timeout}: {search:?}");
    }
    for jobs in [
        "0",
        "1025",
        "100000",
        "18446744073709551615",
        "18446744073709551616",
    ] {
        let args = ["fc", "1", "--jobs", jobs];
        assert_refused(&survey(&args), &args, "--jobs");
        let search = run(["fc.1", "-search", arg(&sol), "--jobs", jobs]);
        assert_eq!(search.code, 3, "-search --jobs {jobs}: {search:?}");
    }
    for (option, value) in [
        ("--max-states", "0"),
        ("--max-states", "500000001"),
        ("--random", "0"),
        ("--random", "10000001"),
        ("--shard", "3/2"),
        ("--rng-seed", "18446744073709551616"),
    ] {
        let mut args = vec!["fc", option, value];
        if option != "--random" {
            args.insert(1, "1-5");
        }
        if option == "--rng-seed" {
            args.splice(1..2, ["--random", "5"]);
        }
        assert_refused(&survey(&args), &args, option);
    }
    assert!(!sol.exists());
    // The most workers -search takes, on three deals: three run, each
    // with its share of the memory, and every deal is won.
    let r = survey(&["fc", "1-3", "--jobs", "1024", "--timeout", "10"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains(" on 3 workers"), "{r:?}");
    assert_eq!(r.stdout.matches(",SUCCES,").count(), 3, "{r:?}");
}

/// `/dev/full`: every write fails with "no space left on device".
fn full() -> Option<File> {
    let path = Path::new("/dev/full");
    if !path.exists() {
        eprintln!("SKIPPED: no /dev/full on this system");
        return None;
    }
    Some(File::options().write(true).open(path).unwrap())
}

/// The write end of a pipe whose reader is gone (`| true`).
fn closed_pipe() -> File {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both are fresh descriptors owned by nothing else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    File::from(write)
}

fn survey_to(args: &[&str], stdout: Option<File>, stderr: Option<File>) -> Run {
    let all: Vec<&str> = std::iter::once("survey")
        .chain(args.iter().copied())
        .collect();
    run_to(all, stdout, stderr)
}

/// A full or closed stdout or stderr aborted the survey (a panic, exit
/// 134), a bad argument too. Now, as `-search`: a message stderr cannot
/// take is dropped; what stdout cannot take is exit 3 with one line, a
/// reader gone asked for no more.
#[test]
fn full_or_closed_streams_never_abort_a_survey() {
    let Some(_) = full() else { return };
    let dir = TempDir::new("survey-streams");
    let csv = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let header = "game,seed,verdict,moves,expanded,stored,seconds,limit";
    // A full stdout: the rows, the summary, the help.
    let (a, b) = (csv("a.csv"), csv("b.csv"));
    for args in [
        &["fc", "1"][..],
        &["fc", "1", "--out", &a],
        &["--summary", &a],
        &["--help"],
    ] {
        let r = survey_to(args, full(), None);
        assert_eq!(r.code, 3, "{args:?}: {r:?}");
        let last = r.stderr.lines().last().unwrap_or("");
        assert!(
            last.contains("cannot write to standard output"),
            "{args:?}: {r:?}"
        );
    }
    let rows = fs::read_to_string(&a).unwrap();
    assert!(
        rows.starts_with(&format!("{header}\nFreeCell,1,SUCCES,")),
        "{rows}"
    );
    // A full stderr: the survey runs to its end, a bad argument is exit 3.
    let r = survey_to(&["fc", "1-2", "--out", &b], None, full());
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("| FreeCell | 2 | 2 |"), "{r:?}");
    assert_eq!(fs::read_to_string(&b).unwrap().lines().count(), 3);
    for args in [
        &["fc", "1", "--jobs", "x"][..],
        &["fc", "1", "--out", &b],
        &["--summary", "/no/such.csv"],
    ] {
        let r = survey_to(args, None, full());
        assert_eq!(r.code, 3, "{args:?}: {r:?}");
    }
    // A reader gone: with --out, the rows are whole and the code is the
    // survey's; without, the survey stops as when the reader goes later.
    let c = csv("c.csv");
    let r = survey_to(&["fc", "1", "--out", &c], Some(closed_pipe()), None);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(fs::read_to_string(&c).unwrap().lines().count(), 2);
    let r = survey_to(&["fc", "1"], Some(closed_pipe()), None);
    assert_eq!(r.code, 130, "{r:?}");
    let r = survey_to(&["--summary", &c], Some(closed_pipe()), None);
    assert_eq!(r.code, 0, "{r:?}");
    let r = survey_to(&["fc", "1", "--jobs", "x"], Some(closed_pipe()), full());
    assert_eq!(r.code, 3, "{r:?}");
}

/// SIGHUP (a closed terminal) during `survey --solutions DIR` killed it,
/// exit 129, with temporary files left in DIR, some half written. Now it
/// stops as SIGINT and SIGTERM do: whole rows, no temporary file, every
/// solution written whole, the command that resumes, exit 130.
#[test]
fn sighup_stops_a_survey_as_sigint_does() {
    let dir = TempDir::new("survey-sighup");
    let (out, sd) = (dir.join("fc.csv"), dir.join("sd"));
    let mut child = Command::new(bin())
        .args(["survey", "fc", "1-100000", "--fast", "--jobs", "2"])
        .args(["--out", arg(&out), "--solutions", arg(&sd)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 30 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before the signal"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "too few rows");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: kill has no memory preconditions; the pid is our child's.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGHUP) }, 0);
    let ended = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&ended.stderr);
    assert_eq!(
        ended.status.code(),
        Some(130),
        "{:?}: {stderr}",
        ended.status
    );
    assert!(stderr.contains("to resume: "), "{stderr}");
    let text = fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'), "a torn row");
    let won: Vec<String> = text
        .lines()
        .filter(|l| l.contains(",SUCCES,"))
        .map(|l| format!("FreeCell.{}.sol", l.split(',').nth(1).unwrap()))
        .collect();
    let mut files = names_in(&sd);
    let temporaries: Vec<&String> = files.iter().filter(|n| n.starts_with('.')).collect();
    assert!(temporaries.is_empty(), "left behind: {temporaries:?}");
    let mut won = won;
    won.sort();
    files.sort();
    assert_eq!(files, won, "the solutions are the rows' SUCCES");
}

/// A run killed (`kill -9`) leaves its temporary files; `--resume`
/// removes those of our naming that no live writer can hold (over a
/// minute old), says how many, and leaves everything else.
#[test]
fn resume_sweeps_stale_temporary_files_of_our_naming() {
    let dir = TempDir::new("survey-sweep");
    let rows = rows_with_deal_2(&dir);
    let sd = dir.join("sd");
    fs::create_dir(&sd).unwrap();
    let old = SystemTime::now() - Duration::from_secs(600);
    let make = |name: &str, aged: bool| {
        let file = File::create(sd.join(name)).unwrap();
        if aged {
            file.set_modified(old).unwrap();
        }
    };
    make(".xpat-solver-AbCdEf012345.tmp", true);
    make(".xpat-solver-0123456789ab.tmp", true);
    make(".xpat-solver-Fresh0123456.tmp", false);
    make(".xpat-solver-other.tmp", true);
    make("notes.tmp", true);
    fs::create_dir(sd.join(".xpat-solver-Directory12.tmp")).unwrap();
    let args = [
        "fc",
        "1-3",
        "--out",
        arg(&rows),
        "--resume",
        "--solutions",
        arg(&sd),
    ];
    let r = survey(&args);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains("removed 2 stale temporary files"),
        "{r:?}"
    );
    assert_eq!(
        names_in(&sd),
        [
            ".xpat-solver-Directory12.tmp",
            ".xpat-solver-Fresh0123456.tmp",
            ".xpat-solver-other.tmp",
            "FreeCell.1.sol",
            "FreeCell.3.sol",
            "notes.tmp"
        ]
    );
    // Nothing stale is left: nothing is said.
    let r = survey(&args);
    assert!(!r.stderr.contains("removed"), "{r:?}");
}

/// A path with a newline split the exit-3 message over two lines, and a
/// field of a survey file reached the terminal with its escape sequence.
#[test]
fn messages_about_survey_files_are_one_line() {
    let dir = TempDir::new("survey-quote");
    let odd = dir.join("new\nline");
    let odd_csv = odd.join("x.csv");
    let args = ["fc", "1", "--out", arg(&odd_csv)];
    assert_refused(&survey(&args), &args, "new\\nline");
    fs::write(&odd, b"a file").unwrap();
    let args = ["fc", "1", "--solutions", arg(&odd)];
    assert_refused(&survey(&args), &args, "new\\nline");
    let header = "game,seed,verdict,moves,expanded,stored,seconds,limit";
    let bad = dir.join("bad.csv");
    fs::write(
        &bad,
        format!("{header}\nFreeCell,1,\u{1b}[2J,31,1,1,0.1,\n"),
    )
    .unwrap();
    let args = ["--summary", arg(&bad)];
    assert_refused(&survey(&args), &args, "verdict '\\u{1b}[2J'");
    let args = ["fc", "1", "--out", arg(&bad), "--resume"];
    assert_refused(&survey(&args), &args, "line 2");
    // A rules word that is none: said on one line, its escape quoted.
    for option in ["--rules", "--foundation"] {
        let args = ["fc", "1", option, "x\u{1b}[2J\ny"];
        let r = survey(&args);
        assert_refused(&r, &args, option);
        assert!(!r.stderr.contains('\u{1b}'), "{r:?}");
    }
    let args = ["fc", "1", "--rules", "xpat2", "--foundation", "both"];
    assert_refused(&survey(&args), &args, "cannot be used with");
    let torn = dir.join("torn.csv");
    fs::write(&torn, format!("{header}\nFreeCell,1,\u{1b}[2J")).unwrap();
    let r = survey(&["--summary", arg(&torn)]);
    assert!(!r.stderr.contains('\u{1b}'), "{r:?}");
    assert!(r.stderr.contains("torn ('FreeCell,1,\\u{1b}[2J')"), "{r:?}");
}

//! `xpat-solver survey --summary FILE... --html REPORT` through the real
//! binary (issue 30, part 4): the page holds the plots and what the
//! summary says, and appears whole or not at all.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{TempDir, arg, assert_survey_refused, survey};

/// The temporary files of ours left in `dir`.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".xpat-solver-"))
        .collect()
}

/// Surveys FreeCell and Seahaven 1-40 (Seahaven 12, 35 and 36 are
/// INSOLUBLE) into `dir/a.csv`.
fn surveyed(dir: &TempDir) -> std::path::PathBuf {
    let csv = dir.join("a.csv");
    let r = survey(&["fc,st", "1-40", "--fast", "--out", arg(&csv)]);
    assert!(r.code == 0 || r.code == 1, "{r:?}");
    csv
}

#[test]
fn the_page_says_what_the_summary_says_with_plots() {
    let dir = TempDir::new("report-page");
    let csv = surveyed(&dir);
    let page = dir.join("report.html");
    let plain = survey(&["--summary", arg(&csv)]);
    let r = survey(&["--summary", arg(&csv), "--html", arg(&page)]);
    // The summary on stdout and its exit code are those without --html.
    assert_eq!((r.code, &r.stdout), (plain.code, &plain.stdout), "{r:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    // Per game: the verdicts' bar and two histograms.
    assert_eq!(html.matches("<svg ").count(), 2 * 3, "{html}");
    assert!(html.contains("role=\"img\""));
    // Each game's counts, share and interval, as the summary's table has
    // them (its columns up to the interval).
    let mut games = 0;
    for line in plain
        .stdout
        .lines()
        .filter(|l| l.starts_with("| FreeCell |") || l.starts_with("| Seahaven |"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let expected = format!(
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            cells[2], cells[3], cells[4], cells[5], cells[6], cells[7]
        );
        assert!(html.contains(&expected), "{expected}\n{html}");
        games += 1;
    }
    assert_eq!(games, 2, "{}", plain.stdout);
    // The INSOLUBLE seeds the summary lists, on the page.
    let lost = plain
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("Seahaven INSOLUBLE ("))
        .expect("Seahaven 1-40 has INSOLUBLE deals");
    let (_, seeds) = lost.split_once("): ").unwrap();
    let listed = html
        .split("INSOLUBLE seeds (")
        .nth(2)
        .and_then(|s| s.split("<p class=\"seeds\">").nth(1))
        .and_then(|s| s.split("</p>").next())
        .unwrap();
    assert_eq!(listed, seeds, "{html}");
    assert!(seeds.split(' ').any(|s| s == "12"), "{seeds}");
    // The slowest deals: 20 a game, the slowest first.
    assert_eq!(html.matches("<h3>The 20 slowest deals</h3>").count(), 2);
    assert!(leftovers(dir.path()).is_empty());
}

#[test]
fn a_second_run_replaces_the_page_whole() {
    let dir = TempDir::new("report-again");
    let csv = surveyed(&dir);
    let page = dir.join("report.html");
    std::fs::write(&page, "old").unwrap();
    let r = survey(&["--summary", arg(&csv), "--html", arg(&page)]);
    assert!(r.code == 0 || r.code == 1, "{r:?}");
    assert!(std::fs::read_to_string(&page).unwrap().contains("<svg "));
    // A summary refused (the second file is no survey) leaves the page as
    // it was, and no temporary file.
    std::fs::write(&page, "old").unwrap();
    let other = dir.join("other.csv");
    std::fs::write(&other, "a,b\n1,2\n").unwrap();
    let r = survey(&["--summary", arg(&csv), arg(&other), "--html", arg(&page)]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("not a survey file"), "{r:?}");
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "old");
    assert!(leftovers(dir.path()).is_empty());
}

/// Exit 3, one line on stderr, nothing on stdout, no page and no
/// temporary file.
#[test]
fn bad_pages_exit_3_and_write_nothing() {
    let dir = TempDir::new("report-bad");
    let csv = dir.join("a.csv");
    std::fs::write(
        &csv,
        "game,seed,verdict,moves,expanded,stored,seconds,limit\nFreeCell,1,SUCCES,40,5,5,0.1,\n",
    )
    .unwrap();
    let before = std::fs::read_to_string(&csv).unwrap();
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let no_dir = dir.join("no/such/dir/r.html");
    let (page, none) = (dir.join("r.html"), dir.join("none.csv"));
    let cases: &[(&[&str], &str)] = &[
        (
            &["--summary", arg(&csv), "--html", arg(&no_dir)],
            "no directory",
        ),
        (
            &["--summary", arg(&csv), "--html", arg(&sub)],
            "is a directory",
        ),
        (
            &["--summary", arg(&csv), "--html", arg(&csv)],
            "the file being read",
        ),
        (
            &["--summary", arg(&csv), "--html", ""],
            "a value is required",
        ),
        (&["--html", arg(&page)], "--summary"),
        (&["fc", "1-3", "--html", arg(&page)], "--summary"),
        (
            &["--summary", arg(&none), "--html", arg(&page)],
            "cannot read",
        ),
    ];
    for (args, says) in cases {
        assert_survey_refused(&survey(args), args, says);
    }
    assert!(!no_dir.exists() && !page.exists());
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), before);
    assert!(leftovers(dir.path()).is_empty() && leftovers(&sub).is_empty());
}

/// Files of different games: a section each; a deal of no time and no
/// position: a bar at 0, no log of zero.
#[test]
fn games_apart_and_zeros() {
    let dir = TempDir::new("report-zeros");
    let (a, b) = (dir.join("fc.csv"), dir.join("bd.csv"));
    let header = "game,seed,verdict,moves,expanded,stored,seconds,limit\n";
    std::fs::write(&a, format!("{header}FreeCell,5,SUCCES,40,0,1,0.000000,\n")).unwrap();
    std::fs::write(&b, format!("{header}BakersDozen,7,INSOLUBLE,,12,12,0.5,\n")).unwrap();
    let page = dir.join("r.html");
    let r = survey(&["--summary", arg(&a), arg(&b), "--html", arg(&page)]);
    assert_eq!(r.code, 0, "{r:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h2 id=\"h-FreeCell\">FreeCell: 1 deal</h2>"));
    assert!(html.contains("<h2 id=\"h-BakersDozen\">BakersDozen: 1 deal</h2>"));
    assert!(
        html.contains("<title>0 s: 1 deal (100.00%)</title>"),
        "{html}"
    );
    assert!(
        html.contains("<title>0 positions: 1 deal (100.00%)</title>"),
        "{html}"
    );
    assert!(!html.contains("NaN") && !html.contains("inf"), "{html}");
    assert!(html.contains("INSOLUBLE seeds (1)</h3>\n<p class=\"seeds\">7</p>"));
}

/// A signal while the rows are read (here: a FIFO no one writes to, so
/// the summary waits in it, its page prepared) removes the page's
/// temporary file: exit 130, no page, nothing left in the directory.
#[test]
fn a_signal_leaves_no_temporary_file() {
    let dir = TempDir::new("report-signal");
    let fifo = dir.join("rows.csv");
    let c_path = std::ffi::CString::new(arg(&fifo)).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) }, 0);
    let page = dir.join("r.html");
    let child = Command::new(env!("CARGO_BIN_EXE_xpat-solver"))
        .args(["survey", "--summary", arg(&fifo), "--html", arg(&page)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while leftovers(dir.path()).is_empty() {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // The temporary file is registered for removal right after it is
    // made: let the summary reach the FIFO, where it waits.
    std::thread::sleep(Duration::from_millis(200));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("stopped by a signal"));
    assert!(leftovers(dir.path()).is_empty() && !page.exists());
}

//! Issue 27, pages (`--html PAGE`): a file of two million legal moves
//! took 220 bytes a move to make its page (445 MB, a 65 MB page) and
//! under `ulimit -v` aborted (exit 134), leaving its temporary file; a
//! page opened as `PAGE#%` threw in its script and drew no card. Now the
//! page is written as the replay goes, a game longer than a page holds
//! is refused (exit 3, nothing left), and any fragment opens a position.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;

use xpat_solver::deal::Deal;

use crate::common::{
    TempDir, least_memory_to_start, opened_with, run, run_limited, words_on_the_page,
};
use crate::reading::a_legal_round_trip;
use crate::{arg, assert_empty, names_in};

/// The most moves a page replays (`--help`, docs/watch.md).
const MOST_MOVES: usize = 100_000;

/// Room above what the binary needs to start: a tenth of what the page
/// of a hundred thousand moves took before.
const HEADROOM_KB: u64 = 4 * 1024;

/// A won file of FreeCell 123 of `moves` lines or one fewer: moves going
/// back and forth, then a solution found by the binary.
fn a_long_win(dir: &Path, moves: usize) -> (std::path::PathBuf, usize) {
    let solution = dir.join("fc123.sol");
    let r = run(["fc.123", "-search", arg(&solution)]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    let solution = fs::read_to_string(&solution).unwrap();
    let deal = Deal::new("fc.123".parse().unwrap());
    let [there, back] = a_legal_round_trip(&deal);
    let trips = (moves - solution.lines().count()) / 2;
    let file = dir.join(format!("long-{moves}.sol"));
    let mut out = BufWriter::new(File::create(&file).unwrap());
    for _ in 0..trips {
        writeln!(out, "{there}\n{back}").unwrap();
    }
    out.write_all(solution.as_bytes()).unwrap();
    out.into_inner().unwrap().sync_all().unwrap();
    (file, 2 * trips + solution.lines().count())
}

/// Two million moves: replayed to their verdict in a few megabytes, the
/// page refused in one line, exit 3, and nothing in its directory. With
/// 64 MB to spare the page was begun, and aborted with its temporary file
/// left; with 4 MB the moves could not be kept.
#[test]
fn a_page_of_two_million_moves_is_refused_in_a_few_megabytes() {
    let dir = TempDir::new("page-2m");
    let (file, moves) = a_long_win(dir.path(), 2_000_000);
    let pages = dir.join("pages");
    fs::create_dir(&pages).unwrap();
    let page = pages.join("p.html");
    let says = format!("a page replays at most {MOST_MOVES} moves, this game has {moves}");
    let (file, page, dir_arg) = (arg(&file), arg(&page), arg(&pages));
    for headroom_mb in [64, 4] {
        let limit = least_memory_to_start() + headroom_mb * 1024;
        let alone = ["fc.123", "-check", file, "--html", page];
        // With --xpat2 too the page is refused, and the save not written.
        let with_save = ["fc.123", "-check", file, "--html", page, "--xpat2", dir_arg];
        for args in [&alone[..], &with_save[..]] {
            let r = run_limited(limit, args);
            assert_eq!(r.code, 3, "{headroom_mb} MB, {args:?}: {r:?}");
            assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
            assert!(
                r.stderr.contains(&says),
                "{headroom_mb} MB, {args:?}: {r:?}"
            );
            assert!(!r.stdout.lines().any(|l| l == "SUCCES"), "{r:?}");
            assert_empty(&pages);
        }
    }
}

/// As many moves as a page holds: the page is written in the same few
/// megabytes (it took 24 MB before), every move on it.
#[test]
fn a_page_of_the_most_moves_is_written_in_a_few_megabytes() {
    let dir = TempDir::new("page-most");
    let (file, moves) = a_long_win(dir.path(), MOST_MOVES);
    assert!(moves > MOST_MOVES - 2, "{moves}");
    let page = dir.join("p.html");
    let limit = least_memory_to_start() + HEADROOM_KB;
    let r = run_limited(
        limit,
        ["fc.123", "-check", arg(&file), "--html", arg(&page)],
    );
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    assert_eq!(
        words_on_the_page(&fs::read_to_string(&page).unwrap()),
        moves
    );
    assert_eq!(names_in(dir.path()).len(), 3, "{:?}", names_in(dir.path()));
}

/// Any fragment opens a position with its cards and no script error:
/// `#end` and a number past the last the won game, a number the position
/// after it, anything else the deal.
#[test]
fn any_fragment_opens_a_position_without_a_script_error() {
    let dir = TempDir::new("page-fragments");
    let page = dir.join("fc1.html");
    let solution = crate::common::solutions_dir().join("found/FreeCell.1.sol");
    let r = run(["fc.1", "-check", arg(&solution), "--html", arg(&page)]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    let n = fs::read_to_string(&solution).unwrap().lines().count();
    let last = n.to_string();
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "0"),
        ("#".into(), "0"),
        ("#0".into(), "0"),
        ("#7".into(), "7"),
        ("#end".into(), &last),
        ("#99999".into(), &last),
        (format!("#{}", "9".repeat(5000)), &last),
        ("#%".into(), "0"),
        ("#%41".into(), "0"),
        ("#-1".into(), "0"),
        ("#end#x".into(), "0"),
        ("#abc".into(), "0"),
        ("#1e3".into(), "0"),
        (format!("#{}", "%".repeat(50_000)), "0"),
    ];
    let fragments: Vec<String> = cases.iter().map(|(f, _)| f.clone()).collect();
    for ((fragment, expected), (shown, cards, error)) in
        cases.iter().zip(opened_with(&page, &fragments))
    {
        let head: String = fragment.chars().take(12).collect();
        assert_eq!(error, "-", "{head}: the script threw");
        assert_eq!(shown, *expected, "{head}: the position shown");
        assert_eq!(cards, 52, "{head}: every card drawn");
    }
}

//! Solution length through the real binary: shorter by default than with
//! `--fast`, proven shortest with `--optimal`, every file replayed by
//! `-check`; and the options' usage errors.

mod common;

use std::path::Path;

use common::{TempDir, run};

/// Solves `deal` into `file` with `options`, checks the file (under the
/// same `--foundation` rule); the moves written. One thread, so that two
/// runs find the same solution before shortening it.
fn solve(deal: &str, file: &Path, options: &[&str]) -> usize {
    let mut args = vec![deal, "-search", file.to_str().unwrap(), "--jobs", "1"];
    args.extend(options);
    let r = run(&args);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{args:?}: {r:?}");
    let mut check = vec![deal, "-check", file.to_str().unwrap()];
    if let Some(at) = options.iter().position(|&o| o == "--foundation") {
        check.extend(&options[at..at + 2]);
    }
    let check = run(&check);
    assert_eq!(
        check.verdict(),
        ("SUCCES", 0),
        "{deal} {options:?}: {check:?}"
    );
    let moves = std::fs::read_to_string(file).unwrap().lines().count();
    let says = format!("{moves} moves written to");
    assert!(r.stdout.contains(&says), "{args:?}: {r:?}");
    assert_eq!(
        r.stdout.contains(", optimal: no solution is shorter"),
        options.contains(&"--optimal"),
        "{args:?}: {r:?}"
    );
    moves
}

#[test]
fn the_default_is_never_longer_than_fast_and_optimal_never_longer_than_either() {
    let dir = TempDir::new("length");
    let file = dir.join("out.sol");
    let mut shortened = 0;
    for deal in ["fc.1", "st.3", "bd.4", "mo.409"] {
        let fast = solve(deal, &file, &["--fast"]);
        let default = solve(deal, &file, &[]);
        let optimal = solve(deal, &file, &["--optimal"]);
        assert!(default <= fast, "{deal}: {default} > {fast}");
        assert!(optimal <= default, "{deal}: {optimal} > {default}");
        shortened += usize::from(default < fast);
    }
    assert!(shortened >= 2, "the default shortened {shortened} of 4");
}

#[test]
fn optimal_finds_the_fewest_moves() {
    // Midnight Oil 409: 12 moves at the fewest (a plain breadth-first
    // search says so; the unit tests hold --optimal to one on Midnight Oil
    // 1..300), where the search found 14 and its beams no shorter.
    let dir = TempDir::new("fewest");
    let file = dir.join("mo409.sol");
    assert_eq!(solve("mo.409", &file, &["--optimal"]), 12);
    assert!(solve("mo.409", &file, &[]) >= 12);
    assert!(solve("mo.409", &file, &["--fast"]) >= 12);
}

#[test]
fn under_free_rules_every_foundation_move_counts_and_the_default_shortens_too() {
    let dir = TempDir::new("length-free");
    let file = dir.join("out.sol");
    let free = ["--foundation", "free"];
    // Seahaven: the free game is the forced one, every card's foundation
    // move written out: 52 more moves, the fewest too.
    let forced = solve("st.3", &file, &["--optimal"]);
    let written = solve("st.3", &file, &[&free[..], &["--optimal"]].concat());
    assert_eq!(written, forced + 52);
    // FreeCell and Baker's Dozen: the default's file is never longer than
    // --fast's, --optimal's never longer than the default's, all checked.
    let mut shortened = 0;
    for deal in ["fc.1", "bd.4"] {
        let fast = solve(deal, &file, &[&free[..], &["--fast"]].concat());
        let default = solve(deal, &file, &free);
        let optimal = solve(deal, &file, &[&free[..], &["--optimal"]].concat());
        assert!(
            optimal <= default && default <= fast,
            "{deal}: {optimal} {default} {fast}"
        );
        shortened += usize::from(default < fast);
    }
    assert!(shortened >= 1, "the default shortened {shortened} of 2");
}

#[test]
fn the_survey_shortens_by_default_and_says_as_much_with_fast_or_optimal() {
    let moves = |options: &[&str]| -> String {
        let mut args = vec!["survey", "mo,fc", "409,1", "--jobs", "1"];
        args.extend(options);
        let r = run(&args);
        assert_eq!(r.code, 0, "{args:?}: {r:?}");
        let mut rows: Vec<String> = r
            .stdout
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                format!("{}.{} {} {}", f[0], f[1], f[2], f[3])
            })
            .collect();
        rows.sort();
        rows.join(", ")
    };
    // The moves of one deal's row, as a number.
    let count = |rows: &str, deal: &str| -> usize {
        let row = rows
            .split(", ")
            .find(|r| r.starts_with(&format!("{deal} SUCCES ")))
            .unwrap_or_else(|| panic!("{deal} not won: {rows}"));
        row.rsplit(' ').next().unwrap().parse().unwrap()
    };
    // FreeCell 1's solution as found is made shorter by default; Midnight
    // Oil 409's (14 moves as found) is 12 at the fewest.
    let fast = moves(&["--fast"]);
    assert!(fast.contains("MidnightOil.1 INSOLUBLE"), "{fast}");
    assert_eq!(count(&fast, "MidnightOil.409"), 14, "{fast}");
    let default = moves(&[]);
    assert!(
        count(&default, "FreeCell.1") < count(&fast, "FreeCell.1"),
        "{default} / {fast}"
    );
    let optimal = moves(&["--optimal"]);
    assert_eq!(count(&optimal, "MidnightOil.409"), 12, "{optimal}");
}

#[test]
fn optimal_proves_insoluble_and_a_limit_writes_nothing() {
    let dir = TempDir::new("optimal-limits");
    let file = dir.join("never.sol");
    let path = file.to_str().unwrap();
    let r = run(["mo.1", "-search", path, "--optimal"]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    let r = run(["st.2", "-search", path, "--optimal", "--max-states", "50"]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    assert!(r.stdout.contains("state limit reached"), "{r:?}");
    assert!(!file.exists());
}

#[test]
fn length_options_go_with_the_search_only_and_not_together() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["fc.1", "-search", "x.sol", "--fast", "--optimal"],
            "cannot be used with",
        ),
        (
            &["fc.1", "-search", "x.sol", "--optimal", "--diff", "2"],
            "void the proof",
        ),
        (
            &["fc.1", "-check", "x.sol", "--optimal"],
            "cannot be used with '--check'",
        ),
        (
            &["fc.1", "-check", "x.sol", "-fast"],
            "cannot be used with '--check'",
        ),
        (&["fc.1", "--fast"], "needs '--search FILE'"),
    ];
    for (args, says) in cases {
        let r = run(args);
        assert_eq!(r.code, 3, "{args:?}: {r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {r:?}");
        assert!(r.stderr.contains(says), "{args:?}: {r:?}");
        assert!(r.stdout.is_empty(), "{args:?}: {r:?}");
    }
}

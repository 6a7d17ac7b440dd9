//! Nested rollouts through the real binary: a Baker's Dozen deal the
//! exhaustive searches reach only late, won by them before the search
//! over components and in the usual search; `--no-rollouts` leaves them
//! out, and is an option of searches only.

mod common;

use common::{TempDir, arg, run};

/// bd.192: the usual search needs 651 000 positions, more than
/// `--components`' first look of 200 000, and the search over components
/// does not win it in 30 s. The rollouts after the look win it, and their
/// solution replays; without them (`--no-rollouts`) the words are gone.
#[test]
fn rollouts_win_before_the_search_over_components_and_can_be_left_out() {
    let tmp = TempDir::new("rollouts-192");
    let file = tmp.join("won.sol");
    let f = arg(&file);
    let won = run(["bd.192", "-search", f, "--components", "--timeout", "60"]);
    assert_eq!(won.verdict(), ("SUCCES", 0), "{won:?}");
    assert!(won.stdout.contains("won by nested rollouts"), "{won:?}");
    let check = run(["bd.192", "-check", f]);
    assert_eq!(check.verdict(), ("SUCCES", 0), "{check:?}");
    std::fs::remove_file(&file).unwrap();
    let without = run([
        "bd.192",
        "-search",
        f,
        "--components",
        "--no-rollouts",
        "--timeout",
        "3",
    ]);
    assert!(!without.stdout.contains("nested rollouts"), "{without:?}");
}

/// A lost deal the first look leaves (bd.26569 under free rules: the
/// usual search proves it in 302 000 positions) is proven lost without
/// the rollouts too (tests/components.rs proves it with them): they never
/// stand in for a proof.
#[test]
fn a_lost_deal_is_proven_lost_without_rollouts() {
    let tmp = TempDir::new("rollouts-lost");
    let file = tmp.join("x.sol");
    let f = arg(&file);
    let args = [
        "bd.26569",
        "-search",
        f,
        "--rules",
        "free",
        "--components",
        "--no-rollouts",
    ];
    let r = run(args);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(!file.exists());
}

/// The usual search gives the rollouts their share once it has expanded
/// 500 000 positions: bd.192 is won, one thread, and its file replays.
#[test]
fn the_usual_search_wins_with_rollouts_too() {
    let tmp = TempDir::new("rollouts-usual");
    let file = tmp.join("won.sol");
    let f = arg(&file);
    let won = run(["bd.192", "-search", f, "--jobs", "1", "--timeout", "60"]);
    assert_eq!(won.verdict(), ("SUCCES", 0), "{won:?}");
    let check = run(["bd.192", "-check", f]);
    assert_eq!(check.verdict(), ("SUCCES", 0), "{check:?}");
}

/// `--no-rollouts` is an option of searches: refused with `-check` and
/// when showing a deal (exit 3), accepted by `survey`.
#[test]
fn no_rollouts_is_an_option_of_searches() {
    let tmp = TempDir::new("rollouts-option");
    let file = tmp.join("x.sol");
    std::fs::write(&file, "").unwrap();
    let check = run(["bd.7", "-check", arg(&file), "--no-rollouts"]);
    assert_eq!(check.code, 3, "{check:?}");
    assert!(check.stderr.contains("--no-rollouts"), "{check:?}");
    let show = run(["bd.7", "--no-rollouts"]);
    assert_eq!(show.code, 3, "{show:?}");
    let survey = common::survey(&["bd", "1-3", "--jobs", "1", "--no-rollouts"]);
    assert_eq!(survey.code, 0, "{survey:?}");
}

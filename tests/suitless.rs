//! The suitless game through the real binary: bd.78829, which no search
//! had decided (undecided at 10 s by both searches, and by the free one
//! at 60 s), proven lost from the start by the usual search and by
//! `--components`, and undecided without it (`--no-suitless`); and
//! BakersDozen.191326999, one of issue 29's deals no search decided in
//! an hour, lost with forced moves.

mod common;

use common::{TempDir, arg, run};

#[test]
fn the_suitless_game_proves_a_deal_lost_that_the_searches_leave() {
    let tmp = TempDir::new("suitless-78829");
    let file = tmp.join("x.sol");
    for extra in [None, Some("--components")] {
        let mut args = vec!["bd.78829", "-search", arg(&file)];
        args.extend(extra);
        let r = run(args);
        assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{extra:?}: {r:?}");
        assert!(r.stdout.contains("lost from the start"), "{r:?}");
        assert!(!file.exists());
    }
    let without = run([
        "bd.78829",
        "-search",
        arg(&file),
        "--no-suitless",
        "--timeout",
        "3",
    ]);
    assert_eq!(without.verdict(), ("ECHEC", 1), "{without:?}");
    assert!(!file.exists());
}

/// BakersDozen.191326999 with forced moves (the default): its suitless
/// game is lost within 1.7 M positions (some 2 s), so `-search` proves
/// it lost from the start. Without the rollouts, and with a time given,
/// so that the suitless game has half of it (30 s) on a loaded machine
/// (5 s without one).
#[test]
fn an_issue_29_deal_is_lost_with_forced_moves() {
    let tmp = TempDir::new("suitless-191326999");
    let file = tmp.join("x.sol");
    let r = run([
        "BakersDozen.191326999",
        "-search",
        arg(&file),
        "--no-rollouts",
        "--timeout",
        "60",
    ]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(r.stdout.contains("lost from the start"), "{r:?}");
    assert!(!file.exists());
}

//! The suitless game through the real binary: bd.78829, which no search
//! had decided (undecided at 10 s by both searches, and by the free one
//! at 60 s), proven lost in its suitless game by the usual search and by
//! `--components`, and undecided without it (`--no-suitless`); and
//! BakersDozen.191326999, one of issue 29's deals no search decided in
//! an hour, lost with forced moves, and under free rules by its game
//! with cards followed; and the suitless game in layers past the
//! positions its first search may hold.

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
        assert!(r.stdout.contains("lost in its suitless game"), "{r:?}");
        // Its whole suitless game, 584 523 positions: at once, or after a
        // first search that filled up, where memory is short.
        let positions = suitless_positions(&r.stdout).unwrap_or(0);
        assert!(positions >= 584_523, "{r:?}");
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
    assert_eq!(suitless_positions(&without.stdout), None, "{without:?}");
    assert!(!file.exists());
}

/// The suitless positions a summary line gives, if it gives them.
fn suitless_positions(stdout: &str) -> Option<u64> {
    let (before, _) = stdout.split_once(" suitless positions")?;
    before.rsplit(' ').next()?.parse().ok()
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
    assert!(r.stdout.contains("lost in its suitless game"), "{r:?}");
    assert!(!file.exists());
}

/// BakersDozen.191326999 under free rules: its suitless game wins, so
/// only a game with cards followed proves it lost (its Queens and Tens:
/// 1.96 M positions). Lost with forced moves, it has the prover alone,
/// which stops at its positions (`--max-states 4000000`), and then the
/// games with cards followed decide it (14 s in all without the nested
/// rollouts, which prove nothing and took 55 s more: `tests/rollouts.rs`
/// has them); without those games (`--no-suitless`) the search gives up
/// (at a timeout of 5 s here: it gave up at 20 s too).
#[test]
fn a_deal_whose_suitless_game_wins_is_lost_with_cards_followed() {
    let tmp = TempDir::new("followed-191326999");
    let file = tmp.join("x.sol");
    let args = |extra: [&'static str; 2]| {
        let mut args = vec![
            "BakersDozen.191326999",
            "--rules",
            "free",
            "-search",
            arg(&file),
            "--max-states",
            "4000000",
            "--no-rollouts",
        ];
        args.extend(extra);
        args
    };
    let r = run(args(["--timeout", "240"]));
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(
        r.stdout
            .contains("lost in its suitless game with the Queens and Tens followed"),
        "{r:?}"
    );
    assert!(
        suitless_positions(&r.stdout).is_some_and(|n| n >= 1_957_164),
        "{r:?}"
    );
    assert!(!file.exists());
    let without = run(args(["--no-suitless", "--timeout=5"]));
    assert_eq!(without.verdict(), ("ECHEC", 1), "{without:?}");
    assert!(!file.exists());
}

/// Past its positions, the suitless game goes on in layers: with
/// `--max-states 400000` the first search of bd.78829's suitless game
/// stops at 200 000 positions of its 584 523, and the search in layers,
/// which holds only the positions waiting, proves the deal lost all the
/// same; the usual searches cannot within that limit.
#[test]
fn the_suitless_game_goes_on_in_layers_past_its_positions() {
    let tmp = TempDir::new("suitless-layers");
    let file = tmp.join("x.sol");
    let common = ["bd.78829", "-search", arg(&file), "--max-states", "400000"];
    let mut args = common.to_vec();
    args.extend(["--no-rollouts", "--timeout", "60"]);
    let r = run(args);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(r.stdout.contains("lost in its suitless game"), "{r:?}");
    // The first search's 200 000 positions (and the one that found it
    // full), then the layers' 584 523.
    assert_eq!(suitless_positions(&r.stdout), Some(784_524), "{r:?}");
    assert!(!file.exists());
    let mut args = common.to_vec();
    args.extend(["--no-suitless", "--timeout", "3"]);
    let without = run(args);
    assert_ne!(without.verdict().0, "INSOLUBLE", "{without:?}");
    assert!(!file.exists());
}

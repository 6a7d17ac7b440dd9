//! `-search --components` through the real binary: Baker's Dozen proofs
//! and wins over component names, under forced and free rules, with the
//! usual search's verdicts; every other game, xpat2's complete rules and
//! the options of other searches refused with exit 3.

mod common;

use common::{TempDir, arg, run};

/// Two deals forcing loses (docs/results.md), proven lost over names as
/// the usual search proves them (`tests/foundation.rs`, the deals the
/// surveys found), with each component's moves out found from one
/// position or by listing it, and no file left behind. Every search
/// without rollouts, which cannot prove a deal lost and took a third of
/// the searches over names' time (tests/rollouts.rs has them).
#[test]
fn components_prove_what_the_usual_search_proves() {
    let tmp = TempDir::new("components-proof");
    for deal in ["bd.64924", "bd.68467"] {
        let file = tmp.join("lost.sol");
        let f = arg(&file);
        let names = run([deal, "-search", f, "--components", "--no-rollouts"]);
        assert_eq!(names.verdict(), ("INSOLUBLE", 2), "{names:?}");
        let listing = run([
            deal,
            "-search",
            f,
            "--components",
            "--list-components",
            "--no-rollouts",
        ]);
        assert_eq!(listing.verdict(), ("INSOLUBLE", 2), "{listing:?}");
        assert!(!file.exists());
    }
}

/// A deal whose lost subtrees the triple test cuts at their roots
/// (bd.12480: it passes the test at the start, and the pair test passes
/// the components the cuts leave; the suitless game, which proves it lost
/// before the search over components, is left out): proven lost with the
/// cuts, on one thread and two, and without them (`--no-pairs` leaves out
/// the pair and triple tests): the same verdict, no file. Without
/// rollouts, which prove nothing and took half of the searches' time.
#[test]
fn the_triple_test_cuts_lost_subtrees_and_the_proof_stands_without_it() {
    let tmp = TempDir::new("components-cuts");
    let file = tmp.join("lost.sol");
    let f = arg(&file);
    for jobs in ["1", "2"] {
        let cut = run([
            "bd.12480",
            "-search",
            f,
            "--components",
            "--no-suitless",
            "--no-rollouts",
            "--jobs",
            jobs,
        ]);
        assert_eq!(cut.verdict(), ("INSOLUBLE", 2), "{cut:?}");
        assert!(cut.stdout.contains("cut by the triple test"), "{cut:?}");
    }
    let plain = run([
        "bd.12480",
        "-search",
        f,
        "--components",
        "--no-pairs",
        "--no-rollouts",
    ]);
    assert_eq!(plain.verdict(), ("INSOLUBLE", 2), "{plain:?}");
    assert!(
        !plain.stdout.contains("cut by the triple test"),
        "{plain:?}"
    );
    assert!(!file.exists());
}

/// Under free rules (every foundation move a player's choice but the safe
/// ones): a small deal no play wins (the usual search proves it in
/// 302 000 positions), proven lost over components once the first look
/// and the rollouts leave it; a larger one (bd.1865: the usual free
/// search proves it in some 300 s), proven there too; a deal only free
/// play wins, its file (every foundation move written) replayed under
/// free rules.
#[test]
fn under_free_rules_components_prove_and_win_what_the_usual_search_does() {
    let tmp = TempDir::new("components-free");
    let file = tmp.join("x.sol");
    let f = arg(&file);
    let usual = run(["bd.26569", "-search", f, "--rules", "free", "--jobs", "1"]);
    assert_eq!(usual.verdict(), ("INSOLUBLE", 2), "{usual:?}");
    let small = run(["bd.26569", "-search", f, "--rules", "free", "--components"]);
    assert_eq!(small.verdict(), ("INSOLUBLE", 2), "{small:?}");
    let names = run(["bd.1865", "-search", f, "--rules", "free", "--components"]);
    assert_eq!(names.verdict(), ("INSOLUBLE", 2), "{names:?}");
    assert!(names.stdout.contains("component names stored"), "{names:?}");
    assert!(!file.exists());
    let won = run(["bd.64924", "-search", f, "--rules", "free", "--components"]);
    assert_eq!(won.verdict(), ("SUCCES", 0), "{won:?}");
    let check = run(["bd.64924", "-check", f, "--rules", "free"]);
    assert_eq!(check.verdict(), ("SUCCES", 0), "{check:?}");
    let forced = run(["bd.64924", "-check", f]);
    assert_eq!(forced.code, 1, "a free file, not a forced one: {forced:?}");
}

/// `--list-components` is an option of `--components`, refused alone.
#[test]
fn listing_components_needs_components() {
    let tmp = TempDir::new("components-list-alone");
    let file = tmp.join("x.sol");
    let r = run(["bd.7", "-search", arg(&file), "--list-components"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("--components"), "{r:?}");
    assert!(!file.exists());
}

/// A limit stops it with `ECHEC` (exit 1) and nothing written: a few
/// names, or a component larger than the memory the limit stands for.
#[test]
fn components_stop_at_their_limits() {
    let tmp = TempDir::new("components-limit");
    let file = tmp.join("x.sol");
    for more in [["--max-states", "10"], ["--timeout", "0.001"]] {
        let mut args = vec!["bd.7927", "-search", arg(&file), "--components"];
        args.extend(more);
        let r = run(&args);
        assert_eq!(r.verdict(), ("ECHEC", 1), "{more:?}: {r:?}");
        assert!(r.stdout.contains("gave up"), "{r:?}");
        assert!(!file.exists());
    }
}

/// Won deals the usual search's first look wins (the search over
/// components finds wins late; its own winning paths are replayed by the
/// unit tests; a deal the look leaves, won by the nested rollouts after
/// it, is tests/rollouts.rs's): the solution written replays to the won
/// game.
#[test]
fn components_write_a_solution_that_replays() {
    let tmp = TempDir::new("components-win");
    for deal in ["bd.7", "bd.2"] {
        let file = tmp.join("won.sol");
        let r = run([
            deal,
            "-search",
            arg(&file),
            "--components",
            "--timeout",
            "60",
        ]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
        assert!(r.stdout.contains("the usual search's first look"), "{r:?}");
        let check = run([deal, "-check", arg(&file)]);
        assert_eq!(check.verdict(), ("SUCCES", 0), "{check:?}");
    }
}

/// From a player's xpat2 save: the rest of their game, which `-check`
/// with the same save replays to the won game; under free rules from
/// their position followed exactly, every foundation move written.
#[test]
fn components_go_on_from_a_players_save() {
    let tmp = TempDir::new("components-save");
    let save = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/xpat2/bd7-clicks.xpat2");
    let file = tmp.join("rest.sol");
    let (s, f) = (arg(&save), arg(&file));
    for rules in ["forced", "free"] {
        let r = run([
            "--from-xpat2",
            s,
            "-search",
            f,
            "--components",
            "--rules",
            rules,
        ]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{rules}: {r:?}");
        let check = run(["--from-xpat2", s, "-check", f, "--rules", rules]);
        assert_eq!(check.verdict(), ("SUCCES", 0), "{rules}: {check:?}");
    }
}

/// `survey --components`: Baker's Dozen's verdicts those of the usual
/// survey under both rules (bd.64924 lost to forced foundation moves and
/// won free, two deals won forced; bd.68467, the same case, took the
/// test from 7 s to 31 s alone), each solution written checks, and a
/// FreeCell deal in the same survey searched as usual. Without rollouts,
/// which cannot prove the lost ones and would take half of each lost
/// deal's time, and with a timeout far above the few seconds the proofs
/// take, so that a loaded machine (tests run side by side) does not turn
/// a proof into "undecided". `--foundation both` searches forced first,
/// so its `forced` column holds the verdicts of a survey under forced
/// rules alone.
#[test]
fn a_survey_by_components_gives_the_usual_verdicts() {
    let tmp = TempDir::new("components-survey");
    // game, seed, verdict and the forced verdict of each row
    let verdicts = |csv: &std::path::Path| -> Vec<String> {
        let text = std::fs::read_to_string(csv).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let forced = header.iter().position(|&h| h == "forced").unwrap();
        lines
            .map(|l| {
                let row: Vec<&str> = l.split(',').collect();
                format!("{},{}", row[..3].join(","), row[forced])
            })
            .collect()
    };
    let seeds = "2,7,64924";
    let (usual, names) = (tmp.join("usual.csv"), tmp.join("names.csv"));
    let sols = tmp.join("sols");
    let both = ["--foundation", "both", "--no-rollouts", "--timeout", "120"];
    let r = common::survey(
        &[
            &["bd,fc", seeds, "--jobs", "1", "--out", arg(&usual)],
            &both[..],
        ]
        .concat(),
    );
    assert_eq!(r.code, 0, "{r:?}");
    let r = common::survey(
        &[
            &[
                "bd,fc",
                seeds,
                "--jobs",
                "1",
                "--components",
                "--out",
                arg(&names),
            ],
            &both[..],
            &["--solutions", arg(&sols)],
        ]
        .concat(),
    );
    assert_eq!(r.code, 0, "{r:?}");
    let found = verdicts(&names);
    assert_eq!(verdicts(&usual), found);
    let lost_forced: Vec<&String> = found.iter().filter(|v| v.ends_with(",INSOLUBLE")).collect();
    assert_eq!(lost_forced.len(), 1, "{found:?}");
    assert!(
        lost_forced.iter().all(|v| v.starts_with("BakersDozen,")),
        "{found:?}"
    );
    let won = found.iter().filter(|v| v.contains(",SUCCES,")).count();
    assert_eq!(won, 6, "{found:?}");
    for seed in ["2", "7"] {
        let file = sols.join(format!("BakersDozen.{seed}.sol"));
        let check = run([&format!("bd.{seed}"), "-check", arg(&file)]);
        assert_eq!(check.verdict(), ("SUCCES", 0), "{check:?}");
    }
    let file = sols.join("BakersDozen.64924.free.sol");
    let check = run(["bd.64924", "-check", arg(&file), "--foundation", "free"]);
    assert_eq!(check.verdict(), ("SUCCES", 0), "{check:?}");
}

/// Refused, with a line saying why: other games, other rules, and the
/// options of other searches.
#[test]
fn components_refuse_what_they_cannot_search() {
    let tmp = TempDir::new("components-refused");
    let file = tmp.join("x.sol");
    let f = arg(&file);
    let cases: [(&[&str], &str); 6] = [
        (
            &["fc.1", "-search", f, "--components"],
            "Baker's Dozen only",
        ),
        (
            &["mo.1", "-search", f, "--components"],
            "Baker's Dozen only",
        ),
        (
            &["bd.1", "-search", f, "--components", "--rules", "xpat2"],
            "xpat2",
        ),
        (
            &["bd.1", "-search", f, "--components", "--optimal"],
            "--optimal",
        ),
        (
            &["bd.1", "-search", f, "--components", "--spill", f],
            "--spill",
        ),
        (&["bd.1", "--components"], "needs '--search FILE'"),
    ];
    for (args, says) in cases {
        let r = run(args);
        assert_eq!(r.code, 3, "{args:?}: {r:?}");
        assert!(r.stderr.contains(says), "{args:?}: {r:?}");
        assert!(!file.exists(), "{args:?}");
    }
}

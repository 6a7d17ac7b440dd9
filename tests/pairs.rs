//! The pair test through the real binary: a deal no search has decided
//! (bd.8095) proven lost from the start under every rule, deals small
//! enough to search whole proven lost with the test and without it
//! (`--no-pairs`), and `--no-pairs` an option of searches only.

mod common;

use common::{TempDir, arg, run};

/// bd.8095: two Tens want the one Jack that can be bared, so no King is
/// ever free for the Queen over the Ace of clubs. The pair test proves it
/// lost before any search, under forced, free and complete rules; without
/// it the search gives up (it fills 134 M positions over minutes).
#[test]
fn the_pair_test_proves_a_deal_lost_that_no_search_decides() {
    let tmp = TempDir::new("pairs-8095");
    let file = tmp.join("x.sol");
    for rules in ["forced", "free", "xpat2"] {
        let r = run(["bd.8095", "-search", arg(&file), "--rules", rules]);
        assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{rules}: {r:?}");
        assert!(r.stdout.contains("lost from the start"), "{r:?}");
        assert!(!file.exists());
    }
    let without = run([
        "bd.8095",
        "-search",
        arg(&file),
        "--no-pairs",
        "--timeout",
        "2",
    ]);
    assert_eq!(without.verdict(), ("ECHEC", 1), "{without:?}");
    assert!(!file.exists());
}

/// Deals the pair test proves lost from the start that the search proves
/// lost without it, after a search (the closure alone does not see it at
/// the start): the same verdict both ways.
#[test]
fn a_proof_by_pairs_is_confirmed_without_them() {
    let tmp = TempDir::new("pairs-confirmed");
    let file = tmp.join("x.sol");
    for deal in ["bd.1778", "bd.2551"] {
        let with = run([deal, "-search", arg(&file)]);
        assert_eq!(with.verdict(), ("INSOLUBLE", 2), "{with:?}");
        assert!(with.stdout.contains("lost from the start"), "{with:?}");
        let without = run([deal, "-search", arg(&file), "--no-pairs"]);
        assert_eq!(without.verdict(), ("INSOLUBLE", 2), "{without:?}");
        assert!(
            !without.stdout.contains("lost from the start"),
            "{without:?}"
        );
    }
    let csv = |name: &str, more: &[&str]| {
        let out = tmp.join(name);
        let mut args = vec!["bd", "1778,2551", "--jobs", "1", "--out", arg(&out)];
        args.extend(more);
        let r = common::survey(&args);
        assert_eq!(r.code, 0, "{r:?}");
        std::fs::read_to_string(out).unwrap()
    };
    // Rows: game,seed,verdict,moves,expanded,...
    let expanded = |text: &str| -> Vec<(String, u64)> {
        text.lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                (f[2].to_string(), f[4].parse().unwrap())
            })
            .collect()
    };
    let with = expanded(&csv("with.csv", &[]));
    let without = expanded(&csv("without.csv", &["--no-pairs"]));
    assert!(
        with.iter().all(|(v, n)| v == "INSOLUBLE" && *n == 0),
        "{with:?}"
    );
    assert!(
        without.iter().all(|(v, n)| v == "INSOLUBLE" && *n > 0),
        "{without:?}"
    );
}

/// `--no-pairs` is a search's option: refused (exit 3) where nothing is
/// searched.
#[test]
fn no_pairs_is_an_option_of_searches() {
    let r = run(["bd.7", "--no-pairs"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("--no-pairs"), "{r:?}");
}

/// bd.4300: the triple test proves it lost once the search is about to
/// be long, after a first attempt. The summary keeps what that attempt
/// expanded, and says the verdict is the test's, not a search's of every
/// position.
#[test]
fn a_proof_by_the_triple_test_after_a_search_says_whose_it_is() {
    let tmp = TempDir::new("triples-4300");
    let file = tmp.join("x.sol");
    let r = run(["bd.4300", "-search", arg(&file), "--jobs", "1"]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(r.stdout.contains("proven by a test of the start"), "{r:?}");
    assert!(!r.stdout.contains("every reachable position"), "{r:?}");
    let expanded: u64 = r
        .stdout
        .split_once(" expanded")
        .and_then(|(before, _)| before.rsplit(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{r:?}"));
    assert!(expanded > 0, "{r:?}");
    assert!(!file.exists());
}

/// BakersDozen.423183964 and MidnightOil.2 are dead ends at their start
/// by the rules every search prunes by (stuck cards), with the pair test
/// and the suitless game left out too: the search expands nothing, and
/// its summary says so rather than that every reachable position was
/// searched (bd.423183964 has some forty).
#[test]
fn a_start_pruned_as_a_dead_end_is_not_called_searched() {
    let tmp = TempDir::new("dead-start");
    let file = tmp.join("x.sol");
    for deal in ["bd.423183964", "mo.2"] {
        let r = run([
            deal,
            "-search",
            arg(&file),
            "--jobs",
            "1",
            "--no-pairs",
            "--no-suitless",
            "--no-rollouts",
        ]);
        assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
        assert!(r.stdout.contains(" 0 expanded"), "{r:?}");
        assert!(r.stdout.contains("is a dead end"), "{r:?}");
        assert!(!r.stdout.contains("every reachable position"), "{r:?}");
        assert!(!file.exists());
    }
}

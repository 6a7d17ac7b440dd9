//! `--rules xpat2` through the real binary (SPEC §10): searched solutions
//! replay, a proof says which rules it holds under, Midnight Oil's files
//! redeal and turn, and every illegal line of these rules is named.

mod common;

use common::{TempDir, run};

/// Runs `-check FILE --rules xpat2` on `game` with `text` as the file.
fn check(dir: &TempDir, game: &str, text: &str) -> common::Run {
    let file = dir.join("check.sol");
    std::fs::write(&file, text).unwrap();
    run([game, "-check", file.to_str().unwrap(), "--rules", "xpat2"])
}

#[test]
fn searched_solutions_replay_under_the_complete_rules_only() {
    let dir = TempDir::new("complete-search");
    for game in ["fc.1", "bd.3118", "st.42", "mo.2"] {
        let file = dir.join(&format!("{game}.sol"));
        let path = file.to_str().unwrap();
        let r = run([game, "-search", path, "--rules", "xpat2"]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{game}: {}", r.stdout);
        let r = run([game, "-check", path, "--rules", "xpat2"]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{game}: {}", r.stdout);
        // Every foundation move is written, and so the course's rules
        // refuse the file (at its first foundation move, or sooner at a
        // redeal or a turn).
        let text = std::fs::read_to_string(&file).unwrap();
        let up = text.lines().filter(|l| l.ends_with(" F")).count();
        // Nothing is up in a deal as dealt: each of the 52 cards goes up
        // by a line of its own.
        assert_eq!(up, 52, "{game}:\n{text}");
        let r = run([game, "-check", path]);
        assert_eq!(r.code, 1, "{game}: {}", r.stdout);
    }
}

/// Midnight Oil 2 is lost under the course's rules and won under xpat2's,
/// with its redeals written `R`.
#[test]
fn midnight_oil_redeals_where_the_course_loses() {
    let dir = TempDir::new("complete-mo");
    let file = dir.join("mo2.sol");
    let path = file.to_str().unwrap();
    let r = run(["mo.2", "-search", path]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{}", r.stdout);
    let r = run(["mo.2", "-search", path, "--rules", "xpat2"]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{}", r.stdout);
    let text = std::fs::read_to_string(&file).unwrap();
    let redeals = text.lines().filter(|l| *l == "R").count();
    assert!((1..=2).contains(&redeals), "{redeals} redeals:\n{text}");
}

#[test]
fn proofs_say_they_hold_with_cards_back_from_the_foundation() {
    let dir = TempDir::new("complete-proof");
    let file = dir.join("x.sol");
    let path = file.to_str().unwrap();
    let r = run(["fc.19621", "-search", path, "--rules", "xpat2"]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{}", r.stdout);
    assert!(
        r.reason().contains("xpat2's complete rules"),
        "{}",
        r.reason()
    );
    assert!(!file.exists());
    let r = run(["st.35", "-search", path, "--rules", "xpat2"]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{}", r.stdout);
    assert!(
        r.stdout.contains("no card ever needs to come back"),
        "{}",
        r.stdout
    );
}

#[test]
fn each_illegal_line_of_the_complete_rules_is_named() {
    let dir = TempDir::new("complete-illegal");
    // Midnight Oil 1's first column: its bottom card is buried, its top
    // card is not.
    let shown = run(["mo.1", "--rules", "xpat2"]).stdout;
    let first: Vec<u8> = column_cards(&shown, 1);
    let (bottom, top) = (first[0], *first.last().unwrap());
    let cases: Vec<(String, usize, &str)> = vec![
        ("R\nR\nR\n".into(), 3, "both redeals are done"),
        (format!("{top} U\n"), 1, "a turn names a buried card"),
        (format!("{bottom} U\n{bottom} D\n"), 2, "turn is done"),
        ("x\n".into(), 1, "is not 'CARD DEST'"),
    ];
    for (text, line, why) in cases {
        let r = check(&dir, "mo.1", &text);
        assert_eq!(r.verdict(), (format!("ECHEC {line}").as_str(), 1), "{text}");
        assert!(r.reason().contains(why), "{text}: {}", r.reason());
    }
    // A redeal or a turn in another game, or under other rules.
    let r = check(&dir, "fc.1", "R\n");
    assert!(r.reason().contains("only Midnight Oil"), "{}", r.reason());
    let file = dir.join("r.sol");
    std::fs::write(&file, "R\n").unwrap();
    let r = run(["mo.1", "-check", file.to_str().unwrap(), "--rules", "free"]);
    assert_eq!(r.code, 1);
    assert!(r.reason().contains("only Midnight Oil"), "{}", r.reason());
}

/// In a FreeCell deal with an Ace on a column's top: up, then back to a
/// free cell, is legal; a card back onto a card it does not build on is
/// not; and Midnight Oil never takes one back.
#[test]
fn cards_back_from_the_foundation_follow_the_rules() {
    let dir = TempDir::new("complete-back");
    let (game, tops, ace) = (1..100)
        .find_map(|seed| {
            let game = format!("fc.{seed}");
            let shown = run([game.as_str(), "--rules", "xpat2"]).stdout;
            let tops: Vec<u8> = (1..=8)
                .map(|i| *column_cards(&shown, i).last().unwrap())
                .collect();
            let ace = tops.iter().copied().find(|&c| c < 4)?;
            Some((game, tops, ace))
        })
        .expect("a deal of 1..99 shows an Ace on a column's top");
    let game = game.as_str();
    let r = check(&dir, game, &format!("{ace} F\n{ace} T\n{ace} F\n"));
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.last_line() == "ECHEC 4", "{}", r.stdout); // legal, not won
    let r = run([game, "-check", dir.join("check.sol").to_str().unwrap()]);
    assert_eq!(r.last_line(), "ECHEC 1", "forced rules refuse F");
    let r = run([
        game,
        "-check",
        dir.join("check.sol").to_str().unwrap(),
        "--foundation",
        "free",
    ]);
    assert_eq!(r.last_line(), "ECHEC 2", "{}", r.stdout);
    assert!(
        r.reason().contains("already on the foundation"),
        "{}",
        r.reason()
    );
    // A King's top is never a target of an Ace: wrong build.
    let king = tops.iter().copied().find(|&c| c >= 48);
    if let Some(king) = king {
        let r = check(&dir, game, &format!("{ace} F\n{ace} {king}\n"));
        assert_eq!(r.last_line(), "ECHEC 2", "{}", r.stdout);
        assert!(r.reason().contains("rank"), "{}", r.reason());
    }
    let shown = run(["mo.2", "--rules", "xpat2"]).stdout;
    let mo_tops: Vec<u8> = (1..=18)
        .filter_map(|i| column_cards(&shown, i).last().copied())
        .collect();
    if let Some(&ace) = mo_tops.iter().find(|&&c| c < 4) {
        let other = mo_tops.iter().copied().find(|&c| c != ace).unwrap();
        let r = check(&dir, "mo.2", &format!("{ace} F\n{ace} {other}\n"));
        assert_eq!(r.last_line(), "ECHEC 2", "{}", r.stdout);
        assert!(r.reason().contains("no card comes back"), "{}", r.reason());
    }
}

#[test]
fn rules_options_are_checked() {
    for args in [
        vec!["fc.1", "--rules", "complete"],
        vec!["fc.1", "--rules", "xpat2", "--foundation", "free"],
        vec!["fc.1", "-search", "x.sol", "--rules", "xpat2", "--optimal"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 3, "{args:?}: {}", r.stdout);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    }
    for rules in ["forced", "free", "xpat2"] {
        let r = run(["bd.7", "--rules", rules]);
        assert_eq!(r.code, 0, "{rules}: {}", r.stderr);
    }
}

/// The card numbers of column `i` (from 1) as the deal is shown: the
/// numbers in parentheses on the line ` i:`.
fn column_cards(shown: &str, i: usize) -> Vec<u8> {
    let prefix = format!("{i:>2}:");
    let line = shown
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no column {i} in:\n{shown}"));
    line.split('(')
        .skip(1)
        .map(|part| part.split(')').next().unwrap().trim().parse().unwrap())
        .collect()
}

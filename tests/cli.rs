//! The command line as test scripts and people use it: every bad input,
//! the help, the names of games, the deal display, and the exit protocol
//! of `-check` and `-search` (SPEC §1, §7), all through the real binary.

mod common;

use common::{TempDir, is_verdict, run, solutions_dir};

/// A bad command: exit 3 (never 2, which means INSOLUBLE), one line on
/// stderr that says what is wrong, no verdict on stdout, no panic.
fn assert_usage_error(args: &[&str], says: &str) {
    let r = run(args);
    assert_eq!(r.code, 3, "{args:?}: {r:?}");
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: stderr is not one line: {r:?}");
    assert!(
        lines[0].starts_with("xpat-solver: "),
        "{args:?}: {}",
        lines[0]
    );
    assert!(
        lines[0].contains(says),
        "{args:?}: stderr should say '{says}': {}",
        lines[0]
    );
    assert!(
        !r.stdout.lines().any(is_verdict),
        "{args:?}: a verdict on stdout: {r:?}"
    );
    assert!(r.stdout.is_empty(), "{args:?}: stdout not empty: {r:?}");
}

#[test]
fn bad_game_names_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["xx.1"],
            "unknown game 'xx': expected one of FreeCell (fc)",
        ),
        (&["Freecell.1"], "unknown game"),
        (&[".1"], "unknown game"),
        (
            &["fc.0"],
            "seed 0 is out of range: expected a number from 1 to 999999999",
        ),
        (&["fc.000"], "out of range"),
        (&["fc.1000000000"], "out of range"),
        (&["fc.999999999999"], "out of range"),
        (&["fc.99999999999999999999999999999999"], "out of range"),
        (&["fc.abc"], "not a number: expected digits only"),
        (&["fc.12a"], "not a number"),
        (&["fc.1e5"], "not a number"),
        (&["fc."], "not a number"),
        (&["fc.+1"], "not a number"),
        (&["fc.-1"], "not a number"),
        (&["fc. 1"], "not a number"),
        (&["fc.1 "], "not a number"),
        (
            &["fc123"],
            "not RULE.SEED: expected a game and a seed joined by a dot",
        ),
        (&["FreeCell"], "not RULE.SEED"),
        (&["fc.1.2"], "more than one dot"),
        (&["fc..1"], "more than one dot"),
        (&["FreeCell.123.sol"], "more than one dot"),
        (&[], "RULE.SEED"),
        (&["fc.1", "fc.2"], "unexpected argument 'fc.2'"),
    ];
    for (args, says) in cases {
        assert_usage_error(args, says);
    }
}

#[test]
fn bad_options_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["fc.1", "-check", "a.sol", "-search", "b.sol"],
            "cannot be used with",
        ),
        (
            &["fc.1", "--search", "b.sol", "--check", "a.sol"],
            "cannot be used with",
        ),
        (
            &["fc.1", "-check", "a.sol", "-check", "b.sol"],
            "cannot be used multiple times",
        ),
        (&["fc.1", "-check"], "a value is required"),
        (&["fc.1", "-chek", "a.sol"], "unexpected argument"),
        (&["fc.1", "--max-states", "10"], "--search"),
        (
            &["fc.1", "-search", "b.sol", "--max-states", "ten"],
            "invalid value 'ten'",
        ),
        (
            &["fc.1", "-search", "b.sol", "--timeout", "0"],
            "expected a positive number of seconds",
        ),
        (
            &["fc.1", "-search", "b.sol", "--timeout", "soon"],
            "invalid value 'soon'",
        ),
    ];
    for (args, says) in cases {
        assert_usage_error(args, says);
    }
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_a_usage_error() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let r = run([OsStr::from_bytes(b"fc.\xff")]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
}

#[test]
fn unreadable_and_unwritable_files_are_errors() {
    let dir = TempDir::new("files");
    let missing = dir.join("missing.sol");
    let missing = missing.to_str().unwrap();
    assert_usage_error(&["fc.1", "-check", missing], "cannot read solution file");
    assert_usage_error(&["fc.1", "-check", missing], "No such file");
    let as_dir = dir.path().to_str().unwrap();
    assert_usage_error(&["fc.1", "--check", as_dir], "cannot read solution file");

    let nowhere = dir.join("no/such/dir/out.sol");
    let nowhere = nowhere.to_str().unwrap();
    assert_usage_error(&["fc.1", "-search", nowhere], "no directory");
    assert!(!dir.join("no").exists());
    assert_usage_error(&["fc.1", "--search", as_dir], "it is a directory");
}

#[test]
fn help_and_version() {
    for flag in ["--help", "-h"] {
        let r = run([flag]);
        assert_eq!(r.code, 0, "{r:?}");
        for words in [
            "Examples:",
            "-check",
            "-search",
            "FreeCell.123456",
            "INSOLUBLE",
        ] {
            assert!(r.stdout.contains(words), "{flag} lacks '{words}'");
        }
    }
    for flag in ["--version", "-V"] {
        let r = run([flag]);
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(
            r.stdout.trim(),
            format!("xpat-solver {}", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn long_names_aliases_and_leading_zeros_name_the_same_deal() {
    let mut shown = Vec::new();
    for (long, alias) in [
        ("FreeCell", "fc"),
        ("Seahaven", "st"),
        ("MidnightOil", "mo"),
        ("BakersDozen", "bd"),
    ] {
        let by_name = run([format!("{long}.123")]);
        assert_eq!(by_name.code, 0, "{by_name:?}");
        for other in [
            format!("{alias}.123"),
            format!("{long}.000000123"),
            format!("{alias}.0123"),
        ] {
            let r = run([&other]);
            assert_eq!(r.code, 0, "{other}: {r:?}");
            assert_eq!(r.stdout, by_name.stdout, "{other}");
        }
        shown.push(by_name.stdout);
    }
    // Four different games, four different displays; seed 123 != 124.
    shown.sort();
    shown.dedup();
    assert_eq!(shown.len(), 4);
    assert_ne!(run(["fc.124"]).stdout, run(["fc.123"]).stdout);
    // The two ends of the seed range.
    for seed in ["fc.1", "fc.999999999", "bd.000000001"] {
        assert_eq!(run([seed]).code, 0, "{seed}");
    }
}

/// The card numbers of the column lines (` 1:  5♣(16)  K♦(51) ...`), in order.
fn shown_columns(stdout: &str) -> Vec<Vec<u8>> {
    stdout
        .lines()
        .filter(|l| {
            l.split_once(':')
                .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
        })
        .map(|l| {
            l.split('(')
                .skip(1)
                .map(|s| s.split(')').next().unwrap().trim().parse().unwrap())
                .collect()
        })
        .collect()
}

fn line_starting<'a>(stdout: &'a str, start: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no '{start}' line in:\n{stdout}"))
}

// xpat2's permutations (../shared/conformance/permutations.tsv): facts.
const PERM_1: [u8; 52] = [
    13, 32, 33, 35, 30, 46, 7, 29, 9, 48, 38, 36, 51, 41, 26, 20, 23, 43, 27, 42, 4, 21, 37, 39, 2,
    15, 34, 28, 25, 17, 16, 18, 31, 3, 0, 10, 50, 49, 14, 6, 24, 1, 22, 5, 40, 44, 11, 8, 45, 19,
    12, 47,
];
const PERM_123: [u8; 52] = [
    16, 51, 44, 27, 11, 37, 33, 50, 48, 13, 17, 38, 7, 28, 39, 15, 4, 5, 3, 6, 42, 25, 19, 34, 20,
    49, 23, 0, 8, 26, 30, 29, 47, 36, 9, 24, 40, 45, 14, 22, 32, 10, 1, 18, 12, 31, 35, 2, 21, 43,
    46, 41,
];

#[test]
fn the_display_shows_foundation_registers_and_columns_in_deal_order() {
    // FreeCell 123: nothing goes up; columns of 7, 6, 7, 6, ... in order.
    let r = run(["FreeCell.123"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.is_empty(), "{r:?}");
    assert!(line_starting(&r.stdout, "Foundation:").contains("(0 cards)"));
    assert_eq!(
        line_starting(&r.stdout, "Registers:").matches(" .").count(),
        4
    );
    let columns = shown_columns(&r.stdout);
    let sizes: Vec<usize> = columns.iter().map(Vec::len).collect();
    assert_eq!(sizes, [7, 6, 7, 6, 7, 6, 7, 6]);
    assert_eq!(columns.concat(), PERM_123);
    assert!(r.stdout.contains(" 1:  5♣(16)  K♦(51)"), "{}", r.stdout);

    // Seahaven 1: A♥ (2, the fifth column's top) goes up, then 2♥ (6),
    // A♦ (3) and A♣ (0); the last two cards are dealt to registers.
    let r = run(["st.1"]);
    assert_eq!(r.code, 0, "{r:?}");
    let foundation = line_starting(&r.stdout, "Foundation:");
    assert!(foundation.contains("A♣(0)") && foundation.contains("2♥(6)"));
    assert!(foundation.contains("A♦(3)") && foundation.contains("(4 cards)"));
    let registers = line_starting(&r.stdout, "Registers:");
    assert!(registers.contains("4♣(12)") && registers.contains("Q♦(47)"));
    assert_eq!(registers.matches(" .").count(), 2, "{registers}");
    let columns = shown_columns(&r.stdout);
    assert_eq!(columns.len(), 10);
    let dealt: Vec<u8> = PERM_1[..50]
        .iter()
        .copied()
        .filter(|c| ![0, 2, 3, 6].contains(c))
        .collect();
    assert_eq!(columns.concat(), dealt);
    assert_eq!(columns[4], [4, 21, 37, 39]); // 2♣ 6♠ 10♠ 10♦, A♥ gone

    // Midnight Oil 1: 18 columns, no register line, A♠ (1) on the foundation.
    let r = run(["mo.1"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stdout.contains("Registers"));
    assert!(line_starting(&r.stdout, "Foundation:").contains("A♠(1)"));
    let columns = shown_columns(&r.stdout);
    assert_eq!(columns.len(), 18);
    assert_eq!(columns[17], [47]);
}

#[test]
fn check_replays_with_one_or_two_dashes() {
    let good = solutions_dir().join("format/fc123-no-final-newline.sol");
    let good = good.to_str().unwrap();
    for flag in ["-check", "--check"] {
        let r = run(["FreeCell.123", flag, good]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{flag}: {r:?}");
        // The same moves are not a solution of another deal.
        let r = run(["FreeCell.124", flag, good]);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(r.last_line().starts_with("ECHEC "), "{r:?}");
    }
}

#[test]
fn check_names_the_first_bad_line_and_why() {
    let dir = TempDir::new("check");
    let file = dir.join("moves.sol");
    let file_arg = file.to_str().unwrap();
    // FreeCell 123: 9♠ (33) and 8♦ (31) are column tops; 9♥ (34) lies under
    // 6♣; once 9♠ is in a free cell, 10♠ (37) is the first column's top.
    let cases: &[(&str, &str, i32, &str)] = &[
        (
            "",
            "ECHEC 1",
            1,
            "after 0 moves: 0 cards on the foundation, not won",
        ),
        ("33 T\n31 T\n", "ECHEC 3", 1, "after 2 moves"),
        (
            "33 T\n31 T\n34 T\n",
            "ECHEC 3",
            1,
            "move 3 (34 T): 9♥ to a register: the card is not accessible",
        ),
        (
            "33 T\n33 37\n",
            "ECHEC 2",
            1,
            "move 2 (33 37): 9♠ onto 10♠: 9♠ and 10♠ are both black",
        ),
        (
            "33 V\n",
            "ECHEC 1",
            1,
            "move 1 (33 V): 9♠ to an empty column: no empty column",
        ),
        ("33 T\nT 33\n", "ECHEC 2", 1, "'T' is not a card"),
    ];
    for (text, last, code, why) in cases {
        std::fs::write(&file, text).unwrap();
        let r = run(["fc.123", "-check", file_arg]);
        assert_eq!(r.verdict(), (*last, *code), "{text:?}: {r:?}");
        assert!(
            r.reason().contains(why),
            "{text:?}: {:?} lacks {why:?}",
            r.reason()
        );
        assert!(r.stderr.is_empty(), "{r:?}");
    }
}

/// Every line `CARD DEST\n`, exactly as SPEC §6 says the search writes.
fn assert_strict_format(text: &str) {
    assert!(text.ends_with('\n'), "no final newline");
    for line in text.lines() {
        let (card, dest) = line.split_once(' ').expect(line);
        let is_card = |w: &str| {
            !w.is_empty()
                && w.bytes().all(|b| b.is_ascii_digit())
                && (w == "0" || !w.starts_with('0'))
                && w.parse::<u8>().is_ok_and(|n| n < 52)
        };
        assert!(is_card(card), "{line:?}");
        assert!(is_card(dest) || dest == "V" || dest == "T", "{line:?}");
    }
}

#[test]
fn search_writes_a_solution_that_check_accepts() {
    let dir = TempDir::new("search");
    for (game, flag) in [
        ("fc.1", "-search"),
        ("Seahaven.8", "--search"),
        ("mo.4", "-search"),
    ] {
        let file = dir.join(&format!("{game}.sol"));
        let file_arg = file.to_str().unwrap();
        let r = run([game, flag, file_arg]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{game}: {r:?}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert_strict_format(&text);
        let r = run([game, "-check", file_arg]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{game} replay: {r:?}");
        let moves = text.lines().count();
        assert!(r.stdout.contains(&format!("won in {moves} moves")), "{r:?}");
    }
    // Nothing but the solutions is left behind (no temporary files).
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["Seahaven.8.sol", "fc.1.sol", "mo.4.sol"]);
}

#[test]
fn a_search_stopped_by_a_limit_says_echec_and_writes_nothing() {
    let dir = TempDir::new("limit");
    let existing = dir.join("existing.sol");
    std::fs::write(&existing, "keep me\n").unwrap();
    let r = run([
        "fc.1",
        "-search",
        existing.to_str().unwrap(),
        "--max-states",
        "10",
    ]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep me\n");

    let absent = dir.join("absent.sol");
    let r = run([
        "fc.1",
        "--search",
        absent.to_str().unwrap(),
        "--max-states",
        "10",
    ]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    assert!(!absent.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn an_exhaustive_search_without_solution_says_insoluble() {
    let dir = TempDir::new("insoluble");
    let file = dir.join("mo1.sol");
    let r = run(["MidnightOil.1", "-search", file.to_str().unwrap()]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(!file.exists());
    // And -check agrees there is nothing to win with no moves.
    std::fs::write(&file, "").unwrap();
    let r = run(["mo.1", "-check", file.to_str().unwrap()]);
    assert_eq!(r.verdict(), ("ECHEC 1", 1), "{r:?}");
    // Baker's Dozen 218 is lost from the deal (a cycle of Queens over the
    // Kings); in Baker's Dozen the proof is said to assume forced
    // foundation moves.
    let file = dir.join("bd218.sol");
    let r = run(["bd.218", "-search", file.to_str().unwrap()]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(r.reason().contains("forced foundation moves"), "{r:?}");
    assert!(!file.exists());
}

#[test]
fn a_forgetting_distance_or_a_timeout_is_never_a_proof() {
    let dir = TempDir::new("cuts");
    let file = dir.join("st35.sol");
    // Seahaven 35 is insoluble: exhaustively, INSOLUBLE...
    let r = run(["st.35", "-search", file.to_str().unwrap()]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    // ...but with positions forgotten, the same search proves nothing.
    let r = run(["st.35", "-search", file.to_str().unwrap(), "--diff", "1"]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    assert!(r.reason().contains("--diff"), "{r:?}");
    // A time limit too short for Baker's Dozen 562 (solved after half a
    // minute of search).
    let r = run([
        "bd.562",
        "-search",
        file.to_str().unwrap(),
        "--timeout",
        "0.3",
    ]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    assert!(r.reason().contains("time limit"), "{r:?}");
    assert!(!file.exists());
}

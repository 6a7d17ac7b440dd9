//! Bad arguments, bad files and the help: exit 3 and one line, or exit 0.

use xpat_solver::rules::GAMES;
use xpat_solver::search::{DEFAULT_MAX_STATES, MAX_STATES, MIN_DEFAULT_MAX_STATES};

use crate::assert_usage_error;
use crate::common::{TempDir, run, solutions_dir};

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
    for flag in ["--help", "-h", "-help"] {
        let r = run([flag]);
        assert_eq!(r.code, 0, "{r:?}");
        for words in [
            "Examples:",
            "-check",
            "-search",
            "FreeCell.123456",
            "INSOLUBLE",
            "3: bad arguments",
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

/// The help's games come from the rules' table and its limits' defaults
/// from the search's: each row shows up with its alias and shape.
#[test]
fn help_lists_every_game_and_the_limits_defaults() {
    let help = run(["--help"]).stdout;
    for rules in &GAMES {
        let line = help
            .lines()
            .find(|l| l.split_whitespace().next() == Some(rules.name))
            .unwrap_or_else(|| panic!("no line for {} in:\n{help}", rules.name));
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            words[1..4],
            [rules.alias, &rules.columns.to_string(), "columns,"]
        );
        assert!(line.contains(&rules.registers.to_string()) || rules.registers == 0);
    }
    // The default comes from the memory free when the help is asked: a
    // number within its bounds, and the help says how it is found.
    let line = help.lines().find(|l| l.contains("--max-states")).unwrap();
    let default: u64 = line
        .split("[default: ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no default in: {line}"));
    assert!(
        (MIN_DEFAULT_MAX_STATES..=DEFAULT_MAX_STATES).contains(&default),
        "{line}"
    );
    assert!(line.contains("half the memory free now"), "{line}");
    assert!(help.contains("Search limits (only with -search"), "{help}");
}

/// Each limit is refused where it cannot mean anything, before any search:
/// a time that a `Duration` cannot hold (it aborted, exit 134), a distance
/// or a number of positions of 0 (an instant ECHEC), more positions than
/// the visited set can index.
#[test]
fn search_limits_out_of_range_are_usage_errors() {
    let dir = TempDir::new("limits");
    let file = dir.join("out.sol");
    let file = file.to_str().unwrap();
    let seconds = "expected a positive number of seconds";
    let cards = "expected a whole number of cards from 1 to 52";
    let positions = "expected a whole number of positions from 1 to";
    let past_the_most = (MAX_STATES + 1).to_string();
    let cases = [
        ("--timeout", "1e20", seconds),
        ("--timeout", "1e308", seconds),
        ("--timeout", "-1", seconds),
        ("--timeout", "-inf", seconds),
        ("--timeout", "inf", seconds),
        ("--timeout", "NaN", seconds),
        ("--diff", "0", cards),
        ("--diff", "53", cards),
        ("--diff", "-1", cards),
        ("--max-states", "0", positions),
        ("--max-states", "-5", positions),
        // One past what the visited set indexes: it would have stopped
        // there, below the number asked for.
        ("--max-states", past_the_most.as_str(), positions),
        (
            "--jobs",
            "0",
            "expected a whole number of threads from 1 to 1024",
        ),
    ];
    for (limit, value, says) in cases {
        let r = assert_usage_error(&["fc.1", "-search", file, limit, value], says);
        assert!(r.stderr.contains(&format!("'{value}'")), "{r:?}");
    }
    assert!(!dir.join("out.sol").exists());
}

/// docs/usage.md says so: limits are for `-search` only.
#[test]
fn search_limits_with_check_are_usage_errors() {
    let good = solutions_dir().join("format/fc123-no-final-newline.sol");
    let good = good.to_str().unwrap();
    assert_eq!(run(["fc.123", "-check", good]).verdict(), ("SUCCES", 0));
    for (limit, value) in [("--max-states", "10"), ("-timeout", "5"), ("--diff", "3")] {
        assert_usage_error(
            &["fc.123", "-check", good, limit, value],
            "is a search limit: it cannot be used with '--check'",
        );
    }
}

/// `-search -out` is taken for a slip, and the tip is one that works.
#[test]
fn a_file_name_that_starts_with_a_dash_is_refused_with_a_tip_that_works() {
    for (args, says) in [
        (
            &["fc.1", "-search", "-out"][..],
            "(a file of that name is ./-out)",
        ),
        (&["fc.1", "--check", "-"], "(a file of that name is ./-)"),
        (&["fc.1", "-check", "a", "--xpat2", "-x"], "./-x"),
        (
            &["fc.1", "-search", "-timeout", "5"],
            "a value is required for '--search <FILE>'",
        ),
    ] {
        let r = assert_usage_error(args, says);
        assert!(
            !r.stderr.contains("'--out'") && !r.stderr.contains("'-- "),
            "{r:?}"
        );
    }
    assert!(!std::path::Path::new("-out").exists());
}

/// A newline or an escape sequence in a path is shown escaped: the error
/// stays one line, and nothing reaches the terminal raw.
#[test]
fn control_characters_in_paths_are_escaped() {
    let dir = TempDir::new("escape");
    let path = dir.join("new\nline\u{1b}[31m/out.sol");
    let r = assert_usage_error(&["fc.1", "-search", path.to_str().unwrap()], "no directory");
    assert!(r.stderr.contains("new\\nline\\u{1b}[31m"), "{r:?}");
    let r = assert_usage_error(&["fc.1", "-check", "\u{1b}]0;title\u{7}"], "cannot read");
    assert!(
        !r.stderr.contains('\u{1b}') && !r.stderr.contains('\u{7}'),
        "{r:?}"
    );
}

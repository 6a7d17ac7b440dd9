//! The two layers together: a command line in, [`Options`] or the one
//! line of its usage error out.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::options::{Export, UsageError};
use super::*;
use xpat_solver::search::{Limits, MAX_STATES};
use xpat_solver::shared_args::default_jobs;
use xpat_solver::xpat2::At;

fn options(line: &str) -> Result<Options, String> {
    let raw = args::parse(line.split(' ').map(OsString::from)).map_err(|stop| match stop {
        args::Stop::Usage(message) => message,
        args::Stop::Asked(e) => e.to_string(),
    })?;
    Options::try_from(raw).map_err(|UsageError(message)| message)
}

fn refused(line: &str, says: &str) {
    match options(line) {
        Ok(o) => panic!("{line}: accepted as {o:?}"),
        Err(message) => assert!(message.contains(says), "{line}: {message}"),
    }
}

fn search_limits(line: &str) -> Limits {
    match options(line).unwrap().mode {
        Mode::Search { limits, .. } => limits,
        mode => panic!("{line}: {mode:?}"),
    }
}

#[test]
fn the_three_modes() {
    let o = options("x fc.7").unwrap();
    let Game::Deal(id) = o.game else {
        panic!("not a deal: {:?}", o.game);
    };
    assert_eq!((id.rules.name, id.seed), ("FreeCell", 7));
    assert!(matches!(o.mode, Mode::Show));
    let o = options("x st.8 -check a.sol").unwrap();
    assert!(
        matches!(o.mode, Mode::Check { file, export: None, html: None } if file == Path::new("a.sol"))
    );
    let o = options("x bd.9 --search b.sol").unwrap();
    let Mode::Search { file, limits, .. } = o.mode else {
        panic!("not a search");
    };
    assert_eq!(file, PathBuf::from("b.sol"));
    let default = Limits::default();
    assert_eq!(limits.max_states, default.max_states);
    assert_eq!((limits.timeout, limits.diff), (None, None));
}

#[test]
fn limits_are_read_and_checked() {
    let l = search_limits("x fc.7 -search b.sol -max-states 10 -timeout 2.5 -diff 3");
    assert_eq!(l.max_states, 10);
    assert_eq!(l.timeout, Some(Duration::from_millis(2500)));
    assert_eq!(l.diff, Some(3));
    assert_eq!(search_limits("x fc.7 -search b -diff 52").diff, Some(52));
    for (limit, value) in [
        ("--timeout", "0"),
        ("--timeout", "-1"),
        ("--timeout", "1e20"),
        ("--timeout", "inf"),
        ("--timeout", "NaN"),
        ("--timeout", "soon"),
        ("--max-states", "0"),
        ("--max-states", "-5"),
        ("--max-states", "ten"),
        ("--max-states", "500000001"),
        ("--max-states", "1000000000"),
        ("--diff", "0"),
        ("--diff", "53"),
        ("--diff", "-1"),
    ] {
        refused(
            &format!("x fc.7 -search b {limit} {value}"),
            &format!("invalid value '{value}' for '{limit} <"),
        );
    }
    refused(
        "x fc.7 -search b --timeout 1e20",
        "positive number of seconds",
    );
    refused("x fc.7 -search b --diff 0", "from 1 to 52");
    refused("x fc.7 -search b --max-states 0", "from 1 to");
    // The most the visited set holds is accepted, one more is not: a
    // larger limit would stop the search below what was asked.
    assert_eq!(
        search_limits(&format!("x fc.7 -search b --max-states {MAX_STATES}")).max_states,
        MAX_STATES
    );
    refused(
        &format!("x fc.7 -search b --max-states {}", MAX_STATES + 1),
        &format!("from 1 to {MAX_STATES}"),
    );
}

#[test]
fn jobs_default_to_the_cores_and_zero_is_refused() {
    assert_eq!(search_limits("x bd.7 -search b -jobs 3").jobs, 3);
    assert_eq!(search_limits("x bd.7 -search b").jobs, default_jobs());
    assert!(default_jobs() >= 1);
    for value in ["0", "-1", "two", "1025"] {
        refused(
            &format!("x bd.7 -search b --jobs {value}"),
            &format!(
                "invalid value '{value}' for '--jobs <N>': expected a whole number of threads from 1 to 1024"
            ),
        );
    }
    refused(
        "x bd.7 --jobs 2",
        "'--jobs' is a search option: it needs '--search FILE'",
    );
}

#[test]
fn limits_belong_to_the_search_only() {
    for limit in ["--max-states 5", "--timeout 5", "--diff 5"] {
        refused(&format!("x fc.7 {limit}"), "needs '--search FILE'");
        refused(
            &format!("x fc.7 -check a {limit}"),
            "cannot be used with '--check'",
        );
    }
    refused("x fc.7 -check a -search b", "cannot be used with");
}

#[test]
fn solution_length_options() {
    use xpat_solver::search::Length;
    assert_eq!(search_limits("x fc.7 -search b").length, Length::Shortened);
    assert_eq!(
        search_limits("x fc.7 -search b -fast").length,
        Length::AsFound
    );
    let l = search_limits("x st.7 --search b --optimal --timeout 20");
    assert_eq!(l.length, Length::Optimal);
    assert_eq!(l.timeout, Some(Duration::from_secs(20)));
    refused("x fc.7 -search b --fast --optimal", "cannot be used with");
    refused("x fc.7 -search b --optimal --diff 3", "void the proof");
    for option in ["--fast", "--optimal"] {
        refused(&format!("x fc.7 {option}"), "needs '--search FILE'");
        refused(
            &format!("x fc.7 -check a {option}"),
            "cannot be used with '--check'",
        );
    }
}

#[test]
fn xpat2_export_options() {
    let export = |line: &str| match options(line).unwrap().mode {
        Mode::Check { export, .. } | Mode::Search { export, .. } => export,
        Mode::Show => panic!("{line}: no mode"),
    };
    let expected = |at| Export {
        path: PathBuf::from("out"),
        at,
    };
    assert_eq!(
        export("x fc.7 -check a.sol --xpat2 out"),
        Some(expected(At::Start))
    );
    assert_eq!(
        export("x fc.7 -search a.sol -xpat2 out -xpat2-at end"),
        Some(expected(At::End))
    );
    assert_eq!(export("x fc.7 -search a.sol"), None);
    refused(
        "x fc.7 --xpat2 out",
        "needs '--check FILE' or '--search FILE'",
    );
    refused("x fc.7 -check a.sol --xpat2-at end", "needs '--xpat2 PATH'");
    refused(
        "x fc.7 -check a.sol --xpat2 o --xpat2-at middle",
        "expected start or end",
    );
}

#[test]
fn bad_deals_name_the_argument() {
    refused(
        "x fc.0",
        "invalid value 'fc.0' for '<RULE.SEED>': seed 0 is out of range",
    );
    refused("x fc.1.2", "more than one dot");
    refused("x", "<RULE.SEED>");
}

#[test]
fn a_web_page_goes_with_a_mode() {
    let html = |line: &str| match options(line).unwrap().mode {
        Mode::Check { html, .. } | Mode::Search { html, .. } => html,
        Mode::Show => panic!("{line}: no mode"),
    };
    assert_eq!(
        html("x fc.7 -check a.sol --html p.html"),
        Some(PathBuf::from("p.html"))
    );
    assert_eq!(
        html("x fc.7 -search a.sol -html p.html"),
        Some(PathBuf::from("p.html"))
    );
    assert_eq!(html("x fc.7 -search a.sol"), None);
    refused("x fc.7 --html p.html", "'--html' needs '--check FILE'");
    refused("x fc.7 -check a.sol --html -p", "looks like an option");
}

#[test]
fn a_save_replaces_the_deal() {
    let o = options("x --from-xpat2 g.save -search a.sol").unwrap();
    assert_eq!(o.game, Game::Save(PathBuf::from("g.save")));
    assert!(matches!(o.mode, Mode::Search { .. }));
    let o = options("x -from-xpat2 g.save -check a.sol --xpat2 . --html p").unwrap();
    assert_eq!(o.game, Game::Save(PathBuf::from("g.save")));
    refused(
        "x --from-xpat2 g.save",
        "'--from-xpat2' needs '--check FILE'",
    );
    refused(
        "x fc.7 --from-xpat2 g.save -check a.sol",
        "the save names its game",
    );
    refused("x -check a.sol", "<RULE.SEED> (or --from-xpat2 SAVE)");
}

#[test]
fn a_log_gets_a_progress_line_a_minute_and_no_more() {
    let mut every = solve::Every::new(Duration::from_secs(60));
    let secs = |s| Duration::from_secs(s);
    assert!(!every.due(secs(0)));
    assert!(!every.due(secs(59)));
    assert!(every.due(secs(61)));
    // The next one a minute after the line written, not after the 60th s.
    assert!(!every.due(secs(120)));
    assert!(every.due(secs(121)));
    // A search silent for long owes one line, not the minutes missed.
    assert!(every.due(secs(400)));
    assert!(!every.due(secs(401)));
}

#[test]
fn the_progress_line_names_the_suitless_game_while_it_is_searched() {
    let searched = xpat_solver::search::Stats {
        attempts: 3,
        stored_now: 1000,
        expanded: 2_500_000,
        elapsed: Duration::from_secs(2),
        ..Default::default()
    };
    let line = solve::progress(&searched);
    assert!(
        line.starts_with("#3: 1000 stored, 2.50M expanded"),
        "{line}"
    );
    let suitless = xpat_solver::search::Stats {
        suitless: 1_500_000,
        frontier: 200_000,
        ..searched
    };
    let line = solve::progress(&suitless);
    assert!(
        line.starts_with("suitless game: 1.50M positions, 0.20M waiting, 0.75M/s"),
        "{line}"
    );
    assert!(!line.contains("not saved"), "{line}");
    let unsaved = xpat_solver::search::Stats {
        unsaved: Some("cannot write DIR/save: No space left on device".into()),
        ..suitless
    };
    let line = solve::progress(&unsaved);
    assert!(
        line.ends_with("(not saved: cannot write DIR/save: No space left on device) "),
        "{line}"
    );
}

//! The low layer of the command line: what clap reads, every value still
//! the text the user typed. Nothing here knows what a value means or which
//! options go together; [`super::options`] decides that, once.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap::{Arg, Command, CommandFactory, FromArgMatches, Parser};

use super::help;
use xpat_solver::search::{
    BYTES_PER_POSITION, DEFAULT_MAX_STATES, Limits, MAX_STATES, MIN_DEFAULT_MAX_STATES,
    SHORTEN_CAP, SHORTEN_FLOOR, SHORTEN_SHARE_DIVISOR, SHORTEN_SQUARE_DIVISOR, SHORTEN_TIME_CAP,
};
use xpat_solver::shared_args::default_jobs;

/// The heading of the search limits in `--help`.
const LIMITS: &str = "Search limits (only with -search; ECHEC when one stops it)";
/// The heading of the options on a solution's length in `--help`.
const LENGTH: &str = "Solution length (only with -search)";

/// Solves and checks the card solitaires of xpat2, dealt exactly as xpat2
/// deals them.
#[derive(Parser, Debug, Default)]
#[command(name = "xpat-solver", version, about)]
pub(super) struct RawArgs {
    /// The deal: a game and a seed, e.g. FreeCell.123456 or fc.123456
    #[arg(value_name = "RULE.SEED")]
    pub game: Option<String>,

    /// Start from a game a player saved in xpat2, mid-game, instead of
    /// RULE.SEED: -search finds a win from their position, -check FILE
    /// replays FILE from there
    #[arg(long, value_name = "SAVE")]
    pub from_xpat2: Option<PathBuf>,

    /// Replay the solution in FILE; last line SUCCES or ECHEC k
    #[arg(long, value_name = "FILE")]
    pub check: Option<PathBuf>,

    /// Search, write a solution to FILE; last line SUCCES, ECHEC or INSOLUBLE
    #[arg(long, value_name = "FILE")]
    pub search: Option<PathBuf>,

    /// Give up after storing N positions (its default is the search's, set
    /// in `command`)
    #[arg(long, value_name = "N", help_heading = LIMITS)]
    pub max_states: Option<String>,

    /// Give up after SECONDS, e.g. 10 or 0.5 [default: none]
    #[arg(long, value_name = "SECONDS", help_heading = LIMITS)]
    pub timeout: Option<String>,

    /// Forget positions D (1..52) cards or more behind the best score; then
    /// never INSOLUBLE [default: none]
    #[arg(long, value_name = "D", help_heading = LIMITS)]
    pub diff: Option<String>,

    /// When the search gives up at --max-states, go on exhaustively in
    /// layers kept on disk in DIR; the same command resumes a search
    /// stopped there, and a Baker's Dozen proof by its suitless game
    /// saved there every 10 minutes (see docs/spill.md)
    #[arg(long, value_name = "DIR", help_heading = LIMITS)]
    pub spill: Option<PathBuf>,

    /// The most the --spill files may take, e.g. 40G or 500M (K, M, G, T:
    /// powers of 1000) [default: 50G]
    #[arg(long, value_name = "SIZE", help_heading = LIMITS)]
    pub spill_max: Option<String>,

    /// Baker's Dozen, forced or free rules: store one name per component
    /// of host moves (a card moved between two cards one rank higher)
    /// instead of every position, and find most components' moves out from
    /// one of their positions, so a proof takes far less memory and time
    /// (--max-states counts names); depth-first on --jobs threads, after a
    /// short first look by the usual search for a win, half its work going
    /// to dives (short depth-first searches restarted in random orders,
    /// which win deals the exhaustive one misses) (see docs/components.md)
    #[arg(long, help_heading = LIMITS)]
    pub components: bool,

    /// Baker's Dozen: leave out the pair test, which proves positions
    /// lost when no two of the facts a win needs can hold together (two
    /// cards wanting one host at once: docs/rules-and-proofs.md), and the
    /// triple test a long search asks of its start and --components of
    /// its large subtrees (three cards, two hosts), and the suitless game
    /// a long search plays out from its start and --components from its
    /// large subtrees (the game with the suits of moved cards forgotten),
    /// so that a proof that used them can be confirmed without them
    /// (slower)
    #[arg(long, help_heading = LIMITS)]
    pub no_pairs: bool,

    /// Baker's Dozen: leave out the nested rollouts, games played to the
    /// end that look for a win for half the time (2 s without --timeout)
    /// once a search is about to be long; they prove nothing, so a deal
    /// expected lost gets its proof sooner without them
    #[arg(long, help_heading = LIMITS)]
    pub no_rollouts: bool,

    /// Baker's Dozen: leave out the suitless game (the game with the suits
    /// of moved cards forgotten, searched whole for a proof of loss: see
    /// docs/rules-and-proofs.md), which a long search asks of its start
    /// after the rollouts, for half the time left (5 s without
    /// --timeout), and --components of its large subtrees the triple
    /// test passed (a quarter of the time at most), and the games with
    /// pairs of high ranks followed, which a deal forcing loses has once
    /// its free or complete search stops at --max-states; --no-pairs
    /// leaves them out too
    #[arg(long, help_heading = LIMITS)]
    pub no_suitless: bool,

    /// With --components: list every component's positions to find its
    /// moves out, instead of finding them from one position (slower; each
    /// listing checks the component's name, which confirms a proof found
    /// the faster way)
    #[arg(long, requires = "components", help_heading = LIMITS)]
    pub list_components: bool,

    /// Keep the first solution found (a depth-first attempt's with its
    /// detours of one or two moves cut), without the shortening that
    /// follows by default (its words, with
    /// the budget's figures, are set in `command`)
    #[arg(long, help_heading = LENGTH)]
    pub fast: bool,

    /// The fewest moves, proven by an A* search (the summary says
    /// 'optimal'); a limit gives ECHEC. Under a second on Midnight Oil and
    /// Seahaven, seconds on FreeCell and Baker's Dozen (some take longer)
    #[arg(long, help_heading = LENGTH, conflicts_with = "fast")]
    pub optimal: bool,

    /// Threads one search runs on (its default, the cores available, is set
    /// in `command`)
    #[arg(long, value_name = "N")]
    pub jobs: Option<String>,

    /// Foundation moves: forced (every card that can go up goes up at once,
    /// the course's rules) or free (the player's moves, written CARD F, as
    /// in xpat2) [default: forced]
    #[arg(long, value_name = "RULE")]
    pub foundation: Option<String>,

    /// The rules of play: forced (the course's, as --foundation forced),
    /// free (as --foundation free) or xpat2 (xpat2's complete game: free
    /// foundation moves, cards back from the foundation, Midnight Oil's two
    /// redeals R and one turn CARD U / CARD D) [default: forced]
    #[arg(long, value_name = "RULES", conflicts_with = "foundation")]
    pub rules: Option<String>,

    /// Also write the solution as an xpat2 save: PATH, or in directory PATH
    /// xpat2's own name (FreeCell.000000123); watch it with `xpat2 FILE`
    #[arg(long, value_name = "PATH")]
    pub xpat2: Option<PathBuf>,

    /// Where the save opens: start (Redo plays the moves; with
    /// --from-xpat2, the player's position) or end (the won game; Undo
    /// steps back) [default: start]
    #[arg(long, value_name = "WHERE")]
    pub xpat2_at: Option<String>,

    /// Also write the solution as a web page that replays it, one file
    /// with nothing beside it: open PAGE in a browser (a game of more than
    /// 100000 moves is refused: exit 3)
    #[arg(long, value_name = "PAGE")]
    pub html: Option<PathBuf>,
}

/// Why parsing stopped before there was anything to run.
pub(super) enum Stop {
    /// `--help` or `--version`: clap prints it.
    Asked(clap::Error),
    /// A command line clap could not read, in one line.
    Usage(String),
}

/// The command with what `--help` computes: the games from the rules'
/// table, the default state limit from the search's (from this machine's
/// free memory, so the help says how it was found).
pub(super) fn command() -> Command {
    let max_states = Limits::default().max_states;
    RawArgs::command()
        .override_usage(help::USAGE_FORMS)
        .after_help(help::after_help())
        .mut_arg("max_states", |arg: Arg| {
            arg.help(format!(
                "Give up after storing N positions [default: {max_states}: half the memory \
                 free now, at {BYTES_PER_POSITION} B a position, kept between \
                 {MIN_DEFAULT_MAX_STATES} and {DEFAULT_MAX_STATES}; at most {MAX_STATES}]"
            ))
        })
        .mut_arg("jobs", |arg: Arg| {
            arg.help(format!(
                "With -search: run its attempts on N threads at once [default: {}, the cores here]",
                default_jobs()
            ))
        })
        .mut_arg("fast", |arg: Arg| arg.help(fast_help()))
}

/// What `--fast` skips: the shortening and its bounds, from the search's
/// constants.
fn fast_help() -> String {
    format!(
        "Keep the solution as found (a depth-first attempt's with its \
         detours of 1 or 2 moves cut). By \
         default beam searches then look for a shorter one, expanding at most \
         max({SHORTEN_FLOOR}, the search's expanded positions / {d}, moves² / {q}) \
         positions (a count, not a time), never more than {SHORTEN_CAP} nor {} s nor \
         past --timeout, and stop widening at the first width that finds nothing \
         shorter; a result is kept only when shorter and replayed as won",
        SHORTEN_TIME_CAP.as_secs(),
        d = SHORTEN_SHARE_DIVISOR,
        q = SHORTEN_SQUARE_DIVISOR,
    )
}

/// Reads the command line (program name first) into [`RawArgs`].
pub(super) fn parse(args: impl IntoIterator<Item = OsString>) -> Result<RawArgs, Stop> {
    let mut command = command();
    command.build();
    let args = normalize_dashes(&command, args);
    let read = command
        .try_get_matches_from_mut(args)
        .and_then(|matches| RawArgs::from_arg_matches(&matches));
    read.map_err(|e| {
        if e.use_stderr() {
            Stop::Usage(one_line(&e.render().to_string()))
        } else {
            Stop::Asked(e)
        }
    })
}

/// Test scripts write long options with one dash (`-check`, `-search`):
/// turn `-word` into `--word` before clap sees it. Single-letter flags
/// (`-h`, `-V`) and whatever follows `--` are left alone. A value that
/// starts with `-` (`--timeout -1`, `-search -out`) is joined to its
/// option (`--timeout=-1`), so clap hands it over as typed and the
/// options' check says what is wrong with it, instead of clap taking it
/// for an unknown flag; another option in its place (`-search -timeout 5`)
/// is left for clap to say the value is missing.
pub(super) fn normalize_dashes(
    command: &Command,
    args: impl IntoIterator<Item = OsString>,
) -> Vec<OsString> {
    let mut args = args.into_iter();
    let mut out: Vec<OsString> = args.next().into_iter().collect(); // the program
    let mut expecting = false;
    for arg in args.by_ref() {
        let two = one_dash_to_two(&arg);
        let known = option_named(command, &two);
        if expecting && known.is_none() && arg.as_encoded_bytes().starts_with(b"-") {
            if let Some(option) = out.last_mut() {
                option.push("=");
                option.push(&arg);
            }
            expecting = false;
            continue;
        }
        let ended = !expecting && arg == "--";
        out.push(if expecting && known.is_none() {
            arg
        } else {
            two
        });
        expecting = known.is_some_and(|a| a.get_action().takes_values());
        if ended {
            break;
        }
    }
    out.extend(args);
    out
}

/// The option `--name` (or `-h`, `-V`, `--help`, `--version`) names.
fn option_named<'c>(command: &'c Command, arg: &OsStr) -> Option<&'c Arg> {
    let arg = arg.to_str()?;
    command.get_arguments().find(|a| {
        arg.strip_prefix("--")
            .is_some_and(|name| a.get_long() == Some(name))
            || arg.strip_prefix('-').is_some_and(|short| {
                short.len() == 1 && a.get_short().is_some_and(|c| short.starts_with(c))
            })
    })
}

/// `-word` (lowercase letters, digits, dashes) as `--word`.
fn one_dash_to_two(arg: &OsStr) -> OsString {
    match arg.to_str() {
        Some(s)
            if s.len() > 2
                && s.starts_with('-')
                && !s.starts_with("--")
                && s.as_bytes()[1].is_ascii_lowercase()
                && s[1..]
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') =>
        {
            OsString::from(format!("-{s}"))
        }
        _ => arg.to_owned(),
    }
}

/// Folds clap's several-line error into one line: its sentences up to the
/// usage block, so a script's log shows the whole reason on the line it
/// greps. Clap's tip to write a value after `--` is dropped: that makes it
/// the deal's name here, never an option's value.
pub(super) fn one_line(rendered: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for line in rendered.lines() {
        let line = line.trim();
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if line.is_empty() || line.starts_with("tip: to pass '") {
            continue;
        }
        match parts.last_mut() {
            // "...not provided:" is followed by the list of what is missing.
            Some(last) if last.ends_with(':') => {
                last.push(' ');
                last.push_str(line);
            }
            _ => parts.push(line.to_string()),
        }
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(line: &str) -> Result<RawArgs, String> {
        parse(line.split(' ').map(OsString::from)).map_err(|stop| match stop {
            Stop::Usage(message) => message,
            Stop::Asked(e) => e.to_string(),
        })
    }

    #[test]
    fn one_and_two_dash_options() {
        let a = raw("x fc.7 -check a.sol").unwrap();
        assert_eq!(
            (a.game.as_deref(), a.check),
            (Some("fc.7"), Some("a.sol".into()))
        );
        let a = raw("x FreeCell.7 --search b.sol -max-states 10 -xpat2-at end").unwrap();
        assert_eq!(a.search, Some("b.sol".into()));
        assert_eq!(a.max_states.as_deref(), Some("10"));
        assert_eq!(a.xpat2_at.as_deref(), Some("end"));
        let a = raw("x bd.7 -search c.sol -jobs 3").unwrap();
        assert_eq!(a.jobs.as_deref(), Some("3"));
    }

    #[test]
    fn values_are_taken_as_typed() {
        let a = raw("x st.7 -search -out.sol -timeout -1 --diff -2").unwrap();
        assert_eq!(a.search, Some("-out.sol".into()));
        assert_eq!(a.timeout.as_deref(), Some("-1"));
        assert_eq!(a.diff.as_deref(), Some("-2"));
        let a = raw("x --search=-s.sol -- fc.1").unwrap();
        assert_eq!(
            (a.game.as_deref(), a.search),
            (Some("fc.1"), Some("-s.sol".into()))
        );
    }

    #[test]
    fn clap_errors_fold_into_one_line() {
        let e = raw("x fc.7 -chek a").unwrap_err();
        assert!(e.contains("unexpected argument '--chek'"), "{e}");
        assert!(e.contains("a similar argument exists: '--check'"), "{e}");
        assert!(!e.contains('\n'), "{e}");
        assert!(raw("x fc.1 fc.2").unwrap_err().contains("'fc.2'"));
    }
}

//! `xpat-solver survey ...`: its command line, checked whole before any
//! deal is searched, so that a typo costs a message, not an hour.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::foundation::Foundation;
use crate::search::{Length, MAX_STATES};
use crate::shared_args::{MAX_JOBS, TIMEOUT_EXPECTED, timeout_seconds};
use crate::solution::quote;

use super::deals::{Deals, Shard, parse_games};
use super::say;
use super::seeds::Seeds;

/// Exit code for bad arguments and files (the single-deal command's too).
pub const EXIT_USAGE: u8 = 3;

const AFTER_HELP: &str = "\
GAMES: names or aliases joined by commas (fc,st), or all.
SEEDS: ranges and seeds joined by commas (1-1000,19621); or --random N.
Deals run seed by seed, every game at each seed; --shard K/N takes the
deals whose position in that list is K modulo N (K from 0 to N-1).

Rows (game,seed,verdict,moves,expanded,stored,seconds,limit) go to --out
FILE, a whole row per deal as it ends, or to stdout, with the summary on
stderr. FILE may not be a solution --solutions DIR writes, by any path or
link. Ctrl-C, SIGTERM or SIGHUP stops cleanly (a second one at once);
--resume continues, and removes the temporary files a killed run left in
DIR (.xpat-solver-*.tmp, over a minute old).

--foundation both searches each deal with forced foundation moves first
(the course's rules, fast) and again with free ones (the player's choice,
as in xpat2) when it was not won: the row's verdict is then the real
game's, and three more columns say which rule it holds under
(foundation), the forced verdict (forced) and the survey's rules
(rules). Seahaven and Midnight Oil build in suit: there free and forced
are the same game, searched once. --timeout holds for each search. Free
solutions are written as DIR/Game.SEED.free.sol (check them with
--foundation free).

--rules xpat2 searches under xpat2's complete rules (as -search --rules
xpat2: cards back from the foundation, Midnight Oil's two redeals and
one turn); --rules forced and free are --foundation's. Solutions are
written as DIR/Game.SEED.xpat2.sol (check them with --rules xpat2).

A file holds one rule set, in its rules column (forced: the 8 columns):
--resume and --summary refuse files of other rules. --summary FILE...
--html REPORT also writes the summary as one self-contained page (no
network needed): per game the verdicts' shares and intervals, the time
and positions per deal as histograms, the slowest deals, the seeds lost
and undecided; written whole or not at all.

--jobs takes 1 to 1024 workers (as -search), --timeout a positive number
of seconds below 2^64.

Examples:
  xpat-solver survey fc 1-100000 --out fc.csv
  xpat-solver survey all --random 10000 --rng-seed 7 --out sample.csv
  xpat-solver survey fc 1-1000000 --shard 3/8 --out fc.3.csv
  xpat-solver survey fc,bd 1-100000 --foundation both --out real.csv
  xpat-solver survey mo 1-10000 --rules xpat2 --out mo-xpat2.csv
  xpat-solver survey --summary fc.*.csv
  xpat-solver survey --summary fc.*.csv --html fc.html

Exit: 0 every deal decided, 1 some undecided (ECHEC), 3 bad arguments or
files, 130 interrupted.";

/// Surveys many deals in one process, on every core: a verdict and the
/// search's figures per deal, and a summary per game.
#[derive(Parser, Debug)]
#[command(name = "xpat-solver survey", after_help = AFTER_HELP)]
#[command(group = clap::ArgGroup::new("surveying").multiple(true).args([
    "games", "seeds", "random", "rng_seed", "jobs", "timeout", "max_states", "fast",
    "optimal", "out", "resume", "solutions", "foundation", "rules", "shard", "components",
    "no_pairs", "no_rollouts", "no_suitless",
]))]
struct Cli {
    /// Games: fc,st,mo,bd (names or aliases) or all
    games: Option<String>,

    /// Seeds: ranges and lists, e.g. 1-1000,19621
    seeds: Option<String>,

    /// Survey N distinct seeds drawn uniformly from 1..999999999 instead
    #[arg(long, value_name = "N")]
    random: Option<u64>,

    /// Seed of --random's generator: the same S draws the same seeds
    #[arg(long, value_name = "S", default_value_t = 1, requires = "random")]
    rng_seed: u64,

    /// Worker threads, at most 1024 and no more than the deals to do
    /// [default: the available cores]
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,

    /// Give a deal up (ECHEC) after this many seconds (positive, below
    /// 2^64, as -search)
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "10",
        allow_negative_numbers = true
    )]
    timeout: String,

    /// Give a deal up (ECHEC) after storing this many positions [default: a
    /// third of the usable memory, shared by the workers]
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,

    /// Keep each solution as found, without the shortening that follows
    /// by default (as -search --fast)
    #[arg(long)]
    fast: bool,

    /// The fewest moves, proven by an A* search (as -search --optimal): a
    /// deal left ECHEC has no proven-shortest solution within the limits
    #[arg(long, conflicts_with = "fast")]
    optimal: bool,

    /// Write the rows to FILE (CSV) instead of stdout
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Continue --out FILE: skip the deals in it, redo a torn last line
    #[arg(long, requires = "out")]
    resume: bool,

    /// Write each solution, checked, to DIR/Game.SEED.sol
    #[arg(long, value_name = "DIR")]
    solutions: Option<PathBuf>,

    /// Foundation moves forced (the course's rules), free (the player's
    /// choice), or both (forced, then free for the deals not won)
    /// [default: forced]
    #[arg(long, value_name = "RULE", value_parser = Under::from_foundation)]
    foundation: Option<Under>,

    /// The rule set: forced, free (as --foundation) or xpat2 (xpat2's
    /// complete rules, as -search --rules xpat2)
    #[arg(long, value_name = "RULES", value_parser = Under::from_rules, conflicts_with = "foundation")]
    rules: Option<Under>,

    /// Take only the deals whose position in the list is K modulo N
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,

    /// Search Baker's Dozen by components under forced and free rules,
    /// one name stored per component of host moves (as -search
    /// --components; both searches of --foundation both); other games and
    /// xpat2's complete rules as usual
    #[arg(long, conflicts_with = "optimal")]
    components: bool,

    /// Baker's Dozen: leave out the pair and triple tests (as -search
    /// --no-pairs), to confirm their proofs without them
    #[arg(long)]
    no_pairs: bool,

    /// Baker's Dozen: leave out the nested rollouts (as -search
    /// --no-rollouts): a survey of deals expected lost spends its time on
    /// proofs
    #[arg(long)]
    no_rollouts: bool,

    /// Baker's Dozen: leave out the suitless game (as -search
    /// --no-suitless)
    #[arg(long)]
    no_suitless: bool,

    /// Summarize survey files (shards merge) instead of surveying
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "surveying")]
    summary: Option<Vec<PathBuf>>,

    /// With --summary: also write the summary as one self-contained HTML
    /// page with plots to REPORT
    #[arg(long, value_name = "REPORT")]
    html: Option<PathBuf>,
}

/// The survey's command line as clap defines it, for the completion
/// scripts and the manual pages (`xpat-solver completions`, `manpage`).
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// The rules a survey searches under: the `--foundation` or `--rules`
/// word, which is also what its file records (the `rules` column) and is
/// compared by, so that a new rule set is one more variant and its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Under {
    /// The course's rules: cards go up by themselves.
    Forced,
    /// The player's choice (SPEC §9).
    Free,
    /// Forced first, as it is fast; free for the deals that forced moves
    /// did not win where that is another game (FreeCell, Baker's Dozen):
    /// the real game's verdict, and the forced one beside it.
    Both,
    /// xpat2's complete rules (SPEC §10): free foundation moves, cards
    /// back from the foundation, Midnight Oil's redeals and turn.
    Xpat2,
}

impl Under {
    /// Every rule set, in the order `--help` lists them.
    pub const ALL: [Under; 4] = [Under::Forced, Under::Free, Under::Both, Under::Xpat2];

    /// The word of `--foundation` or `--rules`, and of the `rules` column.
    pub fn name(self) -> &'static str {
        match self {
            Under::Forced => "forced",
            Under::Free => "free",
            Under::Both => "both",
            Under::Xpat2 => "xpat2",
        }
    }

    /// What the rules are, for the summary's first line.
    pub fn description(self) -> &'static str {
        match self {
            Under::Forced => "forced foundation moves (the course's rules)",
            Under::Free => "free foundation moves (the player's choice)",
            Under::Both => "forced foundation moves, then free ones for the deals they did not win",
            Under::Xpat2 => {
                "xpat2's complete rules (free foundation moves, cards back from the foundation, Midnight Oil's redeals and turn)"
            }
        }
    }

    /// The rule each of the survey's searches is under, in their order:
    /// also the solutions' names it writes.
    pub fn searches(self) -> &'static [Foundation] {
        match self {
            Under::Forced => &[Foundation::Forced],
            Under::Free => &[Foundation::Free],
            Under::Both => &[Foundation::Forced, Foundation::Free],
            Under::Xpat2 => &[Foundation::Xpat2],
        }
    }

    /// Reads any name of [`Under::name`], exactly (a file's `rules`).
    pub fn parse(word: &str) -> Result<Under, String> {
        Under::ALL
            .into_iter()
            .find(|u| u.name() == word)
            .ok_or_else(|| "expected forced, free, both or xpat2".into())
    }

    /// `--foundation`: forced, free or both.
    pub fn from_foundation(word: &str) -> Result<Under, String> {
        match Under::parse(word) {
            Ok(Under::Xpat2) => {
                Err("expected forced, free or both (xpat2's rules: --rules xpat2)".into())
            }
            Ok(under) => Ok(under),
            Err(_) => Err("expected forced, free or both".into()),
        }
    }

    /// `--rules`: forced, free or xpat2, as `-search --rules`.
    pub fn from_rules(word: &str) -> Result<Under, String> {
        match Under::parse(word) {
            Ok(Under::Both) => {
                Err("expected forced, free or xpat2 (both: --foundation both)".into())
            }
            Ok(under) => Ok(under),
            Err(_) => Err("expected forced, free or xpat2".into()),
        }
    }
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// Search these deals.
    Survey(Plan),
    /// Summarize these files, and write the page of `html` when given.
    Summary {
        /// The survey files, each of one rule set.
        files: Vec<PathBuf>,
        /// Where the report page goes (`--html`), if anywhere.
        html: Option<PathBuf>,
    },
}

/// A survey to run, every argument checked.
#[derive(Debug)]
pub struct Plan {
    /// The deals to survey (games, seeds, shard).
    pub deals: Deals,
    /// Workers, each searching one deal at a time (`--jobs`).
    pub jobs: usize,
    /// Each deal's time limit (`--timeout`).
    pub timeout: Duration,
    /// `None`: derive it from the memory (see `run::default_max_states`).
    pub max_states: Option<u64>,
    /// How short each solution must be (`--fast`, `--optimal`).
    pub length: Length,
    /// The rows' file (`--out`); `None`: stdout.
    pub out: Option<PathBuf>,
    /// Continue the rows' file instead of refusing it (`--resume`).
    pub resume: bool,
    /// Where each SUCCES's solution file goes (`--solutions`).
    pub solutions: Option<PathBuf>,
    /// The rules the deals are played by (`--foundation`, `--rules`).
    pub under: Under,
    /// Baker's Dozen under forced and free rules searched by components
    /// (`--components`).
    pub components: bool,
    /// The pair test left out (`--no-pairs`).
    pub no_pairs: bool,
    /// The nested rollouts left out (`--no-rollouts`).
    pub no_rollouts: bool,
    /// The suitless game left out (`--no-suitless`).
    pub no_suitless: bool,
    /// The arguments after `survey`, to print the command that resumes.
    pub words: Vec<String>,
}

/// Parses the arguments after `xpat-solver survey`. `Err` carries the exit
/// code once the message (one line) or the help is printed.
pub fn parse(args: Vec<OsString>) -> Result<Command, u8> {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let all = std::iter::once(OsString::from("xpat-solver survey")).chain(args);
    let cli = Cli::try_parse_from(all).map_err(|e| {
        if e.use_stderr() {
            say::error(&clap_line(&e.render().to_string()));
            EXIT_USAGE
        } else {
            print_asked(&e)
        }
    })?;
    check(cli, words).map_err(|message| {
        say::error(&message);
        EXIT_USAGE
    })
}

/// Prints `--help`: exit 0, or 3 when stdout cannot take it (a reader that
/// went away asked for no more: 0), as `-search --help`.
fn print_asked(help: &clap::Error) -> u8 {
    match help.print() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            say::error(&format!("cannot write to standard output: {e}"));
            EXIT_USAGE
        }
        _ => 0,
    }
}

/// Clap's message on one line, so a job's log shows the reason where it
/// is grepped: the lines before its usage block, with a pointer to help.
fn clap_line(rendered: &str) -> String {
    let reason: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(|l| l.trim().trim_start_matches("error: "))
        .filter(|l| !l.is_empty())
        .collect();
    format!(
        "{} (usage: xpat-solver survey GAMES SEEDS [OPTIONS]; see --help)",
        reason.join(" ")
    )
}

/// Turns the parsed words into a plan, or says what is wrong.
fn check(cli: Cli, words: Vec<String>) -> Result<Command, String> {
    // Checked here, not by clap's `requires`: clap counts a required
    // argument as given when one that conflicts with it is (GAMES, say).
    if cli.html.is_some() && cli.summary.is_none() {
        return Err(
            "--html REPORT writes the page of a summary: give it with --summary FILE... (survey first, then summarize with --html)".into(),
        );
    }
    if let Some(files) = cli.summary {
        return Ok(Command::Summary {
            files,
            html: cli.html,
        });
    }
    let Some(games) = cli.games else {
        return Err(
            "expected GAMES and SEEDS (e.g. survey fc 1-1000), or --summary FILE...".into(),
        );
    };
    let seeds = match (cli.seeds, cli.random) {
        (Some(_), Some(_)) => return Err("give SEEDS or --random N, not both".into()),
        (None, None) => {
            return Err("expected SEEDS after GAMES (e.g. 1-1000), or --random N".into());
        }
        (Some(text), None) => Seeds::parse(&text)?,
        (None, Some(n)) => Seeds::random(n, cli.rng_seed)?,
    };
    let shard = cli.shard.as_deref().map_or(Ok(Shard::ALL), Shard::parse)?;
    let deals = Deals::new(parse_games(&games)?, seeds, shard);
    if deals.is_empty() {
        return Err(format!(
            "shard {}/{} holds no deal: there are fewer deals than shards",
            shard.k, shard.n
        ));
    }
    // As many as `-search --jobs` takes: a typo must not start threads
    // without end, nor share the memory between so many workers that
    // deals won with a few thousand positions end ECHEC.
    let jobs = match cli.jobs {
        Some(n @ 1..=MAX_JOBS) => n,
        Some(n) => {
            return Err(format!(
                "--jobs {n}: expected a whole number of workers from 1 to {MAX_JOBS}"
            ));
        }
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_JOBS)),
    };
    let Some(timeout) = timeout_seconds(&cli.timeout) else {
        return Err(format!(
            "--timeout {}: {TIMEOUT_EXPECTED}",
            quote(cli.timeout.as_bytes())
        ));
    };
    let under = cli.rules.or(cli.foundation).unwrap_or(Under::Forced);
    // As `-search`: A*'s lower bound counts on no card coming back.
    if cli.optimal && under == Under::Xpat2 {
        return Err(
            "--optimal cannot be used with --rules xpat2: its lower bound on the moves left counts on cards never coming back from the foundation".into(),
        );
    }
    if let Some(n) = cli.max_states.filter(|&n| n == 0 || n > MAX_STATES) {
        return Err(format!(
            "--max-states {n}: expected a number from 1 to {MAX_STATES}"
        ));
    }
    Ok(Command::Survey(Plan {
        deals,
        jobs,
        timeout,
        max_states: cli.max_states,
        length: Length::asked(cli.fast, cli.optimal),
        out: cli.out,
        resume: cli.resume,
        solutions: cli.solutions,
        under,
        components: cli.components,
        no_pairs: cli.no_pairs,
        no_rollouts: cli.no_rollouts,
        no_suitless: cli.no_suitless,
        words,
    }))
}

/// The plan of a command line (words split at spaces), for unit tests.
#[cfg(test)]
pub(super) fn plan_for_tests(line: &str) -> Plan {
    tests::plan(line).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn plan(line: &str) -> Result<Plan, String> {
        let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
        let words = line.split(' ').map(String::from).collect();
        let all = std::iter::once(OsString::from("x")).chain(args);
        let cli = Cli::try_parse_from(all).map_err(|e| e.to_string())?;
        match check(cli, words)? {
            Command::Survey(plan) => Ok(plan),
            Command::Summary { .. } => Err("summary".into()),
        }
    }

    #[test]
    fn a_whole_command_line() {
        let p = plan(
            "fc,st 1-10 --jobs 3 --timeout 2.5 --max-states 1000 --out a.csv --resume --shard 1/2 --foundation both",
        )
        .unwrap();
        assert_eq!(p.under, Under::Both);
        assert_eq!((p.deals.len(), p.jobs), (10, 3));
        assert_eq!(
            (p.timeout, p.max_states),
            (Duration::from_millis(2500), Some(1000))
        );
        assert!(p.resume && p.out == Some(PathBuf::from("a.csv")));
        let p = plan("bd --random 50 --rng-seed 9").unwrap();
        assert_eq!(
            (p.deals.len(), p.max_states, p.timeout.as_secs(), p.under),
            (50, None, 10, Under::Forced)
        );
        assert!(p.jobs >= 1);
    }

    #[test]
    fn refuses_what_cannot_run() {
        let cases = [
            ("fc", "expected SEEDS"),
            ("fc 1-5 --random 5", "not both"),
            ("fc 5-1", "range 5-1 is empty"),
            ("fc 0", "seed 0"),
            ("xx 1-5", "unknown game 'xx'"),
            ("fc 1-5 --shard 2/2", "does not exist"),
            ("fc 1 --shard 1/2", "holds no deal"),
            ("fc 1-5 --jobs 0", "--jobs 0"),
            ("fc 1-5 --timeout 0", "--timeout 0"),
            ("fc 1-5 --timeout nan", "--timeout nan"),
            ("fc 1-5 --timeout 1e20", "below 2^64"),
            ("fc 1-5 --timeout inf", "--timeout inf"),
            ("fc 1-5 --jobs 1025", "from 1 to 1024"),
            (
                "fc 1-5 --jobs 18446744073709551615",
                "--jobs 18446744073709551615",
            ),
            ("fc 1-5 --max-states 0", "--max-states 0"),
            ("fc 1-5 --resume", "--out"),
            ("fc 1-5 --rng-seed 3", "--random"),
            ("fc 1-5 --summary a.csv", "cannot be used"),
            ("fc 1-5 --foundation libre", "forced, free or both"),
            ("fc 1-5 --foundation xpat2", "--rules xpat2"),
            ("fc 1-5 --rules both", "--foundation both"),
            ("fc 1-5 --rules libre", "forced, free or xpat2"),
            ("fc 1-5 --rules xpat2 --foundation free", "cannot be used"),
            (
                "fc 1-5 --foundation forced --rules forced",
                "cannot be used",
            ),
            ("mo 1-5 --rules xpat2 --optimal", "--optimal"),
        ];
        for (line, says) in cases {
            let err = plan(line).unwrap_err();
            assert!(err.contains(says), "{line}: {err}");
        }
    }

    /// `--rules` names xpat2's complete rules, and forced or free as
    /// `--foundation` does; `--foundation both` is a survey's own.
    #[test]
    fn rules_and_foundation_name_the_rule_set() {
        let under = |line: &str| plan(line).unwrap().under;
        assert_eq!(under("mo 1-3 --rules xpat2"), Under::Xpat2);
        assert_eq!(under("fc 1-3 --rules free"), Under::Free);
        assert_eq!(under("fc 1-3 --rules forced"), Under::Forced);
        assert_eq!(under("fc 1-3 --foundation free"), Under::Free);
        assert_eq!(under("fc 1-3"), Under::Forced);
        assert_eq!(under("fc 1-3 --rules xpat2 --fast"), Under::Xpat2);
        for u in Under::ALL {
            assert_eq!(Under::parse(u.name()), Ok(u));
            // Each name is taken by one option at least, both by the two
            // where they mean the same.
            let by_foundation = Under::from_foundation(u.name()).is_ok();
            let by_rules = Under::from_rules(u.name()).is_ok();
            assert_eq!(
                (by_foundation, by_rules),
                match u {
                    Under::Forced | Under::Free => (true, true),
                    Under::Both => (true, false),
                    Under::Xpat2 => (false, true),
                },
                "{}",
                u.name()
            );
        }
        assert_eq!(Under::Xpat2.searches(), &[Foundation::Xpat2]);
        assert_eq!(
            Under::Both.searches(),
            &[Foundation::Forced, Foundation::Free]
        );
        for bad in ["", "Xpat2", "xpat2 ", "complete"] {
            assert!(Under::parse(bad).is_err(), "{bad:?}");
        }
    }

    /// `--html` goes with `--summary`, which takes no survey option.
    #[test]
    fn html_goes_with_summary_alone() {
        let parse = |line: &str| {
            let all = std::iter::once("x").chain(line.split(' '));
            let cli = Cli::try_parse_from(all).map_err(|e| e.to_string())?;
            check(cli, Vec::new())
        };
        for line in [
            "--summary a.csv b.csv --html r.html",
            "--html r.html --summary a.csv b.csv",
        ] {
            match parse(line) {
                Ok(Command::Summary { files, html }) => {
                    assert_eq!(files, [PathBuf::from("a.csv"), PathBuf::from("b.csv")]);
                    assert_eq!(html, Some(PathBuf::from("r.html")));
                }
                other => panic!("{line}: {other:?}"),
            }
        }
        assert!(matches!(
            parse("--summary a.csv"),
            Ok(Command::Summary { html: None, .. })
        ));
        for (line, says) in [
            ("--html r.html", "--summary"),
            ("fc 1-5 --html r.html", "--summary"),
            ("--summary a.csv --html r.html --jobs 2", "cannot be used"),
            ("--summary a.csv --timeout 3", "cannot be used"),
            ("--summary a.csv --html", "a value is required"),
        ] {
            let err = parse(line).unwrap_err();
            assert!(err.contains(says), "{line}: {err}");
        }
    }

    #[test]
    fn clap_messages_fold_to_one_line() {
        let e = Cli::try_parse_from(["x", "fc", "1", "--jobs", "two"]).unwrap_err();
        let line = clap_line(&e.render().to_string());
        assert!(
            !line.contains('\n') && line.contains("invalid value 'two'"),
            "{line}"
        );
        assert!(line.ends_with("see --help)"), "{line}");
    }
}

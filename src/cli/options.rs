//! The high layer of the command line: [`RawArgs`] checked once and turned
//! into [`Options`], the plain description of what to do that the rest of
//! the program reads. Every rule about what a value may be and which
//! options go together lives here, so every usage error clap does not find
//! is found in this one place.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::args::RawArgs;
use xpat_solver::foundation::Foundation;
use xpat_solver::rules::GameId;
use xpat_solver::search::components::Expansion;
use xpat_solver::search::layered::{DEFAULT_SPILL_MAX, Spill};
use xpat_solver::search::{Length, Limits, MAX_STATES};
use xpat_solver::shared_args::{MAX_JOBS, TIMEOUT_EXPECTED, default_jobs, timeout_seconds};
use xpat_solver::xpat2;

/// What the program is asked to do, every value checked.
#[derive(Clone, Debug)]
pub struct Options {
    pub game: Game,
    /// `--foundation`: forced (the default) or free foundation moves.
    pub foundation: Foundation,
    pub mode: Mode,
}

/// Where the game comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Game {
    /// `RULE.SEED`: the deal, nothing played.
    Deal(GameId),
    /// `--from-xpat2 SAVE`: a player's game, from their position in it
    /// (the file is read when the mode runs).
    Save(PathBuf),
}

/// The three forms of the command.
#[derive(Clone, Debug)]
pub enum Mode {
    /// No mode: show the deal's initial position (normalized under forced
    /// rules).
    Show,
    /// `-check FILE`: replay the solution in `file`.
    Check {
        file: PathBuf,
        export: Option<Export>,
        /// `--html PAGE`: the web page to write for a valid solution.
        html: Option<PathBuf>,
    },
    /// `-search FILE`: search within `limits`, write a solution to `file`.
    Search {
        file: PathBuf,
        limits: Limits,
        /// `--spill DIR`: go on in layers on disk past `--max-states`.
        spill: Option<Spill>,
        /// `--components`: search Baker's Dozen a component at a time,
        /// finding each one's moves out as this says.
        components: Option<Expansion>,
        export: Option<Export>,
        /// `--html PAGE`: the web page to write for a solution found.
        html: Option<PathBuf>,
    },
}

/// `--xpat2 PATH [--xpat2-at WHERE]`: a won solution also written as an
/// xpat2 save file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    /// A file, or a directory to put xpat2's own file name in.
    pub path: PathBuf,
    pub at: xpat2::At,
}

/// A usage error: what is wrong and what would be right, in one line.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct UsageError(pub String);

/// "invalid value 'V' for 'OPTION': expected …": how every bad value is said.
fn invalid(option: &str, value: &str, expected: &str) -> UsageError {
    UsageError(format!(
        "invalid value '{value}' for '{option}': {expected}"
    ))
}

impl TryFrom<RawArgs> for Options {
    type Error = UsageError;

    fn try_from(raw: RawArgs) -> Result<Options, UsageError> {
        let game = start(&raw)?;
        let foundation = match raw.rules.as_deref() {
            Some(text) => Foundation::from_rules_name(text)
                .map_err(|why| invalid("--rules <RULES>", text, &why))?,
            None => foundation(raw.foundation.as_deref())?,
        };
        if raw.optimal && foundation == Foundation::Xpat2 {
            return Err(UsageError(
                "'--optimal' cannot be used with '--rules xpat2': its lower bound on the moves left counts on cards never coming back from the foundation".into(),
            ));
        }
        let export = export(&raw)?;
        let html = raw
            .html
            .as_deref()
            .map(|page| file_name("--html <PAGE>", page))
            .transpose()?;
        let mode = match (&raw.check, &raw.search) {
            (Some(_), Some(_)) => {
                return Err(UsageError(
                    "'--check' cannot be used with '--search': one mode at a time".into(),
                ));
            }
            (Some(file), None) => {
                no_limits(&raw, "cannot be used with '--check'")?;
                Mode::Check {
                    file: file_name("--check <FILE>", file)?,
                    export,
                    html,
                }
            }
            (None, Some(file)) => Mode::Search {
                file: file_name("--search <FILE>", file)?,
                limits: limits(&raw)?,
                spill: spill(&raw)?,
                components: components(&raw)?,
                export,
                html,
            },
            (None, None) => {
                no_limits(&raw, "needs '--search FILE'")?;
                needs_a_mode(&raw)?;
                Mode::Show
            }
        };
        Ok(Options {
            game,
            foundation,
            mode,
        })
    }
}

/// `RULE.SEED`, or `--from-xpat2 SAVE` instead.
fn start(raw: &RawArgs) -> Result<Game, UsageError> {
    match (&raw.game, &raw.from_xpat2) {
        (Some(text), None) => Ok(Game::Deal(game(text)?)),
        (None, Some(save)) => Ok(Game::Save(file_name("--from-xpat2 <SAVE>", save)?)),
        (Some(text), Some(_)) => Err(UsageError(format!(
            "'{text}' and '--from-xpat2': the save names its game; give one or the other"
        ))),
        (None, None) => Err(UsageError(
            "the following required arguments were not provided: <RULE.SEED> (or --from-xpat2 SAVE)"
                .into(),
        )),
    }
}

/// Refuses, without a mode, an option that only means something with one.
fn needs_a_mode(raw: &RawArgs) -> Result<(), UsageError> {
    let given = [
        ("--xpat2", raw.xpat2.is_some(), "it writes their solution"),
        ("--html", raw.html.is_some(), "it writes their solution"),
        (
            "--from-xpat2",
            raw.from_xpat2.is_some(),
            "they start from the player's position",
        ),
    ];
    match given.iter().find(|(_, present, _)| *present) {
        Some((option, _, why)) => Err(UsageError(format!(
            "'{option}' needs '--check FILE' or '--search FILE': {why}"
        ))),
        None => Ok(()),
    }
}

/// `RULE.SEED` (SPEC §1).
fn game(text: &str) -> Result<GameId, UsageError> {
    let why = if text.matches('.').count() > 1 {
        "more than one dot: expected RULE.SEED, e.g. FreeCell.123 or fc.123".to_string()
    } else {
        match text.parse() {
            Ok(id) => return Ok(id),
            Err(why) => why,
        }
    };
    Err(invalid("<RULE.SEED>", text, &why))
}

/// `--foundation RULE`: `forced` or `free`.
fn foundation(text: Option<&str>) -> Result<Foundation, UsageError> {
    match text {
        None => Ok(Foundation::default()),
        Some(text) => text
            .parse()
            .map_err(|why: String| invalid("--foundation <RULE>", text, &why)),
    }
}

/// A file name as given, unless it starts with `-`: `-search -out` is
/// more likely a slip than a file's name, and `./-out` says it is one.
fn file_name(option: &str, path: &Path) -> Result<PathBuf, UsageError> {
    if path.as_os_str().as_encoded_bytes().starts_with(b"-") {
        let path = path.to_string_lossy();
        return Err(invalid(
            option,
            &path,
            &format!(
                "a name that starts with '-' looks like an option (a file of that name is ./{path})"
            ),
        ));
    }
    Ok(path.to_path_buf())
}

/// Refuses a search limit or option outside `-search`; `why` ends the
/// message.
fn no_limits(raw: &RawArgs, why: &str) -> Result<(), UsageError> {
    let given = [
        ("--max-states", "a search limit", raw.max_states.is_some()),
        ("--timeout", "a search limit", raw.timeout.is_some()),
        ("--diff", "a search limit", raw.diff.is_some()),
        ("--jobs", "a search option", raw.jobs.is_some()),
        ("--fast", "about the search's solution", raw.fast),
        ("--optimal", "about the search's solution", raw.optimal),
        ("--spill", "a search option", raw.spill.is_some()),
        ("--spill-max", "a search option", raw.spill_max.is_some()),
        ("--components", "a search option", raw.components),
        ("--no-pairs", "a search option", raw.no_pairs),
        ("--no-rollouts", "a search option", raw.no_rollouts),
        ("--no-suitless", "a search option", raw.no_suitless),
    ];
    match given.iter().find(|(.., present)| *present) {
        Some((option, what, _)) => Err(UsageError(format!("'{option}' is {what}: it {why}"))),
        None => Ok(()),
    }
}

fn limits(raw: &RawArgs) -> Result<Limits, UsageError> {
    let default = Limits::default();
    Ok(Limits {
        max_states: match &raw.max_states {
            Some(text) => max_states(text)?,
            None => default.max_states,
        },
        timeout: raw.timeout.as_deref().map(timeout).transpose()?,
        diff: raw.diff.as_deref().map(diff).transpose()?,
        cancel: None,
        jobs: match &raw.jobs {
            Some(text) => jobs(text)?,
            None => default_jobs(),
        },
        length: length(raw)?,
        pairs: !raw.no_pairs,
        rollouts: !raw.no_rollouts,
        suitless: !raw.no_suitless,
        ..default
    })
}

/// `--components`, refused with the options of another search (whether
/// the game and rules allow it is known once the start is read).
fn components(raw: &RawArgs) -> Result<Option<Expansion>, UsageError> {
    if !raw.components {
        return Ok(None);
    }
    let others = [
        ("--spill", raw.spill.is_some()),
        ("--optimal", raw.optimal),
        ("--diff", raw.diff.is_some()),
    ];
    let why = "it is a search of its own, depth-first over components";
    not_with("--components", others, why)?;
    Ok(Some(if raw.list_components {
        Expansion::Listing
    } else {
        Expansion::MovesOut
    }))
}

/// Refuses `option` beside any of `others` given, saying `why`.
fn not_with<const N: usize>(
    option: &str,
    others: [(&str, bool); N],
    why: &str,
) -> Result<(), UsageError> {
    match others.iter().find(|(_, given)| *given) {
        Some((other, _)) => Err(UsageError(format!(
            "'{option}' cannot be used with '{other}': {why}"
        ))),
        None => Ok(()),
    }
}

/// `--spill DIR` and `--spill-max SIZE`: the layered search past the
/// state limit is exhaustive, so it refuses what would make it less
/// (`--diff`) or ask it for what it cannot give (`--optimal`, a player's
/// position).
fn spill(raw: &RawArgs) -> Result<Option<Spill>, UsageError> {
    let Some(dir) = &raw.spill else {
        if raw.spill_max.is_some() {
            return Err(UsageError("'--spill-max' needs '--spill DIR'".into()));
        }
        return Ok(None);
    };
    let others = [
        ("--diff", raw.diff.is_some()),
        ("--optimal", raw.optimal),
        ("--from-xpat2", raw.from_xpat2.is_some()),
    ];
    let why = "the layers search every position from the deal";
    not_with("--spill", others, why)?;
    let max_bytes = match &raw.spill_max {
        Some(text) => size(text).ok_or_else(|| {
            invalid(
                "--spill-max <SIZE>",
                text,
                "expected a size such as 40G, 500M or 1000000 (bytes), at least 1K",
            )
        })?,
        None => DEFAULT_SPILL_MAX,
    };
    Ok(Some(Spill {
        dir: dir.clone(),
        max_bytes,
    }))
}

/// A size in bytes: digits, then K, M, G or T (powers of 1000), at least
/// 1000 bytes.
fn size(text: &str) -> Option<u64> {
    let (digits, unit) = match text.char_indices().last()? {
        (at, c) if c.is_ascii_alphabetic() => (&text[..at], c.to_ascii_uppercase()),
        _ => (text, 'B'),
    };
    let scale: u64 = match unit {
        'B' => 1,
        'K' => 1_000,
        'M' => 1_000_000,
        'G' => 1_000_000_000,
        'T' => 1_000_000_000_000,
        _ => return None,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let bytes = digits.parse::<u64>().ok()?.checked_mul(scale)?;
    (bytes >= 1_000).then_some(bytes)
}

/// `--fast`, `--optimal` or neither (clap refuses both at once).
fn length(raw: &RawArgs) -> Result<Length, UsageError> {
    if raw.optimal && raw.diff.is_some() {
        return Err(UsageError(
            "'--diff' cannot be used with '--optimal': forgetting positions would void the proof"
                .into(),
        ));
    }
    Ok(Length::asked(raw.fast, raw.optimal))
}

fn jobs(text: &str) -> Result<usize, UsageError> {
    match text.parse::<usize>() {
        Ok(n @ 1..=MAX_JOBS) => Ok(n),
        _ => Err(invalid(
            "--jobs <N>",
            text,
            &format!("expected a whole number of threads from 1 to {MAX_JOBS}"),
        )),
    }
}

/// At most what the visited set can index ([`MAX_STATES`]): a larger
/// limit would be met there, and the search would give up below the
/// number the user asked for.
fn max_states(text: &str) -> Result<u64, UsageError> {
    match text.parse::<u64>() {
        Ok(n) if (1..=MAX_STATES).contains(&n) => Ok(n),
        _ => Err(invalid(
            "--max-states <N>",
            text,
            &format!("expected a whole number of positions from 1 to {MAX_STATES}"),
        )),
    }
}

/// A positive, finite number of seconds that a [`Duration`] can hold
/// (under 2^64 s): `1e20` would not fit.
fn timeout(text: &str) -> Result<Duration, UsageError> {
    timeout_seconds(text).ok_or_else(|| invalid("--timeout <SECONDS>", text, TIMEOUT_EXPECTED))
}

/// A forgetting distance, in cards of score: 0 would forget every
/// position at once, and past 52 there is no score to be behind.
fn diff(text: &str) -> Result<u8, UsageError> {
    match text.parse::<u8>() {
        Ok(d @ 1..=52) => Ok(d),
        _ => Err(invalid(
            "--diff <D>",
            text,
            "expected a whole number of cards from 1 to 52",
        )),
    }
}

fn export(raw: &RawArgs) -> Result<Option<Export>, UsageError> {
    let at = match raw.xpat2_at.as_deref() {
        None | Some("start") => xpat2::At::Start,
        Some("end") => xpat2::At::End,
        Some(other) => {
            return Err(invalid(
                "--xpat2-at <WHERE>",
                other,
                "expected start or end",
            ));
        }
    };
    match &raw.xpat2 {
        Some(path) => Ok(Some(Export {
            path: file_name("--xpat2 <PATH>", path)?,
            at,
        })),
        None if raw.xpat2_at.is_some() => Err(UsageError(
            "'--xpat2-at' needs '--xpat2 PATH': it says where that save opens".into(),
        )),
        None => Ok(None),
    }
}

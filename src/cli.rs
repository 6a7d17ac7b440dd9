//! The command line: `xpat-solver RULE.SEED [-check FILE | -search FILE]`.
//!
//! Parsing, and mapping every outcome onto the exit protocol of SPEC §7:
//! the last stdout line is the verdict word, exit 0/1/2 carry it, and every
//! usage or file error is one line on stderr with exit 3 (never 2, which
//! test scripts read as INSOLUBLE).

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Parser;

use crate::cards::{Card, Name, card_of};
use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::rules::GameId;
use crate::search::{self, Limits, Outcome, Stats};
use crate::solution;
use crate::state::{FOUNDATION, Move, State};
use crate::xpat2;

/// Writes a line to stdout. A reader that went away (`xpat-solver … | head`)
/// is no error to report: the exit code still carries the verdict, where
/// `println!` would panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// Exit code for bad arguments and unreadable or unwritable files.
pub const EXIT_USAGE: u8 = 3;

const EXAMPLES: &str = "\
Games (long name or alias): FreeCell (fc), Seahaven (st), MidnightOil (mo),
BakersDozen (bd). Seeds run from 1 to 999999999, as in xpat2.

Examples:
  xpat-solver FreeCell.123456                 show the deal, normalized
  xpat-solver fc.123456 -search out.sol       solve it, write the moves to out.sol
  xpat-solver fc.123456 -check out.sol        replay a solution file
  xpat-solver st.35 -search st35.sol --timeout 10

Last line on stdout, and exit code:
  -check   SUCCES (0), ECHEC k (1): move k illegal, or not won after k-1 moves
  -search  SUCCES (0): solution written; ECHEC (1): a limit stopped the search;
           INSOLUBLE (2): the whole space was searched, no solution exists
  any      3: bad arguments or a file that cannot be read or written

A solution file has one move per line: CARD DEST, where CARD is 0..51
(rank = CARD/4 + 1, suit = CARD%4: 0 clubs, 1 spades, 2 hearts, 3 diamonds)
and DEST is the card it goes onto, V (an empty column) or T (a free cell).";

/// Solves and checks the card solitaires of xpat2, dealt exactly as xpat2
/// deals them.
#[derive(Parser, Debug)]
#[command(name = "xpat-solver", version, about, after_help = EXAMPLES)]
#[command(group = clap::ArgGroup::new("mode").args(["check", "search"]))]
pub struct Args {
    /// The deal: RULE.SEED, e.g. FreeCell.123456 or fc.123456
    #[arg(value_name = "RULE.SEED", value_parser = parse_game)]
    pub game: GameId,

    /// Replay the solution in FILE; last line SUCCES or ECHEC k
    #[arg(long, value_name = "FILE", conflicts_with = "search")]
    pub check: Option<PathBuf>,

    /// Search for a solution and write it to FILE; last line SUCCES, ECHEC or INSOLUBLE
    #[arg(long, value_name = "FILE")]
    pub search: Option<PathBuf>,

    /// Give up (ECHEC) after storing this many positions
    #[arg(long, value_name = "N", default_value_t = crate::search::DEFAULT_MAX_STATES, requires = "search")]
    pub max_states: u64,

    /// Give up (ECHEC) after this many seconds
    #[arg(long, value_name = "SECONDS", requires = "search")]
    pub timeout: Option<f64>,

    /// Forget positions D or more cards behind the best score seen (the
    /// course's forgetting distance); the search is then never a proof
    #[arg(long, value_name = "D", requires = "search")]
    pub diff: Option<u8>,

    /// Also write the solution as an xpat2 save file, to PATH or, if PATH is
    /// a directory, to xpat2's own name in it (FreeCell.000000123); watch it
    /// with `xpat2 FILE`
    #[arg(long, value_name = "PATH", requires = "mode")]
    pub xpat2: Option<PathBuf>,

    /// Where the xpat2 save opens: start (the deal, every move ready for
    /// Redo) or end (the won game; Undo steps back through the moves)
    #[arg(
        long,
        value_enum,
        value_name = "WHERE",
        default_value = "start",
        requires = "xpat2"
    )]
    pub xpat2_at: xpat2::At,
}

fn parse_game(text: &str) -> Result<GameId, String> {
    if text.matches('.').count() > 1 {
        return Err(format!(
            "'{text}' has more than one dot: expected RULE.SEED, e.g. FreeCell.123 or fc.123"
        ));
    }
    text.parse()
}

/// Test scripts write long options with one dash (`-check`, `-search`):
/// turn `-word` into `--word` before clap sees it. Single-letter flags
/// (`-h`, `-V`) are left alone.
fn normalize_dashes(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    args.into_iter()
        .map(|arg| match arg.to_str() {
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
            _ => arg,
        })
        .collect()
}

/// Parses the command line; `Err` carries the exit code after clap printed
/// help or the version (0), or after a usage error was reported as one line
/// on stderr (3).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, u8> {
    Args::try_parse_from(normalize_dashes(args)).map_err(|e| {
        if e.use_stderr() {
            eprintln!("xpat-solver: {}", one_line(&e.render().to_string()));
            EXIT_USAGE
        } else {
            let _ = e.print();
            0
        }
    })
}

const USAGE: &str = "usage: xpat-solver RULE.SEED [-check FILE | -search FILE] (see --help)";

/// Folds clap's several-line error into one line: its sentences up to the
/// usage block, then our usage line, so a script's log shows the whole
/// reason on the line it greps.
fn one_line(rendered: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for line in rendered.lines() {
        let line = line.trim();
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        match parts.last_mut() {
            // "...not provided:" is followed by the list of what is missing.
            Some(last) if last.ends_with(':') => {
                last.push(' ');
                last.push_str(line);
            }
            _ => parts.push(line.to_string()),
        }
    }
    parts.push(USAGE.to_string());
    parts.join("; ")
}

/// Runs the parsed command; returns the exit code of SPEC §7.
pub fn run(args: Args) -> u8 {
    let deal = Deal::new(args.game);
    let result = if let Some(file) = &args.check {
        run_check(&deal, file, &args)
    } else if let Some(file) = &args.search {
        run_search(&deal, file, &args)
    } else {
        say!("{}", show_initial(&deal).trim_end_matches('\n'));
        Ok(0)
    };
    result.unwrap_or_else(|e| {
        eprintln!("xpat-solver: {e:#}");
        EXIT_USAGE
    })
}

/// The normalized initial position as a person reads it: the foundation,
/// the registers, then the columns in xpat2's deal order (first column
/// first), each from its bottom card to its top card, every card by name
/// and by the number a solution file uses.
pub fn show_initial(deal: &Deal) -> String {
    use std::fmt::Write;
    const SUITS: [&str; 4] = ["♣", "♠", "♥", "♦"];
    let state = State::new(deal);
    let card = |c: Card| format!("{:>3}({c:>2})", Name(c));
    let plain = |c: Card| format!("{}({c})", Name(c));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: columns from bottom to top, card numbers in parentheses",
        deal.id
    );
    let _ = write!(out, "Foundation:");
    for (s, &height) in state.foundation().iter().enumerate() {
        let _ = match height {
            0 => write!(out, " {} -", SUITS[s]),
            h => write!(out, " {}", plain(card_of(h, s as u8))),
        };
    }
    let _ = match state.score() {
        1 => writeln!(out, "   (1 card)"),
        n => writeln!(out, "   ({n} cards)"),
    };
    if deal.id.rules.registers > 0 {
        let _ = write!(out, "Registers: ");
        for c in state.registers() {
            let _ = write!(out, " {}", plain(c));
        }
        for _ in 0..state.free_registers() {
            let _ = write!(out, " .");
        }
        let _ = writeln!(out);
    }
    // Normalization only ever takes a column's top card, so each column of
    // the position is its dealt column less the cards now on the foundation.
    for (i, dealt) in deal.columns.iter().enumerate() {
        let _ = write!(out, "{:>2}:", i + 1);
        let mut empty = true;
        for &c in dealt.iter().filter(|&&c| state.below(c) != FOUNDATION) {
            let _ = write!(out, " {}", card(c));
            empty = false;
        }
        let _ = writeln!(out, "{}", if empty { " (empty)" } else { "" });
    }
    out
}

fn run_check(deal: &Deal, file: &Path, args: &Args) -> Result<u8> {
    let bytes = std::fs::read(file)
        .with_context(|| format!("cannot read solution file '{}'", file.display()))?;
    let lines = solution::parse(&bytes);
    match check::replay(deal, &lines) {
        Verdict::Won { moves } => {
            say!("{} won in {moves} moves", deal.id);
            let moves: Vec<Move> = lines.iter().filter_map(|l| l.clone().ok()).collect();
            export_xpat2(deal, &moves, args)?;
            say!("SUCCES");
            Ok(0)
        }
        Verdict::Failed { line, why } => {
            say!("{why}");
            say!("ECHEC {line}");
            Ok(1)
        }
    }
}

fn run_search(deal: &Deal, file: &Path, args: &Args) -> Result<u8> {
    let timeout = match args.timeout {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => bail!("--timeout {t}: expected a positive number of seconds"),
    };
    // Refuse an unwritable destination before searching, not after.
    let dir = solution::directory_of(file);
    if !dir.is_dir() {
        bail!(
            "cannot write '{}': no directory '{}'",
            file.display(),
            dir.display()
        );
    }
    if file.is_dir() {
        bail!("cannot write '{}': it is a directory", file.display());
    }
    if let Some(path) = &args.xpat2 {
        let dir = solution::directory_of(path);
        if !path.is_dir() && !dir.is_dir() {
            bail!(
                "--xpat2 '{}': no directory '{}'",
                path.display(),
                dir.display()
            );
        }
    }
    let limits = Limits {
        max_states: args.max_states,
        timeout,
        diff: args.diff,
    };
    // One line, rewritten in place: the attempt of the portfolio under way
    // and what it holds, then the figures of the whole search.
    let mut show = |s: &Stats| {
        let secs = s.elapsed.as_secs_f64().max(1e-9);
        eprint!(
            "\r#{}: {} stored, {:.2}M expanded, frontier {}, best {}/52, {:.2}M/s, {}MB ",
            s.attempts,
            s.stored_now,
            s.expanded as f64 / 1e6,
            s.frontier,
            s.best_score,
            s.expanded as f64 / secs / 1e6,
            crate::memory::current().unwrap_or(0) >> 20
        );
    };
    let terminal = std::io::stderr().is_terminal();
    let report = search::search(deal, &limits, terminal.then_some(&mut show as _));
    if terminal {
        eprint!("\r{:90}\r", "");
    }
    let s = &report.stats;
    let peak = crate::memory::peak().unwrap_or(0);
    let summary = format!(
        "{}: {} positions stored, {} expanded, {:.3} s, {} search{}, peak memory {} MB for {} positions at once ({} B/position)",
        deal.id,
        s.stored,
        s.expanded,
        s.elapsed.as_secs_f64(),
        s.attempts,
        if s.attempts == 1 { "" } else { "es" },
        peak >> 20,
        s.peak_stored,
        peak / s.peak_stored.max(1)
    );
    match report.outcome {
        Outcome::Solved(moves) => {
            if let Verdict::Failed { why, .. } = check::replay_moves(deal, &moves) {
                bail!(
                    "internal error: the solution found does not replay ({why}); nothing written"
                );
            }
            solution::write_atomically(file, solution::format(&moves).as_bytes())?;
            say!(
                "{summary}, {} moves written to {}",
                moves.len(),
                file.display()
            );
            export_xpat2(deal, &moves, args)?;
            say!("SUCCES");
            Ok(0)
        }
        Outcome::Insoluble => {
            say!("{summary}: every reachable position searched");
            if !deal.id.rules.forced_foundation_is_exact() {
                say!(
                    "proof holds with forced foundation moves (every playable card goes up at once)"
                );
            }
            say!("INSOLUBLE");
            Ok(2)
        }
        Outcome::GaveUp(why) => {
            say!("{summary}: gave up, {why}; nothing written");
            say!("ECHEC");
            Ok(1)
        }
    }
}

/// `--xpat2`: writes a solution (already replayed and won) as an xpat2
/// save file, and says where, before the verdict line.
fn export_xpat2(deal: &Deal, moves: &[Move], args: &Args) -> Result<()> {
    if let Some(path) = &args.xpat2 {
        let written = xpat2::export(deal, moves, args.xpat2_at, path)?;
        let opens = match args.xpat2_at {
            xpat2::At::Start => "opens on the deal, Redo plays the moves",
            xpat2::At::End => "opens on the won game, Undo steps back",
        };
        say!(
            "xpat2 save written to {} ({opens}): xpat2 {}",
            written.display(),
            written.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Result<Args, clap::Error> {
        Args::try_parse_from(normalize_dashes(line.split(' ').map(OsString::from)))
    }

    #[test]
    fn one_and_two_dash_modes() {
        let a = args("x fc.7 -check a.sol").unwrap();
        assert_eq!(a.check, Some(PathBuf::from("a.sol")));
        let a = args("x FreeCell.7 --search b.sol --max-states 10").unwrap();
        assert_eq!((a.search, a.max_states), (Some(PathBuf::from("b.sol")), 10));
        let a = args("x st.7 -search b.sol -timeout 2.5").unwrap();
        assert_eq!(a.timeout, Some(2.5));
    }

    #[test]
    fn refuses_bad_combinations() {
        assert!(args("x fc.7 -check a -search b").is_err());
        assert!(args("x fc.7 --max-states 5").is_err());
        assert!(args("x fc.0").is_err());
        assert!(args("x").is_err());
    }

    #[test]
    fn xpat2_export_options() {
        let a = args("x fc.7 -check a.sol --xpat2 out").unwrap();
        assert_eq!(
            (a.xpat2, a.xpat2_at),
            (Some(PathBuf::from("out")), xpat2::At::Start)
        );
        let a = args("x fc.7 -search a.sol -xpat2 out -xpat2-at end").unwrap();
        assert_eq!(a.xpat2_at, xpat2::At::End);
        assert!(
            args("x fc.7 --xpat2 out").is_err(),
            "needs -check or -search"
        );
        assert!(args("x fc.7 -check a.sol --xpat2-at end").is_err());
        assert!(args("x fc.7 -check a.sol --xpat2 o --xpat2-at middle").is_err());
    }
}

//! `-search FILE`: check the outputs can be written, search with a
//! progress line, then turn the outcome into its verdict and exit code.

use std::io::IsTerminal;
use std::path::Path;

use anyhow::{Result, bail};

use super::options::Export;
use super::output::{Shown, note};
use super::{EXIT_ECHEC, EXIT_INSOLUBLE, EXIT_SUCCES, export};
use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::rules::GameId;
use crate::search::{self, Length, Limit, Limits, Outcome, Report, Stats};
use crate::solution;
use crate::state::Move;

/// Searches the deal; the exit code of SPEC §7.
pub(super) fn run(
    deal: &Deal,
    file: &Path,
    limits: &Limits,
    export: Option<&Export>,
) -> Result<u8> {
    preflight(file, export)?;
    let report = search_with_progress(deal, limits);
    let summary = summary(deal.id, &report.stats);
    match report.outcome {
        Outcome::Solved(moves) => {
            let proven = limits.length == Length::Optimal;
            solved(deal, &moves, file, export, &summary, proven)
        }
        Outcome::Insoluble => insoluble(deal.id, &summary),
        Outcome::GaveUp(limit) => gave_up(limit, &summary),
    }
}

/// Refuses an output that cannot be written before searching, not after.
fn preflight(file: &Path, export: Option<&Export>) -> Result<()> {
    let dir = solution::directory_of(file);
    if !dir.is_dir() {
        bail!(
            "cannot write '{}': no directory '{}'",
            Shown(file),
            Shown(dir)
        );
    }
    if file.is_dir() {
        bail!("cannot write '{}': it is a directory", Shown(file));
    }
    if let Some(Export { path, .. }) = export {
        let dir = solution::directory_of(path);
        if !path.is_dir() && !dir.is_dir() {
            bail!("--xpat2 '{}': no directory '{}'", Shown(path), Shown(dir));
        }
    }
    Ok(())
}

/// The search, with its progress line on stderr when that is a terminal.
fn search_with_progress(deal: &Deal, limits: &Limits) -> Report {
    if !std::io::stderr().is_terminal() {
        return search::search(deal, limits, None);
    }
    let mut show = |stats: &Stats| note(format_args!("\r{}", progress(stats)));
    let report = search::search(deal, limits, Some(&mut show as _));
    note(format_args!("\r{:90}\r", ""));
    report
}

/// One line, rewritten in place: the attempt of the portfolio under way
/// and what it holds, then the figures of the whole search.
fn progress(s: &Stats) -> String {
    let secs = s.elapsed.as_secs_f64().max(1e-9);
    format!(
        "#{}: {} stored, {:.2}M expanded, frontier {}, best {}/52, {:.2}M/s, {}MB ",
        s.attempts,
        s.stored_now,
        s.expanded as f64 / 1e6,
        s.frontier,
        s.best_score,
        s.expanded as f64 / secs / 1e6,
        crate::memory::current().unwrap_or(0) >> 20
    )
}

/// The figures of a finished search, for the line before the verdict.
fn summary(id: GameId, s: &Stats) -> String {
    let peak = crate::memory::peak().unwrap_or(0);
    format!(
        "{id}: {} positions stored, {} expanded, {:.3} s, {} search{}, peak memory {} MB for {} positions at once ({} B/position)",
        s.stored,
        s.expanded,
        s.elapsed.as_secs_f64(),
        s.attempts,
        if s.attempts == 1 { "" } else { "es" },
        peak >> 20,
        s.peak_stored,
        peak / s.peak_stored.max(1)
    )
}

/// Writes a solution, replayed first so nothing wrong is ever written;
/// `optimal` when it is proven shortest.
fn solved(
    deal: &Deal,
    moves: &[Move],
    file: &Path,
    export: Option<&Export>,
    summary: &str,
    optimal: bool,
) -> Result<u8> {
    if let Verdict::Failed { why, .. } = check::replay_moves(deal, moves) {
        bail!("internal error: the solution found does not replay ({why}); nothing written");
    }
    solution::write_atomically(file, solution::format(moves).as_bytes())?;
    say!(
        "{summary}, {} moves written to {}{}",
        moves.len(),
        Shown(file),
        if optimal {
            ", optimal: no solution is shorter"
        } else {
            ""
        }
    )?;
    export::write(deal, moves, export)?;
    say!("SUCCES")?;
    Ok(EXIT_SUCCES)
}

/// Every reachable position searched: a proof, with forced foundation
/// moves where the rules make that a restriction (SPEC §7).
fn insoluble(id: GameId, summary: &str) -> Result<u8> {
    say!("{summary}: every reachable position searched")?;
    if !id.rules.forced_foundation_is_exact() {
        say!("proof holds with forced foundation moves (every playable card goes up at once)")?;
    }
    say!("INSOLUBLE")?;
    Ok(EXIT_INSOLUBLE)
}

fn gave_up(limit: Limit, summary: &str) -> Result<u8> {
    say!("{summary}: gave up, {limit}; nothing written")?;
    say!("ECHEC")?;
    Ok(EXIT_ECHEC)
}

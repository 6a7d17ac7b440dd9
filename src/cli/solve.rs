//! `-search FILE`: check the outputs can be written, search with a
//! progress line, then turn the outcome into its verdict and exit code.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use anyhow::{Result, bail};

use super::files::Files;
use super::options::Export;
use super::output::{Shown, note};
use super::start::Start;
use super::{EXIT_ECHEC, EXIT_INSOLUBLE, EXIT_SUCCES, export, page};
use xpat_solver::check::Verdict;
use xpat_solver::foundation::Foundation;
use xpat_solver::rules::GameId;
use xpat_solver::search::components::{self, Answer, Cuts, Expansion};
use xpat_solver::search::layered::{self, Spill};
use xpat_solver::search::{
    self, BYTES_PER_POSITION, Length, Limit, Limits, MAX_STATES, Outcome, Report, Stats,
};
use xpat_solver::state::Move;

/// The outputs of a search as the user named them: the solution file, and
/// what else to write.
pub(super) struct Outputs<'a> {
    pub file: &'a Path,
    pub export: Option<&'a Export>,
    pub html: Option<&'a Path>,
    /// `--spill DIR`: where the layers past the state limit go.
    pub spill: Option<&'a Spill>,
    /// `--components`: Baker's Dozen searched a component at a time, its
    /// moves out found as this says.
    pub components: Option<Expansion>,
}

/// Searches from the start (the deal, or a player's position); the exit
/// code of SPEC §7.
pub(super) fn run(start: &Start, limits: &Limits, out: &Outputs) -> Result<u8> {
    // A spill directory this search makes is removed again when the
    // search leaves nothing in it (decided before or within the layers).
    let made_spill_dir = out.spill.is_some_and(|s| !s.dir.exists());
    if let Some(spill) = out.spill {
        layered::check(&start.deal, spill).map_err(anyhow::Error::msg)?;
    }
    if out.components.is_some()
        && let Some(why) = components::refusal(&start.deal)
    {
        bail!(why);
    }
    let files = Files::for_search(start, out.file, out.export, out.html)?;
    start.introduce()?;
    let deal = &start.deal;
    let same_suit = deal.id.rules.forced_foundation_is_exact();
    if deal.foundation == Foundation::Free && same_suit {
        say!(
            "{}: free and forced foundation moves are the same game here (same-suit building: a card that can go up can never hold another); searched with forced moves, every one written out",
            deal.id.rules.name
        )?;
    }
    if deal.foundation == Foundation::Xpat2 && same_suit {
        say!(
            "{}: under xpat2's rules no card ever needs to come back from the foundation here (same-suit building: a card back could hold only one already up); searched with forced moves, every one written out",
            deal.id.rules.name
        )?;
    }
    let mut listed = None;
    let (report, stopped) = match out.spill {
        None if let Some(expansion) = out.components => {
            match search_components(start, limits, expansion) {
                Answer::Components(searched) => {
                    listed = Some((searched.listed, searched.cut));
                    (searched.report, searched.stopped)
                }
                Answer::FirstLook(look) => {
                    say!(
                        "{}: decided by the usual search's first look",
                        start.deal.id
                    )?;
                    (look, None)
                }
                Answer::Rollouts(won) => {
                    say!("{}: won by nested rollouts", start.deal.id)?;
                    (won, None)
                }
            }
        }
        None => (search_with_progress(start, limits), None),
        Some(spill) => {
            let spilled = search_spilling(start, limits, spill);
            if made_spill_dir {
                // Fails, as wanted, when the layers left files to resume.
                let _ = std::fs::remove_dir(&spill.dir);
            }
            let spilled = spilled?;
            (spilled.report, spilled.stopped)
        }
    };
    let summary = match listed {
        Some((listed, cut)) => components_summary(start.deal.id, &report.stats, listed, cut),
        None => summary(start.deal.id, &report.stats),
    };
    if let Some(why) = stopped {
        say!("{summary}: gave up, {why}; nothing written")?;
        say!("ECHEC")?;
        return Ok(EXIT_ECHEC);
    }
    match report.outcome {
        Outcome::Solved(moves) => {
            let proven = limits.length == Length::Optimal;
            solved(start, &moves, files, out.file, &summary, proven)
        }
        Outcome::Insoluble => insoluble(start, &summary, &report.stats),
        Outcome::GaveUp(limit) => gave_up(limit, &summary, limits.max_states),
    }
}

/// The search, with its progress line on stderr when that is a terminal.
fn search_with_progress(start: &Start, limits: &Limits) -> Report {
    with_progress(|progress| start.search(limits, progress))
}

/// The search with `--components`, from the start's position, with the
/// usual progress line (its positions stored are names).
fn search_components(start: &Start, limits: &Limits, expansion: Expansion) -> Answer {
    let position = start
        .state()
        .expect("--components is refused where the start is no position");
    with_progress(|progress| {
        components::search_after_first_look(&start.deal, &position, limits, expansion, progress)
    })
}

/// Runs `search` with a progress line on stderr: rewritten in place and
/// cleared at the end when that is a terminal, else (a log) written whole
/// every [`LOGGED_EVERY`].
fn with_progress<R>(search: impl FnOnce(Option<search::Progress>) -> R) -> R {
    if !std::io::stderr().is_terminal() {
        let mut every = Every::new(LOGGED_EVERY);
        let mut log = |stats: &Stats| {
            if every.due(stats.elapsed) {
                let secs = stats.elapsed.as_secs();
                note(format_args!("{secs} s: {}\n", progress(stats).trim_end()));
            }
        };
        return search(Some(&mut log as _));
    }
    let mut show = |stats: &Stats| note(format_args!("\r{}", progress(stats)));
    let result = search(Some(&mut show as _));
    note(format_args!("\r{:90}\r", ""));
    result
}

/// How often a search whose stderr is no terminal writes its progress:
/// a long proof run into a log (bd.1649 through `-search`, 53 minutes)
/// said nothing until its verdict.
const LOGGED_EVERY: Duration = Duration::from_secs(60);

/// A line every so often: due first at `every`, then at least `every`
/// after the last one written (a search that stalls does not owe lines).
pub(super) struct Every {
    every: Duration,
    next: Duration,
}

impl Every {
    pub(super) fn new(every: Duration) -> Every {
        Every { every, next: every }
    }

    /// Whether a line is due at `elapsed`; if so, the next is later.
    pub(super) fn due(&mut self, elapsed: Duration) -> bool {
        let due = elapsed >= self.next;
        if due {
            self.next = elapsed + self.every;
        }
        due
    }
}

/// The search with `--spill`: the usual one's progress line as
/// [`search_with_progress`] shows it, then a line per completed layer,
/// and the layer under way's figures rewritten in place.
fn search_spilling(start: &Start, limits: &Limits, spill: &Spill) -> Result<layered::Spilled> {
    let terminal = std::io::stderr().is_terminal();
    let mut show = |stats: &Stats| note(format_args!("\r{}", progress(stats)));
    let progress = terminal.then_some(&mut show as search::Progress);
    let mut tell = |f: &layered::Figures| {
        let line = format!(
            "layer {}{}: {} positions, {:.2}M expanded, at most {} at once, {:.2} GB on disk, {:.0} s",
            f.layer,
            if f.done { " done" } else { "" },
            f.positions,
            f.expanded as f64 / 1e6,
            f.largest,
            f.disk as f64 / 1e9,
            f.elapsed.as_secs_f64()
        );
        match (f.done, terminal) {
            (true, true) => note(format_args!("\r{line:90}\n")),
            (true, false) => note(format_args!("{line}\n")),
            (false, true) => note(format_args!("\r{line} ")),
            (false, false) => {}
        }
    };
    let spilled = layered::search(&start.deal, limits, spill, progress, &mut tell);
    if terminal {
        note(format_args!("\r{:90}\r", ""));
    }
    spilled.map_err(anyhow::Error::msg)
}

/// One progress line: the attempt of the portfolio under way and what it
/// holds, then the figures of the whole search; or, while the suitless
/// game is searched in layers, its positions and entries waiting.
pub(super) fn progress(s: &Stats) -> String {
    let secs = s.elapsed.as_secs_f64().max(1e-9);
    let memory = xpat_solver::memory::current().unwrap_or(0) >> 20;
    if s.suitless > 0 {
        let unsaved = match &s.unsaved {
            Some(why) => format!("(not saved: {why}) "),
            None => String::new(),
        };
        return format!(
            "suitless game: {:.2}M positions, {:.2}M waiting, {:.2}M/s, {memory}MB {unsaved}",
            s.suitless as f64 / 1e6,
            s.frontier as f64 / 1e6,
            s.suitless as f64 / secs / 1e6,
        );
    }
    format!(
        "#{}: {} stored, {:.2}M expanded, frontier {}, best {}/52, {:.2}M/s, {}MB ",
        s.attempts,
        s.stored_now,
        s.expanded as f64 / 1e6,
        s.frontier,
        s.best_score,
        s.expanded as f64 / secs / 1e6,
        memory
    )
}

/// Positions held at once from which the summary gives the memory per
/// position: below, the process's fixed few MB would dominate the figure
/// (17 positions in 3 MB is not 196 608 B a position).
const PER_POSITION_FROM: u64 = 1_000_000;

/// The figures of a finished search, for the line before the verdict.
fn summary(id: GameId, s: &Stats) -> String {
    let peak = xpat_solver::memory::peak().unwrap_or(0);
    let per_position = if s.peak_stored >= PER_POSITION_FROM {
        format!(" ({} B/position)", peak / s.peak_stored)
    } else {
        String::new()
    };
    format!(
        "{id}: {} positions stored, {} expanded{}, {:.3} s, {} search{}, peak memory {} MB for {} positions at once{per_position}",
        s.stored,
        s.expanded,
        suitless_positions(s),
        s.elapsed.as_secs_f64(),
        s.attempts,
        if s.attempts == 1 { "" } else { "es" },
        peak >> 20,
        s.peak_stored,
    )
}

/// The summary of a `--components` search: names stored, components
/// expanded, positions listed, components the triple test and the
/// suitless game cut (those that cut some), time and memory.
fn components_summary(id: GameId, s: &Stats, listed: u64, cut: Cuts) -> String {
    let peak = xpat_solver::memory::peak().unwrap_or(0);
    let components = |n| if n == 1 { "component" } else { "components" };
    let cut = match (cut.triples, cut.suitless) {
        (0, 0) => String::new(),
        (t, 0) => format!(", {t} {} cut by the triple test", components(t)),
        (0, g) => format!(", {g} {} cut by the suitless game", components(g)),
        (t, g) => format!(
            ", {t} {} cut by the triple test, {g} by the suitless game",
            components(t)
        ),
    };
    format!(
        "{id}: {} component names stored, {} components expanded, {} positions listed{}{cut}, {:.3} s, peak memory {} MB",
        s.stored,
        s.expanded,
        listed,
        suitless_positions(s),
        s.elapsed.as_secs_f64(),
        peak >> 20,
    )
}

/// The suitless positions a proof searched, for a summary: nothing
/// where none were.
fn suitless_positions(s: &Stats) -> String {
    match s.suitless {
        0 => String::new(),
        n => format!(", {n} suitless positions"),
    }
}

/// Writes a solution, replayed first so nothing wrong is ever written;
/// `optimal` when it is proven shortest.
fn solved(
    start: &Start,
    moves: &[Move],
    files: Files,
    file: &Path,
    summary: &str,
    optimal: bool,
) -> Result<u8> {
    let lines = moves
        .iter()
        .map(|&mv| Ok::<_, std::convert::Infallible>(Ok(mv)));
    let Ok(verdict) = start.replay(lines);
    if let Verdict::Failed { why, .. } = verdict {
        bail!("internal error: the solution found does not replay ({why}); nothing written");
    }
    let published = files.publish(start, moves)?;
    let from = match (&start.player, start.deal.foundation) {
        (None, _) => String::new(),
        (Some(_), Foundation::Forced) => {
            " (the rest of the player's game: -check it with --from-xpat2)".to_string()
        }
        (Some(_), rules) => {
            format!(" (the rest of the player's game: -check it with --from-xpat2 --rules {rules})")
        }
    };
    say!(
        "{summary}, {} moves written to {}{}{from}",
        moves.len(),
        Shown(file),
        if optimal {
            ", optimal: no solution is shorter"
        } else {
            ""
        }
    )?;
    export::say_written(start, published.save)?;
    page::say_written(start, published.page, moves.len())?;
    say!("SUCCES")?;
    Ok(EXIT_SUCCES)
}

/// Every reachable position searched: a proof, with forced foundation
/// moves where the rules make that a restriction (SPEC §7); under free
/// rules, a proof in xpat2's own game (SPEC §9). From a player's
/// position, the proof is that there is no win from there. The proof
/// may be another's, as `stats` say: the suitless game's (lost in its
/// own game), a test's of the start (the pair or the triple test), or
/// the pruning's, where the start itself is a dead end (nothing
/// expanded).
fn insoluble(start: &Start, summary: &str, stats: &Stats) -> Result<u8> {
    let id = start.deal.id;
    if stats.followed != 0 {
        say!(
            "{summary}: lost in its suitless game with the {} followed, the suits of the other moved cards forgotten: every play of the deal is a play of that game, and none of them wins (docs/rules-and-proofs.md)",
            xpat_solver::cards::CardSet(stats.followed)
        )?;
    } else if stats.suitless > 0 {
        say!(
            "{summary}: lost in its suitless game, the suits of moved cards forgotten: every play of the deal is a play of that game, and none of them wins (docs/rules-and-proofs.md)"
        )?;
    } else if stats.proven_by_test {
        say!(
            "{summary}: lost from the start, proven by a test of the start, not by a search of every position (no play can bring every card up: docs/rules-and-proofs.md)"
        )?;
    } else if stats.expanded == 0 {
        // The start itself was pruned: no position was searched.
        let start = if start.player.is_some() {
            "no win from here: the player's position"
        } else {
            "lost from the start: the deal"
        };
        say!(
            "{summary}: {start} is a dead end by the rules the search prunes every position by (dead runs, stuck cards and what follows from them: src/state/lost.rs), not by a search of every position"
        )?;
    } else if start.player.is_some() {
        say!(
            "{summary}: every position reachable from the player's position searched: no win from here"
        )?;
    } else {
        say!("{summary}: every reachable position searched")?;
    }
    if start.deal.foundation == Foundation::Forced && !id.rules.forced_foundation_is_exact() {
        say!("proof holds with forced foundation moves (every playable card goes up at once)")?;
    }
    if start.deal.foundation == Foundation::Xpat2 {
        say!(
            "proof holds under xpat2's complete rules (foundation moves the player's, cards back from the foundation)"
        )?;
    }
    say!("INSOLUBLE")?;
    Ok(EXIT_INSOLUBLE)
}

fn gave_up(limit: Limit, summary: &str, max_states: u64) -> Result<u8> {
    say!("{summary}: gave up, {limit}; nothing written")?;
    if let Some(hint) = more_room(limit, max_states) {
        say!("{hint}")?;
    }
    say!("ECHEC")?;
    Ok(EXIT_ECHEC)
}

/// What a search stopped by its state limit could still be given: the
/// default limit is well below what the visited set indexes, and some
/// deals are decided only past it (Baker's Dozen 1865, proven lost with
/// 62 M positions at once; 258459252, won after 81 M). `None` for other
/// limits, or when the search already had the most.
fn more_room(limit: Limit, max_states: u64) -> Option<String> {
    (limit == Limit::States && max_states < MAX_STATES).then(|| {
        let gb = (MAX_STATES * BYTES_PER_POSITION) as f64 / 1e9;
        format!(
            "more positions may decide it: --max-states up to {MAX_STATES} (at most {gb:.1} GB)"
        )
    })
}

#[cfg(test)]
mod more_room_tests {
    use super::*;

    #[test]
    fn only_a_search_stopped_below_the_most_positions_is_told_it_may_have_more() {
        let hint = more_room(Limit::States, 50_000_000).expect("below the most");
        assert!(
            hint.contains(&format!("--max-states up to {MAX_STATES}")),
            "{hint}"
        );
        assert_eq!(more_room(Limit::States, MAX_STATES), None);
        for other in [
            Limit::Time,
            Limit::Memory,
            Limit::Cancelled,
            Limit::Forgotten,
        ] {
            assert_eq!(more_room(other, 10), None, "{other:?}");
        }
    }
}

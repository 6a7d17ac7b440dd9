//! `-search --spill DIR`: when the usual search gives up at its
//! `--max-states`, an exhaustive search goes on in layers, the layers not
//! yet searched kept on disk, so that a proof is no longer bounded by the
//! positions memory holds at once but by the largest layer.
//!
//! # The layers
//!
//! A position's key codes each card by what lies below it: ORIGINAL (the
//! card it was dealt on, when that card is not one rank higher), the
//! floor, a register, the foundation, or a card one rank higher of some
//! suit. Let
//!
//! μ = (cards not coded ORIGINAL) + (cards on the foundation),
//!
//! the second term only where no card ever comes back from the foundation
//! (forced and free rules, and xpat2's rules in the games without returns;
//! under xpat2's complete rules with returns, μ is the first term alone).
//! No move lowers μ:
//!
//! - Every single move changes what lies below one card, the card moved,
//!   so only that card's code can change. Compound moves (a sequence moved
//!   through free cells and empty columns, a dig) are such moves one after
//!   another, and the automatic foundation moves a search's positions play
//!   after a move are single foundation moves.
//! - A card coded ORIGINAL lies on a card not one rank higher: in every
//!   game here a move builds a card only on a card one rank higher (any
//!   suit, alternate colours or its own suit, by the game) or puts it on
//!   the floor, in a register or on the foundation. So no move ever puts a
//!   card back on a host coded ORIGINAL: the first term never decreases,
//!   and it grows by one when a card leaves its dealt host.
//! - Where no card comes back from the foundation, a card on the
//!   foundation stays there: the second term never decreases either, and
//!   every foundation move adds one. Where cards come back, a return moves
//!   a card from the foundation (not ORIGINAL) onto a card one rank higher
//!   (not ORIGINAL): the first term is unchanged.
//! - Every other move (a card from one host to another, from a register
//!   to a column, Baker's Dozen's moves between kings' columns) moves a
//!   card that is not ORIGINAL to a place that is not: μ is unchanged.
//!
//! Midnight Oil under xpat2's complete rules is left out: its redeals
//! gather and deal the cards again, so "the card it was dealt on" changes
//! and μ can fall. Its positions are not [`State`]s, and `--spill` refuses
//! it.
//!
//! So the reachable positions fall into layers by μ (0 to 104), and every
//! move goes to the same layer or a higher one. The layers are searched in
//! increasing μ; only the current layer's visited set is in memory, and
//! the children of higher layers are appended to their layer's file (see
//! `store`). A layer is complete when its file's positions and all they
//! reach within it are expanded: every position of a later layer was
//! appended by then, since its parent lies in a lower layer. When every
//! layer is done with no won position, every reachable position not lost
//! (the same sound tests as the usual search's) was expanded: a proof.
//! A won position's path is found back through the layers' files, each
//! record holding its parent's key (see `layers`).
//!
//! Positions spread over both terms, so a layer holds a small share of the
//! space (see docs/spill.md for the figures). A layer larger than
//! `--max-states` stops the search (splitting a layer across disk by the
//! hash of its keys is a later step).

mod layers;
mod manifest;
mod measure;
mod record;
mod store;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use self::layers::{End, Layers};
use self::manifest::{Manifest, read_manifest};
use self::record::no_key;
use self::store::{Full, Store};
use super::complete_rules::a_card_back_can_help;
use super::{Length, Limit, Limits, Outcome, Progress, Report, Stats, path, search_from, shorten};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::state::{KeyDecoder, State};

pub use self::manifest::MANIFEST;

/// The default of `--spill-max`: 50 GB, what a proof of the hardest Baker's
/// Dozen deals may take, well within a disk of some hundreds.
pub const DEFAULT_SPILL_MAX: u64 = 50_000_000_000;

/// Where and how much a layered search may spill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spill {
    /// The directory of the layer files and the manifest (`--spill`).
    pub dir: PathBuf,
    /// The most bytes its files may hold (`--spill-max`).
    pub max_bytes: u64,
}

/// A layered search's progress: the layer under way (or just completed)
/// and the search's figures.
#[derive(Clone, Debug)]
pub struct Figures {
    /// The layer: its measure μ.
    pub layer: usize,
    /// Positions of the layer stored so far.
    pub positions: u64,
    /// Positions expanded by the layered search in all.
    pub expanded: u64,
    /// The most positions one pass over a layer's cells held at once.
    pub largest: u64,
    /// Bytes in the spill's files.
    pub disk: u64,
    /// Time spent in the layers, earlier runs of a resumed search counted.
    pub elapsed: Duration,
    /// The layer is complete (its manifest written).
    pub done: bool,
}

/// The outcome of a search with `--spill`, and when it stopped in its
/// layers, why, in a line.
pub struct Spilled {
    /// The outcome and figures of the whole search, the usual one's too.
    pub report: Report,
    /// Why the layers stopped, when a limit stopped them.
    pub stopped: Option<String>,
}

/// The file in the spill directory where the usual search's proof by the
/// suitless game (Baker's Dozen) saves its layers and resumes from
/// (`Limits::suitless_checkpoint`).
pub const SUITLESS_CHECKPOINT: &str = "xpat-spill-suitless-checkpoint";

/// Whether a search of `deal` may spill to `spill.dir`: the directory
/// exists (made if need be), and any manifest in it is of this deal and
/// these rules. `Err` says why not, in a line.
pub fn check(deal: &Deal, spill: &Spill) -> Result<(), String> {
    // Midnight Oil under the complete rules (`crate::midnight::plays`,
    // spelt here: the search module does not lean on midnight, which leans
    // on it).
    if deal.foundation == Foundation::Xpat2 && deal.id.rules.redeals > 0 {
        return Err("'--spill' does not search Midnight Oil under xpat2's complete rules: its redeals deal the cards anew, so its positions do not fall into layers; leave out --spill, or use --rules forced or free".into());
    }
    let dir = &spill.dir;
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "the spill directory {} is not a directory",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot make the spill directory {}: {e}", dir.display()))?;
    // Written to before the usual search, not after it (a directory the
    // layers could not write in was found only once that had run).
    crate::output::temp_file_named()
        .tempfile_in(dir)
        .map_err(|e| {
            let e = crate::output::system_reason(&e);
            format!("cannot write in the spill directory {}: {e}", dir.display())
        })?;
    if let Some(m) = read_manifest(dir)?
        && (m.deal != deal.id.to_string() || m.rules != deal.foundation.name())
    {
        return Err(format!(
            "{} holds the spill of another search ({} under {} rules): use another directory, or remove its {MANIFEST} and layer files",
            dir.display(),
            m.deal,
            m.rules
        ));
    }
    Ok(())
}

/// [`super::search`] of the deal, going on in layers on disk when the
/// usual search gives up at its state limit; resumes from the manifest in
/// the directory (checked first by [`check`]). `tell` hears the layers'
/// progress. `Err` on a file that cannot be read or written.
pub fn search(
    deal: &Deal,
    limits: &Limits,
    spill: &Spill,
    mut progress: Option<Progress>,
    tell: &mut dyn FnMut(&Figures),
) -> Result<Spilled, String> {
    // Baker's Dozen's suitless proofs of hours save themselves here too.
    let limits = &Limits {
        suitless_checkpoint: Some(spill.dir.join(SUITLESS_CHECKPOINT)),
        suitless_checkpoint_most: spill.max_bytes,
        ..limits.clone()
    };
    let deadline = limits.timeout.map(|t| Instant::now() + t);
    let manifest = read_manifest(&spill.dir)?;
    let rules = deal.foundation.name();
    let complete = deal.foundation == Foundation::Xpat2 && deal.id.rules.returns_from_foundation;
    if !complete {
        let usual = Usual::Then(progress);
        return phase(deal, rules, limits, deadline, spill, manifest, usual, tell);
    }
    // Free play first, as the usual search does (`complete_rules`): a
    // manifest of the complete game says free play was proven lost.
    let free = Deal {
        foundation: Foundation::Free,
        ..deal.clone()
    };
    let free_done = manifest.as_ref().is_some_and(|m| m.phase == rules);
    let mut first = None;
    if !free_done {
        let lent = progress.as_mut().map(|p| &mut **p as Progress);
        let usual = Usual::Then(lent);
        let found = phase(
            &free,
            rules,
            limits,
            deadline,
            spill,
            manifest.clone(),
            usual,
            tell,
        )?;
        if found.report.outcome != Outcome::Insoluble || !a_card_back_can_help(deal) {
            return Ok(found);
        }
        first = Some(found.report.stats);
    }
    let manifest = read_manifest(&spill.dir)?;
    let usual = Usual::Then(progress);
    let mut second = phase(deal, rules, limits, deadline, spill, manifest, usual, tell)?;
    if let Some(first) = first {
        second.report.stats = first.followed_by(&second.report.stats);
    }
    Ok(second)
}

/// Whether a phase starts with the usual search.
enum Usual<'a> {
    /// The usual search first (with its progress), the layers only when it
    /// gives up at its state limit.
    Then(Option<Progress<'a>>),
    /// The layers straight away, the whole `--max-states` for each: the
    /// tests' way to search small deals in layers.
    #[cfg(test)]
    Skipped,
}

/// One search of `deal` (under xpat2's complete rules, one of the two):
/// the usual search, then the layers; or the layers alone, resumed from
/// `manifest` when it is this phase's.
#[allow(clippy::too_many_arguments)]
fn phase(
    deal: &Deal,
    rules: &str,
    limits: &Limits,
    deadline: Option<Instant>,
    spill: &Spill,
    manifest: Option<Manifest>,
    usual: Usual,
    tell: &mut dyn FnMut(&Figures),
) -> Result<Spilled, String> {
    let root = State::new(deal);
    let name = deal.foundation.name();
    let io = |e: std::io::Error| format!("spill directory {}: {e}", spill.dir.display());
    let (usual, store, manifest) = match manifest.filter(|m| m.phase == name) {
        Some(m) => {
            let mut store =
                Store::at(&spill.dir, spill.max_bytes, m.lengths.clone()).map_err(io)?;
            store.count_parts(m.next, &m.passes).map_err(io)?;
            (Stats::default(), store, m)
        }
        None => {
            let report = match usual {
                Usual::Then(progress) => search_from(deal, &root, limits, progress),
                #[cfg(test)]
                Usual::Skipped => Report {
                    outcome: Outcome::GaveUp(Limit::States),
                    stats: Stats::default(),
                },
            };
            if report.outcome != Outcome::GaveUp(Limit::States) {
                return Ok(Spilled {
                    report,
                    stopped: None,
                });
            }
            let mut store = Store::fresh(&spill.dir, spill.max_bytes).map_err(io)?;
            if root.is_blocked_for_good() {
                return Ok(Spilled {
                    report: Report {
                        outcome: Outcome::Insoluble,
                        stats: report.stats,
                    },
                    stopped: None,
                });
            }
            let first = measure::measure(&root);
            store
                .append(first, &root.key(), &no_key())
                .map_err(|full| match full {
                    Full::Disk => format!("--spill-max leaves no room in {}", spill.dir.display()),
                    Full::Io(e) => format!("cannot write in {}: {e}", spill.dir.display()),
                })?;
            let manifest = Manifest {
                deal: deal.id.to_string(),
                rules: rules.to_string(),
                phase: name.to_string(),
                next: first,
                passes: Vec::new(),
                expanded: 0,
                stored: 0,
                seconds: 0.0,
                lengths: store.lengths().to_vec(),
            };
            store.write_manifest(&manifest).map_err(io)?;
            (report.stats, store, manifest)
        }
    };
    let limits_left = Limits {
        timeout: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        ..limits.clone()
    };
    let mut layers = Layers::new(
        &root,
        KeyDecoder::new(deal),
        &limits_left,
        deadline,
        store,
        manifest,
        tell,
    );
    let end = layers.run().map_err(io)?;
    let stats = usual.followed_by(&layers.stats());
    let store = layers.into_store();
    let (outcome, stopped) = match end {
        End::Stopped(limit, why) => {
            return Ok(Spilled {
                report: Report {
                    outcome: Outcome::GaveUp(limit),
                    stats,
                },
                stopped: Some(why),
            });
        }
        End::Decided(outcome) => (outcome, None),
    };
    store.remove_all().map_err(io)?;
    let report = Report { outcome, stats };
    Ok(Spilled {
        report: written_out(deal, &root, &limits_left, report),
        stopped,
    })
}

/// A solution found in the layers, made shorter as the usual search's
/// are, then written out as the deal's file form writes it.
fn written_out(deal: &Deal, root: &State, limits: &Limits, report: Report) -> Report {
    let Report { outcome, stats } = report;
    let Outcome::Solved(moves) = outcome else {
        return Report { outcome, stats };
    };
    let moves = path::shorten(root, moves);
    let mut report = Report {
        outcome: Outcome::Solved(moves),
        stats,
    };
    if limits.length == Length::Shortened {
        report = shorten::after(deal, root, limits, report);
    }
    if let Outcome::Solved(moves) = &mut report.outcome {
        *moves = crate::state::written_out(deal, moves);
    }
    report
}

//! `-search` of Midnight Oil under the complete rules: the same
//! score-bucketed best-first search as the other games' (positions grouped
//! by cards on the foundation, the highest first, the newest first within
//! a bucket) over a visited set of [`Key`]s, on its own positions, the
//! [`Table`]s, whose column order the other games' search does not keep.
//!
//! A quick attempt plays every card up at once (no proof); then, when it
//! fails, the complete one, where nothing is cut: every move of every
//! position stored is tried, so an emptied frontier is a proof
//! (`INSOLUBLE`). Its positions play cards up by themselves only once no
//! redeal is left, where the proof in [`Table`] shows it loses nothing; a
//! solution writes those moves out.
//!
//! Both attempts cut two things, each proven where it is defined: once
//! no redeal is left, a turn whose column's new top card can neither move
//! nor take a card (`Table::turn_can_matter`); once no redeal and no
//! turn are left, a position the closure proves lost (`lost.rs`). Nearly
//! all positions of a search lie past the last redeal: each redeal point
//! opens a new game of the course's rules, searched to its end when lost,
//! and the closure proves most of them lost in a few positions.

use std::time::Instant;

use rustc_hash::FxHashSet;

use super::{Key, Table};
use crate::cards::{CARDS, Card};
use crate::deal::Deal;
use crate::search::{Limit, Limits, Outcome, Progress, Report, Stats};
use crate::state::{Dest, Move};

/// Positions expanded between looks at the clock and the cancel flag.
const CLOCK_EVERY: u64 = 4096;

/// Where a stored position came from.
#[derive(Clone, Copy)]
struct Node {
    parent: u32,
    mv: Move,
}

/// Searches `deal` (Midnight Oil under the complete rules) for a solution
/// within `limits`; the solution has every foundation move written out.
pub fn search(deal: &Deal, limits: &Limits, progress: Option<Progress>) -> Report {
    search_from(deal, &Table::for_search(deal), limits, progress)
}

/// The most positions the quick attempt stores before the complete one
/// starts (see [`search_from`]).
pub const QUICK_BUDGET: u64 = 1_000_000;

/// Searches for a win from `root`, a position of `deal` (a player's, from
/// [`Table::searching_from`]): the moves found start there, every
/// foundation move written out, and `Insoluble` means no win from there.
///
/// Two attempts. The quick one plays every card up by itself at once, as
/// the course's rules do, also while a redeal is left: nearly every deal
/// is won so, in far fewer positions, since the foundation moves are then
/// no choice; but keeping a card down can change a redeal, so it proves
/// nothing. Past [`QUICK_BUDGET`] positions, or when it runs out of moves,
/// the complete attempt searches the complete rules, nothing cut.
pub fn search_from(
    deal: &Deal,
    root: &Table,
    limits: &Limits,
    mut progress: Option<Progress>,
) -> Report {
    debug_assert!(std::ptr::eq(root.rules(), deal.id.rules), "{}", deal.id);
    let started = Instant::now();
    let mut stats = Stats::default();
    let quick = Table {
        force_up: true,
        ..root.clone()
    };
    let budget = limits.max_states.min(QUICK_BUDGET);
    let first = attempt(&quick, limits, budget, started, &mut progress, &mut stats);
    let outcome = match first {
        Outcome::Solved(moves) => Outcome::Solved(written_out_from(&quick, &moves)),
        Outcome::GaveUp(limit @ (Limit::Time | Limit::Cancelled | Limit::Memory)) => {
            Outcome::GaveUp(limit)
        }
        Outcome::Insoluble | Outcome::GaveUp(_) => {
            match attempt(
                root,
                limits,
                limits.max_states,
                started,
                &mut progress,
                &mut stats,
            ) {
                Outcome::Solved(moves) => Outcome::Solved(written_out_from(root, &moves)),
                other => other,
            }
        }
    };
    stats.elapsed = started.elapsed();
    Report { outcome, stats }
}

/// One best-first search from `root` storing at most `max_states`
/// positions; a solution's moves as searched (foundation moves made by
/// themselves not written). Adds its figures to `stats`.
fn attempt(
    root: &Table,
    limits: &Limits,
    max_states: u64,
    started: Instant,
    progress: &mut Option<Progress>,
    stats: &mut Stats,
) -> Outcome {
    stats.attempts += 1;
    let mut nodes: Vec<Node> = vec![Node {
        parent: u32::MAX,
        mv: Move::REDEAL,
    }];
    let mut seen: FxHashSet<Key> = FxHashSet::default();
    seen.insert(root.key());
    let mut children: Vec<(Move, Table)> = Vec::new();
    // One stack of (node, position) per score.
    let mut buckets: Vec<Vec<(u32, Table)>> = (0..=CARDS).map(|_| Vec::new()).collect();
    let mut best = root.score() as usize;
    buckets[best].push((0, root.clone()));
    let mut last_report = Instant::now();
    let outcome = 'search: loop {
        while best > 0 && buckets[best].is_empty() {
            best -= 1;
        }
        let Some((index, table)) = buckets[best].pop() else {
            break Outcome::Insoluble;
        };
        if table.is_won() {
            break Outcome::Solved(path(&nodes, index));
        }
        stats.expanded += 1;
        if stats.expanded.is_multiple_of(CLOCK_EVERY) {
            if let Some(limit) = limits.stop_now(started) {
                break Outcome::GaveUp(limit);
            }
            if let Some(show) = progress.as_mut()
                && last_report.elapsed().as_secs() >= 1
            {
                last_report = Instant::now();
                stats.elapsed = started.elapsed();
                stats.stored_now = seen.len() as u64;
                show(stats);
            }
        }
        children.clear();
        table.for_each_move(|mv| {
            if matches!(mv.dest, Dest::TurnUp | Dest::TurnDown) && !table.turn_can_matter(mv) {
                return;
            }
            let mut child = table.clone();
            child.apply(mv);
            children.push((mv, child));
        });
        // The newest is expanded first: the moves up last, then the card
        // moves, turns and redeals before them.
        children.sort_by_key(|(mv, _)| match mv.dest {
            Dest::Redeal => 0,
            Dest::TurnUp | Dest::TurnDown => 1,
            Dest::Card(_) => 2,
            _ => 3,
        });
        for (mv, child) in children.drain(..) {
            if seen.len() as u64 >= max_states {
                break 'search Outcome::GaveUp(Limit::States);
            }
            if seen.try_reserve(1).is_err() || nodes.try_reserve(1).is_err() {
                break 'search Outcome::GaveUp(Limit::Memory);
            }
            if !seen.insert(child.key()) {
                continue;
            }
            if child.is_lost() {
                continue;
            }
            let child_index = nodes.len() as u32;
            nodes.push(Node { parent: index, mv });
            let score = child.score() as usize;
            stats.best_score = stats.best_score.max(score as u8);
            if child.is_won() {
                break 'search Outcome::Solved(path(&nodes, child_index));
            }
            best = best.max(score);
            buckets[score].push((child_index, child));
        }
    };
    stats.stored += seen.len() as u64;
    stats.stored_now = seen.len() as u64;
    stats.peak_stored = stats.peak_stored.max(seen.len() as u64);
    stats.frontier = buckets.iter().map(|b| b.len() as u64).sum();
    outcome
}

/// The moves from the root to the stored position `index`.
fn path(nodes: &[Node], index: u32) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut at = index;
    while nodes[at as usize].parent != u32::MAX {
        moves.push(nodes[at as usize].mv);
        at = nodes[at as usize].parent;
    }
    moves.reverse();
    moves
}

/// The file of a search's solution: every card its positions played up by
/// themselves written as `CARD F` where it went up.
pub fn written_out(deal: &Deal, moves: &[Move]) -> Vec<Move> {
    written_out_from(&Table::for_search(deal), moves)
}

/// [`written_out`] of a search's solution from `root`.
pub fn written_out_from(root: &Table, moves: &[Move]) -> Vec<Move> {
    let mut table = root.clone();
    let mut up: Vec<Card> = Vec::new();
    let mut written = Vec::with_capacity(moves.len() * 2);
    for &mv in moves {
        written.push(mv);
        table.apply_telling(mv, |card| up.push(card));
        written.extend(up.drain(..).map(|card| Move {
            card,
            dest: Dest::Foundation,
        }));
    }
    written
}

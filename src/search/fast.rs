//! The fast pass: before the portfolio, in the games with registers
//! (FreeCell, Seahaven), a small best-first search that moves whole runs
//! as one step (`state/sequence.rs`) and ranks positions by how close
//! they look to won. Most deals fall to it in a few hundred positions.
//!
//! It proves nothing: it keeps only a budget of positions and need not
//! try every move, so when it fails the portfolio searches the deal as it
//! always did, and only the portfolio's exhaustive searches say
//! `INSOLUBLE`. Any solution it finds is a solution: each step is single
//! moves played and checked on the position they start from.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use rustc_hash::FxHashSet;

use super::path::shorten;
use super::{Limits, Stats};
use crate::cards::CARDS;
use crate::deal::Deal;
use crate::rules::EmptyColumn;
use crate::state::{Key, KeyDecoder, Move, State};

/// The rankings of the passes, taken in turn (and again from the first
/// after the last, see [`passes`]); the first pass has [`FIRST_BUDGET`]
/// expansions, each later one twice the one before. Picked on FreeCell
/// 1..500 (`survey --fast`, positions expanded): the first alone leaves
/// 13 deals to the portfolio at 1 500 expansions; the four in turn, from
/// 1 000, none.
const PASSES: [Weights; 4] = [
    Weights::new(8, 3, 1, 12, 30, 1, 3),
    Weights::new(8, 2, 2, 10, 24, 1, 2),
    Weights::new(8, 4, 4, 6, 40, 1, 0),
    Weights::new(8, 4, 0, 6, 24, 1, 4),
];

/// Expansions the first pass may make. FreeCell 1..2000, positions
/// expanded a deal (all passes and the portfolio after them): 4 passes
/// from 1 000, 360; 6 from 300, 314 (3 deals left to the portfolio); 6
/// from 500, 327; 8 from 300, 340.
const FIRST_BUDGET: u64 = 300;

/// How many passes a deal gets: six in FreeCell; one in Seahaven, where a
/// tenth of the deals are lost and every pass is spent on them before the
/// portfolio's proof (1..1000: 1.1 s more CPU with FreeCell's six, 0.2 s
/// less than without the pass with one).
fn passes(root: &State) -> usize {
    if root.rules().empty_column == EmptyColumn::AnyCard {
        6
    } else {
        1
    }
}

/// Expansions between two looks at the cancel flag and the clock.
const CLOCK_EVERY: u64 = 256;

/// A position met by the pass: where it came from and by which moves.
struct Node {
    key: Key,
    parent: u32,
    /// Its moves from the parent: `moves[start..start + len]`.
    start: u32,
    len: u16,
    /// Single moves from the root.
    depth: u16,
}

/// What a pass keeps, held from one pass (and deal) to the next on the
/// same thread so that its memory is not asked for again each time.
#[derive(Default)]
struct Scratch {
    nodes: Vec<Node>,
    moves: Vec<Move>,
    seen: FxHashSet<Key>,
    /// Rank (lower first), then the newest first.
    heap: BinaryHeap<(Reverse<u32>, u32)>,
    singles: Vec<Move>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Whether the fast pass applies to positions of these rules: a game with
/// registers, where runs move through them.
pub(super) fn applies(root: &State) -> bool {
    root.rules().registers > 0
}

/// The weights of a pass's ranking: the sum of each count times its
/// weight, less the empty columns', lower first.
#[derive(Clone, Copy)]
struct Weights {
    /// Cards not on the foundation.
    left: u32,
    /// Cards lying on a suit's next card.
    blockers: u32,
    /// Cards lying above a lower card of their own suit.
    own: u32,
    /// Occupied registers.
    registers: u32,
    /// Empty columns (taken off).
    empties: u32,
    /// Single moves from the root: shorter ways first.
    depth: u32,
    /// Cards beneath their column's top run.
    under: u32,
}

impl Weights {
    const fn new(
        left: u32,
        blockers: u32,
        own: u32,
        registers: u32,
        empties: u32,
        depth: u32,
        under: u32,
    ) -> Weights {
        Weights {
            left,
            blockers,
            own,
            registers,
            empties,
            depth,
            under,
        }
    }

    /// The rank of `state`, `depth` single moves from the root.
    fn rank(&self, state: &State, depth: u16) -> u32 {
        let features = state.features();
        let left = CARDS as u32 - state.score() as u32;
        let used = (state.rules().registers - state.free_registers()) as u32;
        let cost = self.left * left
            + self.blockers * features.next_blockers
            + self.own * features.own_inversions
            + self.registers * used
            + self.depth * depth as u32
            + self.under * features.under_runs
            + 1024;
        cost.saturating_sub(self.empties * state.empty_columns() as u32)
    }
}

/// Searches from `root` with each pass in turn, within their budgets (and
/// `limits`' stored positions, time and cancel flag): a solution as the
/// search's positions play it, or `None`; its figures go into `stats`.
pub(super) fn run(
    deal: &Deal,
    root: &State,
    limits: &Limits,
    stats: &mut Stats,
) -> Option<Vec<Move>> {
    if root.is_won() {
        return Some(Vec::new());
    }
    let decoder = KeyDecoder::new(deal);
    SCRATCH.with(|scratch| {
        let scratch = &mut *scratch.borrow_mut();
        let mut budget = FIRST_BUDGET;
        for weights in PASSES.iter().cycle().take(passes(root)) {
            let found = pass(&decoder, root, limits, stats, weights, budget, scratch);
            if found.is_some() {
                return found;
            }
            budget *= 2;
        }
        None
    })
}

/// One pass: a best-first search by `weights` within `budget` expansions.
fn pass(
    decoder: &KeyDecoder,
    root: &State,
    limits: &Limits,
    stats: &mut Stats,
    weights: &Weights,
    budget: u64,
    scratch: &mut Scratch,
) -> Option<Vec<Move>> {
    let start = Instant::now();
    let budget = budget.min(limits.max_states);
    let prune_runs = root.rules().dead_run_length().is_some();
    let Scratch {
        nodes,
        moves,
        seen,
        heap,
        singles,
    } = scratch;
    nodes.clear();
    moves.clear();
    seen.clear();
    heap.clear();
    stats.attempts += 1;
    seen.insert(root.key());
    nodes.push(Node {
        key: root.key(),
        parent: u32::MAX,
        start: 0,
        len: 0,
        depth: 0,
    });
    heap.push((Reverse(0), 0));
    let mut expanded = 0u64;
    let mut found = None;
    while let Some((_, index)) = heap.pop() {
        if expanded >= budget {
            break;
        }
        expanded += 1;
        if expanded.is_multiple_of(CLOCK_EVERY) && limits.stop_now(start).is_some() {
            break;
        }
        let state = decoder.state(nodes[index as usize].key);
        let depth = nodes[index as usize].depth;
        // Stores and queues a child not met before: its index when won.
        let mut admit = |step: &[Move], child: &State| -> Option<u32> {
            if !seen.insert(child.key()) {
                return None;
            }
            let won = child.is_won();
            if !won && prune_runs && child.survey().dead_run {
                return None;
            }
            let at = nodes.len() as u32;
            let child_depth = depth + step.len() as u16;
            nodes.push(Node {
                key: child.key(),
                parent: index,
                start: moves.len() as u32,
                len: step.len() as u16,
                depth: child_depth,
            });
            moves.extend_from_slice(step);
            if won {
                return Some(at);
            }
            heap.push((Reverse(weights.rank(child, child_depth)), at));
            None
        };
        singles.clear();
        state.for_each_move(|mv| singles.push(mv));
        for &mv in singles.iter() {
            let mut child = state.clone();
            child.apply(mv);
            found = found.or_else(|| admit(&[mv], &child));
        }
        if found.is_none() {
            state.for_each_sequence_move(|step, child| {
                found = found.or_else(|| admit(step, child));
            });
        }
        if found.is_none() {
            state.for_each_dig(|step, child| {
                found = found.or_else(|| admit(step, child));
            });
        }
        if found.is_some() {
            break;
        }
    }
    stats.expanded += expanded;
    stats.stored += nodes.len() as u64;
    stats.peak_stored = stats.peak_stored.max(nodes.len() as u64);
    let won = found?;
    let mut steps = Vec::new();
    let mut at = won;
    while at != 0 {
        let node = &nodes[at as usize];
        steps.push((node.start as usize, node.len as usize));
        at = node.parent;
    }
    let path: Vec<Move> = steps
        .iter()
        .rev()
        .flat_map(|&(s, l)| moves[s..s + l].iter().copied())
        .collect();
    Some(shorten(root, path))
}

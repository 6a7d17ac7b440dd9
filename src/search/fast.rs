//! The fast pass: before the portfolio, in FreeCell and Seahaven, small
//! best-first searches that move whole runs (`state/sequence.rs`) and dig
//! to a buried card (`state/dig.rs`) as one step, and rank positions by
//! how close they look to won. Most deals fall to it in a few dozen
//! positions.
//!
//! It proves nothing: it keeps only a budget of positions and need not
//! try every move, so when it fails the portfolio searches the deal as it
//! always did, and only the portfolio's exhaustive searches say
//! `INSOLUBLE`. Any solution it finds is a solution: each step is single
//! moves played and checked on the position they start from.

mod queue;

use std::cell::RefCell;
use std::time::Instant;

use rustc_hash::FxHashSet;

use self::queue::RankQueue;
use super::path::shorten;
use super::{Length, Limits, Stats};
use crate::cards::CARDS;
use crate::deal::Deal;
use crate::state::{Dest, FLOOR, Features, Key, KeyDecoder, Move, State};

/// The rankings a pass may use (the weights of [`Weights::new`]), in the
/// order [`SCHEDULE`] first takes them. Tuned together with the
/// schedule: starting from hand-picked weights, one weight of one ranking
/// changed at a time (by one or two, doubled or halved) and kept when the
/// best schedule over the six became cheaper, on the odd
/// seeds of FreeCell 1..20000, each pass's cost counted as twice its
/// expansions plus the positions it stores (an expansion costs about two
/// stored positions' work: `survey` rows fitted against time). The rankings
/// that open the schedule weigh the moves from the root not at all: they
/// are the cheapest on the most deals, and their solutions, cut of their
/// detours, are no longer (FreeCell 20001..22000: median 55 moves against
/// 57 with the weights before).
const RANKINGS: [Weights; 6] = [
    Weights::new(8, 2, 1, 7, 11, 0, 3),
    Weights::new(8, 1, 2, 26, 24, 0, 5),
    Weights::new(8, 0, 2, 28, 31, 0, 12),
    Weights::new(8, 5, 12, 10, 39, 1, 1),
    Weights::new(8, 8, 3, 12, 28, 3, 6),
    Weights::new(8, 2, 2, 16, 48, 3, 2),
];

/// The passes a deal gets, in turn: a ranking of [`RANKINGS`] and the
/// expansions it may make. Each ranking is lost on deals another solves
/// at once, and a pass that fails is lost work, so the schedule is the
/// cheapest found (by the measure of [`RANKINGS`]) over each ranking's
/// cost on each deal of the odd seeds of FreeCell 1..20000 with a pass of
/// up to 8 000 expansions, a deal no pass solves counted as the
/// portfolio's cost: short passes first, a long one last. Measured on
/// seeds it was not tuned on (FreeCell 20001..22000, `survey --fast
/// --jobs 1` under cachegrind): 63 positions expanded a deal against 86
/// with the rankings and schedule before, 420 stored against 651, 20 %
/// fewer instructions with the detours cut, 43 % without.
const SCHEDULE: [(usize, u64); 7] = [
    (0, 50),
    (1, 100),
    (2, 75),
    (3, 600),
    (4, 300),
    (2, 400),
    (5, 8000),
];

/// About the most new positions an expansion meets in FreeCell, to size
/// the set of positions met for a pass's budget.
const CHILDREN_AN_EXPANSION: usize = 32;

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
    heap: RankQueue,
    singles: Vec<Move>,
    /// The moves of a sequence move or a dig being tried.
    step: Vec<Move>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Whether the fast pass applies to positions of these rules: FreeCell
/// and Seahaven, the games with registers, where runs move through them.
/// A Seahaven deal no play wins (about a tenth) pays every pass before the
/// portfolio's proof, and the deals won pay less: on Seahaven 1..2000
/// (`survey --fast --jobs 1`) the won deals took 1.8 s of CPU with the
/// passes against 3.3 s without, the lost 3.2 s against 2.8 s.
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

    /// The rank of `state`, `depth` single moves from the root, whose
    /// [`Features`] are `features`.
    fn rank(&self, state: &State, features: Features, depth: u16) -> u32 {
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
        SCHEDULE.iter().find_map(|&(ranking, budget)| {
            let weights = &RANKINGS[ranking];
            pass(&decoder, root, limits, stats, weights, budget, scratch)
        })
    })
}

/// Whether the pass takes `mv` as a step of its own. Not a card into a
/// register: a dig parks cards there when a buried card wants them, and a
/// sequence move when a run moves. Nor a card off the card it is built on
/// onto another (a host swap): a sequence move carries the run, a dig the
/// cards above a wanted one. The pass need not try every move (the
/// portfolio after it does), and these two are most of a position's
/// children and seldom the way: FreeCell 1..3000 (`survey --fast --jobs
/// 1`), 289 → 174 positions expanded a deal, 2 448 → 1 057 stored, 2.6 →
/// 1.6 s of CPU, the same verdicts.
fn worth_a_single_step(state: &State, mv: Move) -> bool {
    match mv.dest {
        Dest::Register => false,
        Dest::Card(_) => {
            let under = state.below(mv.card);
            !(under < FLOOR && state.rules().build.allows(mv.card, under))
        }
        _ => true,
    }
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
        step,
    } = scratch;
    nodes.clear();
    moves.clear();
    seen.clear();
    // A set grown by a long pass of an earlier deal spreads a short
    // pass's few positions over megabytes, a cache miss each, and costs
    // its size to clear: it is cut back to what this pass may meet.
    let may_meet = (budget as usize).saturating_mul(CHILDREN_AN_EXPANSION);
    if seen.capacity() > 2 * may_meet {
        seen.shrink_to(may_meet);
    }
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
    heap.push(0, 0);
    let mut expanded = 0u64;
    let mut found = None;
    let mut best = root.score();
    while let Some(index) = heap.pop() {
        // `--max-states` bounds what it stores too: a search asked to
        // give up early does.
        if expanded >= budget || nodes.len() as u64 >= limits.max_states {
            break;
        }
        expanded += 1;
        if expanded.is_multiple_of(CLOCK_EVERY) && limits.stop_now(start).is_some() {
            break;
        }
        let state = decoder.state(nodes[index as usize].key);
        let depth = nodes[index as usize].depth;
        let columns = state.column_features();
        // Stores and queues a child not met before: its index when won.
        let mut admit = |step: &[Move], child: &State| -> Option<u32> {
            if !seen.insert(child.key()) {
                return None;
            }
            let won = child.is_won();
            best = best.max(child.score());
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
            let features = child.features_after(&state, &columns);
            heap.push(weights.rank(child, features, child_depth), at);
            None
        };
        singles.clear();
        state.for_each_move(|mv| {
            if worth_a_single_step(&state, mv) {
                singles.push(mv);
            }
        });
        for &mv in singles.iter() {
            let mut child = state.clone();
            child.apply(mv);
            found = found.or_else(|| admit(&[mv], &child));
        }
        if found.is_none() {
            state.for_each_sequence_move_in(step, |step, child| {
                found = found.or_else(|| admit(step, child));
            });
        }
        if found.is_none() {
            state.for_each_dig_in(step, |step, child| {
                found = found.or_else(|| admit(step, child));
            });
        }
        if found.is_some() {
            break;
        }
    }
    stats.expanded += expanded;
    stats.best_score = stats.best_score.max(best);
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
    // `--fast` keeps it as found: cutting its detours took a fifth of a
    // fast FreeCell survey's time (`survey fc 1-20000 --fast --jobs 1`:
    // 5.74 s against 4.57 s), and the default shortening that follows
    // otherwise needs a start as short as it can get.
    if limits.length == Length::AsFound {
        return Some(path);
    }
    Some(shorten(root, path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Verdict, replay_moves};
    use crate::deal::test_deal as deal;
    use crate::foundation::Foundation;
    use crate::state::written_out;

    /// Under forced and free rules, the pass solves most of FreeCell
    /// 1..30 within its budgets, and every solution it gives, written out,
    /// replays to a won game through `-check`'s own code.
    #[test]
    fn its_solutions_replay_card_by_card() {
        for foundation in [Foundation::Forced, Foundation::Free] {
            let mut solved = 0;
            for seed in 1..=30 {
                let d = deal("fc", seed).with_foundation(foundation);
                let root = State::new(&d);
                let mut stats = Stats::default();
                let Some(moves) = run(&d, &root, &Limits::default(), &mut stats) else {
                    continue;
                };
                solved += 1;
                assert!(stats.expanded > 0 && stats.attempts >= 1);
                assert_eq!(stats.best_score, 52);
                let written = written_out(&d, &moves);
                let verdict = replay_moves(&d, &written);
                assert!(
                    matches!(verdict, Verdict::Won { .. }),
                    "fc {seed} {foundation:?}: {verdict:?}"
                );
            }
            assert!(solved >= 28, "{foundation:?}: {solved}");
        }
    }

    /// A deal no play wins is left to the portfolio: the pass gives up
    /// after its budgets, and says nothing.
    #[test]
    fn a_lost_deal_is_left_to_the_portfolio() {
        let d = deal("fc", 19621);
        let mut stats = Stats::default();
        assert_eq!(
            run(&d, &State::new(&d), &Limits::default(), &mut stats),
            None
        );
        assert_eq!(stats.attempts as usize, SCHEDULE.len());
        // Each pass used its whole budget, or ran out of positions.
        assert!(stats.expanded <= SCHEDULE.iter().map(|&(_, budget)| budget).sum());
    }

    /// The games without registers go straight to the portfolio.
    #[test]
    fn only_the_games_with_registers_take_the_pass() {
        for (game, takes) in [("fc", true), ("st", true), ("bd", false), ("mo", false)] {
            let d = deal(game, 1);
            assert_eq!(applies(&State::new(&d)), takes, "{game}");
        }
    }
}

//! A beam search for a shorter solution: breadth-first, one layer of
//! positions per move, keeping only the `width` most promising positions
//! of each layer, so that a layer's depth is the length of any solution
//! it meets. It also meets the positions of the known solution: reached
//! in fewer moves than that solution takes, they join it.

use rustc_hash::FxHashMap;

use super::Budget;
use crate::rules::EmptyColumn;
use crate::state::{Key, Move, State};

/// A child of a layer's position: its rank (lower first), its parent's
/// place in the layer and the move.
#[derive(Clone, Copy)]
struct Child {
    rank: (usize, usize),
    parent: u32,
    mv: Move,
}

/// What the beam knows of a position it met.
#[derive(Clone, Copy)]
struct Mark {
    /// Its place on the known solution, or [`NOT_KNOWN`].
    known: u16,
    /// The last layer it was met in as a child.
    met: u16,
    /// Kept in a layer: it is not kept again.
    kept: bool,
}

const NOT_KNOWN: u16 = u16::MAX;

/// Where the best solution found leaves the beam: the layer, the place
/// in it of the position it leaves from, the move, and the position of
/// the known solution it joins.
type Exit = (usize, u32, Move, usize);

/// What a beam found.
pub(super) struct Beamed {
    /// A solution shorter than the known one.
    pub moves: Option<Vec<Move>>,
    /// Whether some layer had more children than the beam is wide: if
    /// none had, no beam of any width or ranking finds more.
    pub narrowed: bool,
}

/// A solution from `root` shorter than `known` (one from `root` too), if
/// the beam finds one before its budget is spent.
pub(super) fn solve(
    root: &State,
    width: usize,
    ranking: Ranking,
    known: &[Move],
    budget: &mut Budget,
) -> Beamed {
    if known.len() >= usize::from(NOT_KNOWN) {
        return Beamed {
            moves: None,
            narrowed: false,
        };
    }
    let known_states = super::positions(root, known);
    let mut beam = Beam {
        ranking,
        marks: FxHashMap::default(),
        best: None,
        best_length: known.len(),
        narrowed: false,
        layers: Vec::new(),
        next: Vec::new(),
    };
    for (k, state) in known_states.iter().enumerate() {
        beam.marks.entry(state.key()).or_insert(Mark {
            known: k as u16,
            met: 0,
            kept: k == 0,
        });
    }
    let mut layer = vec![root.clone()];
    // The place in the layer of the known solution's position as deep: it
    // stays in every layer, so that the beam never dies out.
    let mut seed = 0;
    loop {
        let depth = beam.layers.len() + 1;
        if depth >= beam.best_length || budget.exhausted() {
            break;
        }
        if !beam.rank_children(&layer, known.len(), budget) {
            break;
        }
        let mut kept = beam.keep(&layer, width);
        let on_path = &known_states[depth];
        seed = match kept.iter().position(|s| s == on_path) {
            Some(at) => at,
            None => {
                kept.push(on_path.clone());
                beam.next.push(Child {
                    rank: (0, 0),
                    parent: seed as u32,
                    mv: known[depth - 1],
                });
                kept.len() - 1
            }
        };
        beam.layers
            .push(beam.next.iter().map(|c| (c.parent, c.mv)).collect());
        layer = kept;
    }
    let moves = beam.best.map(|(depth, at, mv, k)| {
        let mut moves = path(&beam.layers[..depth], at, mv);
        moves.extend_from_slice(&known[k..]);
        moves
    });
    Beamed {
        moves,
        narrowed: beam.narrowed,
    }
}

/// A beam under way.
struct Beam {
    ranking: Ranking,
    marks: FxHashMap<Key, Mark>,
    best: Option<Exit>,
    /// See [`Beamed::narrowed`].
    narrowed: bool,
    /// The length of the best solution so far (at first, the known one's).
    best_length: usize,
    /// Per layer after the root's: where each position came from.
    layers: Vec<Vec<(u32, Move)>>,
    /// The children of the layer being expanded, then those kept.
    next: Vec<Child>,
}

impl Beam {
    /// Ranks every child of `layer` not kept before, once each, and notes
    /// a shorter solution where one joins the known one (`known` moves).
    /// False when the memory for them ran out: room for each position's
    /// children is asked for before they come, so that a search that won
    /// with little memory left (nested rollouts hold next to none) keeps
    /// the solution it has rather than abort.
    #[must_use]
    fn rank_children(&mut self, layer: &[State], known: usize, budget: &mut Budget) -> bool {
        let depth = self.layers.len() + 1;
        self.next.clear();
        let mut moves = Vec::new();
        for (p, state) in layer.iter().enumerate() {
            budget.spend(1);
            let facts = state.column_facts();
            moves.clear();
            state.for_each_move(|mv| moves.push(mv));
            if self.marks.try_reserve(moves.len()).is_err()
                || self.next.try_reserve(moves.len()).is_err()
            {
                return false;
            }
            for &mv in &moves {
                let mut child = state.clone();
                child.apply(mv);
                let mark = self.marks.entry(child.key()).or_insert(Mark {
                    known: NOT_KNOWN,
                    met: 0,
                    kept: false,
                });
                if mark.kept || mark.met == depth as u16 {
                    continue;
                }
                mark.met = depth as u16;
                let on_known = usize::from(mark.known);
                if mark.known != NOT_KNOWN && depth + known - on_known < self.best_length {
                    self.best_length = depth + known - on_known;
                    self.best = Some((self.layers.len(), p as u32, mv, on_known));
                }
                let h = facts.bound_after(mv, &child);
                self.next.push(Child {
                    rank: self.ranking.rank(&child, h),
                    parent: p as u32,
                    mv,
                });
            }
        }
        true
    }

    /// Keeps the best `width` children that are not lost, best first: the
    /// next layer, and `next` cut to them.
    fn keep(&mut self, layer: &[State], width: usize) -> Vec<State> {
        self.narrowed |= self.next.len() > width;
        // Lost children are few: the best twice the width are enough.
        if self.next.len() > 2 * width {
            self.next.select_nth_unstable_by_key(2 * width, |c| c.rank);
            self.next.truncate(2 * width);
        }
        self.next.sort_unstable_by_key(|c| c.rank);
        let mut kept = Vec::with_capacity(width + 1);
        let mut taken = 0;
        for i in 0..self.next.len() {
            if kept.len() == width {
                break;
            }
            let c = self.next[i];
            let parent = &layer[c.parent as usize];
            let mut child = parent.clone();
            child.apply(c.mv);
            if parent.is_lost_after(c.mv, &child) {
                continue;
            }
            if let Some(mark) = self.marks.get_mut(&child.key()) {
                mark.kept = true;
            }
            self.next[taken] = c;
            taken += 1;
            kept.push(child);
        }
        self.next.truncate(taken);
        kept
    }
}

/// How a beam ranks positions, lower first: by the bound on the moves
/// left, weighed against the room to move cards in. A beam that fills the
/// registers because each parked card lowers the bound by one soon has
/// nothing left to move; one that keeps too much room makes no progress.
/// Neither weighing suits every deal (FreeCell 1..300: each leaves some
/// solutions twice as long as the other finds), so they take turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ranking {
    /// A register costs more than the move it saves, and so does a
    /// column where empty columns take any card.
    Room,
    /// A register costs half the move it saves.
    Bound,
}

impl Ranking {
    /// The rank of `state`, whose bound on the moves left is `bound`; the
    /// cards left to go up count too, and break ties.
    fn rank(self, state: &State, bound: usize) -> (usize, usize) {
        let rules = state.rules();
        let registers = rules.registers - state.free_registers();
        let left = 52 - state.score() as usize;
        let weighed = match self {
            Ranking::Room => {
                let columns = match rules.empty_column {
                    EmptyColumn::AnyCard => rules.columns - state.empty_columns(),
                    _ => 0,
                };
                4 * bound + 6 * registers + 4 * columns
            }
            Ranking::Bound => 4 * bound + 2 * registers,
        };
        (weighed + left, left)
    }
}

/// The moves to the child by `mv` of the position `at` of the last of
/// `layers`.
fn path(layers: &[Vec<(u32, Move)>], at: u32, mv: Move) -> Vec<Move> {
    let mut path = vec![mv];
    let mut at = at;
    for layer in layers.iter().rev() {
        let (from, mv) = layer[at as usize];
        path.push(mv);
        at = from;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::check::{Verdict, replay_moves};
    use crate::deal::test_deal as deal;
    use crate::search::{Length, Limits, Outcome, search};

    fn solution(game: &str, seed: u32, length: Length) -> Option<Vec<Move>> {
        let limits = Limits {
            length,
            ..Limits::default()
        };
        match search(&deal(game, seed), &limits, None).outcome {
            Outcome::Solved(moves) => Some(moves),
            _ => None,
        }
    }

    fn budget() -> Budget {
        let deadline = Instant::now() + Duration::from_secs(60);
        Budget::new(u64::MAX, deadline, &Limits::default())
    }

    #[test]
    fn a_beam_finds_only_shorter_solutions_that_win() {
        let mut shorter = 0;
        for seed in 1..=10 {
            let d = deal("fc", seed);
            let known = solution("fc", seed, Length::AsFound).expect("FreeCell 1..10 solvable");
            for ranking in [Ranking::Room, Ranking::Bound] {
                let found = solve(&State::new(&d), 32, ranking, &known, &mut budget()).moves;
                if let Some(moves) = found {
                    assert!(moves.len() < known.len(), "fc.{seed}");
                    assert!(matches!(replay_moves(&d, &moves), Verdict::Won { .. }));
                    shorter += 1;
                }
            }
        }
        assert!(shorter >= 10, "{shorter} shorter of 20");
    }

    #[test]
    fn no_beam_beats_a_shortest_solution() {
        let mut tried = 0;
        for seed in 1..=200 {
            let Some(known) = solution("mo", seed, Length::Optimal) else {
                continue;
            };
            let root = State::new(&deal("mo", seed));
            let beamed = solve(&root, 64, Ranking::Bound, &known, &mut budget());
            assert_eq!(beamed.moves, None, "mo.{seed}");
            tried += 1;
        }
        assert!(tried >= 3);
    }
}

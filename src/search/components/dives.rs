//! Dives: short depth-first searches over components from the start,
//! each with its own names and its own random order of the children of
//! equal score, taken in turn with the exhaustive search
//! (`workers.rs`), which proves.
//!
//! Why: a depth-first search that enters a large lost subtree early
//! must exhaust it before it tries anything else, and on the hardest
//! deals such subtrees hold tens of millions of components. One order of
//! the children is one bet, so a search that restarts with another
//! order bets again; with budgets following Luby's sequence (1, 1, 2, 1,
//! 1, 2, 4, ... times a base) no budget is too small for long (Luby,
//! Sinclair and Zuckerman, 1993: within a log factor of the best fixed
//! budget for any distribution of the time to a win). Measured with
//! dives alone (docs/components.md): bd.18073 under free rules, undecided
//! after 600 s of the exhaustive search, won in its third dive (0.8 s).
//!
//! A dive stores its names apart and forgets them when it ends, so it
//! cannot make the exhaustive search skip a component; what it can do is
//! find a win, or, when it runs out of components before its budget, prove
//! the deal lost: it was a complete search over components with names of
//! its own, like the exhaustive one. Its memory is its budget's names,
//! bounded by the search's limit (see [`Dives::most`]).

use std::time::Instant;

use super::stack::{Frame, cut_lost, next};
use super::{Class, Expander, Failure, Names};
use crate::state::{Move, State};

/// Components the first dive expands; later dives, this times Luby's
/// sequence. Small enough that a dive ends within a second or so
/// (20 000 to 120 000 components a second on one thread), large enough
/// that the won dives measured won within their first budgets. In the
/// unit tests, whose small games have some thousand components, a few, so
/// that the dives take turns with the exhaustive search there too.
const BASE: u64 = if cfg!(test) { 4 } else { 20_000 };

/// How many components a dive expands between two looks at whether the
/// search is stopped (a few milliseconds).
const LOOK_EVERY: u64 = 256;

/// How a dive ended.
pub(super) enum Dived {
    /// A won position, the moves there from the start.
    Won(Vec<Move>),
    /// Every component from the start was expanded: the deal is lost.
    Exhausted,
    /// The budget is spent (or a component was too large to list): no
    /// verdict.
    Spent,
    /// The search was stopped (a limit, another thread's end) or a
    /// component failed its check.
    Failed(Failure),
}

/// One thread's dives: which comes next and its random order.
pub(super) struct Dives {
    round: u64,
    rng: u64,
    /// The most components a dive may expand (its names' memory): the
    /// threads' dives share half the search's limit on names, so that
    /// they hold at most half as many again as the exhaustive search
    /// (a long run's Luby budgets reach tens of millions).
    most: u64,
}

impl Dives {
    /// The dives of thread `thread`: each thread its own random orders.
    pub(super) fn new(thread: usize, most: u64) -> Dives {
        Dives {
            round: 1,
            rng: 0x9E37_79B9_7F4A_7C15 ^ (thread as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03),
            most: most.max(1),
        }
    }

    /// The components the next dive may expand.
    pub(super) fn budget(&self) -> u64 {
        (BASE * luby(self.round)).min(self.most)
    }

    fn random(&mut self) -> u64 {
        // xorshift64: an order of the children, nothing more.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Dives from `start` with the next budget. `expander` lends its
    /// tests of components lost for good, its cache and pair test (what
    /// they find is a property of positions, not of a search), and its
    /// settings; `stopped` and `show` are the thread's. `expanded` counts
    /// each component expanded.
    pub(super) fn dive(
        &mut self,
        start: &State,
        expander: &mut Expander,
        stopped: &dyn Fn() -> bool,
        expanded: &dyn Fn(u64),
        show: &mut dyn FnMut(),
    ) -> Dived {
        let budget = self.budget();
        self.round += 1;
        if start.is_won() {
            return Dived::Won(Vec::new());
        }
        let names = Names::new();
        names.insert(Class::of(start).name);
        // The thread's lost components and pair test are swapped in.
        let mut diver = Expander::new(&names, expander.most, expander.expansion, false);
        std::mem::swap(&mut diver.lost, &mut expander.lost);
        let dived = self.dive_with(start, &mut diver, budget, stopped, expanded, show);
        std::mem::swap(&mut diver.lost, &mut expander.lost);
        dived
    }

    fn dive_with(
        &mut self,
        start: &State,
        diver: &mut Expander,
        budget: u64,
        stopped: &dyn Fn() -> bool,
        expanded: &dyn Fn(u64),
        show: &mut dyn FnMut(),
    ) -> Dived {
        let mut frames: Vec<Frame> = Vec::new();
        let mut path: Vec<Move> = Vec::new();
        let mut current = Some(start.clone());
        let mut last_shown = Instant::now();
        for done in 0..budget {
            let Some(state) = current.take().or_else(|| next(&mut frames, &mut path)) else {
                return Dived::Exhausted;
            };
            // A dive may hold millions of components: a limit, a Ctrl-C
            // or another thread's end must not wait for its budget.
            if done % LOOK_EVERY == 0 && stopped() {
                return Dived::Failed(Failure::Stopped);
            }
            let mut found = match diver.expand(&state, stopped) {
                Ok(found) => found,
                Err(Failure::TooLarge) => return Dived::Spent,
                Err(failure) => return Dived::Failed(failure),
            };
            expanded(found.listed);
            if let Some(moves) = found.won {
                path.extend(moves);
                return Dived::Won(path);
            }
            // Ascending, the next entered last: more cards up first, as
            // the exhaustive search, and a random order among equals.
            found
                .children
                .sort_by_cached_key(|(child, _)| (child.score(), self.random()));
            frames.push(Frame::new(&state, found.children, path.len(), done));
            cut_lost(&mut frames, done, &mut diver.lost);
            if last_shown.elapsed() >= super::PROGRESS_EVERY {
                last_shown = Instant::now();
                show();
            }
        }
        if frames.iter().all(|f| f.children.is_empty()) {
            return Dived::Exhausted;
        }
        Dived::Spent
    }
}

/// Luby's sequence, from 1: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
fn luby(mut i: u64) -> u64 {
    loop {
        // The smallest k with 2^k - 1 >= i: i's bit length.
        let k = 64 - u64::from(i.leading_zeros());
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_s_sequence() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        // Each power of two first appears at 2^k - 1.
        assert_eq!(luby(1023), 512);
        assert_eq!(luby(1024), 1);
    }
}

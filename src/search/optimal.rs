//! `--optimal`: the fewest moves, proven. An A* search over the same
//! positions and moves as the portfolio's, ordered by `f` = moves from the
//! deal (`g`) plus [`State::moves_needed_at_least`] (`h`), a lower bound
//! on the moves still needed (its proof is in `state/bound.rs`).
//!
//! Why the first solution it returns is shortest: every move counts one,
//! and foundation moves are normalization's, counted nowhere, as in a
//! solution file. Under free rules (`--foundation free`) the file writes
//! every card's foundation move, 52 of them whatever the order of play (a
//! card goes up once, and the search starts from the deal): the search
//! counts the other moves, so it minimizes the file's length too, which is
//! that count plus 52. The moves generated are every legal move but those that
//! lead back to the same position (a lone card into an empty column), so
//! every solution is a path here. A position is pruned only when it is
//! lost (no solution passes it) or when `g + h` reaches the length of the
//! best solution known (no shorter one passes it). When a position is
//! reached again in fewer moves its `g` is lowered and it waits again,
//! so each position is expanded with its fewest moves from the deal by
//! the time it matters (the bound need not be consistent). `h` never
//! overestimates, so a waiting position's `f` is at most the length of
//! any solution through it; once the lowest `f` waiting reaches the best
//! solution's length, no shorter solution is left to find. An empty open
//! list with no solution is a proof that none exists, as for the
//! portfolio: only lost positions were pruned.

use std::collections::TryReserveError;
use std::time::Instant;

use super::open::Open;
use super::path::chain_moves;
use super::visited::{MAX_STATES, NO_PARENT, Probe, Visited, hash};
use super::{Limit, Limits, Outcome, Progress, Report, Stats};
use crate::deal::Deal;
use crate::state::{ColumnFacts, Dest, KeyDecoder, Move, State};

/// What a move costs: one, but a foundation move (under free rules) none,
/// since every card makes exactly one, however the game is played.
fn cost(mv: Move) -> usize {
    usize::from(mv.dest != Dest::Foundation)
}

/// Expansions between two looks at the clock (and progress reports).
const CLOCK_EVERY: u64 = 4096;

/// Searches for a shortest solution from `root`, a position of the deal,
/// within `limits` (`diff` is not used: forgetting positions would void
/// the proof).
pub(super) fn run(
    deal: &Deal,
    root: &State,
    limits: &Limits,
    progress: Option<Progress>,
) -> Report {
    let found = shortest(deal, root.clone(), limits, progress);
    let outcome = match (found.moves, found.stopped) {
        (_, Some(limit)) => Outcome::GaveUp(limit),
        (Some(moves), None) => Outcome::Solved(moves),
        (None, None) => Outcome::Insoluble,
    };
    Report {
        outcome,
        stats: found.stats,
    }
}

/// What [`shortest`] found.
pub(super) struct Found {
    /// The shortest solution found.
    pub moves: Option<Vec<Move>>,
    /// The limit that stopped the search; `None` when it finished: then
    /// `moves` is a shortest solution, or there is none.
    pub stopped: Option<Limit>,
    pub stats: Stats,
}

/// Searches from `root`, a position of the deal, for a shortest solution.
pub(super) fn shortest(
    deal: &Deal,
    root: State,
    limits: &Limits,
    progress: Option<Progress>,
) -> Found {
    let mut search = Astar {
        limits,
        progress,
        start: Instant::now(),
        decoder: KeyDecoder::new(deal),
        visited: {
            let mut visited = Visited::new(limits.max_states);
            visited.expect_at_most(limits.max_states);
            visited
        },
        moves_to: Vec::new(),
        parents: Vec::new(),
        open: Open::default(),
        best: None,
        stats: Stats {
            best_score: root.score(),
            attempts: 1,
            ..Stats::default()
        },
    };
    let stopped = search.run(root);
    let moves = search.best.map(|(_, from, last)| {
        let mut moves = match from {
            NO_PARENT => Vec::new(),
            from => chain_moves(&search.visited, &search.decoder, from, |i| {
                search.parents[i as usize]
            }),
        };
        moves.extend(last);
        moves
    });
    Found {
        moves,
        stopped,
        stats: search.stats_now(),
    }
}

/// The best solution known: its length, the stored position its last
/// move is played from, and that move (none when the root is won).
type Best = (usize, u32, Option<Move>);

struct Astar<'a, 'p> {
    limits: &'a Limits,
    progress: Option<Progress<'p>>,
    start: Instant,
    decoder: KeyDecoder,
    visited: Visited,
    /// Per stored position: the fewest moves from the root found so far.
    moves_to: Vec<u16>,
    /// Per stored position: the one it is reached from in those moves.
    parents: Vec<u32>,
    open: Open,
    best: Option<Best>,
    stats: Stats,
}

impl Astar<'_, '_> {
    /// Searches until the best solution is proven shortest or nothing is
    /// left (`None`), or a limit stops it.
    fn run(&mut self, root: State) -> Option<Limit> {
        if root.is_won() {
            self.best = Some((0, NO_PARENT, None));
            return None;
        }
        let survey = root.survey();
        if survey.stuck || survey.dead_run || root.is_blocked_for_good() {
            return None;
        }
        // The set is empty, so only memory can keep the deal out of it.
        let Ok(Some(index)) = self.visited.insert(&root.key(), NO_PARENT, 0) else {
            return Some(Limit::Memory);
        };
        if self.make_room(1).is_err() {
            return Some(Limit::Memory);
        }
        self.moves_to.push(0);
        self.parents.push(NO_PARENT);
        if self
            .open
            .push(root.moves_needed_at_least(), 0, index)
            .is_err()
        {
            return Some(Limit::Memory);
        }
        let mut moves = Vec::with_capacity(128);
        while let Some(f) = self.open.lowest_f() {
            if self.best.is_some_and(|(length, ..)| f >= length) {
                return None;
            }
            let (_, g, index) = self.open.pop().expect("lowest_f saw one");
            if usize::from(self.moves_to[index as usize]) != g {
                continue; // reached again in fewer moves, and queued again
            }
            if let Some(limit) = self.expand(index, g, &mut moves) {
                return Some(limit);
            }
        }
        None
    }

    /// Expands the stored position `index`, `g` moves from the deal.
    fn expand(&mut self, index: u32, g: usize, moves: &mut Vec<Move>) -> Option<Limit> {
        self.stats.expanded += 1;
        if self.stats.expanded.is_multiple_of(CLOCK_EVERY)
            && let Some(limit) = self.look_at_the_clock()
        {
            return Some(limit);
        }
        let state = self.decoder.state(self.visited.key(index));
        let facts = state.column_facts();
        moves.clear();
        state.for_each_move(|mv| moves.push(mv));
        if self.make_room(moves.len()).is_err() {
            return Some(Limit::Memory);
        }
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.apply(mv);
            if self
                .admit(&state, &facts, index, g + cost(mv), mv, &child)
                .is_err()
            {
                return Some(Limit::Memory);
            }
            if self.visited.len() as u64 >= self.limits.max_states.min(MAX_STATES) {
                return Some(Limit::States);
            }
        }
        None
    }

    /// Room for `n` more stored positions, in the visited set and beside
    /// it, before admitting them; only the open list grows afterwards, and
    /// fails on its own.
    fn make_room(&mut self, n: usize) -> Result<(), TryReserveError> {
        self.visited.make_room(n)?;
        self.moves_to.try_reserve(n)?;
        self.parents.try_reserve(n)
    }

    /// Stores or improves `child`, reached in `g` moves by `mv` from the
    /// stored position `parent` (`state`), unless it is lost or cannot
    /// lead to a solution shorter than the best known. Fails only when the
    /// open list cannot grow.
    fn admit(
        &mut self,
        state: &State,
        facts: &ColumnFacts,
        parent: u32,
        g: usize,
        mv: Move,
        child: &State,
    ) -> Result<(), TryReserveError> {
        let bound = self.best.map_or(usize::MAX, |(length, ..)| length);
        if child.is_won() {
            if g < bound {
                self.best = Some((g, parent, Some(mv)));
            }
            return Ok(());
        }
        let key = child.key();
        let key_hash = hash(&key);
        let found = self.visited.index_of(&key, key_hash);
        if found.is_some_and(|index| usize::from(self.moves_to[index as usize]) <= g) {
            return Ok(());
        }
        let h = facts.bound_after(mv, child);
        if g + h >= bound {
            return Ok(());
        }
        let index = match found {
            Some(index) => {
                self.moves_to[index as usize] = g as u16;
                self.parents[index as usize] = parent;
                index
            }
            None => {
                if state.is_lost_after(mv, child) {
                    return Ok(());
                }
                let Probe::Vacant { slot, tag } = self.visited.probe(&key, key_hash) else {
                    unreachable!("not stored: index_of found none");
                };
                self.moves_to.push(g as u16);
                self.parents.push(parent);
                self.stats.best_score = self.stats.best_score.max(child.score());
                self.visited.insert_at(slot, tag, &key, parent, g as u16)
            }
        };
        self.open.push(g + h, g, index)
    }

    /// Reports progress; says whether the time is up or the search was
    /// cancelled.
    fn look_at_the_clock(&mut self) -> Option<Limit> {
        let stop = self.limits.stop_now(self.start);
        if stop.is_none() && self.progress.is_some() {
            let stats = self.stats_now();
            if let Some(report) = self.progress.as_mut() {
                report(&stats);
            }
        }
        stop
    }

    fn stats_now(&self) -> Stats {
        let stored = self.visited.len() as u64;
        Stats {
            stored,
            stored_now: stored,
            peak_stored: stored,
            frontier: self.open.len(),
            elapsed: self.start.elapsed(),
            ..self.stats.clone()
        }
    }
}

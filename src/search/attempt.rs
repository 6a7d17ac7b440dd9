//! One attempt of the portfolio: a search with one ordering within one
//! budget, from an empty visited set. It takes a position from the
//! frontier, expands it (its children, decoded and hashed together) and
//! admits each child that is new and not lost into the visited set and
//! the frontier.

use std::collections::TryReserveError;
use std::time::Instant;

use super::frontier::{Buckets, Frontier, Stack};
use super::order::{Kind, Order};
use super::path::{path_to, shorten};
use super::split::Split;
use super::visited::{MAX_STATES, NO_PARENT, Probe, Visited, hash};
use super::{Limit, Limits, Outcome, Progress, Report, Stats};
use crate::deal::Deal;
use crate::state::{KeyDecoder, Move, State};

/// Searches from `root` with one ordering: inside the score buckets, or
/// depth-first when the ordering says so. Reports progress every 4096
/// expansions, for its caller to thin out.
pub(super) fn run(
    deal: &Deal,
    root: &State,
    limits: &Limits,
    order: &Order,
    progress: Option<Progress>,
) -> Report {
    let split = order.split as u16;
    match (order.kind, split) {
        (Kind::Buckets(queue), 0) => {
            Attempt::new(deal, root, limits, order, progress, Buckets::new(queue)).run()
        }
        (Kind::DepthFirst(dive), 0) => {
            Attempt::new(deal, root, limits, order, progress, Stack::new(dive)).run()
        }
        (Kind::Buckets(queue), _) => {
            let frontier = Split::new(split, move || Buckets::new(queue));
            Attempt::new(deal, root, limits, order, progress, frontier).run()
        }
        (Kind::DepthFirst(dive), _) => {
            let frontier = Split::new(split, move || Stack::new(dive));
            Attempt::new(deal, root, limits, order, progress, frontier).run()
        }
    }
}

/// Expansions between two looks at the clock (and progress reports).
const CLOCK_EVERY: u64 = 4096;
/// Expansions between two looks at the cancel flag, a load from memory
/// other threads write: often, since the other threads of a search keep
/// expanding until they see it, and 4096 expansions are a few
/// milliseconds of CPU wasted per thread on every search they end.
const CANCEL_EVERY: u64 = 256;

/// A child of the position being expanded: the move, the position it
/// leads to, and the hash of that position's key.
type Child = (Move, State, u64);

struct Attempt<'a, 'p, F> {
    /// Where the search starts: the deal's position, or a player's.
    root: &'a State,
    limits: &'a Limits,
    order: &'a Order,
    progress: Option<Progress<'p>>,
    start: Instant,
    decoder: KeyDecoder,
    visited: Visited,
    frontier: F,
    stats: Stats,
    /// Whether `--diff` forgot a position: an empty frontier is no proof.
    cut: bool,
    /// The children of the position being expanded; kept to spare an
    /// allocation per expansion.
    children: Vec<Child>,
}

impl<'a, 'p, F: Frontier> Attempt<'a, 'p, F> {
    fn new(
        deal: &Deal,
        root: &'a State,
        limits: &'a Limits,
        order: &'a Order,
        progress: Option<Progress<'p>>,
        frontier: F,
    ) -> Self {
        Attempt {
            root,
            limits,
            order,
            progress,
            start: Instant::now(),
            decoder: KeyDecoder::new(deal),
            visited: Visited::new(limits.max_states),
            frontier,
            stats: Stats::default(),
            cut: false,
            children: Vec::with_capacity(128),
        }
    }

    fn run(mut self) -> Report {
        let root = self.root.clone();
        self.stats.best_score = root.score();
        if root.is_won() {
            return self.finish(Outcome::Solved(Vec::new()));
        }
        // Lost from the root: a proof already. Every position stored from
        // here on is not blocked, as `State::is_blocked_after` asks of a
        // parent.
        if root.is_blocked_for_good() {
            return self.finish(Outcome::Insoluble);
        }
        let rank = self.order.rank(&root, &root.survey(), 0);
        // The set is empty, so only memory can keep the deal out of it.
        let Ok(Some(root_index)) = self.visited.insert(&root.key(), NO_PARENT, 0) else {
            return self.finish(Outcome::GaveUp(Limit::Memory));
        };
        if self.frontier.push(root.score(), rank, root_index).is_err() {
            return self.finish(Outcome::GaveUp(Limit::Memory));
        }

        while let Some((score, index)) = self.frontier.pop() {
            if let Some(d) = self.limits.diff
                && score as usize + d as usize <= self.stats.best_score as usize
            {
                self.cut = true;
                continue;
            }
            if let Some(outcome) = self.expand(index) {
                return self.finish(outcome);
            }
            if self.visited.len() as u64 >= self.limits.max_states.min(MAX_STATES) {
                return self.finish(Outcome::GaveUp(Limit::States));
            }
        }
        let outcome = if self.cut {
            Outcome::GaveUp(Limit::Forgotten)
        } else {
            Outcome::Insoluble
        };
        self.finish(outcome)
    }

    /// Expands the stored position `index`: admits each of its children.
    /// Ends the attempt with a solution, or when the time is up.
    fn expand(&mut self, index: u32) -> Option<Outcome> {
        self.stats.expanded += 1;
        if self.stats.expanded.is_multiple_of(CANCEL_EVERY) && self.limits.cancelled() {
            return Some(Outcome::GaveUp(Limit::Cancelled));
        }
        if self.stats.expanded.is_multiple_of(CLOCK_EVERY)
            && let Some(limit) = self.look_at_the_clock()
        {
            return Some(Outcome::GaveUp(limit));
        }
        let state = self.decoder.state(self.visited.key(index));
        // The next position's key is most likely a cache miss: start it now.
        if let Some(next) = self.frontier.peek() {
            self.visited.prefetch_entry(next);
        }
        // All children first, so that their table slots are fetched from
        // memory side by side: the look-ups are cache misses, and the main
        // cost of the search.
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        state.for_each_move(|mv| {
            children.push((mv, state.clone(), 0));
            let (_, child, h) = children.last_mut().expect("just pushed");
            child.apply(mv);
            *h = hash(&child.key());
            self.visited.prefetch(*h);
        });
        for &(_, _, h) in &children {
            self.visited.prefetch_match(h);
        }
        if self.make_room(children.len()).is_err() {
            return Some(Outcome::GaveUp(Limit::Memory));
        }
        for child in &children {
            if let Some(outcome) = self.admit(&state, index, child) {
                return Some(outcome);
            }
        }
        self.children = children;
        None
    }

    /// Stores and queues a child of the position `parent` (`state`) unless
    /// it is stored already or lost; a won child ends the attempt.
    fn admit(
        &mut self,
        state: &State,
        parent: u32,
        (mv, child, key_hash): &Child,
    ) -> Option<Outcome> {
        let mv = *mv;
        if child.is_won() {
            let mut path = path_to(&self.visited, &self.decoder, parent);
            path.push(mv);
            return Some(Outcome::Solved(shorten(self.root, path)));
        }
        let key = child.key();
        let Probe::Vacant { slot, tag } = self.visited.probe(&key, *key_hash) else {
            return None;
        };
        // Lost positions are never stored: the cheap tests of the survey
        // first, then the closure that finds chains of blocked cards
        // (Midnight Oil, Baker's Dozen).
        let survey = child.survey();
        if survey.stuck || survey.dead_run || state.is_blocked_after(mv, child) {
            return None;
        }
        let depth = self.visited.depth(parent) + 1;
        let index = self.visited.insert_at(slot, tag, &key, parent, depth);
        let score = child.score();
        if score > self.stats.best_score {
            self.stats.best_score = score;
            if let Some(d) = self.limits.diff {
                let floor = score.saturating_sub(d) as usize + 1;
                if self.frontier.forget_below(floor) > 0 {
                    self.cut = true;
                }
            }
        }
        let rank = self.order.rank(child, &survey, depth);
        match self.frontier.push_at(score, rank, index, depth) {
            Ok(()) => None,
            Err(_) => Some(Outcome::GaveUp(Limit::Memory)),
        }
    }

    /// Room for `n` more stored positions in the visited set before
    /// admitting them: admitting then allocates nothing but the frontier's
    /// growth, which fails on its own.
    fn make_room(&mut self, n: usize) -> Result<(), TryReserveError> {
        self.visited.make_room(n)
    }

    /// Reports progress; says whether the time is up or the search was
    /// cancelled.
    fn look_at_the_clock(&mut self) -> Option<Limit> {
        if self.limits.cancelled() {
            return Some(Limit::Cancelled);
        }
        let now = Instant::now();
        if self.limits.timeout.is_some_and(|t| now - self.start >= t) {
            return Some(Limit::Time);
        }
        if let Some(report) = self.progress.as_mut() {
            self.stats.stored = self.visited.len() as u64;
            self.stats.stored_now = self.stats.stored;
            self.stats.frontier = self.frontier.waiting();
            self.stats.elapsed = now - self.start;
            report(&self.stats);
        }
        None
    }

    fn finish(self, outcome: Outcome) -> Report {
        let stored = self.visited.len() as u64;
        Report {
            outcome,
            stats: Stats {
                stored,
                stored_now: stored,
                peak_stored: stored,
                frontier: self.frontier.waiting(),
                elapsed: self.start.elapsed(),
                attempts: 1,
                ..self.stats
            },
        }
    }
}

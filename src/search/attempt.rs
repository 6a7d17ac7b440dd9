//! One attempt of the portfolio: a search with one ordering within one
//! budget, from an empty visited set (the prover goes on from its own
//! across its turns: [`AnyAttempt::resume`]). It takes a position from the
//! frontier, expands it (its children, decoded and hashed together) and
//! admits each child that is new and not lost into the visited set and
//! the frontier.

use std::cell::OnceCell;
use std::collections::TryReserveError;
use std::time::Instant;

use super::frontier::{Buckets, Frontier, Stack};
use super::order::{Kind, Order};
use super::path::{path_to, shorten};
use super::portfolio_beam::Beam;
use super::split::Split;
use super::visited::{MAX_STATES, NO_PARENT, Probe, Visited, hash};
use super::{Limit, Limits, Outcome, Progress, Report, Stats};
use crate::deal::Deal;
use crate::state::{Inversions, KeyDecoder, Move, State};

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
    let mut attempt = begin(deal, root, limits, order);
    attempt.last_turn(limits.max_states);
    attempt.resume(limits.clone(), progress)
}

/// An attempt of any ordering, held where it is made: no allocation that
/// could abort when memory runs out (running out is an outcome).
pub(super) enum AnyAttempt<'a> {
    Buckets(Attempt<'a, Buckets>),
    Stack(Attempt<'a, Stack>),
    SplitBuckets(Attempt<'a, Split<Buckets>>),
    SplitStack(Attempt<'a, Split<Stack>>),
    Beam(Attempt<'a, Beam>),
}

impl AnyAttempt<'_> {
    /// Searches on under `limits` (its budget in `max_states`, the time
    /// left in `timeout`) until an outcome; it can stop at its budget and
    /// go on in a later turn from where it stopped, its visited set and
    /// frontier kept: the portfolio's prover (see [`super::portfolio`]).
    /// The report's figures are those of this turn alone, but for the
    /// positions held now.
    pub(super) fn resume(&mut self, limits: Limits, progress: Option<Progress>) -> Report {
        match self {
            AnyAttempt::Buckets(a) => a.resume(limits, progress),
            AnyAttempt::Stack(a) => a.resume(limits, progress),
            AnyAttempt::SplitBuckets(a) => a.resume(limits, progress),
            AnyAttempt::SplitStack(a) => a.resume(limits, progress),
            AnyAttempt::Beam(a) => a.resume(limits, progress),
        }
    }

    /// Says that the next turn, under a budget of `max_states`, is the
    /// last: its visited set will hold no more (see
    /// [`Visited::expect_at_most`]).
    pub(super) fn last_turn(&mut self, max_states: u64) {
        match self {
            AnyAttempt::Buckets(a) => a.visited.expect_at_most(max_states),
            AnyAttempt::Stack(a) => a.visited.expect_at_most(max_states),
            AnyAttempt::SplitBuckets(a) => a.visited.expect_at_most(max_states),
            AnyAttempt::SplitStack(a) => a.visited.expect_at_most(max_states),
            AnyAttempt::Beam(a) => a.visited.expect_at_most(max_states),
        }
    }
}

/// An attempt from `root` with one ordering, not started yet.
pub(super) fn begin<'a>(
    deal: &Deal,
    root: &'a State,
    limits: &Limits,
    order: &Order,
) -> AnyAttempt<'a> {
    let split = order.split as u16;
    match (order.kind, split) {
        (Kind::Buckets(queue), 0) => {
            AnyAttempt::Buckets(Attempt::new(deal, root, limits, order, Buckets::new(queue)))
        }
        (Kind::DepthFirst(dive), 0) => {
            AnyAttempt::Stack(Attempt::new(deal, root, limits, order, Stack::new(dive)))
        }
        (Kind::Buckets(queue), _) => AnyAttempt::SplitBuckets(Attempt::new(
            deal,
            root,
            limits,
            order,
            Split::new(split, Buckets::new(queue)),
        )),
        (Kind::DepthFirst(dive), _) => AnyAttempt::SplitStack(Attempt::new(
            deal,
            root,
            limits,
            order,
            Split::new(split, Stack::new(dive)),
        )),
        (Kind::Beam, _) => {
            let beam = Beam::for_budget(limits.max_states);
            AnyAttempt::Beam(Attempt::new(deal, root, limits, order, beam))
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

/// More moves than any position has: a card moves onto at most four
/// cards (any-suit building), an empty column, a register or the
/// foundation, and at most 13 column tops and 4 registers hold a card that
/// can move: 17 × 7 = 119.
pub(super) const MOST_MOVES: usize = 128;

/// A child of the position being expanded: the move, the position it
/// leads to, and the hash of that position's key.
type Child = (Move, State, u64);

pub(super) struct Attempt<'a, F> {
    /// Where the search starts: the deal's position, or a player's.
    root: &'a State,
    /// The limits of the turn under way.
    limits: Limits,
    order: Order,
    /// When the turn under way started.
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
    /// The deal's position is stored and queued: the attempt has begun,
    /// and a turn goes on from its frontier.
    begun: bool,
    /// Expanded and stored when the turn under way started, for the
    /// turn's own figures.
    expanded_before: u64,
    stored_before: u64,
}

impl<'a, F: Frontier> Attempt<'a, F> {
    fn new(deal: &Deal, root: &'a State, limits: &Limits, order: &Order, frontier: F) -> Self {
        Attempt {
            root,
            limits: limits.clone(),
            order: *order,
            start: Instant::now(),
            decoder: KeyDecoder::new(deal),
            visited: Visited::new(limits.max_states),
            frontier,
            stats: Stats::default(),
            cut: false,
            children: Vec::new(),
            begun: false,
            expanded_before: 0,
            stored_before: 0,
        }
    }

    /// [`AnyAttempt::resume`].
    fn resume(&mut self, limits: Limits, mut progress: Option<Progress>) -> Report {
        self.limits = limits;
        self.start = Instant::now();
        self.expanded_before = self.stats.expanded;
        self.stored_before = self.visited.len() as u64;
        let outcome = self.run(&mut progress);
        self.report(outcome)
    }

    /// Stores and queues the deal's position, unless that decides.
    fn begin(&mut self) -> Option<Outcome> {
        self.begun = true;
        let root = self.root.clone();
        self.stats.best_score = root.score();
        if root.is_won() {
            return Some(Outcome::Solved(Vec::new()));
        }
        // Lost from the root: a proof already. Every position stored from
        // here on is not blocked, as `State::is_blocked_after` asks of a
        // parent.
        if root.is_blocked_for_good() {
            return Some(Outcome::Insoluble);
        }
        let rank = self.order.rank(&root, &root.survey(), 0);
        // The set is empty, so only memory can keep the deal out of it.
        let Ok(Some(root_index)) = self.visited.insert(&root.key(), NO_PARENT, 0) else {
            return Some(Outcome::GaveUp(Limit::Memory));
        };
        if self.frontier.push(root.score(), rank, root_index).is_err() {
            return Some(Outcome::GaveUp(Limit::Memory));
        }
        None
    }

    /// Searches until an outcome: from the deal's position the first time,
    /// from the frontier left by the last turn after that.
    fn run(&mut self, progress: &mut Option<Progress>) -> Outcome {
        if !self.begun
            && let Some(outcome) = self.begin()
        {
            return outcome;
        }
        while let Some((score, index)) = self.frontier.pop() {
            if let Some(d) = self.limits.diff
                && score as usize + d as usize <= self.stats.best_score as usize
            {
                self.cut = true;
                continue;
            }
            if let Some(outcome) = self.expand(index, progress) {
                return outcome;
            }
            if self.visited.len() as u64 >= self.limits.max_states.min(MAX_STATES) {
                return Outcome::GaveUp(Limit::States);
            }
        }
        if self.cut {
            Outcome::GaveUp(Limit::Forgotten)
        } else if self.frontier.forgot() {
            // A spent beam: like an attempt at its budget, it leaves the
            // deal to the next one.
            Outcome::GaveUp(Limit::States)
        } else {
            Outcome::Insoluble
        }
    }

    /// Expands the stored position `index`: admits each of its children.
    /// Ends the attempt with a solution, or when the time is up.
    fn expand(&mut self, index: u32, progress: &mut Option<Progress>) -> Option<Outcome> {
        self.stats.expanded += 1;
        if self.stats.expanded.is_multiple_of(CANCEL_EVERY)
            && let Some(limit) = self.limits.interrupted()
        {
            return Some(Outcome::GaveUp(limit));
        }
        if self.stats.expanded.is_multiple_of(CLOCK_EVERY)
            && let Some(limit) = self.look_at_the_clock(progress)
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
        // Reserved here, where running out of memory is an outcome, not an
        // abort: pushing then never allocates.
        if children.try_reserve(MOST_MOVES).is_err() {
            return Some(Outcome::GaveUp(Limit::Memory));
        }
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
        // Worked out for the first new child: often none is new.
        let inversions = OnceCell::new();
        for child in &children {
            if let Some(outcome) = self.admit(&state, &inversions, index, child) {
                return Some(outcome);
            }
        }
        self.children = children;
        None
    }

    /// Stores and queues a child of the position `parent` (`state`, with
    /// its [`State::inversions`] once asked for) unless it is stored
    /// already or lost; a won child ends the attempt.
    fn admit(
        &mut self,
        state: &State,
        inversions: &OnceCell<Option<Inversions>>,
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
        let survey = match inversions.get_or_init(|| state.inversions()) {
            Some(inversions) => inversions.survey_after(state, mv, child),
            None => child.survey(),
        };
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
    fn look_at_the_clock(&mut self, progress: &mut Option<Progress>) -> Option<Limit> {
        if self.limits.cancelled() {
            return Some(Limit::Cancelled);
        }
        let now = Instant::now();
        if self.limits.timeout.is_some_and(|t| now - self.start >= t) {
            return Some(Limit::Time);
        }
        if let Some(report) = progress.as_mut() {
            report(&self.turn(now - self.start));
        }
        None
    }

    /// The figures of the turn under way: its own expansions and stored
    /// positions, with the positions held now.
    fn turn(&self, elapsed: std::time::Duration) -> Stats {
        let held = self.visited.len() as u64;
        Stats {
            stored: held - self.stored_before,
            stored_now: held,
            peak_stored: held,
            expanded: self.stats.expanded - self.expanded_before,
            frontier: self.frontier.waiting(),
            elapsed,
            attempts: 1,
            ..self.stats.clone()
        }
    }

    fn report(&self, outcome: Outcome) -> Report {
        Report {
            outcome,
            stats: self.turn(self.start.elapsed()),
        }
    }
}

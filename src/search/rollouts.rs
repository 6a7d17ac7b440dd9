//! Nested rollouts: a finder of wins for the deals the exhaustive searches
//! leave, Baker's Dozen's tail. It proves nothing; it finds wins where
//! they are rare and deep.
//!
//! A *rollout* plays one game from a position to its end: each step picks
//! a child at random, the better children likelier (a softmax over
//! [`value`]), never one it has met on this walk nor one the cheap
//! lost-position tests condemn, until the game is won or no child is left.
//! A *nested rollout* (level 1) walks from the start too, but chooses each
//! step by a rollout from every child, and follows the best walk found so
//! far (the best position any rollout reached, and the moves to it), not
//! only the best child's: what the level above remembers cannot be lost
//! to an unlucky draw below. When a step can improve on none of that best,
//! the walk ends and another begins, with other draws. A walk of level 2
//! chooses each step the same way by a nested walk from every child:
//! slower, it wins deals level 1 misses and misses some level 1 wins, so
//! the walks take half the time each ([`DEEPEST`]).
//!
//! Why: Bjarnason, Fern and Tadepalli (2009) used nested rollouts to find
//! Klondike's wins, and Cazenave's nested Monte-Carlo search (2009) is the
//! same scheme; a game whose wins lie behind long, narrow sequences (dig a
//! card out, park each card above it on a host of the rank above, in the
//! right order) rewards looking to the end of many games before choosing
//! a move, where a search that stores positions spends its memory on the
//! wide, lost ones. Measured (docs/hard-deals.md, twenty-first session):
//! of the 64 deals of 1..100000 both exhaustive searches left undecided at
//! 10 s, 18 are won by nested rollouts within 20 s under forced rules,
//! 13 of them within 5 s; the search over components with its dives won 3
//! to 7 of them in 20 s.
//!
//! Where: in Baker's Dozen under forced or free rules, once a search is
//! about to be long, for half the time it has left ([`for_half_the_time`]):
//! `--components` after its first look, the usual search when its
//! attempts have expanded 500 000 positions or before its threads start;
//! `--no-rollouts` leaves them out.
//!
//! Each walk is a function of its random draws: a run with the same seed
//! and the same number of walks finds the same solution.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;

use super::attempt::MOST_MOVES;
use super::{Length, Limits, Progress, Stats};
use crate::deal::Deal;
use crate::rules::Build;
use crate::state::{Key, Move, State};

/// A position's worth to a walk: cards up first, then fewer cards in the
/// way (each a move or more before the position is won). The weights
/// say how much each kind of card in the way costs, against a card up
/// at 1000: one lying on a suit's next card (it blocks the foundation
/// now) most, one above a lower card of its own suit (it must move before
/// that card can go up) next, one beneath its column's built run least.
fn value(state: &State) -> i64 {
    let features = state.features();
    i64::from(state.score()) * 1000
        - i64::from(features.next_blockers) * 30
        - i64::from(features.own_inversions) * 20
        - i64::from(features.under_runs) * 5
}

/// How far a walk's random choice follows [`value`]: a child worth this
/// much less than the best is `e` times less likely. Measured on the
/// tail's 64: 50 won 18 in 20 s, where 150 (nearer to uniform) won 1 of
/// the other 46 in 10 s.
const TEMPERATURE: f64 = 50.0;

/// The longest a rollout walks: Baker's Dozen's solutions found this way
/// are 20 to 400 moves long.
const WALK_MOST: usize = 800;

/// The deepest level of the walks from the start: each step of a walk of
/// level 2 is chosen by a nested walk (level 1) from every child, each of
/// whose steps is chosen by a rollout from every child. Measured on the
/// 48 deals of Baker's Dozen 1..100000 left undecided at 10 s (a
/// throwaway example, one thread, forced rules, 30 s each, one seed):
/// level 1 won 5 (33058, 40479, 54504, 68143, 82700), level 2 won 6
/// (33058, 40479, 62446, 68365, 71217, 82700), each within 4.1 s but for
/// 33058 (24.6 s): neither level wins all the other does, so the walks
/// take half the time each, level 1 first (its walks are short).
const DEEPEST: usize = 2;

/// How long rollouts look for a win when the search has no timeout: long
/// enough for most of their wins (14 of the 16 late-won deals they won
/// within 30 s took at most 2 s), short enough that a lost deal, which
/// they cannot prove, barely waits for its proof (bd.64924, lost, proven
/// by the usual search in 0.7 s, took 10.7 s when this was 10 s).
///
/// Under a timeout they get half the time left instead: measured on
/// Baker's Dozen 1..10000 by components at 10 s a deal (twenty-second
/// session of docs/hard-deals.md), half (at most 5 s) left 5 deals
/// undecided in 151.4 s, 3 s at most 7 in 169.8 s, 2 s at most 6 in
/// 163.3 s: a deal the rollouts do not win in 2 s is more often won by
/// them in 5 s than by the search in the 3 s it would get instead.
const ALONE: Duration = Duration::from_secs(2);

/// Whether a search of `root` gives rollouts their share: Baker's Dozen
/// (building regardless of suit, where the tail is) under forced or free
/// rules, unless `limits` leave them out, ask only for a proof
/// (`prover_alone`) or for the shortest solution, or were cancelled.
fn apply(root: &State, limits: &Limits) -> bool {
    limits.rollouts
        && root.rules().build == Build::AnySuit
        && !root.returns()
        && !limits.prover_alone
        && limits.length != Length::Optimal
        && !limits.cancelled()
}

/// Nested rollouts from `root`, a position of `deal`, as one phase of a
/// search that began at `began`: for half the time `limits` leave (the
/// other half stays for the proof), or [`ALONE`] without a timeout, the
/// walks drawn from the deal's seed. `None` where the search gives them
/// no share ([`apply`]).
pub(crate) fn for_half_the_time(
    deal: &Deal,
    root: &State,
    limits: &Limits,
    began: Instant,
    progress: Option<Progress>,
) -> Option<Found> {
    if !apply(root, limits) {
        return None;
    }
    let budget = match limits.timeout {
        Some(timeout) => timeout.saturating_sub(began.elapsed()) / 2,
        None => ALONE,
    };
    let now = Instant::now();
    let until = now + budget;
    let stopped = || Instant::now() >= until || limits.interrupted().is_some();
    let seed = u64::from(deal.id.seed);
    // Level 1 for the first half, level 2 for the second: each wins deals
    // the other does not within the time (`DEEPEST`).
    let deeper_from = now + budget / 2;
    Some(find_win(
        root,
        seed,
        limits.jobs,
        &stopped,
        Some(deeper_from),
        progress,
    ))
}

/// What [`find_win`] ends with.
pub(crate) struct Found {
    /// A solution from the root, as its positions play it, if any walk won.
    pub moves: Option<Vec<Move>>,
    /// Positions expanded (children generated) by all threads.
    pub expanded: u64,
    /// Most cards up in any position a walk reached.
    pub best_score: u8,
}

/// Nested rollouts from `root` on `jobs` threads (each with its own draws,
/// from `seed`), until one wins or `stopped` says so: walks of level 1
/// until `deeper_from`, of level [`DEEPEST`] after it (from the start
/// without it). `progress` hears of the figures about once a second.
fn find_win(
    root: &State,
    seed: u64,
    jobs: usize,
    stopped: &(dyn Fn() -> bool + Sync),
    deeper_from: Option<Instant>,
    progress: Option<Progress>,
) -> Found {
    let shared = Shared {
        won: AtomicBool::new(false),
        expanded: AtomicU64::new(0),
        best: AtomicU8::new(root.score()),
        stopped,
        deeper_from,
    };
    let found = std::thread::scope(|scope| {
        // A thread that cannot be started (no memory left for its stack)
        // is done without: the caller's thread walks anyway.
        let others: Vec<_> = (1..jobs.max(1) as u64)
            .filter_map(|thread| {
                let shared = &shared;
                crate::memory::spawn_scoped(scope, move || {
                    Walker::new(shared, seed, thread)?.search(root, None)
                })
                .ok()
            })
            .collect();
        let mut found = Walker::new(&shared, seed, 0).and_then(|w| w.search(root, progress));
        for other in others {
            let moves = other.join().expect("a rollout thread panicked");
            found = found.or(moves);
        }
        found
    });
    Found {
        moves: found,
        expanded: shared.expanded.load(Relaxed),
        best_score: shared.best.load(Relaxed),
    }
}

/// What the threads share: whether one has won, and the figures.
struct Shared<'a> {
    won: AtomicBool,
    expanded: AtomicU64,
    best: AtomicU8,
    stopped: &'a (dyn Fn() -> bool + Sync),
    deeper_from: Option<Instant>,
}

/// One thread's walks. Its tables are reserved when it starts and grown
/// only fallibly: with little memory left (`ulimit -v`, a full machine) a
/// walker stops instead of aborting the process, and the search goes on
/// to the phase after the rollouts, which gives up cleanly.
struct Walker<'a> {
    shared: &'a Shared<'a>,
    /// xorshift64: plain, fast, and a seed gives the same walks.
    rng: u64,
    /// Positions on the path of the walks under way, which no walk below
    /// them re-enters.
    path: FxHashSet<Key>,
    /// Positions of the rollout under way.
    seen: FxHashSet<Key>,
    /// Children of each nested walk's position, by level (1 first).
    tops: [Vec<(Move, State)>; DEEPEST],
    /// Children of the rollout's position.
    kids: Vec<(Move, State)>,
    /// The children's values and their weights in [`Walker::pick`].
    values: Vec<i64>,
    weights: Vec<f64>,
    expanded: u64,
    stop: bool,
}

/// A walk's end, of any level: the value of the best position it reached
/// and the moves to it, or the moves to a win.
struct Walk {
    value: i64,
    moves: Vec<Move>,
    won: bool,
}

/// Positions a nested walk's path holds before its set has to grow.
const PATH_ROOM: usize = 1024;

impl<'a> Walker<'a> {
    /// A walker whose tables are reserved, or `None` without the memory.
    fn new(shared: &'a Shared<'a>, seed: u64, thread: u64) -> Option<Walker<'a>> {
        // splitmix64 of the seed and thread: distinct, nonzero streams.
        let mut z = seed ^ thread.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        let mut walker = Walker {
            shared,
            rng: (z ^ (z >> 31)) | 1,
            path: FxHashSet::default(),
            seen: FxHashSet::default(),
            tops: Default::default(),
            kids: Vec::new(),
            values: Vec::new(),
            weights: Vec::new(),
            expanded: 0,
            stop: false,
        };
        walker.path.try_reserve(PATH_ROOM).ok()?;
        // A rollout meets at most `WALK_MOST` positions besides its start.
        walker.seen.try_reserve(WALK_MOST + 1).ok()?;
        for top in &mut walker.tops {
            top.try_reserve(MOST_MOVES).ok()?;
        }
        walker.kids.try_reserve(MOST_MOVES).ok()?;
        walker.values.try_reserve(MOST_MOVES).ok()?;
        walker.weights.try_reserve(MOST_MOVES).ok()?;
        Some(walker)
    }

    /// Stops the walks for want of memory: `false` when `grown` failed.
    fn or_stop<E>(&mut self, grown: Result<(), E>) -> bool {
        self.stop |= grown.is_err();
        !self.stop
    }

    /// Nested walks one after another until one wins or the search stops.
    fn search(mut self, root: &State, mut progress: Option<Progress>) -> Option<Vec<Move>> {
        let mut shown = Instant::now();
        let began = shown;
        while !self.stopping() {
            self.path.clear();
            let deeper = (self.shared.deeper_from).is_none_or(|t| Instant::now() >= t);
            let walk = self.walk(if deeper { DEEPEST } else { 1 }, root);
            if walk.won {
                self.shared.won.store(true, Relaxed);
                self.flush();
                return Some(walk.moves);
            }
            if let Some(progress) = progress.as_mut()
                && shown.elapsed() >= Duration::from_secs(1)
            {
                shown = Instant::now();
                self.flush();
                progress(&Stats {
                    expanded: self.shared.expanded.load(Relaxed),
                    best_score: self.shared.best.load(Relaxed),
                    elapsed: began.elapsed(),
                    ..Stats::default()
                });
            }
        }
        self.flush();
        None
    }

    fn flush(&mut self) {
        self.shared.expanded.fetch_add(self.expanded, Relaxed);
        self.expanded = 0;
    }

    /// Whether to stop: asked once a rollout, a few times a millisecond.
    fn stopping(&mut self) -> bool {
        self.stop = self.stop || self.shared.won.load(Relaxed) || (self.shared.stopped)();
        self.stop
    }

    /// A walk of `level` from `start`, avoiding the walks' path (the
    /// positions of the walks above): level 0 a rollout, level `n` a
    /// nested walk that chooses each step by a walk of level `n - 1` from
    /// every child and follows the best walk found so far. Ends early,
    /// with the best found, when the walks stop (`self.stop`).
    fn walk(&mut self, level: usize, start: &State) -> Walk {
        if level == 0 {
            return self.rollout(start);
        }
        let mut at = start.clone();
        let mut played: Vec<Move> = Vec::new();
        let mut best = Walk {
            value: value(start),
            moves: Vec::new(),
            won: false,
        };
        let mut won = None;
        while !at.is_won() {
            let room = self.path.try_reserve(1);
            if !self.or_stop(room) {
                break;
            }
            self.path.insert(at.key());
            let mut kids = std::mem::take(&mut self.tops[level - 1]);
            self.children(&at, &mut kids, false);
            for (mv, child) in &kids {
                if self.stopping() {
                    break;
                }
                let below = self.walk(level - 1, child);
                if below.won || below.value > best.value {
                    let mut moves = Vec::new();
                    let room = moves.try_reserve_exact(played.len() + 1 + below.moves.len());
                    if !self.or_stop(room) {
                        break;
                    }
                    moves.extend_from_slice(&played);
                    moves.push(*mv);
                    moves.extend(below.moves);
                    if below.won {
                        won = Some(moves);
                        break;
                    }
                    best = Walk {
                        value: below.value,
                        moves,
                        won: false,
                    };
                }
            }
            self.tops[level - 1] = kids;
            if won.is_some() || self.stop {
                break;
            }
            // The walk goes on only toward the best position known.
            let Some(&next) = best.moves.get(played.len()) else {
                break;
            };
            let room = played.try_reserve(1);
            if !self.or_stop(room) {
                break;
            }
            at.apply(next);
            played.push(next);
        }
        self.leave(start, &played);
        if at.is_won() {
            won = Some(played);
        }
        match won {
            Some(moves) => Walk {
                value: best.value,
                moves,
                won: true,
            },
            None => best,
        }
    }

    /// Takes off the path the positions a walk from `start` put there
    /// (`start` and those `played` leads to), for the walk above to go on
    /// without them; no allocation.
    fn leave(&mut self, start: &State, played: &[Move]) {
        let mut at = start.clone();
        self.path.remove(&at.key());
        for &mv in played {
            at.apply(mv);
            self.path.remove(&at.key());
        }
    }

    /// A rollout from `start`, avoiding the walks' path; one that ends at
    /// once, its value below any other, without the memory for its moves.
    fn rollout(&mut self, start: &State) -> Walk {
        self.seen.clear();
        let mut at = start.clone();
        let mut moves = Vec::new();
        let room = moves.try_reserve_exact(WALK_MOST);
        if !self.or_stop(room) {
            return Walk {
                value: i64::MIN,
                moves,
                won: false,
            };
        }
        let mut best = (value(&at), 0);
        let mut kids = std::mem::take(&mut self.kids);
        while moves.len() < WALK_MOST && !at.is_won() {
            self.seen.insert(at.key());
            self.children(&at, &mut kids, true);
            if kids.is_empty() {
                break;
            }
            let (pick, worth) = self.pick(&kids);
            let (mv, child) = kids.swap_remove(pick);
            moves.push(mv);
            at = child;
            if worth > best.0 {
                best = (worth, moves.len());
            }
        }
        self.kids = kids;
        self.shared.best.fetch_max(at.score(), Relaxed);
        let won = at.is_won();
        if !won {
            moves.truncate(best.1);
        }
        Walk {
            value: best.0,
            moves,
            won,
        }
    }

    /// The children of `at` worth walking to: not on the path, not met on
    /// this rollout (`in_rollout`), not lost by the cheap tests.
    /// `out` holds [`MOST_MOVES`] already (`Walker::new`): pushing never
    /// allocates, and neither do the values and weights drawn from it.
    fn children(&mut self, at: &State, out: &mut Vec<(Move, State)>, in_rollout: bool) {
        out.clear();
        self.expanded += 1;
        at.for_each_move(|mv| {
            let mut child = at.clone();
            child.apply(mv);
            let key = child.key();
            let met = self.path.contains(&key) || (in_rollout && self.seen.contains(&key));
            if !met && (child.is_won() || !at.is_lost_after(mv, &child)) {
                out.push((mv, child));
            }
        });
    }

    /// A child drawn at random, each as likely as `e` to the power of its
    /// value over [`TEMPERATURE`]: its place in `kids`, and its value.
    fn pick(&mut self, kids: &[(Move, State)]) -> (usize, i64) {
        self.values.clear();
        self.values
            .extend(kids.iter().map(|(_, child)| value(child)));
        let most = self.values.iter().copied().max().unwrap_or(0);
        self.weights.clear();
        self.weights.extend(
            self.values
                .iter()
                .map(|&worth| ((worth - most) as f64 / TEMPERATURE).exp()),
        );
        let total: f64 = self.weights.iter().sum();
        let mut draw = self.unit() * total;
        let mut at = kids.len() - 1;
        for (i, weight) in self.weights.iter().enumerate() {
            if draw < *weight {
                at = i;
                break;
            }
            draw -= weight;
        }
        (at, self.values[at])
    }

    /// A number drawn in [0, 1).
    fn unit(&mut self) -> f64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{self, Verdict};
    use crate::deal::Deal;
    use crate::foundation::Foundation;
    use crate::state::written_out;

    fn deal(name: &str, foundation: Foundation) -> Deal {
        Deal::new(name.parse().expect("a deal")).with_foundation(foundation)
    }

    /// Nested rollouts of `deal` for at most `walks` nested walks.
    fn find(deal: &Deal, walks: u64, jobs: usize) -> Found {
        let root = State::new(deal);
        let asked = AtomicU64::new(0);
        let stopped = || asked.fetch_add(1, Relaxed) >= walks * 1000;
        find_win(&root, 7, jobs, &stopped, None, None)
    }

    #[test]
    fn wins_replay_as_files_under_both_rules() {
        for foundation in [Foundation::Forced, Foundation::Free] {
            for seed in 1..=6 {
                let deal = deal(&format!("bd.{seed}"), foundation);
                let found = find(&deal, 50, 1);
                let moves = found.moves.expect("an easy deal won");
                let file = written_out(&deal, &moves);
                assert!(
                    matches!(check::replay_moves(&deal, &file), Verdict::Won { .. }),
                    "bd.{seed} {foundation:?}"
                );
                assert!(found.expanded > 0);
            }
        }
    }

    #[test]
    fn the_same_seed_finds_the_same_solution() {
        let deal = deal("bd.10", Foundation::Forced);
        let first = find(&deal, 50, 1).moves;
        assert!(first.is_some());
        assert_eq!(first, find(&deal, 50, 1).moves);
    }

    #[test]
    fn a_lost_deal_finds_nothing_and_stops() {
        // bd.4300: no play wins (the triple test, docs/hard-deals.md).
        let deal = deal("bd.4300", Foundation::Forced);
        let found = find(&deal, 3, 2);
        assert!(found.moves.is_none());
        assert!(found.best_score < 52);
    }

    /// Every level's walk, run to its end or stopped half-way, plays
    /// legal moves from where it starts and leaves the path as it found
    /// it, so that the walk above goes on with its own positions only.
    #[test]
    fn each_level_plays_legal_moves_and_leaves_the_path_as_it_was() {
        let deal = deal("bd.7927", Foundation::Forced);
        let root = State::new(&deal);
        for asks in [50, 400, 3000] {
            let asked = AtomicU64::new(0);
            let stopped = || asked.fetch_add(1, Relaxed) >= asks;
            let shared = Shared {
                won: AtomicBool::new(false),
                expanded: AtomicU64::new(0),
                best: AtomicU8::new(root.score()),
                stopped: &stopped,
                deeper_from: None,
            };
            let mut walker = Walker::new(&shared, 11, 0).expect("memory for a walker");
            for level in 0..=DEEPEST {
                walker.stop = false;
                asked.store(0, Relaxed);
                let walk = walker.walk(level, &root);
                assert!(walker.path.is_empty(), "level {level}, {asks} asks");
                let mut at = root.clone();
                for mv in walk.moves {
                    let mut legal = false;
                    at.for_each_move(|m| legal |= m == mv);
                    assert!(legal, "level {level}: {mv:?} from {at:?}");
                    at.apply(mv);
                }
                assert_eq!(value(&at), walk.value, "level {level}, {asks} asks");
            }
        }
    }

    #[test]
    fn a_freecell_deal_is_won_too() {
        let deal = deal("FreeCell.1", Foundation::Forced);
        let moves = find(&deal, 50, 1).moves.expect("won");
        assert!(matches!(
            check::replay_moves(&deal, &moves),
            Verdict::Won { .. }
        ));
    }
}

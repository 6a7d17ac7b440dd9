//! `-search --components`: Baker's Dozen under forced or free rules
//! searched one *component* at a time, storing a name per component where
//! the usual search stores every position (docs/components.md has the
//! figures).
//!
//! # Components
//!
//! A *host move* takes a card lying on a card one rank higher (its host)
//! to another card one rank higher, and sends no card up. It can be
//! undone: the card's old host is left on top, not a card that goes up by
//! itself (else it would have gone up), and the next move can put the
//! card back. So the positions host moves join (a component) can each
//! reach every other: a component is won or lost as a whole, and a search
//! that stores one name per component, and expands each component by
//! every move out of every position in it, reaches a won position exactly
//! when the search over positions does. `INSOLUBLE` stays a proof.
//!
//! # Under free rules
//!
//! The free search plays a card up by itself only when the safe rule
//! (`state/automatic.rs`) says so; any other foundation move is a
//! player's move, which sends a card up for good and so leads out of the
//! component like any move that is not a host move. The argument above
//! and the names below need only that a host move sends nothing up and
//! that the cards which would go up by themselves are the same in every
//! position of a component (they depend on the foundation alone), so they
//! hold with "goes up by itself" read as the safe rule. The moves out
//! found without listing (below) then include each suit's next card going
//! up by choice.
//!
//! # Names
//!
//! `Class::of` (`class.rs`) reads from one position which loose cards are *movable*
//! and names the component by the position's key with those cards marked
//! (see its doc for the rule): a component is a product, per rank, of the
//! ways of placing that rank's movable cards on the free hosts of the rank
//! above. Why, in short: a host move takes a movable card to a free host
//! of its rank and sends nothing up, so no rank's count of free hosts and
//! no card's frozen state changes: every position of a component bears
//! the same name. Conversely, the cards above a movable card are movable,
//! each rank of them with a free host, so they can be moved aside one by
//! one, top first, and the card taken to any free host of its rank; with
//! one free host, cards moving among the same hosts reach every placement
//! (a sliding puzzle on a complete graph), and placing one rank after
//! another from the Queens down reaches every placement of the product.
//!
//! The search does not take that argument on trust: expanding a component
//! lists its positions by their host moves, and checks that each lies in
//! the set its name describes (its cards that are not movable where the
//! name has them; the movable ones can only be on hosts, one to a host)
//! and that their count is that set's size, the product
//! (`Class::size`). Then the component is exactly that set, so a later
//! position with that name lies in it and can be skipped. A component
//! that failed the check would stop the search with `ECHEC` rather than
//! let it claim a proof; no run so far has met one. (The tests check the
//! argument itself on small games searched whole: every component bears
//! one name, and no two share one.)
//!
//! # Moves out without listing
//!
//! Listing a component costs as much as the usual search spends on its
//! positions: names would cut the memory, not the time. So a component of
//! four positions or more has its moves out found from one position
//! (`exits.rs`, whose doc has the argument): each move out is a fixed
//! card onto a card one rank higher, both bare in some position; the
//! positions where they are bare are split into families by the hosts of
//! the movable cards that decide where the move leads, until each family
//! provably leads into one component, and one position of each family
//! (built by host moves) gives that component. It rests on the same
//! argument as the names, so the search checks it as it goes: one
//! component in `CHECK_EVERY` (of at most `CHECK_MOST` positions) is
//! listed as well and the components the two ways lead to compared, and
//! the smaller components are listed outright, each listing checking its
//! name and count as above; a mismatch ends the search with `ECHEC`.
//! `--list-components` lists every component, to confirm a proof.
//!
//! # The cost
//!
//! A component found this way costs some tries per move out, whatever its
//! size: on the hardest deals (components of up to millions of positions)
//! this is what makes the search decide more than the usual one can (see
//! docs/components.md). The search is depth-first, children with more
//! cards up first, on `--jobs` threads (`workers.rs`): it is a tool for
//! proofs, and finds wins late.

mod class;
mod dives;
mod exits;
mod stack;
#[cfg(test)]
mod tests;
mod workers;

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;

pub(crate) use class::{Class, is_host_move, marked};
pub use workers::search;

use super::attempt::MOST_MOVES;
use super::{Length, Limits, Outcome, Progress, Report, Stats, rollouts};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::rules::Build;
use crate::state::{Dest, Key, Move, Pairs, State, SuitlessMemo, Triples};

/// Why `--components` cannot search `deal`, if it cannot. The names hold
/// where a card moves only onto a card one rank higher, of any suit, and
/// no register can hold a card (the mark is the register code): Baker's
/// Dozen; and where a card up stays up (forced or free rules: under
/// xpat2's complete rules a foundation move can be undone, and a
/// component would have to hold it).
pub fn refusal(deal: &Deal) -> Option<String> {
    let rules = deal.id.rules;
    if !(rules.only_onto_higher() && rules.build == Build::AnySuit) {
        return Some(format!(
            "'--components' searches Baker's Dozen only (cards built on any card one rank higher, no free cell, nothing into an empty column), not {}",
            rules.name
        ));
    }
    if deal.foundation == Foundation::Xpat2 {
        return Some(
            "'--components' searches under forced or free foundation moves (--rules forced or free), not xpat2's complete rules: there a card can come back from the foundation"
                .into(),
        );
    }
    None
}

/// What [`search_after_first_look`] ends with.
pub enum Answer {
    /// The usual search's first look decided.
    FirstLook(Report),
    /// Nested rollouts (`search/rollouts.rs`) won.
    Rollouts(Report),
    /// The search over components ran.
    Components(Searched),
}

/// The usual search from `start` for a few positions, then, if it has not
/// decided, the search over components (`expansion`, `progress`) within
/// what is left of `limits`. The search over components, depth-first,
/// finds wins late (bd.2: 7 s; the usual search, milliseconds), so a won
/// deal is left to the usual search when it wins within `FIRST_LOOK`
/// positions, and a small lost one when it proves it; nested rollouts
/// then look for a win (`rolled_out`) before the search over components.
///
/// `start` is the deal's start or, from a player's save, their position;
/// under free rules one followed exactly (nothing played up by itself),
/// which both searches take from the position its own safe foundation
/// moves reach. A solution is written as a file of the deal's rules has
/// it: under free rules with every foundation move, those the positions
/// played by themselves included.
pub fn search_after_first_look(
    deal: &Deal,
    start: &State,
    limits: &Limits,
    expansion: Expansion,
    progress: Option<Progress>,
) -> Answer {
    let from_deal = deal.foundation == Foundation::Forced || *start == State::new(deal);
    let (root, up) = if from_deal {
        (start.clone(), Vec::new())
    } else {
        crate::state::searched_from(start, deal)
    };
    let write_out = |report: &mut Report| {
        if let Outcome::Solved(moves) = &mut report.outcome {
            *moves = if from_deal {
                crate::state::written_out(deal, moves)
            } else {
                let mut written = up.clone();
                written.extend(crate::state::written_out_from(&root, moves));
                written
            };
        }
    };
    let look = Limits {
        max_states: FIRST_LOOK.min(limits.max_states),
        jobs: 1,
        rollouts: false,
        ..limits.clone()
    };
    let began = Instant::now();
    let mut look = super::run(deal, &root, &look, None);
    if !matches!(look.outcome, Outcome::GaveUp(_)) {
        write_out(&mut look);
        return Answer::FirstLook(look);
    }
    // A proof before the search over components has none of its
    // figures: its summary counts component names and components.
    let no_components = Stats::default();
    // A deal the first look leaves is a hard one: the triple test, dearer
    // than the look, is worth asking once (`super::lost_by_triples`); the
    // look has asked it already when it expected a loss.
    let proven = |report| {
        Answer::Components(Searched {
            report,
            listed: 0,
            cut: Cuts::default(),
            stopped: None,
        })
    };
    if !limits.prover_alone
        && let Some(report) = super::lost_by_triples(&root, limits, began, &no_components)
    {
        return proven(report);
    }
    let mut progress = progress;
    let rolled = rolled_out(
        deal,
        &root,
        limits,
        &look.stats,
        began,
        progress.as_mut().map(|p| &mut **p as _),
    );
    if let Some(mut report) = rolled {
        write_out(&mut report);
        return Answer::Rollouts(report);
    }
    // Then the suitless game (`super::lost_in_suitless_game`), which a
    // look that expected a loss has asked too, but within its own few
    // positions (bd.78829 under free rules needs 606 000).
    let shown = progress.as_mut().map(|p| &mut **p as _);
    if let Some(report) = super::lost_in_suitless_game(&root, limits, began, &no_components, shown)
    {
        return proven(report);
    }
    let rest = Limits {
        timeout: limits.timeout.map(|t| t.saturating_sub(began.elapsed())),
        ..limits.clone()
    };
    let before = began.elapsed();
    let mut searched = search(&root, &rest, expansion, progress);
    // The time is the whole search's, the first look's and the rollouts'
    // included (a survey's row, a summary); the counts are of names and
    // components.
    searched.report.stats.elapsed += before;
    write_out(&mut searched.report);
    Answer::Components(searched)
}

/// Nested rollouts from `root` (`search/rollouts.rs`) for half the time
/// `limits` leave after `began`: the report of their win (the first
/// look's figures, `look`, with the rollouts' positions expanded and time
/// added), shortened as the usual search's are, if they win.
///
/// Why before the search over components: that search is depth-first
/// and finds wins late, and its dives win fewer of the tail's deals
/// than the rollouts do in the same time (docs/hard-deals.md, twenty-first
/// session); a deal the rollouts do not win keeps the other half of the
/// time for the proof.
fn rolled_out(
    deal: &Deal,
    root: &State,
    limits: &Limits,
    look: &Stats,
    began: Instant,
    progress: Option<Progress>,
) -> Option<Report> {
    let found = rollouts::for_half_the_time(deal, root, limits, began, progress)?;
    let report = Report {
        outcome: Outcome::Solved(found.moves?),
        stats: Stats {
            expanded: look.expanded + found.expanded,
            best_score: found.best_score.max(look.best_score),
            elapsed: began.elapsed(),
            ..look.clone()
        },
    };
    Some(match limits.length {
        Length::Shortened => super::shorten::after(deal, root, limits, report),
        _ => report,
    })
}

/// Positions of the usual search's first look, a fraction of a second:
/// enough to decide most deals at once (a won one in milliseconds, a
/// small lost one by its proof), and no more, since what it leaves goes to
/// the nested rollouts, which win most of the deals a longer look would
/// (2 276 of the 99 626 deals of 1..100000 won forced go past 200 000
/// positions, bd.192 past 651 000; of 1..100000 at 10 s, 3 deals the 3 M
/// look won are left undecided, and 32 it left are won). Measured on
/// `survey bd SEEDS --foundation both --components --fast --timeout 10
/// --jobs 2` (docs/hard-deals.md, twenty-first session): with the
/// rollouts, a look of 200 000 leaves 5 of 1..10000 undecided in 145.6 s
/// and 43 of the tail's 64, where one of 3 M, 2 to 6 s on a hard deal,
/// leaves 6 in 176.1 s and 46.
const FIRST_LOOK: u64 = 200_000;

/// What [`search`] ends with: the usual report, and why no verdict was
/// reached when a component failed its check.
pub struct Searched {
    /// The outcome and the figures: `stored` counts names, `expanded`
    /// components.
    pub report: Report,
    /// Positions listed, in the components whose moves out were found by
    /// listing them.
    pub listed: u64,
    /// Components found lost where they were asked (`stack::cut_lost`),
    /// with what they had not entered yet.
    pub cut: Cuts,
    /// Why the outcome is no verdict, when a component failed its check.
    pub stopped: Option<String>,
}

/// Components a search cut as lost where their subtrees grew, by proof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    /// By the triple test.
    pub triples: u64,
    /// By the suitless game (`crate::state::suitless`), which the triple
    /// test passed.
    pub suitless: u64,
}

/// What expanding one component gives.
struct Expanded {
    /// Positions listed.
    listed: u64,
    /// The moves from the component's first position to a won position,
    /// if one is a move away.
    won: Option<Vec<Move>>,
    /// A position of each new component a move leads to, not lost for
    /// good, with the moves from the first position; more cards up last,
    /// so that they are entered first.
    children: Vec<(State, Vec<Move>)>,
}

/// The names of the components a search has entered or will enter,
/// shared by its threads: what makes the search end, so never forgotten.
struct Names {
    shards: Vec<Mutex<FxHashSet<Key>>>,
    stored: AtomicU64,
}

/// Shards of [`Names`]: enough that two threads seldom wait on one.
const SHARDS: usize = 64;

impl Names {
    fn new() -> Names {
        Names {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            stored: AtomicU64::new(0),
        }
    }

    fn shard(&self, name: &Key) -> &Mutex<FxHashSet<Key>> {
        let [a, b, c] = name.words();
        let mixed = (a ^ b.rotate_left(21) ^ c.rotate_left(42)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.shards[(mixed >> 58) as usize % SHARDS]
    }

    fn contains(&self, name: &Key) -> bool {
        self.shard(name).lock().expect("names").contains(name)
    }

    /// Stores `name`; whether it was new.
    fn insert(&self, name: Key) -> bool {
        let new = self.shard(&name).lock().expect("names").insert(name);
        if new {
            self.stored.fetch_add(1, Relaxed);
        }
        new
    }

    fn len(&self) -> u64 {
        self.stored.load(Relaxed)
    }

    /// Whether `child`'s component is new and not lost for good: then its
    /// name is stored, and the search will enter it.
    fn admit(&self, lost: &mut Losses, child: &State, name: Key) -> bool {
        if lost.met(&name) || self.contains(&name) {
            return false;
        }
        !lost.is_lost(child, name) && self.insert(name)
    }
}

/// How a thread tells components lost for good, and those it met lately:
/// most children are (bd.43311: 19.5 M of 20.3 M names), so they are not
/// stored for good; the set is emptied when it reaches [`LOST_KEPT`], and
/// a component met again after that is tested again. Whether a component
/// is lost is the same from each of its positions (each reaches every
/// other), and does not depend on the search: dives borrow a thread's.
struct Losses {
    met: FxHashSet<Key>,
    /// Components the triple test found lost, with those entered beneath
    /// them: kept for good (over ten thousand an hour: bd.7927, 12 767
    /// cut in one), since each cost a test and most lie near the start,
    /// where every dive passes again.
    cut: FxHashSet<Key>,
    /// The pair test, unless the search leaves it out (`--no-pairs`).
    pairs: Option<Pairs>,
    /// The triple test, with the pair test: asked of components whose
    /// subtrees grow large (`stack::cut_lost`).
    triples: Option<Triples>,
    /// The suitless game, with what it proved lost, asked where the
    /// triple test is, after it.
    suitless: Option<SuitlessMemo>,
    /// Triple tests asked, and components they found lost.
    pub(super) triple_tests: u64,
    pub(super) triple_cuts: u64,
    /// Components the suitless game found lost.
    pub(super) suitless_cuts: u64,
    /// When this thread's search began, and how long the suitless game
    /// took since.
    began: Instant,
    suitless_time: Duration,
}

/// The suitless game takes at most one part in this many of a thread's
/// time.
const SUITLESS_SHARE: u32 = 4;

/// The most positions the suitless game searches from a component whose
/// subtree grew (some 0.2 s): bd.1649's, where it cuts, are lost within
/// 10 000 to 170 000.
const SUITLESS_MOST: usize = 200_000;

/// The most names of lost components kept at once (some 200 MB).
const LOST_KEPT: usize = 4_000_000;

impl Losses {
    fn new(pairs: bool) -> Losses {
        Losses {
            met: FxHashSet::default(),
            cut: FxHashSet::default(),
            pairs: pairs.then(Pairs::default),
            triples: pairs.then(Triples::default),
            suitless: None,
            triple_tests: 0,
            triple_cuts: 0,
            suitless_cuts: 0,
            began: Instant::now(),
            suitless_time: Duration::ZERO,
        }
    }

    /// Whether `name` is of a component found lost lately.
    fn met(&self, name: &Key) -> bool {
        self.met.contains(name) || self.cut.contains(name)
    }

    /// Keeps `name`, of a component found lost by the triple test or
    /// reachable from one, so that no dive or search enters it again.
    fn cut(&mut self, name: Key) {
        self.cut.insert(name);
    }

    /// Whether the component of `first` is lost by the triple test, or
    /// else by the suitless game within [`SUITLESS_MOST`] positions
    /// (never when the search leaves the pair test out).
    fn proven_lost(&mut self, first: &State) -> bool {
        let Some(triples) = self.triples.as_mut() else {
            return false;
        };
        self.triple_tests += 1;
        if triples.is_lost(first) {
            self.triple_cuts += 1;
            return true;
        }
        let Some(memo) = self.suitless.as_mut() else {
            return false;
        };
        // Within its share of the thread's time: it is lost where it is
        // asked about as often as not on some deals, never on others.
        if self.suitless_time * SUITLESS_SHARE > self.began.elapsed() {
            return false;
        }
        let asked = Instant::now();
        let lost = memo.search(first, SUITLESS_MOST, || false).is_lost();
        self.suitless_time += asked.elapsed();
        self.suitless_cuts += u64::from(lost);
        lost
    }

    /// Whether `child`'s component (`name`) is lost for good: the closure
    /// (`State::is_blocked_for_good`), then the pair test, which costs
    /// more (tens of microseconds) and finds most of what the closure
    /// misses on the hardest deals (bd.7927: 81 % of the children it
    /// passes, over 1 500 s).
    fn is_lost(&mut self, child: &State, name: Key) -> bool {
        let lost = child.is_blocked_for_good()
            || self
                .pairs
                .as_mut()
                .is_some_and(|pairs| pairs.is_lost(child))
            || self
                .suitless
                .as_ref()
                .is_some_and(|memo| memo.known_lost(child));
        if lost {
            // A cache: emptied when full, or when it cannot grow (memory
            // run out: emptied, it inserts without allocating).
            if self.met.len() >= LOST_KEPT || self.met.try_reserve(1).is_err() {
                self.met.clear();
            }
            self.met.insert(name);
        }
        lost
    }
}

/// How the search finds the moves out of a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// From one of its positions where it can (`exits.rs`), listing the
    /// component where it cannot.
    MovesOut,
    /// By listing every component (`--list-components`): slower, and each
    /// listing checks the component's name, so that a proof found the
    /// other way can be confirmed.
    Listing,
}

/// How a thread expands components.
struct Expander<'a> {
    names: &'a Names,
    /// Components lost for good, and those met lately.
    lost: Losses,
    /// The most positions one listing may hold.
    most: usize,
    expansion: Expansion,
    /// Components expanded by their moves out since the last one also
    /// listed to check them.
    unchecked: u32,
}

impl<'a> Expander<'a> {
    fn new(names: &'a Names, most: usize, expansion: Expansion, pairs: bool) -> Expander<'a> {
        Expander {
            names,
            lost: Losses::new(pairs),
            most,
            expansion,
            unchecked: 0,
        }
    }

    /// Expands the component of `first`: finds the moves out of it, from
    /// `first` alone when it can (`exits.rs`), else by listing it, and
    /// names the components they lead to, recording the new ones.
    /// `stopped` is asked every [`LOOK_EVERY`] positions listed: a
    /// component of millions of positions takes long enough to list that
    /// a limit or a Ctrl-C must not wait for its end.
    fn expand(&mut self, first: &State, stopped: &dyn Fn() -> bool) -> Result<Expanded, Failure> {
        let class = Class::of(first);
        if class.size >= TRIPLES_FROM_SIZE && self.lost.proven_lost(first) {
            self.lost.cut(class.name);
            return Ok(Expanded {
                listed: 0,
                won: None,
                children: Vec::new(),
            });
        }
        let checking = self.unchecked + 1 >= CHECK_EVERY && class.size <= CHECK_MOST;
        // The names of the components met (for the check), and those of
        // the components kept, not to keep a component twice: a component
        // of millions of positions can lead to millions of moves out.
        let (mut found, mut kept) = (FxHashSet::default(), FxHashSet::default());
        let exits = if self.expansion == Expansion::Listing || class.size < LISTED_BELOW {
            Err(exits::Unfound::Listing)
        } else {
            let budget = (class.size * TRIES_PER_POSITION).min(u128::from(u32::MAX));
            let (names, lost) = (self.names, &self.lost);
            // Only read here: a name stored as met would be skipped by the
            // listing if the moves out are not found after all.
            let mut keep = |_: &State, name: Key| {
                if checking {
                    found.insert(name);
                }
                kept.insert(name) && !lost.met(&name) && !names.contains(&name)
            };
            exits::children(first, &class, budget as usize, stopped, &mut keep)
        };
        let exits = match exits {
            Ok(exits) => exits,
            Err(exits::Unfound::Stopped) => return Err(Failure::Stopped),
            Err(exits::Unfound::Listing) => {
                let (names, lost) = (self.names, &mut self.lost);
                let listing = list(first, &class, self.most, stopped, |child| {
                    names.admit(lost, child, Class::of(child).name)
                })?;
                return Ok(listing.expanded());
            }
        };
        if let Some(exit) = exits.iter().find(|e| e.child.is_won()) {
            return Ok(Expanded {
                listed: 0,
                won: Some(exit.moves.clone()),
                children: Vec::new(),
            });
        }
        self.unchecked += 1;
        if checking {
            self.unchecked = 0;
            let mut listed = FxHashSet::default();
            list(first, &class, self.most, stopped, |child| {
                listed.insert(Class::of(child).name);
                false
            })?;
            if found != listed {
                return Err(Failure::Mismatch);
            }
        }
        // Each new child costs its lost tests (the pair test's tens of
        // microseconds), and a component of millions of positions can
        // have millions of moves out: a stop must not wait for them all.
        let mut children: Vec<(State, Vec<Move>)> = Vec::new();
        for (i, exit) in exits.into_iter().enumerate() {
            if i % ADMIT_LOOK_EVERY == ADMIT_LOOK_EVERY - 1 && stopped() {
                return Err(Failure::Stopped);
            }
            if self.names.admit(&mut self.lost, &exit.child, exit.name) {
                children.push((exit.child, exit.moves));
            }
        }
        children.sort_by_key(|(child, _)| child.score());
        Ok(Expanded {
            listed: 0,
            won: None,
            children,
        })
    }
}

/// How long between two calls of the progress callback.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Components smaller than this are listed: as cheap as finding their
/// moves out, and each listing checks its name (bd.1649, 30 s: 3.13 M
/// components expanded listing those under 4 positions, 2.88 M under 16).
/// In the unit tests, whose small games have small components, only
/// single positions are.
const LISTED_BELOW: u128 = if cfg!(test) { 2 } else { 4 };

/// Components at least this large are asked the triple test before they
/// are expanded: finding the moves out of one, or listing it, costs some
/// microseconds a position, more than the test's tens of milliseconds
/// (bd.7922, whose components hold up to millions of positions, expanded
/// 822 components in 300 s). In the unit tests, whose components are
/// small, a few positions: the searches of small games ask it.
const TRIPLES_FROM_SIZE: u128 = if cfg!(test) { 4 } else { 100_000 };

/// Families of moves out tried per position of a component before it is
/// listed instead. Listing a position costs a few families (one per move
/// out of it, and its host moves), and a component that runs out of
/// tries is rare at this figure (bd.1649, 30 s: 2.87 M components
/// expanded at 16 tries a position, 2.48 M at 1, most time spent listing).
const TRIES_PER_POSITION: u128 = 16;

/// One component expanded by its moves out in this many is also listed,
/// and the two sets of children compared (a mismatch stops the search
/// with no verdict), when it holds at most [`CHECK_MOST`] positions.
const CHECK_EVERY: u32 = 64;
const CHECK_MOST: u128 = 10_000;

/// A component listed.
struct Listing {
    /// Each position listed, with the position it was reached from and
    /// the move, to find the way back.
    listed: Vec<(State, u32, Move)>,
    /// The position and move leading to a won position, if met.
    won: Option<(u32, Move)>,
    /// The positions out of it `outside` kept, with where they come from.
    outside: Vec<(State, u32, Move)>,
}

impl Listing {
    /// The moves from the first position listed to the `at`-th.
    fn way_to(&self, mut at: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        while at != u32::MAX {
            let (_, from, mv) = &self.listed[at as usize];
            if *from != u32::MAX {
                moves.push(*mv);
            }
            at = *from;
        }
        moves.reverse();
        moves
    }

    fn expanded(mut self) -> Expanded {
        let listed = self.listed.len() as u64;
        if let Some((at, mv)) = self.won {
            let mut moves = self.way_to(at);
            moves.push(mv);
            return Expanded {
                listed,
                won: Some(moves),
                children: Vec::new(),
            };
        }
        let mut children: Vec<(State, Vec<Move>)> = std::mem::take(&mut self.outside)
            .into_iter()
            .map(|(child, at, mv)| {
                let mut moves = self.way_to(at);
                moves.push(mv);
                (child, moves)
            })
            .collect();
        children.sort_by_key(|(child, _)| child.score());
        Expanded {
            listed,
            won: None,
            children,
        }
    }
}

/// Lists the component of `first` by its host moves, checking each
/// position's name and their count, and hands each position a move out
/// leads to to `outside`, keeping those it says to keep.
fn list(
    first: &State,
    class: &Class,
    most: usize,
    stopped: &dyn Fn() -> bool,
    mut outside: impl FnMut(&State) -> bool,
) -> Result<Listing, Failure> {
    let mut listing = Listing {
        listed: vec![(first.clone(), u32::MAX, NO_MOVE)],
        won: None,
        outside: Vec::new(),
    };
    let mut keys: FxHashSet<Key> = FxHashSet::default();
    keys.insert(first.key());
    let mut at = 0;
    while at < listing.listed.len() && listing.won.is_none() {
        let here = listing.listed[at].0.clone();
        let mut mismatch = false;
        // The listing's tables are the largest that grow here: room for
        // every move of `here` first, or the search stops out of memory.
        let room = (listing.listed.try_reserve(MOST_MOVES))
            .and(listing.outside.try_reserve(MOST_MOVES))
            .and(keys.try_reserve(MOST_MOVES));
        if room.is_err() {
            crate::memory::ran_out();
            return Err(Failure::Stopped);
        }
        here.for_each_move(|mv| {
            let mut next = here.clone();
            next.apply(mv);
            if next.is_won() {
                listing.won.get_or_insert((at as u32, mv));
                return;
            }
            if keys.contains(&next.key()) {
                return;
            }
            if is_host_move(&here, mv, &next) {
                // In the component's set (fixed cards where the name has
                // them, movable ones on hosts): with the count checked
                // below, the component is that set.
                mismatch |= marked(&next, class.movable) != class.name;
                keys.insert(next.key());
                listing.listed.push((next, at as u32, mv));
            } else if outside(&next) {
                listing.outside.push((next, at as u32, mv));
            }
        });
        if mismatch {
            return Err(Failure::Mismatch);
        }
        if listing.listed.len() > most {
            return Err(Failure::TooLarge);
        }
        // Memory run out is looked at every position (an atomic load): the
        // listing's tables grow infallibly, and the spare that let the
        // last allocation through (`memory::WithSpare`) is spent.
        if (at % LOOK_EVERY == 0 && stopped()) || crate::memory::low() {
            return Err(Failure::Stopped);
        }
        at += 1;
    }
    if listing.won.is_none() && listing.listed.len() as u128 != class.size {
        return Err(Failure::Mismatch);
    }
    Ok(listing)
}

/// A placeholder for the first position's move (it has none).
const NO_MOVE: Move = Move {
    card: 0,
    dest: Dest::Register,
};

/// Why a component was not expanded.
#[derive(Debug)]
enum Failure {
    /// Its positions are not the set its name describes: the names
    /// cannot be trusted (a bug), so there is no proof.
    Mismatch,
    /// It holds more positions than a thread may list at once.
    TooLarge,
    /// The search was stopped (a limit, another thread's end) while it
    /// was listed.
    Stopped,
}

/// How many positions a component's listing goes between two looks at
/// whether the search is stopped (some milliseconds).
const LOOK_EVERY: usize = 1 << 14;

/// How many moves out of a component are admitted (each child tested,
/// the pair test costing tens of microseconds) between two looks at
/// whether the search is stopped.
const ADMIT_LOOK_EVERY: usize = 256;

/// What a thread may spend listing one component, a position: the
/// position (about 150 bytes), its key in the set of those listed, and
/// the way back to it.
pub(crate) const LISTED_BYTES: u64 = 200;

/// What the search says when a component fails its check.
pub(crate) const MISMATCH: &str =
    "a component did not match its name (a bug: please report the deal), so no proof";

//! `-search --components`: Baker's Dozen under forced rules searched one
//! *component* at a time, storing a name per component where the usual
//! search stores every position (docs/components.md has the figures).
//!
//! # Components
//!
//! A *host move* takes a card lying on a card one rank higher (its host)
//! to another card one rank higher, and sends no card up. It can be
//! undone: the card's old host is left on top, not its suit's next card
//! (else it would have gone up), and the next move can put the card back.
//! So the positions host moves join (a component) can each reach every
//! other: a component is won or lost as a whole, and a search that stores
//! one name per component, and expands each component by every move out
//! of every position in it, reaches a won position exactly when the
//! search over positions does. `INSOLUBLE` stays a proof.
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
//! # The cost
//!
//! Every position is still listed once, as the usual search expands it
//! once: names cut the memory (11 to 704 positions a name on the hardest
//! deals), not the time. The search is depth-first, children with more
//! cards up first, on `--jobs` threads (`workers.rs`): it is a tool for
//! proofs, and finds wins late.

mod class;
#[cfg(test)]
mod tests;
mod workers;

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rustc_hash::FxHashSet;

pub(crate) use class::{Class, is_host_move, marked};
pub use workers::search;

use super::Report;
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::rules::Build;
use crate::state::{Dest, Key, Move, State};

/// Why `--components` cannot search `deal`, if it cannot. The names hold
/// where a card moves only onto a card one rank higher, of any suit, and
/// no register can hold a card (the mark is the register code): Baker's
/// Dozen; and where every card that can go up goes up.
pub fn refusal(deal: &Deal) -> Option<String> {
    let rules = deal.id.rules;
    if !(rules.only_onto_higher() && rules.build == Build::AnySuit) {
        return Some(format!(
            "'--components' searches Baker's Dozen only (cards built on any card one rank higher, no free cell, nothing into an empty column), not {}",
            rules.name
        ));
    }
    if deal.foundation != Foundation::Forced {
        return Some(
            "'--components' needs forced foundation moves (--rules forced): a component's name relies on every card that can go up going up"
                .into(),
        );
    }
    None
}

/// What [`search`] ends with: the usual report, and why no verdict was
/// reached when a component failed its check.
pub struct Searched {
    /// The outcome and the figures: `stored` counts names.
    pub report: Report,
    /// Why the outcome is no verdict, when a component failed its check.
    pub stopped: Option<String>,
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
    /// name is stored, and the search will enter it. `lost` holds the
    /// components lost for good this thread met lately: most children
    /// are (bd.43311: 19.5 M of 20.3 M names), so they are not stored for
    /// good; the set is emptied when it reaches [`LOST_KEPT`], and a
    /// component met again after that is tested again.
    fn admit(&self, lost: &mut FxHashSet<Key>, child: &State) -> bool {
        let name = Class::of(child).name;
        if lost.contains(&name) || self.contains(&name) {
            return false;
        }
        if child.is_blocked_for_good() {
            if lost.len() >= LOST_KEPT {
                lost.clear();
            }
            lost.insert(name);
            return false;
        }
        self.insert(name)
    }
}

/// The most names of lost components kept at once (some 200 MB).
const LOST_KEPT: usize = 4_000_000;

/// Lists the component of `first` by its host moves, checking each
/// position's name and their count, and names the components its other
/// moves lead to, recording the new ones in `names`.
/// `stopped` is asked every [`LOOK_EVERY`] positions listed: a component
/// of millions of positions takes long enough to list that a limit or a
/// Ctrl-C must not wait for its end.
fn expand(
    first: &State,
    names: &Names,
    lost: &mut FxHashSet<Key>,
    most: usize,
    stopped: &dyn Fn() -> bool,
) -> Result<Expanded, Failure> {
    let class = Class::of(first);
    // Each position listed, with the position it was reached from and
    // the move, to find the way back.
    let mut listed: Vec<(State, u32, Move)> = vec![(first.clone(), u32::MAX, NO_MOVE)];
    let mut keys: FxHashSet<Key> = FxHashSet::default();
    keys.insert(first.key());
    // The new components met, named as soon as met so that a component
    // of a million positions does not keep all its moves out.
    let mut outside: Vec<(State, u32, Move)> = Vec::new();
    let mut won = None;
    let mut at = 0;
    while at < listed.len() && won.is_none() {
        let here = listed[at].0.clone();
        let mut mismatch = false;
        here.for_each_move(|mv| {
            let mut next = here.clone();
            next.apply(mv);
            if next.is_won() {
                won.get_or_insert((at, mv));
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
                listed.push((next, at as u32, mv));
            } else if names.admit(lost, &next) {
                outside.push((next, at as u32, mv));
            }
        });
        if mismatch {
            return Err(Failure::Mismatch);
        }
        if listed.len() > most {
            return Err(Failure::TooLarge);
        }
        if at % LOOK_EVERY == 0 && stopped() {
            return Err(Failure::Stopped);
        }
        at += 1;
    }
    let way_to = |mut at: u32| {
        let mut moves = Vec::new();
        while at != u32::MAX {
            let (_, from, mv) = &listed[at as usize];
            if *from != u32::MAX {
                moves.push(*mv);
            }
            at = *from;
        }
        moves.reverse();
        moves
    };
    if let Some((at, mv)) = won {
        let mut moves = way_to(at as u32);
        moves.push(mv);
        return Ok(Expanded {
            listed: listed.len() as u64,
            won: Some(moves),
            children: Vec::new(),
        });
    }
    if listed.len() as u128 != class.size {
        return Err(Failure::Mismatch);
    }
    let mut children: Vec<(State, Vec<Move>)> = outside
        .into_iter()
        .map(|(child, at, mv)| {
            let mut moves = way_to(at);
            moves.push(mv);
            (child, moves)
        })
        .collect();
    children.sort_by_key(|(child, _)| child.score());
    Ok(Expanded {
        listed: listed.len() as u64,
        won: None,
        children,
    })
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

/// What a thread may spend listing one component, a position: the
/// position (about 150 bytes), its key in the set of those listed, and
/// the way back to it.
pub(crate) const LISTED_BYTES: u64 = 200;

/// What the search says when a component fails its check.
pub(crate) const MISMATCH: &str =
    "a component did not match its name (a bug: please report the deal), so no proof";

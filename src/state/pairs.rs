//! Positions lost because no two of the facts a win needs can ever hold
//! together: *pair reachability* (h², Haslum and Geffner's h^m with
//! m = 2), over a model of the game whose facts are where each card lies.
//!
//! The closure of `lost.rs` asks which events can happen at all, ignoring
//! that a card on a host keeps every other card off it. That is what the
//! hardest Baker's Dozen deals turn on: two Tens wanting the one Jack that
//! can be bared, three Queens and two reachable Kings. Pairs of facts see
//! it: "the Ten of spades on the Jack of spades" and "the Ten of diamonds
//! on the Jack of spades" never hold together, and neither does "the Jack
//! bare" with either.
//!
//! # The model
//!
//! In the games where a card moves only onto a card one rank higher (as
//! the build rule allows) or to the foundation, no register exists and an
//! empty column takes nothing (Baker's Dozen, Midnight Oil: see
//! [`Rules::only_onto_higher`]), a position is described by these facts:
//! - `IN(c)`: card c lies where it was dealt, on a card it may not be
//!   built on, or on a column's floor (it has never moved: a moved card
//!   lies on a card it is built on, or is up);
//! - `ON(c, d)`: c lies on d, a card it may be built on (moved there, or
//!   dealt there: both behave alike below);
//! - `UP(c)`: c is on the foundation;
//! - `CLEAR(c)`: c is on the tableau with nothing on it.
//!
//! Each move is an action with preconditions, facts it adds and facts it
//! deletes:
//! - c from `IN(c)` (over the card b it lies on, if any) or from `ON(c, e)`
//!   onto a card d it may be built on: needs the *from* fact, `CLEAR(c)`
//!   and `CLEAR(d)`; adds `ON(c, d)` and `CLEAR(b)` (or `CLEAR(e)`);
//!   deletes the *from* fact and `CLEAR(d)`;
//! - c to the foundation from either: needs the *from* fact, `CLEAR(c)`
//!   and `UP` of its suit's card one rank lower (none for an Ace); adds
//!   `UP(c)` and `CLEAR(b)` (or `CLEAR(e)`); deletes the *from* fact and
//!   `CLEAR(c)`;
//! - where a foundation's top card may come back (xpat2's complete rules,
//!   SPEC §10), c back onto d: needs `UP(c)` and `CLEAR(d)`; adds
//!   `ON(c, d)` and `CLEAR(c)`; deletes `UP(c)` and `CLEAR(d)`. The
//!   model leaves out that c must be its foundation's top card: an action
//!   with fewer needs allows more plays, never fewer.
//!
//! Every move of the real game, from a position described exactly by its
//! facts, is one of these actions and leads to the position its result
//! describes; a card that goes up by itself (forced rules, or a safe
//! foundation move under free ones) is a foundation action too. So every
//! real play is a plan of the model, and a position the model cannot win
//! is lost, under forced, free and complete rules alike. (A card dealt on
//! a card it may be built on is described by `ON`: leaving, it bares the
//! same card as from `IN`, and it could not go back there from `IN`
//! either, its host being covered by it.)
//!
//! # Pairs
//!
//! Call a fact, or a pair of facts, *reachable* when some sequence of
//! actions leads to a state holding it. The fixed point below marks a set
//! of facts and pairs containing every reachable one:
//! - every fact of the position, and every pair of them, is marked;
//! - an action whose needs are marked, each and in pairs, marks each fact
//!   it adds and each pair of them; and with each fact q it neither adds
//!   nor deletes, marked in a pair with each of its needs (and alone),
//!   each pair of q and a fact it adds.
//!
//! By induction on a plan's length, every fact and pair of facts of each
//! state it reaches is marked: a pair of the next state either was in the
//! state before (the action deleted neither), or holds a fact the action
//! added and a fact it added or kept, and every need of the action, and
//! the fact it kept, held in the state before, so each such pair was
//! marked. A won position holds `UP(c)` for all 52 cards; so when a card's
//! `UP` or a pair of two of them is left unmarked, no plan wins, and the
//! position is lost.
//!
//! A position the closure passes may still be lost by pairs. The tests
//! hold the model and the test to the game: every legal move is an action
//! leading to the position the move leads to; no position a plain search
//! wins is called lost (small games under forced, free and complete
//! rules, walks of real deals); and searches of small games over
//! components give the plain verdicts with this test and without it.
//!
//! [`Rules::only_onto_higher`]: crate::rules::Rules::only_onto_higher

use super::{FLOOR, FOUNDATION, State};
use crate::cards::{CARDS, Card, KING, card_of, rank, suit};

/// Facts of the model: `IN`, `UP`, `CLEAR` a card each, then `ON(c, d)`
/// for each card below a King and each suit of d.
const FACTS: usize = 3 * CARDS + 4 * (CARDS - 4);
/// Words of a set of facts, a bit per fact.
const WORDS: usize = FACTS.div_ceil(64);

type Facts = [u64; WORDS];
/// Rows of the pair table: one per bit of a set, so that a bit read from
/// a set indexes a row without a bounds check.
const ROWS: usize = WORDS * 64;

const fn is_in(card: Card) -> u16 {
    card as u16
}
const fn up(card: Card) -> u16 {
    (CARDS + card as usize) as u16
}
const fn clear(card: Card) -> u16 {
    (2 * CARDS + card as usize) as u16
}
const fn on(card: Card, host: Card) -> u16 {
    (3 * CARDS + 4 * card as usize + suit(host) as usize) as u16
}

#[inline]
fn has(set: &Facts, fact: u16) -> bool {
    set[fact as usize / 64] >> (fact % 64) & 1 == 1
}

#[inline]
fn mark(set: &mut Facts, fact: u16) {
    set[fact as usize / 64] |= 1 << (fact % 64);
}

#[inline]
fn unmark(set: &mut Facts, fact: u16) {
    set[fact as usize / 64] &= !(1 << (fact % 64));
}

/// Every card's `UP`.
const ALL_UP: Facts = {
    let mut set = [0; WORDS];
    let mut card = 0;
    while card < CARDS as Card {
        let fact = up(card);
        set[fact as usize / 64] |= 1 << (fact % 64);
        card += 1;
    }
    set
};

/// One move of the model: at most three needs, two facts added, two
/// deleted (`NONE` fills the unused places).
#[derive(Clone, Copy)]
struct Action {
    needs: [u16; 3],
    adds: [u16; 2],
    deletes: [u16; 2],
}

const NONE: u16 = u16::MAX;

impl Action {
    /// An action from its facts, `NONE` standing for an unused place: each
    /// is filled with the first fact of its kind (a need, add or delete
    /// twice over changes nothing), so the fixed point reads fixed arrays.
    fn new(needs: [u16; 3], adds: [u16; 2], deletes: [u16; 2]) -> Action {
        fn fill<const N: usize>(mut facts: [u16; N]) -> [u16; N] {
            let first = facts[0];
            for fact in &mut facts {
                if *fact == NONE {
                    *fact = first;
                }
            }
            facts
        }
        Action {
            needs: fill(needs),
            adds: fill(adds),
            deletes: fill(deletes),
        }
    }
}

/// The pair test, with room for its work: one per thread, reused from
/// position to position (no allocation per test).
pub struct Pairs {
    actions: Vec<Action>,
    /// Facts marked alone.
    single: Facts,
    /// For each fact, the facts marked in a pair with it.
    pairs: Box<[Facts; ROWS]>,
    /// The pairs of two cards' `UP` (a card with itself included) not
    /// yet marked: none left, the pairs prove nothing.
    goals_left: u32,
}

impl Default for Pairs {
    fn default() -> Pairs {
        Pairs {
            actions: Vec::with_capacity(1024),
            single: [0; WORDS],
            pairs: Box::new([[0; WORDS]; ROWS]),
            goals_left: 0,
        }
    }
}

impl Pairs {
    /// Whether `state` is lost by pairs (the module doc). Always false
    /// outside the games the model describes.
    pub fn is_lost(&mut self, state: &State) -> bool {
        if !state.rules.only_onto_higher() {
            return false;
        }
        let initial = self.model(state);
        self.single = initial;
        self.pairs.fill([0; WORDS]);
        for fact in 0..FACTS as u16 {
            if has(&initial, fact) {
                self.pairs[fact as usize] = initial;
            }
        }
        let ups: u32 = initial
            .iter()
            .zip(&ALL_UP)
            .map(|(i, u)| (i & u).count_ones())
            .sum();
        let goals = CARDS as u32 * (CARDS as u32 + 1) / 2;
        self.goals_left = goals - ups * (ups + 1) / 2;
        let mut changed = [u64::MAX; WORDS];
        loop {
            if self.goals_left == 0 {
                return false;
            }
            if !self.sweep(&mut changed) {
                return true;
            }
        }
    }

    /// The actions of `state`'s model that may ever apply, and its facts.
    /// A card up stays up unless cards come back, and a card that has
    /// left its dealt place never returns there: their other actions can
    /// never apply and are left out.
    fn model(&mut self, state: &State) -> Facts {
        let build = state.rules.build;
        let returns = state.returns;
        let mut facts = [0; WORDS];
        self.actions.clear();
        for card in 0..CARDS as Card {
            let below = state.below[card as usize];
            if below == FOUNDATION {
                mark(&mut facts, up(card));
                if !returns {
                    continue;
                }
            } else {
                if state.above(card).is_none() {
                    mark(&mut facts, clear(card));
                }
                let dealt = below == FLOOR || !build.allows(card, below);
                if dealt {
                    mark(&mut facts, is_in(card));
                    let bared = (below != FLOOR).then(|| clear(below));
                    self.leaving(state, card, is_in(card), bared, None);
                } else {
                    mark(&mut facts, on(card, below));
                }
            }
            if rank(card) == KING {
                continue;
            }
            for host in hosts(state, card) {
                self.leaving(state, card, on(card, host), Some(clear(host)), Some(host));
                if returns {
                    self.actions.push(Action::new(
                        [up(card), clear(host), NONE],
                        [on(card, host), clear(card)],
                        [up(card), clear(host)],
                    ));
                }
            }
        }
        facts
    }

    /// The actions taking `card` away from `from` (a fact of it), baring
    /// `bared` (the card it lay on, if any): onto each host but
    /// `except`, and up.
    fn leaving(
        &mut self,
        state: &State,
        card: Card,
        from: u16,
        bared: Option<u16>,
        except: Option<Card>,
    ) {
        let bared = bared.unwrap_or(NONE);
        if rank(card) < KING {
            for host in hosts(state, card) {
                if Some(host) == except || bared == clear(host) {
                    continue;
                }
                self.actions.push(Action::new(
                    [from, clear(card), clear(host)],
                    [on(card, host), bared],
                    [from, clear(host)],
                ));
            }
        }
        let lower = if rank(card) > 1 { up(card - 4) } else { NONE };
        self.actions.push(Action::new(
            [from, clear(card), lower],
            [up(card), bared],
            [from, clear(card)],
        ));
    }

    /// Applies every action whose needs' pairs changed since it was last
    /// applied (all of them the first time: `changed` holds every fact);
    /// whether anything new was marked. An action adds only what its
    /// needs' pairs allow, so one whose needs' pairs are as they were
    /// adds nothing new.
    fn sweep(&mut self, changed: &mut Facts) -> bool {
        let before = *changed;
        *changed = [0; WORDS];
        let mut any = false;
        for action in &self.actions {
            let [a, b, c] = action.needs;
            let dirty = |set: &Facts| has(set, a) | has(set, b) | has(set, c);
            if !(dirty(&before) | dirty(changed)) {
                continue;
            }
            if !(has(&self.single, a) & has(&self.single, b) & has(&self.single, c)) {
                continue;
            }
            let (ra, rb) = (&self.pairs[a as usize], &self.pairs[b as usize]);
            if !(has(ra, b) & has(ra, c) & has(rb, c)) {
                continue;
            }
            // The facts that may stand beside an added one after it: those
            // marked with every need and not deleted, and the added ones.
            let rc = &self.pairs[c as usize];
            let mut beside = [0; WORDS];
            for w in 0..WORDS {
                beside[w] = self.single[w] & ra[w] & rb[w] & rc[w];
            }
            for deleted in action.deletes {
                unmark(&mut beside, deleted);
            }
            for added in action.adds {
                mark(&mut beside, added);
            }
            for added in action.adds {
                mark(&mut self.single, added);
                for w in 0..WORDS {
                    let mut new = beside[w] & !self.pairs[added as usize][w];
                    if new == 0 {
                        continue;
                    }
                    any = true;
                    mark(changed, added);
                    changed[w] |= new;
                    self.pairs[added as usize][w] |= new;
                    if has(&ALL_UP, added) {
                        self.goals_left -= (new & ALL_UP[w]).count_ones();
                        if self.goals_left == 0 {
                            return true;
                        }
                    }
                    let (word, bit) = (added as usize / 64, 1 << (added % 64));
                    while new != 0 {
                        let other = (w * 64 + new.trailing_zeros() as usize) % ROWS;
                        new &= new - 1;
                        self.pairs[other][word] |= bit;
                    }
                }
            }
        }
        any
    }
}

/// The cards `card` may be built on, under `state`'s rules.
fn hosts(state: &State, card: Card) -> impl Iterator<Item = Card> {
    let build = state.rules.build;
    let above = rank(card) + 1;
    (0..4)
        .filter(move |_| above <= KING)
        .map(move |s| card_of(above, s))
        .filter(move |&host| build.allows(card, host))
}

#[cfg(test)]
mod tests;
mod triples;

pub use triples::Triples;

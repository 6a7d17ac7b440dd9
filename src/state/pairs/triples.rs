//! The same test with triples of facts (h³): stronger, some two thousand
//! times dearer (a tenth of a second a position), so asked only where a
//! search is about to be long, of the position it starts from.
//!
//! Pairs see two cards wanting one host; triples see three cards wanting
//! two, or a host two cards want while a third covers the card that would
//! bare another. The argument is the pairs' one (the module doc of
//! `pairs.rs`), with sets of up to three facts: every fact, pair and
//! triple of the position is marked; an action whose needs are marked
//! together marks each set of at most three facts of the state after it
//! that holds a fact it adds, when every set of at most three facts among
//! its needs and the set's other facts (those it keeps) is marked. By
//! induction on a plan's length every such set of every state it reaches
//! is marked; a won position holds every card's `UP`, so a triple of them
//! left unmarked proves the position lost.

use super::{ALL_UP, Action, FACTS, Facts, Pairs, ROWS, WORDS, has, mark, unmark};
use crate::state::State;

/// The triple test, with its table (7 MB, reused from position to
/// position).
#[derive(Default)]
pub struct Triples {
    /// The pair test: asked first, and the model's builder.
    pairs: Pairs,
    /// For each pair of facts {x, y} (its [`row`]), the facts z with
    /// {x, y, z} marked: a set of two facts is {x, x, z}, a fact alone
    /// {x, x, x}.
    table: Vec<Facts>,
    /// For each row of the table, the clock when it last gained a fact.
    stamps: Vec<u32>,
    /// Counts the actions applied: the clock of the stamps.
    clock: u32,
    /// For each action, the clock when it was last applied (0: never),
    /// and the facts it kept then.
    applied: Vec<(u32, Facts)>,
}

/// The row of the pair {x, y}: one row for both orders, the rows of a
/// triangle (half the table, half the writes of a mark).
#[inline]
fn row(x: u16, y: u16) -> usize {
    let (low, high) = if x <= y { (x, y) } else { (y, x) };
    let high = high as usize;
    high * (high + 1) / 2 + low as usize
}

/// Rows of the table: one per pair of facts.
const TABLE_ROWS: usize = ROWS * (ROWS + 1) / 2;

impl Triples {
    /// Whether `state` is lost by pairs, or else by triples (the module
    /// doc). Always false outside the games the model describes, and
    /// when the memory for its table cannot be had.
    pub fn is_lost(&mut self, state: &State) -> bool {
        if !state.rules.only_onto_higher() {
            return false;
        }
        if self.pairs.is_lost(state) {
            return true;
        }
        let initial = self.pairs.model(state);
        // The table is the one allocation of note: without the memory for
        // it the test proves nothing, and the search goes on without it.
        if self.table.len() == TABLE_ROWS {
            self.table.fill([0; WORDS]);
            self.stamps.fill(0);
        } else if self.table.try_reserve_exact(TABLE_ROWS).is_ok()
            && self.stamps.try_reserve_exact(TABLE_ROWS).is_ok()
        {
            self.table.resize(TABLE_ROWS, [0; WORDS]);
            self.stamps.resize(TABLE_ROWS, 0);
        } else {
            return false;
        }
        self.clock = 0;
        let actions = std::mem::take(&mut self.pairs.actions);
        self.applied.clear();
        if self.applied.try_reserve(actions.len()).is_err() {
            self.pairs.actions = actions;
            return false;
        }
        self.applied.resize(actions.len(), (0, [0; WORDS]));
        for x in facts(&initial) {
            for y in facts(&initial) {
                self.table[row(x, y)] = initial;
            }
        }
        let mut changed = Changed {
            facts: [u64::MAX; WORDS],
            pairs: true,
        };
        let lost = loop {
            if self.every_goal_marked() {
                break false;
            }
            let before = changed;
            changed = Changed {
                facts: [0; WORDS],
                pairs: false,
            };
            for (i, action) in actions.iter().enumerate() {
                let [a, b, c] = action.needs;
                let dirty = |set: &Facts| has(set, a) | has(set, b) | has(set, c);
                if !(before.pairs || changed.pairs || dirty(&before.facts) || dirty(&changed.facts))
                {
                    continue;
                }
                self.apply(action, i, &mut changed);
            }
            if changed.facts == [0; WORDS] {
                break true;
            }
        };
        self.pairs.actions = actions;
        lost
    }

    /// Marks what `action` (the `i`th) adds, if its needs are marked
    /// together.
    ///
    /// Semi-naive: what an action marks beside a kept fact k depends on
    /// the facts it keeps and on four rows of the table ({k, k}, and k
    /// with each need). A k it kept when last applied, whose four rows
    /// have not changed since, was marked then with everything it may
    /// stand beside, but for the facts kept since: only those are looked
    /// at. Rows only gain facts, so what was marked stays marked.
    fn apply(&mut self, action: &Action, i: usize, changed: &mut Changed) {
        let [a, b, c] = action.needs;
        let t = &self.table;
        if !has(&t[row(a, b)], c) {
            return;
        }
        // The facts kept beside the needs: marked with each two of them.
        let mut kept = and(&and(&t[row(a, b)], &t[row(a, c)]), &t[row(b, c)]);
        for fact in action.deletes.into_iter().chain(action.adds) {
            unmark(&mut kept, fact);
        }
        self.clock += 1;
        let (last, before) = std::mem::replace(&mut self.applied[i], (self.clock, kept));
        let mut since = kept;
        for (s, b) in since.iter_mut().zip(&before) {
            *s &= !b;
        }
        let [x1, x2] = action.adds;
        if last == 0 {
            self.set(x1, x1, x1, changed);
            self.set(x2, x2, x2, changed);
            self.set(x1, x1, x2, changed);
            self.set(x1, x2, x2, changed);
        }
        for k in facts(&kept) {
            let known = last != 0 && has(&before, k);
            let looked_at = if !known {
                for x in [x1, x2] {
                    self.set(x, x, k, changed);
                    self.set(x, k, k, changed);
                }
                self.set(x1, x2, k, changed);
                &kept
            } else if [row(k, k), row(a, k), row(b, k), row(c, k)]
                .iter()
                .any(|&r| self.stamps[r] >= last)
            {
                &kept
            } else if since == [0; WORDS] {
                continue;
            } else {
                &since
            };
            // The facts r kept beside k: {k, r} marked, and {n, k, r} for
            // each need n.
            let t = &self.table;
            let mut beside = and(looked_at, &t[row(k, k)]);
            for n in [a, b, c] {
                beside = and(&beside, &t[row(n, k)]);
            }
            for x in [x1, x2] {
                for (w, &beside) in beside.iter().enumerate() {
                    let mut new = beside & !self.table[row(x, k)][w];
                    if new == 0 {
                        continue;
                    }
                    mark(&mut changed.facts, x);
                    mark(&mut changed.facts, k);
                    changed.facts[w] |= new;
                    self.table[row(x, k)][w] |= new;
                    self.stamps[row(x, k)] = self.clock;
                    while new != 0 {
                        let r = (w * 64) as u16 + new.trailing_zeros() as u16;
                        new &= new - 1;
                        self.mark(x, r, k);
                        self.mark(k, r, x);
                    }
                }
            }
        }
    }

    /// Marks z in the row (x, y), stamping the row.
    #[inline]
    fn mark(&mut self, x: u16, y: u16, z: u16) {
        mark(&mut self.table[row(x, y)], z);
        self.stamps[row(x, y)] = self.clock;
    }

    /// Marks {x, y, z} (in the rows of its three pairs); notes what
    /// changed.
    fn set(&mut self, x: u16, y: u16, z: u16, changed: &mut Changed) {
        if has(&self.table[row(x, y)], z) {
            return;
        }
        for (p, q, r) in [(x, y, z), (x, z, y), (y, z, x)] {
            self.mark(p, q, r);
        }
        for fact in [x, y, z] {
            mark(&mut changed.facts, fact);
        }
        // A set of two facts (or one) changes what may stand beside any
        // kept fact, not only beside the needs.
        changed.pairs |= x == y || y == z || x == z;
    }

    /// Whether every triple of cards' `UP` is marked.
    fn every_goal_marked(&self) -> bool {
        facts(&ALL_UP).all(|x| {
            facts(&ALL_UP).all(|y| {
                let set = &self.table[row(x, y)];
                set.iter().zip(&ALL_UP).all(|(s, u)| s & u == *u)
            })
        })
    }
}

/// What a sweep marked: the facts of a new set, and whether a new set had
/// fewer than three facts.
#[derive(Clone, Copy)]
struct Changed {
    facts: Facts,
    pairs: bool,
}

fn and(a: &Facts, b: &Facts) -> Facts {
    let mut out = [0; WORDS];
    for w in 0..WORDS {
        out[w] = a[w] & b[w];
    }
    out
}

/// The facts of a set.
fn facts(set: &Facts) -> impl Iterator<Item = u16> + '_ {
    (0..FACTS as u16).filter(|&fact| has(set, fact))
}

#[cfg(test)]
mod tests;

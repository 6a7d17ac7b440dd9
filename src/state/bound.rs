//! A lower bound on the moves still needed to win a position: what
//! `--optimal`'s A* search needs to prove a solution shortest.
//!
//! # What is counted
//!
//! The moves that do not go to the foundation. Under forced rules those
//! are all the moves: every card reaches the foundation by normalization,
//! for free (SPEC §5). Under free rules (SPEC §9) every card also makes
//! one foundation move, 52 in all whatever the order of play, and the
//! search counts them apart (`search/optimal.rs`); the others are what this
//! bounds. A move moves exactly one card, so the moves still needed are at
//! least the number of cards that must *move* (change place other than to
//! the foundation) at least once more. A card in a register need not: it
//! may go up from there. Neither need a column card whose lower cards of
//! its suit are all elsewhere than beneath it: it may wait in place until
//! its turn comes.
//!
//! # Which cards must move
//!
//! Say a card *stays* when it never moves again but to the foundation
//! (by normalization, or by its own foundation move under free rules). A
//! card that stays keeps every card beneath it in its column covered until
//! it is on the foundation, so none of them reaches the foundation before
//! it. A suit goes up in rank order,
//! so a card's lower cards of its suit reach the foundation before it.
//!
//! - *Over a lower card of its suit*: a card A above a lower card B of its
//!   own suit (anywhere beneath it in its column) cannot stay: B would
//!   reach the foundation both after A (covered) and before it (rank).
//! - *Crossed pairs*: two cards A and C, neither of the first kind, such
//!   that beneath A lies a lower card B of C's suit and beneath C lies a
//!   lower card D of A's suit. If both stayed, A would go up before B,
//!   B before C, C before D and D before A: so one of A and C moves.
//!
//! The bound is the number of cards of the first kind plus the size of a
//! set of crossed pairs no two of which share a card (a greedy matching).
//! Each of those pairs holds a card that moves; the cards of the first
//! kind, and the pairs, are disjoint; and each move moves one card. So no
//! continuation wins in fewer moves: the bound is admissible, and 0 when
//! the position is won.

use super::bits::{card_bits, lower_of_suit};
use super::{Dest, Move, State};
use crate::cards::{CARDS, Card, KING, SUIT_CARDS, SUITS, rank};

/// The cards, a bit per card, of the suit of `card` and higher rank.
#[inline]
fn higher_of_suit(card: Card) -> u64 {
    (SUIT_CARDS << (card % 4)) & !((2u64 << card) - 1)
}

/// The facts about a position's columns the bound is made of, kept so
/// that the bound of each position one move away costs no walk of its
/// columns ([`ColumnFacts::bound_after`]).
#[derive(Clone)]
pub struct ColumnFacts {
    /// Per card in a column: the cards beneath it, a bit per card.
    beneath: [u64; CARDS],
    /// Per card in a column: the cards with a lower card of their suit
    /// beneath it (those it crosses, if they may stay too).
    over_lower: [u64; CARDS],
    /// Per suit and rank: the column cards with a card of that suit and a
    /// lower rank beneath them (those that cross a card of that suit and
    /// rank back).
    crossing: [[u64; RANKS]; SUITS],
    /// Per card in a column: the cards it crosses both ways.
    mutual: [u64; CARDS],
    /// The cards that cross some card both ways.
    crossed: u64,
    /// The column cards above a lower card of their suit: they must move.
    must_move: u64,
    /// The other column cards.
    may_stay: u64,
}

/// Ranks and one: [`ColumnFacts::crossing`] is indexed by rank, 1 to 13.
const RANKS: usize = KING as usize + 1;

impl ColumnFacts {
    /// [`State::moves_needed_at_least`] of the position.
    pub fn bound(&self) -> usize {
        let pairs = crossed_pairs(self.may_stay & self.crossed, |a| self.mutual[a]);
        self.must_move.count_ones() as usize + pairs
    }

    /// [`State::moves_needed_at_least`] of `child`, the position `mv` leads
    /// to from the position of these facts. Only the moved card's place
    /// changes, and normalization takes top cards away, so every other
    /// card keeps the cards beneath it, and so what it crosses.
    pub fn bound_after(&self, mv: Move, child: &State) -> usize {
        let card = mv.card as usize;
        let moved = 1u64 << card;
        let up = on_foundation(child);
        // The cards beneath the moved card, when it is in a column.
        let beneath = match mv.dest {
            _ if up & moved != 0 => None,
            Dest::Register | Dest::Foundation => None,
            Dest::TurnUp | Dest::TurnDown | Dest::Redeal => {
                unreachable!("no bound is worked out under Midnight Oil's complete rules")
            }
            Dest::EmptyColumn => Some(0),
            Dest::Card(onto) => Some(self.beneath[onto as usize] | 1 << onto),
        };
        let mut must_move = self.must_move & !(up | moved);
        let mut may_stay = self.may_stay & !(up | moved);
        match beneath {
            Some(b) if b & lower_of_suit(card as Card) != 0 => must_move |= moved,
            Some(_) => may_stay |= moved,
            None => {}
        }
        let beneath = beneath.unwrap_or(0);
        // What the moved card crosses both ways: the others keep theirs,
        // less the moved card, plus it where its new place crosses back.
        let mutual_moved = if may_stay & moved != 0 {
            let crossing = self.crossing[card % SUITS][rank(card as Card) as usize];
            over_lower_of(beneath) & crossing & !moved
        } else {
            0
        };
        let pairs = crossed_pairs(may_stay & (self.crossed | moved | mutual_moved), |a| {
            if a == card {
                mutual_moved
            } else if mutual_moved & 1 << a != 0 {
                self.mutual[a] & !moved | moved
            } else {
                self.mutual[a] & !moved
            }
        });
        must_move.count_ones() as usize + pairs
    }
}

/// The cards with a lower card of their suit among `beneath`.
#[inline]
fn over_lower_of(beneath: u64) -> u64 {
    let mut cards = 0;
    for s in 0..SUITS {
        let of_suit = beneath & (SUIT_CARDS << s);
        if of_suit != 0 {
            let lowest = of_suit & of_suit.wrapping_neg();
            cards |= (SUIT_CARDS << s) & !((lowest << 1) - 1);
        }
    }
    cards
}

/// The cards on the foundation, a bit per card.
#[inline]
fn on_foundation(state: &State) -> u64 {
    let mut up = 0;
    for (s, &height) in state.foundation.iter().enumerate() {
        up |= (SUIT_CARDS << s) & ((1u64 << (4 * height as u32)) - 1);
    }
    up
}

impl State {
    /// At least this many moves are needed to win from here (the module
    /// doc has the proof); 0 when won.
    pub fn moves_needed_at_least(&self) -> usize {
        self.column_facts().bound()
    }

    /// The facts [`State::moves_needed_at_least`] is made of.
    pub fn column_facts(&self) -> ColumnFacts {
        let mut facts = ColumnFacts {
            beneath: [0; CARDS],
            over_lower: [0; CARDS],
            crossing: [[0; RANKS]; SUITS],
            mutual: [0; CARDS],
            crossed: 0,
            must_move: 0,
            may_stay: 0,
        };
        let mut bottoms = card_bits(&self.below).floor;
        while bottoms != 0 {
            let bottom = bottoms.trailing_zeros() as Card;
            bottoms &= bottoms - 1;
            let column = self.walk_column(bottom, &mut facts);
            facts.mark_crossing(column);
        }
        facts.find_mutual();
        facts
    }

    /// Records the cards beneath each card of the column on `bottom`, and
    /// whether it must move; returns the column's cards.
    fn walk_column(&self, bottom: Card, facts: &mut ColumnFacts) -> u64 {
        let (mut card, mut beneath, mut over_lower) = (bottom, 0u64, 0u64);
        loop {
            let c = card as usize;
            facts.beneath[c] = beneath;
            facts.over_lower[c] = over_lower;
            if beneath & lower_of_suit(card) != 0 {
                facts.must_move |= 1 << c;
            } else {
                facts.may_stay |= 1 << c;
            }
            beneath |= 1 << c;
            over_lower |= higher_of_suit(card);
            match self.above(card) {
                Some(next) => card = next,
                None => return beneath,
            }
        }
    }
}

impl ColumnFacts {
    /// Marks the cards of `column` in [`ColumnFacts::crossing`]. A card
    /// with no lower card of its suit beneath it is its suit's lowest card
    /// beneath every card above it, up to a lower one: those cards are
    /// marked at the rank just above it here, and carried up to the higher
    /// ranks by [`ColumnFacts::find_mutual`].
    fn mark_crossing(&mut self, column: u64) {
        let mut lowest = column & self.may_stay;
        while lowest != 0 {
            let b = lowest.trailing_zeros() as usize;
            lowest &= lowest - 1;
            let r = rank(b as Card) as usize;
            if r < KING as usize {
                self.crossing[b % SUITS][r + 1] |= column & !(self.beneath[b] | 1 << b);
            }
        }
    }

    /// Completes [`ColumnFacts::crossing`], then finds each card's
    /// [`ColumnFacts::mutual`].
    fn find_mutual(&mut self) {
        for crossing in &mut self.crossing {
            for r in 1..RANKS {
                crossing[r] |= crossing[r - 1];
            }
        }
        let mut cards = self.must_move | self.may_stay;
        while cards != 0 {
            let a = cards.trailing_zeros() as usize;
            cards &= cards - 1;
            let crossing = self.crossing[a % SUITS][rank(a as Card) as usize];
            self.mutual[a] = self.over_lower[a] & crossing & !(1 << a);
            if self.mutual[a] != 0 {
                self.crossed |= 1 << a;
            }
        }
    }
}

/// The size of a greedy matching of crossed pairs among the cards of
/// `may_stay`, `mutual(a)` giving the cards that cross `a` both ways: each
/// card in turn, lowest first, pairs with the lowest unpaired card that
/// crosses it.
#[inline]
fn crossed_pairs(may_stay: u64, mutual: impl Fn(usize) -> u64) -> usize {
    let mut free = may_stay;
    let mut pairs = 0;
    while free != 0 {
        let a = free.trailing_zeros() as usize;
        free &= free - 1;
        let partners = mutual(a) & free;
        if partners != 0 {
            free &= !(partners & partners.wrapping_neg());
            pairs += 1;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::super::testing::{deals, walk};
    use super::*;

    /// The bound as the module doc defines it, card by card: the cards
    /// above a lower card of their suit, plus a greedy matching (lowest
    /// card first, with its lowest partner) of crossed pairs among the
    /// other column cards.
    fn bound_by_definition(state: &State) -> usize {
        let columns = state.columns();
        let beneath = |card: Card| -> Vec<Card> {
            let column = columns.iter().find(|c| c.contains(&card)).unwrap();
            column[..column.iter().position(|&c| c == card).unwrap()].to_vec()
        };
        let lower_of = |a: Card, b: Card| b % 4 == a % 4 && b < a;
        let mut must = 0;
        let mut may: Vec<Card> = Vec::new();
        for card in columns.iter().flatten().copied() {
            if beneath(card).iter().any(|&b| lower_of(card, b)) {
                must += 1;
            } else {
                may.push(card);
            }
        }
        may.sort();
        let crosses = |a: Card, c: Card| beneath(a).iter().any(|&b| lower_of(c, b));
        let mut paired: Vec<Card> = Vec::new();
        for &a in &may {
            if paired.contains(&a) {
                continue;
            }
            let partner = may
                .iter()
                .copied()
                .find(|&c| c != a && !paired.contains(&c) && crosses(a, c) && crosses(c, a));
            if let Some(c) = partner {
                paired.extend([a, c]);
            }
        }
        must + paired.len() / 2
    }

    #[test]
    fn the_bound_is_its_definition_and_worked_out_after_a_move_the_same() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut crossed = 0;
        for (rules, seed, _, _) in deals(1..=12) {
            walk(rules.alias, seed, 60, &mut rng, |state| {
                let bound = state.moves_needed_at_least();
                assert_eq!(bound, bound_by_definition(state), "{} {seed}", rules.name);
                crossed +=
                    usize::from(bound > state.column_facts().must_move.count_ones() as usize);
                let facts = state.column_facts();
                state.for_each_move(|mv| {
                    let mut child = state.clone();
                    child.apply(mv);
                    assert_eq!(facts.bound_after(mv, &child), child.moves_needed_at_least());
                });
            });
        }
        assert!(crossed > 0, "some position has a crossed pair");
    }

    #[test]
    fn the_bound_never_exceeds_the_moves_a_found_solution_has_left() {
        // A solution of every game's deal 1 to 5 the search finds: the
        // bound at each of its positions is at most the moves left.
        use crate::search::{Length, Limits, Outcome, search};
        let limits = Limits {
            length: Length::AsFound,
            ..Limits::default()
        };
        for (rules, seed, deal, state) in deals(1..=5) {
            let Outcome::Solved(moves) = search(&deal, &limits, None).outcome else {
                continue;
            };
            let mut state = state;
            for (i, &mv) in moves.iter().enumerate() {
                assert!(
                    state.moves_needed_at_least() <= moves.len() - i,
                    "{} {seed}",
                    rules.name
                );
                state.apply(mv);
            }
            assert_eq!(state.moves_needed_at_least(), 0);
        }
    }
}

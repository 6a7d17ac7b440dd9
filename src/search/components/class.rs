//! A Baker's Dozen position's component of host moves, read from the
//! position alone: which loose cards are free to move within it, its name
//! and how many positions it holds (the proof is the parent module's doc).

use crate::cards::{CARDS, Card, KING, SUITS, card_of, rank, suit};
use crate::state::{Dest, FLOOR, Key, Move, State};

/// What [`Class::of`] reads from one position of a component.
pub(crate) struct Class {
    /// The key with every movable card coded as lying in a register (a
    /// code Baker's Dozen, without registers, never uses): the same for
    /// every position of the component, and for no other.
    pub name: Key,
    /// Positions of the component: the product over ranks of the ways its
    /// movable cards of that rank can be placed on their hosts.
    pub size: u128,
    /// The movable cards, a bit per card.
    pub movable: u64,
    /// The hosts the movable cards may lie on (those of each rank above a
    /// movable card that no frozen card holds), a bit per card.
    pub open: u64,
}

/// Whether `card` lies on a card one rank higher (a host): Baker's
/// Dozen's build rule, spelt out here rather than asked of the rules
/// (`Build::allows`, 4 % slower on this hot path: bd.14274 10.5 s against
/// 10.0 s), since `refusal` lets only that rule in.
fn is_loose(state: &State, card: Card) -> bool {
    let below = state.below(card);
    below < FLOOR && rank(below) == rank(card) + 1
}

/// Whether `mv` is a host move: a loose card to another card, with no
/// card going up by itself after it (`after` is the position the move
/// leads to).
pub(crate) fn is_host_move(state: &State, mv: Move, after: &State) -> bool {
    matches!(mv.dest, Dest::Card(_)) && is_loose(state, mv.card) && after.score() == state.score()
}

/// `state`'s key with the cards of `movable` (a bit per card) marked:
/// its name when `movable` are its component's movable cards. Cheaper
/// than [`Class::of`], for the positions of a component already read.
pub(crate) fn marked(state: &State, movable: u64) -> Key {
    let mut key = state.key();
    let mut cards = movable;
    while cards != 0 {
        key = key.marked(cards.trailing_zeros() as Card);
        cards &= cards - 1;
    }
    key
}

impl Class {
    /// The class of `state`. Each column's top cards that lie each on a
    /// card one rank higher are its *run*; the card under the run is the
    /// column's *base top*. A host of rank r is a run card or a base top
    /// of rank r + 1. For r = 1 to 12 in turn, a run card c of rank r is
    /// *frozen* (it lies where it lies in every position of the
    /// component) when
    ///
    /// - no host of rank r + 1 is free (as many run cards of rank r as
    ///   hosts): nowhere to go, and nothing of rank r can leave either;
    /// - c is its suit's next card and goes up by itself (always under
    ///   forced rules, when safe in the free search): with nothing on it,
    ///   it would go up;
    /// - the card c lies on is such a card: moving c off sends that card
    ///   up, which is no host move;
    /// - the card lying on c is frozen: c is never on top.
    ///
    /// The other run cards are *movable*: the component holds every way
    /// of placing the movable cards of each rank, one to a host, on the
    /// hosts of the rank above that no frozen card holds.
    pub(crate) fn of(state: &State) -> Class {
        let foundation = state.foundation();
        // Whether `c` goes up as soon as nothing lies on it. Under free
        // rules a next card the safe rule does not play up stays where it
        // is, bare or not, like any other card: the foundation, and so
        // this answer, is the same in every position of the component.
        let goes_up =
            |c: Card| foundation[suit(c) as usize] + 1 == rank(c) && state.goes_up_by_itself(c);
        let mut run = [false; CARDS];
        let mut base_top = [false; CARDS];
        for top in (0..CARDS as Card).filter(|&c| state.is_top(c)) {
            let mut c = top;
            while is_loose(state, c) {
                run[c as usize] = true;
                c = state.below(c);
            }
            base_top[c as usize] = true;
        }
        let mut frozen = [false; CARDS];
        let mut size: u128 = 1;
        let mut movable_cards = 0u64;
        let mut open_hosts = 0u64;
        for r in 1..KING {
            let (mut hosts, mut loose) = (0u128, 0u128);
            for s in 0..SUITS as u8 {
                let h = card_of(r + 1, s) as usize;
                hosts += u128::from(run[h] || base_top[h]);
                loose += u128::from(run[card_of(r, s) as usize]);
            }
            let full = hosts == loose;
            let mut movable = 0u128;
            for c in (0..SUITS as u8).map(|s| card_of(r, s)) {
                if !run[c as usize] {
                    continue;
                }
                let on_frozen = state.above(c).is_some_and(|d| frozen[d as usize]);
                let fixed = full || goes_up(c) || goes_up(state.below(c)) || on_frozen;
                frozen[c as usize] = fixed;
                if !fixed {
                    movable += 1;
                    movable_cards |= 1 << c;
                }
            }
            if movable > 0 {
                for h in (0..SUITS as u8).map(|s| card_of(r + 1, s)) {
                    let held = state.above(h).is_some_and(|d| frozen[d as usize]);
                    if (run[h as usize] || base_top[h as usize]) && !held {
                        open_hosts |= 1 << h;
                    }
                }
            }
            // Hosts not held by a frozen card, taken one by one.
            let open = hosts - (loose - movable);
            for k in 0..movable {
                size *= open - k;
            }
        }
        Class {
            name: marked(state, movable_cards),
            size,
            movable: movable_cards,
            open: open_hosts,
        }
    }
}

//! Sequence moves: a built run at a column's top moved as one step, through
//! the free registers and empty columns, the way a player does it (a
//! "supermove"). Each is handed out as the single-card moves that make it,
//! so a solution that uses them is a file `-check` replays card by card.
//!
//! With `f` free registers and `e` empty columns a run of up to
//! `(f + 1) · 2^e` cards moves onto a card, and up to `(f + 1) · 2^(e-1)`
//! into an empty column: park all but the bottom card in registers, or,
//! when the run is longer, move its top part into an empty column (the
//! same way, one empty column fewer), the rest to its target, and the top
//! part back onto it.
//!
//! The single moves are only a plan: one of them may meet a position where
//! a card went up by itself on the way, so where that can happen (a card
//! of the run, or the card it lies on, is its suit's next)
//! [`State::for_each_sequence_move`] plays the plan on a copy, move by
//! move, checked, and hands out only the plans that hold, with the
//! position they reach. Elsewhere nothing goes up before the last move,
//! and the position is the run carried whole, then what goes up by itself
//! (a debug build checks it against the moves played one by one).

use super::{Dest, FLOOR, Move, State};
use crate::cards::{Card, next_cards};
use crate::rules::EmptyColumn;

/// Longest run a column holds: King down to Ace.
const LONGEST_RUN: usize = 13;

/// How many cards a run may have to move onto a card with `free` registers
/// and `empties` empty columns.
pub(super) fn capacity(free: usize, empties: usize) -> usize {
    (free + 1) << empties.min(8)
}

/// Appends to `out` the single moves that carry `cards` (a built run,
/// bottom card first) to `dest`, with `free` registers and `empties` empty
/// columns to pass through (not counting `dest`). The run fits:
/// `cards.len() <= capacity(free, empties)`.
pub(super) fn plan(cards: &[Card], dest: Dest, free: usize, empties: usize, out: &mut Vec<Move>) {
    let k = cards.len();
    if k <= free + 1 {
        for &card in cards[1..].iter().rev() {
            out.push(Move {
                card,
                dest: Dest::Register,
            });
        }
        out.push(Move {
            card: cards[0],
            dest,
        });
        for pair in cards.windows(2) {
            out.push(Move {
                card: pair[1],
                dest: Dest::Card(pair[0]),
            });
        }
        return;
    }
    let part = (k - 1).min(capacity(free, empties - 1));
    let split = k - part;
    plan(&cards[split..], Dest::EmptyColumn, free, empties - 1, out);
    plan(&cards[..split], dest, free, empties - 1, out);
    plan(
        &cards[split..],
        Dest::Card(cards[split - 1]),
        free,
        empties - 1,
        out,
    );
}

impl State {
    /// Calls `f` with every sequence move of two cards or more that the
    /// registers and empty columns allow: the single moves that make it,
    /// and the position they reach. A whole column never moves into an
    /// empty one (the same position again). Single-card moves are
    /// [`State::for_each_move`]'s.
    pub fn for_each_sequence_move(&self, f: impl FnMut(&[Move], &State)) {
        self.for_each_sequence_move_in(&mut Vec::with_capacity(64), f);
    }

    /// [`State::for_each_sequence_move`], its plans written in `moves`
    /// (a buffer a search keeps from one position to the next).
    pub fn for_each_sequence_move_in(
        &self,
        moves: &mut Vec<Move>,
        mut f: impl FnMut(&[Move], &State),
    ) {
        let build = self.rules.build;
        let free = self.free_registers();
        let empties = self.empty_columns();
        let to_card = capacity(free, empties);
        let to_empty = if empties > 0 {
            capacity(free, empties - 1)
        } else {
            0
        };
        if to_card < 2 {
            return;
        }
        let tops = self.column_tops();
        let next = next_cards(&self.foundation);
        let mut run = [0 as Card; LONGEST_RUN];
        let mut column_tops = tops;
        while column_tops != 0 {
            let top = column_tops.trailing_zeros() as Card;
            column_tops &= column_tops - 1;
            // The run at this column's top, top card first.
            let mut len = 1;
            run[0] = top;
            let mut card = top;
            while len < LONGEST_RUN {
                let under = self.below[card as usize];
                if under >= FLOOR || !build.allows(card, under) {
                    break;
                }
                run[len] = under;
                len += 1;
                card = under;
            }
            for k in 2..=len.min(to_card) {
                let bottom = run[k - 1];
                // The run's `k` top cards, bottom card first.
                let mut cards = [0 as Card; LONGEST_RUN];
                cards[..k].copy_from_slice(&run[..k]);
                cards[..k].reverse();
                let cards = &cards[..k];
                let whole = self.below[bottom as usize] == FLOOR;
                // Only the run's cards and the card it lies on become
                // accessible on the way: when none is its suit's next card,
                // nothing goes up before the last move, and the position
                // is the run carried whole.
                let lies_on = match self.below[bottom as usize] {
                    FLOOR => 0,
                    under => 1u64 << under,
                };
                // And the plan holds by itself where it parks only in
                // registers, or where an empty column takes any card.
                let quiet = (cards.iter().fold(lies_on, |bits, &c| bits | 1 << c) & next) == 0
                    && (k <= free + 1 || self.rules.empty_column == EmptyColumn::AnyCard);
                let mut try_plan = |dest: Dest, empties_left: usize| {
                    moves.clear();
                    plan(cards, dest, free, empties_left, moves);
                    let mut child = self.clone();
                    if quiet {
                        child.carry(bottom, dest);
                        debug_assert!({
                            let mut played = self.clone();
                            moves.iter().all(|&mv| played.try_apply(mv).is_ok()) && played == child
                        });
                        f(moves, &child);
                    } else if moves.iter().all(|&mv| child.try_apply(mv).is_ok()) {
                        f(moves, &child);
                    }
                };
                let mut onto_tops = tops & build.parents_of(1 << bottom);
                while onto_tops != 0 {
                    let onto = onto_tops.trailing_zeros() as Card;
                    onto_tops &= onto_tops - 1;
                    try_plan(Dest::Card(onto), empties);
                }
                if !whole && k <= to_empty && self.rules.empty_column.accepts(bottom) {
                    try_plan(Dest::EmptyColumn, empties - 1);
                }
            }
        }
    }
}

impl State {
    /// Moves `card` and the cards above it onto `dest` (a column's top
    /// card, or an empty column), then plays up what goes by itself: where
    /// a sequence move's single moves lead when no card goes up before the
    /// last one.
    fn carry(&mut self, card: Card, dest: Dest) {
        self.put(card, dest);
        self.play_automatic(|_| {});
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::compound_steps_replay;
    use super::*;

    #[test]
    fn capacity_doubles_with_each_empty_column() {
        assert_eq!(capacity(4, 0), 5);
        assert_eq!(capacity(4, 1), 10);
        assert_eq!(capacity(2, 2), 12);
        assert_eq!(capacity(0, 3), 8);
    }

    #[test]
    fn a_plan_moves_the_run_within_the_registers_and_columns_given() {
        // Plays each plan on a model: where each card of the run lies (0 =
        // still in place, on the next card down), registers and empty
        // columns in use never exceed what was given, and every card ends
        // where the run wants it.
        #[derive(Clone, Copy, PartialEq, Debug)]
        enum At {
            Start,
            Register,
            Floor,
            On(Card),
        }
        for free in 0..=4 {
            for empties in 0..=3 {
                for k in 1..=capacity(free, empties).min(13) {
                    let cards: Vec<Card> = (0..k as Card).collect();
                    let mut out = Vec::new();
                    plan(&cards, Dest::Card(99), free, empties, &mut out);
                    let mut at = vec![At::Start; k];
                    let (mut registers, mut columns) = (0, 0);
                    for mv in &out {
                        let c = mv.card as usize;
                        // Only a top card moves: nothing of the run on it.
                        assert!(!at.contains(&At::On(mv.card)));
                        assert!(c + 1 >= k || at[c + 1] != At::Start);
                        match at[c] {
                            At::Register => registers -= 1,
                            At::Floor => columns -= 1,
                            _ => {}
                        }
                        at[c] = match mv.dest {
                            Dest::Register => {
                                registers += 1;
                                At::Register
                            }
                            Dest::EmptyColumn => {
                                columns += 1;
                                At::Floor
                            }
                            Dest::Card(onto) => At::On(onto),
                            _ => unreachable!(),
                        };
                        assert!(registers <= free && columns <= empties);
                    }
                    assert_eq!(at[0], At::On(99));
                    for (c, &place) in at.iter().enumerate().skip(1) {
                        assert_eq!(place, At::On(c as Card - 1));
                    }
                }
            }
        }
    }

    #[test]
    fn every_sequence_move_is_legal_card_by_card_and_moves_a_run() {
        // Random walks over FreeCell and Seahaven deals: each sequence
        // move handed out replays card by card to the position given.
        let seen = compound_steps_replay(
            60,
            |seed, step| seed as usize * 7 + step * 13,
            |state, f| state.for_each_sequence_move(f),
        );
        assert!(seen > 100, "{seen}");
    }
}

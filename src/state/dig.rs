//! Digging: one step that uncovers a buried card and plays it where it is
//! wanted (its suit's foundation, or onto a column's top card), the cards
//! above it moved away run by run: onto another column's top card when one
//! takes the run, else into an empty column or the registers. The moves a
//! player makes to reach a card, found greedily, so a search can take them
//! as one step; they are single-card moves, each checked as it is played.

use super::{Dest, FLOOR, Move, State, sequence};
use crate::cards::{CARDS, Card, KING, card_of};

impl State {
    /// Calls `f` with each dig of this position: every suit's next card
    /// that lies under others, brought up to the foundation; and every
    /// buried card that a column's top card takes, brought onto it. Each
    /// with the single moves that make it and the position they reach.
    pub fn for_each_dig(&self, f: impl FnMut(&[Move], &State)) {
        self.for_each_dig_in(&mut Vec::with_capacity(64), f);
    }

    /// [`State::for_each_dig`], its moves written in `moves` (a buffer a
    /// search keeps from one position to the next).
    pub fn for_each_dig_in(&self, moves: &mut Vec<Move>, mut f: impl FnMut(&[Move], &State)) {
        let tops = self.column_tops();
        // Each column card's top, walked once for every dig's first step.
        let mut top_of = [0 as Card; CARDS];
        let mut walk = tops;
        while walk != 0 {
            let top = walk.trailing_zeros() as Card;
            walk &= walk - 1;
            let mut c = top;
            loop {
                top_of[c as usize] = top;
                let under = self.below(c);
                if under >= FLOOR {
                    break;
                }
                c = under;
            }
        }
        let foundation = self.foundation();
        for (s, &height) in foundation.iter().enumerate() {
            if height >= KING {
                continue;
            }
            let card = card_of(height + 1, s as u8);
            if self.below(card) > FLOOR || self.above(card).is_none() {
                continue;
            }
            moves.clear();
            if !self.plan_dig_step(card, None, moves, top_of[card as usize], tops) {
                continue;
            }
            let mut child = self.clone();
            if child.dig(card, None, moves) {
                if child.below(card) != super::FOUNDATION {
                    let up = Move {
                        card,
                        dest: Dest::Foundation,
                    };
                    if child.try_apply(up).is_err() {
                        continue;
                    }
                    moves.push(up);
                }
                f(moves, &child);
            }
        }
        let build = self.rules.build;
        let mut hosts = tops;
        while hosts != 0 {
            let onto = hosts.trailing_zeros() as Card;
            hosts &= hosts - 1;
            let mut wanted = build.children_of(1 << onto);
            while wanted != 0 {
                let card = wanted.trailing_zeros() as Card;
                wanted &= wanted - 1;
                if self.below(card) > FLOOR || self.above(card).is_none() {
                    continue;
                }
                moves.clear();
                if !self.plan_dig_step(card, Some(onto), moves, top_of[card as usize], tops) {
                    continue;
                }
                let mut child = self.clone();
                if child.dig(card, Some(onto), moves) {
                    let put = Move {
                        card,
                        dest: Dest::Card(onto),
                    };
                    if child.try_apply(put).is_ok() {
                        moves.push(put);
                        f(moves, &child);
                    }
                }
            }
        }
    }

    /// Moves the cards above `card` away, never onto `keep` (the card
    /// `card` is meant for), appending the moves to `out`, which holds
    /// the first run's already ([`State::plan_dig_step`], planned on this
    /// position before it was copied: most digs fail there, and the copy
    /// is spared): whether `card` ended uncovered and still in its column,
    /// or, dug for its foundation (no `keep`), gone up by itself once
    /// uncovered, as every card does under forced rules.
    fn dig(&mut self, card: Card, keep: Option<Card>, out: &mut Vec<Move>) -> bool {
        let mut start = 0;
        loop {
            for &mv in &out[start..] {
                if self.try_apply(mv).is_err() {
                    return false;
                }
            }
            if self.above(card).is_none() {
                let gone_up = keep.is_none() && self.below(card) == super::FOUNDATION;
                return self.below(card) <= FLOOR || gone_up;
            }
            if self.below(card) > FLOOR {
                return false;
            }
            start = out.len();
            if !self.plan_dig_step_here(card, keep, out) {
                return false;
            }
        }
    }

    /// [`State::plan_dig_step`] with the column tops worked out here: for
    /// one dig's later steps, each on a position of its own.
    fn plan_dig_step_here(&self, card: Card, keep: Option<Card>, out: &mut Vec<Move>) -> bool {
        let top = column_top(self, card);
        self.plan_dig_step(card, keep, out, top, self.column_tops())
    }

    /// Appends to `out` the moves that take the run at the top of the
    /// column of `card` (above it) away, never onto `keep`: onto a column's
    /// top card that takes the run, else into an empty column, else its
    /// top card into a register or an empty column. Whether there was
    /// such a way. `top` is the top card of `card`'s column and `tops`
    /// every column's top card, a bit per card: a caller planning many
    /// digs on one position works them out once (the walk up to the top
    /// was a third of the planning's instructions; 2.5 % of a fast
    /// FreeCell survey's in all, cachegrind on `survey fc 1-2000 --fast`).
    fn plan_dig_step(
        &self,
        card: Card,
        keep: Option<Card>,
        out: &mut Vec<Move>,
        top: Card,
        tops: u64,
    ) -> bool {
        let build = self.rules.build;
        // The run at the column's top, above `card`: top card first.
        let mut run = [0 as Card; 13];
        let mut len = 0;
        let mut c = top;
        loop {
            run[len] = c;
            len += 1;
            let under = self.below(c);
            if under == card || len == run.len() || !build.allows(c, under) {
                break;
            }
            c = under;
        }
        let bottom = run[len - 1];
        let free = self.free_registers();
        let empties = self.empty_columns();
        run[..len].reverse();
        let cards = &run[..len];
        let keep_bit = keep.map_or(0, |k| 1u64 << k);
        let hosts = tops & build.parents_of(1 << bottom) & !keep_bit;
        let host = (hosts != 0).then(|| hosts.trailing_zeros() as Card);
        if let Some(host) = host
            && len <= sequence::capacity(free, empties)
        {
            sequence::plan(cards, Dest::Card(host), free, empties, out);
        } else if empties > 0
            && self.rules.empty_column.accepts(bottom)
            && len <= sequence::capacity(free, empties - 1)
        {
            sequence::plan(cards, Dest::EmptyColumn, free, empties - 1, out);
        } else if free > 0 {
            out.push(Move {
                card: cards[len - 1],
                dest: Dest::Register,
            });
        } else if empties > 0 && self.rules.empty_column.accepts(cards[len - 1]) {
            out.push(Move {
                card: cards[len - 1],
                dest: Dest::EmptyColumn,
            });
        } else {
            return false;
        }
        true
    }
}

/// The top card of the column that holds `card`.
fn column_top(state: &State, card: Card) -> Card {
    let mut c = card;
    while let Some(above) = state.above(c) {
        c = above;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::super::testing::compound_steps_replay;
    use super::*;

    #[test]
    fn every_dig_is_legal_card_by_card() {
        let seen = compound_steps_replay(
            40,
            |seed, step| seed as usize * 5 + step * 11,
            |state, f| state.for_each_dig(f),
        );
        assert!(seen > 100, "{seen}");
    }

    /// Under forced rules a suit's next card goes up by itself as soon as
    /// it is uncovered: a dig for it whose moves play out so still
    /// counts, with the card up (they were all dropped, which cost
    /// FreeCell's fast pass a third of its positions).
    #[test]
    fn a_dig_to_the_foundation_under_forced_rules_ends_with_the_card_up() {
        use super::super::testing::xorshift;
        use crate::deal::test_deal;
        let mut rng = 0x0123_4567_89AB_CDEFu64;
        let mut dug = 0;
        for seed in 1..=20 {
            let mut state = State::new(&test_deal("fc", seed));
            for _ in 0..30 {
                for s in 0..4u8 {
                    let height = state.foundation()[s as usize];
                    let card = card_of(height + 1, s);
                    if height >= KING || state.below(card) > FLOOR || state.above(card).is_none() {
                        continue;
                    }
                    let mut moves = Vec::new();
                    if !state.plan_dig_step_here(card, None, &mut moves) {
                        continue;
                    }
                    let mut child = state.clone();
                    let done = child.dig(card, None, &mut moves);
                    let mut played = state.clone();
                    if moves.iter().all(|&mv| played.try_apply(mv).is_ok())
                        && played.below(card) == super::super::FOUNDATION
                    {
                        assert!(done, "fc.{seed}: {moves:?}");
                        assert!(child == played);
                        dug += 1;
                    }
                }
                let mut moves = Vec::new();
                state.for_each_move(|mv| moves.push(mv));
                if moves.is_empty() {
                    break;
                }
                state.apply(moves[(xorshift(&mut rng) % moves.len() as u64) as usize]);
            }
        }
        assert!(dug > 20, "{dug} buried next cards dug up");
    }
}

//! Positions of Midnight Oil's complete rules that can never be won, found
//! without searching them: once both redeals and the turn are used, the
//! game left is the course's Midnight Oil with free foundation moves, and
//! the closure that proves such positions lost (`state/lost.rs`, "The
//! closure") holds for it as it stands; with the turn left, a widened
//! closure for each column it may turn.
//!
//! # The closure, on a [`Table`] with no redeal and no turn left
//!
//! From then on a card moves only as a column's top card, onto the top
//! card one rank higher of its suit or to the foundation; nothing comes
//! back from the foundation and no column's order changes otherwise. Over
//! any continuation call a card *exposed* once every card now above it has
//! left its place, *leaving* when it moves, *finished* when it goes up:
//! a card is exposed once each card above it has left; it leaves only when
//! exposed, either finishing or landing on the card one rank higher of its
//! suit while that card is a column top (so that card is on the tableau
//! now and has been exposed); it finishes only when exposed and after the
//! card one rank lower of its suit (unless that one is up now). Adding from
//! what holds now (the columns' tops are exposed) every event whose needs
//! are met reaches a fixed point holding every event of every continuation
//! (by induction on the move that makes it happen). A card on the tableau
//! missing from the fixed point's finished cards never goes up: the
//! position is lost. The search's own foundation moves (once no redeal is
//! left, [`Table::play_automatic`]) only take continuations away, so a
//! position lost without them is lost with them. ∎
//!
//! # With the turn left
//!
//! The turn reorders one column once. Say it is column `i`'s, of the
//! cards column `i` holds now, and any cards that land there later. Take
//! the closure with every card of column `i` exposed from the start: a
//! superset of what holds now, so its fixed point holds more events. It
//! holds every event of every continuation turning column `i`: before the
//! turn the rules are those above; after it, a card of column `i` (as it
//! is now) needs nothing more to be exposed, a card that landed there was
//! exposed when it landed (it was a top), and every other column keeps its
//! order. The cards on column `i` at the turn are exactly these two kinds.
//! So if that closure leaves a card unfinished for every column `i` that
//! holds two cards or more (a turn needs a buried card), no continuation
//! wins, with the turn or without (the closure without it is contained in
//! each). ∎
//!
//! While a redeal is left every card may change place: the closure says
//! nothing then.

use super::{COLUMNS, Table};
use crate::cards::{CARDS, SUITS, next_cards};

/// Beneath a column's bottom card.
const FLOOR: u8 = CARDS as u8;

impl Table {
    /// Whether this position, with no redeal left, is lost by the closure
    /// of the module doc (with the turn for each column it may turn, when
    /// the turn is left); `false` while a redeal is left.
    pub(super) fn is_lost(&self) -> bool {
        if self.redeals_left > 0 {
            return false;
        }
        if !self.is_blocked(0) {
            return false;
        }
        if self.turns_left == 0 {
            return true;
        }
        let mut start = 0;
        for &h in &self.heights {
            let end = start + h as usize;
            if h >= 2 {
                let column = self.cards[start..end]
                    .iter()
                    .fold(0u64, |bits, &card| bits | 1 << card);
                if !self.is_blocked(column) {
                    return false;
                }
            }
            start = end;
        }
        true
    }

    /// Whether the closure, with `exposed_too` (a bit per card) exposed
    /// besides the columns' tops, leaves a card of the tableau unfinished.
    fn is_blocked(&self, exposed_too: u64) -> bool {
        // The card beneath each card (FLOOR for a bottom card), the cards
        // on the tableau and the columns' tops, a bit per card.
        let mut below = [FLOOR; CARDS];
        let (mut on_tableau, mut exposed) = (0u64, exposed_too);
        let mut start = 0;
        for &h in &self.heights[..COLUMNS] {
            let column = &self.cards[start..start + h as usize];
            for (at, &card) in column.iter().enumerate() {
                on_tableau |= 1 << card;
                if at > 0 {
                    below[card as usize] = column[at - 1];
                }
            }
            if let Some(&top) = column.last() {
                exposed |= 1 << top;
            }
            start += h as usize;
        }
        let mut left = 0u64;
        let mut finished = 0u64;
        // Each suit's next card to finish, a bit per card.
        let mut next = next_cards(&self.foundation);
        loop {
            let mut up = next & exposed;
            while up != 0 {
                finished |= up;
                next = (next ^ up) | (up << SUITS & on_tableau);
                up = next & exposed;
            }
            // A card may leave once finished or onto its exposed host, the
            // card four numbers up (SPEC §2: one rank higher, same suit).
            let can_leave = finished | exposed >> SUITS;
            let mut leaving = exposed & can_leave & !left;
            if leaving == 0 {
                break;
            }
            while leaving != 0 {
                let card = leaving.trailing_zeros() as usize;
                leaving &= leaving - 1;
                left |= 1 << card;
                let under = below[card];
                if under != FLOOR {
                    exposed |= 1 << under;
                    leaving |= can_leave & 1 << under;
                }
            }
        }
        finished != on_tableau
    }
}

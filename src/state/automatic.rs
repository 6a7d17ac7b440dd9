//! The foundation moves that happen by themselves, and why the ones the
//! free search makes lose no solution.
//!
//! Under forced rules (SPEC §5) every card that can go up goes up at once:
//! that is normalization, part of the rules. Under free rules (SPEC §9)
//! nothing goes up unless a move says so; a file is replayed that way. A
//! free *search* may still play a card up by itself when a proof shows
//! that this never turns a winnable position into a lost one, which keeps
//! it close to the forced search's size; it writes those moves out.
//!
//! # The safe rule
//!
//! Call a card *up* when it is on the foundation, and say a card *hangs*
//! from `c` when it is not up and the building rule lets it lie on `c`, or
//! on a card that hangs from `c`. Let `c` be its suit's next card,
//! accessible. If every card that hangs from `c` has its own suit's
//! previous card up (or is an Ace), then playing `c` up loses no solution.
//!
//! *Proof.* Take any winning sequence of moves from the position `P`; we
//! build one from `P'`, which is `P` with `c` up. Follow the sequence and
//! keep a set `E` of cards, empty at first: a card joins `E` when the
//! sequence puts it onto `c` or onto a card of `E`. Such a card was not up
//! in `P` (cards never come back down), so by induction it hangs from `c`,
//! and its previous card is up in `P`, hence in `P'` and ever after. The new
//! sequence plays every move whose card is neither `c` nor in `E`
//! unchanged, except that a move onto `c` or onto a card of `E` becomes
//! that card's foundation move, and leaves out every other move of `c` and
//! of cards of `E`. By induction over the moves, the position reached in
//! the new game is the one of the old game with `c` and the cards of `E`
//! up, every other card where the old game has it: removing cards only
//! uncovers cards and empties columns and registers, so each kept move is
//! legal (its card is accessible, its target card a top, an empty column
//! or a free register still there, its foundation's previous card up),
//! and each changed move is a legal foundation move (the card is
//! accessible, its previous card up, itself not yet up). The old game
//! ends with every card up, and so does the new one. ∎
//!
//! In FreeCell (alternate colours) this is the known rule: a card of rank
//! `r` goes up safely when both foundations of the other colour hold at
//! least `r - 1` cards, or at least `r - 2` while the other suit of its own
//! colour holds at least `r - 3`. In Baker's Dozen (any suit) every
//! foundation must hold at least `r - 2`. In Seahaven and Midnight Oil
//! (same suit) the only card that may lie on `c` is the one before it in
//! its suit, up already: every card that can go up is safe, so there the
//! free game is the forced game and its search is the forced search.

use super::State;
use crate::cards::{Card, KING, RANK_CARDS, SUIT_CARDS, SUITS, card_of};
use crate::deal::Deal;
use crate::foundation::Foundation;

/// Which foundation moves a position plays by itself after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Automatic {
    /// Every card that can go up (forced rules: normalization).
    Every,
    /// The cards the safe rule of the module doc proves harmless (the free
    /// search).
    Safe,
    /// None: every foundation move is a move of the file (a free replay).
    Nothing,
}

impl Automatic {
    /// What a search's positions play by themselves under the deal's rule:
    /// under free rules, the safe moves; in the same-suit games those are
    /// all of them, and the search is the forced one move for move.
    pub(super) fn for_search(deal: &Deal) -> Automatic {
        match deal.foundation {
            Foundation::Forced => Automatic::Every,
            Foundation::Free if deal.id.rules.forced_foundation_is_exact() => Automatic::Every,
            Foundation::Free => Automatic::Safe,
        }
    }

    /// What the positions of a replayed file play by themselves: nothing
    /// under free rules, where the file writes every foundation move.
    pub(super) fn for_replay(deal: &Deal) -> Automatic {
        match deal.foundation {
            Foundation::Forced => Automatic::Every,
            Foundation::Free => Automatic::Nothing,
        }
    }
}

/// The cards on a foundation of these heights, a bit per card: a suit's
/// cards of rank `r` or less are its cards numbered below `4 r`.
#[inline]
pub(super) fn up_bits(foundation: &[u8; SUITS]) -> u64 {
    let mut up = 0;
    for (s, &height) in foundation.iter().enumerate() {
        up |= (SUIT_CARDS << s) & ((1u64 << (SUITS as u32 * height as u32)) - 1);
    }
    up
}

impl State {
    /// Plays up, until none can go, every card the position's
    /// [`Automatic`] rule plays by itself, telling `played` each one in
    /// the order played.
    #[inline]
    pub(super) fn play_automatic(&mut self, played: impl FnMut(Card)) {
        // One loop per rule, so that the forced search's (normalization)
        // has no test beyond accessibility.
        match self.automatic {
            Automatic::Every => self.play_up_while(|_, _| true, played),
            Automatic::Safe => self.play_up_while(State::goes_up_safely, played),
            Automatic::Nothing => {}
        }
    }

    /// Plays up every suit's next card that is accessible and that `may`
    /// lets go, until none can. Only a suit's next card can go, so one
    /// look per suit and round suffices; a round that plays nothing ends
    /// it.
    #[inline]
    fn play_up_while(&mut self, may: impl Fn(&State, Card) -> bool, mut played: impl FnMut(Card)) {
        loop {
            let mut any = false;
            for s in 0..SUITS as u8 {
                let height = self.foundation[s as usize];
                if height < KING {
                    let next = card_of(height + 1, s);
                    if self.is_accessible(next) && may(self, next) {
                        self.lift(next);
                        self.place_up(next);
                        played(next);
                        any = true;
                    }
                }
            }
            if !any {
                return;
            }
        }
    }

    /// Whether `card`, its suit's next card, may go up without losing a
    /// solution: the safe rule of the module doc, a level at a time down
    /// the cards that hang from it.
    #[inline]
    pub(super) fn goes_up_safely(&self, card: Card) -> bool {
        let up = up_bits(&self.foundation);
        // The cards that may go up as soon as they are accessible: those
        // whose previous card is up, and the Aces.
        let next_up = (up << SUITS) | RANK_CARDS;
        let mut level = 1u64 << card;
        loop {
            let below = self.rules.build.children_of(level) & !up;
            if below == 0 {
                return true;
            }
            if below & !next_up != 0 {
                return false;
            }
            level = below;
        }
    }
}

#[cfg(test)]
#[path = "automatic/tests.rs"]
mod tests;

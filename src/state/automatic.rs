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
//!
//! # Under xpat2's complete rules (SPEC §10)
//!
//! There a foundation's top card may come back, so the proof above fails:
//! a card put up by the search might be one a player brings back to hold
//! another, and a card above it on its pile would keep it there. The
//! search then plays `c` up only by a stronger rule.
//!
//! Let `H(c)` be the cards of `c`'s suit up to `c`'s rank, and every card
//! that hangs from one of them (may lie on one, or on a card that hangs
//! from one, whether up or not). *If every card of `H(c)` but `c` is up,
//! playing `c` up loses no solution under the complete rules.*
//!
//! *Proof.* `H(c)` is closed under hanging, and in every game it holds, of
//! each suit, the cards up to some rank (the building rules look at ranks
//! and colours only). Take a winning sequence from `P`; the new game from
//! `P'` (`P` with `c` up) keeps every card of `H(c)` up for good and plays
//! every move of the old one whose card is not in `H(c)`, dropping the
//! others. By induction the new position is the old one with the cards of
//! `H(c)` moved to the foundation: the new piles are the old ones joined
//! with `H(c)`'s cards of each suit, both ranges from the Ace, so a pile
//! stays a range. A kept move is legal: its card is not in `H(c)`, so it
//! never goes onto a card of `H(c)` (it would hang from it); its target
//! is a top, an empty column or a free register in the old game, so in
//! the new one too (removing cards only uncovers and frees); a card going
//! up finds its previous card up (new piles contain old piles); a card
//! coming back down is its old pile's top, above every card of `H(c)` of
//! its suit (it is not in `H(c)`, a range from the Ace), so also the new
//! pile's top. The old game ends with every card up, so does the new. ∎
//!
//! In FreeCell a card of rank `r` so goes up when both foundations of the
//! other colour hold `r - 1` cards and the other suit of its colour
//! `r - 2`; in Baker's Dozen when every foundation holds `r - 1`; in the
//! same-suit games `H(c)` is `c`'s own suit below it, always up: every
//! card is safe (and there no card ever needs to come back: `moves.rs`).

use super::State;
use crate::cards::{CARDS, Card, KING, RANK_CARDS, SUIT_CARDS, SUITS, card_of};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::rules::Build;

/// Which foundation moves a position plays by itself after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Automatic {
    /// Every card that can go up (forced rules: normalization).
    Every,
    /// The cards the safe rule of the module doc proves harmless (the free
    /// search).
    Safe,
    /// The cards the stronger rule of the module doc proves harmless when
    /// cards may come back from the foundation (the complete rules'
    /// search).
    ReturnSafe,
    /// None: every foundation move is a move of the file (a free replay).
    Nothing,
}

impl Automatic {
    /// What a search's positions play by themselves under the deal's rule:
    /// under free rules, the safe moves; in the same-suit games those are
    /// all of them, and the search is the forced one move for move.
    pub(super) fn for_search(deal: &Deal) -> Automatic {
        let same_suit = deal.id.rules.forced_foundation_is_exact();
        match deal.foundation {
            Foundation::Forced => Automatic::Every,
            Foundation::Free | Foundation::Xpat2 if same_suit => Automatic::Every,
            Foundation::Free => Automatic::Safe,
            Foundation::Xpat2 => Automatic::ReturnSafe,
        }
    }

    /// What the positions of a replayed file play by themselves: nothing
    /// under free rules, where the file writes every foundation move.
    pub(super) fn for_replay(deal: &Deal) -> Automatic {
        match deal.foundation {
            Foundation::Forced => Automatic::Every,
            Foundation::Free | Foundation::Xpat2 => Automatic::Nothing,
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
            Automatic::ReturnSafe => self.play_up_while(State::stays_up_safely, played),
            Automatic::Nothing => {}
        }
    }

    /// Whether `card`, its suit's next card, goes up by itself as soon as
    /// it is accessible under the position's [`Automatic`] rule: always
    /// under forced rules, when safe in the free search. What a component
    /// of host moves (`search/components`) may not leave bare.
    #[inline]
    pub(crate) fn goes_up_by_itself(&self, card: Card) -> bool {
        self.automatic
            .plays_up(self.rules.build, &self.foundation, card)
    }

    /// Whether every card that can go up goes up by itself (forced rules),
    /// so that no foundation move is a player's choice.
    pub(crate) fn plays_every_card_up(&self) -> bool {
        self.automatic == Automatic::Every
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
    /// solution: the safe rule of the module doc.
    #[inline]
    pub(super) fn goes_up_safely(&self, card: Card) -> bool {
        goes_up_safely(self.rules.build, &self.foundation, card)
    }

    /// Whether `card`, its suit's next card, may go up without losing a
    /// solution when cards may come back: the stronger rule of the module
    /// doc.
    #[inline]
    pub(super) fn stays_up_safely(&self, card: Card) -> bool {
        stays_up_safely(self.rules.build, &self.foundation, card)
    }
}

impl Automatic {
    /// Whether `card`, its suit's next card on a foundation of these
    /// heights, goes up by itself under this rule, in a game building by
    /// `build`. A function of the foundation alone, so that a game that
    /// knows no more of a position (the suitless game) plays the same.
    #[inline]
    pub(super) fn plays_up(self, build: Build, foundation: &[u8; SUITS], card: Card) -> bool {
        match self {
            Automatic::Every => true,
            Automatic::Safe => goes_up_safely(build, foundation, card),
            Automatic::ReturnSafe => stays_up_safely(build, foundation, card),
            Automatic::Nothing => false,
        }
    }
}

/// The safe rule of the module doc, a level at a time down the cards that
/// hang from `card`: whether it may go up without losing a solution.
#[inline]
fn goes_up_safely(build: Build, foundation: &[u8; SUITS], card: Card) -> bool {
    let up = up_bits(foundation);
    // The cards that may go up as soon as they are accessible: those
    // whose previous card is up, and the Aces.
    let next_up = (up << SUITS) | RANK_CARDS;
    let mut level = 1u64 << card;
    loop {
        let below = build.children_of(level) & !up;
        if below == 0 {
            return true;
        }
        if below & !next_up != 0 {
            return false;
        }
        level = below;
    }
}

/// The stronger rule of the module doc, for when cards may come back:
/// every card of `H(card)` but itself up.
#[inline]
fn stays_up_safely(build: Build, foundation: &[u8; SUITS], card: Card) -> bool {
    let up = up_bits(foundation);
    hold_sets(build)[card as usize] & !up & !(1u64 << card) == 0
}

/// [`hold_set`] of every card under `build`, worked out once: the
/// complete rules' search asks for it after every move.
#[inline]
fn hold_sets(build: Build) -> &'static [u64; CARDS] {
    use std::sync::OnceLock;
    static TABLES: [OnceLock<[u64; CARDS]>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = match build {
        Build::AlternateColour => 0,
        Build::SameSuit => 1,
        Build::AnySuit => 2,
    };
    TABLES[i].get_or_init(|| std::array::from_fn(|card| hold_set(build, card as Card)))
}

/// `H(card)` of the module doc, a bit per card: the cards of `card`'s
/// suit up to its rank, and every card that hangs from one of them.
pub(super) fn hold_set(build: Build, card: Card) -> u64 {
    let suit_upto = (SUIT_CARDS << (card % SUITS as u8)) & ((2u64 << card) - 1);
    let mut held = suit_upto;
    let mut level = suit_upto;
    loop {
        let next = build.children_of(level) & !held;
        if next == 0 {
            return held;
        }
        held |= next;
        level = next;
    }
}

#[cfg(test)]
#[path = "automatic/tests.rs"]
mod tests;

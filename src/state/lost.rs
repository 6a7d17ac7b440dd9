//! Positions that can never be won, found without searching them: the
//! dead runs of SPEC §8 and, in the games where a card only ever moves
//! onto a card one rank higher or to the foundation (no registers, and
//! empty columns take nothing: Midnight Oil, Baker's Dozen; see
//! [`Rules::only_onto_higher`]), stuck cards and a closure over what can
//! still happen. SPEC §8 asks for a proof of any pruning beyond its own
//! before `INSOLUBLE` may rest on it; the proofs follow.
//!
//! # Dead runs (SPEC §8)
//!
//! In a same-suit game a decreasing same-suit run at a column's top that
//! is too long to move again (see [`Rules::dead_run_length`]) leaves only
//! card by card to the foundation. A lower card of its suit beneath it in
//! the same column must reach the foundation first, and stays covered by
//! the run: the column is never cleared.
//!
//! # Stuck cards
//!
//! Let C lie above a lower card Y of its own suit, and let every card C
//! may be built on (one rank higher, allowed by the build rule) be on the
//! foundation or beneath C in C's column. C cannot go to the foundation
//! before Y, and Y stays covered until C has left. C can only leave onto
//! one of those cards as a column top: one on the foundation never comes
//! back, one beneath C stays covered until C has left. So C never leaves.
//! In Midnight Oil this contains SPEC §8's two-card run (the card beneath
//! need not be adjacent, nor the run at the top). The closure below
//! contains this rule and finds more; this one comes free with the
//! survey's walk, so the search asks it first.
//!
//! # The closure
//!
//! Over any continuation of play, call a card *exposed* once every card
//! now above it has left its place, *leaving* when it moves (onto a column
//! top or to the foundation), and *finished* when it goes to the
//! foundation. Each event needs earlier ones:
//! - a card is exposed once each card above it has left;
//! - a card leaves only when exposed, and either finishes or lands on a
//!   card it may be built on that is a column top at that moment, so that
//!   card is on the tableau now and has been exposed (a top in its place,
//!   or moved, which also needs it exposed first);
//! - a card finishes only when exposed, after the card one rank lower of
//!   its suit (unless that one is on the foundation now).
//!
//! Starting from what holds now (column tops are exposed) and adding every
//! event whose needs are met, whatever the order, reaches a fixed point
//! that holds every event of every continuation: by induction on the move
//! that makes it happen, its needs happened before. A card missing from
//! the fixed point's finished set never finishes, and the game cannot be
//! won. The relaxation ignores timing (a host may be covered again before
//! it is needed) and forced foundation moves, so it only errs towards "may
//! be won".
//!
//! # After a move
//!
//! Say a move put card X from the card U (or a floor) onto the top card P
//! of a position that is not blocked, and sent nothing to the foundation.
//! The two positions then differ only in what lies on P and on U, and if
//! the child's closure has X leave, it has P uncovered as well, and U is a
//! top: every event of the parent's closure is then one of the child's (by
//! induction along its derivation; the tableau and the foundation are the
//! same). X leaves in the child's closure when a card it may go on, other
//! than P, is a column top there. The parent's closure finishes every
//! card, so the child's does too: the child is not blocked, and the
//! closure need not be worked out.
//!
//! # Under free rules
//!
//! Every proof above reasons over any continuation of single-card moves
//! and foundation moves, and never uses that a card goes up at once: the
//! closure even says it ignores forced foundation moves. So each holds as
//! it stands when foundation moves are the player's (SPEC §9), and the
//! free search prunes with all of them. The shortcut after a move asks
//! that the move sent nothing up, which a free move onto a card does not
//! (a `CARD F` move, or a safe foundation move after it, raises the score
//! and gets the whole closure).
//!
//! # Under xpat2's complete rules
//!
//! Where a foundation's top card may come back (SPEC §10; of these games,
//! Baker's Dozen), a card up now is no longer gone for good: it may come
//! back as a column top and take a card. The proofs above use that in two
//! places only, and each is widened so that it holds again. A stuck card
//! needs every card it may be built on beneath it in its column: one on
//! the foundation is an open host. The closure lets a card leave onto any
//! card up now as well as onto an exposed one; a card up now that comes
//! back is, for the rest, a card on the tableau whose events the closure
//! over-counts (it never needs them). Finishing stays as it is: a card's
//! first finish needs its suit's previous card up, which is so when that
//! card is up now or has finished. A move that brings a card back lowers
//! the score, so the shortcut after a move never applies to it.
//!
//! [`Rules::only_onto_higher`]: crate::rules::Rules::only_onto_higher
//! [`Rules::dead_run_length`]: crate::rules::Rules::dead_run_length

use super::automatic::up_bits;
use super::bits::{ALL_CARDS, card_bits, lower_of_suit, lower_ranks, top_bits};
use super::{Dest, FLOOR, Move, NOTHING, State};
use crate::cards::{CARDS, Card, KING, SUITS, card_of, next_cards, rank};

#[cfg(test)]
mod tests;

/// Facts about the columns of a position, gathered in one walk by
/// [`State::survey`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    /// Cards lying above a lower card of their own suit: each must move
    /// again before its suit can be finished.
    pub own_suit_inversions: usize,
    /// Cards lying above a lower card of any suit.
    pub any_inversions: usize,
    /// A card can never leave its place (see the module doc's stuck
    /// cards), so the position is lost.
    pub stuck: bool,
    /// SPEC §8: a column's top holds a decreasing same-suit run too long to
    /// move again over a lower card of its suit, so the column can never
    /// be cleared and the position is lost.
    pub dead_run: bool,
}

/// Whether `card`, over the cards `beneath` it in its column, lies above
/// a lower card of any suit, and above a lower card of its own suit.
#[inline]
fn lies_over_lower(card: Card, beneath: u64) -> (bool, bool) {
    (
        beneath & lower_ranks(card) != 0,
        beneath & lower_of_suit(card) != 0,
    )
}

/// A position's inversions card by card ([`State::inversions`]).
#[derive(Clone, Debug)]
pub struct Inversions {
    /// The cards above a lower card of their own suit, a bit per card.
    own: u64,
    /// The cards above a lower card of any suit.
    any: u64,
    /// For each column's top card: the cards of its column, itself
    /// included.
    column: [u64; CARDS],
}

impl Inversions {
    /// The [`Survey`] of `child`, the position `mv` leads to from the
    /// position of these inversions, `parent`, which must not hold a stuck
    /// card (every position the search stores). A move changes the place
    /// of one card, and the foundation moves after it take top cards away:
    /// every other card keeps the cards beneath it, and with them its
    /// inversions. The moved card lies on the cards of its target's column
    /// (none in an empty column, a register or on the foundation).
    ///
    /// Stuck cards (the module doc), in the games that look for them: every
    /// card but the moved one keeps the cards beneath it, so whether a card
    /// it may be built on lies beneath it does not change either (the
    /// moved card was a top and is one again, beneath no card either way);
    /// what changes is which of those are on the foundation. So a card can
    /// only have become stuck if it is the moved card, over the cards of
    /// its new column, or lies over a lower card of its suit and may be
    /// built on a card that just went up: each of those is tested over the
    /// cards beneath it, and no other card is stuck (the parent has none).
    #[inline]
    pub fn survey_after(&self, parent: &State, mv: Move, child: &State) -> Survey {
        let card = mv.card;
        let moved = 1u64 << card;
        let went_up = up_bits(&child.foundation) & !up_bits(&parent.foundation);
        let gone = moved | went_up;
        let (mut own, mut any) = (self.own & !gone, self.any & !gone);
        let mut stuck = false;
        if let Dest::Card(onto) = mv.dest
            && child.below[card as usize] == onto
        {
            let beneath = self.column[onto as usize];
            let (over_any, over_own) = lies_over_lower(card, beneath);
            if over_any {
                any |= moved;
            }
            if over_own {
                own |= moved;
                stuck = child.rules.only_onto_higher() && !child.has_open_parent(card, beneath);
            }
        }
        if child.rules.only_onto_higher() && went_up != 0 {
            let mut lost_a_parent = child.rules.build.children_of(went_up) & own & !moved;
            while lost_a_parent != 0 && !stuck {
                let c = lost_a_parent.trailing_zeros() as Card;
                lost_a_parent &= lost_a_parent - 1;
                stuck = !child.has_open_parent(c, child.cards_beneath(c));
            }
        }
        Survey {
            own_suit_inversions: own.count_ones() as usize,
            any_inversions: any.count_ones() as usize,
            stuck,
            dead_run: false,
        }
    }
}

impl State {
    /// One walk up every column, for the facts the search prunes and
    /// orders by.
    #[inline]
    pub fn survey(&self) -> Survey {
        let only_onto_higher = self.rules.only_onto_higher();
        let dead_run = self.rules.dead_run_length().unwrap_or(usize::MAX);
        let mut survey = Survey::default();
        let mut bottoms = card_bits(&self.below).floor;
        while bottoms != 0 {
            let bottom = bottoms.trailing_zeros() as Card;
            bottoms &= bottoms - 1;
            // The cards beneath `card` in its column, a bit per card.
            let mut beneath = 0u64;
            // Length of the decreasing same-suit run ending at `card`, and
            // the card beneath it.
            let mut run = 0;
            let mut under = NOTHING;
            let mut card = bottom;
            loop {
                run = if under == card + 4 { run + 1 } else { 1 };
                let (over_any, own) = lies_over_lower(card, beneath);
                survey.any_inversions += over_any as usize;
                survey.own_suit_inversions += own as usize;
                if own && only_onto_higher && !self.has_open_parent(card, beneath) {
                    survey.stuck = true;
                }
                beneath |= 1 << card;
                let next = self.above[card as usize];
                if next == NOTHING {
                    // The top card: the run's cards are all higher than it,
                    // so a lower card of its suit lies beneath the run
                    // exactly when one lies beneath the top.
                    if own && run >= dead_run {
                        survey.dead_run = true;
                    }
                    break;
                }
                under = card;
                card = next;
            }
        }
        survey
    }

    /// The cards beneath `card` in its column, a bit per card.
    #[inline]
    fn cards_beneath(&self, card: Card) -> u64 {
        let mut beneath = 0u64;
        let mut under = self.below[card as usize];
        while (under as usize) < CARDS {
            beneath |= 1 << under;
            under = self.below[under as usize];
        }
        beneath
    }

    /// Whether `card` has a card it may be built on that is neither on the
    /// foundation nor among `beneath` (the cards beneath it in its column):
    /// without one, a card above a lower card of its suit is stuck.
    #[inline]
    fn has_open_parent(&self, card: Card, beneath: u64) -> bool {
        let r = rank(card);
        r < KING
            && (0..SUITS as u8).any(|t| {
                let onto = card_of(r + 1, t);
                self.rules.build.allows(card, onto)
                    && (self.foundation[t as usize] <= r || self.returns)
                    && beneath & (1 << onto) == 0
            })
    }

    /// The inversions of this position card by card, from one walk, for
    /// the [`Survey`] of each of its children without a walk of their own
    /// ([`Inversions::survey_after`]); `None` where the survey also looks
    /// for dead runs, which a child must be walked for.
    ///
    /// A search stores more positions than it expands (FreeCell 1..2000:
    /// 17.9 M stored, 12.6 M expanded; a small search several times more),
    /// and many expansions find no new child at all, so one walk per
    /// expansion with a new child (the search asks lazily) instead of one
    /// per new child saves walks: `survey fc 1-2000 --fast --jobs 1`, the
    /// same positions in 5.5 s of CPU instead of 6.2; FreeCell 228606,
    /// which expands about all it stores, 5.0 s instead of 5.3 (`--jobs 1
    /// --fast`; same runs).
    #[inline]
    pub fn inversions(&self) -> Option<Inversions> {
        if self.rules.dead_run_length().is_some() {
            return None;
        }
        let mut inversions = Inversions {
            own: 0,
            any: 0,
            column: [0; CARDS],
        };
        let mut bottoms = card_bits(&self.below).floor;
        while bottoms != 0 {
            let mut card = bottoms.trailing_zeros() as Card;
            bottoms &= bottoms - 1;
            let mut beneath = 0u64;
            loop {
                let bit = 1u64 << card;
                let (over_any, over_own) = lies_over_lower(card, beneath);
                if over_any {
                    inversions.any |= bit;
                }
                if over_own {
                    inversions.own |= bit;
                }
                beneath |= bit;
                let next = self.above[card as usize];
                if next == NOTHING {
                    inversions.column[card as usize] = beneath;
                    break;
                }
                card = next;
            }
        }
        Some(inversions)
    }

    /// Whether some card can never reach the foundation even in a relaxed
    /// game (the module doc's closure), in the games where a card only ever
    /// moves onto a card one rank higher or to the foundation. Such a
    /// position is lost. This contains [`Survey::stuck`] and catches chains
    /// of blocked cards too.
    pub fn is_blocked_for_good(&self) -> bool {
        let rules = self.rules;
        if !rules.only_onto_higher() {
            return false;
        }
        let on_tableau = card_bits(&self.below).in_column;
        // Under the complete rules a card now up may come back and hold
        // another (the module doc).
        let hosts_coming_back = if self.returns {
            up_bits(&self.foundation)
        } else {
            0
        };
        let mut exposed = top_bits(&self.above) & on_tableau;
        let mut left = 0u64;
        let mut finished = 0u64;
        // Each suit's next card to finish, a bit per card.
        let mut next = next_cards(&self.foundation);
        // Rounds over all cards at once, a bit per card: each adds every
        // event whose needs the rounds before met, until one adds none.
        // (Drawing events out one at a time measured slower.)
        loop {
            // Up the four suits at once while their next card is exposed.
            let mut up = next & exposed;
            while up != 0 {
                finished |= up;
                next = (next ^ up) | (up << SUITS & ALL_CARDS);
                up = next & exposed;
            }
            let can_leave = finished | rules.build.children_of(exposed | hosts_coming_back);
            let mut leaving = exposed & can_leave & !left;
            if leaving == 0 {
                break;
            }
            while leaving != 0 {
                let card = leaving.trailing_zeros() as usize;
                leaving &= leaving - 1;
                left |= 1 << card;
                let under = self.below[card];
                if under < FLOOR {
                    // Down the column in the same round while the hosts
                    // known at its start take the card uncovered.
                    exposed |= 1 << under;
                    leaving |= can_leave & 1 << under;
                }
            }
        }
        finished != on_tableau
    }

    /// Whether `child`, the position `mv` leads to from this one (which
    /// must not be lost), is lost by any test of this file: a stuck card,
    /// a dead run, or the closure. In a game where none of them applies
    /// (FreeCell) the child is spared the walk.
    #[inline]
    pub fn is_lost_after(&self, mv: Move, child: &State) -> bool {
        let rules = child.rules;
        if rules.dead_run_length().is_none() && !rules.only_onto_higher() {
            return false;
        }
        let survey = child.survey();
        survey.stuck || survey.dead_run || self.is_blocked_after(mv, child)
    }

    /// A card that can never leave its place: [`Survey::stuck`].
    #[cfg(test)]
    pub(crate) fn has_stuck_card(&self) -> bool {
        self.survey().stuck
    }

    /// A dead run of SPEC §8: [`Survey::dead_run`].
    #[cfg(test)]
    pub(crate) fn has_dead_run(&self) -> bool {
        self.survey().dead_run
    }

    /// [`State::is_blocked_for_good`] of `child`, the position `mv` leads
    /// to from this one, which must not be blocked; without working the
    /// closure out when the move shows it (the module doc's "after a
    /// move").
    #[inline]
    pub fn is_blocked_after(&self, mv: Move, child: &State) -> bool {
        // Only these games have the closure: spare the others the host walk.
        if !child.rules.only_onto_higher() {
            return false;
        }
        if let Dest::Card(_) = mv.dest
            && child.score() == self.score()
            && rank(mv.card) < KING
        {
            let r = rank(mv.card);
            // P itself is no top: X lies on it.
            let free_host = (0..SUITS as u8).any(|s| {
                let host = card_of(r + 1, s);
                child.rules.build.allows(mv.card, host) && child.is_top(host)
            });
            if free_host {
                return false;
            }
        }
        child.is_blocked_for_good()
    }
}

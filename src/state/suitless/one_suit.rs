//! The suitless game with one suit followed: a relaxation of Baker's
//! Dozen between the suitless game and the real one.
//!
//! Why: where the suitless game wins and the real game is too large to
//! search (bd.63886 under every rule, 20407 62328 85737 with forced
//! moves, BakersDozen.191326999 under free rules), a proof needs a game
//! that forgets less. This one keeps, besides the suitless position,
//! where each card of one suit (the *followed* suit) lies: up, fixed
//! (its place is the deal's), or in the run of a known column. A run's
//! ranks follow from its length, so a column per rank places each
//! followed card exactly; the other suits' moved cards stay forgotten.
//!
//! # Its moves
//!
//! Those of the suitless game (the parent module's doc), with the
//! followed cards kept in place:
//! - a run's top card of rank `r` moved onto a host carries the followed
//!   card of rank `r` along if that card is the top (it lies in that
//!   column's run: the run's rank-`r` card is its top); a fixed top card
//!   moved is known, and the fixed cards below it that join the run are
//!   known too;
//! - a run's top card of rank `r` goes up for the followed suit only if
//!   it is the followed card, and for another suit only if it is not;
//! - a run's top card goes up by itself (the settling) where its identity
//!   is sure: the followed card, or, when the top is not the followed
//!   card, the only card of its rank of the other suits to have moved.
//!
//! # Why a lost game proves the real position lost
//!
//! The image of a real position is its suitless image with the column of
//! each followed card lying in a run. A real move of a card onto a host
//! or up is a move above from the image, to the image of where it
//! leads: the suitless part as the suitless game argues, and the
//! followed cards where the real ones are (a followed card moves exactly
//! when it is the card moved; a card of another suit that goes up is not
//! the followed card, so the top is not it). The cards the real game
//! plays up by itself include those this game plays up at once (bare,
//! their suit's next, the same rule), and the others are moves of it.
//! So every real play is a play of this game from the image, and a real
//! win is a win of it: searched whole and never won, the real position
//! is lost. Every move here maps to a suitless move too (forget the
//! followed cards), so this game is lost wherever the suitless game is.
//!
//! Cards back from the foundation (complete rules) are not followed
//! here: such a game is left [`Suitless::Open`].

use rustc_hash::FxHashSet;

use super::{BestFirst, COLUMNS, Game, Packed, Position, Suitless, next_ranks, search};
use crate::cards::{Card, KING, SUITS, card_of, rank, suit};
use crate::rules::Build;
use crate::state::{FLOOR, State};

/// Where a followed card that lies in no run is: fixed or up.
const NOWHERE: u8 = 15;

/// A position of the game: the suitless position, and per rank the
/// column whose run holds the followed card of that rank ([`NOWHERE`]
/// when it is fixed or up).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Followed {
    p: Position,
    at: [u8; KING as usize + 1],
}

/// The suitless game of a deal with one suit followed.
struct OneSuit {
    game: Game,
    followed: u8,
}

/// A position's key: its suitless position packed, and its followed
/// cards' columns, 4 bits a rank.
type Key = (Packed, u64);

impl OneSuit {
    fn key(&self, f: &Followed) -> Key {
        let at = f.at[1..]
            .iter()
            .fold(0u64, |key, &c| key << 4 | u64::from(c));
        (self.game.pack(&f.p), at)
    }

    /// The image of `state` (the module doc), settled: the position a
    /// search of it starts from.
    fn settled_image(&self, state: &State) -> Followed {
        let mut image = self.image(state);
        let fixed = self.game.fixed_cards(&image.p);
        self.settle(&mut image, fixed);
        image
    }

    /// The image of `state` (the module doc).
    fn image(&self, state: &State) -> Followed {
        let p = self.game.image(state);
        let fixed = self.game.fixed_cards(&p);
        let mut at = [NOWHERE; KING as usize + 1];
        for r in 1..=KING {
            let card = card_of(r, self.followed);
            if fixed >> card & 1 == 1 || r <= p.up[self.followed as usize] {
                continue;
            }
            let mut bottom = card;
            while state.below(bottom) < FLOOR {
                bottom = state.below(bottom);
            }
            let column = self.game.bottoms.iter().position(|&b| b == bottom);
            at[r as usize] = column.expect("a card in a run lies in a column") as u8;
        }
        Followed { p, at }
    }

    /// Column `i`'s fixed top card leaves it: as [`Game::take_fixed_top`],
    /// the followed cards that join the run placed in it.
    fn take_fixed_top(&self, f: &mut Followed, i: usize, fixed: &mut u64) {
        let n = f.p.fixed[i] as usize - 1;
        let left = self.game.lower[i][n] as usize;
        for &card in &self.game.fixed[i][left..n] {
            if suit(card) == self.followed {
                f.at[rank(card) as usize] = i as u8;
            }
        }
        self.game.take_fixed_top(&mut f.p, i, fixed);
    }

    /// The card on top of column `i` the real game surely played up by
    /// itself, if there is one: [`Game::goes_up_from`], with the
    /// followed card known.
    fn goes_up_from(&self, f: &Followed, fixed: u64, next: u16, i: usize) -> Option<Card> {
        let fixed_top = self.game.fixed_top(&f.p, i)?;
        let top = rank(fixed_top) - f.p.run[i];
        if next >> top & 1 == 0 {
            return None;
        }
        let card = if f.p.run[i] == 0 {
            fixed_top
        } else if usize::from(f.at[top as usize]) == i {
            card_of(top, self.followed)
        } else {
            // Not the followed card: the only other card of its rank
            // to have moved, if it is.
            let mut moved = (0..SUITS as u8)
                .filter(|&s| s != self.followed)
                .map(|s| card_of(top, s))
                .filter(|&c| fixed >> c & 1 == 0 && rank(c) > f.p.up[suit(c) as usize]);
            match (moved.next(), moved.next()) {
                (Some(card), None) => card,
                _ => return None,
            }
        };
        let s = suit(card) as usize;
        (rank(card) == f.p.up[s] + 1 && self.game.automatic.plays_up(Build::AnySuit, &f.p.up, card))
            .then_some(card)
    }

    /// Plays up every card the real game surely played up by itself.
    fn settle(&self, f: &mut Followed, mut fixed: u64) {
        use super::super::automatic::Automatic;
        if self.game.automatic == Automatic::Nothing {
            return;
        }
        loop {
            let next = next_ranks(&f.p);
            let Some((i, card)) = (0..self.game.columns)
                .find_map(|i| self.goes_up_from(f, fixed, next, i).map(|card| (i, card)))
            else {
                return;
            };
            self.up(f, i, card, &mut fixed);
        }
    }

    /// `card`, column `i`'s top, goes up.
    fn up(&self, f: &mut Followed, i: usize, card: Card, fixed: &mut u64) {
        f.p.up[suit(card) as usize] += 1;
        if f.p.run[i] == 0 {
            self.take_fixed_top(f, i, fixed);
        } else {
            f.p.run[i] -= 1;
        }
        if suit(card) == self.followed {
            f.at[rank(card) as usize] = NOWHERE;
        }
    }

    /// Calls `emit` with each position one move of `f` leads to, settled.
    fn for_each_child(&self, f: &Followed, mut emit: impl FnMut(Followed)) {
        let game = &self.game;
        let fixed_cards = game.fixed_cards(&f.p);
        let tops: [Option<u8>; COLUMNS] = std::array::from_fn(|i| {
            if i < game.columns {
                game.top_rank(&f.p, i)
            } else {
                None
            }
        });
        let mut topped = [0u16; KING as usize + 2];
        for (i, top) in tops.iter().enumerate().take(game.columns) {
            if let Some(top) = *top {
                topped[top as usize] |= 1 << i;
            }
        }
        let mut settled = |mut child: Followed, fixed: u64| {
            self.settle(&mut child, fixed);
            emit(child);
        };
        for (i, top) in tops.iter().enumerate().take(game.columns) {
            let (Some(r), Some(fixed_top)) = (*top, game.fixed_top(&f.p, i)) else {
                continue;
            };
            // Onto hosts.
            if r < KING {
                for j in super::columns_in(topped[r as usize + 1] & !(1 << i)) {
                    let (mut child, mut fixed) = (*f, fixed_cards);
                    if f.p.run[i] > 0 {
                        child.p.run[i] -= 1;
                        if usize::from(f.at[r as usize]) == i {
                            child.at[r as usize] = j as u8;
                        }
                    } else {
                        self.take_fixed_top(&mut child, i, &mut fixed);
                        if suit(fixed_top) == self.followed {
                            child.at[r as usize] = j as u8;
                        }
                    }
                    child.p.run[j] += 1;
                    settled(child, fixed);
                }
            }
            // Up.
            if f.p.run[i] == 0 {
                if rank(fixed_top) == f.p.up[suit(fixed_top) as usize] + 1 {
                    let (mut child, mut fixed) = (*f, fixed_cards);
                    self.up(&mut child, i, fixed_top, &mut fixed);
                    settled(child, fixed);
                }
                continue;
            }
            let followed_on_top = usize::from(f.at[r as usize]) == i;
            for s in 0..SUITS as u8 {
                let card = card_of(r, s);
                if f.p.up[s as usize] + 1 == r
                    && fixed_cards >> card & 1 == 0
                    && (s == self.followed) == followed_on_top
                {
                    let (mut child, mut fixed) = (*f, fixed_cards);
                    self.up(&mut child, i, card, &mut fixed);
                    settled(child, fixed);
                }
            }
        }
    }
}

impl BestFirst for OneSuit {
    type Position = Followed;
    type Key = Key;
    fn key(&self, f: &Followed) -> Key {
        OneSuit::key(self, f)
    }
    fn position(&self, (packed, mut at): Key) -> Followed {
        let mut f = Followed {
            p: self.game.unpack(packed),
            at: [NOWHERE; KING as usize + 1],
        };
        for column in f.at[1..].iter_mut().rev() {
            *column = (at & 0xF) as u8;
            at >>= 4;
        }
        f
    }
    fn up(f: &Followed) -> [u8; SUITS] {
        f.p.up
    }
    fn for_each_child(&self, f: &Followed, emit: impl FnMut(Followed)) {
        OneSuit::for_each_child(self, f, emit)
    }
}

/// Searches the suitless game of `state` with suit `followed`'s cards
/// followed (the module doc) whole, the positions with most cards up
/// first, unless it wins, reaches more than `most` positions or
/// `stopped` says so. `Open` where it does not describe the game: not
/// Baker's Dozen, or cards may come back from the foundation.
pub fn one_suit_followed(
    state: &State,
    followed: u8,
    most: usize,
    stopped: impl Fn() -> bool,
) -> Suitless {
    let Some((game, _)) = Game::of(state) else {
        return Suitless::Open { positions: 0 };
    };
    if game.returns || usize::from(followed) >= SUITS {
        return Suitless::Open { positions: 0 };
    }
    let one = OneSuit { game, followed };
    let start = one.settled_image(state);
    search(&one, &start, most, &stopped, &FxHashSet::default()).0
}

#[cfg(test)]
mod tests;

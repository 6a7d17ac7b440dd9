//! The orderings of the portfolio: which stored position an attempt
//! expands next. Any order keeps the search complete: it only chooses
//! which stored position goes first, so an exhausted frontier is a proof
//! whatever the weights and whatever the kind, but for a beam that
//! dropped positions (see [`super::portfolio_beam`]).

use crate::cards::{KING, SUITS, card_of};
use crate::state::{REGISTER, State, Survey};

/// An ordering: its kind, and the tie-break that ranks positions inside a
/// score bucket or among the children of a depth-first step (lower
/// first): a weighted count of cards in the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Order {
    /// Weight of the cards lying on each suit's next card: they must move
    /// before the foundation can grow.
    pub(super) next_blockers: u8,
    /// Weight of the cards lying above a lower card of their own suit: each
    /// must move again before that suit can be finished.
    pub(super) own_suit_inversions: u8,
    /// Weight of the cards lying above a lower card of any suit.
    pub(super) any_inversions: u8,
    /// Weight of occupied registers.
    pub(super) registers: u8,
    /// When not 0: one more point per this many moves from the deal, so
    /// that shorter paths to similar positions go first.
    pub(super) depth_divisor: u8,
    pub(super) kind: Kind,
    /// When not 0: every position this many moves from the deal or fewer
    /// starts a frontier of its own, and the frontiers take turns (see
    /// [`super::split`]).
    pub(super) split: u8,
}

/// How an attempt keeps its waiting positions: the score buckets with one
/// queue discipline, or depth-first with one order of the children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// The highest score first (see [`super::frontier::Buckets`]).
    Buckets(Queue),
    /// The children of the position just expanded go first (see
    /// [`super::frontier::Stack`]).
    DepthFirst(Dive),
    /// One layer per move from the deal, the best of each kept, as many as
    /// the attempt's budget allows (see [`super::portfolio_beam`]): no proof once a
    /// position is dropped.
    Beam,
}

/// Which of the positions of equal score and tie-break a bucket gives
/// first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Queue {
    /// The oldest: shorter solutions than [`Queue::Lifo`] (SEARCH-NOTES),
    /// for a few more expansions.
    Fifo,
    /// The newest: deeper lines, longer solutions.
    Lifo,
}

/// How a depth-first attempt orders the children of the position it
/// expands; the tie-break is [`Order`]'s weighted count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dive {
    /// The fewest cards on the foundation first, then the lowest tie-break.
    FewestCards,
    /// The most cards on the foundation first, then the lowest tie-break.
    MostCards,
    /// The fewest cards on the foundation first, then the highest
    /// tie-break: the most cards in the way.
    FewestCardsMostInTheWay,
}

impl Order {
    /// The first ordering tried: [`Order::BASE`] plus a point per move from
    /// the deal, which took the FreeCell median of seeds 1..200 from 57 to
    /// 49 moves (Seahaven 36 to 34) for a few more expansions.
    pub(super) const FIRST: Order = Order {
        depth_divisor: 1,
        ..Order::BASE
    };

    /// SEARCH-NOTES measured next-card blockers plus own-suit inversions
    /// cutting FreeCell expansions by 60x over plain buckets.
    pub(super) const BASE: Order = Order {
        next_blockers: 1,
        own_suit_inversions: 1,
        any_inversions: 0,
        registers: 0,
        depth_divisor: 0,
        kind: Kind::Buckets(Queue::Fifo),
        split: 0,
    };

    /// The tie-break of a stored position `depth` moves from the deal.
    pub(super) fn rank(&self, state: &State, survey: &Survey, depth: u16) -> usize {
        let (own, any) = (survey.own_suit_inversions, survey.any_inversions);
        let registers = state.rules().registers - state.free_registers();
        next_blockers(state) * self.next_blockers as usize
            + own * self.own_suit_inversions as usize
            + any * self.any_inversions as usize
            + registers * self.registers as usize
            + match self.depth_divisor {
                0 => 0,
                d => depth as usize / d as usize,
            }
    }
}

/// Cards lying on each suit's next card for the foundation (none when that
/// card is in a register).
fn next_blockers(state: &State) -> usize {
    let mut count = 0;
    let foundation = state.foundation();
    for s in 0..SUITS as u8 {
        let height = foundation[s as usize];
        if height < KING {
            let mut card = card_of(height + 1, s);
            if state.below(card) == REGISTER {
                continue;
            }
            while let Some(above) = state.above(card) {
                count += 1;
                card = above;
            }
        }
    }
    count
}

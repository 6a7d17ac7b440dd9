//! The portfolio's plan: the orderings it tries in turn ([`PORTFOLIO`]),
//! their budgets round by round, and the order of their turns
//! ([`Schedule`]), the prover's included (see [`super::portfolio`]).

use super::order::{Dive, Kind, Order, Queue};
use crate::rules::Rules;

/// The orderings tried in turn, each with the reason it is here. The
/// bucket orderings were picked on the Baker's Dozen deals of 1..300 the
/// first leaves unsolved; the depth-first ones on those of 1..1000 that
/// the buckets leave undecided; the split ones (see [`super::split`]) on
/// the 217 of 1..1000 that ordering 0 takes more than 15 000 expansions
/// to decide, where most searches lose themselves below one of the first
/// moves: within 100 000 positions each, 1, 3, 6 and 9 decide 201 to 204
/// of them, and ordering 0 without the split 72. They take turns so that
/// a round reaches the depth-first and split ones early.
pub(super) const PORTFOLIO: [Order; 19] = [
    // 0: short solutions (a point per move).
    Order::FIRST,
    // 1: 0, split two moves deep; the last round's ordering.
    Order {
        split: 2,
        ..Order::FIRST
    },
    // 2: depth-first, fewest cards up (with 5, 8, 11): for what buckets miss.
    Order {
        next_blockers: 2,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 3: 4, split two moves deep: solves bd.562 within 40 000 positions.
    Order {
        split: 2,
        ..BLOCKERS_NEWEST_FIRST
    },
    // 4: blockers alone, newest first: the one that solves bd.192 fastest.
    BLOCKERS_NEWEST_FIRST,
    // 5: depth-first, fewest cards up, on any-suit inversions.
    Order {
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 6: 7, split two moves deep.
    Order {
        split: 2,
        ..INVERSIONS
    },
    // 7: inversions of both kinds, no blockers: the one that solves bd.428.
    INVERSIONS,
    // 8: depth-first, fewest cards up, on 7's weights.
    Order {
        next_blockers: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 9: 12, split two moves deep.
    Order {
        split: 2,
        ..BLOCKERS
    },
    // 10: any-suit inversions alone, newest first (15 is its twin).
    Order {
        next_blockers: 0,
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::Buckets(Queue::Lifo),
        ..Order::BASE
    },
    // 11: depth-first, fewest cards up, on the base weights.
    Order {
        kind: Kind::DepthFirst(Dive::FewestCards),
        ..Order::BASE
    },
    // 12: next-card blockers alone, oldest first (4 is its twin).
    BLOCKERS,
    // 13: own-suit inversions alone.
    Order {
        next_blockers: 0,
        ..Order::BASE
    },
    // 14: the base weights, newest first (0 without depth is its twin).
    Order {
        kind: Kind::Buckets(Queue::Lifo),
        ..Order::BASE
    },
    // 15: any-suit inversions alone, oldest first.
    Order {
        next_blockers: 0,
        own_suit_inversions: 0,
        any_inversions: 1,
        ..Order::BASE
    },
    // 16: depth-first, most cards up (with 17, 18): for what 2-15 miss.
    Order {
        next_blockers: 2,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::MostCards),
        ..Order::BASE
    },
    // 17: depth-first, most cards up: the one that solves bd.848.
    Order {
        own_suit_inversions: 0,
        any_inversions: 1,
        kind: Kind::DepthFirst(Dive::MostCards),
        ..Order::BASE
    },
    // 18: depth-first, most cards in the way first: solves bd.532 at once.
    Order {
        next_blockers: 0,
        kind: Kind::DepthFirst(Dive::FewestCardsMostInTheWay),
        ..Order::BASE
    },
];

/// The ordering of the last round, which may store `--max-states`
/// positions: of the 217 hardest Baker's Dozen deals of 1..1000, within
/// 2 M positions, ordering 0 leaves 78 undecided and this one 4.
const LAST_ROUND: usize = 1;

/// Next-card blockers alone, newest first.
const BLOCKERS_NEWEST_FIRST: Order = Order {
    own_suit_inversions: 0,
    kind: Kind::Buckets(Queue::Lifo),
    ..Order::BASE
};

/// Inversions of both kinds, no blockers.
const INVERSIONS: Order = Order {
    next_blockers: 0,
    any_inversions: 1,
    ..Order::BASE
};

/// Next-card blockers alone, oldest first.
const BLOCKERS: Order = Order {
    own_suit_inversions: 0,
    ..Order::BASE
};

/// The beam attempt of the split games (see [`super::portfolio_beam`]): own-suit
/// inversions as the tie-break inside a layer's score.
pub(super) const BEAM: Order = Order {
    next_blockers: 0,
    kind: Kind::Beam,
    ..Order::BASE
};

/// The round whose end brings the beam's turn, by its budget, and the
/// beam's budget: one beam per search, 200 000 wide (see
/// [`super::portfolio_beam`]), after the second round, where the orderings have
/// failed on a deal for good (no deal of Baker's Dozen 1..1000 goes past
/// it, so those searches are unchanged). A beam's turn does not grow from
/// round to round as the others' do: wider beams cost more than the
/// rounds they delay (bd.2570, solved by the fourth round's orderings in
/// 7 s, took 22 s behind beams of 320 000 and 700 000).
const BEAM_AFTER: u64 = 80_000;
pub(super) const BEAM_BUDGET: u64 = 200_000 * super::portfolio_beam::STORED_PER_WIDTH;

/// The orderings of a round in the games where cards also go into
/// registers or empty columns (FreeCell, Seahaven), in [`PORTFOLIO`]'s
/// order; the split ones cost more than they save there (see
/// [`Schedule`]). There the fast pass goes first and wins most deals; of
/// the fifteen orderings without a split, a few sets were tried on the 36
/// FreeCell deals of 1..100000 that the pass leaves and the portfolio wins,
/// and on the 35 of 100001..200000 (positions expanded in all): the
/// fifteen 2.86 M and 2.71 M, these five 2.36 M and 2.42 M, 0, 8, 10 and
/// 11 alone 2.21 M and 2.65 M, any one ordering beside 0 3.3 M or more on
/// the first set. Fewer orderings, less of each round spent beside the
/// prover: FreeCell 376548's proof 16.9 M → 13.6 M expanded, the four
/// deals of 1..100000 no play wins 1.48 M → 0.72 M; Seahaven 1..3000
/// (`survey --fast --jobs 1`) 9.1 M → 6.0 M expanded, 6.0 → 4.3 s, the
/// same verdicts.
const ROUND_WITH_ROOM: [usize; 5] = [0, 2, 8, 10, 11];

/// Positions the first round may store per ordering.
const FIRST_BUDGET: u64 = 20_000;
/// How much larger each round's budget is than the last. Baker's Dozen
/// 1..1000 with 10 s per deal: 991 decided with 4, 989 with 8 (the rounds
/// of 8 grow past 10 s before the later orderings get their turn).
const BUDGET_GROWTH: u64 = 4;

/// How much larger than the round's budget the prover's is, after the
/// first round: two rounds ahead. Measured with one thread against one
/// round ahead (4) and against starting afresh each round: FreeCell
/// 376548, whose 11 M positions no play wins, 33 M expansions with 4 and
/// 15.6 M with 16 (8 s, so decided within the default 10 s); the 15
/// FreeCell deals of 1..1000000 the old schedule left undecided at 10 s,
/// 35 s of CPU with 4, 28 s with 16; Baker's Dozen 1..1000, 16.4 M
/// expansions afresh, 13.1 M with 4, 11.7 M with 16 (bd.562 2.27 M, 0.63 M
/// with 16); FreeCell 1..3000 and Seahaven 1..1000 the same within 2%.
const PROVER_AHEAD: u64 = BUDGET_GROWTH * BUDGET_GROWTH;

/// One attempt of the portfolio's plan: an ordering and its budget.
#[derive(Clone, Copy, Debug)]
pub(super) struct Planned {
    pub(super) order: &'static Order,
    /// Positions it may store.
    pub(super) budget: u64,
    /// The last round: its budget is the user's `--max-states`, so a
    /// stop at the budget is the user's limit, not the plan's.
    pub(super) last: bool,
    /// The prover's turn: go on with it up to `budget` positions held.
    pub(super) resume: bool,
}

/// The attempts in the order the portfolio tries them: each round every
/// ordering with the round's budget, the prover two rounds ahead, until the
/// prover's budget reaches `--max-states`: that turn is the last, and the
/// rounds are over.
///
/// The split orderings are for the games where a card only goes onto a
/// higher one (Baker's Dozen, Midnight Oil), whose lost subtrees they
/// escape. Elsewhere they cost more than they save: on FreeCell and
/// Seahaven 1..1000 they added 13% and 6% to the positions expanded in all
/// (of the 81 and 21 deals that took over 20 000, 25 and 9 were faster).
/// There a round is the five orderings of [`ROUND_WITH_ROOM`], with
/// ordering 0 as the prover.
///
/// The prover takes the first turn of the first round (ordering 0 decides
/// most deals within it) and the second turn of every later round, where
/// its turn costs sixteen of the others': a solution the round's first
/// ordering finds at the round's budget comes before it. In the split
/// games that is the order of [`PORTFOLIO`]; elsewhere the depth-first
/// ordering 2 goes first from the second round on. Measured with one
/// thread on the 107 FreeCell deals of 1..1000000 that took over 0.3 s
/// (`survey --foundation both`): 226 M expansions in all with the prover
/// first, 184 M second; FreeCell 228606, 20.0 M (9.2 s) → 11.5 M (4.7 s),
/// found by ordering 2 in 590 000 positions; FreeCell 1..3000 and Baker's
/// Dozen 1..1000 the same, Seahaven 1..1000 2.5% more.
#[derive(Clone)]
pub(super) struct Schedule {
    max_states: u64,
    /// The orderings of a round, in turn order: the first `orderings` of
    /// them.
    round: [usize; PORTFOLIO.len()],
    orderings: usize,
    /// The prover's ordering: the last round's of the old schedule, which
    /// stores everything when nothing else decides.
    prover: usize,
    budget: u64,
    /// The next turn of the round under way.
    next: usize,
    /// The positions the prover may hold after its last turn: the others
    /// share what is left of `max_states`.
    held: u64,
    /// The prover's last turn was handed out.
    done: bool,
    /// Whether beams take turns: in the split games.
    beams: bool,
    /// The beam's turn comes next: a round of [`BEAM_AFTER`] just ended.
    beam_due: bool,
}

impl Schedule {
    /// The schedule of a search of a deal of `rules` under `--max-states`
    /// `max_states`; with `prover_alone` (see [`Limits::prover_alone`]), the
    /// prover's one turn with the whole budget.
    pub(super) fn new(max_states: u64, rules: &Rules, prover_alone: bool) -> Schedule {
        let split = rules.only_onto_higher();
        let mut round: [usize; PORTFOLIO.len()] = std::array::from_fn(|i| i);
        let orderings = if split {
            PORTFOLIO.len()
        } else {
            round[..ROUND_WITH_ROOM.len()].copy_from_slice(&ROUND_WITH_ROOM);
            ROUND_WITH_ROOM.len()
        };
        Schedule {
            max_states,
            round,
            orderings,
            prover: if split { LAST_ROUND } else { 0 },
            budget: if prover_alone {
                max_states
            } else {
                FIRST_BUDGET
            },
            next: 0,
            held: 0,
            done: false,
            beams: split,
            beam_due: false,
        }
    }
}

impl Iterator for Schedule {
    type Item = Planned;

    fn next(&mut self) -> Option<Planned> {
        if self.done {
            return None;
        }
        if std::mem::take(&mut self.beam_due) {
            let budget = BEAM_BUDGET.min(self.max_states - self.held);
            if budget >= FIRST_BUDGET {
                return Some(Planned {
                    order: &BEAM,
                    budget,
                    last: false,
                    resume: false,
                });
            }
        }
        let prover = &PORTFOLIO[self.prover];
        if self.budget >= self.max_states {
            // No round fits below the user's limit: the prover alone.
            self.done = true;
            return Some(Planned {
                order: prover,
                budget: self.max_states,
                last: true,
                resume: true,
            });
        }
        let ordering = self.round[self.next];
        if ordering != self.prover {
            let planned = Planned {
                order: &PORTFOLIO[ordering],
                budget: self.budget.min(self.max_states - self.held),
                last: false,
                resume: false,
            };
            self.turn();
            return Some(planned);
        }
        // The first round as it always was; after it, two rounds ahead.
        let ahead = if self.budget == FIRST_BUDGET {
            self.budget
        } else {
            self.budget.saturating_mul(PROVER_AHEAD)
        };
        let last = ahead >= self.max_states;
        self.held = ahead.min(self.max_states);
        let planned = Planned {
            order: prover,
            budget: self.held,
            last,
            resume: true,
        };
        if last {
            self.done = true;
        } else {
            self.turn();
        }
        Some(planned)
    }
}

impl Schedule {
    /// Moves on to the round's next turn, and to the next round after its
    /// last, where the prover goes second.
    fn turn(&mut self) {
        self.next += 1;
        if self.next == self.orderings {
            self.beam_due = self.beams && self.budget == BEAM_AFTER;
            self.next = 0;
            self.budget = self.budget.saturating_mul(BUDGET_GROWTH);
            if self.round[0] == self.prover {
                self.round.swap(0, 1);
            }
        }
    }
}

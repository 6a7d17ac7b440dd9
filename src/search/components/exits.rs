//! A component's moves out, found from one of its positions without
//! listing the others (the proof is in [`children`]' doc).

use super::Class;
use crate::cards::{CARDS, Card, KING, RANK_CARDS, SUITS, card_of, rank};
use crate::state::{Dest, FOUNDATION, Key, Move, State};

/// A move out of a component and where it leads.
pub(super) struct Exit {
    /// The position reached, with the moves to it from the position the
    /// component was read from (host moves, then the move out).
    pub child: State,
    pub moves: Vec<Move>,
    /// The name of the child's component.
    pub name: Key,
}

/// No host chosen yet.
const NONE: Card = u8::MAX;

/// The four cards of `rank`, a bit per card.
fn of_rank(rank: u8) -> u64 {
    RANK_CARDS << card_of(rank, 0)
}

/// Why [`children`] found no moves out.
pub(super) enum Unfound {
    /// It took more than its budget of families, or a position could not
    /// be built (the class misread): the component is better listed.
    Listing,
    /// `stopped` said so.
    Stopped,
}

/// The components the moves out of `first`'s component lead to, one
/// position of each that `keep` keeps (given the position and its
/// component's name; a won position is kept whatever it says, and ends
/// the search for more), within `budget` families tried. `stopped` is
/// asked every [`LOOK_EVERY`] families.
///
/// # Why these are all of them, and each is one component
///
/// A move out of the component moves a card `x` the component never
/// moves (a *fixed* card: not in `class.movable`) onto a card `y` one rank
/// higher. In some position of the component both lie on top exactly when
/// no fixed card lies on either (what lies on them is then movable, and
/// can be moved aside), so the pairs below are all the moves out. Under
/// free rules a suit's next card `c` may also go up by the player's
/// choice (one the safe rule plays up is never bare): a fixed `c` when it
/// can be bare, as above, and a movable `c` from each open host, taken as
/// assigned to it (each host a family of its own, as a split below
/// makes). For one move, let L be the positions where its cards (`x` and
/// `y`, or `c`) lie on top: they differ only in where the movable cards
/// lie, each on an open host (`class.open`) of its rank, except `x` for
/// the rank below `x` and `y` for `x`'s rank (`c` for the rank below). The
/// search splits L into *families*, each fixing the hosts of some movable
/// cards (`assigned`), and takes one position Q of a family (`arrange`);
/// the move out gives Q'. From every position of the family the move out
/// leads into Q''s component C' when:
///
/// - the cards that go up after the move are the same from every position
///   of the family: none of them is a free movable card, none of them but
///   `x` and `y` is a host such a card may lie on (else it could be covered
///   in another position), and the card on each suit's next card in Q' is
///   not a free movable card (else that card could be bare, and go up, in
///   another). Then every position of the family leads to its own
///   placement of the free movable cards, with everything else as in Q';
/// - the free movable cards stay movable in C', and every host they may
///   lie on in the family is open in C': each of those positions has C''s
///   fixed cards where Q' has them and its movable cards on open hosts, so
///   it lies in C', which is every such placement (the parent module's
///   doc).
///
/// A family failing a test is split by the hosts of the free movable cards
/// of the ranks at fault, and each part tried again.
pub(super) fn children(
    first: &State,
    class: &Class,
    budget: usize,
    stopped: &dyn Fn() -> bool,
    keep: &mut dyn FnMut(&State, Key) -> bool,
) -> Result<Vec<Exit>, Unfound> {
    let can_be_bare = |c: Card| first.above(c).is_none_or(|d| class.movable & (1 << d) != 0);
    let on_table = |c: Card| first.below(c) != FOUNDATION;
    let mut search = Families {
        first,
        class,
        tries: budget,
        stopped,
        keep,
        exits: Vec::new(),
        won: false,
    };
    // A fixed card onto a card one rank higher, both of which can be bare.
    let onto = (0..CARDS as Card)
        .filter(|&x| {
            rank(x) != KING && class.movable & (1 << x) == 0 && on_table(x) && can_be_bare(x)
        })
        .flat_map(|x| {
            (0..SUITS as u8)
                .map(move |s| card_of(rank(x) + 1, s))
                .filter(move |&y| on_table(y) && first.below(x) != y && can_be_bare(y))
                .map(move |y| {
                    (
                        Move {
                            card: x,
                            dest: Dest::Card(y),
                        },
                        [NONE; CARDS],
                    )
                })
        });
    // Under free rules, a suit's next card up by choice: a fixed one from
    // where it lies, when it can be bare; a movable one from each open
    // host, assigned to it.
    let by_choice = !first.plays_every_card_up();
    let up = (0..SUITS as u8)
        .filter(move |_| by_choice)
        .filter_map(|s| {
            let height = first.foundation()[s as usize];
            (height < KING).then(|| card_of(height + 1, s))
        })
        .flat_map(|c| {
            let movable = class.movable & (1 << c) != 0;
            let hosts = if movable {
                class.open & of_rank(rank(c) + 1)
            } else {
                0
            };
            let where_it_lies = (!movable && can_be_bare(c)).then_some(NONE);
            bits(hosts).chain(where_it_lies).map(move |host| {
                let mut assigned = [NONE; CARDS];
                assigned[c as usize] = host;
                (
                    Move {
                        card: c,
                        dest: Dest::Foundation,
                    },
                    assigned,
                )
            })
        });
    for (out, assigned) in onto.chain(up) {
        search.family(out, assigned)?;
        if search.won {
            return Ok(search.exits.split_off(search.exits.len() - 1));
        }
    }
    Ok(search.exits)
}

/// The cards a move out needs on top: the card moved, and the card it
/// goes onto.
fn cards_of(out: Move) -> u64 {
    match out.dest {
        Dest::Card(y) => (1u64 << out.card) | (1u64 << y),
        _ => 1u64 << out.card,
    }
}

/// Families tried between two looks at whether the search is stopped.
const LOOK_EVERY: usize = 1 << 12;

/// The search of one component's moves out, family by family.
struct Families<'a> {
    first: &'a State,
    class: &'a Class,
    /// Families that may still be tried.
    tries: usize,
    stopped: &'a dyn Fn() -> bool,
    keep: &'a mut dyn FnMut(&State, Key) -> bool,
    exits: Vec<Exit>,
    /// Whether the last exit kept is a won position.
    won: bool,
}

impl Families<'_> {
    /// Tries the family of the move `out` whose movable cards `assigned`
    /// gives a host to (`NONE` for the free ones), splitting it as needed,
    /// until a won position is met.
    fn family(&mut self, out: Move, assigned: [Card; CARDS]) -> Result<(), Unfound> {
        if self.won {
            return Ok(());
        }
        if self.tries == 0 {
            return Err(Unfound::Listing);
        }
        self.tries -= 1;
        // Memory run out is looked at every family (see `list`).
        if (self.tries.is_multiple_of(LOOK_EVERY) && (self.stopped)()) || crate::memory::low() {
            return Err(Unfound::Stopped);
        }
        let class = self.class;
        let pair = cards_of(out);
        let mut taken = pair;
        let mut free = class.movable;
        for (card, &host) in assigned.iter().enumerate() {
            if host != NONE {
                taken |= 1 << host;
                free &= !(1u64 << card);
            }
        }
        // The hosts free movable cards may lie on in the family.
        let mut open = 0u64;
        let mut target = assigned;
        for r in 1..KING {
            let cards = free & of_rank(r);
            if cards == 0 {
                continue;
            }
            let hosts = class.open & of_rank(r + 1) & !taken;
            open |= hosts;
            if cards.count_ones() > hosts.count_ones() {
                return Ok(()); // An empty family.
            }
            let mut spare = hosts;
            for card in bits(cards) {
                let host = self.first.below(card);
                if host < CARDS as u8 && spare & (1 << host) != 0 {
                    target[card as usize] = host;
                    spare &= !(1u64 << host);
                }
            }
            for card in bits(cards) {
                if target[card as usize] == NONE {
                    let host = spare.trailing_zeros() as Card;
                    target[card as usize] = host;
                    spare &= spare - 1;
                }
            }
        }
        let Some((q, mut moves)) = arrange(self.first, class.movable, &target) else {
            return Err(Unfound::Listing);
        };
        if bits(pair).any(|c| !q.is_top(c)) || q.check_move(out).is_err() {
            return Err(Unfound::Listing);
        }
        let mut child = q.clone();
        child.apply(out);
        moves.push(out);
        let after = Class::of(&child);
        let won = child.is_won();
        let faults = if won {
            0
        } else {
            faults(&q, &child, &after, free, open, pair)
        };
        if faults == 0 {
            if (self.keep)(&child, after.name) || won {
                self.won = won;
                self.exits.push(Exit {
                    child,
                    moves,
                    name: after.name,
                });
            }
            return Ok(());
        }
        // Split by the hosts of the free cards of the ranks at fault.
        let split: Vec<Card> = (1..KING)
            .filter(|&r| faults & (1 << r) != 0)
            .flat_map(|r| bits(free & of_rank(r)))
            .collect();
        if split.is_empty() {
            return Err(Unfound::Listing);
        }
        self.split(out, assigned, taken, &split)
    }

    /// Tries every way of giving `cards` distinct hosts not `taken`, each
    /// family on its own.
    fn split(
        &mut self,
        out: Move,
        assigned: [Card; CARDS],
        taken: u64,
        cards: &[Card],
    ) -> Result<(), Unfound> {
        let Some((&card, rest)) = cards.split_first() else {
            return self.family(out, assigned);
        };
        let hosts = self.class.open & of_rank(rank(card) + 1) & !taken;
        for host in bits(hosts) {
            let mut more = assigned;
            more[card as usize] = host;
            self.split(out, more, taken | 1 << host, rest)?;
        }
        Ok(())
    }
}

/// The ranks (a bit per rank) whose free movable cards keep the family
/// from leading into one component (see [`children`]); 0 if none.
fn faults(q: &State, child: &State, after: &Class, free: u64, open: u64, pair: u64) -> u32 {
    let mut faults = 0u32;
    // The cards that went up: each suit's, above its height before.
    let mut up = 0u64;
    for (s, (&before, &now)) in q.foundation().iter().zip(&child.foundation()).enumerate() {
        for r in before + 1..=now {
            up |= 1 << card_of(r, s as u8);
        }
    }
    for u in bits(up & free) {
        faults |= 1 << rank(u) | 1 << (rank(u) - 1);
    }
    for u in bits(up & open & !pair) {
        faults |= 1 << (rank(u) - 1);
    }
    for (s, &height) in child.foundation().iter().enumerate() {
        if height < KING
            && let Some(d) = child.above(card_of(height + 1, s as u8))
            && free & (1 << d) != 0
        {
            faults |= 1 << rank(d);
        }
    }
    for c in bits(free & !after.movable) {
        faults |= 1 << rank(c);
    }
    for h in bits(open & !after.open) {
        faults |= 1 << (rank(h) - 1);
    }
    faults & !1
}

/// The cards of a bit set, lowest first.
fn bits(mut set: u64) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as Card;
            set &= set - 1;
            c
        })
    })
}

/// The position of `first`'s component where each movable card lies on
/// `target[card]`, and host moves to it: rank by rank from the Queens
/// down, each card whose host differs goes there, after the card on that
/// host and those on the card are moved aside to bare hosts (a rank below
/// is not placed yet, so nothing placed moves again). `None` if a move
/// could not be made or a card is not where asked (the class misread).
fn arrange(first: &State, movable: u64, target: &[Card; CARDS]) -> Option<(State, Vec<Move>)> {
    let mut state = first.clone();
    let mut moves = Vec::new();
    for r in (1..KING).rev() {
        for card in bits(movable & of_rank(r)) {
            let host = target[card as usize];
            if state.below(card) == host {
                continue;
            }
            if let Some(on) = state.above(host) {
                move_aside(&mut state, on, &mut moves)?;
            }
            while let Some(on) = state.above(card) {
                move_aside(&mut state, on, &mut moves)?;
            }
            host_move(&mut state, card, host, &mut moves)?;
        }
    }
    let placed = bits(movable).all(|card| state.below(card) == target[card as usize]);
    placed.then_some((state, moves))
}

/// Moves `card`, after what lies on it, onto a bare card one rank higher.
fn move_aside(state: &mut State, card: Card, moves: &mut Vec<Move>) -> Option<()> {
    while let Some(on) = state.above(card) {
        move_aside(state, on, moves)?;
    }
    let host = (0..SUITS as u8)
        .map(|s| card_of(rank(card) + 1, s))
        .find(|&h| state.is_top(h))?;
    host_move(state, card, host, moves)
}

/// Moves `card` onto `host` if that is a host move.
fn host_move(state: &mut State, card: Card, host: Card, moves: &mut Vec<Move>) -> Option<()> {
    let mv = Move {
        card,
        dest: Dest::Card(host),
    };
    state.check_move(mv).ok()?;
    let score = state.score();
    state.apply(mv);
    moves.push(mv);
    (state.score() == score).then_some(())
}

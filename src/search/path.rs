//! The solution of a search: the moves back from a won position through
//! the stored parents, then made shorter where the path takes a detour.

use super::visited::{NO_PARENT, Visited};
use crate::state::{Dest, Key, KeyDecoder, Move, State};

/// The moves from the root to the stored position `index`: each step is
/// the one move of the parent whose child has the stored key.
pub(super) fn path_to(visited: &Visited, decoder: &KeyDecoder, index: u32) -> Vec<Move> {
    chain_moves(visited, decoder, index, |i| visited.parent(i))
}

/// The moves from the root to the stored position `index`, following
/// `parent` back (it gives [`NO_PARENT`] at the root): each step is the
/// one move of the parent whose child has the stored key.
pub(super) fn chain_moves(
    visited: &Visited,
    decoder: &KeyDecoder,
    index: u32,
    parent: impl Fn(u32) -> u32,
) -> Vec<Move> {
    let mut chain = vec![index];
    while parent(*chain.last().unwrap()) != NO_PARENT {
        chain.push(parent(*chain.last().unwrap()));
    }
    chain.reverse();
    chain
        .windows(2)
        .map(|pair| move_to(&decoder.state(visited.key(pair[0])), &visited.key(pair[1])))
        .collect()
}

/// The move of `parent` that leads to the position of key `child`: a
/// stored position (or a layer's record) comes from one. A foundation
/// move when one does: under free rules a card put onto another may go
/// up by itself at once, the same position as its foundation move, which
/// a file writes in one line, not two (and `--optimal` counts as none).
pub(super) fn move_to(parent: &State, child: &Key) -> Move {
    let mut found: Option<Move> = None;
    parent.for_each_move(|mv| {
        if found.is_none_or(|f| f.dest != Dest::Foundation && mv.dest == Dest::Foundation) {
            let mut next = parent.clone();
            next.apply(mv);
            if next.key() == *child {
                found = Some(mv);
            }
        }
    });
    found.expect("a stored position comes from a move of its parent")
}

/// Cuts detours out of a solution: while some position on the path is one
/// or two moves away from a later one that the path reaches in more (a
/// card parked in a register and taken back, three moves that two would
/// do), the moves between them are replaced by the shorter way. Every step
/// is a legal move between positions of the path, so the result is still
/// a solution, never longer.
pub(super) fn shorten(root: &State, moves: Vec<Move>) -> Vec<Move> {
    let mut moves = moves;
    // Positions before `from` were scanned already and found no shortcut
    // (a cut can only open one to the position it adds, just before it).
    let mut from = 0;
    let mut states = positions_of(root, &moves);
    let mut marks: Vec<Mark> = states.iter().map(Mark::of).collect();
    let mut near = Vec::new();
    loop {
        // The first position with a shortcut.
        let cut = states.iter().enumerate().skip(from).find_map(|(i, state)| {
            shortcut(state, i, &marks, &mut near).map(|(j, via)| (i, j, via))
        });
        let Some((i, j, via)) = cut else {
            return moves;
        };
        // The positions from `j` on stay; the shortcut's own come between.
        let mut between = Vec::new();
        let mut state = states[i].clone();
        for &mv in &via[..via.len() - 1] {
            state.apply(mv);
            between.push(state.clone());
        }
        marks.splice(i + 1..j, between.iter().map(Mark::of));
        states.splice(i + 1..j, between);
        moves.splice(i..j, via);
        from = i.saturating_sub(2);
    }
}

/// Every position of a solution, from the root's on.
pub(super) fn positions_of(root: &State, moves: &[Move]) -> Vec<State> {
    let mut states = vec![root.clone()];
    for &mv in moves {
        let mut next = states.last().unwrap().clone();
        next.apply(mv);
        states.push(next);
    }
    states
}

/// What [`shortcut`] knows of a position of the path: enough to tell that
/// a later one is more moves away than a shortcut has.
struct Mark {
    key: Key,
    /// [`State::on_foundation`].
    up: u64,
    /// [`State::over_own_lower`].
    stuck: u64,
}

impl Mark {
    fn of(state: &State) -> Mark {
        Mark {
            key: state.key(),
            up: state.on_foundation(),
            stuck: state.over_own_lower(),
        }
    }

    /// Whether `later` may be `moves` moves away or fewer, by a lower
    /// bound on the moves from here: the cards that lie elsewhere there,
    /// not on the foundation ([`Key::moved_cards`]), and the cards gone up
    /// there that lie here above a lower card of their suit (moved by the
    /// player first).
    fn within(&self, later: &Mark, moves: u32) -> bool {
        let Some(moved) = self.key.moved_cards(&later.key, moves) else {
            return false;
        };
        // As many more bits as the moves left, counted one by one.
        let mut stuck = self.stuck & later.up;
        for _ in moved..moves {
            stuck &= stuck.wrapping_sub(1);
        }
        stuck == 0
    }
}

/// From the position `i` of a path (`state`), the farthest later position
/// of the path (`marks` in order) that one or two moves reach in fewer
/// moves than the path takes, and those moves. `near` is room for the
/// places of the positions within reach.
///
/// Only the later positions few enough moves away ([`Mark::within`])
/// can be reached so, and only by moves of the cards that lie elsewhere
/// there: the other moves are not tried, which finds the same shortcut as
/// trying them all (trying every pair of moves took a third of a fast
/// FreeCell survey). And a position a move reaches is looked for among
/// those few alone, not in a table of the whole path's.
fn shortcut(
    state: &State,
    i: usize,
    marks: &[Mark],
    near: &mut Vec<usize>,
) -> Option<(usize, Vec<Move>)> {
    let here = &marks[i];
    // The cards that lie elsewhere in a later position within reach: a
    // shortcut's first move moves one of them (a card moved twice in two
    // moves ends elsewhere too, or the two moves go nowhere). Those two
    // moves may reach are the only ones a second move is tried for.
    let mut moving = 0u64;
    near.clear();
    for (after, later) in marks.iter().enumerate().skip(i + 2) {
        let reach = if after >= i + 3 { 2 } else { 1 };
        if here.within(later, reach) {
            moving |= here.key.changed_cards(&later.key);
            near.push(after);
        }
    }
    if moving == 0 {
        return None;
    }
    // The last of them with this key (a path may pass a position twice).
    let position = |key: Key| near.iter().rev().copied().find(|&j| marks[j].key == key);
    let far = || near.iter().filter(|&&j| j >= i + 3).map(|&j| &marks[j]);
    let mut best: Option<(usize, Vec<Move>)> = None;
    let mut consider = |j: usize, via: &[Move]| {
        if j > i + via.len() && best.as_ref().is_none_or(|(b, _)| j > *b) {
            best = Some((j, via.to_vec()));
        }
    };
    state.for_each_move(|first| {
        if moving & 1 << first.card == 0 {
            return;
        }
        let mut child = state.clone();
        child.apply(first);
        if let Some(j) = position(child.key()) {
            consider(j, &[first]);
        }
        // The second move's card, likewise, from the child's positions
        // within one move (the cards above a lower one of their suit
        // looked for only when some position may be).
        let key = child.key();
        if !far().any(|later| key.moved_cards(&later.key, 1).is_some()) {
            return;
        }
        let near = Mark::of(&child);
        let next = far()
            .filter(|later| near.within(later, 1))
            .fold(0u64, |m, later| m | near.key.changed_cards(&later.key));
        if next == 0 {
            return;
        }
        child.for_each_move(|second| {
            if next & 1 << second.card == 0 {
                return;
            }
            let mut grandchild = child.clone();
            grandchild.apply(second);
            if let Some(j) = position(grandchild.key()) {
                consider(j, &[first, second]);
            }
        });
    });
    best
}

#[cfg(test)]
pub(super) mod tests {
    use rustc_hash::FxHashMap;

    use super::*;
    use crate::check::{Verdict, replay_moves};
    use crate::deal::Deal;
    use crate::deal::test_deal as deal;
    use crate::search::{Limits, Outcome, search};
    use crate::state::FLOOR;

    /// `moves` with a detour inserted at the first position where a top
    /// card lies on a card it may be built on, with a register free: the
    /// card parked and put back.
    pub(in crate::search) fn with_a_detour(deal: &Deal, moves: &[Move]) -> Option<Vec<Move>> {
        let mut state = State::new(deal);
        for (i, &mv) in moves.iter().enumerate() {
            let park = (0..52u8).find(|&c| {
                let below = state.below(c);
                state.is_top(c)
                    && below < FLOOR
                    && state.free_registers() > 0
                    && state.rules().build.allows(c, below)
            });
            if let Some(card) = park {
                let onto = state.below(card);
                let detour = [
                    Move {
                        card,
                        dest: Dest::Register,
                    },
                    Move {
                        card,
                        dest: Dest::Card(onto),
                    },
                ];
                let mut longer = moves.to_vec();
                longer.splice(i..i, detour);
                return Some(longer);
            }
            state.apply(mv);
        }
        None
    }

    #[test]
    fn shorten_removes_a_detour_and_keeps_a_solution() {
        let d = deal("fc", 1);
        let Outcome::Solved(moves) = search(&d, &Limits::default(), None).outcome else {
            panic!("fc.1 is solvable");
        };
        let longer = with_a_detour(&d, &moves).expect("fc.1's solution passes such a position");
        assert!(matches!(replay_moves(&d, &longer), Verdict::Won { .. }));
        let shorter = shorten(&State::new(&d), longer.clone());
        assert!(matches!(replay_moves(&d, &shorter), Verdict::Won { .. }));
        assert!(
            shorter.len() <= moves.len(),
            "{} > {}",
            shorter.len(),
            moves.len()
        );
        assert!(shorter.len() < longer.len());
    }

    /// The shortening as it was before it looked only at the moves that
    /// can reach a later position: every move and every pair of moves
    /// tried from every position, the path's positions computed afresh
    /// after each cut.
    fn shorten_trying_every_pair(root: &State, moves: Vec<Move>) -> Vec<Move> {
        let mut moves = moves;
        let mut from = 0;
        loop {
            let states = positions_of(root, &moves);
            let position: FxHashMap<Key, usize> = states
                .iter()
                .enumerate()
                .map(|(i, s)| (s.key(), i))
                .collect();
            let cut = states.iter().enumerate().skip(from).find_map(|(i, state)| {
                let mut best: Option<(usize, Vec<Move>)> = None;
                let mut consider = |j: usize, via: &[Move]| {
                    if j > i + via.len() && best.as_ref().is_none_or(|(b, _)| j > *b) {
                        best = Some((j, via.to_vec()));
                    }
                };
                state.for_each_move(|first| {
                    let mut child = state.clone();
                    child.apply(first);
                    if let Some(&j) = position.get(&child.key()) {
                        consider(j, &[first]);
                    }
                    child.for_each_move(|second| {
                        let mut grandchild = child.clone();
                        grandchild.apply(second);
                        if let Some(&j) = position.get(&grandchild.key()) {
                            consider(j, &[first, second]);
                        }
                    });
                });
                best.map(|(j, via)| (i, j, via))
            });
            let Some((i, j, via)) = cut else {
                return moves;
            };
            moves.splice(i..j, via);
            from = i.saturating_sub(2);
        }
    }

    /// Random walks, full of detours, in every game under forced and free
    /// rules: the shortening cuts them exactly as trying every pair of
    /// moves does, and cuts some.
    #[test]
    fn shortcuts_are_the_ones_trying_every_pair_finds() {
        use crate::foundation::Foundation;
        use crate::state::testing::xorshift;
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut cut = 0;
        for game in ["fc", "st", "bd", "mo"] {
            for foundation in [Foundation::Forced, Foundation::Free] {
                for seed in 1..=6 {
                    let d = deal(game, seed).with_foundation(foundation);
                    let root = State::new(&d);
                    let mut state = root.clone();
                    let mut walk = Vec::new();
                    for _ in 0..80 {
                        let mut moves = Vec::new();
                        state.for_each_move(|mv| moves.push(mv));
                        if moves.is_empty() {
                            break;
                        }
                        let mv = moves[(xorshift(&mut rng) % moves.len() as u64) as usize];
                        state.apply(mv);
                        walk.push(mv);
                    }
                    let shorter = shorten(&root, walk.clone());
                    assert_eq!(
                        shorter,
                        shorten_trying_every_pair(&root, walk.clone()),
                        "{game} {seed} {foundation:?}"
                    );
                    cut += walk.len() - shorter.len();
                }
            }
        }
        assert!(cut > 100, "{cut}");
    }

    /// Under free rules a card put onto another may go up by itself at
    /// once (the card it lay on went up, which made it safe): two moves,
    /// one position. The free searches meet such pairs on the way the
    /// forced solutions of Baker's Dozen and FreeCell take, and the move
    /// read back for them is the foundation move, one line of a file
    /// instead of two (`--optimal` met one, and wrote a move too many).
    #[test]
    fn a_position_a_foundation_move_reaches_is_read_back_as_it() {
        use crate::foundation::Foundation;
        use crate::state::{FOUNDATION, free_form};
        let mut pairs = 0;
        for game in ["bd", "fc"] {
            for seed in 1..=20 {
                let forced = deal(game, seed);
                let limits = Limits {
                    length: crate::search::Length::AsFound,
                    ..Limits::default()
                };
                let Outcome::Solved(moves) = search(&forced, &limits, None).outcome else {
                    continue;
                };
                let file = free_form(&forced, &moves);
                let d = forced.with_foundation(Foundation::Free);
                let mut state = State::new(&d);
                for &played in &file {
                    let mut moves = Vec::new();
                    state.for_each_move(|mv| moves.push(mv));
                    for &up in moves.iter().filter(|mv| mv.dest == Dest::Foundation) {
                        let mut child = state.clone();
                        child.apply(up);
                        pairs += usize::from(moves.iter().any(|&mv| {
                            let mut other = state.clone();
                            other.apply(mv);
                            mv != up && other.key() == child.key()
                        }));
                        let back = move_to(&state, &child.key());
                        assert_eq!(back.dest, Dest::Foundation, "{game}.{seed}: {back:?}");
                    }
                    if played.dest != Dest::Foundation || state.below(played.card) != FOUNDATION {
                        state.apply(played);
                    }
                }
            }
        }
        assert!(pairs > 0, "no card put onto another went up by itself");
    }
}

//! What the state's tests share: deals, reproducible random walks, and the
//! invariants every position must keep.

use std::ops::RangeInclusive;

use rustc_hash::FxHashSet;

use super::automatic::Automatic;
use super::{FOUNDATION, Move, State};
use crate::cards::{CARDS, Card, KING, SUITS, card_of, rank, suit};
use crate::deal::{Deal, test_deal};
use crate::rules::{EmptyColumn, GAMES, GameId, Rules, find};

/// The deal of `game` (long name or alias) and `seed`, and its normalized
/// initial position.
pub(super) fn initial(game: &str, seed: u32) -> (Deal, State) {
    let deal = test_deal(game, seed);
    let state = State::new(&deal);
    (deal, state)
}

/// Every game's deals of `seeds`, each with its initial position.
pub(super) fn deals(
    seeds: RangeInclusive<u32>,
) -> impl Iterator<Item = (&'static Rules, u32, Deal, State)> {
    GAMES.iter().flat_map(move |rules| {
        seeds.clone().map(move |seed| {
            let (deal, state) = initial(rules.alias, seed);
            (rules, seed, deal, state)
        })
    })
}

/// Walks the deals of 1..=40 of the games with registers (FreeCell,
/// Seahaven) up to `steps` single moves along, the move of each step
/// picked by `pick(seed, step)` among those generated, and at each
/// position replays card by card every compound step `each` hands out
/// (a sequence move, a dig): each single move legal, the last ending on
/// the position handed out. Returns how many were replayed.
pub(super) fn compound_steps_replay(
    steps: usize,
    pick: impl Fn(u32, usize) -> usize,
    each: impl Fn(&State, &mut dyn FnMut(&[Move], &State)),
) -> usize {
    let mut seen = 0;
    for (rules, seed, _, mut state) in deals(1..=40) {
        if rules.registers == 0 {
            continue;
        }
        for step in 0..steps {
            let mut found: Vec<(Vec<Move>, State)> = Vec::new();
            each(&state, &mut |moves, child| {
                found.push((moves.to_vec(), child.clone()))
            });
            for (moves, child) in &found {
                let mut replay = state.clone();
                for &mv in moves {
                    assert_eq!(replay.check_move(mv), Ok(()), "{} {seed}", rules.name);
                    replay.apply(mv);
                }
                assert_eq!(&replay, child);
                seen += 1;
            }
            let mut singles = Vec::new();
            state.for_each_move(|m| singles.push(m));
            if singles.is_empty() {
                break;
            }
            state.apply(singles[pick(seed, step) % singles.len()]);
        }
    }
    seen
}

/// A xorshift step: the tests' random numbers, the same on every run.
pub(crate) fn xorshift(rng: &mut u64) -> u64 {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

/// Calls `visit` with a deal's position and each position of a random
/// legal walk from it, up to `steps` of them.
pub(crate) fn walk(game: &str, seed: u32, steps: usize, rng: &mut u64, visit: impl FnMut(&State)) {
    walk_from(initial(game, seed).1, steps, rng, visit);
}

/// Calls `visit` with `state` and each position of a random legal walk
/// from it, up to `steps` of them.
pub(super) fn walk_from(
    mut state: State,
    steps: usize,
    rng: &mut u64,
    mut visit: impl FnMut(&State),
) {
    for _ in 0..steps {
        visit(&state);
        let mut moves = Vec::new();
        state.for_each_move(|m| moves.push(m));
        if moves.is_empty() {
            break;
        }
        state.apply(moves[(xorshift(rng) % moves.len() as u64) as usize]);
    }
}

/// No accessible card is its suit's next one.
pub(super) fn is_normalized(state: &State) -> bool {
    (0..SUITS as u8).all(|s| {
        let h = state.foundation[s as usize];
        h == KING || !state.is_accessible(card_of(h + 1, s))
    })
}

/// The foundation holds exactly each suit's lowest cards.
pub(super) fn foundation_is_consistent(state: &State) -> bool {
    (0..CARDS as Card)
        .all(|c| (state.below(c) == FOUNDATION) == (rank(c) <= state.foundation[suit(c) as usize]))
}

/// `state` playing `automatic`'s foundation moves from now on.
pub(super) fn with(state: &State, automatic: Automatic) -> State {
    let mut state = state.clone();
    state.automatic = automatic;
    state.play_automatic(|_| {});
    state
}

/// Whether some sequence of moves wins from `state`, by a plain search
/// of every position reachable, stopping at the first win: `None` when
/// there are more than `cap` before a win.
/// Every position a game with automatic moves reaches is one the same game
/// without them reaches too, so when that one is decided, so is this one.
pub(crate) fn winnable(state: &State, cap: usize) -> Option<bool> {
    winnable_by(state, cap, |state, f| state.for_each_move(f))
}

/// [`winnable`] with the moves `moves` gives each position.
fn winnable_by(
    state: &State,
    cap: usize,
    moves: impl Fn(&State, &mut dyn FnMut(super::Move)),
) -> Option<bool> {
    let mut seen = FxHashSet::default();
    seen.insert(state.key());
    let mut stack = vec![state.clone()];
    while let Some(state) = stack.pop() {
        if state.is_won() {
            return Some(true);
        }
        if seen.len() > cap {
            return None;
        }
        moves(&state, &mut |mv| {
            let mut child = state.clone();
            child.apply(mv);
            if seen.insert(child.key()) {
                stack.push(child);
            }
        });
    }
    Some(false)
}

/// A small position of a game by `rules`: the cards above rank `up_to`
/// shuffled by `rng`, the first `in_registers` of them in registers, the
/// rest dealt into `columns` columns, `ceil(cards / columns)` to each in
/// turn (the last may hold fewer); the lower cards on the foundation;
/// nothing played by itself yet. No column may be left empty: in a game
/// whose empty columns take nothing it would be a smaller game than its
/// size says (20 cards in 6 columns of 4 are 5 columns).
///
/// Panics if one would be.
pub(super) fn small(
    rules: &'static Rules,
    up_to: u8,
    columns: usize,
    in_registers: usize,
    rng: &mut u64,
) -> State {
    let mut cards: Vec<Card> = (0..CARDS as Card).filter(|&c| rank(c) > up_to).collect();
    for i in (1..cards.len()).rev() {
        cards.swap(i, (xorshift(rng) % (i as u64 + 1)) as usize);
    }
    let mut deal = Deal::new(GameId { rules, seed: 1 });
    deal.registers = cards.drain(..in_registers).collect();
    let per = cards.len().div_ceil(columns);
    assert!(
        (columns - 1) * per < cards.len(),
        "{} cards in columns of {per} leave one of {columns} empty",
        cards.len()
    );
    for (i, column) in deal.columns.iter_mut().enumerate() {
        let take = if i < columns { per } else { 0 };
        *column = cards.iter().skip(i * per).take(take).copied().collect();
    }
    let mut state = State::dealt(&deal, Automatic::Nothing);
    for card in (0..CARDS as Card).filter(|&c| rank(c) <= up_to) {
        state.place_up(card);
    }
    state
}

/// A small position of `game` under forced rules, with no register:
/// [`small`]'s cards above rank `up_to` in `columns` columns, then every
/// card that can go up gone up.
pub(crate) fn small_forced(game: &str, up_to: u8, columns: usize, rng: &mut u64) -> State {
    with(
        &small(variant(game, 0), up_to, columns, 0, rng),
        Automatic::Every,
    )
}

/// [`small_forced`]'s position under free rules: the free search's
/// position, whose cards go up by themselves only when the safe rule
/// lets them (`automatic.rs`).
pub(crate) fn small_free(game: &str, up_to: u8, columns: usize, rng: &mut u64) -> State {
    with(
        &small(variant(game, 0), up_to, columns, 0, rng),
        Automatic::Safe,
    )
}

/// [`walk`] under free rules: from the free search's initial position,
/// foundation moves among the moves picked.
pub(crate) fn walk_free(
    game: &str,
    seed: u32,
    steps: usize,
    rng: &mut u64,
    visit: impl FnMut(&State),
) {
    let deal = test_deal(game, seed).with_foundation(crate::foundation::Foundation::Free);
    walk_from(State::new(&deal), steps, rng, visit);
}

/// `game`'s rules with `registers` registers and empty columns that take
/// no card: smaller games, to which the proof applies all the same.
pub(super) fn variant(game: &str, registers: usize) -> &'static Rules {
    let rules = find(game).expect("a game");
    let empty_column = EmptyColumn::Nothing;
    Box::leak(Box::new(Rules {
        registers,
        empty_column,
        ..*rules
    }))
}

/// Calls `f` with `state` under every foundation (every count of each
/// suit, 0 to 13) and each suit's next card there (none past a King).
pub(super) fn each_next_card(state: &mut State, mut f: impl FnMut(&State, [u8; SUITS], Card)) {
    for heights in 0..14u32.pow(4) {
        let h = [0, 1, 2, 3].map(|s| (heights / 14u32.pow(s) % 14) as u8);
        state.foundation = h;
        for s in 0..SUITS as u8 {
            if h[s as usize] < KING {
                f(state, h, card_of(h[s as usize] + 1, s));
            }
        }
    }
}

/// `state` under xpat2's complete rules (SPEC §10): a foundation's top
/// card may come back, and `automatic`'s foundation moves play by
/// themselves from now on.
pub(super) fn complete(state: &State, automatic: Automatic) -> State {
    let mut state = state.clone();
    state.returns = true;
    with(&state, automatic)
}

/// Every legal move of `state`, found by trying every accessible card and
/// every foundation's top card against every destination: no move left
/// out for being useless, as [`State::for_each_move`] leaves some. The
/// cards tried as destinations are the accessible ones: a card moves
/// only onto the top of a column (`check_move` refuses the rest), which
/// is accessible. (Trying all 52 took two fifths of some tests' time.)
pub(super) fn every_legal_move(state: &State, mut f: impl FnMut(super::Move)) {
    use super::{Dest, Move};
    let tops = (0..SUITS as u8)
        .filter(|&s| state.foundation[s as usize] > 0)
        .map(|s| card_of(state.foundation[s as usize], s));
    let accessible: Vec<Card> = (0..CARDS as Card)
        .filter(|&c| state.is_accessible(c))
        .collect();
    let cards: Vec<Card> = accessible.iter().copied().chain(tops).collect();
    let dests = accessible.iter().map(|&c| Dest::Card(c)).chain([
        Dest::EmptyColumn,
        Dest::Register,
        Dest::Foundation,
    ]);
    for dest in dests {
        for &card in &cards {
            let mv = Move { card, dest };
            if state.check_move(mv).is_ok() {
                f(mv);
            }
        }
    }
}

/// [`winnable`] over [`every_legal_move`]: the plain search of the
/// complete game, with no move left out; it stops at the first win.
pub(super) fn winnable_by_every_move(state: &State, cap: usize) -> Option<bool> {
    winnable_by(state, cap, |state, f| every_legal_move(state, f))
}

/// The plain search's cap in [`judged_small_games`]. A position past it
/// costs the whole cap, and most of those stay past a larger one: at
/// 10 000 the plain searches of one test's walks take 6 s and decide 528
/// of its 674 positions; at 50 000, 22 s and 575.
pub(super) const JUDGED_CAP: usize = 10_000;

/// The sizes of [`judged_small_games`] (ranks up to, columns): 20 cards
/// in 5 columns of 4, 24 in 6, 28 in 7, the first two twice (new
/// shuffles). Columns of 3 and 4 cards make far larger games: with 20
/// cards in 6 columns, 24 in 7 and 28 in 8 the tests that use them took
/// 640 test-seconds instead of 380.
pub(super) const SMALL_SIZES: [(u8, usize); 5] = [(8, 5), (8, 5), (7, 6), (7, 6), (6, 7)];

/// Small games of Baker's Dozen (`games` of each size in `sizes`: ranks
/// up to, columns), and positions along walks of `steps` from them, under
/// forced, free and complete rules: `judge` sees each position with a
/// plain search's verdict (`None`: past [`JUDGED_CAP`]). Shared by the
/// tests of what proves positions lost (pairs, triples, the suitless game).
pub(super) fn judged_small_games(
    rng: &mut u64,
    sizes: &[(u8, usize)],
    games: usize,
    steps: usize,
    mut judge: impl FnMut(&State, Option<bool>),
) {
    judged_small_walks(rng, sizes, games, steps, JUDGED_CAP, |_, state, plain| {
        judge(state, plain)
    });
}

/// [`judged_small_games`] with the plain search's cap `cap`, `judge`
/// seeing too the start of the walk each position is on (what a search
/// of that position's deal starts from).
pub(super) fn judged_small_walks(
    rng: &mut u64,
    sizes: &[(u8, usize)],
    games: usize,
    steps: usize,
    cap: usize,
    mut judge: impl FnMut(&State, &State, Option<bool>),
) {
    for &(up_to, columns) in sizes {
        for _ in 0..games {
            let dealt = small(variant("bd", 0), up_to, columns, 0, rng);
            let rules = [
                with(&dealt, Automatic::Every),
                with(&dealt, Automatic::Safe),
                complete(&dealt, Automatic::ReturnSafe),
            ];
            for start in rules {
                let root = start.clone();
                walk_from(start, steps, rng, |state| {
                    let plain = if state.returns {
                        winnable_by_every_move(state, cap)
                    } else {
                        winnable(state, cap)
                    };
                    judge(&root, state, plain);
                });
            }
        }
    }
}

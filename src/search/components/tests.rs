//! Components held to the positions they stand for: on small games
//! searched whole, one name per component and no two components under
//! one name, and the search over names giving the plain search's verdict;
//! along walks of real deals, every component the size its name says.
//! Each under forced rules and under free ones (the free search's
//! positions, which play a card up by themselves only when it is safe).

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Class, Expander, Expansion, Failure, Names, exits, is_host_move, search};
use crate::cards::{KING, SUITS, card_of};
use crate::search::{Limits, Outcome};
use crate::state::testing::{small_forced, small_free, walk, walk_free, winnable, xorshift};
use crate::state::{Key, Move, State, SuitlessMemo, Triples, suitless};

/// The most positions a plain search of a small game may hold.
const CAP: usize = 200_000;

/// The positions of `state`'s component, by its host moves.
fn component(state: &State) -> Vec<State> {
    closure(state, usize::MAX, is_host_move).expect("no cap")
}

/// Every position reachable from `state`, or `None` past `CAP`.
fn reachable(state: &State) -> Option<Vec<State>> {
    closure(state, CAP, |_, _, _| true)
}

/// The positions reached from `state` by the moves `follow` keeps
/// (given the position, the move and where it leads), or `None` past
/// `cap` of them.
fn closure(
    state: &State,
    cap: usize,
    follow: impl Fn(&State, Move, &State) -> bool,
) -> Option<Vec<State>> {
    let mut keys = FxHashSet::default();
    keys.insert(state.key());
    let mut all = vec![state.clone()];
    let mut at = 0;
    while at < all.len() {
        let here = all[at].clone();
        at += 1;
        here.for_each_move(|mv| {
            let mut next = here.clone();
            next.apply(mv);
            if follow(&here, mv, &next) && keys.insert(next.key()) {
                all.push(next);
            }
        });
        if all.len() > cap {
            return None;
        }
    }
    Some(all)
}

/// Asserts that `moves` are legal from `game`, one after the other, and
/// win it.
fn assert_wins(game: &State, moves: &[Move]) {
    let mut replay = game.clone();
    for &mv in moves {
        assert_eq!(replay.check_move(mv), Ok(()), "\n{game}");
        replay.apply(mv);
    }
    assert!(replay.is_won(), "\n{game}");
}

/// Under which foundation rule a test's games are played.
#[derive(Clone, Copy, PartialEq)]
enum Rule {
    Forced,
    Free,
}

/// Small Baker's Dozen games: the cards above `up_to` in `columns`
/// columns, several deals of each shape.
fn small_games(rule: Rule) -> Vec<State> {
    let mut rng = 0x5EED_C04B_0AE5_0001_u64;
    let mut games = Vec::new();
    for (up_to, columns) in [(9, 4), (9, 6), (8, 5), (8, 7), (7, 6), (7, 8)] {
        for _ in 0..10 {
            games.push(match rule {
                Rule::Forced => small_forced("bd", up_to, columns, &mut rng),
                Rule::Free => small_free("bd", up_to, columns, &mut rng),
            });
        }
    }
    games
}

/// Calls `visit` along a random walk of Baker's Dozen deal `seed` under
/// `rule`, up to `steps` positions.
fn walk_under(rule: Rule, seed: u32, steps: usize, rng: &mut u64, visit: impl FnMut(&State)) {
    match rule {
        Rule::Forced => walk("bd", seed, steps, rng, visit),
        Rule::Free => walk_free("bd", seed, steps, rng, visit),
    }
}

/// Whether a suit's next card lies bare in `position` and stays there:
/// what only free rules allow (the safe rule does not play it up), and
/// what the names must then treat as a card like any other.
fn holds_a_next_card_bare(position: &State) -> bool {
    let foundation = position.foundation();
    (0..SUITS as u8).any(|s| {
        let height = foundation[s as usize];
        height < KING && position.is_accessible(card_of(height + 1, s))
    })
}

#[test]
fn on_small_games_each_component_has_one_name_and_no_two_share_one() {
    names_are_one_per_component(Rule::Forced);
}

#[test]
fn under_free_rules_each_component_has_one_name_and_no_two_share_one() {
    let next_bare = names_are_one_per_component(Rule::Free);
    assert!(
        next_bare >= 1000,
        "{next_bare} components with a next card bare"
    );
}

/// Checks on small games searched whole that every component bears one
/// name and no two share one; returns how many components hold a suit's
/// next card bare.
fn names_are_one_per_component(rule: Rule) -> usize {
    let (mut components, mut larger, mut games, mut next_bare) = (0, 0, 0, 0);
    for game in small_games(rule) {
        let Some(all) = reachable(&game) else {
            continue;
        };
        games += 1;
        let mut component_of: FxHashMap<Key, usize> = FxHashMap::default();
        let mut named: FxHashMap<Key, usize> = FxHashMap::default();
        for position in &all {
            if component_of.contains_key(&position.key()) {
                continue;
            }
            let id = components;
            components += 1;
            let members = component(position);
            let class = Class::of(position);
            assert_eq!(members.len() as u128, class.size, "\n{position}");
            larger += usize::from(members.len() > 1);
            for member in &members {
                assert_eq!(Class::of(member).name, class.name, "\n{position}\n{member}");
                component_of.insert(member.key(), id);
            }
            let before = named.insert(class.name, id);
            assert_eq!(before, None, "two components named alike:\n{position}");
            next_bare += usize::from(members.iter().any(holds_a_next_card_bare));
        }
    }
    // The shapes are chosen so that most games are searched whole and
    // many components hold several positions.
    assert!(games >= 40, "{games} games searched whole");
    assert!(
        larger >= 1000,
        "{larger} of {components} components larger than one"
    );
    next_bare
}

#[test]
fn the_search_over_names_gives_the_plain_verdict_and_a_winning_path() {
    verdicts_are_the_plain_ones(Rule::Forced);
}

#[test]
fn under_free_rules_the_search_over_names_gives_the_plain_verdict() {
    verdicts_are_the_plain_ones(Rule::Free);
}

/// Searches small games over names, on one thread and two, with the pair
/// test and without it, and compares each verdict with a plain search's
/// over positions; each win replays.
fn verdicts_are_the_plain_ones(rule: Rule) {
    let (mut won, mut lost) = (0, 0);
    for (i, game) in small_games(rule).into_iter().enumerate() {
        let Some(plain) = winnable(&game, CAP) else {
            continue;
        };
        // One thread and two in turn: sharing work loses no component;
        // the moves out found from one position or by listing; the pair
        // test on and off.
        let limits = Limits {
            max_states: CAP as u64,
            jobs: 1 + i % 2,
            pairs: i / 4 % 2 == 0,
            ..Limits::default()
        };
        let expansion = [Expansion::MovesOut, Expansion::Listing][i / 2 % 2];
        let searched = search(&game, &limits, expansion, None);
        assert_eq!(searched.stopped, None);
        match searched.report.outcome {
            Outcome::Solved(moves) => {
                assert!(plain, "won over names, lost over positions:\n{game}");
                assert_wins(&game, &moves);
                won += 1;
            }
            Outcome::Insoluble => {
                assert!(!plain, "lost over names, won over positions:\n{game}");
                lost += 1;
            }
            Outcome::GaveUp(limit) => panic!("{limit} on a small game:\n{game}"),
        }
    }
    assert!(won >= 10 && lost >= 10, "{won} won, {lost} lost");
}

#[test]
fn along_walks_of_real_deals_every_component_is_its_names_size() {
    walks_have_components_of_their_names_size(Rule::Forced);
}

#[test]
fn under_free_rules_along_walks_every_component_is_its_names_size() {
    walks_have_components_of_their_names_size(Rule::Free);
}

/// Walks 15 deals at random and checks each position's component: its
/// size the name's, one name for all its positions.
fn walks_have_components_of_their_names_size(rule: Rule) {
    let mut rng = 0x0BD0_C0A9_E175_u64;
    let (mut checked, mut larger) = (0, 0);
    for seed in 1..=15 {
        let steps = 20 + (xorshift(&mut rng) % 40) as usize;
        let mut visit = |position: &State| {
            let members = component(position);
            let class = Class::of(position);
            assert_eq!(members.len() as u128, class.size, "bd.{seed}\n{position}");
            for member in &members {
                assert_eq!(Class::of(member).name, class.name, "bd.{seed}\n{member}");
            }
            checked += 1;
            larger += usize::from(members.len() > 1);
        };
        walk_under(rule, seed, steps, &mut rng, &mut visit);
    }
    assert!(checked >= 300 && larger >= 100, "{larger} of {checked}");
}

#[test]
fn expanding_a_component_lists_it_whole_and_names_each_child_once() {
    // The first position of a walk of bd.2 with a component of several.
    let mut found = None;
    walk("bd", 2, 200, &mut 0x2A_u64, |p| {
        if found.is_none() && Class::of(p).size >= 4 {
            found = Some(p.clone());
        }
    });
    let position = found.expect("a component of several positions");
    let names = Names::new();
    names.insert(Class::of(&position).name);
    // Past the positions a thread may list, the component is not expanded.
    let too_many = Expander::new(&names, 1, Expansion::Listing, false).expand(&position, &|| false);
    assert!(matches!(too_many, Err(Failure::TooLarge)));
    // A search stopped while a component is listed stops the listing.
    let mut listing = Expander::new(&names, usize::MAX, Expansion::Listing, false);
    let stopped = listing.expand(&position, &|| true);
    assert!(matches!(stopped, Err(Failure::Stopped)));
    let expanded = listing.expand(&position, &|| false).expect("names match");
    assert_eq!(expanded.listed as u128, Class::of(&position).size);
    let children: FxHashSet<Key> = expanded
        .children
        .iter()
        .map(|(c, _)| Class::of(c).name)
        .collect();
    assert_eq!(children.len(), expanded.children.len());
    // The moves given with each child lead there from the position.
    for (child, moves) in &expanded.children {
        let mut replay = position.clone();
        for &mv in moves {
            replay.apply(mv);
        }
        assert_eq!(&replay, child);
    }
}

#[test]
fn a_large_component_lost_by_triples_is_not_expanded() {
    // bd.5837 is lost from the start by the triple test, not by pairs:
    // a position of a walk of it in a component of several positions
    // (a large one, in the unit tests) that the test finds lost too.
    let mut found = None;
    walk("bd", 5837, 200, &mut 0x2A_u64, |p| {
        if found.is_none() && Class::of(p).size >= 4 && Triples::default().is_lost(p) {
            found = Some(p.clone());
        }
    });
    let position = found.expect("a large component lost by triples");
    let names = Names::new();
    let mut expander = Expander::new(&names, usize::MAX, Expansion::MovesOut, true);
    let expanded = expander.expand(&position, &|| false).expect("expanded");
    assert!(expanded.children.is_empty() && expanded.won.is_none());
    assert_eq!(expander.lost.triple_cuts, 1);
    assert!(expander.lost.met(&Class::of(&position).name));
    // Without the pair test, nor the triple test: its children are found.
    let mut without = Expander::new(&names, usize::MAX, Expansion::MovesOut, false);
    let expanded = without.expand(&position, &|| false).expect("expanded");
    assert!(!expanded.children.is_empty());
    assert_eq!(without.lost.triple_tests, 0);
}

#[test]
fn a_component_lost_in_the_suitless_game_is_cut_and_remembered() {
    // bd.1865 is lost in the suitless game from the start, not by
    // triples: a position of a walk of it in a component of several
    // positions that triples pass and the suitless game finds lost.
    let root = State::new(&crate::deal::test_deal("bd", 1865));
    let lost_in_suitless = |p: &State| suitless(p, 200_000, || false).is_lost();
    let mut found = None;
    walk("bd", 1865, 200, &mut 0x2B_u64, |p| {
        if found.is_none()
            && Class::of(p).size >= 4
            && !Triples::default().is_lost(p)
            && lost_in_suitless(p)
        {
            found = Some(p.clone());
        }
    });
    let position = found.expect("a component lost in the suitless game alone");
    let names = Names::new();
    let mut expander = Expander::new(&names, usize::MAX, Expansion::MovesOut, true);
    expander.lost.suitless = SuitlessMemo::new(&root);
    let expanded = expander.expand(&position, &|| false).expect("expanded");
    assert!(expanded.children.is_empty() && expanded.won.is_none());
    let lost = &expander.lost;
    assert_eq!((lost.triple_cuts, lost.suitless_cuts), (0, 1));
    assert!(lost.met(&Class::of(&position).name));
    // Remembered: the position's image is known lost without a search.
    let memo = lost.suitless.as_ref().expect("set above");
    assert!(memo.known_lost(&position));
    assert!(!SuitlessMemo::new(&root).expect("bd").known_lost(&position));
    // Without the memo the triple test alone passes it: children found.
    let mut without = Expander::new(&names, usize::MAX, Expansion::MovesOut, true);
    let expanded = without.expand(&position, &|| false).expect("expanded");
    assert!(!expanded.children.is_empty());
}

/// The names of the components the moves out of `position`'s component
/// lead to, by listing it, and whether one is a won position.
fn listed_children(position: &State) -> (FxHashSet<Key>, bool) {
    let (mut children, mut won) = (FxHashSet::default(), false);
    for member in component(position) {
        member.for_each_move(|mv| {
            let mut next = member.clone();
            next.apply(mv);
            if !is_host_move(&member, mv, &next) {
                children.insert(Class::of(&next).name);
                won |= next.is_won();
            }
        });
    }
    (children, won)
}

/// Whether the moves out found without listing `position`'s component
/// (when found) name the listed children, each reached by its moves (or
/// both ways meet a won position, which ends the search for moves out).
/// `None` when the moves out were not found within their budget.
fn moves_out_agree(position: &State) -> Option<bool> {
    let class = Class::of(position);
    let exits = exits::children(position, &class, usize::MAX, &|| false, &mut |_, _| true).ok()?;
    let (listed, listed_won) = listed_children(position);
    if exits.iter().any(|e| e.child.is_won()) {
        return Some(listed_won);
    }
    let mut found = FxHashSet::default();
    for exit in exits {
        let mut replay = position.clone();
        for &mv in &exit.moves {
            assert_eq!(replay.check_move(mv), Ok(()), "\n{position}");
            replay.apply(mv);
        }
        assert_eq!(replay, exit.child, "\n{position}");
        found.insert(Class::of(&exit.child).name);
    }
    Some(found == listed)
}

#[test]
fn moves_out_found_without_listing_lead_to_the_listed_children() {
    moves_out_are_the_listed_ones(Rule::Forced);
}

#[test]
fn under_free_rules_moves_out_found_without_listing_are_the_listed_ones() {
    moves_out_are_the_listed_ones(Rule::Free);
}

/// Compares the moves out found from one position with the listing's, on
/// every component of 30 small games searched whole and along walks of
/// 40 deals. The walks' few components of more than [`LISTED_AT_MOST`]
/// positions are left out: listing one of the 373 248 positions some hold
/// takes seconds, and a few dozen of them took three quarters of the
/// test's time (of the 3 961 comparisons under forced rules and the 4 799
/// under free ones, 3 872 and 4 659 are kept).
fn moves_out_are_the_listed_ones(rule: Rule) {
    const LISTED_AT_MOST: u128 = 5_000;
    let (mut compared, mut larger) = (0, 0);
    let mut compare = |position: &State| {
        let size = Class::of(position).size;
        if size > LISTED_AT_MOST {
            return;
        }
        let agree = moves_out_agree(position).expect("no budget to run out of");
        assert!(agree, "moves out differ from the listing:\n{position}");
        compared += 1;
        larger += usize::from(size > 1);
    };
    for game in small_games(rule).into_iter().take(30) {
        let Some(all) = reachable(&game) else {
            continue;
        };
        let mut seen: FxHashSet<Key> = FxHashSet::default();
        for position in &all {
            if seen.insert(Class::of(position).name) {
                compare(position);
            }
        }
    }
    let mut rng = 0x0E_C175_u64;
    for seed in 1..=40 {
        let steps = 20 + (xorshift(&mut rng) % 80) as usize;
        walk_under(rule, seed, steps, &mut rng, &mut compare);
    }
    assert!(compared >= 3000 && larger >= 1000, "{larger} of {compared}");
}

#[test]
fn under_free_rules_a_win_over_names_replays_as_a_free_file() {
    use crate::check::{Verdict, replay_moves};
    use crate::deal::test_deal;
    use crate::foundation::Foundation;
    use crate::state::written_out;
    // Deals the depth-first search over names wins within a few thousand
    // components; the file it is written as (every foundation move a
    // line, those played by themselves included) replays to the won game
    // under free rules, where nothing goes up unless a line says so.
    // Three of bd.1 to 20 it wins in seconds (bd.5, 12 and 18 take 20 to
    // 30 s, 1 to 20 four minutes in all).
    let limits = Limits {
        max_states: 200_000,
        jobs: 1,
        ..Limits::default()
    };
    let mut won = 0;
    for seed in [9, 10, 17] {
        let deal = test_deal("bd", seed).with_foundation(Foundation::Free);
        let searched = search(&State::new(&deal), &limits, Expansion::MovesOut, None);
        let moves = match searched.report.outcome {
            Outcome::Solved(moves) => moves,
            // Won deals all (1..10000 are), past the limit if slower.
            Outcome::GaveUp(_) => continue,
            Outcome::Insoluble => panic!("bd.{seed}, a won deal, proven lost over names"),
        };
        let written = written_out(&deal, &moves);
        assert!(
            written.len() > moves.len(),
            "bd.{seed}: no foundation move written"
        );
        let verdict = replay_moves(&deal, &written);
        assert!(
            matches!(verdict, Verdict::Won { .. }),
            "bd.{seed}: {verdict:?}"
        );
        won += 1;
    }
    assert_eq!(won, 3, "bd.9, 10 and 17 won within the limit");
}

#[test]
fn dives_alone_decide_small_games_as_the_plain_search() {
    dives_decide(Rule::Forced);
    dives_decide(Rule::Free);
}

/// Dives one after the other, each with a budget of its own and fresh
/// names, until one wins or runs out of components: its verdict must be
/// the plain search's, and its win must replay. Some dives must end
/// spent first (else the budgets test nothing) and each verdict must
/// come, won and lost.
fn dives_decide(rule: Rule) {
    use super::dives::{Dived, Dives};
    let (mut won, mut lost, mut spent) = (0, 0, 0);
    for (i, game) in small_games(rule).into_iter().enumerate() {
        let Some(plain) = winnable(&game, CAP) else {
            continue;
        };
        let names = Names::new();
        // The pair test on and off: a dive borrows the thread's.
        let mut expander = Expander::new(&names, CAP, Expansion::MovesOut, i % 2 == 0);
        let mut dives = Dives::new(i, CAP as u64);
        let dived = loop {
            match dives.dive(&game, &mut expander, &|| false, &|_| (), &mut || ()) {
                Dived::Spent => spent += 1,
                Dived::Failed(failure) => panic!("{failure:?}:\n{game}"),
                decided => break decided,
            }
        };
        match dived {
            Dived::Won(moves) => {
                assert!(plain, "won by a dive, lost over positions:\n{game}");
                assert_wins(&game, &moves);
                won += 1;
            }
            _ => {
                assert!(!plain, "lost by a dive, won over positions:\n{game}");
                lost += 1;
            }
        }
    }
    assert!(
        won >= 10 && lost >= 10 && spent >= 10,
        "{won} won, {lost} lost, {spent} spent"
    );
}

#[test]
fn a_stopped_search_ends_its_dive_at_once() {
    use super::dives::{Dived, Dives};
    // Each small game is decided by a dive when nothing stops it (the
    // test above); stopped, the dive ends before expanding anything.
    for (i, game) in small_games(Rule::Forced).into_iter().take(10).enumerate() {
        let names = Names::new();
        let mut expander = Expander::new(&names, CAP, Expansion::MovesOut, false);
        let mut dives = Dives::new(i, CAP as u64);
        let expanded = std::cell::Cell::new(0);
        let count = |_| expanded.set(expanded.get() + 1);
        let dived = dives.dive(&game, &mut expander, &|| true, &count, &mut || ());
        if game.is_won() {
            continue;
        }
        assert!(
            matches!(dived, Dived::Failed(Failure::Stopped)),
            "a stopped dive went on:\n{game}"
        );
        assert_eq!(expanded.get(), 0);
    }
}

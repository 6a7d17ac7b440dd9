//! Components held to the positions they stand for: on small games
//! searched whole, one name per component and no two components under
//! one name, and the search over names giving the plain search's verdict;
//! along walks of real deals, every component the size its name says.

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Class, Expander, Expansion, Failure, Names, exits, is_host_move, search};
use crate::search::{Limits, Outcome};
use crate::state::testing::{small_forced, walk, winnable, xorshift};
use crate::state::{Key, Move, State};

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

/// Small Baker's Dozen games: the cards above `up_to` in `columns`
/// columns, several deals of each shape.
fn small_games() -> Vec<State> {
    let mut rng = 0x5EED_C04B_0AE5_0001_u64;
    let mut games = Vec::new();
    for (up_to, columns) in [(9, 4), (9, 6), (8, 5), (8, 7), (7, 6), (7, 8)] {
        for _ in 0..10 {
            games.push(small_forced("bd", up_to, columns, &mut rng));
        }
    }
    games
}

#[test]
fn on_small_games_each_component_has_one_name_and_no_two_share_one() {
    let (mut components, mut larger, mut games) = (0, 0, 0);
    for game in small_games() {
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
        }
    }
    // The shapes are chosen so that most games are searched whole and
    // many components hold several positions.
    assert!(games >= 40, "{games} games searched whole");
    assert!(
        larger >= 1000,
        "{larger} of {components} components larger than one"
    );
}

#[test]
fn the_search_over_names_gives_the_plain_verdict_and_a_winning_path() {
    let (mut won, mut lost) = (0, 0);
    for (i, game) in small_games().into_iter().enumerate() {
        let Some(plain) = winnable(&game, CAP) else {
            continue;
        };
        // One thread and two in turn: sharing work loses no component;
        // and the moves out found from one position or by listing.
        let limits = Limits {
            max_states: CAP as u64,
            jobs: 1 + i % 2,
            ..Limits::default()
        };
        let expansion = [Expansion::MovesOut, Expansion::Listing][i / 2 % 2];
        let searched = search(&game, &limits, expansion, None);
        assert_eq!(searched.stopped, None);
        match searched.report.outcome {
            Outcome::Solved(moves) => {
                assert!(plain, "won over names, lost over positions:\n{game}");
                let mut replay = game.clone();
                for mv in moves {
                    assert_eq!(replay.check_move(mv), Ok(()), "\n{game}");
                    replay.apply(mv);
                }
                assert!(replay.is_won(), "\n{game}");
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
    let mut rng = 0x0BD0_C0A9_E175_u64;
    let (mut checked, mut larger) = (0, 0);
    for seed in 1..=15 {
        let steps = 20 + (xorshift(&mut rng) % 40) as usize;
        walk("bd", seed, steps, &mut rng, |position| {
            let members = component(position);
            let class = Class::of(position);
            assert_eq!(members.len() as u128, class.size, "bd.{seed}\n{position}");
            for member in &members {
                assert_eq!(Class::of(member).name, class.name, "bd.{seed}\n{member}");
            }
            checked += 1;
            larger += usize::from(members.len() > 1);
        });
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
    let too_many = Expander::new(&names, 1, Expansion::Listing).expand(&position, &|| false);
    assert!(matches!(too_many, Err(Failure::TooLarge)));
    // A search stopped while a component is listed stops the listing.
    let mut listing = Expander::new(&names, usize::MAX, Expansion::Listing);
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
    let (mut compared, mut larger) = (0, 0);
    let mut compare = |position: &State| {
        let agree = moves_out_agree(position).expect("no budget to run out of");
        assert!(agree, "moves out differ from the listing:\n{position}");
        compared += 1;
        larger += usize::from(Class::of(position).size > 1);
    };
    for game in small_games().into_iter().take(30) {
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
        walk("bd", seed, steps, &mut rng, &mut compare);
    }
    assert!(compared >= 3000 && larger >= 1000, "{larger} of {compared}");
}

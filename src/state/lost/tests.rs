//! The lost-position analysis held to oracles: SPEC §8 read literally,
//! the survey as first written (a rank comparison per card), and the
//! closure's own properties over random walks in every game.

use super::super::FOUNDATION;
use super::super::testing::{initial, small, variant, walk, walk_from, winnable};
use super::*;
use crate::cards::{CARDS, suit};
use crate::deal::Deal;
use crate::rules::{GAMES, GameId};

/// SPEC §8 read literally, walking down from every top: the oracle
/// for [`Survey::dead_run`].
fn dead_run_by_walking_down(state: &State) -> bool {
    let Some(limit) = state.rules.dead_run_length() else {
        return false;
    };
    for top in 0..CARDS as Card {
        if !state.is_top(top) {
            continue;
        }
        let mut head = top;
        let mut length = 1;
        loop {
            let below = state.below[head as usize];
            if below < FLOOR && suit(below) == suit(top) && rank(below) == rank(head) + 1 {
                head = below;
                length += 1;
            } else {
                break;
            }
        }
        if length < limit {
            continue;
        }
        let mut under = state.below[head as usize];
        while under < FLOOR {
            if suit(under) == suit(top) && rank(under) < rank(top) {
                return true;
            }
            under = state.below[under as usize];
        }
    }
    false
}

#[test]
fn the_survey_finds_the_dead_runs_a_literal_walk_finds() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut seen = [0, 0];
    for game in ["st", "mo"] {
        for seed in 1..=60 {
            walk(game, seed, 150, &mut rng, |state| {
                let dead = dead_run_by_walking_down(state);
                assert_eq!(state.survey().dead_run, dead, "{game}.{seed}");
                seen[dead as usize] += 1;
            });
        }
    }
    assert!(seen[0] > 100 && seen[1] > 10, "{seen:?}");
}

/// The module doc's stuck card read literally: every card `card` may be
/// built on is on the foundation or among `beneath`.
fn parents_closed(state: &State, card: Card, beneath: u64) -> bool {
    let r = rank(card);
    (0..SUITS as u8)
        .filter(|_| r < KING)
        .map(|t| card_of(r + 1, t))
        .filter(|&onto| state.rules.build.allows(card, onto))
        .all(|onto| state.below(onto) == FOUNDATION || beneath & (1 << onto) != 0)
}

/// The survey of the first version, with a rank comparison per card
/// instead of bit masks: the oracle for [`State::survey`].
fn survey_by_walking(state: &State) -> Survey {
    let rules = state.rules;
    let only_onto_higher = rules.only_onto_higher();
    let dead_run = rules.dead_run_length();
    let mut survey = Survey::default();
    for bottom in 0..CARDS as Card {
        if state.below[bottom as usize] != FLOOR {
            continue;
        }
        let mut lowest = [KING + 1; SUITS];
        let mut lowest_any = KING + 1;
        let mut beneath = 0u64;
        // Length of the decreasing same-suit run ending at `card`.
        let mut run = 0;
        let mut card = bottom;
        loop {
            let (s, r) = (suit(card), rank(card));
            let under = state.below[card as usize];
            run = if under < FLOOR && suit(under) == s && rank(under) == r + 1 {
                run + 1
            } else {
                1
            };
            if lowest[s as usize] < r {
                survey.own_suit_inversions += 1;
                survey.stuck |= only_onto_higher && parents_closed(state, card, beneath);
            } else {
                lowest[s as usize] = r;
            }
            if lowest_any < r {
                survey.any_inversions += 1;
            } else {
                lowest_any = r;
            }
            beneath |= 1 << card;
            match state.above(card) {
                Some(next) => card = next,
                None => {
                    // The top card: `lowest` now covers the run and
                    // everything beneath it, and the run's cards are all
                    // higher than the top, so a lower card of its suit
                    // lies beneath the run exactly when `lowest` says so.
                    if dead_run.is_some_and(|limit| run >= limit) && lowest[s as usize] < r {
                        survey.dead_run = true;
                    }
                    break;
                }
            }
        }
    }
    survey
}

#[test]
fn the_survey_counts_what_a_walk_by_ranks_counts() {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for rules in &GAMES {
        for seed in 1..=40 {
            walk(rules.alias, seed, 200, &mut rng, |state| {
                let game = rules.alias;
                assert_eq!(state.survey(), survey_by_walking(state), "{game}.{seed}");
            });
        }
    }
}

/// A child's survey from its parent's inversions is the child's own
/// survey, after every move of random walks in FreeCell and Baker's Dozen
/// (from every parent without a stuck card, as the search's are), under
/// forced rules, the free search's safe moves and no foundation move made
/// by itself (moves to the foundation then); the games whose survey also
/// looks for dead runs get no inversions.
#[test]
fn a_childs_survey_from_its_parents_inversions_is_its_own() {
    use super::super::Automatic;
    use super::super::testing::with;
    let mut rng = 0x0DDB_A11C_AFE5_0001u64;
    let (mut compared, mut stuck) = (0, 0);
    for rules in &GAMES {
        let walks_its_children = rules.dead_run_length().is_some();
        // A stuck child of a parent without one is rare (Baker's Dozen: 33
        // in 359 009 children of these walks): longer walks, more deals.
        let (seeds, steps) = if rules.only_onto_higher() {
            (300, 300)
        } else {
            (30, 150)
        };
        for seed in 1..=seeds {
            walk(rules.alias, seed, steps, &mut rng, |state| {
                for automatic in [Automatic::Every, Automatic::Safe, Automatic::Nothing] {
                    let parent = with(state, automatic);
                    let Some(inversions) = parent.inversions() else {
                        assert!(walks_its_children, "{}", rules.name);
                        continue;
                    };
                    assert!(!walks_its_children, "{}", rules.name);
                    if parent.survey().stuck {
                        continue;
                    }
                    parent.for_each_move(|mv| {
                        let mut child = parent.clone();
                        child.apply(mv);
                        let survey = inversions.survey_after(&parent, mv, &child);
                        assert_eq!(
                            survey,
                            child.survey(),
                            "{}.{seed} {mv}\n{parent}",
                            rules.name
                        );
                        compared += 1;
                        stuck += survey.stuck as usize;
                    });
                }
            });
        }
    }
    assert!(compared > 10_000, "{compared}");
    // Children with a stuck card were among them.
    assert!(stuck >= 10, "{stuck} of {compared}");
}

#[test]
fn dead_runs_are_found_only_over_a_lower_card_of_their_suit() {
    // Midnight Oil: a 2-card same-suit run over a lower card of its suit.
    let mo = crate::rules::find("mo").unwrap();
    let mut deal = Deal::new(GameId { rules: mo, seed: 1 });
    // Rebuild the first column as 3♣ (8) under 9♣ (32) under 8♣ (28).
    let wanted = [8u8, 32, 28];
    for column in &mut deal.columns {
        column.retain(|c| !wanted.contains(c));
    }
    deal.columns.retain(|c| !c.is_empty());
    deal.columns.insert(0, wanted.to_vec());
    while deal.columns.len() < mo.columns {
        deal.columns.push(Vec::new());
    }
    let state = State::new(&deal);
    assert!(state.has_dead_run());
    // 8♣ lies over 3♣ and its only parent, 9♣, lies beneath it.
    assert!(state.has_stuck_card());
    // The same run over a higher card of its suit is not dead.
    deal.columns[0] = vec![48, 32, 28]; // K♣ 9♣ 8♣
    for column in deal.columns.iter_mut().skip(1) {
        if let Some(i) = column.iter().position(|&c| c == 48) {
            column[i] = 8;
        }
    }
    assert!(!State::new(&deal).has_dead_run());
    assert!(!State::new(&deal).has_stuck_card());
}

/// In Baker's Dozen a card's parents of other suits can be on the
/// foundation: 2♣ over A♣, with 3♣ beneath them and the other Threes
/// played, can never leave. Every other column is dealt from high to low,
/// so 2♣ is the only card over a lower card of its suit.
#[test]
fn a_parent_on_the_foundation_takes_no_card() {
    let bd = crate::rules::find("bd").unwrap();
    let mut deal = Deal::new(GameId { rules: bd, seed: 1 });
    // 3♣ A♣ 2♣, and the Threes, Twos and Aces of the other suits with the
    // Aces on top.
    let stuck = vec![8, 0, 4];
    let played = vec![11, 7, 3, 10, 6, 2, 9, 5, 1];
    let rest: Vec<Card> = (0..CARDS as Card)
        .rev()
        .filter(|c| !stuck.contains(c) && !played.contains(c))
        .collect();
    deal.columns = vec![stuck, played];
    let others = bd.columns - deal.columns.len();
    for i in 0..others {
        let (from, to) = (i * rest.len() / others, (i + 1) * rest.len() / others);
        deal.columns.push(rest[from..to].to_vec());
    }
    let state = State::new(&deal);
    let [clubs, other_suits @ ..] = state.foundation();
    assert!(clubs == 0 && other_suits.iter().all(|&h| h >= 3));
    assert_eq!(state.survey().own_suit_inversions, 1);
    assert!(state.has_stuck_card());
    assert!(state.is_blocked_for_good());
}

/// Baker's Dozen 218 is lost from the deal, and no single card shows
/// it: every King lies under a Queen (K♣ under Q♦, K♠ under Q♥, K♥
/// under Q♠, K♦ under Q♣), so the first Queen to leave must go to the
/// foundation; but 10♥ lies under Q♠, J♠ under Q♣, 3♣ under Q♦ and 6♦
/// under Q♥, so each Queen's suit waits on the next Queen.
#[test]
fn a_cycle_of_queens_blocks_bakers_dozen_218_from_the_deal() {
    let (_, state) = initial("bd", 218);
    assert!(!state.has_stuck_card());
    assert!(state.is_blocked_for_good());
    // A deal the search solves is not blocked.
    let (_, state) = initial("bd", 1);
    assert!(!state.is_blocked_for_good());
}

/// A blocked position's continuations are some of its parent's, so all
/// its children are blocked too; a stuck card is one way to be blocked;
/// games with registers or open empty columns are never judged.
#[test]
fn blocked_positions_have_only_blocked_children_and_contain_stuck_ones() {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut seen = [0usize; 2];
    for rules in &GAMES {
        for seed in 1..=40 {
            walk(rules.alias, seed, 200, &mut rng, |state| {
                let blocked = state.is_blocked_for_good();
                let game = rules.alias;
                assert!(!state.has_stuck_card() || blocked, "{game}.{seed}");
                if rules.registers > 0 {
                    assert!(!blocked, "{game}.{seed}");
                }
                seen[blocked as usize] += 1;
                if blocked {
                    state.for_each_move(|mv| {
                        let mut child = state.clone();
                        child.apply(mv);
                        assert!(child.is_blocked_for_good(), "{game}.{seed}: {mv}");
                    });
                }
            });
        }
    }
    assert!(seen[0] > 1000 && seen[1] > 100, "{seen:?}");
}

/// The shortcut after a move gives the closure's answer whenever the
/// position moved from is not blocked.
#[test]
fn blocked_after_a_move_agrees_with_the_closure() {
    let mut rng = 0x1234_5678_9ABC_DEF1u64;
    let mut compared = [0usize; 2];
    for game in ["bd", "mo"] {
        for seed in 1..=60 {
            walk(game, seed, 200, &mut rng, |state| {
                if !state.is_blocked_for_good() {
                    shortcut_agrees(state, &format!("{game}.{seed}"), &mut compared);
                }
            });
        }
    }
    assert!(compared[0] > 1000 && compared[1] > 100, "{compared:?}");
}

/// Holds the shortcut after each move of `state`, which is not blocked, to
/// the closure; counts the children not blocked and blocked.
fn shortcut_agrees(state: &State, what: &str, compared: &mut [usize; 2]) {
    state.for_each_move(|mv| {
        let mut child = state.clone();
        child.apply(mv);
        let blocked = child.is_blocked_for_good();
        assert_eq!(state.is_blocked_after(mv, &child), blocked, "{what} {mv}");
        compared[blocked as usize] += 1;
    });
}

/// Under free rules (no foundation move made by itself), every position
/// the search would drop as lost is lost: no play from it wins. Small
/// games of Midnight Oil and Baker's Dozen (where the closure and stuck
/// cards apply) and of Seahaven with one register (dead runs of 3), each
/// followed along a random walk; the walk's positions also show the
/// shortcut after a move giving the closure's answer.
#[test]
fn under_free_rules_every_position_judged_lost_is_lost() {
    const CAP: usize = 200_000;
    let mut rng = 0xFEED_F00D_0000_0011u64;
    let (mut lost_judged, mut compared) = (0, [0; 2]);
    let cases = [
        (variant("mo", 0), 7, 6, 0),
        (variant("bd", 0), 8, 5, 0),
        (variant("st", 1), 6, 5, 1),
    ];
    for (rules, up_to, columns, in_registers) in cases {
        for _ in 0..15 {
            let start = small(rules, up_to, columns, in_registers, &mut rng);
            walk_from(start, 12, &mut rng, |state| {
                let survey = state.survey();
                let judged = survey.stuck || survey.dead_run || state.is_blocked_for_good();
                if judged && let Some(won) = winnable(state, CAP) {
                    assert!(!won, "{}:\n{state}", rules.name);
                    lost_judged += 1;
                }
                if !state.is_blocked_for_good() {
                    shortcut_agrees(state, rules.name, &mut compared);
                }
            });
        }
    }
    assert!(lost_judged > 20, "{lost_judged}");
    assert!(compared[0] > 100 && compared[1] > 0, "{compared:?}");
}

//! The safe rule held to its closed forms, and to searches that play no
//! foundation move by themselves.

use super::super::testing::{
    each_next_card, foundation_is_consistent, small, variant, walk, winnable, with,
};
use super::super::{FOUNDATION, State};
use super::*;
use crate::cards::{CARDS, rank, suit};
use crate::deal::test_deal;

#[test]
fn up_bits_are_the_cards_on_the_foundation() {
    let mut rng = 0x5AFE_5AFE_5AFE_5AFEu64;
    for game in ["fc", "bd", "st"] {
        for seed in 1..=10 {
            walk(game, seed, 150, &mut rng, |state| {
                assert!(foundation_is_consistent(state));
                let want = (0..CARDS as Card)
                    .filter(|&c| state.below(c) == FOUNDATION)
                    .fold(0u64, |m, c| m | 1 << c);
                assert_eq!(up_bits(&state.foundation), want);
            });
        }
    }
}

/// Every suit's next card under every foundation of FreeCell, Baker's
/// Dozen and the same-suit games: the rule is the module doc's closed
/// form in each.
#[test]
fn the_rule_is_the_closed_form_of_each_building_rule() {
    for game in ["fc", "bd", "st", "mo"] {
        let mut state = State::new(&test_deal(game, 1));
        let mut safe_and_not = [0, 0];
        each_next_card(&mut state, |state, h, card| {
            let s = suit(card);
            let r = rank(card) as i32;
            let holds = |t: u8, at_least: i32| h[t as usize] as i32 >= at_least;
            let want = match game {
                "fc" => {
                    let other: Vec<u8> = (0..4).filter(|&t| is_red(t) != is_red(s)).collect();
                    let twin = (0..4).find(|&t| t != s && is_red(t) == is_red(s)).unwrap();
                    other.iter().all(|&t| holds(t, r - 1))
                        || (other.iter().all(|&t| holds(t, r - 2)) && holds(twin, r - 3))
                }
                "bd" => (0..4).all(|t| holds(t, r - 2)),
                _ => true,
            };
            assert_eq!(state.goes_up_safely(card), want, "{game} {h:?} card {card}");
            safe_and_not[usize::from(want)] += 1;
        });
        if game == "fc" || game == "bd" {
            assert!(safe_and_not[0] > 0 && safe_and_not[1] > 0, "{game}");
        }
    }
}

/// Whether the suit `s` (a suit, not a card) is red.
fn is_red(s: u8) -> bool {
    crate::cards::is_red(s)
}

/// Small games, tight enough that many are lost: the verdict with the safe
/// moves played by themselves is the verdict with none, and in the
/// same-suit games so is the verdict with every foundation move forced.
/// Among them are games that forcing loses: a rule that played a card
/// still needed as a host would show. Besides the four games, variants of
/// FreeCell and Baker's Dozen building with fewer registers and empty
/// columns that take nothing: the proof does not depend on either, and
/// their games are small.
#[test]
fn safe_moves_keep_the_verdict_of_a_search_without_automatic_moves() {
    const CAP: usize = 200_000;
    let mut rng = 0x1234_5678_9ABC_DEF1u64;
    let (mut decided, mut lost, mut forcing_loses, mut safe_played) = (0, 0, 0, 0);
    let cases = [
        // rules, foundation up to rank, columns, cards dealt to registers
        (variant("fc", 1), 9, 4, 1),
        (variant("fc", 2), 9, 4, 2),
        (variant("fc", 2), 7, 5, 2),
        (variant("bd", 1), 8, 5, 1),
        (variant("bd", 0), 8, 5, 0),
        (variant("mo", 0), 8, 5, 0),
        (variant("st", 1), 8, 5, 1),
    ];
    for (rules, up_to, columns, in_registers) in cases {
        for _ in 0..20 {
            let position = small(rules, up_to, columns, in_registers, &mut rng);
            let Some(free) = winnable(&position, CAP) else {
                continue;
            };
            decided += 1;
            lost += usize::from(!free);
            let safe = with(&position, Automatic::Safe);
            safe_played += usize::from(safe.score() > position.score());
            let name = rules.name;
            assert_eq!(winnable(&safe, CAP), Some(free), "{name}:\n{position}");
            let forced = winnable(&with(&position, Automatic::Every), CAP);
            if rules.forced_foundation_is_exact() {
                assert_eq!(forced, Some(free), "{name}:\n{position}");
            }
            forcing_loses += usize::from(free && forced == Some(false));
        }
    }
    assert!(decided >= 120, "{decided} decided");
    assert!(lost > 10 && lost + 10 < decided, "{lost} lost of {decided}");
    assert!(
        forcing_loses > 0 && safe_played > 10,
        "{forcing_loses} {safe_played}"
    );
}

#[test]
fn the_same_suit_search_is_the_forced_one() {
    for game in ["st", "mo"] {
        let forced = test_deal(game, 3);
        let free = forced.clone().with_foundation(Foundation::Free);
        assert_eq!(Automatic::for_search(&free), Automatic::Every);
        assert_eq!(Automatic::for_replay(&free), Automatic::Nothing);
        assert_eq!(State::new(&free), State::new(&forced));
    }
    let free = test_deal("fc", 3).with_foundation(Foundation::Free);
    assert_eq!(Automatic::for_search(&free), Automatic::Safe);
}

//! `-search` under xpat2's complete rules (SPEC §10) in the games where a
//! card may come back from the foundation: forced rules first, then the
//! complete ones.
//!
//! A forced solution is a complete-rules one: written with every
//! foundation move (`free_rules.rs`, `free_form`), it replays under free
//! rules, and the complete rules only add moves (cards back). Forced
//! positions have the fewest choices, so where forced play wins the
//! forced search finds it soonest (FreeCell 1..2000 in the forced
//! survey's positions). It has half of `--timeout` and of `--max-states`,
//! as under free rules; after it the complete search runs, with the
//! portfolio's prover alone after a forced proof of loss.
//!
//! No free search comes between (from 2026-11-26 to 12-04 one did, and
//! the complete search ran only after a free proof): a free proof proves
//! nothing under the complete rules, whose own proof had to follow, and a
//! free search that gave up left the cards back no time at all. Baker's
//! Dozen 84549, open under forced and free rules after 450 s each, is won
//! with 9♦ back onto 10♣ in 5 s of the complete search's half of 10 s;
//! 49675, lost under forced and free rules, in 8.6 s (509.7 s before);
//! and the deals of issue 29's 102 proven lost at 10 s are proven 1.3 to
//! 22 times sooner (bd.4300: 1.34 s, was 4.56 s). Only where a card back
//! can help at all ([`a_card_back_can_help`]); elsewhere the free search
//! (forced first) is the complete one.

use super::{Limits, Progress, Report, free_rules, search_from};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::rules::Build;
use crate::state::State;

/// [`super::search`] of a deal under xpat2's complete rules.
pub(super) fn search(deal: &Deal, limits: &Limits, progress: Option<Progress>) -> Report {
    debug_assert_eq!(deal.foundation, Foundation::Xpat2);
    let free = Deal {
        foundation: Foundation::Free,
        ..deal.clone()
    };
    if !a_card_back_can_help(deal) {
        return super::search(&free, limits, progress);
    }
    if free_rules::forced_first(&free, limits) {
        return free_rules::search(deal, limits, progress);
    }
    search_from(deal, &State::new(deal), limits, progress)
}

/// Whether a card back from the foundation can be part of the only wins
/// of some deal of this game. Not where cards build on their own suit:
/// a winning play can put off each return until a card not coming back
/// goes onto the returned card (`state/moves.rs`, `for_each_return`), and
/// in those games that card is of the same suit and lower, up already; so
/// some win of every winnable deal has no return, and a proof that no
/// free play wins is a proof under the complete rules too.
pub(super) fn a_card_back_can_help(deal: &Deal) -> bool {
    deal.id.rules.build != Build::SameSuit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Verdict, replay_moves};
    use crate::deal::test_deal;
    use crate::search::{Limit, Outcome};

    fn report(game: &str, seed: u32, foundation: Foundation) -> Report {
        report_within(game, seed, foundation, Limits::default().max_states)
    }

    fn report_within(game: &str, seed: u32, foundation: Foundation, max_states: u64) -> Report {
        let deal = test_deal(game, seed).with_foundation(foundation);
        let limits = Limits {
            max_states,
            length: super::super::Length::AsFound,
            ..Limits::default()
        };
        super::super::search(&deal, &limits, None)
    }

    /// A deal free play wins, and a Seahaven deal free play loses, are
    /// settled by the free search alone: the same outcome, position for
    /// position.
    #[test]
    fn free_verdicts_stand_where_no_card_back_can_change_them() {
        for (game, seed) in [("fc", 1), ("st", 35)] {
            let free = report(game, seed, Foundation::Free);
            let complete = report(game, seed, Foundation::Xpat2);
            assert_eq!(complete.outcome, free.outcome, "{game}.{seed}");
            assert_eq!(
                complete.stats.expanded, free.stats.expanded,
                "{game}.{seed}"
            );
        }
        let lost = report("st", 35, Foundation::Free);
        assert_eq!(lost.outcome, Outcome::Insoluble);
    }

    /// Baker's Dozen 84549, which free play leaves open, is won with a
    /// card back: where the free search gives up at a limit, the complete
    /// one (after the forced search) wins within the same limit, a win no
    /// free file could replay.
    #[test]
    fn a_deal_free_play_leaves_open_is_won_with_a_card_back() {
        let free = report_within("bd", 84549, Foundation::Free, 200_000);
        assert_eq!(free.outcome, Outcome::GaveUp(Limit::States));
        let complete = report_within("bd", 84549, Foundation::Xpat2, 200_000);
        let deal = test_deal("bd", 84549).with_foundation(Foundation::Xpat2);
        let Outcome::Solved(moves) = &complete.outcome else {
            panic!("{:?}", complete.outcome);
        };
        assert!(matches!(replay_moves(&deal, moves), Verdict::Won { .. }));
        let free_deal = deal.with_foundation(Foundation::Free);
        assert!(!matches!(
            replay_moves(&free_deal, moves),
            Verdict::Won { .. }
        ));
    }

    /// The figures of a proof are that proof's: Baker's Dozen 78829,
    /// lost with forced moves by its forced suitless game and then with
    /// cards back by its complete one, reports the complete game's
    /// positions alone. (Until 2026-12-05 the forced proof's figures
    /// were carried into the second search's: `Stats::followed_by`.)
    /// Without rollouts, which prove nothing (7.4 s with them, 5.1 s
    /// without).
    #[test]
    fn the_figures_of_a_proof_are_that_proofs() {
        let deal = test_deal("bd", 78829).with_foundation(Foundation::Xpat2);
        let limits = Limits {
            length: super::super::Length::AsFound,
            rollouts: false,
            ..Limits::default()
        };
        let found = super::super::search(&deal, &limits, None);
        assert_eq!(found.outcome, Outcome::Insoluble);
        let complete = crate::state::suitless(&State::new(&deal), usize::MAX, || false);
        assert!(complete.is_lost());
        assert_eq!(found.stats.suitless, complete.positions() as u64);
        assert!(!found.stats.proven_by_test);
    }

    /// A FreeCell deal forced play loses is proven lost with the cards
    /// back straight after the forced proof: the complete proof covers
    /// more positions than the free one (the cards back reach some), and
    /// no free proof is made on the way (as many searches as the free
    /// rules' forced one and its own).
    #[test]
    fn after_a_forced_proof_the_cards_back_are_searched_without_a_free_proof() {
        let free = report("fc", 19621, Foundation::Free);
        let complete = report("fc", 19621, Foundation::Xpat2);
        assert_eq!(free.outcome, Outcome::Insoluble);
        assert_eq!(complete.outcome, Outcome::Insoluble);
        assert!(complete.stats.expanded > free.stats.expanded);
        assert_eq!(complete.stats.attempts, free.stats.attempts);
    }
}

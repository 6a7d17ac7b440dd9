//! `-search` under xpat2's complete rules (SPEC §10) in the games where a
//! card may come back from the foundation: free rules first.
//!
//! A free solution is a complete-rules one: the complete rules only add
//! moves (cards back), and both write every foundation move in the file.
//! The free search (`free_rules.rs`: forced first), without the moves back
//! and with more cards played up by themselves, finds it in far fewer
//! positions (FreeCell 1..2000: the
//! positions of a free survey, against 1.4 times the time when every
//! attempt made the moves back). Only when the free search proves that no
//! free play wins does the complete search run, and only where a card back
//! can help at all ([`a_card_back_can_help`]); a limit that stops the free
//! search ends the whole search, as it would have stopped the larger
//! complete one.

use super::{Limits, Outcome, Progress, Report, lent, search_after};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::rules::Build;

/// [`super::search`] of a deal under xpat2's complete rules.
pub(super) fn search(deal: &Deal, limits: &Limits, mut progress: Option<Progress>) -> Report {
    debug_assert_eq!(deal.foundation, Foundation::Xpat2);
    let free = Deal {
        foundation: Foundation::Free,
        ..deal.clone()
    };
    let first = super::search(&free, limits, lent(&mut progress));
    if !matches!(first.outcome, Outcome::Insoluble) || !a_card_back_can_help(deal) {
        return first;
    }
    let rest = Limits {
        timeout: limits
            .timeout
            .map(|t| t.saturating_sub(first.stats.elapsed)),
        ..limits.clone()
    };
    search_after(first, deal, &rest, progress)
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
    use crate::deal::test_deal;

    fn report(game: &str, seed: u32, foundation: Foundation) -> Report {
        let deal = test_deal(game, seed).with_foundation(foundation);
        let limits = Limits {
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

    /// A FreeCell deal free play loses is searched again with the cards
    /// back: its proof counts both searches.
    #[test]
    fn a_free_proof_in_freecell_is_searched_again_with_cards_back() {
        let free = report("fc", 19621, Foundation::Free);
        let complete = report("fc", 19621, Foundation::Xpat2);
        assert_eq!(free.outcome, Outcome::Insoluble);
        assert_eq!(complete.outcome, Outcome::Insoluble);
        assert!(complete.stats.expanded > free.stats.expanded);
        assert!(complete.stats.attempts > free.stats.attempts);
    }
}

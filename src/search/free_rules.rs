//! `-search` under free rules (and under xpat2's complete rules, whose
//! second search is the complete one: `complete_rules.rs`) in the games
//! where they differ from forced ones: a forced search first.
//!
//! A forced solution is a free one: every card its positions play up by
//! themselves is a legal foundation move, written as a `CARD F` line where
//! it happened ([`free_form`]). Forced positions have fewer choices, so
//! the forced search wins far sooner where it wins at all, which is
//! nearly every deal: Baker's Dozen 192, which forced play wins at once,
//! stopped the free search at 10 s (so did 891366701, forced in 7.3 s);
//! 456737034 was won forced in 14 s and undecided free after 60 s.
//!
//! The forced search proves nothing about free play, so when it does not
//! win the free search runs: after a forced proof of loss, with the
//! portfolio's prover alone (most such deals are lost free too; see
//! [`Limits::prover_alone`]), else as it always did. The forced search
//! has half of `--timeout` and of `--max-states`: a deal that only free
//! play wins keeps the other half.
//!
//! From a player's position (`--from-xpat2`, a file's moves followed
//! exactly) the same: the forced game starts from that position with
//! every card that can go up gone up, each written as a `CARD F` line.

use std::time::Instant;

use super::{
    Limit, Limits, Outcome, Progress, Report, lent, search_after, search_exactly_from_played,
    search_from, then,
};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::state::{Move, State, free_form, searched_from, written_out_from};

/// Whether [`search`] is the way to search `deal` within `limits`: free
/// rules that differ from forced ones, a caller that has not searched the
/// forced game already, and any solution wanted, not a shortest one.
pub(super) fn forced_first(deal: &Deal, limits: &Limits) -> bool {
    deal.foundation == Foundation::Free
        && !deal.id.rules.forced_foundation_is_exact()
        && !limits.prover_alone
        && !limits.forced_searched
        && limits.length != super::Length::Optimal
}

/// [`super::search`] of a deal under free rules, forced first; of a deal
/// under complete rules the same, the second search under them.
pub(super) fn search(deal: &Deal, limits: &Limits, mut progress: Option<Progress>) -> Report {
    debug_assert!(forced_first(
        &deal.clone().with_foundation(Foundation::Free),
        limits
    ));
    let started = Instant::now();
    let forced = deal.clone().with_foundation(Foundation::Forced);
    let first = search_from(
        &forced,
        &State::new(&forced),
        &half(limits),
        lent(&mut progress),
    );
    match free_after(first, limits, started, |moves| free_form(&forced, moves)) {
        Next::Done(report) => report,
        Next::Free { first, rest } => search_after(first, deal, &rest, progress),
    }
}

/// [`super::search_from_played`] under free rules, forced first: `played`
/// is a player's position, followed exactly.
pub(super) fn search_from_played(
    deal: &Deal,
    played: &State,
    limits: &Limits,
    mut progress: Option<Progress>,
) -> Report {
    debug_assert!(forced_first(deal, limits));
    let started = Instant::now();
    let forced = deal.clone().with_foundation(Foundation::Forced);
    let (root, up) = searched_from(played, &forced);
    let first = search_from(&forced, &root, &half(limits), lent(&mut progress));
    let written = |moves: &[Move]| {
        let mut written = up.clone();
        written.extend(written_out_from(&root, moves));
        written
    };
    match free_after(first, limits, started, written) {
        Next::Done(report) => report,
        Next::Free { first, rest } => then(first, progress, |told| {
            search_exactly_from_played(deal, played, &rest, told)
        }),
    }
}

/// The forced search's share of `limits`: half the time and positions.
fn half(limits: &Limits) -> Limits {
    Limits {
        timeout: limits.timeout.map(|t| t / 2),
        max_states: (limits.max_states / 2).max(1),
        ..limits.clone()
    }
}

/// What follows the forced search.
enum Next {
    /// Its report is the search's.
    Done(Report),
    /// The free search, within `rest`.
    Free { first: Report, rest: Limits },
}

/// What follows the forced search `first`, begun at `started`: its win
/// (`written` as free moves) or its stop by the user or the memory, as
/// the report; else the free search, with the prover alone after a
/// forced proof of loss.
fn free_after(
    first: Report,
    limits: &Limits,
    started: Instant,
    written: impl FnOnce(&[Move]) -> Vec<Move>,
) -> Next {
    let prover_alone = match &first.outcome {
        Outcome::Solved(moves) => {
            return Next::Done(Report {
                outcome: Outcome::Solved(written(moves)),
                stats: first.stats,
            });
        }
        Outcome::GaveUp(Limit::Cancelled | Limit::Memory) => return Next::Done(first),
        Outcome::GaveUp(Limit::States | Limit::Time | Limit::Forgotten) => false,
        Outcome::Insoluble => true,
    };
    let rest = Limits {
        timeout: limits.timeout.map(|t| t.saturating_sub(started.elapsed())),
        prover_alone,
        ..limits.clone()
    };
    Next::Free { first, rest }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Verdict, replay_moves};
    use crate::deal::test_deal;
    use crate::search::Length;

    fn free_search(game: &str, seed: u32, max_states: u64, forced_searched: bool) -> Report {
        let deal = test_deal(game, seed).with_foundation(Foundation::Free);
        // Without the pair test, which proves bd.218 lost before any
        // search: these tests are about the searches.
        let limits = Limits {
            max_states,
            length: Length::AsFound,
            forced_searched,
            pairs: false,
            ..Limits::default()
        };
        super::super::search(&deal, &limits, None)
    }

    /// Baker's Dozen 192: forced play wins it within a million positions,
    /// where the free search alone gives up; the forced solution, written
    /// with its foundation moves, replays as a free win.
    #[test]
    fn a_forced_win_is_a_free_win_found_sooner() {
        let alone = free_search("bd", 192, 1_000_000, true);
        assert!(matches!(alone.outcome, Outcome::GaveUp(_)), "{alone:?}");
        let report = free_search("bd", 192, 1_000_000, false);
        let Outcome::Solved(moves) = &report.outcome else {
            panic!("{:?}", report.outcome);
        };
        let deal = test_deal("bd", 192).with_foundation(Foundation::Free);
        assert!(matches!(replay_moves(&deal, moves), Verdict::Won { .. }));
        let up = moves
            .iter()
            .filter(|m| m.dest == crate::state::Dest::Foundation);
        assert_eq!(up.count(), 52, "every card's way up written");
    }

    /// From a player's position under free rules (a file's moves followed
    /// exactly, nothing gone up by itself) the forced game is searched
    /// first too: Baker's Dozen 192 three moves in, which the free search
    /// alone gives up on, is won, and the moves found (every card's way up
    /// written) replay from that position to a won game.
    #[test]
    fn from_a_players_position_forced_first_too() {
        let deal = test_deal("bd", 192).with_foundation(Foundation::Free);
        let limits = Limits {
            max_states: 1_000_000,
            length: Length::AsFound,
            ..Limits::default()
        };
        let Outcome::Solved(start) = super::super::search(&deal, &limits, None).outcome else {
            panic!("bd.192 is won");
        };
        let mut played = State::for_replay(&deal);
        for &mv in &start[..3] {
            played.try_apply(mv).unwrap();
        }
        let alone = search_exactly_from_played(&deal, &played, &limits, None);
        assert!(matches!(alone.outcome, Outcome::GaveUp(_)), "{alone:?}");
        let report = super::super::search_from_played(&deal, &played, &limits, None);
        let Outcome::Solved(moves) = &report.outcome else {
            panic!("{:?}", report.outcome);
        };
        let verdict = crate::check::replay_moves_from(played.clone(), moves);
        assert!(matches!(verdict, Verdict::Won { .. }), "{verdict:?}");
        let up = moves
            .iter()
            .filter(|m| m.dest == crate::state::Dest::Foundation);
        assert_eq!(up.count() as u8, 52 - played.score());
    }

    /// A deal forced play loses is searched free after the forced proof,
    /// with the prover: the same verdict as the free search alone, both
    /// searches counted.
    #[test]
    fn after_a_forced_loss_the_free_search_decides() {
        for (game, seed) in [("fc", 19621), ("bd", 218)] {
            let alone = free_search(game, seed, 5_000_000, true);
            let report = free_search(game, seed, 5_000_000, false);
            assert_eq!(report.outcome, alone.outcome, "{game}.{seed}");
            assert_eq!(report.outcome, Outcome::Insoluble, "{game}.{seed}");
            assert!(report.stats.attempts >= 2, "{game}.{seed}: one a search");
        }
    }

    /// Seahaven and Midnight Oil build in suit: there free play is forced
    /// play's game, searched once; and a shortest solution is looked for
    /// under the rules asked for.
    #[test]
    fn forced_first_only_where_it_can_help() {
        let limits = Limits::default();
        for (game, applies) in [("fc", true), ("bd", true), ("st", false), ("mo", false)] {
            let deal = test_deal(game, 1).with_foundation(Foundation::Free);
            assert_eq!(forced_first(&deal, &limits), applies, "{game}");
            let forced = test_deal(game, 1);
            assert!(!forced_first(&forced, &limits), "{game}");
        }
        let deal = test_deal("fc", 1).with_foundation(Foundation::Free);
        let optimal = Limits {
            length: Length::Optimal,
            ..Limits::default()
        };
        assert!(!forced_first(&deal, &optimal));
    }
}

//! Shorter by default: once the portfolio has a solution, a bounded extra
//! effort makes it shorter. Beam searches of growing width look for a
//! shorter solution from the search's root (`shorten/shorter_beam.rs`), then edits leave
//! out the moves that were never needed (`edits.rs`). The result replaces
//! the solution only when the file it becomes is shorter and replays to a
//! won game through `-check`'s own code, so a `SUCCES` stays one, never
//! longer.
//!
//! The effort is bounded in positions expanded, as the search counts its
//! own: one per [`SHORTEN_SHARE_DIVISOR`] of the search's (a share of its
//! effort), at least [`SHORTEN_FLOOR`] or the solution's length squared
//! over [`SHORTEN_SQUARE_DIVISOR`], never more than [`SHORTEN_CAP`]; and
//! the beams stop widening at the first width that finds nothing shorter
//! ([`shorten`]). Positions, not time, so that the same deal gets the same
//! solution on every run, loaded machine or not (the survey's rows are
//! compared across runs). Time is only a safety net: never more than
//! [`SHORTEN_TIME_CAP`], nor past `--timeout`, and a cancelled search
//! stops at once with the solution it has.

mod edits;
mod shorter_beam;

use std::time::{Duration, Instant};

use self::shorter_beam::Ranking;
/// Every position of a solution from `root` on (for `shorter_beam` and `edits`).
use super::path::positions_of as positions;
use super::{Limits, Outcome, Report};
use crate::check::{Verdict, replay_moves_from};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::state::{Dest, Move, State, as_replayed, written_out_from};

/// Positions the shortening may expand at least, whatever the search
/// cost: beams of 16 and 32 over a 40-move solution.
pub const SHORTEN_FLOOR: u64 = 1_500;
/// ... or the square of the solution's length divided by this, when that
/// is more: a long solution (one a depth-first attempt found, on a deal
/// the score buckets miss) takes wide beams to cut down, and a beam costs
/// its width times the length. FreeCell 1..1000: with 2, the longest
/// shortened solution has 128 moves (fc.946, 214 as found); with 1, 90,
/// for 30 % more positions expanded in all (README, Shorter solutions).
pub const SHORTEN_SQUARE_DIVISOR: u64 = 1;
/// The shortening may expand one position per this many the search
/// expanded (a beam's expansion costs about two of the search's: it ranks
/// every child).
pub const SHORTEN_SHARE_DIVISOR: u64 = 3;
/// The most positions it may expand, however long the search (about a
/// second on this project's machines).
pub const SHORTEN_CAP: u64 = 400_000;
/// The most time it may take, whatever its positions (a loaded machine).
pub const SHORTEN_TIME_CAP: Duration = Duration::from_secs(5);
/// The first beams' width.
const FIRST_WIDTH: usize = 16;
/// A solution longer than this that the first width did not shorten gets
/// the next width still: a long first solution is where the first beams
/// most often miss. FreeCell 1..4000, with the fast pass's fewer single
/// steps: the longest shortened solution 104 moves without it (fc.952,
/// 104 as found), 98 with it, for 1 % more time.
const LONG_SOLUTION: usize = 64;
/// The beams' rankings, in the order they take turns.
const RANKINGS: [Ranking; 2] = [Ranking::Room, Ranking::Bound];
/// Moves replayed by an edit's check per position of the budget: about
/// the moves an expansion generates.
const MOVES_PER_POSITION: u64 = 16;

/// What the shortening may still spend.
pub(super) struct Budget {
    left: u64,
    spent: u64,
    deadline: Instant,
    /// For the flag that stops the search ([`Limits::cancel`]).
    limits: Limits,
}

impl Budget {
    fn new(positions: u64, deadline: Instant, limits: &Limits) -> Budget {
        Budget {
            left: positions,
            spent: 0,
            deadline,
            limits: limits.clone(),
        }
    }

    /// Counts `positions` expanded.
    fn spend(&mut self, positions: u64) {
        self.left = self.left.saturating_sub(positions);
        self.spent += positions;
    }

    /// Counts `moves` replayed.
    fn spend_moves(&mut self, moves: usize) {
        self.spend((moves as u64).div_ceil(MOVES_PER_POSITION));
    }

    fn exhausted(&self) -> bool {
        self.left == 0 || Instant::now() >= self.deadline || self.limits.interrupted().is_some()
    }
}

/// The search's report, its solution from `root` made shorter within the
/// budget its own effort sets; the figures count the shortening's
/// positions and time. Whatever happens, a solution stays a solution.
pub(super) fn after(deal: &Deal, root: &State, limits: &Limits, report: Report) -> Report {
    let Report { outcome, mut stats } = report;
    let Outcome::Solved(moves) = outcome else {
        return Report { outcome, stats };
    };
    let start = Instant::now();
    let mut time = SHORTEN_TIME_CAP;
    if let Some(timeout) = limits.timeout {
        time = time.min(timeout.saturating_sub(stats.elapsed));
    }
    let deadline = start + time;
    let positions = budget_for(stats.expanded, moves.len());
    let mut budget = Budget::new(positions, deadline, limits);
    let shorter = shorten(root, moves.clone(), &mut budget);
    stats.expanded += budget.spent;
    stats.elapsed += start.elapsed();
    let moves = if counted(&shorter) < counted(&moves) && wins(deal, root, &shorter) {
        shorter
    } else {
        moves
    };
    Report {
        outcome: Outcome::Solved(moves),
        stats,
    }
}

/// The positions the shortening of a solution of `length` moves may
/// expand, after a search that expanded `expanded` (the module doc says
/// why).
fn budget_for(expanded: u64, length: usize) -> u64 {
    let square = (length as u64).pow(2) / SHORTEN_SQUARE_DIVISOR;
    (expanded / SHORTEN_SHARE_DIVISOR)
        .max(SHORTEN_FLOOR)
        .max(square)
        .min(SHORTEN_CAP)
}

/// The length of the file a search's solution becomes, less what every
/// solution of the deal has: under forced rules its length; under free
/// rules the file also writes one foundation move per card, 52 in all
/// whatever the order of play, so those are left out.
fn counted(moves: &[Move]) -> usize {
    moves
        .iter()
        .filter(|mv| mv.dest != Dest::Foundation)
        .count()
}

/// Whether `moves`, a search's solution from `root`, win when replayed by
/// `-check`'s own code as the file they become (under free rules, with
/// every foundation move written out).
fn wins(deal: &Deal, root: &State, moves: &[Move]) -> bool {
    let verdict = match deal.foundation {
        Foundation::Forced => replay_moves_from(root.clone(), moves),
        // From the deal's start this is `written_out(deal, moves)` replayed
        // from the deal: the same game, the same position.
        Foundation::Free | Foundation::Xpat2 => {
            replay_moves_from(as_replayed(root, deal), &written_out_from(root, moves))
        }
    };
    matches!(verdict, Verdict::Won { .. })
}

/// `moves`, a solution from `root`, made shorter within `budget`: beams,
/// each ranking in turn, each from the best solution so far, twice as
/// wide once both have run, while the budget has room for the next and
/// the last width shortened the solution; then the edits.
///
/// A width whose beams found nothing shorter ends the widening (but for a
/// first solution longer than [`LONG_SOLUTION`]): wider ones seldom pay
/// after one that did not, and they cost the most.
/// Measured one process per deal on 1..1000 (`scripts/bench 1000
/// --timeout 10`, quiet machine, same run), widening while the budget
/// allows against stopping so: FreeCell 12.4 s → 9.6 s in all (`--fast`:
/// 5.0 s), median 35 → 36 moves, 90th percentile 50 both, longest 90 →
/// 92; Baker's Dozen 19.3 s → 15.2 s (`--fast`: 12.7 s), median 18,
/// longest 74 both; Seahaven and Midnight Oil the same lengths and times.
pub(super) fn shorten(root: &State, moves: Vec<Move>, budget: &mut Budget) -> Vec<Move> {
    let mut best = moves;
    let mut width = FIRST_WIDTH;
    let mut shortened = false;
    for round in 0.. {
        let ranking = RANKINGS[round % RANKINGS.len()];
        let before = budget.spent;
        let beamed = shorter_beam::solve(root, width, ranking, &best, budget);
        if let Some(shorter) = beamed.moves {
            best = shorter;
            shortened = true;
        }
        let cost = budget.spent - before;
        let wider = (round + 1) % RANKINGS.len() == 0;
        let next_cost = if wider { 2 * cost } else { cost };
        if !beamed.narrowed
            || budget.exhausted()
            || budget.left < next_cost
            || (wider && !shortened && !(width == FIRST_WIDTH && best.len() > LONG_SOLUTION))
        {
            break;
        }
        if wider {
            width *= 2;
            shortened = false;
        }
    }
    edits::cut(root, &mut best, budget);
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal as deal;
    use crate::search::{Length, search};

    #[test]
    fn the_last_moves_of_a_solution_are_left_as_they_are() {
        // From the positions two, one and no moves before the end: nothing
        // to shorten, and no beam to run (nor to widen forever).
        let d = deal("fc", 1);
        let limits = Limits {
            length: Length::AsFound,
            ..Limits::default()
        };
        let Outcome::Solved(moves) = search(&d, &limits, None).outcome else {
            panic!("fc.1 is solvable");
        };
        let states = positions(&State::new(&d), &moves);
        for left in 0..=2 {
            let from = moves.len() - left;
            let deadline = Instant::now() + Duration::from_secs(60);
            let mut budget = Budget::new(u64::MAX, deadline, &limits);
            let kept = shorten(&states[from], moves[from..].to_vec(), &mut budget);
            assert_eq!(kept, moves[from..]);
        }
    }
}

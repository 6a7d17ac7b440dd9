//! Replaying a solution file (SPEC §6–7, §9): `SUCCES`, or `ECHEC k` with
//! the first line `k` that fails, and a sentence saying why. The deal's
//! foundation rule says which form the file is in: under forced rules
//! cards go up by themselves and `F` is no destination; under free rules
//! nothing moves unless a line says so.

use std::convert::Infallible;

use crate::cards::{Card, Name, card_of, is_red, rank, suit};
use crate::deal::Deal;
use crate::rules::{Build, EmptyColumn, Rules};
use crate::solution::Line;
use crate::state::{Dest, Illegal, Move, State};

/// The outcome of a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every move legal and the last position won.
    Won {
        /// The moves replayed.
        moves: usize,
    },
    /// Line `line` (from 1) is the first that fails: an illegal move, or the
    /// line after the last when the game is not won. `why` says what.
    Failed {
        /// The first line that fails, from 1.
        line: usize,
        /// What is wrong with it, in words.
        why: String,
    },
}

/// Replays `lines` from the deal's initial position: normalized under
/// forced rules, as dealt under free rules.
pub fn replay(deal: &Deal, lines: &[Line]) -> Verdict {
    let Ok(verdict) = replay_lines(
        State::for_replay(deal),
        lines.iter().cloned().map(Ok::<_, Infallible>),
    );
    verdict
}

/// A position a file can be replayed on: a [`State`], or under Midnight
/// Oil's complete rules a `midnight::Table` (which implements it beside
/// its own moves).
pub trait Replayed {
    /// Plays `mv` if it is legal, or says why not.
    fn try_apply(&mut self, mv: Move) -> Result<(), Illegal>;
    /// Whether every card is on the foundation.
    fn is_won(&self) -> bool;
    /// Cards on the foundation.
    fn score(&self) -> u8;
    /// The game being played.
    fn rules(&self) -> &'static Rules;
}

impl Replayed for State {
    fn try_apply(&mut self, mv: Move) -> Result<(), Illegal> {
        State::try_apply(self, mv)
    }
    fn is_won(&self) -> bool {
        State::is_won(self)
    }
    fn score(&self) -> u8 {
        State::score(self)
    }
    fn rules(&self) -> &'static Rules {
        State::rules(self)
    }
}

/// Replays `lines` from `start` as they come, one at a time, stopping at
/// the first that fails: a file being read (`-check`) is read no further
/// than its first illegal line, and never held whole. A read error (`Err`)
/// ends the replay as that error: no verdict on a file not read.
pub fn replay_lines<E>(
    start: impl Replayed,
    lines: impl IntoIterator<Item = Result<Line, E>>,
) -> Result<Verdict, E> {
    let mut state = start;
    let mut played = 0;
    for line in lines {
        let line = line?;
        let number = played + 1;
        let failed = |why: String| Verdict::Failed {
            line: number,
            why: format!("move {number} ({}): {why}", shown(&line)),
        };
        match &line {
            Err(why) => return Ok(failed(why.clone())),
            Ok(mv) => {
                if let Err(illegal) = state.try_apply(*mv) {
                    return Ok(failed(format!(
                        "{}: {}",
                        describe(*mv),
                        explain(state.rules(), mv.card, illegal)
                    )));
                }
            }
        }
        played = number;
    }
    Ok(if state.is_won() {
        Verdict::Won { moves: played }
    } else {
        Verdict::Failed {
            line: played + 1,
            why: format!(
                "after {played} moves: {} cards on the foundation, not won",
                state.score()
            ),
        }
    })
}

/// Replays moves known to be well formed (the search's self-check).
pub fn replay_moves(deal: &Deal, moves: &[Move]) -> Verdict {
    replay_moves_from(State::for_replay(deal), moves)
}

/// Replays moves known to be well formed from `start`, a position reached
/// from the deal (a player's, mid-game): move numbers count from there.
pub fn replay_moves_from(start: impl Replayed, moves: &[Move]) -> Verdict {
    let lines = moves.iter().map(|&mv| Ok::<Line, Infallible>(Ok(mv)));
    let Ok(verdict) = replay_lines(start, lines);
    verdict
}

fn shown(line: &Line) -> String {
    match line {
        Ok(mv) => mv.to_string(),
        Err(_) => "malformed".to_string(),
    }
}

/// Why the move is illegal, in the words of the game's rule.
pub(crate) fn explain(rules: &Rules, card: Card, illegal: Illegal) -> String {
    let game = rules.name;
    match illegal {
        Illegal::CardOnFoundation => "the card is already on the foundation".to_string(),
        Illegal::NotFoundationTop { top } => format!(
            "the card is on the foundation, under {}: only a pile's top card comes back",
            Name(top)
        ),
        Illegal::NoReturns => {
            format!("in {game} no card comes back from the foundation, even under xpat2's rules")
        }
        Illegal::NotThisGame => {
            "only Midnight Oil under --rules xpat2 redeals (R) and turns a column (U, D)"
                .to_string()
        }
        Illegal::NoRedealLeft => "both redeals are done: xpat2 allows two a game".to_string(),
        Illegal::TurnUsed => "the column's turn is done: xpat2 allows one a game".to_string(),
        Illegal::TurnNeedsBuried { top: true } => {
            "the card is a column's top card: a turn names a buried card".to_string()
        }
        Illegal::TurnNeedsBuried { top: false } => {
            "the card is not in a column: a turn names a buried card".to_string()
        }
        Illegal::CardBuried { covered_by } => format!(
            "the card is not accessible: {} lies on it",
            Name(covered_by)
        ),
        Illegal::TargetOnFoundation => "the target card is on the foundation".to_string(),
        Illegal::TargetInRegister => {
            "the target card is in a register, not on a column".to_string()
        }
        Illegal::TargetBuried { covered_by } => format!(
            "the target card is not a column's top card: {} lies on it",
            Name(covered_by)
        ),
        Illegal::TargetIsTheCard => "a card cannot go onto itself".to_string(),
        Illegal::WrongBuild { build, onto } => wrong_build(game, build, card, onto),
        Illegal::NoEmptyColumn => match rules.empty_column {
            EmptyColumn::Nothing => {
                format!("no empty column, and in {game} an empty column takes no card anyway")
            }
            _ => "no empty column".to_string(),
        },
        Illegal::EmptyColumnRefuses(EmptyColumn::KingsOnly) => {
            format!("in {game} an empty column takes only a King")
        }
        Illegal::EmptyColumnRefuses(_) => format!("in {game} an empty column takes no card"),
        Illegal::NoRegisters => format!("{game} has no registers"),
        Illegal::RegistersFull => "every register is full".to_string(),
        Illegal::RegisterToRegister => "the card is already in a register".to_string(),
        Illegal::FoundationIsForced => "with forced foundation moves a file never moves a card to the foundation: cards go up by themselves (a file with F lines is read with --foundation free or --rules xpat2)".to_string(),
        Illegal::NotNextUp { height: 0 } => format!(
            "its foundation is empty: {} goes up first",
            Name(card_of(1, suit(card)))
        ),
        Illegal::NotNextUp { height } => format!(
            "its foundation's top card is {}: {} goes up next",
            Name(card_of(height, suit(card))),
            Name(card_of(height + 1, suit(card)))
        ),
    }
}

/// Which part of `game`'s building rule `build` the move of `card` onto
/// `onto` breaks.
fn wrong_build(game: &str, build: Build, card: Card, onto: Card) -> String {
    let (card_name, onto_name) = (Name(card), Name(onto));
    if rank(onto) != rank(card) + 1 {
        return format!(
            "{onto_name} is not one rank higher than {card_name} ({game} builds down by one rank)"
        );
    }
    match build {
        Build::AlternateColour => format!(
            "{card_name} and {onto_name} are both {}: {game} builds in alternate colours",
            if is_red(card) { "red" } else { "black" },
        ),
        Build::SameSuit => {
            format!("{card_name} and {onto_name} are not of the same suit: {game} builds in suit")
        }
        // Any suit is refused only by rank, above; the rule in general.
        Build::AnySuit => format!("the target must be {}", build.describe()),
    }
}

/// The move in card names: `9♠ onto 10♥`, `9♠ to an empty column`.
fn describe(mv: Move) -> String {
    match mv.dest {
        Dest::Card(onto) => format!("{} onto {}", Name(mv.card), Name(onto)),
        Dest::EmptyColumn => format!("{} to an empty column", Name(mv.card)),
        Dest::Register => format!("{} to a register", Name(mv.card)),
        Dest::Foundation => format!("{} to the foundation", Name(mv.card)),
        Dest::TurnUp => format!("{} up to its column's top", Name(mv.card)),
        Dest::TurnDown => format!("the top card down beneath {}", Name(mv.card)),
        Dest::Redeal => "a redeal".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal as deal;
    use crate::solution::parse;

    #[test]
    fn nothing_played_is_not_won() {
        let v = replay(&deal("fc", 123), &parse(b""));
        assert!(matches!(v, Verdict::Failed { line: 1, .. }), "{v:?}");
    }

    #[test]
    fn the_first_bad_line_is_named() {
        // FreeCell 123: 9♠ (33) is the first column's top; a free cell is legal.
        let v = replay(&deal("fc", 123), &parse(b"33 T\n33 T\n"));
        match v {
            Verdict::Failed { line, why } => {
                assert_eq!(line, 2);
                assert!(why.contains("already in a register"), "{why}");
            }
            v => panic!("{v:?}"),
        }
        let v = replay(&deal("fc", 123), &parse(b"33 T\nx\n"));
        assert!(matches!(v, Verdict::Failed { line: 2, .. }));
    }

    /// Under free rules `F` takes only a suit's next card, and says which;
    /// under forced rules it is never a move of a file.
    #[test]
    fn a_foundation_move_names_the_card_that_goes_up_next() {
        let free = deal("fc", 123).with_foundation(crate::foundation::Foundation::Free);
        // Q♦ (47) tops the fifth column; A♦ is up once 2♥ has moved.
        let v = replay(&free, &parse(b"6 T\n3 F\n47 F\n"));
        let Verdict::Failed { line: 3, why } = v else {
            panic!("{v:?}");
        };
        assert_eq!(
            why,
            "move 3 (47 F): Q♦ to the foundation: its foundation's top card is A♦: 2♦ goes up next"
        );
        let v = replay(&free, &parse(b"6 T\n7 F\n"));
        let Verdict::Failed { line: 2, why } = v else {
            panic!("{v:?}");
        };
        assert!(
            why.ends_with("its foundation is empty: A♦ goes up first"),
            "{why}"
        );
        let v = replay(&deal("fc", 123), &parse(b"6 T\n3 F\n"));
        let Verdict::Failed { line: 2, why } = v else {
            panic!("{v:?}");
        };
        assert!(why.contains("with forced foundation moves"), "{why}");
    }

    #[test]
    fn a_game_without_registers_refuses_t() {
        let d = deal("bd", 1);
        let top = *State::new(&d).columns()[0].last().unwrap();
        let v = replay(&d, &parse(format!("{top} T\n").as_bytes()));
        match v {
            Verdict::Failed { line: 1, why } => assert!(why.contains("no registers"), "{why}"),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn a_stream_is_read_no_further_than_its_first_bad_line() {
        let mut pulled = 0;
        let lines = parse(b"33 T\n33 T\n1 T\n1 T\n")
            .into_iter()
            .inspect(|_| pulled += 1);
        let v = replay_lines(State::new(&deal("fc", 123)), lines.map(Ok::<_, ()>));
        assert!(matches!(v, Ok(Verdict::Failed { line: 2, .. })), "{v:?}");
        assert_eq!(pulled, 2);
        // A read error is no verdict.
        let lines = [Ok(parse(b"33 T")[0].clone()), Err("unreadable")];
        assert_eq!(
            replay_lines(State::new(&deal("fc", 123)), lines),
            Err("unreadable")
        );
    }
}

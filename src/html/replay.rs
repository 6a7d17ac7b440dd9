//! What the page shows, worked out in Rust: the deal laid out in xpat2's
//! piles, and for every move the single-card steps it makes there (the
//! move itself, then the foundation moves it causes), with the move in
//! words. The page's script only applies steps and draws.
//!
//! The steps are the very words of the project's xpat2 save
//! ([`crate::xpat2::words_on`]), so the page puts a card in the free cell
//! or empty column xpat2 would, and the two can never disagree.
//!
//! [`Replay`] yields one move at a time and keeps nothing of the moves
//! before: the page is written as the replay goes, in the same few
//! kilobytes for ten moves or a hundred thousand.

use crate::cards::{Card, Name};
use crate::deal::Deal;
use crate::state::{Dest, Move, State};
use crate::xpat2::{Board, words_on};
use crate::xpat2_load::pile_of;

/// One card going from one of xpat2's piles to another (pile numbers as
/// in `../shared/XPAT2-SAVE.md`: foundations 0..4 by suit, columns, free
/// cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub card: Card,
    pub from: usize,
    pub to: usize,
}

/// Where the page starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Every pile but the (always empty) deck, bottom card first, after the
    /// foundation moves of the deal itself: the position the text display
    /// shows.
    pub start: Vec<Vec<Card>>,
    /// Cards the deal itself sends to the foundation, in order.
    pub start_up: Vec<Card>,
}

/// One move as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Its steps: the move's own first.
    pub steps: Vec<Step>,
    /// The move in words.
    pub words: String,
}

/// The replay of a solution's moves, one [`Shown`] move at a time; it ends
/// with the moves, or at the first illegal one ([`Replay::stopped`] says
/// why).
pub struct Replay<I> {
    moves: I,
    /// The game's position: which moves are legal, and why not.
    state: State,
    /// xpat2's card array the move words are worked out on.
    layout: Board,
    /// xpat2's card array the words are played on, to read their steps.
    board: Board,
    played: usize,
    stopped: Option<String>,
}

impl<I: Iterator<Item = Move>> Replay<I> {
    /// The page's first position, and the replay of `moves` from it.
    pub fn new(deal: &Deal, moves: impl IntoIterator<IntoIter = I>) -> (Opening, Replay<I>) {
        let mut layout = Board::deal(deal);
        let mut board = Board::deal(deal);
        // The deal's own foundation moves: no move can fail to lay out.
        let up = words_on(&mut layout, &[]).unwrap_or_default();
        let start_up = up.into_iter().map(|w| play(&mut board, w).card).collect();
        let opening = Opening {
            start: piles(&board),
            start_up,
        };
        let replay = Replay {
            moves: moves.into_iter(),
            state: State::for_replay(deal),
            layout,
            board,
            played: 0,
            stopped: None,
        };
        (opening, replay)
    }

    /// Why the replay stopped before the end of the moves, once it has.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Ends the replay at move `number`, `mv`, saying why.
    fn stop(&mut self, number: usize, mv: Move, why: String) -> Option<Shown> {
        self.stopped = Some(format!("move {number} ({}) {why}", in_words(mv, &[])));
        None
    }
}

impl<I: Iterator<Item = Move>> Iterator for Replay<I> {
    type Item = Shown;

    fn next(&mut self) -> Option<Shown> {
        if self.stopped.is_some() {
            return None;
        }
        let mv = self.moves.next()?;
        let number = self.played + 1;
        if let Err(illegal) = self.state.try_apply(mv) {
            let why = crate::check::explain(self.state.rules(), mv.card, illegal);
            return self.stop(number, mv, format!("is illegal: {why}"));
        }
        // The move's word, then one per card that went up after it.
        let words = match words_on(&mut self.layout, &[mv]) {
            Ok(words) => words,
            Err(e) => {
                return self.stop(
                    number,
                    mv,
                    format!("cannot be laid out as xpat2 does: {}", e.root_cause()),
                );
            }
        };
        self.played = number;
        let steps: Vec<Step> = words
            .into_iter()
            .map(|w| play(&mut self.board, w))
            .collect();
        // A move sending its own card up is one of the cards up already.
        let own = usize::from(sends_itself_up(mv));
        let up: Vec<Card> = steps.iter().filter(|s| s.to < 4).map(|s| s.card).collect();
        let words = in_words(mv, &up[own.min(up.len())..]);
        Some(Shown { steps, words })
    }
}

/// Plays one xpat2 move word on the board; the step it makes.
fn play(board: &mut Board, word: u32) -> Step {
    let (src, to) = ((word & 0x1FF) as usize, ((word >> 9) & 0x7F) as usize);
    let from = pile_of(board, src);
    let card = board.pile(from)[src - board.first(from)];
    board.move_card(src, to);
    Step { card, from, to }
}

/// Every pile but the deck (the last), bottom card first.
fn piles(board: &Board) -> Vec<Vec<Card>> {
    (0..board.piles() - 1)
        .map(|p| board.pile(p).to_vec())
        .collect()
}

/// Whether a move's own card goes to the foundation: a free-rule move
/// (`CARD F`, SPEC §9).
fn sends_itself_up(mv: Move) -> bool {
    match mv.dest {
        Dest::Card(_) | Dest::EmptyColumn | Dest::Register => false,
        Dest::TurnUp | Dest::TurnDown | Dest::Redeal => false,
        Dest::Foundation => true,
    }
}

/// A move as a player says it, with the cards it sends up after it:
/// `9♠ onto 10♥`, `K♦ to an empty column, then A♦ 2♦ to the foundation`.
pub fn in_words(mv: Move, up: &[Card]) -> String {
    let card = Name(mv.card);
    let mut text = match mv.dest {
        Dest::Card(onto) => format!("{card} onto {}", Name(onto)),
        Dest::EmptyColumn => format!("{card} to an empty column"),
        Dest::Register => format!("{card} to a free cell"),
        Dest::Foundation => format!("{card} to the foundation"),
        Dest::TurnUp => format!("{card} turned up to its column's top"),
        Dest::TurnDown => format!("the top card turned down beneath {card}"),
        Dest::Redeal => "the columns dealt again".to_string(),
    };
    if !up.is_empty() {
        let names: Vec<String> = up.iter().map(|&c| Name(c).to_string()).collect();
        text += &format!(", then {} to the foundation", names.join(" "));
    }
    text
}

/// A whole replay at once, as the tests look at it.
#[cfg(test)]
#[derive(Debug)]
pub(super) struct Collected {
    pub start: Vec<Vec<Card>>,
    pub start_up: Vec<Card>,
    pub moves: Vec<Vec<Step>>,
    pub words: Vec<String>,
    pub stopped: Option<String>,
}

#[cfg(test)]
pub(super) fn collect(deal: &Deal, moves: &[Move]) -> Collected {
    let (opening, mut replay) = Replay::new(deal, moves.iter().copied());
    let (steps, words) = replay.by_ref().map(|s| (s.steps, s.words)).unzip();
    Collected {
        start: opening.start,
        start_up: opening.start_up,
        moves: steps,
        words,
        stopped: replay.stopped().map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal;

    fn mv(card: Card, dest: Dest) -> Move {
        Move { card, dest }
    }

    #[test]
    fn moves_read_as_a_player_says_them() {
        assert_eq!(in_words(mv(33, Dest::Card(38)), &[]), "9♠ onto 10♥");
        assert_eq!(
            in_words(mv(51, Dest::EmptyColumn), &[]),
            "K♦ to an empty column"
        );
        assert_eq!(
            in_words(mv(33, Dest::Register), &[3, 7]),
            "9♠ to a free cell, then A♦ 2♦ to the foundation"
        );
    }

    /// FreeCell 123: 2♥ to a free cell uncovers A♦, which goes up, and 2♦
    /// after it; free cells fill from the first, as in xpat2's save.
    #[test]
    fn a_move_carries_the_foundation_moves_it_causes() {
        let deal = test_deal("fc", 123);
        let replay = collect(&deal, &[mv(6, Dest::Register), mv(33, Dest::Card(38))]);
        assert!(replay.start_up.is_empty());
        assert_eq!(replay.start[4], deal.columns[0]);
        let (column_3, column_2, cell_0) = (6, 5, 12);
        assert_eq!(
            replay.moves[0],
            [
                Step {
                    card: 6,
                    from: column_3,
                    to: cell_0
                },
                Step {
                    card: 3,
                    from: column_3,
                    to: 3
                },
                Step {
                    card: 7,
                    from: column_2,
                    to: 3
                },
            ]
        );
        assert_eq!(
            replay.words[0],
            "2♥ to a free cell, then A♦ 2♦ to the foundation"
        );
        assert_eq!(
            replay.moves[1],
            [Step {
                card: 33,
                from: 4,
                to: column_2
            }]
        );
        assert_eq!(replay.stopped, None);
    }

    #[test]
    fn the_deals_own_foundation_moves_come_before_the_first_position() {
        // Seahaven 5 plays A♥ at once (the text display shows it up).
        let deal = test_deal("st", 5);
        let replay = collect(&deal, &[]);
        assert_eq!(replay.start_up, [2]);
        assert_eq!(replay.start[2], [2]);
        assert!(replay.moves.is_empty());
    }

    /// Under free rules a move sends its own card up and nothing else goes
    /// by itself: FreeCell 123's `6 T`, `3 F`, `7 F` are three steps.
    #[test]
    fn a_free_foundation_move_is_one_step_to_its_foundation() {
        let deal = test_deal("fc", 123).with_foundation(crate::foundation::Foundation::Free);
        let moves = [
            mv(6, Dest::Register),
            mv(3, Dest::Foundation),
            mv(7, Dest::Foundation),
        ];
        let replay = collect(&deal, &moves);
        assert_eq!(replay.stopped, None);
        assert_eq!(
            replay.moves.iter().map(Vec::len).collect::<Vec<_>>(),
            [1, 1, 1]
        );
        assert_eq!(replay.moves[1][0].to, 3, "diamonds' foundation");
        assert_eq!(replay.words[0], "2♥ to a free cell");
        assert_eq!(replay.words[1], "A♦ to the foundation");
    }

    #[test]
    fn an_illegal_move_ends_the_replay_and_says_why() {
        let deal = test_deal("fc", 123);
        let replay = collect(&deal, &[mv(6, Dest::Register), mv(6, Dest::Register)]);
        assert_eq!(replay.moves.len(), 1);
        let why = replay.stopped.unwrap();
        assert!(
            why.starts_with("move 2 (2♥ to a free cell) is illegal"),
            "{why}"
        );
    }
}

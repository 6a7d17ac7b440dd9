//! What the page shows, worked out in Rust: the deal laid out in xpat2's
//! piles, and for every move the single-card steps it makes there (the
//! move itself, then the foundation moves it causes), with the move in
//! words. The page's script only applies steps and draws.
//!
//! The steps are the very words of the project's xpat2 save
//! ([`crate::xpat2::words`]), so the page puts a card in the free cell or
//! empty column xpat2 would, and the two can never disagree.

use crate::cards::{Card, Name};
use crate::deal::Deal;
use crate::state::{Dest, Move, State};
use crate::xpat2::{self, Board};
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

/// The whole replay: where the page starts and every move after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Every pile but the (always empty) deck, bottom card first, after the
    /// foundation moves of the deal itself: the position the text display
    /// shows.
    pub start: Vec<Vec<Card>>,
    /// Cards the deal itself sends to the foundation, in order.
    pub start_up: Vec<Card>,
    /// Per move, its steps: the move's own first.
    pub moves: Vec<Vec<Step>>,
    /// Per move, the move in words.
    pub words: Vec<String>,
    /// Why the replay stops before the end of `moves`, if it does.
    pub stopped: Option<String>,
}

impl Replay {
    /// Replays the legal prefix of `moves`; an illegal move ends the
    /// replay and is reported in [`Replay::stopped`].
    pub fn new(deal: &Deal, moves: &[Move]) -> Replay {
        let mut state = State::for_replay(deal);
        let start_words = state.score() as usize;
        let mut counts = Vec::with_capacity(moves.len());
        let mut stopped = None;
        for (i, &mv) in moves.iter().enumerate() {
            let before = state.score();
            if let Err(illegal) = state.try_apply(mv) {
                stopped = Some(format!(
                    "move {} ({}) is illegal: {}",
                    i + 1,
                    in_words(mv, &[]),
                    crate::check::explain(state.rules(), mv.card, illegal)
                ));
                break;
            }
            // The move's word, then one per card that went up after it;
            // a move sending its own card up is one of those already.
            let up = (state.score() - before) as usize;
            counts.push(up + usize::from(!sends_itself_up(mv)));
        }
        let legal = &moves[..counts.len()];
        let all_words = match xpat2::words(deal, legal) {
            Ok(words) => words,
            Err(e) => {
                return Replay::empty(
                    deal,
                    format!("cannot lay the moves out as xpat2 does: {e:#}"),
                );
            }
        };
        let mut board = Board::deal(deal);
        let mut words = all_words.into_iter();
        let start_up: Vec<Card> = words
            .by_ref()
            .take(start_words)
            .map(|w| play(&mut board, w).card)
            .collect();
        let start = piles(&board);
        let mut replay = Replay {
            start,
            start_up,
            moves: Vec::with_capacity(legal.len()),
            words: Vec::with_capacity(legal.len()),
            stopped,
        };
        for (&mv, count) in legal.iter().zip(counts) {
            let steps: Vec<Step> = words
                .by_ref()
                .take(count)
                .map(|w| play(&mut board, w))
                .collect();
            let up: Vec<Card> = steps.iter().filter(|s| s.to < 4).map(|s| s.card).collect();
            replay
                .words
                .push(in_words(mv, &up[usize::from(sends_itself_up(mv))..]));
            replay.moves.push(steps);
        }
        replay
    }

    /// The deal with no move, and why.
    fn empty(deal: &Deal, why: String) -> Replay {
        let board = Board::deal(deal);
        Replay {
            start: piles(&board),
            start_up: Vec::new(),
            moves: Vec::new(),
            words: Vec::new(),
            stopped: Some(why),
        }
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
        let replay = Replay::new(&deal, &[mv(6, Dest::Register), mv(33, Dest::Card(38))]);
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
        let replay = Replay::new(&deal, &[]);
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
        let replay = Replay::new(&deal, &moves);
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
        let replay = Replay::new(&deal, &[mv(6, Dest::Register), mv(6, Dest::Register)]);
        assert_eq!(replay.moves.len(), 1);
        let why = replay.stopped.unwrap();
        assert!(
            why.starts_with("move 2 (2♥ to a free cell) is illegal"),
            "{why}"
        );
    }
}

//! What the page shows, worked out in Rust: the deal laid out in xpat2's
//! piles, and for every move what it changes there (the move itself, then
//! the foundation moves it causes), with the move in words. The page's
//! script only applies those changes and draws.
//!
//! A change is a single card going from a pile's top to another's
//! (`Step`), or, for what no single card's trip can show (Midnight Oil's
//! redeal and turn, SPEC §10), a pile's cards as they were and as they are
//! (`Rewrite`), both in `shown.rs`.
//!
//! The steps are the very words of the project's xpat2 save
//! ([`crate::xpat2::words_on`]), so the page puts a card in the free cell
//! or empty column xpat2 would, and the two can never disagree. A card back
//! from the foundation, which those words do not lay out yet, is put as
//! they put the other moves: onto the column's top card it names, or into
//! the first empty free cell or column.
//! Midnight Oil under xpat2's complete rules is replayed on its
//! [`Table`] (`table.rs`), whose columns keep the order a
//! redeal reads.
//!
//! [`Replay`] yields one move at a time and keeps nothing of the moves
//! before: the page is written as the replay goes, in the same few
//! kilobytes for ten moves or a hundred thousand.

use crate::cards::{Card, suit};
use crate::deal::Deal;
use crate::midnight::{self, Table};
use crate::rules::Rules;
use crate::state::{Dest, Move, State};
use crate::xpat2::{Board, words_on};

use super::shown::{Shown, Step};
use super::words::{back_in_words, in_words};

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

/// The replay of a solution's moves, one [`Shown`] move at a time; it ends
/// with the moves, or at the first illegal one ([`Replay::stopped`] says
/// why).
pub struct Replay<I> {
    moves: I,
    rules: &'static Rules,
    game: Game,
    played: usize,
    stopped: Option<String>,
}

/// The position a replay plays its moves on.
enum Game {
    /// Every game but Midnight Oil under xpat2's complete rules.
    Piles(Piles),
    /// Midnight Oil under xpat2's complete rules (SPEC §10).
    Table(Table),
}

/// A [`State`], with xpat2's card array beside it to lay its moves out.
struct Piles {
    /// The game's position: which moves are legal, and why not.
    state: State,
    /// xpat2's card array the move words are worked out on.
    layout: Board,
    /// xpat2's card array the words are played on, to read their steps.
    board: Board,
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
        let game = if midnight::plays(deal) {
            Game::Table(Table::for_replay(deal))
        } else {
            Game::Piles(Piles {
                state: State::for_replay(deal),
                layout,
                board,
            })
        };
        let replay = Replay {
            moves: moves.into_iter(),
            rules: deal.id.rules,
            game,
            played: 0,
            stopped: None,
        };
        (opening, replay)
    }

    /// Why the replay stopped before the end of the moves, once it has.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
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
        let shown = match &mut self.game {
            Game::Piles(piles) => piles.play(mv, self.rules),
            Game::Table(table) => super::table::play(table, mv, self.rules),
        };
        match shown {
            Ok(shown) => {
                self.played = number;
                Some(shown)
            }
            Err(why) => {
                // Ends the replay at this move, saying why.
                self.stopped = Some(format!("move {number} ({}) {why}", in_words(mv, &[])));
                None
            }
        }
    }
}

impl Piles {
    /// Plays `mv`: what the page shows of it, or why it cannot.
    fn play(&mut self, mv: Move, rules: &'static Rules) -> Result<Shown, String> {
        let back = self.board.pile(suit(mv.card) as usize).last() == Some(&mv.card);
        if let Err(illegal) = self.state.try_apply(mv) {
            let why = crate::check::explain(rules, mv.card, illegal);
            return Err(format!("is illegal: {why}"));
        }
        if back {
            return self.play_back(mv, rules);
        }
        // The move's word, then one per card that went up after it.
        let words = words_on(&mut self.layout, &[mv])
            .map_err(|e| format!("cannot be laid out as xpat2 does: {}", e.root_cause()))?;
        let steps: Vec<Step> = words
            .into_iter()
            .map(|w| play(&mut self.board, w))
            .collect();
        // A move sending its own card up is one of the cards up already.
        let own = usize::from(mv.dest == Dest::Foundation);
        let up: Vec<Card> = steps.iter().filter(|s| s.to < 4).map(|s| s.card).collect();
        let words = in_words(mv, &up[own.min(up.len())..]);
        Ok(Shown {
            mv,
            steps,
            rewrites: Vec::new(),
            words,
        })
    }

    /// Plays `mv`, a card back from its foundation pile (SPEC §10, legal),
    /// as the other moves are laid out: onto the column's top card it names, or into the
    /// first empty free cell or column. Nothing goes up after it: the rules
    /// that allow it play no card up by themselves.
    fn play_back(&mut self, mv: Move, rules: &'static Rules) -> Result<Shown, String> {
        let board = &self.layout;
        let empty = |p: &usize| board.pile(*p).is_empty();
        let mut columns = (0..rules.columns).map(|i| board.column_pile(i));
        let to = match mv.dest {
            Dest::Card(onto) => columns.find(|&p| board.pile(p).last() == Some(&onto)),
            Dest::EmptyColumn => columns.find(empty),
            Dest::Register => (0..rules.registers).map(|i| board.cell_pile(i)).find(empty),
            Dest::Foundation | Dest::TurnUp | Dest::TurnDown | Dest::Redeal => None,
        };
        let Some(to) = to else {
            return Err("cannot be laid out as xpat2 does: no such pile".to_string());
        };
        // The top card of its suit's foundation pile.
        let src = board.first(suit(mv.card) as usize + 1) - 1;
        let word = self.layout.move_card(src, to);
        let step = play(&mut self.board, word);
        Ok(Shown {
            mv,
            steps: vec![step],
            rewrites: Vec::new(),
            words: back_in_words(mv),
        })
    }
}

/// Plays one xpat2 move word on the board; the step it makes.
fn play(board: &mut Board, word: u32) -> Step {
    let (src, to) = ((word & 0x1FF) as usize, ((word >> 9) & 0x7F) as usize);
    let from = board.pile_of(src);
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

/// A whole replay at once, as the tests look at it.
#[cfg(test)]
#[derive(Debug)]
pub(super) struct Collected {
    pub start: Vec<Vec<Card>>,
    pub start_up: Vec<Card>,
    pub moves: Vec<Vec<Step>>,
    pub rewrites: Vec<Vec<super::shown::Rewrite>>,
    pub words: Vec<String>,
    pub stopped: Option<String>,
}

#[cfg(test)]
pub(super) fn collect(deal: &Deal, moves: &[Move]) -> Collected {
    let (opening, mut replay) = Replay::new(deal, moves.iter().copied());
    let shown: Vec<Shown> = replay.by_ref().collect();
    Collected {
        start: opening.start,
        start_up: opening.start_up,
        moves: shown.iter().map(|s| s.steps.clone()).collect(),
        rewrites: shown.iter().map(|s| s.rewrites.clone()).collect(),
        words: shown.into_iter().map(|s| s.words).collect(),
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

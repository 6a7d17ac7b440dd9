//! xpat2 save files (`../shared/XPAT2-SAVE.md`): a solution written so the
//! real xpat2 loads it and steps through it with Redo, or opens on the won
//! game with Replay available.
//!
//! xpat2 keeps every card in one array, pile after pile (foundations,
//! columns, free cells, an empty deck), and records a move as the array
//! index of the card and the pile it goes to. It replays those words
//! blindly, so the writer simulates that array itself ([`Board`]): a `T`
//! goes to the lowest-numbered empty free cell, a `V` to the lowest-numbered
//! empty column, and every foundation move — the forced ones of
//! normalization included, in the order [`State`] plays them — is a word of
//! its own.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::cards::{CARDS, Card, KING, Name, SUITS, card_of};
use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::rules::GameId;
use crate::solution;
use crate::state::{Dest, Move};

/// Where the saved game opens in xpat2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum At {
    /// On the deal, every move ready for Redo.
    Start,
    /// On the won position, every move replayed (Replay shows them again).
    End,
}

/// xpat2's magic number, `a[15]` of the header.
pub const MAGIC: i32 = 0x741a;
/// Bytes of the rule name at the head of the file.
const NAME_BYTES: usize = 32;
/// Integers of the header after the name.
const HEADER_INTS: usize = 32;
/// Move words are padded with zero words to a multiple of this.
const WORD_BLOCK: usize = 16;

/// xpat2's card array: all cards pile after pile, `first[p]` the index
/// where pile `p` starts (`first[piles] == 52`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    columns: usize,
    registers: usize,
    cards: Vec<Card>,
    first: Vec<usize>,
}

impl Board {
    /// The deal as xpat2 lays it out, nothing played: foundations empty,
    /// the columns in order (bottom card first), cards dealt to registers
    /// in free cells 0, 2, … (Seahaven's two extra cards), deck empty.
    pub fn deal(deal: &Deal) -> Board {
        let rules = deal.id.rules;
        let (columns, registers) = (rules.columns, rules.registers);
        let mut piles: Vec<Vec<Card>> = vec![Vec::new(); SUITS];
        piles.extend(deal.columns.iter().cloned());
        let mut cells = vec![Vec::new(); registers];
        for (i, &card) in deal.registers.iter().enumerate() {
            cells[2 * i] = vec![card];
        }
        piles.extend(cells);
        piles.push(Vec::new()); // the deck
        let mut first = Vec::with_capacity(piles.len() + 1);
        let mut cards = Vec::with_capacity(CARDS);
        for pile in &piles {
            first.push(cards.len());
            cards.extend(pile);
        }
        first.push(cards.len());
        Board {
            columns,
            registers,
            cards,
            first,
        }
    }

    /// Number of piles: foundations, columns, free cells, deck.
    pub fn piles(&self) -> usize {
        self.first.len() - 1
    }

    /// Pile number of column `i` (from 0).
    pub fn column_pile(&self, i: usize) -> usize {
        SUITS + i
    }

    /// Pile number of free cell `i` (from 0).
    pub fn cell_pile(&self, i: usize) -> usize {
        SUITS + self.columns + i
    }

    /// Cards of pile `p`, bottom first.
    pub fn pile(&self, p: usize) -> &[Card] {
        &self.cards[self.first[p]..self.first[p + 1]]
    }

    /// Where pile `p` starts in the array.
    pub fn first(&self, p: usize) -> usize {
        self.first[p]
    }

    fn is_column(&self, p: usize) -> bool {
        (SUITS..SUITS + self.columns).contains(&p)
    }

    fn is_cell(&self, p: usize) -> bool {
        (SUITS + self.columns..SUITS + self.columns + self.registers).contains(&p)
    }

    /// Array index and pile of `card`.
    fn locate(&self, card: Card) -> (usize, usize) {
        let index = self
            .cards
            .iter()
            .position(|&c| c == card)
            .expect("every card is in the array");
        let pile = (0..self.piles())
            .find(|&p| self.first[p] <= index && index < self.first[p + 1])
            .expect("every index is in a pile");
        (index, pile)
    }

    /// Is `card` a column's top card or in a free cell?
    fn is_accessible(&self, card: Card) -> bool {
        let (index, pile) = self.locate(card);
        (self.is_column(pile) && index + 1 == self.first[pile + 1]) || self.is_cell(pile)
    }

    /// Moves the card at `src` onto pile `dst` as xpat2 does, and returns
    /// the move word: low half `src | dst << 9`, high half
    /// `new_index | src_pile << 9`.
    pub fn move_card(&mut self, src: usize, dst: usize) -> u32 {
        let src_pile = (0..self.piles())
            .find(|&p| self.first[p] <= src && src < self.first[p + 1])
            .expect("a card index");
        let card = self.cards[src];
        let new = if src_pile < dst {
            let new = self.first[dst + 1] - 1;
            self.cards.copy_within(src + 1..=new, src);
            for q in src_pile + 1..=dst {
                self.first[q] -= 1;
            }
            new
        } else {
            let new = self.first[dst + 1];
            self.cards.copy_within(new..src, new + 1);
            for q in dst + 1..=src_pile {
                self.first[q] += 1;
            }
            new
        };
        self.cards[new] = card;
        let low = src as u32 | (dst as u32) << 9;
        let high = new as u32 | (src_pile as u32) << 9;
        low | high << 16
    }

    /// Plays every card that can go to the foundation, in the order
    /// `State`'s normalization does: rounds over the suits 0..3, each suit's
    /// next card if it is accessible, until a round plays nothing. Returns
    /// the words.
    fn normalize(&mut self) -> Vec<u32> {
        let mut words = Vec::new();
        loop {
            let mut played = false;
            for s in 0..SUITS as u8 {
                let height = self.pile(s as usize).len() as u8;
                if height < KING {
                    let next = card_of(height + 1, s);
                    if self.is_accessible(next) {
                        let (index, _) = self.locate(next);
                        words.push(self.move_card(index, s as usize));
                        played = true;
                    }
                }
            }
            if !played {
                return words;
            }
        }
    }

    /// Plays one solution move (legal, as replayed by [`State`]) and the
    /// foundation moves after it; returns the words.
    fn play(&mut self, mv: Move) -> Result<Vec<u32>> {
        let (src, src_pile) = self.locate(mv.card);
        if !self.is_accessible(mv.card) {
            bail!("{} is not accessible in xpat2's layout", Name(mv.card));
        }
        let empty = |board: &Board, p: usize| board.first[p] == board.first[p + 1];
        let dst = match mv.dest {
            Dest::Card(onto) => {
                let (index, pile) = self.locate(onto);
                if !self.is_column(pile) || index + 1 != self.first[pile + 1] {
                    bail!("{} is not a column's top card", Name(onto));
                }
                pile
            }
            Dest::EmptyColumn => (0..self.columns)
                .map(|i| self.column_pile(i))
                .find(|&p| empty(self, p))
                .context("no empty column")?,
            Dest::Register => (0..self.registers)
                .map(|i| self.cell_pile(i))
                .find(|&p| empty(self, p))
                .context("no empty free cell")?,
        };
        if dst == src_pile {
            bail!("{} would stay on its own pile", Name(mv.card));
        }
        let mut words = vec![self.move_card(src, dst)];
        words.extend(self.normalize());
        Ok(words)
    }
}

/// Every move word of a solution: the initial normalization's foundation
/// moves, then each move followed by the foundation moves it causes.
/// `Err` when a move does not fit xpat2's layout (never for a solution
/// that replays).
pub fn words(deal: &Deal, moves: &[Move]) -> Result<Vec<u32>> {
    let mut board = Board::deal(deal);
    let mut words = board.normalize();
    for (i, &mv) in moves.iter().enumerate() {
        let more = board
            .play(mv)
            .with_context(|| format!("move {} ({mv})", i + 1))?;
        words.extend(more);
    }
    Ok(words)
}

/// The save file's bytes for a solution. Nothing is produced unless the
/// moves replay to the won position.
pub fn save(deal: &Deal, moves: &[Move], at: At) -> Result<Vec<u8>> {
    if let Verdict::Failed { why, .. } = check::replay_moves(deal, moves) {
        bail!("not a solution, no xpat2 save written: {why}");
    }
    let words = words(deal, moves).context("cannot lay the solution out as xpat2 does")?;
    Ok(encode(deal.id, &words, at))
}

/// Header and words, big-endian (XPAT2-SAVE.md "Layout").
fn encode(id: GameId, words: &[u32], at: At) -> Vec<u8> {
    let n = words.len() as i32;
    let mut bytes = Vec::with_capacity(NAME_BYTES + 4 * HEADER_INTS + 4 * words.len() + 64);
    let name = id.rules.xpat2_name.as_bytes();
    bytes.extend_from_slice(name);
    bytes.resize(NAME_BYTES, 0);
    let mut a = [-1i32; HEADER_INTS];
    a[8] = id.seed as i32;
    a[9] = n;
    (a[10], a[12]) = match at {
        At::Start => (0, 0),
        At::End => (n, 1),
    };
    for i in [11, 13, 14, 16, 17] {
        a[i] = 0;
    }
    a[15] = MAGIC;
    for v in a {
        bytes.extend_from_slice(&v.to_be_bytes());
    }
    let padded = words.len().div_ceil(WORD_BLOCK) * WORD_BLOCK;
    for i in 0..padded {
        let w = words.get(i).copied().unwrap_or(0);
        bytes.extend_from_slice(&w.to_be_bytes());
    }
    bytes
}

/// xpat2's own name for a save: the rule name stripped to letters, digits
/// and `-`, a dot, the seed on 9 digits (`FreeCell.000000123`).
pub fn file_name(id: GameId) -> String {
    let name: String = id
        .rules
        .xpat2_name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    format!("{name}.{:09}", id.seed)
}

/// Writes the save of a solution to `path` (or to xpat2's own file name
/// inside it, when `path` is a directory), atomically; returns the path
/// written.
pub fn export(deal: &Deal, moves: &[Move], at: At, path: &Path) -> Result<PathBuf> {
    let bytes = save(deal, moves, at)?;
    let target = if path.is_dir() {
        path.join(file_name(deal.id))
    } else {
        path.to_path_buf()
    };
    solution::write_atomically(&target, &bytes)?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::suit;
    use crate::deal::test_deal as deal;
    use crate::rules::find;
    use crate::search::{self, Limits, Outcome};
    use crate::state::State;

    /// A solution of the first of `seeds` the search solves quickly.
    fn solve(game: &str, seeds: &[u32]) -> (Deal, Vec<Move>) {
        let limits = Limits {
            max_states: 2_000_000,
            ..Limits::default()
        };
        for &seed in seeds {
            let d = deal(game, seed);
            if let Outcome::Solved(moves) = search::search(&d, &limits, None).outcome {
                return (d, moves);
            }
        }
        panic!("{game}: none of {seeds:?} solved quickly");
    }

    fn be(bytes: &[u8], i: usize) -> i32 {
        i32::from_be_bytes(bytes[i..i + 4].try_into().unwrap())
    }

    #[test]
    fn worked_example_free_cell_123_nine_of_spades_to_cell_0() {
        // XPAT2-SAVE.md: column 0 is pile 4, indices 0..6, 9♠ (33) on top at
        // index 6; free cell 0 is pile 12 and first[13] is 52.
        let d = deal("fc", 123);
        let mut board = Board::deal(&d);
        assert_eq!(board.pile(4).last(), Some(&33));
        assert_eq!(board.first(13), 52);
        let initial = board.normalize();
        assert!(initial.is_empty(), "FreeCell 123 plays nothing at first");
        let words = board
            .play(Move {
                card: 33,
                dest: Dest::Register,
            })
            .unwrap();
        assert_eq!(words[0] & 0xFFFF, 6 | 12 << 9);
        assert_eq!(words[0] >> 16, 51 | 4 << 9);
        assert_eq!(board.pile(12), [33]);
        assert_eq!(board.pile(4).len(), 6);
    }

    #[test]
    fn seahaven_starts_with_its_two_cards_in_free_cells_0_and_2() {
        for seed in 1..=30 {
            let d = deal("st", seed);
            let board = Board::deal(&d);
            assert_eq!(board.piles(), 4 + 10 + 4 + 1);
            let (c0, c2) = (board.cell_pile(0), board.cell_pile(2));
            assert_eq!(board.pile(c0), [d.registers[0]], "st.{seed}");
            assert!(board.pile(board.cell_pile(1)).is_empty());
            assert_eq!(board.pile(c2), [d.registers[1]], "st.{seed}");
            assert!(board.pile(board.cell_pile(3)).is_empty());
            assert_eq!((board.first(c0), board.first(c2)), (50, 51));
            assert_eq!(board.first(board.piles()), 52);
        }
    }

    #[test]
    fn the_header_follows_the_document() {
        let (d, moves) = solve("bd", &[6, 1, 7, 5]);
        for at in [At::Start, At::End] {
            let bytes = save(&d, &moves, at).unwrap();
            assert_eq!(&bytes[..13], b"Baker's Dozen");
            assert!(bytes[13..32].iter().all(|&b| b == 0));
            let a: Vec<i32> = (0..32).map(|i| be(&bytes, 32 + 4 * i)).collect();
            let n = a[9];
            assert!(n as usize >= moves.len() + 52 - 4, "every card goes up");
            assert_eq!(a[8], d.id.seed as i32);
            let (replayed, finished) = if at == At::Start { (0, 0) } else { (n, 1) };
            assert_eq!((a[10], a[12]), (replayed, finished));
            assert_eq!(a[15], 0x741a);
            for i in [11, 13, 14, 16, 17] {
                assert_eq!(a[i], 0, "a[{i}]");
            }
            for (i, &v) in a.iter().enumerate() {
                if ![8, 9, 10, 11, 12, 13, 14, 15, 16, 17].contains(&i) {
                    assert_eq!(v, -1, "a[{i}]");
                }
            }
            let body = &bytes[160..];
            assert_eq!(body.len() % (4 * 16), 0);
            assert!(body.len() / 4 >= n as usize && body.len() / 4 < n as usize + 16);
            assert!(body[4 * n as usize..].iter().all(|&b| b == 0));
            assert!((0..n as usize).all(|i| be(body, 4 * i) != 0));
        }
    }

    #[test]
    fn file_names_are_xpat2s() {
        let id = |g: &str, seed| GameId {
            rules: find(g).unwrap(),
            seed,
        };
        assert_eq!(file_name(id("fc", 123)), "FreeCell.000000123");
        assert_eq!(file_name(id("bd", 999_999_999)), "BakersDozen.999999999");
        assert_eq!(file_name(id("mo", 7)), "MidnightOil.000000007");
        assert_eq!(file_name(id("st", 42)), "Seahaven.000000042");
    }

    #[test]
    fn nothing_is_written_for_a_non_solution() {
        let d = deal("fc", 123);
        let one = [Move {
            card: 33,
            dest: Dest::Register,
        }];
        assert!(save(&d, &one, At::Start).is_err());
        let dir = std::env::temp_dir().join(format!("xpat2-save-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(export(&d, &one, At::End, &dir).is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// An xpat2 card array kept as a list of piles, independent of
    /// [`Board`]: a word is decoded, checked against what xpat2 would
    /// record, and applied.
    struct Piles {
        piles: Vec<Vec<Card>>,
        columns: std::ops::Range<usize>,
        cells: std::ops::Range<usize>,
    }

    impl Piles {
        fn new(deal: &Deal) -> Piles {
            let r = deal.id.rules;
            let mut piles = vec![vec![]; 4];
            piles.extend(deal.columns.clone());
            let cells_start = piles.len();
            for i in 0..r.registers {
                piles.push(match i {
                    0 | 2 => deal
                        .registers
                        .get(i / 2)
                        .map(|&c| vec![c])
                        .unwrap_or_default(),
                    _ => vec![],
                });
            }
            piles.push(vec![]);
            assert_eq!(piles.iter().map(Vec::len).sum::<usize>(), 52);
            Piles {
                piles,
                columns: 4..cells_start,
                cells: cells_start..cells_start + r.registers,
            }
        }

        /// (pile, position in pile) of array index `index`.
        fn at(&self, mut index: usize) -> (usize, usize) {
            for (p, pile) in self.piles.iter().enumerate() {
                if index < pile.len() {
                    return (p, index);
                }
                index -= pile.len();
            }
            panic!("index out of the array");
        }

        fn index_of(&self, pile: usize, pos: usize) -> usize {
            self.piles[..pile].iter().map(Vec::len).sum::<usize>() + pos
        }

        /// Applies a word; returns the destination pile.
        fn apply(&mut self, word: u32) -> usize {
            let (src, dst) = ((word & 0x1FF) as usize, ((word >> 9) & 0x7F) as usize);
            let (new, src_pile) = (((word >> 16) & 0x1FF) as usize, (word >> 25) as usize);
            let (p, pos) = self.at(src);
            assert_eq!(p, src_pile, "high half names the source pile");
            assert_eq!(pos + 1, self.piles[p].len(), "only a top card moves");
            assert!(dst < self.piles.len() - 1 && dst != p);
            let card = self.piles[p].pop().unwrap();
            if dst < 4 {
                assert_eq!(suit(card) as usize, dst, "a foundation takes its suit");
                assert_eq!(self.piles[dst].len() as u8, card / 4, "in rank order");
            } else if self.cells.contains(&dst) {
                assert!(self.piles[dst].is_empty(), "a free cell holds one card");
            } else {
                assert!(self.columns.contains(&dst));
            }
            self.piles[dst].push(card);
            assert_eq!(new, self.index_of(dst, self.piles[dst].len() - 1));
            dst
        }

        fn assert_matches(&self, state: &State, what: &str) {
            let found: Vec<u8> = (0..4).map(|s| self.piles[s].len() as u8).collect();
            assert_eq!(found, state.foundation(), "{what}: foundations");
            let mut columns: Vec<Vec<Card>> = self.piles[self.columns.clone()]
                .iter()
                .filter(|c| !c.is_empty())
                .cloned()
                .collect();
            let mut expected = state.columns();
            columns.sort();
            expected.sort();
            assert_eq!(columns, expected, "{what}: columns");
            let mut cells: Vec<Card> = self.piles[self.cells.clone()].concat();
            cells.sort();
            assert_eq!(
                cells,
                state.registers().collect::<Vec<_>>(),
                "{what}: cells"
            );
            assert!(self.piles.last().unwrap().is_empty(), "{what}: deck");
        }
    }

    #[test]
    fn round_trip_through_the_written_words_for_every_game() {
        for (game, seeds) in [
            ("fc", &[1, 2, 3][..]),
            ("st", &[8, 1, 2, 3]),
            ("mo", &[4, 1, 2, 3]),
            ("bd", &[6, 1, 7, 5]),
        ] {
            let (d, moves) = solve(game, seeds);
            let bytes = save(&d, &moves, At::End).unwrap();
            let n = be(&bytes, 32 + 4 * 9) as usize;
            let words: Vec<u32> = (0..n).map(|i| be(&bytes, 160 + 4 * i) as u32).collect();
            let mut piles = Piles::new(&d);
            let mut state = State::new(&d);
            let mut w = words.iter().peekable();
            // The initial normalization: foundation words first.
            while let Some(&&word) = w.peek() {
                if (word >> 9) & 0x7F >= 4 {
                    break;
                }
                piles.apply(word);
                w.next();
            }
            piles.assert_matches(&state, &format!("{}: start", d.id));
            for (i, &mv) in moves.iter().enumerate() {
                let word = *w.next().expect("a word per move");
                let (src, _) = piles.at((word & 0x1FF) as usize);
                assert_eq!(piles.piles[src].last(), Some(&mv.card), "move {}", i + 1);
                let dst = piles.apply(word);
                assert!(dst >= 4, "a solution move is not a foundation move");
                match mv.dest {
                    Dest::Card(onto) => {
                        let pile = &piles.piles[dst];
                        assert_eq!(pile[pile.len() - 2], onto, "move {}", i + 1);
                    }
                    Dest::EmptyColumn => {
                        assert!(piles.columns.contains(&dst) && piles.piles[dst].len() == 1)
                    }
                    Dest::Register => assert!(piles.cells.contains(&dst)),
                }
                while let Some(&&word) = w.peek() {
                    if (word >> 9) & 0x7F >= 4 {
                        break;
                    }
                    piles.apply(word);
                    w.next();
                }
                state.apply(mv);
                piles.assert_matches(&state, &format!("{} move {}", d.id, i + 1));
            }
            assert!(w.next().is_none(), "{}: no word left over", d.id);
            assert!(state.is_won());
            assert!((0..4).all(|s| piles.piles[s].len() == 13), "{}", d.id);
        }
    }
}

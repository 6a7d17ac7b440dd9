//! Test support for the save files: solutions found by the real search,
//! and an xpat2 card array independent of `Board` (a list of piles) that
//! decodes each written word as the document describes it, checks it
//! against what xpat2 would record and applies it, so the words are
//! proven to replay the solution.

use std::iter::Peekable;
use std::slice::Iter;

use super::{At, HEADER_BYTES, NAME_BYTES, save, slot};
use crate::cards::{Card, suit};
use crate::deal::Deal;
use crate::deal::test_deal as deal;
use crate::foundation::Foundation;
use crate::search::{self, Limits, Outcome};
use crate::state::Move;
use crate::state::{Dest, State};

/// A solution of the first of `seeds` the search solves quickly.
pub(super) fn solve(game: &str, seeds: &[u32]) -> (Deal, Vec<Move>) {
    solve_by(game, seeds, Foundation::Forced)
}

/// [`solve`] under the foundation rule `foundation`.
pub(super) fn solve_by(game: &str, seeds: &[u32], foundation: Foundation) -> (Deal, Vec<Move>) {
    let limits = Limits {
        max_states: 2_000_000,
        ..Limits::default()
    };
    for &seed in seeds {
        let d = deal(game, seed).with_foundation(foundation);
        if let Outcome::Solved(moves) = search::search(&d, &limits, None).outcome {
            return (d, moves);
        }
    }
    panic!("{game}: none of {seeds:?} solved quickly");
}

/// The big-endian integer at byte `i`.
pub(super) fn be(bytes: &[u8], i: usize) -> i32 {
    i32::from_be_bytes(bytes[i..i + 4].try_into().unwrap())
}

/// The pile a word sends its card to (bits 9..16, XPAT2-SAVE.md).
fn destination(word: u32) -> usize {
    ((word >> 9) & 0x7F) as usize
}

/// An xpat2 card array kept as a list of piles, independent of
/// `Board`: a word is decoded, checked against what xpat2 would
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
            let dealt = r.xpat2_cells.iter().position(|&cell| cell == i);
            piles.push(dealt.map(|k| vec![deal.registers[k]]).unwrap_or_default());
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
        let (src, dst) = ((word & 0x1FF) as usize, destination(word));
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

    /// Applies the words up to the next one that is not a foundation move:
    /// those of a forced normalization (under free rules there are none,
    /// and the next foundation word is a move of the solution).
    fn apply_foundation_words(&mut self, d: &Deal, words: &mut Peekable<Iter<u32>>) {
        if d.foundation == Foundation::Free {
            return;
        }
        while let Some(&word) = words.next_if(|&&word| destination(word) < 4) {
            self.apply(word);
        }
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

/// Under both foundation rules: under free rules the solution's own `F`
/// moves are the foundation words, and no other word sends a card up.
#[test]
fn round_trip_through_the_written_words_for_every_game() {
    let games = [
        ("fc", &[1, 2, 3][..]),
        ("st", &[8, 1, 2, 3]),
        ("mo", &[4, 1, 2, 3]),
        ("bd", &[6, 1, 7, 5]),
    ];
    for ((game, seeds), foundation) in games
        .into_iter()
        .flat_map(|g| Foundation::ALL.map(|f| (g, f)))
    {
        let (d, moves) = solve_by(game, seeds, foundation);
        let bytes = save(&d, &moves, At::End).unwrap();
        let n = be(&bytes, NAME_BYTES + 4 * slot::MOVES) as usize;
        let words: Vec<u32> = (0..n)
            .map(|i| be(&bytes, HEADER_BYTES + 4 * i) as u32)
            .collect();
        let mut piles = Piles::new(&d);
        let mut state = State::for_replay(&d);
        let mut w = words.iter().peekable();
        // The initial normalization: foundation words first.
        piles.apply_foundation_words(&d, &mut w);
        piles.assert_matches(&state, &format!("{}: start", d.id));
        for (i, &mv) in moves.iter().enumerate() {
            let word = *w.next().expect("a word per move");
            let (src, _) = piles.at((word & 0x1FF) as usize);
            assert_eq!(piles.piles[src].last(), Some(&mv.card), "move {}", i + 1);
            let dst = piles.apply(word);
            assert_eq!(dst < 4, mv.dest == Dest::Foundation, "move {}", i + 1);
            match mv.dest {
                Dest::Card(onto) => {
                    let pile = &piles.piles[dst];
                    assert_eq!(pile[pile.len() - 2], onto, "move {}", i + 1);
                }
                Dest::EmptyColumn => {
                    assert!(piles.columns.contains(&dst) && piles.piles[dst].len() == 1)
                }
                Dest::Register => assert!(piles.cells.contains(&dst)),
                Dest::Foundation => assert_eq!(dst, suit(mv.card) as usize),
                Dest::TurnUp | Dest::TurnDown | Dest::Redeal => unreachable!("forced files"),
            }
            piles.apply_foundation_words(&d, &mut w);
            state.apply(mv);
            piles.assert_matches(&state, &format!("{} move {}", d.id, i + 1));
        }
        assert!(w.next().is_none(), "{}: no word left over", d.id);
        assert!(state.is_won());
        assert!((0..4).all(|s| piles.piles[s].len() == 13), "{}", d.id);
    }
}

//! Midnight Oil's redeal and turn, exactly as xpat2 1.07 does them (SPEC
//! §10, issue 26). Pure functions on columns (column 1 first, each from its
//! bottom card to its top card, cards as SPEC §2 numbers).
//!
//! What xpat2's source says (public repository srhodus/xpat2-1.07):
//!
//! - **Redeal** (key `d`, `DealCards`): `r_Midnight.c` `MO_DealCards`.
//!   Allowed while `rules.param[1]` (2) exceeds `game.counter[1]`, the
//!   redeals made (`MO_new_cards`). It moves, one `do_move` each, every
//!   non-empty column 2..18 whole onto column 1 (so column 1 then holds
//!   the cards of column 1, 2, ..., 18 in that order, bottom first); then,
//!   from column 1 on, while a column holds more than `faceup + facedown`
//!   = 3 cards, it moves the cards above its third onto the next column;
//!   then `moves.c` `SlotShuffle(1)` shuffles the cards of the columns.
//! - **The shuffle** (`SlotShuffle`): `num` is the number of cards on the
//!   columns (`INDEX_OF_FIRST_CARD(LAST_SLOT+1) - INDEX_OF_FIRST_CARD
//!   (FIRST_SLOT)`: foundation cards are not counted), read as one array
//!   from the bottom of column 1 to the top of column 18. It calls
//!   `sprand(game.seed)` *every time*: the generator restarts from the
//!   deal's own seed for the first and the second redeal alike, and
//!   `util.c` `sprand` throws the first 165 draws away as for the deal.
//!   Then `tab[i] = myrand(num - i) + i` for `i` in `0..num` (`myrand` is
//!   SPEC §3's `reduce`), then for each `i` in that order the cards at `i`
//!   and `tab[i]` are swapped. Undo runs the same swaps in reverse order
//!   (`SlotShuffle(0)`), which [`slot_unshuffle`] mirrors.
//! - **Turn** (one per game, `rules.param[3]` = 1, counted in
//!   `game.counter[3]`): `commands.c` `cmd_RotateUp` (key `f`) and
//!   `cmd_RotateDown` (key `b`) arm a selection; the next card clicked on a
//!   column is turned by `moves.c` `RotateUp` or `RotateDown`
//!   (`button_pressed`). [`turn_down`] is `RotateUp`, [`turn_up`] is
//!   `RotateDown`. xpat2 accepts the top card too, a turn that changes
//!   nothing but uses the game's one turn.

use crate::cards::Card;
use crate::shuffle::{Generator, reduce};

/// Cards per column in a Midnight Oil deal and after a redeal
/// (`rules.faceup + rules.facedown` in `MO_DealCards`).
pub const CARDS_PER_COLUMN: usize = 3;

/// The columns after a redeal of `columns` in the deal of `seed`: gathered,
/// cut into columns of three from column 1 on, then shuffled by
/// [`slot_shuffle`]. As many columns come back as went in (xpat2's 18);
/// if the cards overflow them (impossible with 52 cards on 18 columns) the
/// last column keeps the rest, as xpat2's cut stops at the last column.
pub fn redeal(columns: &[Vec<Card>], seed: u32) -> Vec<Vec<Card>> {
    let mut cards: Vec<Card> = columns.iter().flatten().copied().collect();
    slot_shuffle(&mut cards, seed);
    cut(&cards, columns.len())
}

/// Cuts `cards` (bottom of column 1 first) into `count` columns of
/// [`CARDS_PER_COLUMN`], the last ones empty, the last column taking any
/// overflow.
fn cut(cards: &[Card], count: usize) -> Vec<Vec<Card>> {
    let mut out = Vec::with_capacity(count);
    let mut rest = cards;
    for i in 0..count {
        let take = if i + 1 == count {
            rest.len()
        } else {
            rest.len().min(CARDS_PER_COLUMN)
        };
        out.push(rest[..take].to_vec());
        rest = &rest[take..];
    }
    out
}

/// The swap targets of `SlotShuffle` for `num` cards: `tab[i]` in `i..num`.
fn swap_table(num: usize, seed: u32) -> Vec<usize> {
    let mut generator = Generator::new(seed);
    (0..num)
        .map(|i| reduce(generator.draw(), num - i) + i)
        .collect()
}

/// xpat2's `SlotShuffle(1)`: `cards` are the columns' cards as one array
/// (bottom of column 1 first); the generator restarts from `seed`.
/// Shuffling before or after the cut gives the same columns, since the cut
/// keeps the array's order.
pub fn slot_shuffle(cards: &mut [Card], seed: u32) {
    for (i, t) in swap_table(cards.len(), seed).into_iter().enumerate() {
        cards.swap(i, t);
    }
}

/// xpat2's `SlotShuffle(0)` (undo of a redeal): the swaps of
/// [`slot_shuffle`] in reverse order, which undoes it.
pub fn slot_unshuffle(cards: &mut [Card], seed: u32) {
    for (i, t) in swap_table(cards.len(), seed).into_iter().enumerate().rev() {
        cards.swap(i, t);
    }
}

/// xpat2's `RotateDown` (key `b`, then a click on the card): the card at
/// `index` (0 = bottom) comes to the top of its column, the cards above it
/// each going down one place. False, and nothing changed, when `index` is
/// not in the column.
pub fn turn_up(column: &mut Vec<Card>, index: usize) -> bool {
    if index >= column.len() {
        return false;
    }
    let card = column.remove(index);
    column.push(card);
    true
}

/// xpat2's `RotateUp` (key `f`, then a click on the card): the top card
/// goes down to lie directly beneath the card at `index`, which with the
/// cards above it goes up one place. False, and nothing changed, when
/// `index` is not in the column.
pub fn turn_down(column: &mut Vec<Card>, index: usize) -> bool {
    if index >= column.len() {
        return false;
    }
    let top = column.pop().expect("the column holds the card at index");
    column.insert(index, top);
    true
}

// --- How xpat2 records them (xpatgame.h, moves.c, r_Midnight.c) -----------
//
// A word's low half is `src_index | dst_pile << 9`, its high half
// `new_index | src_pile << 9` (do_move); a special word has bits 15 and 31
// set, its kind in bits 16..31 and an argument in bits 0..14.

/// Opens a group of words that undo and redo treat as one move.
pub const COMPOUND_BEGIN: u32 = 0xfff0_8000;
/// Closes the group [`COMPOUND_BEGIN`] opened.
pub const COMPOUND_END: u32 = 0xfff1_8000;
/// `RotateUp` ([`turn_down`]), `| card index`: key `f`.
pub const ROTATE_UP: u32 = 0xfff3_8000;
/// `RotateDown` ([`turn_up`]), `| card index`: key `b`.
pub const ROTATE_DOWN: u32 = 0xfff4_8000;
/// `SlotShuffle(1)` on redo, `SlotShuffle(0)` on undo.
pub const SHUFFLING: u32 = 0xfff5_8000;
/// Pile number of column 1 in Midnight Oil (after the 4 foundations).
const FIRST_COLUMN_PILE: usize = 4;

/// A plain move word: the card at array index `src` (with every card above
/// it in its pile) from pile `src_pile` to pile `dst_pile`, landing at
/// array index `new`.
fn move_word(src: usize, dst_pile: usize, new: usize, src_pile: usize) -> u32 {
    let half = |index: usize, pile: usize| (index | pile << 9) as u32;
    half(src, dst_pile) | half(new, src_pile) << 16
}

/// The words xpat2 stores for a redeal of `columns` when `on_foundation`
/// cards lie on the foundations (the cards' array starts with them):
/// [`COMPOUND_BEGIN`]; one word per non-empty column 2..18 moving it whole
/// onto column 1; one word per cut moving the cards above column k's third
/// onto column k+1; [`SHUFFLING`]; [`COMPOUND_END`]. Checked against saves
/// the real xpat2 wrote (`tests/fixtures/xpat2/mo1-*.xpat2`).
pub fn redeal_words(columns: &[Vec<Card>], on_foundation: usize) -> Vec<u32> {
    let mut words = vec![COMPOUND_BEGIN];
    // The cards never move in the array while piles merge and split: a
    // column's block stays where it is, only the piles' bounds change.
    let mut start = on_foundation;
    for (c, column) in columns.iter().enumerate() {
        if c > 0 && !column.is_empty() {
            words.push(move_word(
                start,
                FIRST_COLUMN_PILE,
                start,
                FIRST_COLUMN_PILE + c,
            ));
        }
        start += column.len();
    }
    let mut remaining: usize = columns.iter().map(Vec::len).sum();
    let mut index = on_foundation;
    for c in 0..columns.len().saturating_sub(1) {
        if remaining <= CARDS_PER_COLUMN {
            break;
        }
        index += CARDS_PER_COLUMN;
        remaining -= CARDS_PER_COLUMN;
        let pile = FIRST_COLUMN_PILE + c;
        words.push(move_word(index, pile + 1, index, pile));
    }
    words.push(SHUFFLING);
    words.push(COMPOUND_END);
    words
}

/// The word of [`turn_up`] (`RotateDown`, key `b`) on the card at array
/// index `card_index` (foundation cards first, then the columns in order).
pub fn turn_up_word(card_index: usize) -> u32 {
    ROTATE_DOWN | card_index as u32
}

/// The word of [`turn_down`] (`RotateUp`, key `f`) on the card at array
/// index `card_index`.
pub fn turn_down_word(card_index: usize) -> u32 {
    ROTATE_UP | card_index as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shuffle::permutation;

    /// Midnight Oil's deal of `seed`: 17 columns of 3, then 1 (SPEC §4).
    fn deal(seed: u32) -> Vec<Vec<Card>> {
        permutation(seed).chunks(3).map(<[Card]>::to_vec).collect()
    }

    fn sorted(columns: &[Vec<Card>]) -> Vec<Card> {
        let mut all: Vec<Card> = columns.iter().flatten().copied().collect();
        all.sort_unstable();
        all
    }

    #[test]
    fn a_redeal_keeps_the_cards_and_cuts_into_threes() {
        for seed in [1, 2, 123_456_789] {
            let before = deal(seed);
            let after = redeal(&before, seed);
            assert_eq!(after.len(), 18);
            assert_eq!(sorted(&after), sorted(&before));
            let sizes: Vec<usize> = after.iter().map(Vec::len).collect();
            assert_eq!(sizes[..17], [3; 17], "seed {seed}");
            assert_eq!(sizes[17], 1, "seed {seed}");
            assert_ne!(after, before, "seed {seed}: the redeal moved nothing");
        }
    }

    #[test]
    fn fewer_cards_leave_the_last_columns_empty() {
        // 8 cards spread over odd columns: gathered, cut 3 3 2, rest empty.
        let mut columns = vec![Vec::new(); 18];
        columns[0] = vec![10, 11];
        columns[4] = vec![12];
        columns[9] = vec![13, 14, 15];
        columns[17] = vec![16, 17];
        let after = redeal(&columns, 7);
        let sizes: Vec<usize> = after.iter().map(Vec::len).collect();
        let mut want = vec![0; 18];
        want[..3].copy_from_slice(&[3, 3, 2]);
        assert_eq!(sizes, want);
        assert_eq!(sorted(&after), (10..18).collect::<Vec<Card>>());
    }

    /// A small case computed by hand from the generator: for 4 cards the
    /// swap table is `reduce(d0, 4)`, `reduce(d1, 3) + 1`,
    /// `reduce(d2, 2) + 2`, 3, with the seed's first three draws after the
    /// 165 thrown away; each swap is applied in turn to [a b c d].
    #[test]
    fn a_small_shuffle_matches_the_swaps_worked_by_hand() {
        let seed = 1;
        let mut generator = Generator::new(seed);
        let d: Vec<u32> = (0..3).map(|_| generator.draw()).collect();
        let tab = [
            (d[0] as f64 / 1e9 * 4.0) as usize,
            (d[1] as f64 / 1e9 * 3.0) as usize + 1,
            (d[2] as f64 / 1e9 * 2.0) as usize + 2,
        ];
        let mut want = [20, 21, 22, 23];
        for (i, &t) in tab.iter().enumerate() {
            want.swap(i, t);
        }
        let mut cards = [20, 21, 22, 23];
        slot_shuffle(&mut cards, seed);
        assert_eq!(cards, want);
        // And the first draws of seed 1 are those of the deal: its last
        // card is the one the first draw picked from 0..52.
        assert_eq!(permutation(1)[51], reduce(d[0], 52) as Card);
    }

    #[test]
    fn the_second_redeal_restarts_the_generator() {
        // Restarting from the seed, the same 52 cards in the same order
        // shuffle the same way: two redeals are one shuffle applied twice.
        let first = redeal(&deal(5), 5);
        let second = redeal(&first, 5);
        let mut twice: Vec<Card> = deal(5).concat();
        slot_shuffle(&mut twice, 5);
        slot_shuffle(&mut twice, 5);
        assert_eq!(second.concat(), twice);
    }

    #[test]
    fn unshuffle_undoes_the_shuffle() {
        for n in [0, 1, 2, 17, 52] {
            let start: Vec<Card> = (0..n as Card).collect();
            let mut cards = start.clone();
            slot_shuffle(&mut cards, 99);
            slot_unshuffle(&mut cards, 99);
            assert_eq!(cards, start, "{n} cards");
        }
    }

    /// The move words of a save the real xpat2 wrote (big-endian, after
    /// the 160-byte header; `a[9]` words).
    fn fixture_words(name: &str) -> Vec<u32> {
        let path = format!("{}/tests/fixtures/xpat2/{name}", env!("CARGO_MANIFEST_DIR"));
        let data = std::fs::read(path).expect("fixture");
        let word = |at: usize| u32::from_be_bytes(data[at..at + 4].try_into().unwrap());
        let n = word(32 + 4 * 9) as usize;
        (0..n).map(|i| word(160 + 4 * i)).collect()
    }

    #[test]
    fn redeal_words_are_those_xpat2_saved() {
        let deal1 = deal(1);
        let first = redeal_words(&deal1, 0);
        assert_eq!(first.len(), 37);
        assert_eq!(fixture_words("mo1-redeal.xpat2"), first);
        let mut both = first.clone();
        both.extend(redeal_words(&redeal(&deal1, 1), 0));
        assert_eq!(fixture_words("mo1-two-redeals.xpat2"), both);
    }

    #[test]
    fn redeal_words_after_cards_went_up_are_those_xpat2_saved() {
        // A♠ (card 1, top of column 14) up, a redeal, A♦ (card 3) up, a
        // redeal: the foundation moves are plain words between them.
        let words = fixture_words("mo1-up-redeals.xpat2");
        let mut columns = deal(1);
        assert_eq!(columns[13].pop(), Some(1));
        assert_eq!(words[0], 41 | 1 << 9 | (17 << 9) << 16);
        let first = redeal_words(&columns, 1);
        assert_eq!(words[1..1 + first.len()], first);
        columns = redeal(&columns, 1);
        let c = columns.iter().position(|c| c.last() == Some(&3)).unwrap();
        columns[c].pop();
        let second = redeal_words(&columns, 2);
        assert_eq!(words[words.len() - second.len()..], second);
        assert_eq!(words.len(), 1 + first.len() + 1 + second.len());
    }

    #[test]
    fn turn_words_are_those_xpat2_saved() {
        assert_eq!(fixture_words("mo1-turn-up.xpat2"), [turn_up_word(0)]);
        assert_eq!(fixture_words("mo2-turn-down.xpat2"), [turn_down_word(13)]);
    }

    #[test]
    fn turns_move_one_card_and_undo_each_other() {
        let mut column = vec![1, 2, 3];
        assert!(turn_up(&mut column, 0));
        assert_eq!(column, [2, 3, 1]);
        assert!(turn_down(&mut column, 0));
        assert_eq!(column, [1, 2, 3]);
        assert!(turn_down(&mut column, 1));
        assert_eq!(column, [1, 3, 2]);
        assert!(turn_up(&mut column, 1));
        assert_eq!(column, [1, 2, 3]);
        // The top card: xpat2 turns it in place.
        assert!(turn_up(&mut column, 2));
        assert!(turn_down(&mut column, 2));
        assert_eq!(column, [1, 2, 3]);
        // Outside the column: refused, nothing changed.
        assert!(!turn_up(&mut column, 3));
        assert!(!turn_down(&mut Vec::new(), 0));
        assert_eq!(column, [1, 2, 3]);
    }
}

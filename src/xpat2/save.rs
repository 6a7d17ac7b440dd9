//! Writing a save: a solution laid out so the real xpat2 loads it and
//! steps through it with Redo, or opens on the won game with Replay
//! available.
//!
//! xpat2 keeps every card in one array, pile after pile (foundations,
//! columns, free cells, an empty deck), and records a move as the array
//! index of the card and the pile it goes to; [`board`](super::board)
//! simulates that array to turn a solution into those words. This file
//! lays the words out behind the file's header.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::board;
use super::{At, HEADER_BYTES, HEADER_INTS, MAGIC, NAME_BYTES, slot};
use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::midnight::{self, Table};
use crate::redeal::{ROTATE_DOWN, ROTATE_UP};
use crate::rules::GameId;
use crate::solution;
use crate::state::Move;

/// Move words are padded with zero words to a multiple of this.
const WORD_BLOCK: usize = 16;
/// What a header slot holds when xpat2 gives it no meaning.
const UNUSED: i32 = -1;

/// The save file's bytes for a solution. Nothing is produced unless the
/// moves replay to the won position.
pub fn save(deal: &Deal, moves: &[Move], at: At) -> Result<Vec<u8>> {
    let verdict = if midnight::plays(deal) {
        check::replay_moves_from(Table::for_replay(deal), moves)
    } else {
        check::replay_moves(deal, moves)
    };
    if let Verdict::Failed { why, .. } = verdict {
        bail!("not a solution, no xpat2 save written: {why}");
    }
    let words = board::words(deal, moves).context("cannot lay the solution out as xpat2 does")?;
    let replayed = match at {
        At::Start => 0,
        At::End => words.len(),
    };
    Ok(encode(deal.id, &words, replayed))
}

/// Whether a word is a turn of a column (`ROTATE_UP` or `ROTATE_DOWN`
/// with a card index).
fn is_turn(word: u32) -> bool {
    let kind = word & !0x7FFF;
    kind == ROTATE_UP || kind == ROTATE_DOWN
}

/// The header's integers for `words`, the first `replayed` of them played
/// when xpat2 loads the file (all of them: the game is won).
///
/// The redeals made (`a[13]`) are written 0 whatever the words hold:
/// xpat2 1.07's `load_game` replays a redeal's words without counting it,
/// then asserts that its count equals `a[13]`, so it aborts on any save
/// whose `a[13]` is not 0, its own included
/// (`docs/xpat2-complete-rules.md`, "xpat2 reopening saves with
/// redeals"). With 0 it opens on the right layout. Redoing a turn counts
/// it, so `a[16]` holds the turns among the words replayed, as xpat2
/// itself would then save.
fn header(id: GameId, words: &[u32], replayed: usize) -> [i32; HEADER_INTS] {
    let mut a = [UNUSED; HEADER_INTS];
    a[slot::SEED] = id.seed as i32;
    a[slot::MOVES] = words.len() as i32;
    a[slot::REPLAYED] = replayed as i32;
    a[slot::FINISHED] = i32::from(replayed == words.len());
    a[slot::CHEATS] = 0;
    for i in slot::COUNTERS {
        a[i] = 0;
    }
    a[slot::REDEALS] = 0;
    a[slot::TURNS] = words[..replayed].iter().filter(|&&w| is_turn(w)).count() as i32;
    a[slot::MAGIC] = MAGIC;
    a
}

/// Name, header and words, big-endian (XPAT2-SAVE.md "Layout"); xpat2
/// plays the first `replayed` words on loading.
pub(super) fn encode(id: GameId, words: &[u32], replayed: usize) -> Vec<u8> {
    let padded = words.len().div_ceil(WORD_BLOCK) * WORD_BLOCK;
    let mut bytes = Vec::with_capacity(HEADER_BYTES + 4 * padded);
    bytes.extend_from_slice(id.rules.xpat2_name.as_bytes());
    bytes.resize(NAME_BYTES, 0);
    for v in header(id, words, replayed) {
        bytes.extend_from_slice(&v.to_be_bytes());
    }
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
    write(deal.id, &save(deal, moves, at)?, path)
}

/// Writes a save's bytes to `path`, or to xpat2's own file name inside it
/// when `path` is a directory, atomically; returns the path written.
pub(super) fn write(id: GameId, bytes: &[u8], path: &Path) -> Result<PathBuf> {
    let target = target(id, path);
    solution::write_atomically(&target, bytes)?;
    Ok(target)
}

/// Where a save given `--xpat2 PATH` goes: `PATH`, or xpat2's own file
/// name inside it when `PATH` is a directory.
pub fn target(id: GameId, path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(file_name(id))
    } else {
        path.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::super::oracle::{be, solve};
    use super::*;
    use crate::deal::test_deal as deal;
    use crate::rules::find;
    use crate::state::Dest;

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
}

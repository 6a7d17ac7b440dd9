//! A player's own game, won from where they stopped (issue 15): the save
//! they made mid-game, with the solver's moves appended, so that xpat2
//! opens it at their position and Redo plays the rest.
//!
//! The player's played words are kept exactly as xpat2 wrote them (their
//! sequence moves, their free-cell shuffles, the cards they sent up by
//! hand); the words they undid are dropped, as xpat2 drops them when a new
//! move follows an Undo. The solver's moves are laid out on the player's
//! own board, which may hold cards the solver has already played up: their
//! foundation moves come first.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::load::{Follower, Saved};
use super::save::{encode, write};
use super::{At, words_on};
use crate::check::Verdict;
use crate::state::Move;

/// The bytes of the continued save: `saved`'s played words, then those of
/// `moves`, which win from the player's position (`player`, the save
/// followed). `At::Start` opens on the player's position, `At::End` on
/// the won game. Nothing is produced unless the moves win there, and
/// xpat2's board ends with every card on the foundation.
pub fn continuation(saved: &Saved, player: &Follower, moves: &[Move], at: At) -> Result<Vec<u8>> {
    if let Verdict::Failed { why, .. } = player.replay(moves) {
        bail!("not a win from the player's position, no xpat2 save written: {why}");
    }
    let mut board = player.board().clone();
    let mut words = saved.words[..saved.played].to_vec();
    words.extend(
        words_on(&mut board, moves).context("cannot lay the moves out on the player's board")?,
    );
    if !board.is_won() {
        bail!(
            "internal error: the player's board is not won after the moves; no xpat2 save written"
        );
    }
    let replayed = match at {
        At::Start => saved.played,
        At::End => words.len(),
    };
    Ok(encode(saved.id, &words, replayed))
}

/// Writes the continued save to `path` (or to xpat2's own name inside it,
/// when a directory), atomically; returns the path written.
pub fn export_continuation(
    saved: &Saved,
    player: &Follower,
    moves: &[Move],
    at: At,
    path: &Path,
) -> Result<PathBuf> {
    write(saved.id, &continuation(saved, player, moves, at)?, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deal;
    use crate::search::{Limits, Outcome, search_from};
    use crate::xpat2::load::{follow, read};

    fn fixture(name: &str) -> Vec<u8> {
        let path = format!("{}/tests/fixtures/xpat2/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The player's save, followed, and a win from their position.
    fn solved(name: &str) -> (Saved, Follower, Vec<Move>) {
        let saved = read(&fixture(name)).unwrap();
        let player = follow(&saved).unwrap();
        let deal = Deal::new(saved.id);
        let report = search_from(&deal, player.state().unwrap(), &Limits::default(), None);
        let Outcome::Solved(moves) = report.outcome else {
            panic!("{name}: {:?}", report.outcome);
        };
        (saved, player, moves)
    }

    /// The continued save keeps the player's words, opens where they
    /// stopped, and its every word, followed by the loader as a player's,
    /// ends on the won game.
    #[test]
    fn a_continued_save_keeps_the_players_words_and_wins() {
        for name in [
            "fc123-sequence-move.xpat2",
            "bd7-clicks.xpat2",
            "st5-clicks.xpat2",
        ] {
            let (saved, player, moves) = solved(name);
            let bytes = continuation(&saved, &player, &moves, At::Start).unwrap();
            let again = read(&bytes).unwrap();
            assert_eq!(again.id, saved.id, "{name}");
            assert_eq!(again.played, saved.played, "{name}");
            assert_eq!(again.words[..saved.played], saved.words[..saved.played]);
            assert!(again.words.len() >= saved.played + moves.len(), "{name}");
            assert!(!again.finished, "{name}");
            let all = Saved {
                played: again.words.len(),
                ..again
            };
            let followed = follow(&all).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(followed.state().unwrap().is_won(), "{name}");
            let end = read(&continuation(&saved, &player, &moves, At::End).unwrap()).unwrap();
            assert_eq!((end.played, end.finished), (end.words.len(), true));
        }
    }

    /// The words the player undid are not kept: the solver's follow theirs.
    #[test]
    fn undone_words_are_replaced() {
        let (saved, player, moves) = solved("fc123-one-move-undone.xpat2");
        assert!(
            saved.played < saved.words.len(),
            "the fixture has an undone move"
        );
        let again = read(&continuation(&saved, &player, &moves, At::Start).unwrap()).unwrap();
        let mut expected = saved.words[..saved.played].to_vec();
        expected.extend(words_on(&mut player.board().clone(), &moves).unwrap());
        assert_eq!(again.words, expected);
    }

    #[test]
    fn moves_that_do_not_win_give_no_save() {
        let (saved, player, moves) = solved("fc123-cell-to-cell.xpat2");
        let e = continuation(&saved, &player, &moves[1..], At::Start).unwrap_err();
        assert!(e.to_string().contains("not a win"), "{e}");
    }
}

//! `-check FILE`: replay a solution file and say whether it wins.
//!
//! The file is read as a stream and replayed line by line: the replay
//! stops at the first illegal line, so `/dev/zero` or a gigabyte of NULs
//! gets its verdict after one capped line, in a few kilobytes of memory.
//! The moves are kept only for `--xpat2` and `--html`, which write them
//! again, at about 2 bytes a move; for `--html` alone no more than a page
//! replays ([`html::MOST_MOVES`]): a longer game is refused its page once
//! replayed, before anything is written.

use std::collections::TryReserveError;
use std::fs::File;
use std::io;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};

use super::files::Files;
use super::options::Export;
use super::output::Shown;
use super::start::Start;
use super::{EXIT_ECHEC, EXIT_SUCCES, export, page};
use xpat_solver::check::Verdict;
use xpat_solver::html;
use xpat_solver::solution::{self, Line};
use xpat_solver::state::Move;

/// Replays `file` from the start (the deal, or a player's position);
/// `SUCCES` (exit 0) or `ECHEC k` (exit 1) after the reason.
pub(super) fn run(
    start: &Start,
    file: &Path,
    export: Option<&Export>,
    html: Option<&Path>,
) -> Result<u8> {
    let cannot_read = || format!("cannot read solution file '{}'", Shown(file));
    let input = File::open(file).with_context(cannot_read)?;
    let files = Files::for_check(start, file, export, html)?;
    start.introduce()?;
    let most = match (export, html) {
        (None, None) => 0,
        (None, Some(_)) => html::MOST_MOVES.saturating_sub(start.before().len()),
        (Some(_), _) => usize::MAX,
    };
    let mut kept = Kept::new(most);
    let lines = solution::Lines::new(input).inspect(|line| kept.keep(line));
    match start.replay(lines).with_context(cannot_read)? {
        Verdict::Won { moves } => {
            let from = if start.player.is_some() {
                " from the player's position"
            } else {
                ""
            };
            say!("{} won in {moves} moves{from}", start.deal.id)?;
            files.check_page_length(start, moves)?;
            let count = moves;
            let moves = kept.moves.map_err(|e| {
                anyhow!("cannot keep the {count} moves for --xpat2 or --html: {e}; nothing written")
            })?;
            if (export.is_some() || html.is_some()) && moves.len() != count {
                bail!(
                    "internal error: {} of {count} moves kept; nothing written",
                    moves.len()
                );
            }
            let published = files.publish(start, &moves)?;
            export::say_written(start, published.save)?;
            page::say_written(start, published.page, moves.len())?;
            say!("SUCCES")?;
            Ok(EXIT_SUCCES)
        }
        Verdict::Failed { line, why } => {
            say!("{why}")?;
            say!("ECHEC {line}")?;
            Ok(EXIT_ECHEC)
        }
    }
}

/// The moves read so far, as many as are wanted: about 2 bytes a move,
/// kept fallibly since a file of moves that go back and forth may be as
/// long as the disk. Past `most` none is kept: the run refuses then what
/// wanted them.
struct Kept {
    most: usize,
    moves: Result<Vec<Move>, TryReserveError>,
}

impl Kept {
    fn new(most: usize) -> Kept {
        Kept {
            most,
            moves: Ok(Vec::new()),
        }
    }

    fn keep(&mut self, line: &io::Result<Line>) {
        let Ok(moves) = &mut self.moves else {
            return;
        };
        if moves.len() >= self.most {
            return;
        }
        if let Ok(Ok(mv)) = line {
            match moves.try_reserve(1) {
                Ok(()) => moves.push(*mv),
                Err(e) => self.moves = Err(e),
            }
        }
    }
}

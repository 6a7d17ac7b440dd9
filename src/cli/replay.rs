//! `-check FILE`: replay a solution file and say whether it wins.
//!
//! The file is read as a stream and replayed line by line: the replay
//! stops at the first illegal line, so `/dev/zero` or a gigabyte of NULs
//! gets its verdict after one capped line, in a few kilobytes of memory.
//! The moves are kept only for `--xpat2`, which writes them again.

use std::collections::TryReserveError;
use std::fs::File;
use std::io;
use std::path::Path;

use anyhow::{Context, Result, anyhow};

use super::files::Files;
use super::options::Export;
use super::output::Shown;
use super::{EXIT_ECHEC, EXIT_SUCCES, export};
use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::solution::{self, Line};
use crate::state::{Move, State};

/// Replays `file`; `SUCCES` (exit 0) or `ECHEC k` (exit 1) after the reason.
pub(super) fn run(deal: &Deal, file: &Path, export: Option<&Export>) -> Result<u8> {
    let cannot_read = || format!("cannot read solution file '{}'", Shown(file));
    let input = File::open(file).with_context(cannot_read)?;
    let files = Files::for_check(deal.id, file, export)?;
    let mut kept = Kept::new(export.is_some());
    let lines = solution::Lines::new(input).inspect(|line| kept.keep(line));
    match check::replay_lines(State::new(deal), lines).with_context(cannot_read)? {
        Verdict::Won { moves } => {
            say!("{} won in {moves} moves", deal.id)?;
            let moves = kept.moves.map_err(|e| {
                anyhow!("cannot keep the {moves} moves for --xpat2: {e}; nothing written")
            })?;
            let save = files.publish(deal, &moves)?;
            export::say_written(save)?;
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

/// The moves read so far, when they are wanted: about 2 bytes a move,
/// kept fallibly since a file of moves that go back and forth may be as
/// long as the disk.
struct Kept {
    wanted: bool,
    moves: Result<Vec<Move>, TryReserveError>,
}

impl Kept {
    fn new(wanted: bool) -> Kept {
        Kept {
            wanted,
            moves: Ok(Vec::new()),
        }
    }

    fn keep(&mut self, line: &io::Result<Line>) {
        if let (true, Ok(moves), Ok(Ok(mv))) = (self.wanted, &mut self.moves, line) {
            match moves.try_reserve(1) {
                Ok(()) => moves.push(*mv),
                Err(e) => self.moves = Err(e),
            }
        }
    }
}

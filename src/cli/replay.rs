//! `-check FILE`: replay a solution file and say whether it wins.

use std::path::Path;

use anyhow::{Context, Result};

use super::options::Export;
use super::output::Shown;
use super::{EXIT_ECHEC, EXIT_SUCCES, export};
use crate::check::{self, Verdict};
use crate::deal::Deal;
use crate::solution;
use crate::state::Move;

/// Replays `file`; `SUCCES` (exit 0) or `ECHEC k` (exit 1) after the reason.
pub(super) fn run(deal: &Deal, file: &Path, export: Option<&Export>) -> Result<u8> {
    let bytes = std::fs::read(file)
        .with_context(|| format!("cannot read solution file '{}'", Shown(file)))?;
    let lines = solution::parse(&bytes);
    match check::replay(deal, &lines) {
        Verdict::Won { moves } => {
            say!("{} won in {moves} moves", deal.id)?;
            let moves: Vec<Move> = lines.iter().filter_map(|l| l.clone().ok()).collect();
            export::write(deal, &moves, export)?;
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

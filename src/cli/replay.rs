//! `-check FILE`: replay a solution file and say whether it wins.

use std::path::Path;

use anyhow::{Context, Result};

use super::options::Export;
use super::output::Shown;
use super::start::Start;
use super::{EXIT_ECHEC, EXIT_SUCCES, export, page};
use crate::check::{self, Verdict};
use crate::solution;
use crate::state::Move;

/// Replays `file` from the start; `SUCCES` (exit 0) or `ECHEC k` (exit 1)
/// after the reason.
pub(super) fn run(
    start: &Start,
    file: &Path,
    export: Option<&Export>,
    html: Option<&Path>,
) -> Result<u8> {
    let bytes = std::fs::read(file)
        .with_context(|| format!("cannot read solution file '{}'", Shown(file)))?;
    let lines = solution::parse(&bytes);
    export::not_over_the_save(start, export)?;
    start.introduce()?;
    match check::replay_from(start.root(), &lines) {
        Verdict::Won { moves } => {
            let from = if start.player.is_some() {
                " from the player's position"
            } else {
                ""
            };
            say!("{} won in {moves} moves{from}", start.deal.id)?;
            let moves: Vec<Move> = lines.iter().filter_map(|l| l.clone().ok()).collect();
            export::write(start, &moves, export)?;
            page::write(start, &moves, html)?;
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

//! `--xpat2`: a won solution also written as an xpat2 save file (see
//! [`super::files`]), and the line that says where and how to open it;
//! from a player's save, their game continued with the solution.

use std::path::PathBuf;

use anyhow::Result;

use super::output::Shown;
use super::start::Start;
use xpat_solver::xpat2::At;

/// Says where the save went and how to open it, before the verdict line;
/// nothing when no save was asked.
pub(super) fn say_written(start: &Start, save: Option<(PathBuf, At)>) -> Result<()> {
    let Some((path, at)) = save else {
        return Ok(());
    };
    let opens = match (at, &start.player) {
        (At::Start, None) => "opens on the deal, Redo plays the moves",
        (At::Start, Some(_)) => "opens at the player's position, Redo plays the rest",
        (At::End, _) => "opens on the won game, Undo steps back",
    };
    let written = Shown(&path);
    say!("xpat2 save written to {written} ({opens}): xpat2 {written}")
}

//! `--xpat2`: a won solution also written as an xpat2 save file.

use anyhow::Result;

use super::options::Export;
use super::output::Shown;
use crate::deal::Deal;
use crate::state::Move;
use crate::xpat2::{self, At};

/// Writes the save of `moves` (already replayed and won) when asked, and
/// says where and how to open it, before the verdict line.
pub(super) fn write(deal: &Deal, moves: &[Move], export: Option<&Export>) -> Result<()> {
    let Some(export) = export else {
        return Ok(());
    };
    let written = xpat2::export(deal, moves, export.at, &export.path)?;
    let opens = match export.at {
        At::Start => "opens on the deal, Redo plays the moves",
        At::End => "opens on the won game, Undo steps back",
    };
    let written = Shown(&written);
    say!("xpat2 save written to {written} ({opens}): xpat2 {written}")
}

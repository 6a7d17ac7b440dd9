//! `--xpat2`: a won solution also written as an xpat2 save file; from a
//! player's save, their game continued with the solution.

use anyhow::{Result, bail};

use super::options::Export;
use super::output::Shown;
use super::start::Start;
use crate::state::Move;
use crate::xpat2::{self, At};

/// Writes the save of `moves` (already replayed and won from `start`)
/// when asked, and says where and how to open it, before the verdict line.
pub(super) fn write(start: &Start, moves: &[Move], export: Option<&Export>) -> Result<()> {
    let Some(export) = export else {
        return Ok(());
    };
    let (written, opens) = match &start.player {
        None => (
            xpat2::export(&start.deal, moves, export.at, &export.path)?,
            "opens on the deal, Redo plays the moves",
        ),
        Some(player) => (
            xpat2::export_continuation(
                &player.saved,
                &player.followed,
                moves,
                export.at,
                &export.path,
            )?,
            "opens at the player's position, Redo plays the rest",
        ),
    };
    let opens = match export.at {
        At::Start => opens,
        At::End => "opens on the won game, Undo steps back",
    };
    let written = Shown(&written);
    say!("xpat2 save written to {written} ({opens}): xpat2 {written}")
}

/// Refuses a continued save that would replace the player's own (`--xpat2
/// .` in the directory of `FreeCell.000000123`): theirs keeps the moves
/// they undid, and is theirs.
pub(super) fn not_over_the_save(start: &Start, export: Option<&Export>) -> Result<()> {
    let (Some(player), Some(export)) = (&start.player, export) else {
        return Ok(());
    };
    let target = if export.path.is_dir() {
        export.path.join(xpat2::file_name(start.deal.id))
    } else {
        export.path.clone()
    };
    let same = |a: &std::path::Path, b: &std::path::Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if same(&target, &player.path) {
        bail!(
            "--xpat2 '{}' would replace the player's save read with --from-xpat2: give another PATH",
            Shown(&target)
        );
    }
    Ok(())
}

//! The files a command writes, prepared before it runs and published
//! together after it: `-search`'s solution file and `--xpat2` save,
//! `-check`'s save. Every refusal (a missing or unwritable directory, a
//! special file, a link, a name too long, two outputs or an output and the
//! file being checked that are one file) comes before the search, and
//! nothing is on disk unless the verdict is `SUCCES`: dropping [`Files`]
//! unpublished removes the temporary files (see [`crate::output`]).

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::options::Export;
use crate::deal::Deal;
use crate::output::{OutputId, Outputs};
use crate::rules::GameId;
use crate::solution;
use crate::state::Move;
use crate::xpat2::{self, At};

/// The prepared outputs of one command.
pub(super) struct Files {
    outputs: Outputs,
    solution: Option<OutputId>,
    xpat2: Option<Save>,
}

/// The `--xpat2` output: where it goes as the user named it, and where
/// it opens.
struct Save {
    id: OutputId,
    path: PathBuf,
    at: At,
}

impl Files {
    /// `-search`'s outputs: the solution file, then the save.
    pub(super) fn for_search(game: GameId, file: &Path, export: Option<&Export>) -> Result<Files> {
        let mut outputs = Outputs::new();
        let solution = Some(outputs.prepare(file)?);
        let xpat2 = prepare_save(&mut outputs, game, export)?;
        Ok(Files {
            outputs,
            solution,
            xpat2,
        })
    }

    /// `-check`'s output, the save, which must not be the file checked.
    pub(super) fn for_check(game: GameId, input: &Path, export: Option<&Export>) -> Result<Files> {
        let mut outputs = Outputs::new();
        outputs.add_input(input)?;
        let xpat2 = prepare_save(&mut outputs, game, export)?;
        Ok(Files {
            outputs,
            solution: None,
            xpat2,
        })
    }

    /// Writes every output for `moves` (replayed and won) and publishes
    /// them all, or none; returns where the save went, if one was asked.
    pub(super) fn publish(mut self, deal: &Deal, moves: &[Move]) -> Result<Option<(PathBuf, At)>> {
        if let Some(id) = self.solution {
            self.outputs.write(id, solution::format(moves).as_bytes())?;
        }
        if let Some(save) = &self.xpat2 {
            let bytes = xpat2::save(deal, moves, save.at)?;
            self.outputs.write(save.id, &bytes)?;
        }
        self.outputs.publish_all()?;
        Ok(self.xpat2.map(|save| (save.path, save.at)))
    }
}

/// Prepares the save of `--xpat2 PATH` (in a directory, under xpat2's own
/// file name): `--xpat2 .` beside `-search FreeCell.000000123` names the
/// solution file, and is refused.
fn prepare_save(
    outputs: &mut Outputs,
    game: GameId,
    export: Option<&Export>,
) -> Result<Option<Save>> {
    let Some(export) = export else {
        return Ok(None);
    };
    let path = xpat2::target(game, &export.path);
    let id = outputs.prepare(&path)?;
    Ok(Some(Save {
        id,
        path,
        at: export.at,
    }))
}

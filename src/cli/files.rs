//! The files a command writes, prepared before it runs and published
//! together after it: `-search`'s solution file, the `--xpat2` save and
//! the `--html` page; `-check`'s save and page. Every refusal (a missing
//! or unwritable directory, a special file, a link, a name too long, two
//! outputs or an output and a file being read that are one file: the
//! solution checked, the player's save of `--from-xpat2`) comes before the
//! search, and nothing is on disk unless the verdict is `SUCCES`: dropping
//! [`Files`] unpublished removes the temporary files (see
//! [`crate::output`]).

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::options::Export;
use super::start::Start;
use crate::html;
use crate::output::{OutputId, Outputs};
use crate::solution;
use crate::state::Move;
use crate::xpat2::{self, At};

/// The prepared outputs of one command.
pub(super) struct Files {
    outputs: Outputs,
    solution: Option<OutputId>,
    xpat2: Option<Save>,
    page: Option<(OutputId, PathBuf)>,
}

/// The `--xpat2` output: where it goes (a directory resolved to xpat2's
/// own file name), and where it opens.
struct Save {
    id: OutputId,
    path: PathBuf,
    at: At,
}

/// What [`Files::publish`] put on disk besides the solution file, for the
/// lines that say so.
pub(super) struct Published {
    pub save: Option<(PathBuf, At)>,
    pub page: Option<PathBuf>,
}

impl Files {
    /// `-search`'s outputs: the solution file, then the save and the page.
    pub(super) fn for_search(
        start: &Start,
        file: &Path,
        export: Option<&Export>,
        html: Option<&Path>,
    ) -> Result<Files> {
        let mut outputs = inputs(start)?;
        let solution = Some(outputs.prepare(file)?);
        Files::with(outputs, solution, start, export, html)
    }

    /// `-check`'s outputs, the save and the page, neither of which may be
    /// the file checked.
    pub(super) fn for_check(
        start: &Start,
        input: &Path,
        export: Option<&Export>,
        html: Option<&Path>,
    ) -> Result<Files> {
        let mut outputs = inputs(start)?;
        outputs.add_input(input)?;
        Files::with(outputs, None, start, export, html)
    }

    fn with(
        mut outputs: Outputs,
        solution: Option<OutputId>,
        start: &Start,
        export: Option<&Export>,
        html: Option<&Path>,
    ) -> Result<Files> {
        let xpat2 = match export {
            None => None,
            Some(export) => {
                let path = xpat2::target(start.deal.id, &export.path);
                let id = outputs.prepare(&path)?;
                Some(Save {
                    id,
                    path,
                    at: export.at,
                })
            }
        };
        let page = match html {
            None => None,
            Some(path) => Some((outputs.prepare(path)?, path.to_path_buf())),
        };
        Ok(Files {
            outputs,
            solution,
            xpat2,
            page,
        })
    }

    /// Writes every output for `moves` (replayed and won from `start`) and
    /// publishes them all, or none.
    pub(super) fn publish(mut self, start: &Start, moves: &[Move]) -> Result<Published> {
        if let Some(id) = self.solution {
            self.outputs.write(id, solution::format(moves).as_bytes())?;
        }
        if let Some(save) = &self.xpat2 {
            let bytes = match &start.player {
                None => xpat2::save(&start.deal, moves, save.at)?,
                Some(p) => xpat2::continuation(&p.saved, &p.followed, moves, save.at)?,
            };
            self.outputs.write(save.id, &bytes)?;
        }
        if let Some((id, _)) = &self.page {
            let text = html::page(&start.deal, &[start.before(), moves].concat());
            self.outputs.write(*id, text.as_bytes())?;
        }
        self.outputs.publish_all()?;
        Ok(Published {
            save: self.xpat2.map(|save| (save.path, save.at)),
            page: self.page.map(|(_, path)| path),
        })
    }
}

/// The outputs of a command that starts from a player's save: that save is
/// read, and never replaced (it keeps the moves they undid, and is theirs).
fn inputs(start: &Start) -> Result<Outputs> {
    let mut outputs = Outputs::new();
    if let Some(player) = &start.player {
        outputs.add_input(&player.path)?;
    }
    Ok(outputs)
}

//! The files a command writes, prepared before it runs and published
//! together after it: `-search`'s solution file, the `--xpat2` save and
//! the `--html` page; `-check`'s save and page. Every refusal (a missing
//! or unwritable directory, a special file, a link, a name too long, two
//! outputs or an output and a file being read that are one file: the
//! solution checked, the player's save of `--from-xpat2`) comes before the
//! search, and nothing is on disk unless the verdict is `SUCCES`: dropping
//! [`Files`] unpublished removes the temporary files (see
//! [`xpat_solver::output`]).

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};

use super::options::Export;
use super::output::Shown;
use super::start::Start;
use xpat_solver::html;
use xpat_solver::output::{OutputId, Outputs};
use xpat_solver::solution;
use xpat_solver::state::Move;
use xpat_solver::xpat2::{self, At};

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
        let files = Files {
            outputs,
            solution,
            xpat2,
            page,
        };
        // A player's moves alone past what a page holds: refused before
        // the search.
        files.check_page_length(start, 0)?;
        Ok(files)
    }

    /// Refuses a page of more than [`html::MOST_MOVES`] moves (a
    /// player's, then `moves` more), before anything is written.
    pub(super) fn check_page_length(&self, start: &Start, moves: usize) -> Result<()> {
        let Some((_, path)) = &self.page else {
            return Ok(());
        };
        let all = start.before().len() + moves;
        if all > html::MOST_MOVES {
            bail!(
                "cannot write {}: a page replays at most {} moves, this game has {all}; nothing written",
                Shown(path),
                html::MOST_MOVES
            );
        }
        Ok(())
    }

    /// Writes every output for `moves` (replayed and won from `start`) and
    /// publishes them all, or none.
    pub(super) fn publish(mut self, start: &Start, moves: &[Move]) -> Result<Published> {
        self.check_page_length(start, moves.len())?;
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
            write_page(&mut self.outputs, *id, start, moves)?;
        }
        self.outputs.publish_all()?;
        Ok(Published {
            save: self.xpat2.map(|save| (save.path, save.at)),
            page: self.page.map(|(_, path)| path),
        })
    }
}

/// Bytes of the page gathered before each write to its temporary file.
const PAGE_BUFFER: usize = 64 * 1024;

/// Writes the page of the whole game (a player's moves, then `moves`)
/// straight into its temporary file as it is made: nothing per move is
/// held, whatever the page's length.
fn write_page(outputs: &mut Outputs, id: OutputId, start: &Start, moves: &[Move]) -> Result<()> {
    let mut sink = Sink {
        outputs,
        id,
        failed: None,
    };
    let mut buffered = BufWriter::with_capacity(PAGE_BUFFER, &mut sink);
    let all = start.before().iter().chain(moves).copied();
    let done = html::write(&mut buffered, &start.deal, all).and_then(|()| buffered.flush());
    // Dropped without the flush a drop would try after a failed write.
    let _ = buffered.into_parts();
    match (done, sink.failed) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(failed)) => Err(failed),
        (Err(e), None) => Err(anyhow!("cannot write the page: {e}")),
    }
}

/// An output as an [`io::Write`], keeping the first error of
/// [`Outputs::write`] (which names the file) to report it whole.
struct Sink<'a> {
    outputs: &'a mut Outputs,
    id: OutputId,
    failed: Option<anyhow::Error>,
}

impl Write for Sink<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self.outputs.write(self.id, bytes) {
            Ok(()) => Ok(bytes.len()),
            Err(e) => {
                let said = e.to_string();
                self.failed.get_or_insert(e);
                Err(io::Error::other(said))
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
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

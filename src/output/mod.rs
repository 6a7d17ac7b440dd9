//! The files a command writes (a solution, an xpat2 save, later a page),
//! prepared before the search and published together after it.
//!
//! [`Outputs::prepare`] checks each target at once (see `target.rs` for what
//! is refused and why), refuses two outputs, or an output and an input,
//! that are one file, and creates the output's temporary file in the
//! target's directory: an unwritable directory fails before the search,
//! not after it. The temporary file has a random name and is created with
//! `O_EXCL`, so a link planted in the directory is never followed. The
//! content goes to the temporary files ([`Outputs::write`]), and
//! [`Outputs::publish_all`] renames them over their targets only once every
//! one is written and flushed to disk: nothing appears unless everything
//! was written. Dropping [`Outputs`] unpublished removes every temporary
//! file; a signal handler does the same with [`remove_pending_temp_files`].

mod registry;
mod target;

use std::fs::{File, Permissions};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::{Result, anyhow, bail};
use tempfile::NamedTempFile;

pub use registry::remove_pending_temp_files;
pub use target::directory_of;
use target::{FileId, Target};

/// Permission bits of a new output before the umask, as `File::create`.
const NEW_FILE_MODE: u32 = 0o666;

/// Which prepared output: what [`Outputs::prepare`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputId(usize);

/// The outputs of one command, and the inputs they must not overwrite.
#[derive(Debug, Default)]
pub struct Outputs {
    inputs: Vec<(FileId, String)>,
    pending: Vec<Pending>,
}

/// One prepared output. Fields drop in order: the temporary file is
/// removed first, then its path unregistered.
#[derive(Debug)]
struct Pending {
    temp: NamedTempFile,
    _slot: registry::Slot,
    target: Target,
    written: bool,
}

impl Outputs {
    /// No output yet: add each with its own path, then finish them together.
    pub fn new() -> Outputs {
        Outputs::default()
    }

    /// Names a file the command reads (`-check FILE`): no output may be
    /// that file, under any path or hard link.
    pub fn add_input(&mut self, path: &Path) -> Result<()> {
        let id = target::input_id(path)?;
        let shown = target::shown(path);
        if let Some(p) = self.pending.iter().find(|p| same_file(&p.target, id)) {
            bail!(
                "cannot write {}: it is {shown}, the file being read",
                p.target.shown
            );
        }
        self.inputs.push((id, shown));
        Ok(())
    }

    /// Checks `path` as an output and creates its temporary file; fails at
    /// once, with a one-line message, when it could not be published.
    pub fn prepare(&mut self, path: &Path) -> Result<OutputId> {
        let target = target::check(path)?;
        if let Some((_, input)) = self.inputs.iter().find(|(id, _)| same_file(&target, *id)) {
            bail!(
                "cannot write {}: it is {input}, the file being read",
                target.shown
            );
        }
        if let Some(other) = self
            .pending
            .iter()
            .find(|p| same_target(&p.target, &target))
        {
            bail!(
                "cannot write {}: it is the file {} also written",
                target.shown,
                other.target.shown
            );
        }
        let temp = create_temp(&target)?;
        let slot = registry::register(temp.path())
            .map_err(|e| anyhow!("cannot write {}: {e}", target.shown))?;
        self.pending.push(Pending {
            temp,
            _slot: slot,
            target,
            written: false,
        });
        Ok(OutputId(self.pending.len() - 1))
    }

    /// Appends `bytes` to the output's content (its temporary file).
    pub fn write(&mut self, id: OutputId, bytes: &[u8]) -> Result<()> {
        let p = &mut self.pending[id.0];
        p.temp
            .write_all(bytes)
            .map_err(|e| anyhow!("cannot write {}: {e}", p.target.shown))?;
        p.written = true;
        Ok(())
    }

    /// The path an output will be published at (its directory resolved).
    pub fn target(&self, id: OutputId) -> &Path {
        &self.pending[id.0].target.path
    }

    /// Flushes every output to disk, checks every target again, and only
    /// then renames each temporary file over its target. Nothing is renamed
    /// when any output is unwritten or fails; what can still fail once the
    /// first is renamed is a rename itself in a directory already shown
    /// writable, which leaves the outputs before it published.
    pub fn publish_all(mut self) -> Result<()> {
        for p in &self.pending {
            if !p.written {
                bail!(
                    "internal error: nothing written to {}; nothing published",
                    p.target.shown
                );
            }
        }
        for p in &mut self.pending {
            let fail = |e| anyhow!("cannot write {}: {e}", p.target.shown);
            p.temp.flush().map_err(fail)?;
            p.temp.as_file().sync_all().map_err(fail)?;
            target::recheck(&p.target)?;
        }
        for p in self.pending.drain(..) {
            let Pending {
                temp,
                _slot,
                target,
                ..
            } = p;
            temp.persist(&target.path)
                .map_err(|e| anyhow!("cannot write {}: {}", target.shown, e.error))?;
        }
        Ok(())
    }
}

/// Writes `bytes` to `path` whole or not at all: one output, prepared,
/// written and published.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut outputs = Outputs::new();
    let id = outputs.prepare(path)?;
    outputs.write(id, bytes)?;
    outputs.publish_all()
}

/// Every temporary file this program makes is named `.xpat-solver-`, 12
/// random letters or digits, `.tmp`: [`temp_file_named`] makes them, and
/// [`is_temp_file_name`] tells one (for `survey --resume`, which sweeps
/// those a killed run left).
const TEMP_PREFIX: &str = ".xpat-solver-";
const TEMP_SUFFIX: &str = ".tmp";
const TEMP_RANDOM_CHARS: usize = 12;

/// A builder of temporary files of our naming.
pub(crate) fn temp_file_named() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .rand_bytes(TEMP_RANDOM_CHARS);
    builder
}

/// Whether `name` is a temporary file's of our naming.
pub(crate) fn is_temp_file_name(name: &str) -> bool {
    name.strip_prefix(TEMP_PREFIX)
        .and_then(|rest| rest.strip_suffix(TEMP_SUFFIX))
        .is_some_and(|random| {
            random.len() == TEMP_RANDOM_CHARS && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// The system's reason alone for an error of `tempfile`, which names the
/// temporary file it could not make ("Permission denied (os error 13) at
/// path \"dir/.xpat-solver-…\""), a name the user never gave.
pub(crate) fn system_reason(e: &std::io::Error) -> String {
    let said = e.to_string();
    match said.split_once(" at path ") {
        Some((reason, _)) => reason.to_string(),
        None => said,
    }
}

/// Refuses `path` unless it names a regular file (a missing one is the
/// error `NotFound`). Why: the files a search keeps in a directory of
/// its own (the spill's manifest and layers, the suitless game's save)
/// are opened by fixed names, and opening a FIFO put under one of them
/// would wait forever for a writer; a directory or a device there is
/// no file of ours either.
pub(crate) fn must_be_regular(path: &Path) -> std::io::Result<()> {
    if std::fs::metadata(path)?.is_file() {
        Ok(())
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ))
    }
}

/// The temporary file of `target`, in its directory, with the permission
/// bits it will keep: an existing file's, or a new file's under the umask.
fn create_temp(target: &Target) -> Result<NamedTempFile> {
    let fail = |e: std::io::Error| {
        let e = system_reason(&e);
        anyhow!(
            "cannot write {}: cannot create a file in {}: {e}",
            target.shown,
            target::shown(&target.dir)
        )
    };
    let mode = target.existing.map_or(NEW_FILE_MODE, |(_, mode)| mode);
    let temp = temp_file_named()
        .permissions(Permissions::from_mode(mode))
        .tempfile_in(&target.dir)
        .map_err(fail)?;
    if target.existing.is_some() {
        // The umask narrowed the mode at creation: an existing file keeps
        // its own bits exactly (600 stays 600, 664 stays 664).
        set_mode(temp.as_file(), mode).map_err(fail)?;
    }
    Ok(temp)
}

fn set_mode(file: &File, mode: u32) -> std::io::Result<()> {
    file.set_permissions(Permissions::from_mode(mode))
}

fn same_file(target: &Target, id: FileId) -> bool {
    target.existing.is_some_and(|(t, _)| t == id)
}

/// One file: one path (the directory resolved), or one inode (hard links).
fn same_target(a: &Target, b: &Target) -> bool {
    a.path == b.path || b.existing.is_some_and(|(id, _)| same_file(a, id))
}

#[cfg(test)]
mod tests;

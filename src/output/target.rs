//! Where an output goes, checked before anything is written.
//!
//! Every refusal that can be known before the search is made here, so that
//! a bad path costs an instant exit 3 rather than a search thrown away.
//!
//! Only a regular file (or a name not yet taken) is an output. A device, a
//! FIFO or a socket is refused rather than written through: an output is
//! written whole to a temporary file and renamed over its target, and a
//! rename would replace the special file itself (as root, `/dev/null` would
//! become a regular file); writing through it instead could not be undone
//! when the search fails or a later output cannot be written, could block
//! (a FIFO without a reader) or die of SIGPIPE after the search. A user who
//! wants no file has no reason to name one. A symbolic link is refused too:
//! following it would let a link planted in a shared directory send the
//! write elsewhere, and replacing it would silently break the user's link;
//! the message names where it points, so naming that file is one step.

use std::ffi::{CString, OsStr};
use std::fs::{self, FileType};
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};

use crate::quote::quote_at_most;

/// The most characters of a path a message shows.
const PATH_QUOTE: usize = 240;

/// The file-name limit assumed when the file system does not say.
const DEFAULT_NAME_MAX: usize = 255;

/// A file, by what no spelling of its path changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FileId {
    dev: u64,
    ino: u64,
}

/// An output's target: checked, in a directory resolved once.
#[derive(Debug)]
pub(super) struct Target {
    /// The directory resolved (no symbolic link, no `..`) and the name:
    /// two targets with equal paths are one file, existing or not.
    pub path: PathBuf,
    /// The resolved directory, where the temporary file goes.
    pub dir: PathBuf,
    /// The path as the user gave it, as messages show it.
    pub shown: String,
    /// The regular file there now, if any, and its permission bits.
    pub existing: Option<(FileId, u32)>,
}

/// `path` as a one-line message shows it: escaped, quoted, cut.
pub(super) fn shown(path: &Path) -> String {
    format!(
        "'{}'",
        quote_at_most(path.as_os_str().as_bytes(), PATH_QUOTE)
    )
}

/// The directory a file at `path` goes into (`.` for a bare file name).
pub fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The file read at `path` (links followed, as reading follows them).
pub(super) fn input_id(path: &Path) -> Result<FileId> {
    let meta = fs::metadata(path).map_err(|e| anyhow!("cannot read {}: {e}", shown(path)))?;
    Ok(FileId {
        dev: meta.dev(),
        ino: meta.ino(),
    })
}

/// Checks that `path` can be an output, and resolves its directory.
pub(super) fn check(path: &Path) -> Result<Target> {
    let shown = shown(path);
    let refuse = |why: String| anyhow!("cannot write {shown}: {why}");
    let name = file_name(path).map_err(refuse)?;
    let wanted = directory_of(path);
    let dir = fs::canonicalize(wanted).map_err(|e| {
        refuse(match e.kind() {
            ErrorKind::NotFound => format!("no directory {}", self::shown(wanted)),
            ErrorKind::NotADirectory => format!("{} is not a directory", self::shown(wanted)),
            _ => format!("{}: {e}", self::shown(wanted)),
        })
    })?;
    if !dir.is_dir() {
        return Err(refuse(format!(
            "{} is not a directory",
            self::shown(wanted)
        )));
    }
    let name_max = name_max(&dir);
    if name.len() > name_max {
        return Err(refuse(format!(
            "the file name is {} bytes long, and {} takes at most {name_max}",
            name.len(),
            self::shown(&dir)
        )));
    }
    let target = dir.join(name);
    let existing = existing_file(&target).map_err(refuse)?;
    Ok(Target {
        path: target,
        dir,
        shown,
        existing,
    })
}

/// Checks again, right before the rename, that the target is still a
/// regular file or absent: what appeared there during the search (a
/// directory, a link, a FIFO) is refused as it would have been before.
pub(super) fn recheck(target: &Target) -> Result<()> {
    existing_file(&target.path)
        .map(drop)
        .map_err(|why| anyhow!("cannot write {}: {why}", target.shown))
}

/// The last component of `path`, when `path` names a file at all.
fn file_name(path: &Path) -> Result<&OsStr, String> {
    let bytes = path.as_os_str().as_bytes();
    if bytes.is_empty() {
        return Err("an empty file name".to_string());
    }
    if let Ok(meta) = fs::metadata(path)
        && meta.is_dir()
    {
        return Err("it is a directory".to_string());
    }
    // `Path::file_name` reads `newdir/` and `newdir/.` as `newdir`: a path
    // spelt as a directory's must not become a file of that name.
    let directory_form = bytes.ends_with(b"/") || bytes.ends_with(b"/.") || bytes == b".";
    match path.file_name() {
        Some(name) if !directory_form => Ok(name),
        _ => Err("that is a directory's name (it ends with '/', '.' or '..'), not a file's".into()),
    }
}

/// What is at `target` now: nothing, or a regular file (its identity and
/// permission bits); anything else is refused, saying what it is.
fn existing_file(target: &Path) -> Result<Option<(FileId, u32)>, String> {
    let meta = match fs::symlink_metadata(target) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        let to = fs::read_link(target).map_or("?".into(), |to| shown(&to));
        return Err(format!(
            "it is a symbolic link (to {to}); name the file itself, or remove the link"
        ));
    }
    if !kind.is_file() {
        return Err(format!(
            "it is {}, not a regular file (only regular files are written, never replaced by one)",
            describe(kind)
        ));
    }
    let id = FileId {
        dev: meta.dev(),
        ino: meta.ino(),
    };
    Ok(Some((id, meta.mode() & 0o777)))
}

fn describe(kind: FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// The longest file name the file system of `dir` takes.
fn name_max(dir: &Path) -> usize {
    let Ok(dir) = CString::new(dir.as_os_str().as_bytes()) else {
        return DEFAULT_NAME_MAX;
    };
    // SAFETY: `dir` is a NUL-terminated string alive for the call;
    // pathconf only reads it, and returns -1 when it cannot say.
    let max = unsafe { libc::pathconf(dir.as_ptr(), libc::_PC_NAME_MAX) };
    usize::try_from(max).unwrap_or(DEFAULT_NAME_MAX)
}

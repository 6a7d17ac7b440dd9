//! The survey's files, checked before anything is written: the solutions'
//! directory (`--solutions DIR`), and the rows' file (`--out FILE`) against
//! the solutions written in it, by any spelling of either.
//!
//! `survey fc 1-3 --solutions sd --out sd/FreeCell.1.sol` once ended
//! with the CSV replaced by deal 1's solution, every row lost. So the CSV
//! is refused, exit 3 before any search, when it is a file the survey
//! writes a solution to: by its directory resolved and its name, with
//! links followed (a dangling one too: the CSV it names would be created),
//! and by device and inode where it exists (a hard link in DIR).
//!
//! `--resume` also sweeps DIR of the temporary files a killed run left
//! (`kill -9`, a power cut): files of our own naming only (see
//! `output::is_temp_file_name`), and only those over a minute
//! old, since another survey or `-search` writing to the same directory
//! holds its own for
//! milliseconds, and removing one of those would fail its rename.

use std::fs;
use std::os::unix::fs::{DirEntryExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::foundation::Foundation;
use crate::output::directory_of;
use crate::rules::GameId;

use super::args::Plan;
use super::say::shown;

/// How old a temporary file must be for `--resume` to take it as left by
/// a killed run: its writer renames or removes it within milliseconds.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Most symbolic links followed from one path, as the kernel's limit.
const MAX_LINKS: usize = 40;

/// The file a solution of `id` under `foundation` is written to, in DIR.
pub fn solution_name(id: GameId, foundation: Foundation) -> String {
    format!("{id}{}", solution_suffix(foundation))
}

/// What follows the deal in [`solution_name`].
fn solution_suffix(foundation: Foundation) -> &'static str {
    match foundation {
        Foundation::Forced => ".sol",
        Foundation::Free => ".free.sol",
        Foundation::Xpat2 => ".xpat2.sol",
    }
}

/// The deal whose solution this survey writes as `name`, if any.
fn written_as(name: &str, plan: &Plan) -> Option<GameId> {
    plan.under.searches().iter().find_map(|&foundation| {
        let stem = name.strip_suffix(solution_suffix(foundation))?;
        let id: GameId = stem.parse().ok()?;
        // Only the spelling the survey writes (`FreeCell.7`, not `fc.007`).
        (id.to_string() == stem && plan.deals.contains(id)).then_some(id)
    })
}

/// Makes the solutions' directory ready before the rows' file is opened:
/// created when missing, and shown writable by a file made and removed in
/// it. A bad one is then refused at once, exit 3 and nothing written,
/// not at the first solution with a CSV begun that a rerun would refuse
/// to overwrite. Says whether it made the directory.
pub fn prepare_solutions(dir: &Path) -> Result<bool, String> {
    let fail = |why: String| format!("--solutions {}: {why}", shown(dir));
    let made = match fs::metadata(dir) {
        Ok(found) if found.is_dir() => false,
        Ok(_) => return Err(fail("not a directory".into())),
        Err(_) => {
            fs::create_dir_all(dir).map_err(|e| fail(e.to_string()))?;
            true
        }
    };
    // Named as the outputs' temporary files, so a probe left by a kill
    // is swept by the next --resume as they are.
    let probe = crate::output::temp_file_named().tempfile_in(dir);
    if let Err(e) = probe {
        if made {
            let _ = fs::remove_dir(dir);
        }
        let e = crate::output::system_reason(&e);
        return Err(fail(format!("cannot write a file in it: {e}")));
    }
    Ok(made)
}

/// Where `path` leads: its final links followed (a dangling one's target
/// too), then its directory resolved, and its name. `None` when that
/// directory does not exist (nothing can be created there either) or the
/// path names no file.
fn leads_to(path: &Path) -> Option<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = fs::read_link(&path).ok()?;
                path = directory_of(&path).join(to);
            }
            _ => break,
        }
    }
    let name = path.file_name()?;
    Some(fs::canonicalize(directory_of(&path)).ok()?.join(name))
}

/// What `--resume` may remove: the stale temporary files in DIR.
pub struct Stale {
    /// The solutions' directory.
    pub dir: PathBuf,
    /// Its stale temporary files.
    pub files: Vec<PathBuf>,
}

impl Stale {
    /// Removes them; says how many it removed.
    pub fn sweep(self) -> usize {
        self.files
            .iter()
            .filter(|f| fs::remove_file(f).is_ok())
            .count()
    }
}

/// Refuses an `--out` that is a file this survey writes a solution to in
/// `dir` (which exists), by any spelling; with `--resume`, lists the
/// stale temporary files there (never the rows' file itself).
pub fn check_solutions_dir(dir: &Path, plan: &Plan) -> Result<Stale, String> {
    let out = plan.out.as_deref();
    let out_leads = out.and_then(leads_to);
    // The rows' file as it exists now: a hard link to it has its inode.
    let out_id = out
        .and_then(|o| fs::metadata(o).ok())
        .map(|m| (m.dev(), m.ino(), m.nlink()));
    let canonical =
        fs::canonicalize(dir).map_err(|e| format!("--solutions {}: {e}", shown(dir)))?;
    let refuse = |id: GameId, entry: &Path| {
        format!(
            "--out {} is {}, where --solutions writes the solution of {id}: choose another --out",
            shown(out.unwrap_or(Path::new(""))),
            shown(entry)
        )
    };
    if let Some(leads) = &out_leads
        && leads.parent() == Some(canonical.as_path())
        && let Some(id) = leads
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| written_as(n, plan))
    {
        return Err(refuse(id, leads));
    }
    let dir_dev = fs::metadata(&canonical).map(|m| m.dev()).ok();
    let old = SystemTime::now().checked_sub(STALE_AFTER);
    let mut stale = Vec::new();
    let entries =
        fs::read_dir(&canonical).map_err(|e| format!("--solutions {}: {e}", shown(dir)))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        // The directory entry's inode, without a `stat` per file: a
        // resumed survey's directory may hold a million solutions.
        let same_inode =
            out_id.is_some_and(|(dev, ino, _)| Some(dev) == dir_dev && entry.ino() == ino);
        if let Some(id) = written_as(name, plan) {
            let hard_link = same_inode && out_id.is_some_and(|(_, _, links)| links > 1);
            let link_to_out =
                kind.is_symlink() && out_leads.is_some() && leads_to(&path) == out_leads;
            if hard_link || link_to_out {
                return Err(refuse(id, &path));
            }
        } else if plan.resume
            && crate::output::is_temp_file_name(name)
            && kind.is_file()
            && !same_inode
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| old.is_some_and(|old| t < old))
        {
            stale.push(path);
        }
    }
    Ok(Stale {
        dir: dir.to_path_buf(),
        files: stale,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_a_survey_writes() {
        let plan = |line: &str| super::super::args::plan_for_tests(line);
        let forced = plan("fc,bd 1-3");
        assert_eq!(
            written_as("FreeCell.2.sol", &forced).map(|id| id.to_string()),
            Some("FreeCell.2".into())
        );
        for name in [
            "FreeCell.4.sol",
            "fc.2.sol",
            "FreeCell.02.sol",
            "FreeCell.2.free.sol",
            "Seahaven.1.sol",
            "FreeCell.2.csv",
        ] {
            assert_eq!(written_as(name, &forced), None, "{name}");
        }
        let both = plan("bd 3 --foundation both");
        assert!(written_as("BakersDozen.3.sol", &both).is_some());
        assert!(written_as("BakersDozen.3.free.sol", &both).is_some());
        let free = plan("bd 3 --foundation free");
        assert!(written_as("BakersDozen.3.sol", &free).is_none());
        assert!(written_as("BakersDozen.3.free.sol", &free).is_some());
        let xpat2 = plan("mo,fc 3 --rules xpat2");
        assert!(written_as("MidnightOil.3.xpat2.sol", &xpat2).is_some());
        assert!(written_as("FreeCell.3.xpat2.sol", &xpat2).is_some());
        for name in [
            "MidnightOil.3.sol",
            "MidnightOil.3.free.sol",
            "MidnightOil.4.xpat2.sol",
        ] {
            assert_eq!(written_as(name, &xpat2), None, "{name}");
        }
        assert!(written_as("MidnightOil.3.xpat2.sol", &both).is_none());
    }
}

//! Entries of the far layers moved to disk when they take too much
//! memory, and read back when their layer comes.
//!
//! Why: in a search in layers the entries waiting for the layers above
//! stay in memory until their layer is searched, and they grow with the
//! game: BakersDozen.191326999's clubs-followed complete game held 4.08 G
//! entries (8.65 GB) after its layer 35, beside the cells under way, and
//! was killed for memory at 21.5 GB (docs/hard-deals.md). The entries of
//! a layer are needed only when it comes, so those of the farthest
//! layers go to disk first ([`Checkpoint::spill_over`]).
//!
//! A file holds cells of one layer, each as its key and its pile
//! ([`Pile::write_to`]); it is written once, synced, and never changed.
//! The files sit beside the checkpoint, named after it
//! (`CHECKPOINT.spill-LAYER-NUMBER`), and a checkpoint names those
//! waiting, with their sizes and checksums: resumed, the search reads
//! them when their layer comes, as it would have. A cell may be in
//! several files and in memory too: read back, its piles are joined. A
//! file read back is removed once a later save no longer names it,
//! every file when the search ends decided, and a file no checkpoint
//! names (written after the last save) when the search resumes or
//! starts.
//!
//! Entries spilled are entries filed: the search is the same, only
//! where the entries wait differs (the tests compare the two).

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::checkpoint::{Checkpoint, SpillFile, Summed, directory};
use super::pile::Pile;

/// The file of `spilled` beside the checkpoint at `checkpoint`.
pub(super) fn path_of(checkpoint: &Path, spilled: &SpillFile) -> PathBuf {
    named(checkpoint, spilled.layer, spilled.number)
}

fn named(checkpoint: &Path, layer: usize, number: u64) -> PathBuf {
    let mut name = checkpoint.as_os_str().to_owned();
    name.push(format!(".spill-{layer}-{number}"));
    PathBuf::from(name)
}

/// The spill files waiting in the search, those read back and not yet
/// free to remove, and the number of the next.
#[derive(Default)]
pub(super) struct Spilled {
    pub(super) waiting: Vec<SpillFile>,
    pub(super) read: Vec<SpillFile>,
    next: u64,
    /// Set when a spill failed: the entries stay in memory from then on.
    pub(super) refused: bool,
}

impl Spilled {
    /// The files a checkpoint named (`waiting`), every other spill file
    /// beside it removed: they were written after that save, and hold
    /// only entries the search resumed files again.
    pub(super) fn resumed(checkpoint: &Checkpoint, waiting: Vec<SpillFile>) -> Spilled {
        remove_others(checkpoint.path, &waiting);
        let next = waiting.iter().map(|f| f.number + 1).max().unwrap_or(0);
        Spilled {
            waiting,
            read: Vec::new(),
            next,
            refused: false,
        }
    }

    /// Writes `cells` (of `layer`, sorted by key) to a new file, named
    /// among those waiting.
    pub(super) fn write(
        &mut self,
        checkpoint: &Path,
        layer: usize,
        cells: &[(u64, Pile)],
    ) -> io::Result<()> {
        let number = self.next;
        self.next += 1;
        let path = named(checkpoint, layer, number);
        let file = File::create_new(&path)?;
        let written = (|| {
            let mut out = Summed::new(BufWriter::with_capacity(1 << 20, &file));
            for (cell, pile) in cells {
                out.write_all(&cell.to_le_bytes())?;
                pile.write_to(&mut out)?;
            }
            out.flush()?;
            let sum = out.sum;
            drop(out);
            file.sync_all()?;
            Ok::<_, io::Error>(SpillFile {
                layer,
                number,
                bytes: file.metadata()?.len(),
                sum,
            })
        })();
        match written {
            Ok(spilled) => {
                self.waiting.push(spilled);
                Ok(())
            }
            Err(e) => {
                let _ = fs::remove_file(&path);
                Err(e)
            }
        }
    }

    /// The files of `layer`, taken from those waiting: the caller reads
    /// them ([`read`]), then adds them to those read back
    /// ([`Spilled::read`]).
    pub(super) fn take_layer(&mut self, layer: usize) -> Vec<SpillFile> {
        let (taken, kept) = std::mem::take(&mut self.waiting)
            .into_iter()
            .partition(|f| f.layer == layer);
        self.waiting = kept;
        taken
    }

    /// Removes the files read back: no save names them any more.
    pub(super) fn remove_read(&mut self, checkpoint: &Path) {
        for spilled in self.read.drain(..) {
            let _ = fs::remove_file(path_of(checkpoint, &spilled));
        }
    }

    /// Removes every file: the search has ended decided.
    pub(super) fn remove_all(&mut self, checkpoint: &Path) {
        self.read.append(&mut self.waiting);
        self.remove_read(checkpoint);
    }
}

/// Calls `f` with each cell of the spill file `spilled` and its pile;
/// a file not as written (its size or its checksum) is an error of kind
/// `InvalidData`.
pub(super) fn read(
    checkpoint: &Path,
    spilled: &SpillFile,
    mut f: impl FnMut(u64, Pile),
) -> io::Result<()> {
    let path = path_of(checkpoint, spilled);
    crate::output::must_be_regular(&path)?;
    let file = File::open(&path)?;
    let damaged = |what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} {what}", path.display()),
        )
    };
    if file.metadata()?.len() != spilled.bytes {
        return Err(damaged("is not the size it was written"));
    }
    let mut input = Summed::new(BufReader::with_capacity(1 << 20, file));
    let mut read = 0;
    while read < spilled.bytes {
        let mut key = [0; 8];
        input.read_exact(&mut key)?;
        f(u64::from_le_bytes(key), Pile::read_from(&mut input)?);
        read = input.count;
    }
    if input.sum != spilled.sum {
        return Err(damaged("does not match its checksum"));
    }
    Ok(())
}

/// Removes the spill files beside `checkpoint` that are not `kept`.
fn remove_others(checkpoint: &Path, kept: &[SpillFile]) {
    let Some(name) = checkpoint.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let Ok(entries) = fs::read_dir(directory(checkpoint)) else {
        return;
    };
    let prefix = format!("{name}.spill-");
    let kept: Vec<PathBuf> = kept.iter().map(|f| path_of(checkpoint, f)).collect();
    for entry in entries.flatten() {
        let path = entry.path();
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(&prefix));
        if ours && !kept.iter().any(|k| k.file_name() == path.file_name()) {
            let _ = fs::remove_file(&path);
        }
    }
}

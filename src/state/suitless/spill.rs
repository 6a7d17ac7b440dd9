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
//! The layer under way reads its cells from those files one by one, as
//! its threads take them, rather than all at its start ([`index`],
//! [`Piece`]): the first run of that game began its layer 37 with 6.2 G
//! entries waiting in memory (13.9 GB), its own cells' and the layers'
//! above, and was killed for memory. When the entries held are still
//! past the bound at a layer's start, its cells' piles go to a file of
//! their own too, but for the first ones taken (`layers.rs`,
//! `Search::spill_layer`). A save inside the layer names those files and
//! marks the cells still on disk (`checkpoint::ON_DISK`): resumed, the
//! layer reads from them those cells alone, and never one retired since.
//!
//! Entries spilled are entries filed: the search is the same, only
//! where the entries wait differs (the tests compare the two).

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// The spill files waiting in the search, those of the layer under way,
/// those read back and not yet free to remove, and the number of the
/// next.
#[derive(Default)]
pub(super) struct Spilled {
    pub(super) waiting: Vec<SpillFile>,
    pub(super) current: Vec<SpillFile>,
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
            current: Vec::new(),
            read: Vec::new(),
            next,
            refused: false,
        }
    }

    /// Writes `cells` (of `layer`, sorted by key) to a new file, named
    /// among those waiting: where each cell's pile begins in it.
    pub(super) fn write(
        &mut self,
        checkpoint: &Path,
        layer: usize,
        cells: &[(u64, Pile)],
    ) -> io::Result<Vec<u64>> {
        let number = self.next;
        self.next += 1;
        let path = named(checkpoint, layer, number);
        let file = File::create_new(&path)?;
        let written = (|| {
            let mut out = Summed::new(BufWriter::with_capacity(1 << 20, &file));
            let mut offsets = Vec::new();
            offsets.try_reserve_exact(cells.len())?;
            for (cell, pile) in cells {
                out.write_all(&cell.to_le_bytes())?;
                offsets.push(out.count);
                pile.write_to(&mut out)?;
            }
            out.flush()?;
            let sum = out.sum;
            drop(out);
            file.sync_all()?;
            let spilled = SpillFile {
                layer,
                number,
                bytes: file.metadata()?.len(),
                sum,
            };
            Ok::<_, io::Error>((spilled, offsets))
        })();
        match written {
            Ok((spilled, offsets)) => {
                self.waiting.push(spilled);
                Ok(offsets)
            }
            Err(e) => {
                let _ = fs::remove_file(&path);
                Err(e)
            }
        }
    }

    /// The files of `layer`, taken from those waiting: the caller
    /// indexes them ([`index`]) and adds them to those of the layer under
    /// way ([`Spilled::current`]), read back once it is done
    /// ([`Spilled::layer_done`]).
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

    /// The layer under way is done: its files are read back.
    pub(super) fn layer_done(&mut self) {
        self.read.append(&mut self.current);
    }

    /// Removes every file: the search has ended decided.
    pub(super) fn remove_all(&mut self, checkpoint: &Path) {
        self.read.append(&mut self.waiting);
        self.read.append(&mut self.current);
        self.remove_read(checkpoint);
    }
}

/// A cell's pile in a spill file, read when the cell is taken
/// ([`Piece::read`]): where it begins, and its entries.
pub(super) struct Piece {
    file: Arc<Opened>,
    offset: u64,
    pub(super) entries: usize,
}

/// A spill file open for reading, and its name for the messages.
pub(super) struct Opened {
    file: File,
    path: PathBuf,
}

impl Opened {
    pub(super) fn open(checkpoint: &Path, spilled: &SpillFile) -> io::Result<Arc<Opened>> {
        let path = path_of(checkpoint, spilled);
        crate::output::must_be_regular(&path)?;
        let file = File::open(&path)?;
        Ok(Arc::new(Opened { file, path }))
    }

    /// The piece of `file` whose pile begins at `offset`.
    pub(super) fn piece(file: &Arc<Opened>, offset: u64, entries: usize) -> Piece {
        Piece {
            file: Arc::clone(file),
            offset,
            entries,
        }
    }
}

impl Piece {
    /// Its pile, read from its file (checked whole by [`index`] when its
    /// layer began): an error names the file.
    pub(super) fn read(&self) -> Result<Pile, String> {
        let at = At {
            file: &self.file.file,
            offset: self.offset,
        };
        Pile::read_from(&mut BufReader::with_capacity(1 << 16, at))
            .map_err(|e| format!("cannot read back {}: {e}", self.file.path.display()))
    }
}

/// A reader of a file from an offset on, which other threads read too.
struct At<'a> {
    file: &'a File,
    offset: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.file.read_at(buf, self.offset)?;
        self.offset += read as u64;
        Ok(read)
    }
}

/// The cells of the spill file `spilled`, each with where its pile
/// begins and its entries, the file read whole to check its size and
/// checksum, its piles not kept: the layer under way
/// reads each when its cell is taken ([`Piece::read`]).
pub(super) fn index(checkpoint: &Path, spilled: &SpillFile) -> io::Result<Vec<(u64, Piece)>> {
    let file = Opened::open(checkpoint, spilled)?;
    let damaged = |what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} {what}", file.path.display()),
        )
    };
    if file.file.metadata()?.len() != spilled.bytes {
        return Err(damaged("is not the size it was written"));
    }
    let mut input = Summed::new(BufReader::with_capacity(1 << 20, &file.file));
    let mut pieces = Vec::new();
    let number = |input: &mut Summed<_>| {
        let mut bytes = [0; 8];
        input
            .read_exact(&mut bytes)
            .map(|()| u64::from_le_bytes(bytes))
    };
    // Each pile as `Pile::write_to` writes it: members sorted, the
    // packed bytes' length, those bytes, members loose, 8 bytes each.
    while input.count < spilled.bytes {
        let cell = number(&mut input)?;
        let offset = input.count;
        let sorted = number(&mut input)?;
        let packed = number(&mut input)?;
        io::copy(&mut (&mut input).take(packed), &mut io::sink())?;
        let loose = number(&mut input)?;
        let skip = loose.checked_mul(8).ok_or_else(|| damaged("is damaged"))?;
        io::copy(&mut (&mut input).take(skip), &mut io::sink())?;
        if input.count > spilled.bytes {
            return Err(damaged("is cut short"));
        }
        let entries = usize::try_from(sorted.saturating_add(loose)).unwrap_or(usize::MAX);
        if pieces.len() == pieces.capacity() {
            pieces
                .try_reserve(pieces.len().max(1024))
                .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        }
        pieces.push((cell, Opened::piece(&file, offset, entries)));
    }
    if input.sum != spilled.sum {
        return Err(damaged("does not match its checksum"));
    }
    Ok(pieces)
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

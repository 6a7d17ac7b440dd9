//! The disk side of the layered search: one file of records per pending
//! layer, and the manifest that says how far the search got.
//!
//! A record is a child's key and its parent's key, 20 bytes each (a key's
//! 156 bits: two full words and the 30 bits of the third), so that the
//! path to a won position can be rebuilt from the files. A layer's file
//! may hold a position many times (once per parent that found it); the
//! duplicates go when the layer is loaded into its visited set.
//!
//! The manifest is written (temp file, then rename) when the layered
//! search starts and after each layer it completes: the deal and rules it
//! belongs to, the next layer, and each file's length at that point.
//! Whatever was appended after it (a run stopped mid-layer) is cut off
//! when the search resumes, so a stop at any moment leaves a directory
//! the same command goes on from.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::manifest::{MANIFEST, Manifest};
use super::measure::MOST;
use super::record::{KEY_BYTES, RECORD_BYTES, get_key, put_key};
use crate::state::Key;

/// Layer files are named this, then the layer.
const LAYER_PREFIX: &str = "xpat-spill-layer-";

/// The layer files of one search, and what they hold.
pub(super) struct Store {
    dir: PathBuf,
    max_bytes: u64,
    /// Per layer: the file's length, all appended records counted.
    lengths: Vec<u64>,
    writers: Vec<Option<BufWriter<File>>>,
    /// Per layer: records appended since its file was last synced.
    dirty: Vec<bool>,
    /// The bytes of all the files.
    used: u64,
}

/// Why a record could not be kept.
#[derive(Debug)]
pub(super) enum Full {
    /// `--spill-max` would be passed.
    Disk,
    Io(io::Error),
}

impl Store {
    /// The files of a search that starts in `dir`: any layer file of an
    /// earlier search there is emptied, and the suitless proof's save
    /// removed: the usual search that made it is over, and a manifest
    /// skips it from now on, so nothing would resume from the save (and
    /// the layers get all of `max_bytes`).
    pub(super) fn fresh(dir: &Path, max_bytes: u64) -> io::Result<Store> {
        remove_ours(dir, false)?;
        remove_if_there(&dir.join(super::SUITLESS_CHECKPOINT))?;
        Store::at(dir, max_bytes, vec![0; MOST + 1])
    }

    /// The files as a manifest left them: longer ones cut back to its
    /// lengths (what a stopped run appended after it).
    pub(super) fn at(dir: &Path, max_bytes: u64, lengths: Vec<u64>) -> io::Result<Store> {
        for (layer, &len) in lengths.iter().enumerate() {
            let path = layer_path(dir, layer);
            if len == 0 {
                match fs::remove_file(&path) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
            } else {
                crate::output::must_be_regular(&path)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
                let file = OpenOptions::new().write(true).open(&path)?;
                if file.metadata()?.len() < len {
                    return Err(io::Error::other(format!(
                        "{} is shorter than its manifest says",
                        path.display()
                    )));
                }
                file.set_len(len)?;
            }
        }
        Ok(Store {
            dir: dir.to_path_buf(),
            max_bytes,
            used: lengths.iter().sum(),
            lengths,
            writers: (0..=MOST).map(|_| None).collect(),
            dirty: vec![false; MOST + 1],
        })
    }

    pub(super) fn used(&self) -> u64 {
        self.used
    }

    pub(super) fn lengths(&self) -> &[u64] {
        &self.lengths
    }

    /// The first layer from `from` up whose file holds a record.
    pub(super) fn next_layer(&self, from: usize) -> Option<usize> {
        (from..=MOST).find(|&layer| self.lengths[layer] > 0)
    }

    /// Appends `key`, found from `parent`, to `layer`'s file.
    pub(super) fn append(&mut self, layer: usize, key: &Key, parent: &Key) -> Result<(), Full> {
        if self.used + RECORD_BYTES > self.max_bytes {
            return Err(Full::Disk);
        }
        if self.writers[layer].is_none() {
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(layer_path(&self.dir, layer))
                .map_err(Full::Io)?;
            self.writers[layer] = Some(BufWriter::with_capacity(1 << 16, file));
        }
        let mut record = [0u8; RECORD_BYTES as usize];
        put_key(&mut record[..KEY_BYTES], key);
        put_key(&mut record[KEY_BYTES..], parent);
        let writer = self.writers[layer].as_mut().expect("opened above");
        writer.write_all(&record).map_err(Full::Io)?;
        self.lengths[layer] += RECORD_BYTES;
        self.dirty[layer] = true;
        self.used += RECORD_BYTES;
        Ok(())
    }

    /// Cuts the files back to `lengths` (a pass searched again): what was
    /// appended since goes.
    pub(super) fn truncate_to(&mut self, lengths: &[u64]) -> io::Result<()> {
        self.flush()?;
        for (layer, &len) in lengths.iter().enumerate() {
            if self.lengths[layer] > len {
                let file = OpenOptions::new()
                    .write(true)
                    .open(layer_path(&self.dir, layer))?;
                file.set_len(len)?;
                self.used -= self.lengths[layer] - len;
                self.lengths[layer] = len;
            }
        }
        Ok(())
    }

    /// Everything appended, in the files.
    pub(super) fn flush(&mut self) -> io::Result<()> {
        for writer in self.writers.iter_mut().flatten() {
            writer.flush()?;
        }
        Ok(())
    }

    /// Everything appended, on the disk itself: what a manifest counts
    /// survives a crash of the machine, not only a stopped process.
    fn sync(&mut self) -> io::Result<()> {
        self.flush()?;
        for (writer, dirty) in self.writers.iter().zip(&mut self.dirty) {
            if let Some(writer) = writer
                && *dirty
            {
                writer.get_ref().sync_data()?;
                *dirty = false;
            }
        }
        Ok(())
    }

    /// Every record of `layer`'s file, in the order appended: a child's
    /// key and its parent's, until `each` says stop (`false`).
    pub(super) fn read_layer(
        &mut self,
        layer: usize,
        each: impl FnMut(Key, Key) -> bool,
    ) -> io::Result<()> {
        self.flush()?;
        let file = File::open(layer_path(&self.dir, layer))?;
        read_records(file, self.lengths[layer], each)
    }

    /// Writes the manifest (`lengths` its own, the store's): to a
    /// temporary file first, renamed over the last one, so that a stop at
    /// any moment leaves one whole manifest.
    pub(super) fn write_manifest(&mut self, manifest: &Manifest) -> io::Result<()> {
        self.sync()?;
        let temp = self.dir.join(format!("{MANIFEST}.tmp"));
        {
            // Made new: whatever lies under that name (a FIFO would
            // block the open) goes first.
            remove_if_there(&temp)?;
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp)?;
            file.write_all(manifest.text().as_bytes())?;
            file.sync_data()?;
        }
        fs::rename(&temp, self.dir.join(MANIFEST))
    }

    /// Removes every file of the search: the layers' and their parts, the
    /// manifest and its temporary file, the suitless game's save; nothing
    /// else in the directory.
    pub(super) fn remove_all(mut self) -> io::Result<()> {
        self.writers.clear();
        remove_ours(&self.dir, true)
    }

    /// Counts in the disk used the part files of `layer` that `passes`
    /// name (a resumed search's).
    pub(super) fn count_parts(&mut self, layer: usize, passes: &[(u64, u64)]) -> io::Result<()> {
        for &(modulus, residue) in passes {
            if modulus > 1 {
                self.used += fs::metadata(part_path(&self.dir, layer, modulus, residue))?.len();
            }
        }
        Ok(())
    }

    /// Records in the file of the pass `(modulus, residue)` of `layer`:
    /// the layer's own file for the pass of every cell (`modulus` 1), else
    /// a part file split from it.
    pub(super) fn records_in(&self, layer: usize, modulus: u64, residue: u64) -> io::Result<u64> {
        Ok(if modulus == 1 {
            self.lengths[layer] / RECORD_BYTES
        } else {
            fs::metadata(part_path(&self.dir, layer, modulus, residue))?.len() / RECORD_BYTES
        })
    }

    /// Every record of the pass `(modulus, residue)` of `layer`, as
    /// [`Store::read_layer`] gives them.
    pub(super) fn read_pass(
        &mut self,
        layer: usize,
        (modulus, residue): (u64, u64),
        each: impl FnMut(Key, Key) -> bool,
    ) -> io::Result<()> {
        if modulus == 1 {
            return self.read_layer(layer, each);
        }
        let file = File::open(part_path(&self.dir, layer, modulus, residue))?;
        read_records(file, u64::MAX, each)
    }

    /// Splits the pass `(modulus, residue)` of `layer` into `factor` part
    /// files by the hash `cell` of each record's key: the passes
    /// `(modulus * factor, residue + i * modulus)`, in the order to take
    /// them (the last first). The source stays until
    /// [`Store::remove_part`]. `Err(Full::Disk)` when the parts would pass
    /// the disk limit.
    pub(super) fn split(
        &mut self,
        layer: usize,
        (modulus, residue): (u64, u64),
        factor: u64,
        cell: impl Fn(&Key) -> u64,
    ) -> Result<Vec<(u64, u64)>, Full> {
        let bytes = self.records_in(layer, modulus, residue).map_err(Full::Io)? * RECORD_BYTES;
        if self.used + bytes > self.max_bytes {
            return Err(Full::Disk);
        }
        let to = modulus * factor;
        let passes: Vec<(u64, u64)> = (0..factor).map(|i| (to, residue + i * modulus)).collect();
        let mut parts = passes
            .iter()
            .map(|&(m, r)| {
                Ok(BufWriter::new(File::create(part_path(
                    &self.dir, layer, m, r,
                ))?))
            })
            .collect::<io::Result<Vec<_>>>()
            .map_err(Full::Io)?;
        let mut failed = None;
        self.read_pass(layer, (modulus, residue), |key, parent| {
            let part = (cell(&key) % to / modulus) as usize;
            let mut record = [0u8; RECORD_BYTES as usize];
            put_key(&mut record[..KEY_BYTES], &key);
            put_key(&mut record[KEY_BYTES..], &parent);
            failed = parts[part].write_all(&record).err();
            failed.is_none()
        })
        .map_err(Full::Io)?;
        if let Some(e) = failed {
            return Err(Full::Io(e));
        }
        for part in &mut parts {
            part.flush().map_err(Full::Io)?;
            part.get_ref().sync_data().map_err(Full::Io)?;
        }
        self.used += bytes;
        Ok(passes.into_iter().rev().collect())
    }

    /// Removes the part file of a pass done or split (none for the
    /// layer's own file).
    pub(super) fn remove_part(
        &mut self,
        layer: usize,
        modulus: u64,
        residue: u64,
    ) -> io::Result<()> {
        if modulus > 1 {
            let bytes = self.records_in(layer, modulus, residue)? * RECORD_BYTES;
            fs::remove_file(part_path(&self.dir, layer, modulus, residue))?;
            self.used -= bytes.min(self.used);
        }
        Ok(())
    }
}

/// Removes the search's files from `dir`: every layer file and part, and
/// the manifest and the suitless game's save too when `manifest`.
fn remove_ours(dir: &Path, manifest: bool) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(LAYER_PREFIX) {
            remove_if_there(&dir.join(&*name))?;
        }
    }
    if manifest {
        remove_if_there(&dir.join(format!("{MANIFEST}.tmp")))?;
        remove_if_there(&dir.join(MANIFEST))?;
        remove_if_there(&dir.join(super::SUITLESS_CHECKPOINT))?;
    }
    Ok(())
}

/// Every record of `file` within its first `len` bytes, until `each`
/// says stop.
fn read_records(file: File, len: u64, mut each: impl FnMut(Key, Key) -> bool) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 20, file.take(len));
    let mut record = [0u8; RECORD_BYTES as usize];
    loop {
        match reader.read_exact(&mut record) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        }
        if !each(get_key(&record[..KEY_BYTES]), get_key(&record[KEY_BYTES..])) {
            return Ok(());
        }
    }
}

fn part_path(dir: &Path, layer: usize, modulus: u64, residue: u64) -> PathBuf {
    dir.join(format!("{LAYER_PREFIX}{layer:03}.{modulus}-{residue}"))
}

fn remove_if_there(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

fn layer_path(dir: &Path, layer: usize) -> PathBuf {
    dir.join(format!("{LAYER_PREFIX}{layer:03}"))
}

#[cfg(test)]
mod tests {
    use super::super::manifest::read_manifest;
    use super::super::record::no_key;
    use super::*;

    #[test]
    fn a_record_gives_back_its_keys() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::fresh(dir.path(), 1 << 20).unwrap();
        let a = Key::from_words([(1 << 63) - 1, 12345, (1 << 30) - 1]);
        let b = Key::from_words([7, 0, 3]);
        store.append(4, &a, &no_key()).unwrap();
        store.append(4, &b, &a).unwrap();
        let mut seen = Vec::new();
        store
            .read_layer(4, |k, p| {
                seen.push((k, p));
                true
            })
            .unwrap();
        assert_eq!(seen, vec![(a, no_key()), (b, a)]);
        assert_eq!(store.used(), 2 * RECORD_BYTES);
        assert_eq!(store.next_layer(0), Some(4));
        assert_eq!(store.next_layer(5), None);
    }

    /// The layers begin: an earlier search's layer file is emptied and
    /// the suitless proof's save, which nothing resumes from now on, is
    /// removed; a file of someone else is left alone.
    #[test]
    fn fresh_layers_remove_the_suitless_save() {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join(super::super::SUITLESS_CHECKPOINT);
        let theirs = dir.path().join("notes.txt");
        for file in [&save, &theirs, &layer_path(dir.path(), 3)] {
            fs::write(file, b"bytes").unwrap();
        }
        let store = Store::fresh(dir.path(), 1 << 20).unwrap();
        assert!(!save.exists());
        assert!(theirs.exists());
        assert_eq!(store.used(), 0);
        assert_eq!(store.next_layer(0), None);
    }

    #[test]
    fn a_manifest_reads_back_and_cuts_what_came_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::fresh(dir.path(), 1 << 20).unwrap();
        let key = Key::from_words([1, 2, 3]);
        store.append(9, &key, &no_key()).unwrap();
        let manifest = Manifest {
            deal: "BakersDozen.7".into(),
            rules: "forced".into(),
            phase: "forced".into(),
            next: 9,
            passes: vec![(4, 1), (8, 7)],
            expanded: 5,
            stored: 6,
            seconds: 1.5,
            lengths: store.lengths().to_vec(),
        };
        store.write_manifest(&manifest).unwrap();
        store.append(9, &key, &key).unwrap();
        store.append(11, &key, &key).unwrap();
        store.flush().unwrap();
        let read = read_manifest(dir.path()).unwrap().unwrap();
        assert_eq!(read, manifest);
        let store = Store::at(dir.path(), 1 << 20, read.lengths).unwrap();
        assert_eq!(store.used(), RECORD_BYTES);
        assert_eq!(
            fs::metadata(layer_path(dir.path(), 9)).unwrap().len(),
            RECORD_BYTES
        );
        assert!(!layer_path(dir.path(), 11).exists());
        fs::write(dir.path().join("mine"), "a user's file").unwrap();
        store.remove_all().unwrap();
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("mine")]);
    }

    #[test]
    fn the_disk_limit_refuses_a_record_past_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::fresh(dir.path(), RECORD_BYTES).unwrap();
        let key = Key::from_words([1, 2, 3]);
        assert!(store.append(2, &key, &no_key()).is_ok());
        assert!(matches!(store.append(2, &key, &key), Err(Full::Disk)));
    }

    #[test]
    fn a_foreign_file_is_no_manifest() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(MANIFEST), "hello\n").unwrap();
        assert!(read_manifest(dir.path()).is_err());
    }
}

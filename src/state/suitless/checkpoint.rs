//! The search in layers saved at a layer's end or in the middle of a
//! layer, and resumed from there.
//!
//! Why: the largest suitless games of Baker's Dozen's tail take hours
//! (bd.99807 under complete rules: some 6 G positions, nearly three
//! hours on two threads; docs/hard-deals.md), longer than a process may
//! live, and a proof killed in its last layer had to start again. At a
//! layer's end everything the search still needs is the entries waiting
//! in the higher layers: the layers done are never entered again (the
//! module doc of `layers.rs`). So a checkpoint holds those entries, the
//! next layer and the positions counted so far; a search resumed from it
//! searches exactly the cells and entries the search saved would have
//! searched, and ends with the same verdict and the same count.
//!
//! A layer can itself take hours (BakersDozen.191326999's game with
//! clubs followed under complete rules: layer 32 alone past 448 M
//! positions), so a save may also come in the middle of a layer, while
//! its threads go on: the file is the same, the layer saved being the
//! one under way with only its cells not yet retired (a cell is retired
//! once every entry it filed is in the higher layers), and the count the
//! cells retired's (`layers.rs`, `save_inside`). Cells never file entries
//! in their own layer, so those cells left are whole.
//!
//! A single cell can take an hour too (layer 33 of that game), and a
//! process killed in it lost that hour. So a cell under way is saved
//! with its search: the positions it has searched (their moves out all
//! filed first) beside those it has still to search, which take the
//! place of its entries; resumed, it goes on from there. The searched
//! ones are a second pile under the same cell, its key marked
//! [`UNDER_WAY`].
//!
//! A layer's cells may wait in spill files too (`spill.rs`), read one by
//! one as the layer's threads take them. A save inside the layer names
//! those files, and marks each cell with entries still there: a pile of
//! nothing under its key marked [`ON_DISK`] (beside its own pile, if it
//! has entries in memory too). Resumed, the layer reads from its files
//! those cells alone, so a cell retired since never returns. Where none
//! is marked, the files of the first layer are read whole, as those of
//! the layers above.
//!
//! The file: a header naming the format, the game's fingerprint (its
//! columns' cards, its rules and its start: a checkpoint resumes only
//! its own game), the next layer and the positions counted; then every
//! cell waiting, ordered by layer and cell, with its pile as
//! [`Pile::write_to`] writes it; then the spill files whose entries wait
//! on disk (`spill.rs`: layer, number, size and checksum of each); then
//! an end mark and a checksum of all that came before. It is written to
//! a temporary file beside its path, synced, then renamed over it: whole
//! or not at all, and a checkpoint never replaces the last one with
//! less.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::pile::Pile;
use super::{Game, Position};
use crate::cards::{KING, RANK_CARDS, card_of};
use crate::state::State;

/// Where a search in layers saves itself, and how often.
#[derive(Clone, Copy, Debug)]
pub struct Checkpoint<'a> {
    /// The file, replaced at each save.
    pub path: &'a Path,
    /// The least time between two saves: a save comes at the end of the
    /// first layer done that long after the last save (or the start),
    /// or, in a layer that runs past it, within a second, the layer going
    /// on (its cells under way kept with the positions they had searched,
    /// and resumed from there).
    pub every: Duration,
    /// The largest file allowed (`--spill-max` for `-search --spill`):
    /// a save that would pass it is not written, and the last one stays.
    pub most_bytes: u64,
    /// Past this many bytes of entries waiting, those of the farthest
    /// layers go to files beside the checkpoint (`spill.rs`) until half
    /// as many are held; `usize::MAX`: never.
    pub spill_over: usize,
}

/// One file of entries spilled to disk (`spill.rs`) that a checkpoint
/// names: its layer, its name's number, its size and its checksum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SpillFile {
    pub(super) layer: usize,
    pub(super) number: u64,
    pub(super) bytes: u64,
    pub(super) sum: u64,
}

/// A save made: what a progress line says of it.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The file's size.
    pub bytes: u64,
    /// The time writing it took.
    pub took: Duration,
    /// Cells under way saved with the positions they had searched.
    pub under_way: usize,
}

/// A checkpoint read back, for its game: what resumes a search
/// (`state::suitless_resumed_in_layers`).
pub struct Resumed {
    /// The real position whose suitless game was saved.
    pub(super) state: State,
    /// The cards followed in it (none: the suitless game itself).
    pub(super) cards: u64,
    /// The first layer not searched whole (its cells not retired, if it
    /// was saved under way).
    pub(super) layer: usize,
    /// Positions searched in the layers before it.
    pub(super) total: usize,
    /// The entries waiting: layer, cell, pile.
    pub(super) cells: Vec<(usize, u64, Pile)>,
    /// The entries waiting in spill files beside it (`spill.rs`).
    pub(super) spilled: Vec<SpillFile>,
}

impl Resumed {
    /// The first layer the search resumed goes on from.
    pub fn layer(&self) -> usize {
        self.layer
    }

    /// The positions searched before the save.
    pub fn positions(&self) -> usize {
        self.total
    }

    /// The entries waiting in the file, repeats among a pile's loose
    /// members counted.
    pub fn waiting(&self) -> usize {
        self.cells
            .iter()
            .filter(|(_, cell, _)| cell & (UNDER_WAY | ON_DISK) == 0)
            .map(|(_, _, pile)| pile.len())
            .sum()
    }

    /// [`Resumed::waiting`] layer by layer, lowest first: `(layer,
    /// entries, cells)`. Why: how much of a long proof is left shows in
    /// the layers still to come (BakersDozen.191326999's run read it
    /// from its saves with a script, docs/hard-deals.md).
    pub fn waiting_by_layer(&self) -> Vec<(usize, usize, usize)> {
        let mut layers: Vec<(usize, usize, usize)> = Vec::new();
        // The cells are ordered by layer (the module doc).
        for (layer, _, pile) in self
            .cells
            .iter()
            .filter(|(_, cell, _)| cell & (UNDER_WAY | ON_DISK) == 0)
        {
            match layers.last_mut() {
                Some((last, entries, cells)) if last == layer => {
                    *entries += pile.len();
                    *cells += 1;
                }
                _ => layers.push((*layer, pile.len(), 1)),
            }
        }
        layers
    }

    /// The spill files it names, whose entries wait on disk (`spill.rs`;
    /// not counted in [`Resumed::waiting`]).
    pub fn spill_files(&self) -> usize {
        self.spilled.len()
    }

    /// The cells saved under way, with positions searched.
    pub fn under_way(&self) -> usize {
        self.cells
            .iter()
            .filter(|(_, cell, _)| cell & UNDER_WAY != 0)
            .count()
    }

    /// The checkpoint at `path`, if it is one of `state`'s suitless
    /// game. The error says why not: unreadable, not a checkpoint, one
    /// of another game or of other rules, cut short or damaged, or too
    /// large for the memory.
    pub fn read(state: &State, path: &Path) -> Result<Resumed, String> {
        Resumed::read_followed(state, 0, path)
    }

    /// [`Resumed::read`] for the game of `state` with `cards` followed
    /// (`followed_in_layers`): a checkpoint of it, and of no other set
    /// of cards followed.
    pub fn read_followed(state: &State, cards: u64, path: &Path) -> Result<Resumed, String> {
        let shown = path.display();
        let Some((game, start)) = Game::of(state) else {
            return Err("only Baker's Dozen's suitless game is searched in layers".to_string());
        };
        let file = crate::output::must_be_regular(path)
            .and_then(|()| File::open(path))
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        let mut input = Summed::new(BufReader::with_capacity(1 << 20, file));
        let mut magic = vec![0; MAGIC.len()];
        input
            .read_exact(&mut magic)
            .ok()
            .filter(|_| {
                [MAGIC, MAGIC_UNMARKED, MAGIC_UNSPILLED, MAGIC_BEFORE].contains(&&magic[..])
            })
            .ok_or_else(|| {
                format!("{shown} is not a checkpoint of the suitless search in layers")
            })?;
        let marks = if magic == MAGIC {
            UNDER_WAY | ON_DISK
        } else if magic == MAGIC_BEFORE {
            0
        } else {
            UNDER_WAY
        };
        let damaged = |e: io::Error| match e.kind() {
            io::ErrorKind::OutOfMemory => format!("{shown}: not memory enough to read it back"),
            io::ErrorKind::UnexpectedEof => format!("{shown} is cut short"),
            _ => format!("{shown} is cut short or damaged ({e})"),
        };
        let saved_for = read_text(&mut input).map_err(damaged)?;
        if saved_for != fingerprint(&game, &start, cards) {
            return Err(format!(
                "{shown} is a checkpoint of another game (another deal, position or rules)"
            ));
        }
        let (layer, total) = (read_u64(&mut input), read_u64(&mut input));
        let (layer, total) = (layer.map_err(damaged)?, total.map_err(damaged)?);
        let cells = read_cells(&mut input, layer, marks).map_err(damaged)?;
        let spilled = if magic == MAGIC || magic == MAGIC_UNMARKED {
            read_spilled(&mut input, layer).map_err(damaged)?
        } else {
            Vec::new()
        };
        // A save is made only with entries waiting (`layers.rs`).
        if cells.is_empty() && spilled.is_empty() {
            return Err(damaged(invalid("no cell waiting")));
        }
        let sum = input.sum;
        let mut end = vec![0; END.len()];
        input.read_exact(&mut end).map_err(damaged)?;
        let written = read_u64(&mut input).map_err(damaged)?;
        if end != END || written != sum {
            return Err(damaged(invalid("its checksum does not match")));
        }
        if input.read(&mut [0]).map_err(damaged)? != 0 {
            return Err(damaged(invalid("bytes after its end")));
        }
        Ok(Resumed {
            state: state.clone(),
            cards,
            layer: usize::try_from(layer).map_err(|_| damaged(invalid("a layer too high")))?,
            total: usize::try_from(total).map_err(|_| damaged(invalid("a count too large")))?,
            cells,
            spilled,
        })
    }
}

/// The file's first bytes: its format, and its version.
const MAGIC: &[u8] = b"xpat-solver: suitless search in layers, checkpoint 4\n";

/// The version before cells were marked on disk ([`ON_DISK`]): still
/// read.
const MAGIC_UNMARKED: &[u8] = b"xpat-solver: suitless search in layers, checkpoint 3\n";

/// The version before spill files were named (no list after the
/// cells): still read.
const MAGIC_UNSPILLED: &[u8] = b"xpat-solver: suitless search in layers, checkpoint 2\n";

/// The version before cells under way were saved (no key marked
/// [`UNDER_WAY`]): still read.
const MAGIC_BEFORE: &[u8] = b"xpat-solver: suitless search in layers, checkpoint 1\n";

/// The mark on a cell's key whose pile holds the positions it has
/// searched, in a cell saved under way (the module doc): above every
/// cell's bits (`CELL_BITS`), so it comes after the unmarked cells of
/// its layer in the file's order.
pub(super) const UNDER_WAY: u64 = 1 << 63;

/// The mark on a cell's key, with a pile of nothing, whose entries wait
/// in the spill files of the layer under way (the module doc): between
/// the unmarked cells of its layer and those marked [`UNDER_WAY`].
pub(super) const ON_DISK: u64 = 1 << 62;

/// The mark after the last cell, before the checksum.
const END: &[u8] = b"end\n";

/// The layer written where no cell follows.
const NO_MORE: u64 = u64::MAX;

/// What a game's checkpoint must match: everything the suitless game and
/// its search are made of, as text, and the cards followed in it, if any
/// (named after the rest, so that the suitless game's checkpoints of
/// before read as they were written).
fn fingerprint(game: &Game, start: &Position, cards: u64) -> String {
    // The entries of a set with two cards of a rank leave out the
    // columns its cards written before took (`Following`'s `Layered`
    // doc); a checkpoint saved before they did lacks this mark, and is
    // refused as another game's.
    let shared_rank = (1..=KING).any(|r| (cards >> card_of(r, 0) & RANK_CARDS).count_ones() > 1);
    let followed = match (cards, shared_rank) {
        (0, _) => String::new(),
        (_, false) => format!(" followed {cards:#x}"),
        (_, true) => format!(" followed {cards:#x}, a rank's columns told apart"),
    };
    format!(
        "columns {:?} bottoms {:?} fixed {:?} automatic {:?} returns {:?} start {:?}{followed}",
        game.columns,
        game.bottoms,
        &game.fixed[..game.columns],
        game.automatic,
        game.returns,
        start
    )
}

/// Writes the checkpoint of the search of `state`'s game (`cards`
/// followed in it) at the start of layer `layer`, `total` positions
/// searched before it (`(layer, total)`), with `cells` (layer, cell,
/// pile; in increasing order of layer and cell) and the `spilled` files:
/// whole or not at all (the module doc), and not at all past `most`
/// bytes.
pub(super) fn write(
    state: &State,
    cards: u64,
    path: &Path,
    most: u64,
    (layer, total): (usize, usize),
    spilled: &[SpillFile],
    cells: impl FnOnce(&mut dyn FnMut(usize, u64, &Pile) -> io::Result<()>) -> io::Result<()>,
) -> Result<Saved, String> {
    let began = Instant::now();
    let shown = path.display();
    let Some((game, start)) = Game::of(state) else {
        return Err("only Baker's Dozen's suitless game is searched in layers".to_string());
    };
    let dir = directory(path);
    let mut temp = crate::output::temp_file_named()
        .tempfile_in(&dir)
        .map_err(|e| {
            let e = crate::output::system_reason(&e);
            format!(
                "cannot write {shown}: cannot create a file in {}: {e}",
                dir.display()
            )
        })?;
    let fail = |e: io::Error| format!("cannot write {shown}: {e}");
    let mut under_way = 0;
    {
        let file = Bounded {
            inner: temp.as_file_mut(),
            most,
            left: most,
        };
        let mut out = Summed::new(BufWriter::with_capacity(1 << 20, file));
        out.write_all(MAGIC).map_err(fail)?;
        write_text(&mut out, &fingerprint(&game, &start, cards)).map_err(fail)?;
        out.write_all(&(layer as u64).to_le_bytes()).map_err(fail)?;
        out.write_all(&(total as u64).to_le_bytes()).map_err(fail)?;
        cells(&mut |layer, cell, pile| {
            under_way += usize::from(cell & UNDER_WAY != 0);
            out.write_all(&(layer as u64).to_le_bytes())?;
            out.write_all(&cell.to_le_bytes())?;
            pile.write_to(&mut out)
        })
        .map_err(fail)?;
        out.write_all(&NO_MORE.to_le_bytes()).map_err(fail)?;
        write_spilled(&mut out, spilled).map_err(fail)?;
        let sum = out.sum;
        out.write_all(END).map_err(fail)?;
        out.write_all(&sum.to_le_bytes()).map_err(fail)?;
        out.inner.flush().map_err(fail)?;
    }
    temp.as_file().sync_all().map_err(fail)?;
    let bytes = temp.as_file().metadata().map_err(fail)?.len();
    temp.persist(path)
        .map_err(|e| format!("cannot write {shown}: {}", e.error))?;
    Ok(Saved {
        bytes,
        took: began.elapsed(),
        under_way,
    })
}

/// The directory a file of `path` goes in.
pub(super) fn directory(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The cells of a file, up to the mark after the last: each in a layer
/// from `first` on, in increasing order of layer and cell (so none twice);
/// with the `marks` its version knows, in `first` only, the positions
/// searched of cells under way too, each after its cell, and the cells
/// on disk, each with a pile of nothing.
fn read_cells(
    input: &mut impl Read,
    first: u64,
    marks: u64,
) -> io::Result<Vec<(usize, u64, Pile)>> {
    let mut cells = Vec::new();
    let mut last = None;
    loop {
        let layer = read_u64(input)?;
        if layer == NO_MORE {
            return Ok(cells);
        }
        let cell = read_u64(input)?;
        let marked = cell & UNDER_WAY != 0;
        let mark = cell & (UNDER_WAY | ON_DISK);
        if layer < first
            || layer > 2 * crate::cards::CARDS as u64
            || cell & !mark >= 1 << super::CELL_BITS
            || mark == UNDER_WAY | ON_DISK
            || (mark != 0 && (marks & mark == 0 || layer != first))
        {
            return Err(invalid("a cell out of range"));
        }
        // The cell's own pile came before, in the same layer: the file's
        // cells are sorted by key, every unmarked one first.
        if marked
            && cells
                .binary_search_by_key(
                    &(first as usize, cell & !UNDER_WAY),
                    |c: &(usize, u64, Pile)| (c.0, c.1),
                )
                .is_err()
        {
            return Err(invalid("positions searched of a cell that is not saved"));
        }
        if last.is_some_and(|last| last >= (layer, cell)) {
            return Err(invalid("cells out of order"));
        }
        last = Some((layer, cell));
        let pile = Pile::read_from(input)?;
        if mark == ON_DISK && pile.len() > 0 {
            return Err(invalid("a cell on disk with entries"));
        }
        if cells.len() == cells.capacity() {
            cells
                .try_reserve(cells.len().max(1024))
                .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        }
        cells.push((layer as usize, cell, pile));
    }
}

/// The spill files waiting (`spill.rs`): their count, then each one's
/// layer, number, size and checksum.
fn write_spilled(out: &mut impl Write, spilled: &[SpillFile]) -> io::Result<()> {
    out.write_all(&(spilled.len() as u64).to_le_bytes())?;
    for f in spilled {
        for n in [f.layer as u64, f.number, f.bytes, f.sum] {
            out.write_all(&n.to_le_bytes())?;
        }
    }
    Ok(())
}

/// [`write_spilled`]'s list read back: each file of a layer from `first`
/// on, none twice.
fn read_spilled(input: &mut impl Read, first: u64) -> io::Result<Vec<SpillFile>> {
    let count = read_u64(input)?;
    let mut spilled: Vec<SpillFile> = Vec::new();
    for _ in 0..count {
        let [layer, number, bytes, sum] = [(); 4].map(|()| read_u64(input));
        let (layer, number, bytes, sum) = (layer?, number?, bytes?, sum?);
        if layer < first || layer > 2 * crate::cards::CARDS as u64 {
            return Err(invalid("a spill file's layer out of range"));
        }
        if spilled.iter().any(|f| f.number == number) {
            return Err(invalid("a spill file named twice"));
        }
        spilled.push(SpillFile {
            layer: layer as usize,
            number,
            bytes,
            sum,
        });
    }
    Ok(spilled)
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

fn read_u64(input: &mut impl Read) -> io::Result<u64> {
    let mut bytes = [0; 8];
    input.read_exact(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

/// Text, its length first (at most a few kilobytes: a fingerprint).
fn write_text(out: &mut impl Write, text: &str) -> io::Result<()> {
    out.write_all(&(text.len() as u64).to_le_bytes())?;
    out.write_all(text.as_bytes())
}

fn read_text(input: &mut impl Read) -> io::Result<String> {
    let length = read_u64(input)?;
    if length > 1 << 16 {
        return Err(invalid("a fingerprint too long"));
    }
    let mut bytes = vec![0; length as usize];
    input.read_exact(&mut bytes)?;
    String::from_utf8(bytes).map_err(|_| invalid("a fingerprint not text"))
}

/// A reader or writer that sums what passes through it (FNV-1a, 64
/// bits): the checksum that tells a damaged file.
/// A writer that refuses to write more than `left` bytes: a save that
/// would pass its bound fails before it fills the disk.
struct Bounded<T> {
    inner: T,
    most: u64,
    left: u64,
}

impl<T: Write> Write for Bounded<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.len() as u64 > self.left {
            return Err(io::Error::other(format!(
                "it would take more than the {:.1} MB allowed (--spill-max)",
                self.most as f64 / 1e6
            )));
        }
        let written = self.inner.write(buf)?;
        self.left -= written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A reader or writer that sums what passes through it (FNV-1a), and
/// counts it.
pub(super) struct Summed<T> {
    inner: T,
    pub(super) sum: u64,
    pub(super) count: u64,
}

impl<T> Summed<T> {
    pub(super) fn new(inner: T) -> Summed<T> {
        Summed {
            inner,
            sum: 0xCBF2_9CE4_8422_2325,
            count: 0,
        }
    }

    fn add(&mut self, bytes: &[u8]) {
        self.count += bytes.len() as u64;
        for &byte in bytes {
            self.sum = (self.sum ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3);
        }
    }
}

impl<T: Read> Read for Summed<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.add(&buf[..read]);
        Ok(read)
    }
}

impl<T: Write> Write for Summed<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(buf)?;
        self.add(&buf[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal;

    /// A checkpoint names its game as the builds before did: this is the
    /// name BakersDozen.191326999's clubs-followed game under complete
    /// rules wrote into its checkpoint (the build of `0ed2af7`), whose
    /// run of hours must resume with later builds. (A field added to
    /// `Position` once changed the name, and the next build refused it.)
    #[test]
    fn a_games_name_is_the_one_earlier_builds_wrote() {
        let deal = test_deal("BakersDozen", 191_326_999);
        let state = State::new(&deal.with_foundation(crate::foundation::Foundation::Xpat2));
        let (game, start) = Game::of(&state).expect("Baker's Dozen");
        let clubs = crate::cards::SUIT_CARDS;
        let written = "columns 13 bottoms [4, 7, 11, 12, 14, 30, 36, 38, 39, 48, 49, 50, 51] \
            fixed [[4, 1, 29, 5, 0, 0, 0], [7, 32, 0, 0, 0, 0, 0], [11, 21, 33, 0, 0, 0, 0], \
            [12, 34, 15, 18, 0, 0, 0], [14, 8, 28, 6, 0, 0, 0], [30, 37, 44, 47, 0, 0, 0], \
            [36, 19, 20, 35, 0, 0, 0], [38, 45, 13, 40, 0, 0, 0], [39, 23, 3, 22, 0, 0, 0], \
            [48, 9, 25, 43, 0, 0, 0], [49, 2, 46, 0, 0, 0, 0], [50, 10, 26, 17, 0, 0, 0], \
            [51, 41, 27, 16, 0, 0, 0]] automatic ReturnSafe returns true \
            start Position { fixed: [4, 2, 3, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4], \
            run: [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0], up: [1, 0, 0, 0] } \
            followed 0x1111111111111";
        assert_eq!(fingerprint(&game, &start, clubs), written);
        // A set with two cards of a rank, whose entries changed, does not
        // read a checkpoint of before.
        let sixes_and_fives = RANK_CARDS << card_of(6, 0) | RANK_CARDS << card_of(5, 0);
        let named = fingerprint(&game, &start, sixes_and_fives);
        assert!(
            named.ends_with(" followed 0xff0000, a rank's columns told apart"),
            "{named}"
        );
    }
}

//! The suitless game searched whole in layers, a cell at a time: the
//! same game as [`super::suitless`], in an order that holds a few
//! hundred million positions where the plain search holds tens.
//!
//! Why: the tail of Baker's Dozen has suitless games of hundreds of
//! millions of positions (bd.7922: 495 M, bd.6682: 655 M, bd.7927:
//! 1.94 G, each lost; docs/hard-deals.md), too many for a set of every
//! position reached. Two facts of the game let
//! a search forget most of what it has seen:
//! - *Layers.* Without cards back from the foundation, a move either
//!   moves a run's top card onto another column (the fixed cards and the
//!   foundation stay as they are), or lowers the fixed cards or raises
//!   the foundation, never the other way: the *layer* (fixed cards gone
//!   plus cards up) never goes down. The settling after a move only
//!   plays cards up, so it too raises the layer or leaves it. So once
//!   every position of a layer has been searched, no later position
//!   leads back into it, and it is forgotten.
//! - *Cells.* Within a layer a move changes only the runs: the fixed
//!   cards and the foundation, a position's *cell*, stay the same. The
//!   cells of a layer are searched one by one, each from the positions
//!   the lower layers led into it (its *entries*), with a set of its own:
//!   memory holds the entries not searched yet and one cell per thread
//!   (bd.7922: 20 000 cells in its twentieth layer, 47 000 positions in
//!   the largest), and a small set is a fast one. A cell's entries are
//!   only added to until it is searched, so they wait in a sorted,
//!   delta-coded [`Pile`], some 4 bytes each.
//!
//! Every position the plain search reaches is reached here and no other
//! (the moves, the settling and the images are the plain search's): the
//! verdicts are the same, only the memory and the order differ (the test
//! beside it compares the two on many deals). The order finds a win only
//! in its layer, late, so this search is for proofs: the plain search,
//! best-first, finds wins sooner.
//!
//! Under xpat2's complete rules a card that comes back from the
//! foundation lowers that layer. Fixed cards gone still never go down,
//! so there a layer counts those alone, and a cell is the fixed cards
//! alone, its runs and foundation the entry ([`Keys`]): larger cells,
//! the same search.
//!
//! The game with some cards followed (`followed.rs`) is searched the
//! same way ([`Layered`]): each of its moves is a move of the suitless
//! game, so its layers and cells are its suitless positions'; an entry
//! adds, to the runs, where the followed cards lie.
//!
//! A search of hours saves itself now and then, at a layer's end or
//! in the middle of a layer, and resumes from there
//! (`checkpoint.rs`).

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use super::cell_set::CellSet;
use super::checkpoint::{self, Checkpoint, Saved};
use super::halves::Halves;
use super::pile::{Packer, Pile, Union};
use super::spill::{self, Piece, Spilled};
use super::{CELL_BITS, Game, Moves, Position, Suitless};
use crate::cards::{CARDS, SUITS};
use crate::lock::lock;
use crate::state::State;

mod lean;
mod repeats;

use lean::Claim;
use repeats::Repeats;

/// What [`super::in_layers`] may use.
pub struct Limits<'a> {
    /// Threads searching the cells of a layer.
    pub threads: usize,
    /// The most entries held at once (some 5 bytes each, `Layer::bytes`):
    /// past it the search stops, open.
    pub most: usize,
    /// Asked every few thousand positions: true stops the search, open.
    pub stopped: &'a (dyn Fn() -> bool + Sync),
    /// How often a layer under way is reported: under complete rules one
    /// layer can take minutes (bd.7922's twenty-first, 207 M positions),
    /// and a log that heard only of layers' ends would fall silent.
    pub every: Duration,
    /// Where the search saves itself at a layer's end, if anywhere.
    pub checkpoint: Option<Checkpoint<'a>>,
    /// Cells of at least this many entries are searched breadth-first,
    /// their positions held sorted and packed, some 2 to 4 bytes each,
    /// instead of in a set of 8 to 16 ([`LEAN_FROM`]).
    pub lean_from: usize,
    /// The bytes of memory free now ([`crate::memory::usable`]; `None`:
    /// not known): a cell is searched breadth-first beside others only
    /// where there is room for all of them (`Search::claim`).
    pub room: fn() -> Option<u64>,
}

/// [`Limits::lean_from`] by default. Why: BakersDozen.191326999's
/// clubs-followed game has a cell of 692.5 M entries in its layer 34,
/// whose set and stack took more memory than the machine's 24 GB
/// (docs/hard-deals.md); searched breadth-first, each step is one pass
/// over its positions packed, and the cells measured took 1 to 3 steps
/// (their entries held nearly all their positions), though one cell of
/// layer 33 held 68 times its entries. Smaller cells keep the faster
/// set.
pub const LEAN_FROM: usize = 50_000_000;

/// A breadth-first step's children in its cell wait loose, unsorted,
/// up to half as many as those sorted and packed (`Pile::add_with_share`;
/// the piles of entries waiting keep an eighth, for memory): merged into
/// the packed ones a third as often. Sorting and merging them took a
/// quarter of the time of BakersDozen.191326999's largest cell of layer
/// 34 (`perf record`); 60 M members of 40 bits added and settled took
/// 10.4 s with an eighth, 5.1 s with half, 4.4 s with as many, at a peak
/// of 369, 389 and 434 MB.
const NEXT_SHARE: usize = 2;

/// Cells, and positions, a thread searches before it retires them
/// (`Search::retire`): delivering its filings in part batches is cheap
/// that seldom, and a save inside a layer searches again at most that
/// many positions a thread when resumed.
const RETIRE_CELLS: usize = 256;
const RETIRE_POSITIONS: usize = 1 << 16;

/// The longest the caller's thread sleeps while a layer is searched:
/// how late a save due comes.
const TICK: Duration = Duration::from_secs(1);

/// The longest a save inside a layer waits for its threads to keep their
/// cells under way (a copy of a cell's positions: some seconds for a
/// hundred million); one that answers later is saved as it last was.
const ANSWER_WITHIN: Duration = Duration::from_secs(120);

/// Counts a thread among those searching a layer's cells while it lives.
struct Running<'a>(&'a AtomicUsize);

impl Running<'_> {
    fn count(running: &AtomicUsize) -> Running<'_> {
        running.fetch_add(1, Relaxed);
        Running(running)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Relaxed);
    }
}

/// What a thread's searches of cells with the set reuse, cell after
/// cell: the set, the stack, a position's children in its cell (their
/// slots prefetched, added once all are listed: [`CellSet`]), the
/// positions since `should_stop` was last asked, and the children just
/// found ([`Repeats`]).
struct Scratch<P> {
    inside: CellSet,
    stack: Vec<u64>,
    children: Vec<u64>,
    since_asked: usize,
    repeats: Repeats<P>,
}

impl<P: Halves + PartialEq> Scratch<P> {
    fn new() -> Scratch<P> {
        Scratch {
            inside: CellSet::default(),
            stack: Vec::new(),
            children: Vec::new(),
            since_asked: 0,
            repeats: Repeats::new(),
        }
    }
}

/// A thread's answers to the saves inside a layer that ask it to keep
/// its cell under way (`Search::save_inside`): the last save answered.
struct Answers(usize);

impl Answers {
    fn new(layer: &ThisLayer) -> Answers {
        Answers(layer.asked.load(Relaxed))
    }

    /// The save asking and not yet answered, if any.
    fn asking(&self, layer: &ThisLayer) -> Option<usize> {
        let asked = layer.asked.load(Relaxed);
        (asked != self.0).then_some(asked)
    }

    fn answer(&mut self, layer: &ThisLayer, asked: usize) {
        self.0 = asked;
        layer.answered.fetch_add(1, Relaxed);
    }

    /// A save that asked during a cell now done, answered: nothing kept,
    /// the cell is retired.
    fn at_cell_end(&mut self, layer: &ThisLayer) {
        if let Some(asked) = self.asking(layer) {
            self.answer(layer, asked);
        }
    }
}

/// [`Limits::every`] for a person watching: a line rewritten each second.
pub const EVERY: Duration = Duration::from_secs(1);

/// One layer searched: what a progress line shows.
#[derive(Clone, Debug)]
pub struct Layer {
    /// Its number: fixed cards gone plus cards up since the start (fixed
    /// cards gone alone when cards come back from the foundation).
    pub number: usize,
    /// Whether it is searched whole; if not, it is under way and its
    /// figures are those so far.
    pub done: bool,
    /// Positions searched in it (in the cells done, while under way),
    /// since this search began: resumed inside the layer, those of the
    /// cells done before the save are not in it, but in `total`.
    pub positions: usize,
    /// Its cells (resumed inside the layer: those left at the save).
    pub cells: usize,
    /// Positions searched in it and every layer before it, before a
    /// resume too.
    pub total: usize,
    /// Positions searched so far in its cells under way breadth-first
    /// ([`Limits::lean_from`]): a cell can take an hour, and until it
    /// is done they are in neither count above.
    pub under_way: usize,
    /// The most cells searched breadth-first at once in it so far.
    pub lean_at_once: usize,
    /// Entries of higher layers waiting in memory (those spilled to disk
    /// aside: [`Checkpoint::spill_over`]), and of this one until searched.
    pub waiting: usize,
    /// The bytes they take (their cells' keys and piles aside).
    pub bytes: usize,
    /// Since the search began (or resumed).
    pub elapsed: Duration,
    /// The checkpoint written at its end, or while it was under way, if
    /// one was due ([`Limits::checkpoint`]), or why it could not be: the
    /// search goes on either way.
    pub saved: Option<Result<Saved, String>>,
    /// Entries just spilled to disk or read back ([`Checkpoint::spill_over`]),
    /// said in words, or why they could not be: a spill refused leaves
    /// them in memory and the search goes on; entries that cannot be read
    /// back end it, open.
    pub spilled: Option<Result<String, String>>,
}

/// Cells by their key ([`Keys::cell`]), in shards a lock each, so that
/// threads file entries side by side; a cell's entries
/// ([`Keys::runs`]) wait in a compact set.
struct Shards(Vec<Mutex<FxHashMap<u64, Pile>>>);

/// The entries held, in all layers, and their bytes.
#[derive(Default)]
struct Held {
    entries: AtomicUsize,
    bytes: AtomicUsize,
}

impl Held {
    /// Piles that held `entries` and `bytes` now hold `after`.
    fn changed(&self, (entries, bytes): (usize, usize), after: (usize, usize)) {
        let change = |held: &AtomicUsize, before: usize, after: usize| {
            if after >= before {
                held.fetch_add(after - before, Relaxed);
            } else {
                held.fetch_sub(before - after, Relaxed);
            }
        };
        change(&self.entries, entries, after.0);
        change(&self.bytes, bytes, after.1);
    }
}

/// More than the moves of any position: the room kept free in a cell's
/// set and stack before its moves are listed.
const ROOM: usize = 64;

/// Shards per layer (the 6 top bits of a hash): enough that two threads
/// seldom wait on one lock.
const SHARDS: usize = 64;

impl Shards {
    fn new() -> Shards {
        Shards((0..SHARDS).map(|_| Mutex::default()).collect())
    }

    /// Files each `(cell, runs)` of `batch` (sorted; a cell's key in the
    /// low `CELL_BITS` of the first), every cell of `shard`,
    /// counted in `held`; if memory for it was refused, sets `refused`.
    fn file(&self, shard: usize, batch: &[(u64, u64)], held: &Held, refused: &AtomicBool) {
        let mut cells = lock(&self.0[shard]);
        let (mut before, mut after) = ((0, 0), (0, 0));
        for same in batch.chunk_by(|a, b| a.0 == b.0) {
            let count = cells.len();
            if count == cells.capacity() && cells.try_reserve(count.max(16)).is_err() {
                refused.store(true, Relaxed);
                break;
            }
            let pile = cells.entry(same[0].0 & ((1 << CELL_BITS) - 1)).or_default();
            before = (before.0 + pile.len(), before.1 + pile.bytes());
            let added = same.iter().try_for_each(|&(_, runs)| pile.add(runs));
            after = (after.0 + pile.len(), after.1 + pile.bytes());
            if added.is_err() {
                refused.store(true, Relaxed);
                break;
            }
        }
        held.changed(before, after);
    }

    /// Every cell with its entries, the shards emptied, the cells with
    /// most entries first: a layer's last cells are searched while the
    /// other threads have no more to take, and a large cell left to the
    /// end keeps one thread on it alone (BakersDozen.191326999's layer
    /// 32 has cells of more than 50 minutes). Entries are what is known
    /// of a cell before it is searched; larger cells tend to have more.
    /// A cell saved under way (`checkpoint.rs`) comes with the positions
    /// it had searched, taken from `kept`, and counts them too; a cell
    /// spilled to disk, with its pieces there, taken from `on_disk`.
    fn take(
        &self,
        kept: &mut FxHashMap<u64, Pile>,
        mut on_disk: FxHashMap<u64, Vec<Piece>>,
    ) -> Vec<TakenCell> {
        let mut cells: Vec<(u64, Entries, Option<Pile>)> = self
            .0
            .iter()
            .flat_map(|shard| std::mem::take(&mut *lock(shard)))
            .map(|(cell, pile)| match on_disk.remove(&cell) {
                None => (cell, Entries::Pile(pile), kept.remove(&cell)),
                Some(pieces) => (cell, Entries::Disk(pieces, pile), kept.remove(&cell)),
            })
            .collect();
        cells.extend(on_disk.into_iter().map(|(cell, pieces)| {
            let entries = Entries::Disk(pieces, Pile::default());
            (cell, entries, kept.remove(&cell))
        }));
        cells.sort_by_key(|(cell, entries, kept)| {
            let size = entries.len() + kept.as_ref().map_or(0, Pile::len);
            (std::cmp::Reverse(size), *cell)
        });
        cells
            .into_iter()
            .map(|(cell, entries, kept)| {
                let kept = kept.map(Entries::Pile);
                (cell, Mutex::new(entries), Mutex::new(kept))
            })
            .collect()
    }
}

/// The members of `here` and `other`, each once: both settled, then
/// merged in one pass. Adding the other's members one by one, bd.24648's
/// forced game in layers, spilled at every layer, took 15.2 s against
/// 13.0 s unspilled; merged, 13.4 to 14.8 s against 13.2 to 13.3 s.
fn joined(here: &mut Pile, mut other: Pile) -> Result<Pile, std::collections::TryReserveError> {
    here.settle()?;
    other.settle()?;
    Packer::pack(Union::of(here.increasing(), other.increasing()))
}

/// A cell of the layer under way: its key, its entries (once it is saved
/// under way, the positions it has still to search), and the positions
/// it has searched, if it was saved under way (`checkpoint.rs`). Locked
/// in that order.
type TakenCell = (u64, Mutex<Entries>, Mutex<Option<Entries>>);

/// A cell's entries while its layer is under way (or the positions it
/// had searched, for a cell resumed under way): in their pile, or, once
/// its search breadth-first has begun, shared with it rather than copied
/// (BakersDozen.191326999's layer 37 begins with a cell of 1.1 G entries,
/// some 2.4 GB). Either way a save finds them there until the cell is
/// retired. Until the cell is taken, they may lie in spill files too,
/// beside those in memory (`Disk`; `spill.rs`): read when it is taken
/// (`Search::load`). As a pile ([`std::ops::Deref`]) they are those in
/// memory.
enum Entries {
    Pile(Pile),
    Step(Arc<lean::Indexed>),
    Disk(Vec<Piece>, Pile),
}

impl Default for Entries {
    fn default() -> Entries {
        Entries::Pile(Pile::default())
    }
}

impl Entries {
    /// Its entries, those on disk too (repeats among loose members
    /// counted).
    fn len(&self) -> usize {
        let on_disk = match self {
            Entries::Disk(pieces, _) => pieces.iter().map(|piece| piece.entries).sum(),
            _ => 0,
        };
        on_disk + (**self).len()
    }

    /// Whether some of them lie on disk.
    fn on_disk(&self) -> bool {
        matches!(self, Entries::Disk(pieces, _) if !pieces.is_empty())
    }

    /// Its members settled (the same members, each once); none on disk
    /// (`Search::load` read them).
    fn settle(&mut self) -> Result<(), TryReserveError> {
        match self {
            Entries::Pile(pile) | Entries::Disk(_, pile) => pile.settle(),
            Entries::Step(_) => Ok(()),
        }
    }

    /// Settled entries indexed and shared with the cell's search
    /// breadth-first; where memory is refused, they stay as they were.
    fn share(&mut self) -> Result<Arc<lean::Indexed>, TryReserveError> {
        let step = match self {
            Entries::Pile(pile) | Entries::Disk(_, pile) => {
                let index = pile.index()?;
                lean::Indexed::of(std::mem::take(pile), index)
            }
            Entries::Step(step) => Arc::clone(step),
        };
        *self = Entries::Step(Arc::clone(&step));
        Ok(step)
    }
}

impl std::ops::Deref for Entries {
    type Target = Pile;

    fn deref(&self) -> &Pile {
        match self {
            Entries::Pile(pile) | Entries::Disk(_, pile) => pile,
            Entries::Step(step) => step.pile(),
        }
    }
}

/// The shard of a cell: the top bits of a multiplicative hash.
fn shard(cell: u64) -> usize {
    (cell.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
}

/// Filings a thread has made and not yet delivered, by shard: each
/// batch is delivered under one lock with one count of what is held
/// (a position files some four entries, and two threads counting each
/// on shared counters would mostly wait on each other), sorted, so that
/// a cell is looked up once for its run of filings and repeats drop.
/// A filing is the layer and the cell in one number (`CELL_BITS`), and
/// the runs: two numbers are quick to sort.
struct Outbox(Vec<Vec<(u64, u64)>>);

/// Filings a batch holds before it is delivered.
const BATCH: usize = 256;

impl Outbox {
    fn new() -> Outbox {
        Outbox((0..SHARDS).map(|_| Vec::with_capacity(BATCH)).collect())
    }
}

/// How a search of cells ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Searching,
    Won,
    Stopped,
}

/// Where a search begins: the first layer, the positions searched
/// before it, the entries waiting (layer, cell, pile) and the spill
/// files waiting (`spill.rs`).
pub(super) type Resume = (
    usize,
    usize,
    Vec<(usize, u64, Pile)>,
    Vec<checkpoint::SpillFile>,
);

/// The search in layers of `game`, from `start`, the image of `state`
/// (`cards` followed in it, for the checkpoints), or `from` a
/// checkpoint: `super::in_layers` and its kin for any [`Layered`] game.
pub(super) fn search_game<G: Layered>(
    state: &State,
    cards: u64,
    game: &G,
    start: G::Position,
    from: Option<Resume>,
    limits: &Limits,
    progress: &mut dyn FnMut(&Layer),
) -> Suitless {
    let keys = Keys::of(game.game(), G::suitless(&start));
    let search = Search {
        game,
        cards,
        keys: &keys,
        layers: (0..=2 * CARDS).map(|_| Shards::new()).collect(),
        limits,
        refused: AtomicBool::new(false),
        held: Held::default(),
        kept: Mutex::default(),
        spilled: Mutex::default(),
        marked_on_disk: Mutex::default(),
    };
    let (first, mut total) = match from {
        None => {
            if let Some(c) = &limits.checkpoint {
                *lock(&search.spilled) = Spilled::resumed(c, Vec::new());
            }
            let cell = keys.cell(G::suitless(&start));
            let Some(runs) = game.entry(&keys, &start) else {
                return Suitless::Open { positions: 0 };
            };
            search.layers[keys.layer(G::suitless(&start))].file(
                shard(cell),
                &[(cell, runs)],
                &search.held,
                &search.refused,
            );
            (0, 0)
        }
        Some((first, total, cells, spilled)) => {
            match &limits.checkpoint {
                Some(c) => *lock(&search.spilled) = Spilled::resumed(c, spilled),
                // Their files are named after a checkpoint.
                None if !spilled.is_empty() => return Suitless::Open { positions: total },
                None => {}
            }
            for (number, cell, pile) in cells {
                if cell & checkpoint::UNDER_WAY != 0 {
                    let mut kept = lock(&search.kept);
                    kept.insert(cell & !checkpoint::UNDER_WAY, pile);
                    continue;
                }
                if cell & checkpoint::ON_DISK != 0 {
                    let mut marked = lock(&search.marked_on_disk);
                    marked
                        .get_or_insert_default()
                        .insert(cell & !checkpoint::ON_DISK);
                    continue;
                }
                search.held.changed((0, 0), (pile.len(), pile.bytes()));
                lock(&search.layers[number].0[shard(cell)]).insert(cell, pile);
            }
            (first, total)
        }
    };
    let began = Instant::now();
    let mut last_saved = began;
    for number in first..search.layers.len() {
        if (limits.stopped)() {
            return Suitless::Open { positions: total };
        }
        let at_start = |spilled| Layer {
            number,
            done: false,
            positions: 0,
            cells: 0,
            total,
            under_way: 0,
            lean_at_once: 0,
            waiting: search.held.entries.load(Relaxed),
            bytes: search.held.bytes.load(Relaxed),
            elapsed: began.elapsed(),
            saved: None,
            spilled: Some(spilled),
        };
        let cells = match search.on_disk(number) {
            Ok(on_disk) => search.layers[number].take(&mut lock(&search.kept), on_disk),
            Err(message) => {
                progress(&at_start(Err(message)));
                return Suitless::Open { positions: total };
            }
        };
        if cells.is_empty() {
            lock(&search.spilled).layer_done();
            continue;
        }
        if let Some(spilled) = search.spill_layer(number, &cells) {
            progress(&Layer {
                cells: cells.len(),
                ..at_start(spilled)
            });
        }
        let layer = ThisLayer {
            number,
            cells: &cells,
            next: AtomicUsize::new(0),
            retired: AtomicUsize::new(0),
            end: Mutex::new(End::Searching),
            asked: AtomicUsize::new(0),
            answered: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            under_way: AtomicUsize::new(0),
            lean: AtomicUsize::new(0),
            lean_entries: AtomicUsize::new(0),
            lean_at_once: AtomicUsize::new(0),
            room: Mutex::default(),
            steps: Mutex::default(),
            unread: Mutex::default(),
        };
        let figures = |done: bool, positions: usize| Layer {
            number,
            done,
            positions,
            cells: cells.len(),
            total: total + positions,
            under_way: layer.under_way.load(Relaxed),
            lean_at_once: layer.lean_at_once.load(Relaxed),
            waiting: search.held.entries.load(Relaxed),
            bytes: search.held.bytes.load(Relaxed),
            elapsed: began.elapsed(),
            saved: None,
            spilled: None,
        };
        let layer_began = Instant::now();
        let due = |last_saved: Instant| {
            limits
                .checkpoint
                .filter(|c| last_saved.elapsed() >= c.every && search.anything_waiting())
        };
        std::thread::scope(|scope| {
            // The caller's thread reports while the others search: each
            // holds a sender, dropped however the thread ends (a panic
            // too, which the scope then passes on), and the channel
            // closes when the last one has. A thread the system refuses
            // (short of memory) is one fewer to share the cells; with
            // none, the caller's thread searches them all, unheard until
            // the end.
            let (searching, ended) = mpsc::channel::<()>();
            let mut spawned = false;
            for slot in 0..limits.threads.max(1) {
                let (searching, search, layer) = (searching.clone(), &search, &layer);
                let thread = crate::memory::spawn_scoped(scope, move || {
                    let _searching = searching;
                    search.cells(layer, slot);
                });
                match thread {
                    Ok(_) => spawned = true,
                    Err(_) => break,
                }
            }
            drop(searching);
            if !spawned {
                return search.cells(&layer, 0);
            }
            // Awake at least each second, to save when a save is due
            // (however seldom the layer is reported), once a cell of it
            // is taken.
            let mut reported = Instant::now();
            while let Err(RecvTimeoutError::Timeout) = ended.recv_timeout(limits.every.min(TICK)) {
                if layer.next.load(Relaxed) > 0
                    && let Some(c) = due(last_saved)
                {
                    let new_layer = last_saved < layer_began;
                    let saved = search.save_inside(state, c, &layer, total, new_layer);
                    last_saved = Instant::now();
                    // A save refused has no count of its own: report the cells
                    // retired so far.
                    let positions = match &saved {
                        Some(Ok((_, positions))) => *positions,
                        _ => layer.retired.load(Relaxed),
                    };
                    if let Some(saved) = saved {
                        progress(&Layer {
                            saved: Some(saved.map(|(saved, _)| saved)),
                            ..figures(false, positions)
                        });
                    }
                }
                // The next layer too: a layer of hours files billions of
                // entries there (BakersDozen.191326999's first run began
                // its layer 37 with 6.2 G entries waiting).
                if let Some(spilled) = search.spill_far(number + 1) {
                    progress(&Layer {
                        spilled: Some(spilled),
                        ..figures(false, layer.retired.load(Relaxed))
                    });
                }
                if reported.elapsed() >= limits.every {
                    reported = Instant::now();
                    progress(&figures(false, layer.retired.load(Relaxed)));
                }
            }
        });
        lock(&search.spilled).layer_done();
        let positions = layer.retired.load(Relaxed);
        let so_far = total + positions;
        if let Some(message) = lock(&layer.unread).take() {
            progress(&Layer {
                spilled: Some(Err(message)),
                ..figures(false, positions)
            });
            return Suitless::Open { positions: so_far };
        }
        let end = *lock(&layer.end);
        if end == End::Won {
            search.remove_spilled();
        }
        match end {
            End::Won => return Suitless::Won { positions: so_far },
            End::Stopped => return Suitless::Open { positions: so_far },
            End::Searching if search.refused.load(Relaxed) => {
                return Suitless::Open { positions: so_far };
            }
            End::Searching => {}
        }
        // Saved when due, and when a layer is left to search.
        let saved = due(last_saved).and_then(|c| {
            let saved = search.save(state, c, number + 1, so_far, None);
            last_saved = Instant::now();
            saved
        });
        let spilled = search.spill_far(number + 2);
        progress(&Layer {
            saved,
            spilled,
            ..figures(true, positions)
        });
        total += positions;
    }
    search.remove_spilled();
    Suitless::Lost { positions: total }
}

/// What the threads of a search in layers share.
struct Search<'a, G> {
    game: &'a G,
    /// The cards followed, for the checkpoints.
    cards: u64,
    keys: &'a Keys,
    /// The entries waiting, by layer.
    layers: Vec<Shards>,
    limits: &'a Limits<'a>,
    /// Set when memory was refused: the search stops, open.
    refused: AtomicBool,
    /// Entries filed and not yet taken.
    held: Held,
    /// The positions searched of cells resumed under way, by cell, until
    /// their layer takes them.
    kept: Mutex<FxHashMap<u64, Pile>>,
    /// The entries spilled to disk (`spill.rs`); only the caller's
    /// thread, between and during layers, spills them and indexes them,
    /// and the threads read a cell's when they take it.
    spilled: Mutex<Spilled>,
    /// The cells of the first layer resumed whose entries a save inside
    /// it found on disk (`checkpoint::ON_DISK`), if it marked any: those
    /// alone are read from its files, the others retired since.
    marked_on_disk: Mutex<Option<FxHashSet<u64>>>,
}

/// The layer under way.
struct ThisLayer<'a> {
    number: usize,
    /// Each taken once, by one thread, and emptied.
    cells: &'a [TakenCell],
    /// The first cell no thread has taken.
    next: AtomicUsize,
    /// Positions searched in the cells retired: those whose piles are
    /// emptied (`Search::retire`), counted under their locks.
    retired: AtomicUsize,
    end: Mutex<End>,
    /// Saves inside the layer that asked the threads to keep their cells
    /// under way (`Search::keep_under_way`), and the threads that have
    /// answered the last one, of those `running` (in `Search::cells`).
    asked: AtomicUsize,
    answered: AtomicUsize,
    running: AtomicUsize,
    /// Positions searched in the cells under way breadth-first
    /// (`Layer::under_way`).
    under_way: AtomicUsize,
    /// The cells under way breadth-first, and the steps they share with
    /// the threads that have no cell to take (`lean.rs`).
    lean: AtomicUsize,
    /// The entries of the cells taken to be searched breadth-first and
    /// not yet done (`Search::claim`), and the most of them under way at
    /// once (`Layer::lean_at_once`).
    lean_entries: AtomicUsize,
    lean_at_once: AtomicUsize,
    /// The memory free when last asked, and when (`Search::room`).
    room: Mutex<Option<(Instant, Option<u64>)>>,
    steps: Mutex<Vec<Arc<lean::Step>>>,
    /// Why a cell's entries on disk could not be read, if they could
    /// not: the layer stops, and the search ends open.
    unread: Mutex<Option<String>>,
}

impl<G: Layered> Search<'_, G> {
    /// Writes the checkpoint of the search of `state` at the start of
    /// layer `first`, `total` positions searched before it: every cell of
    /// it and the layers above, in order. Between layers: no thread
    /// holds a lock. `None` where nothing waits, in memory or on disk: a
    /// checkpoint without a cell or a file is refused when read, so the
    /// last one stays (threads only add to the layers above, so what was
    /// seen waiting is written).
    fn save(
        &self,
        state: &State,
        checkpoint: Checkpoint,
        first: usize,
        total: usize,
        under_way: Option<Vec<(u64, &Pile)>>,
    ) -> Option<Result<Saved, String>> {
        let (path, most) = (checkpoint.path, checkpoint.most_bytes);
        let higher = first + usize::from(under_way.is_some());
        let mut spilled = lock(&self.spilled);
        let mut waiting = spilled.waiting.clone();
        // Cells of the layer under way still on disk: their files too.
        let marked = |piles: &Vec<(u64, &Pile)>| {
            piles
                .iter()
                .any(|(cell, _)| cell & checkpoint::ON_DISK != 0)
        };
        if under_way.as_ref().is_some_and(marked) {
            waiting.extend(spilled.current.iter().cloned());
        }
        let nothing = under_way.as_ref().is_none_or(Vec::is_empty)
            && waiting.is_empty()
            && self.layers[higher.min(self.layers.len())..]
                .iter()
                .all(|layer| layer.0.iter().all(|shard| lock(shard).is_empty()));
        if nothing {
            return None;
        }
        let saved = checkpoint::write(
            state,
            self.cards,
            path,
            most,
            (first, total),
            &waiting,
            |write| {
                if let Some(mut piles) = under_way {
                    piles.sort_unstable_by_key(|&(cell, _)| cell);
                    for &(cell, pile) in &piles {
                        write(first, cell, pile)?;
                    }
                }
                for (number, layer) in self.layers.iter().enumerate().skip(higher) {
                    let shards: Vec<MutexGuard<FxHashMap<u64, Pile>>> =
                        layer.0.iter().map(|shard| lock(shard)).collect();
                    let mut cells: Vec<(u64, usize)> = shards
                        .iter()
                        .enumerate()
                        .flat_map(|(at, shard)| shard.keys().map(move |&cell| (cell, at)))
                        .collect();
                    cells.sort_unstable();
                    for (cell, at) in cells {
                        write(number, cell, &shards[at][&cell])?;
                    }
                }
                Ok(())
            },
        );
        // No save names the files read back any more.
        if saved.is_ok() {
            spilled.remove_read(path);
        }
        Some(saved)
    }

    /// Files `pile` under `cell` in `shards`, joined with the cell's pile
    /// there if it has one (entries filed since it went to disk), counted
    /// in what is held; memory refused stops the search, open.
    fn put_back(&self, shards: &Shards, cell: u64, pile: Pile) {
        let mut cells = lock(&shards.0[shard(cell)]);
        match cells.get_mut(&cell) {
            None => {
                self.held.changed((0, 0), (pile.len(), pile.bytes()));
                cells.insert(cell, pile);
            }
            Some(here) => {
                let before = (here.len(), here.bytes());
                match joined(here, pile) {
                    Ok(joined) => *here = joined,
                    Err(_) => self.refused.store(true, Relaxed),
                }
                self.held.changed(before, (here.len(), here.bytes()));
            }
        }
    }

    /// The entries of layer `number` spilled to disk, if any, by cell:
    /// its files checked and indexed ([`spill::index`]), each cell's
    /// pieces read when it is taken ([`Search::load`]). Resumed from a
    /// save inside the layer, only the cells it marked on disk.
    fn on_disk(&self, number: usize) -> Result<FxHashMap<u64, Vec<Piece>>, String> {
        let mut on_disk: FxHashMap<u64, Vec<Piece>> = FxHashMap::default();
        let Some(c) = &self.limits.checkpoint else {
            return Ok(on_disk);
        };
        let marked = lock(&self.marked_on_disk).take();
        let mut spilled = lock(&self.spilled);
        let files = spilled.take_layer(number);
        let mut failed = None;
        for file in &files {
            match spill::index(c.path, file) {
                Ok(pieces) => {
                    for (cell, piece) in pieces {
                        if marked.as_ref().is_none_or(|m| m.contains(&cell)) {
                            on_disk.entry(cell).or_default().push(piece);
                        }
                    }
                }
                Err(e) => {
                    failed = Some(format!(
                        "cannot read back {}: {e}",
                        spill::path_of(c.path, file).display()
                    ));
                    break;
                }
            }
        }
        spilled.current.extend(files);
        failed.map_or(Ok(on_disk), Err)
    }

    /// Cell `index` of `layer`, just taken, with its entries on disk
    /// read back and joined with those in memory, counted in what is
    /// held: false where they could not be read (`ThisLayer::unread`
    /// says why) or memory was refused. The cell then stays as it was,
    /// for a save that may come before the layer stops.
    fn load(&self, layer: &ThisLayer, index: usize) -> bool {
        let mut entries = lock(&layer.cells[index].1);
        let Entries::Disk(pieces, pile) = &mut *entries else {
            return true;
        };
        let before = (pile.len(), pile.bytes());
        let mut all = None::<Pile>;
        for piece in pieces.iter() {
            let read = match piece.read() {
                Ok(read) => read,
                Err(message) => {
                    lock(&layer.unread).get_or_insert(message);
                    return false;
                }
            };
            let here = all.as_mut().unwrap_or(pile);
            match joined(here, read) {
                Ok(both) => all = Some(both),
                Err(_) => {
                    self.refused.store(true, Relaxed);
                    return false;
                }
            }
        }
        let all = all.unwrap_or_else(|| std::mem::take(pile));
        self.held.changed(before, (all.len(), all.bytes()));
        *entries = Entries::Pile(all);
        true
    }

    /// The checkpoint, and the spill files locked, when the entries held
    /// take more than [`Checkpoint::spill_over`] bytes and no spill was
    /// refused: a spill is due.
    fn spill_due(&self) -> Option<(&Checkpoint<'_>, MutexGuard<'_, Spilled>)> {
        let c = self.limits.checkpoint.as_ref()?;
        if self.held.bytes.load(Relaxed) <= c.spill_over {
            return None;
        }
        let spilled = lock(&self.spilled);
        (!spilled.refused).then_some((c, spilled))
    }

    /// At the start of layer `number`, when the entries held take more
    /// than [`Checkpoint::spill_over`] bytes, writes the piles of its
    /// `cells` to a spill file of the layer, but for the first ones
    /// taken, up to a quarter of that bound (and the first cell at
    /// least): each is read back when it is taken ([`Search::load`]).
    /// What it did, or why it could not (the piles then stay in memory,
    /// and no more are spilled in this search); `None` where nothing was
    /// due.
    fn spill_layer(&self, number: usize, cells: &[TakenCell]) -> Option<Result<String, String>> {
        let began = Instant::now();
        let (c, mut spilled) = self.spill_due()?;
        let over = c.spill_over;
        let mut front = 0;
        let mut out: Vec<(usize, u64, Pile)> = Vec::new();
        for (at, (cell, entries, kept)) in cells.iter().enumerate() {
            let mut entries = lock(entries);
            front += entries.bytes();
            // A cell resumed under way stays: a save writes what it had
            // searched beside its entries in memory.
            if at == 0 || front <= over / 4 || entries.len() == 0 || lock(kept).is_some() {
                continue;
            }
            let pile = match &mut *entries {
                Entries::Pile(pile) | Entries::Disk(_, pile) => std::mem::take(pile),
                Entries::Step(_) => continue,
            };
            if pile.len() > 0 {
                out.push((at, *cell, pile));
            }
        }
        if out.is_empty() {
            return None;
        }
        out.sort_unstable_by_key(|&(_, cell, _)| cell);
        let (ats, piles): (Vec<usize>, Vec<(u64, Pile)>) =
            out.into_iter().map(|(at, c, p)| (at, (c, p))).unzip();
        let (count, size) = piles
            .iter()
            .fold((0, 0), |(n, b), (_, p)| (n + p.len(), b + p.bytes()));
        let written = spilled.write(c.path, number, &piles).and_then(|offsets| {
            // Of the layer under way, not waiting.
            let file = spilled.take_layer(number);
            spilled.current.extend(file);
            let opened = spill::Opened::open(c.path, &spilled.current[spilled.current.len() - 1])?;
            Ok((offsets, opened))
        });
        match written {
            Ok((offsets, opened)) => {
                self.held.changed((count, size), (0, 0));
                for ((&at, (_, pile)), offset) in ats.iter().zip(&piles).zip(offsets) {
                    let piece = spill::Opened::piece(&opened, offset, pile.len());
                    let mut entries = lock(&cells[at].1);
                    match &mut *entries {
                        Entries::Disk(pieces, _) => pieces.push(piece),
                        _ => *entries = Entries::Disk(vec![piece], Pile::default()),
                    }
                }
                Some(Ok(format!(
                    "spilled {count} entries ({:.1} MB) of {} cells of layer {number} to a file in {:.1} s",
                    size as f64 / 1e6,
                    piles.len(),
                    began.elapsed().as_secs_f64()
                )))
            }
            Err(e) => {
                // Back where they were; none spilled again.
                spilled.refused = true;
                for (at, (_, pile)) in ats.into_iter().zip(piles) {
                    let mut entries = lock(&cells[at].1);
                    if let Entries::Pile(here) | Entries::Disk(_, here) = &mut *entries {
                        *here = pile;
                    }
                }
                Some(Err(format!(
                    "cannot spill layer {number} beside {}: {e}",
                    c.path.display()
                )))
            }
        }
    }

    /// When the entries held take more than [`Checkpoint::spill_over`]
    /// bytes, writes those of the farthest layers, down to layer `from`
    /// (during a layer, the next one too: its cells are read one by one
    /// as they are taken; between layers, not the next), to spill files until
    /// they take half as much, if those layers hold an eighth of it at
    /// least: what it did, or why it could not (the entries then stay in
    /// memory, and no more are spilled in this search). `None` where
    /// nothing was due.
    fn spill_far(&self, from: usize) -> Option<Result<String, String>> {
        let began = Instant::now();
        let (c, mut spilled) = self.spill_due()?;
        let over = c.spill_over;
        // Not for a few entries: the layer under way may be what holds
        // the memory, and each second's new entries of the far layers
        // would go out in files of their own.
        let far: usize = self.layers[from.min(self.layers.len())..]
            .iter()
            .flat_map(|layer| &layer.0)
            .map(|shard| lock(shard).values().map(Pile::bytes).sum::<usize>())
            .sum();
        if far == 0 || far < over / 8 {
            return None;
        }
        let (mut entries, mut bytes, mut files) = (0, 0, 0);
        let mut layers = Vec::new();
        for number in (from..self.layers.len()).rev() {
            if self.held.bytes.load(Relaxed) <= over / 2 {
                break;
            }
            let mut cells: Vec<(u64, Pile)> = self.layers[number]
                .0
                .iter()
                .flat_map(|shard| std::mem::take(&mut *lock(shard)))
                .collect();
            if cells.is_empty() {
                continue;
            }
            cells.sort_unstable_by_key(|&(cell, _)| cell);
            let (count, size) = cells
                .iter()
                .fold((0, 0), |(n, b), (_, p)| (n + p.len(), b + p.bytes()));
            let written = spilled.write(c.path, number, &cells);
            self.held.changed((count, size), (0, 0));
            match written {
                Ok(_) => {
                    (entries, bytes, files) = (entries + count, bytes + size, files + 1);
                    layers.push(number);
                }
                Err(e) => {
                    // Back where they were, joined with any filed since;
                    // none spilled again.
                    spilled.refused = true;
                    for (cell, pile) in cells {
                        self.put_back(&self.layers[number], cell, pile);
                    }
                    return Some(Err(format!(
                        "cannot spill layer {number} beside {}: {e}",
                        c.path.display()
                    )));
                }
            }
        }
        Some(Ok(format!(
            "spilled {entries} entries ({:.1} MB) of layers {:?} to {files} file{} in {:.1} s",
            bytes as f64 / 1e6,
            layers,
            if files == 1 { "" } else { "s" },
            began.elapsed().as_secs_f64()
        )))
    }

    /// Whether entries wait, in memory or on disk: a save is made only
    /// then (a checkpoint without any is refused).
    fn anything_waiting(&self) -> bool {
        let spilled = lock(&self.spilled);
        self.held.entries.load(Relaxed) > 0
            || !spilled.waiting.is_empty()
            || !spilled.current.is_empty()
    }

    /// Removes every spill file: the search is decided.
    fn remove_spilled(&self) {
        if let Some(c) = &self.limits.checkpoint {
            lock(&self.spilled).remove_all(c.path);
        }
    }

    /// Writes the checkpoint of the search of `state` in the middle of
    /// `layer`, `total` positions searched before it, while its threads
    /// go on: its cells not retired (not taken, under way, or searched
    /// with entries out perhaps not yet filed: each searched again when
    /// resumed), then the layers above. Every pile of the layer is locked
    /// while the count is read and they are written, so the count is
    /// exactly the cells retired's, whose entries out are all filed
    /// before the layers above are written (`retire`). Entries filed by
    /// cells not retired may be written too: positions those cells lead
    /// to, found again when they are searched again, counted once.
    ///
    /// The threads are first asked to keep their cells under way (each
    /// at its next position, `keep_under_way`), and waited for a while:
    /// a cell kept is saved with the positions it has searched, and goes
    /// on from there when resumed, instead of from its start.
    /// Returns the save and the positions of the layer it counts; `None`
    /// where it would save nothing new: no cell retired, none kept, and a
    /// save made since the layer began (`new_layer` false; the last save
    /// may be inside the layer before, whose end is then new: layer 33
    /// of BakersDozen.191326999 ended 20 s after its last save, and the
    /// next layer's first cell took an hour).
    fn save_inside(
        &self,
        state: &State,
        checkpoint: Checkpoint,
        layer: &ThisLayer,
        total: usize,
        new_layer: bool,
    ) -> Option<Result<(Saved, usize), String>> {
        layer.answered.store(0, Relaxed);
        layer.asked.fetch_add(1, Relaxed);
        let asked = Instant::now();
        while layer.answered.load(Relaxed) < layer.running.load(Relaxed)
            && asked.elapsed() < ANSWER_WITHIN
        {
            std::thread::sleep(Duration::from_micros(200));
        }
        let piles: Vec<(u64, MutexGuard<Entries>, MutexGuard<Option<Entries>>)> = layer
            .cells
            .iter()
            .map(|(cell, pile, kept)| {
                let pile = lock(pile);
                (*cell, pile, lock(kept))
            })
            .collect();
        let retired = layer.retired.load(Relaxed);
        let mut left: Vec<(u64, &Pile)> = Vec::new();
        let none = Pile::default();
        for (cell, pile, kept) in &piles {
            if pile.on_disk() {
                left.push((cell | checkpoint::ON_DISK, &none));
            }
            if (**pile).len() > 0 {
                left.push((*cell, pile));
                if let Some(kept) = kept.as_ref() {
                    left.push((cell | checkpoint::UNDER_WAY, &**kept));
                }
            }
        }
        if !new_layer
            && retired == 0
            && left
                .iter()
                .all(|(cell, _)| cell & checkpoint::UNDER_WAY == 0)
        {
            return None;
        }
        let saved = self.save(state, checkpoint, layer.number, total + retired, Some(left))?;
        Some(saved.map(|saved| (saved, retired)))
    }

    /// Cell `index` of `layer`, under way, kept as it stands, for a save
    /// inside the layer (the threads asked by `save_inside`): its moves
    /// out filed, then the positions it has still to search (`stack` and
    /// `popped`) in place of its entries, and those it has searched (the
    /// rest of `inside`) beside them. Where nothing is searched yet, or
    /// memory for the copies is refused, the cell stays as it was (its
    /// entries, or what it last kept): the save then resumes it from
    /// there, as true as before. False where nothing is searched yet: the
    /// thread asks again at its next position, and answers the save at
    /// its cell's end if not before.
    fn keep_under_way(
        &self,
        layer: &ThisLayer,
        index: usize,
        inside: &CellSet,
        (stack, popped): (&[u64], u64),
        outbox: &mut Outbox,
    ) -> bool {
        if inside.len() <= stack.len() + 1 {
            return false;
        }
        self.deliver_all(outbox);
        let mut left = Vec::new();
        if left.try_reserve_exact(stack.len() + 1).is_err() {
            return true;
        }
        left.extend_from_slice(stack);
        left.push(popped);
        left.sort_unstable();
        let (mut to_search, mut searched) = (Pile::default(), Pile::default());
        let mut refused = left.iter().any(|&runs| to_search.add(runs).is_err());
        inside.for_each(|runs| {
            if !refused && left.binary_search(&runs).is_err() {
                refused = searched.add(runs).is_err();
            }
        });
        if !refused {
            self.keep(layer, index, to_search, searched);
        }
        true
    }

    /// Cell `index` of `layer` saved as the positions it has still `to
    /// search` and those it has `searched`.
    fn keep(&self, layer: &ThisLayer, index: usize, to_search: Pile, searched: Pile) {
        let (_, pile, kept) = &layer.cells[index];
        let mut pile = lock(pile);
        self.held.changed(
            (pile.len(), pile.bytes()),
            (to_search.len(), to_search.bytes()),
        );
        *pile = Entries::Pile(to_search);
        *lock(kept) = Some(Entries::Pile(searched));
    }

    /// Files `runs` under `cell` in layer `number`, by way of `outbox`.
    fn post(&self, outbox: &mut Outbox, number: usize, cell: u64, runs: u64) {
        let shard = shard(cell);
        debug_assert!(cell < 1 << CELL_BITS);
        outbox.0[shard].push(((number as u64) << CELL_BITS | cell, runs));
        if outbox.0[shard].len() >= BATCH {
            self.deliver(shard, &mut outbox.0[shard]);
        }
    }

    /// Files every batch of `outbox`: a cell kept or retired has all its
    /// moves out filed.
    fn deliver_all(&self, outbox: &mut Outbox) {
        for (shard, batch) in outbox.0.iter_mut().enumerate() {
            self.deliver(shard, batch);
        }
    }

    /// Files `batch`, of `shard`, and empties it.
    fn deliver(&self, shard: usize, batch: &mut Vec<(u64, u64)>) {
        batch.sort_unstable();
        batch.dedup();
        for layer in batch.chunk_by(|a, b| a.0 >> CELL_BITS == b.0 >> CELL_BITS) {
            let number = (layer[0].0 >> CELL_BITS) as usize;
            self.layers[number].file(shard, layer, &self.held, &self.refused);
        }
        batch.clear();
    }

    /// One thread's share of a layer, `slot` of `Limits::threads`: cells
    /// taken one at a time, each searched whole, its moves out filed in
    /// the higher layers; then, with none left to take, a hand in the
    /// cells under way breadth-first.
    fn cells(&self, layer: &ThisLayer, slot: usize) {
        let stop = |why: End| {
            let mut end = lock(&layer.end);
            if *end == End::Searching {
                *end = why;
            }
        };
        let ended = || *lock(&layer.end) != End::Searching;
        // Asked every few thousand positions, given the positions of the
        // cell so far: full, stopped, or the layer ended elsewhere.
        let should_stop = |held: usize| {
            let waiting = self.held.entries.load(Relaxed);
            waiting + held > self.limits.most || (self.limits.stopped)() || ended()
        };
        let _running = Running::count(&layer.running);
        let mut answers = Answers::new(layer);
        let mut scratch = Scratch::new();
        let mut outbox = Outbox::new();
        // Cells searched whose entries out may still be in the outbox:
        // index, positions, and positions counted under way.
        let mut done = Vec::<(usize, usize, usize)>::new();
        loop {
            let (index, entries) = match self.claim(layer) {
                Claim::Cell(index, entries) if self.load(layer, index) => (index, entries),
                Claim::Cell(..) => return stop(End::Stopped),
                Claim::NoneLeft => {
                    self.retire(&mut outbox, &mut done, layer);
                    let mine = (&mut outbox, &mut answers);
                    return self.help(layer, slot, mine, &should_stop, &stop, false);
                }
                Claim::NoRoom => {
                    // The cells under way breadth-first helped until
                    // there is room, or none is left.
                    self.retire(&mut outbox, &mut done, layer);
                    let mine = (&mut outbox, &mut answers);
                    self.help(layer, slot, mine, &should_stop, &stop, true);
                    if should_stop(0) || self.refused.load(Relaxed) {
                        return;
                    }
                    continue;
                }
            };
            let mut under_way = 0;
            let lean = entries >= self.limits.lean_from;
            let end = if lean {
                let mine = (&mut outbox, &mut answers);
                let at = (index, slot);
                let end = self.lean_cell(layer, at, mine, &should_stop, &mut under_way);
                layer.lean_entries.fetch_sub(entries, Relaxed);
                end
            } else {
                let mine = (&mut outbox, &mut answers, &mut scratch);
                self.set_cell(layer, index, mine, &should_stop)
            };
            match end {
                CellEnd::Done(positions) => {
                    answers.at_cell_end(layer);
                    done.push((index, positions, under_way));
                }
                CellEnd::Won => return stop(End::Won),
                CellEnd::Stopped => return stop(End::Stopped),
                CellEnd::Refused => return self.refused.store(true, Relaxed),
            }
            // A cell searched breadth-first is large: retired at once.
            let positions: usize = done.iter().map(|&(_, positions, _)| positions).sum();
            if lean || done.len() >= RETIRE_CELLS || positions >= RETIRE_POSITIONS {
                self.retire(&mut outbox, &mut done, layer);
            }
        }
    }

    /// Cell `index` of `layer` searched depth-first over a set of its
    /// positions: the fastest way, for cells that fit in memory.
    fn set_cell(
        &self,
        layer: &ThisLayer,
        index: usize,
        (outbox, answers, scratch): (&mut Outbox, &mut Answers, &mut Scratch<G::Position>),
        should_stop: &dyn Fn(usize) -> bool,
    ) -> CellEnd {
        let (game, keys, refused) = (self.game, self.keys, &self.refused);
        let Scratch {
            inside,
            stack,
            children,
            since_asked,
            repeats,
        } = scratch;
        let (cell, pile, kept) = &layer.cells[index];
        inside.clear();
        stack.clear();
        {
            // Read, not taken: the pile stays for a save until its
            // cell is retired.
            let entries = lock(pile);
            let kept = lock(kept);
            let before = kept.as_ref().map_or(0, |kept| kept.len());
            if inside.try_reserve(entries.len() + before).is_err()
                || stack.try_reserve(entries.len()).is_err()
            {
                return CellEnd::Refused;
            }
            // A cell saved under way: what it had searched is known,
            // its moves out filed; it goes on with the rest.
            if let Some(kept) = kept.as_ref() {
                kept.for_each(|runs| {
                    inside.insert(runs);
                });
            }
            entries.for_each(|runs| {
                if inside.insert(runs) {
                    stack.push(runs);
                }
            });
        }
        let fixed_cards = game.game().fixed_cards(&keys.position(*cell, 0));
        let in_cell = game.in_cell(keys, *cell);
        while let Some(runs) = stack.pop() {
            if let Some(asked) = answers.asking(layer)
                && self.keep_under_way(layer, index, inside, (stack, runs), outbox)
            {
                answers.answer(layer, asked);
            }
            let p = game.position(keys, *cell, runs);
            if G::suitless(&p).won() {
                return CellEnd::Won;
            }
            *since_asked += 1;
            if *since_asked >= 4096 {
                *since_asked = 0;
                if should_stop(inside.len()) {
                    return CellEnd::Stopped;
                }
            }
            // Room for every child, asked for before it is needed: a
            // search under a memory limit stops, open, and never aborts.
            if (inside.capacity() - inside.len() < ROOM
                && inside.try_reserve(inside.len().max(1024)).is_err())
                || (stack.capacity() - stack.len() < ROOM
                    && stack.try_reserve(stack.len().max(1024)).is_err())
            {
                return CellEnd::Refused;
            }
            game.for_each_child_of(&p, fixed_cards, |child| {
                if repeats.again(&child) {
                    return;
                }
                let (to, entry) = game.cell_and_entry(keys, (*cell, &in_cell), &child);
                let Some(runs) = entry else {
                    refused.store(true, Relaxed);
                    return;
                };
                if to == *cell {
                    inside.prefetch(runs);
                    children.push(runs);
                    return;
                }
                // Another cell: a higher layer (the module doc).
                let number = keys.layer(G::suitless(&child));
                debug_assert!(number > layer.number);
                self.post(outbox, number, to, runs);
            });
            if refused.load(Relaxed) {
                return CellEnd::Refused;
            }
            for runs in children.drain(..) {
                if inside.insert(runs) {
                    stack.push(runs);
                }
            }
        }
        CellEnd::Done(inside.len())
    }

    /// Delivers every filing of `outbox`, then retires the cells `done`:
    /// their piles emptied and their positions counted, each under its
    /// pile's lock. So a cell whose pile is empty has all its entries out
    /// filed, and `retired` counts exactly the cells with empty piles
    /// while every pile is locked (`save_inside`).
    fn retire(
        &self,
        outbox: &mut Outbox,
        done: &mut Vec<(usize, usize, usize)>,
        layer: &ThisLayer,
    ) {
        self.deliver_all(outbox);
        for (index, positions, under_way) in done.drain(..) {
            let (_, pile, kept) = &layer.cells[index];
            let mut pile = lock(pile);
            *lock(kept) = None;
            let entries = std::mem::take(&mut *pile);
            self.held.changed((entries.len(), entries.bytes()), (0, 0));
            layer.retired.fetch_add(positions, Relaxed);
            layer.under_way.fetch_sub(under_way, Relaxed);
        }
    }
}

/// A game searched in layers: the suitless game, or with cards followed
/// (`followed.rs`). Its positions' layers and cells are their suitless
/// positions' ([`Keys`]); an entry is what a position holds beyond its
/// cell, in 64 bits.
pub(super) trait Layered: Moves<Position: Halves + PartialEq> + Sync {
    /// What the entries of one cell share, worked out once for the cell
    /// (most children of a position lie in its cell).
    type InCell;
    /// The entry of `p` in its cell, or `None` where it does not fit 64
    /// bits (the search stops, open, as when memory is refused).
    fn entry(&self, keys: &Keys, p: &Self::Position) -> Option<u64>;
    /// What the entries of `cell` share.
    fn in_cell(&self, keys: &Keys, cell: u64) -> Self::InCell;
    /// [`Layered::entry`] of `p`, which lies in the cell of `in_cell`.
    fn entry_in_cell(&self, keys: &Keys, in_cell: &Self::InCell, p: &Self::Position)
    -> Option<u64>;
    /// The cell of `child` and its entry: the digits of `cell`
    /// (`in_cell`) serve where the child lies in it, as most do.
    fn cell_and_entry(
        &self,
        keys: &Keys,
        (cell, in_cell): (u64, &Self::InCell),
        child: &Self::Position,
    ) -> (u64, Option<u64>) {
        let to = keys.cell(Self::suitless(child));
        if to == cell {
            (to, self.entry_in_cell(keys, in_cell, child))
        } else {
            (to, self.entry(keys, child))
        }
    }
    /// The position of `entry` in `cell`.
    fn position(&self, keys: &Keys, cell: u64, entry: u64) -> Self::Position;
    /// Calls `f` with each position one move of `p` leads to, settled;
    /// `fixed_cards`, the fixed cards of `p`, known.
    fn for_each_child_of(
        &self,
        p: &Self::Position,
        fixed_cards: u64,
        f: impl FnMut(Self::Position),
    );
}

/// The suitless game's entries: its runs, and with cards back its
/// foundation ([`Keys::runs`]).
impl Layered for Game {
    type InCell = ();
    fn entry(&self, keys: &Keys, p: &Position) -> Option<u64> {
        Some(keys.runs(p))
    }
    fn in_cell(&self, _: &Keys, _: u64) {}
    fn entry_in_cell(&self, keys: &Keys, _: &(), p: &Position) -> Option<u64> {
        Some(keys.runs(p))
    }
    fn position(&self, keys: &Keys, cell: u64, entry: u64) -> Position {
        keys.position(cell, entry)
    }
    fn for_each_child_of(&self, p: &Position, fixed_cards: u64, f: impl FnMut(Position)) {
        Game::for_each_child_of(self, p, fixed_cards, f)
    }
}

/// A position as a cell key and an entry key, and its layer.
///
/// Without cards back from the foundation, a cell is the fixed cards and
/// the foundation, an entry the runs, and a layer counts fixed cards gone
/// plus cards up. With them (xpat2's complete rules), a card back lowers
/// the foundation: a cell is then the fixed cards alone, an entry the
/// runs and the foundation, and a layer counts fixed cards gone, which
/// no move brings back (a card moved or brought back lies on a column's
/// top, in its run, never among its fixed cards). Larger cells, the same
/// argument.
pub(super) struct Keys {
    columns: usize,
    /// Fixed cards at the start: the layer counts those gone since.
    fixed_at_start: usize,
    /// Whether cards come back from the foundation.
    pub(super) returns: bool,
    /// Cards in the game: fixed, in runs or up. With cards back, the last
    /// column's run is what the others leave, so that runs and
    /// foundation fit in 64 bits.
    pub(super) cards: usize,
}

impl Keys {
    pub(super) fn of(game: &Game, start: &Position) -> Keys {
        let columns = game.columns;
        Keys {
            columns,
            fixed_at_start: sum(&start.fixed[..columns]),
            returns: game.returns,
            cards: sum(&start.fixed[..columns]) + sum(&start.run[..columns]) + sum(&start.up),
        }
    }

    /// Never lower after a move (the type's doc).
    fn layer(&self, p: &Position) -> usize {
        let up = if self.returns { 0 } else { sum(&p.up) };
        self.fixed_at_start - sum(&p.fixed) + up
    }

    /// Fixed cards (3 bits a column), and without cards back the
    /// foundation (4 bits a suit).
    pub(super) fn cell(&self, p: &Position) -> u64 {
        let fixed = p.fixed[..self.columns]
            .iter()
            .fold(0u64, |key, &f| key << 3 | u64::from(f));
        if self.returns {
            return fixed;
        }
        p.up.iter().fold(fixed, |key, &h| key << 4 | u64::from(h))
    }

    /// Run lengths, 4 bits a column; with cards back, but the last
    /// column's, and then the foundation, 4 bits a suit.
    fn runs(&self, p: &Position) -> u64 {
        let runs = |columns: usize| {
            p.run[..columns]
                .iter()
                .fold(0u64, |key, &r| key << 4 | u64::from(r))
        };
        let key = if self.returns {
            let runs = runs(self.columns - 1);
            p.up.iter().fold(runs, |key, &h| key << 4 | u64::from(h))
        } else {
            runs(self.columns)
        };
        debug_assert_eq!(self.position(self.cell(p), key), *p);
        key
    }

    pub(super) fn position(&self, mut cell: u64, mut runs: u64) -> Position {
        let mut p = Position::with_foundation([0; SUITS]);
        let up = if self.returns { &mut runs } else { &mut cell };
        for h in p.up.iter_mut().rev() {
            *h = (*up & 0xF) as u8;
            *up >>= 4;
        }
        for f in p.fixed[..self.columns].iter_mut().rev() {
            *f = (cell & 0x7) as u8;
            cell >>= 3;
        }
        let keyed = self.columns - usize::from(self.returns);
        for r in p.run[..keyed].iter_mut().rev() {
            *r = (runs & 0xF) as u8;
            runs >>= 4;
        }
        if self.returns {
            let held = sum(&p.fixed) + sum(&p.run) + sum(&p.up);
            // Only a cell's key with no entry (asked for its fixed cards)
            // may count more cards than the game has.
            p.run[self.columns - 1] = self.cards.saturating_sub(held) as u8;
        }
        p
    }
}

/// How a thread's search of a cell ended.
enum CellEnd {
    /// Searched whole: its positions.
    Done(usize),
    Won,
    Stopped,
    /// Memory refused.
    Refused,
}

/// Cards counted by a position's fixed cards, runs or foundation.
fn sum(counts: &[u8]) -> usize {
    counts.iter().map(|&c| usize::from(c)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layer's cells are taken with the most entries first, so its
    /// largest cells are not left to its end (`Shards::take`).
    #[test]
    fn a_layers_cells_come_with_the_most_entries_first() {
        let (shards, held, refused) = (Shards::new(), Held::default(), AtomicBool::new(false));
        let sizes = [3u64, 40, 1, 17, 17, 250, 8];
        for (cell, &size) in sizes.iter().enumerate() {
            let cell = cell as u64 * 1_000_003;
            let batch: Vec<(u64, u64)> = (0..size).map(|runs| (cell, runs * 7)).collect();
            shards.file(shard(cell), &batch, &held, &refused);
        }
        let taken: Vec<usize> = shards
            .take(&mut FxHashMap::default(), FxHashMap::default())
            .iter()
            .map(|(_, pile, _)| pile.lock().unwrap().len())
            .collect();
        assert_eq!(taken, [250, 40, 17, 17, 8, 3, 1]);
        assert!(
            shards
                .take(&mut FxHashMap::default(), FxHashMap::default())
                .is_empty()
        );
    }
}

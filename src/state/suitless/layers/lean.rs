//! A cell of many entries searched breadth-first in little memory, its
//! steps shared by the layer's threads.
//!
//! Why shared: a layer's largest cells take an hour (BakersDozen.191326999's
//! layer 34 has one of 692.5 M entries), and the threads that have no cell
//! left to take would wait for them, idle, until the layer's end: layer
//! 34 ran its last cell alone for some 18 minutes of its 80. So a step's
//! positions are cut in chunks ([`CHUNK`]) that any thread of the layer
//! takes, one at a time; the thread whose cell it is merges the step's
//! children once all are searched.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::{
    Answers, CellEnd, End, Layered, NEXT_SHARE, Outbox, Repeats, Running, Search, ThisLayer,
};
use crate::lock::lock;
use crate::state::suitless::pile::{Difference, Index, Mark, Packer, Pile, Union};

/// Positions of a step a thread takes at a time: a tenth of a second or
/// so, so that the threads end a step together, and each chunk's moves
/// out are delivered and its children handed over once (small in the
/// tests, so that their small cells are shared too).
const CHUNK: usize = if cfg!(test) { 8 } else { 1 << 16 };

/// How long a thread with nothing to take waits before it looks again
/// for a step to share.
const IDLE: Duration = Duration::from_millis(2);

/// The bytes a cell searched breadth-first comes to take, by entry, at
/// most: its positions packed and their marks, the new children of a
/// step, and the piles of about their size merged. Measured before the
/// children were looked for as each chunk ends, when every child waited
/// for the step's merge and the merge copied every position held:
/// BakersDozen.191326999's two largest cells of its layer 36, searched at
/// once, held 7.7 GB for 804 M positions, about one position an entry
/// (docs/hard-deals.md); its layer 37's largest cell grew by some 20
/// bytes a position. Not lowered until a cell of a billion is measured
/// the new way: a figure too low would start two such cells at once.
const BYTES_PER_ENTRY: u64 = 10;

/// How long the memory free, once asked, serves the layer's threads:
/// asking reads files of `/proc` and `/sys`, and asked at every cell
/// taken, bd.78829's followed game with every cell breadth-first
/// (`--lean-from 0`) took 20% longer. A large cell's memory grows over
/// minutes.
const ROOM_READ_EVERY: Duration = Duration::from_millis(100);

/// What a thread takes next in a layer ([`Search::claim`]).
pub(super) enum Claim {
    /// This cell, of so many entries.
    Cell(usize, usize),
    /// Every cell is taken.
    NoneLeft,
    /// The next cell is to be searched breadth-first, and memory has no
    /// room for it beside those under way.
    NoRoom,
}

/// A settled pile of a cell's positions, with where to look for one
/// ([`Pile::drop_held`]).
pub(super) struct Indexed {
    pile: Pile,
    index: Index,
}

impl Indexed {
    fn new(pile: Pile) -> Result<Arc<Indexed>, TryReserveError> {
        let index = pile.index()?;
        Ok(Indexed::of(pile, index))
    }

    /// `pile` with `index`, its own.
    pub(super) fn of(pile: Pile, index: Index) -> Arc<Indexed> {
        Arc::new(Indexed { pile, index })
    }

    pub(super) fn pile(&self) -> &Pile {
        &self.pile
    }
}

/// The positions a cell under way breadth-first holds: piles with no
/// member in common, each at least twice the next, so that each step
/// adds its new positions as a pile of their own, merged only with
/// those of about its size. Why not one pile: merging every step's new
/// positions into all those held copied them all at each step, twice
/// the memory at the merge (BakersDozen.191326999's layer 37 begins
/// with a cell of 1.1 G entries, nearly all of them its first step).
#[derive(Clone, Default)]
struct Held(Vec<Arc<Indexed>>);

impl Held {
    fn len(&self) -> usize {
        self.0.iter().map(|held| held.pile.len()).sum()
    }

    fn bytes(&self) -> usize {
        self.0.iter().map(|held| held.pile.bytes()).sum()
    }

    /// `members`, increasing, without those held: asked of the largest
    /// pile first, where most are.
    fn drop_held(&self, members: &mut Vec<u64>) {
        for held in &self.0 {
            if members.is_empty() {
                return;
            }
            held.pile.drop_held(&held.index, members);
        }
    }

    /// Every member, in increasing order.
    fn increasing(&self) -> impl Iterator<Item = u64> + '_ {
        union_of(self.0.iter().map(|held| &held.pile))
    }

    /// Adds `pile`, which has no member held, then merges the smallest
    /// piles while the last is half the one before it or more.
    fn add(&mut self, pile: Arc<Indexed>) -> Result<(), TryReserveError> {
        self.0.push(pile);
        while let [.., older, newer] = self.0.as_slice()
            && 2 * newer.pile.len() >= older.pile.len()
        {
            let both = Packer::pack(Union::of(older.pile.increasing(), newer.pile.increasing()))?;
            let both = Indexed::new(both)?;
            self.0.truncate(self.0.len() - 2);
            self.0.push(both);
        }
        Ok(())
    }
}

/// A step of a cell under way breadth-first, shared: its positions, cut
/// in chunks, and the children in the cell the chunks searched have
/// found.
pub(super) struct Step {
    /// The cell's index in its layer.
    index: usize,
    /// The positions to search in this step.
    step: Arc<Indexed>,
    /// Every position of the cell held: those searched in the steps
    /// before and this step's.
    held: Held,
    /// Where each chunk of `step` begins.
    marks: Vec<Mark>,
    /// The first chunk no thread has taken.
    next: AtomicUsize,
    /// The chunks searched whole: their moves out filed, their children
    /// in the cell in `found`. Set under the lock of `found` it went to.
    finished: Vec<AtomicBool>,
    /// How many are.
    chunks_done: AtomicUsize,
    /// The children in the cell of the chunks finished not held, by
    /// thread. Why not held: nine in ten children of a chunk are held
    /// already (bd.24648's complete game searched with every cell of
    /// 30 000 entries or more breadth-first: 37.7 M children found in
    /// its steps, 3.7 M new), and kept until the step's merge they took
    /// more than the positions held (206 MB against 234 MB).
    found: Vec<Mutex<Pile>>,
    /// Positions searched in the step (each counted in the layer's
    /// `under_way` too).
    counted: AtomicUsize,
}

impl Step {
    fn new(index: usize, step: Arc<Indexed>, held: Held, threads: usize) -> Step {
        let marks = step.pile.marks(CHUNK);
        Step {
            index,
            finished: marks.iter().map(|_| AtomicBool::new(false)).collect(),
            marks,
            step,
            held,
            next: AtomicUsize::new(0),
            chunks_done: AtomicUsize::new(0),
            found: (0..threads.max(1)).map(|_| Mutex::default()).collect(),
            counted: AtomicUsize::new(0),
        }
    }

    /// The positions of `chunk`, in increasing order.
    fn chunk(&self, chunk: usize) -> impl Iterator<Item = u64> + '_ {
        self.step
            .pile
            .increasing_from(self.marks[chunk])
            .take(CHUNK)
    }

    fn locked_found(&self) -> Vec<MutexGuard<'_, Pile>> {
        self.found.iter().map(lock).collect()
    }
}

/// How a thread's part of a step ended.
enum Part {
    /// Every chunk taken (not every one finished: other threads may still
    /// be searching theirs).
    AllTaken,
    Won,
    Stopped,
    Refused,
}

/// The members of settled `piles`, in increasing order, each once.
fn union_of<'a>(piles: impl Iterator<Item = &'a Pile>) -> Box<dyn Iterator<Item = u64> + 'a> {
    piles.fold(Box::new(std::iter::empty()), |members, pile| {
        Box::new(Union::of(members, pile.increasing()))
    })
}

impl<G: Layered> Search<'_, G> {
    /// The next cell of `layer` no thread has taken, taken, with its
    /// entries (those a cell resumed under way had searched too: the set
    /// would hold them); but a cell to be searched breadth-first while
    /// others are is taken only where the memory free has room for all
    /// of them ([`BYTES_PER_ENTRY`]): otherwise the thread helps the
    /// cells under way. Why: a layer's largest cells come first, and
    /// two of them at once can take more than the machine has
    /// (BakersDozen.191326999's layer 37 begins with cells of 1 000.5 M
    /// and 935.1 M entries beside 12 GB of entries waiting); one at a
    /// time, the threads share its steps. A lone cell is always taken.
    pub(super) fn claim(&self, layer: &ThisLayer) -> Claim {
        let mut index = layer.next.load(Relaxed);
        loop {
            let Some((_, pile, kept)) = layer.cells.get(index) else {
                return Claim::NoneLeft;
            };
            let entries = lock(pile).len() + lock(kept).as_ref().map_or(0, |kept| kept.len());
            let lean = entries >= self.limits.lean_from;
            // Its entries counted before the cell is taken, in one step
            // with the look at those beside it: two threads taking cells
            // at once (a layer's start) must not both see none beside
            // them (`cells_breadth_first_wait_for_room_in_memory` caught it once).
            if lean {
                let mut beside = layer.lean_entries.load(Relaxed);
                loop {
                    let need = (entries + beside) as u64 * BYTES_PER_ENTRY;
                    if beside > 0 && self.room(layer).is_some_and(|room| room < need) {
                        return Claim::NoRoom;
                    }
                    match layer.lean_entries.compare_exchange_weak(
                        beside,
                        beside + entries,
                        Relaxed,
                        Relaxed,
                    ) {
                        Ok(_) => break,
                        Err(now) => beside = now,
                    }
                }
            }
            match layer
                .next
                .compare_exchange_weak(index, index + 1, Relaxed, Relaxed)
            {
                Ok(_) => return Claim::Cell(index, entries),
                Err(now) => {
                    // Another thread took it: counted for nothing.
                    if lean {
                        layer.lean_entries.fetch_sub(entries, Relaxed);
                    }
                    index = now;
                }
            }
        }
    }

    /// The memory free ([`super::Limits::room`]), asked again once the last
    /// answer is [`ROOM_READ_EVERY`] old.
    fn room(&self, layer: &ThisLayer) -> Option<u64> {
        let mut last = lock(&layer.room);
        match *last {
            Some((asked, room)) if asked.elapsed() < ROOM_READ_EVERY => room,
            _ => {
                let room = (self.limits.room)();
                *last = Some((Instant::now(), room));
                room
            }
        }
    }

    /// Cell `index` of `layer` searched breadth-first in little memory:
    /// the positions held sorted and packed ([`Held`]), and at each step
    /// the new positions, its children in the cell not held yet, each
    /// looked for among those held as its chunk ends and gathered at the
    /// step's end. The moves within a cell are not all reversible (cards
    /// forced up among them), so all the positions held are asked, not
    /// the last steps'. The same positions as the set's search, the same
    /// moves out, the same count. Each step is shared with the threads
    /// that have no cell to take (`help`); this one, `slot`, gathers it.
    /// The first step is the cell's entries themselves, not a copy
    /// (`Entries::share`).
    /// A save asking is answered once the cell is kept as it stands
    /// (`keep_step`), so that a cell of hours killed halfway resumes
    /// halfway. `should_stop`, given the positions held, is asked every
    /// few thousand positions.
    /// The positions searched are `counted` in `layer.under_way` as
    /// they go, and taken back from it when the cell is retired, under
    /// its lock (`retire`): a save or a report never finds them in
    /// neither count.
    pub(super) fn lean_cell(
        &self,
        layer: &ThisLayer,
        (index, slot): (usize, usize),
        (outbox, answers): (&mut Outbox, &mut Answers),
        should_stop: &dyn Fn(usize) -> bool,
        counted: &mut usize,
    ) -> CellEnd {
        let (_, pile, kept) = &layer.cells[index];
        let _lean = Running::count(&layer.lean);
        layer
            .lean_at_once
            .fetch_max(layer.lean.load(Relaxed), Relaxed);
        // The first step: the entries (the positions left to search, for
        // a cell resumed under way); held: they and those it had searched,
        // each a pile of its own.
        let (mut step, mut held) = {
            let mut entries = lock(pile);
            let before = (entries.len(), entries.bytes());
            if entries.settle().is_err() {
                return CellEnd::Refused;
            }
            self.held.changed(before, (entries.len(), entries.bytes()));
            let mut kept = lock(kept);
            if let Some(searched) = kept.as_mut()
                && searched.settle().is_err()
            {
                return CellEnd::Refused;
            }
            let mut held = Held::default();
            let step = match kept.as_mut() {
                // Those it had searched, held, and those it has left
                // (`keep` makes the two apart), each shared with the cell.
                Some(searched) => {
                    let apart = Difference::of(entries.increasing(), searched.increasing()).count()
                        == entries.len();
                    let Ok(searched) = searched.share() else {
                        return CellEnd::Refused;
                    };
                    let step = if apart {
                        entries.share()
                    } else {
                        Packer::pack(Difference::of(
                            entries.increasing(),
                            searched.pile().increasing(),
                        ))
                        .and_then(Indexed::new)
                    };
                    let Ok(step) = step else {
                        return CellEnd::Refused;
                    };
                    held.0.push(searched);
                    step
                }
                // The entries themselves, shared with the cell's pile.
                None => match entries.share() {
                    Ok(step) => step,
                    Err(_) => return CellEnd::Refused,
                },
            };
            if held.add(Arc::clone(&step)).is_err() {
                return CellEnd::Refused;
            }
            (step, held)
        };
        loop {
            let shared = Arc::new(Step::new(index, step, held, self.limits.threads));
            lock(&layer.steps).push(Arc::clone(&shared));
            let mine = (slot, &mut *outbox, &mut *answers);
            let part = match self.search_chunks(layer, &shared, mine, true, should_stop) {
                Part::AllTaken => {
                    self.wait_for_chunks(layer, &shared, (outbox, answers), should_stop)
                }
                part => part,
            };
            lock(&layer.steps).retain(|other| !Arc::ptr_eq(other, &shared));
            *counted += shared.counted.load(Relaxed);
            match part {
                Part::AllTaken => {}
                Part::Won => return CellEnd::Won,
                Part::Stopped => return CellEnd::Stopped,
                Part::Refused => return CellEnd::Refused,
            }
            let mut found = shared.locked_found();
            if found.iter_mut().any(|found| found.settle().is_err()) {
                return CellEnd::Refused;
            }
            // The children found, none of them held (`search_chunks`),
            // each once: the next step, and held from now on.
            let Ok(fresh) = Packer::pack(union_of(found.iter().map(|found| &**found))) else {
                return CellEnd::Refused;
            };
            drop(found);
            held = shared.held.clone();
            drop(shared);
            if fresh.len() == 0 {
                return CellEnd::Done(held.len());
            }
            let Ok(fresh) = Indexed::new(fresh) else {
                return CellEnd::Refused;
            };
            if held.add(Arc::clone(&fresh)).is_err() {
                return CellEnd::Refused;
            }
            step = fresh;
        }
    }

    /// Until the chunks of `step` that other threads took are searched:
    /// the saves asking answered meanwhile; the search stopped, ended
    /// elsewhere or refused memory stops the wait.
    fn wait_for_chunks(
        &self,
        layer: &ThisLayer,
        step: &Step,
        (outbox, answers): (&mut Outbox, &mut Answers),
        should_stop: &dyn Fn(usize) -> bool,
    ) -> Part {
        while step.chunks_done.load(Relaxed) < step.marks.len() {
            if let Some(asked) = answers.asking(layer)
                && self.keep_step(layer, step, outbox)
            {
                answers.answer(layer, asked);
            }
            if self.refused.load(Relaxed) {
                return Part::Refused;
            }
            if should_stop(step.held.len()) {
                return Part::Stopped;
            }
            std::thread::sleep(IDLE);
        }
        Part::AllTaken
    }

    /// A thread with no cell left to take, `slot`: it searches chunks of
    /// the steps shared by the cells under way breadth-first, until none
    /// is. Its moves out are delivered at each chunk's end, so a save
    /// asking is answered at once: the cell's own thread keeps the cell.
    /// A thread waiting for room (`for_room`, [`Claim::NoRoom`]) returns
    /// whenever it has no chunk of a step left to take, to look again.
    pub(super) fn help(
        &self,
        layer: &ThisLayer,
        slot: usize,
        (outbox, answers): (&mut Outbox, &mut Answers),
        should_stop: &dyn Fn(usize) -> bool,
        stop: &dyn Fn(End),
        for_room: bool,
    ) {
        loop {
            if let Some(asked) = answers.asking(layer) {
                self.deliver_all(outbox);
                answers.answer(layer, asked);
            }
            if should_stop(0) {
                return;
            }
            let open = lock(&layer.steps)
                .iter()
                .find(|step| step.next.load(Relaxed) < step.marks.len())
                .cloned();
            let Some(step) = open else {
                if layer.lean.load(Relaxed) == 0 {
                    return;
                }
                std::thread::sleep(IDLE);
                if for_room {
                    return;
                }
                continue;
            };
            match self.search_chunks(layer, &step, (slot, outbox, answers), false, should_stop) {
                Part::AllTaken if for_room => return,
                Part::AllTaken => {}
                Part::Won => return stop(End::Won),
                Part::Stopped => return stop(End::Stopped),
                Part::Refused => return self.refused.store(true, Relaxed),
            }
        }
    }

    /// Chunks of `step` taken one at a time and searched, until every
    /// chunk is taken: each chunk's moves out filed and its children in
    /// the cell handed to `step.found[slot]` at its end. A save asking
    /// is answered: by the cell's `owner`, once the cell is kept
    /// (`keep_step`); by another thread, at once.
    fn search_chunks(
        &self,
        layer: &ThisLayer,
        step: &Step,
        (slot, outbox, answers): (usize, &mut Outbox, &mut Answers),
        owner: bool,
        should_stop: &dyn Fn(usize) -> bool,
    ) -> Part {
        let (game, keys) = (self.game, self.keys);
        let cell = layer.cells[step.index].0;
        let fixed_cards = game.game().fixed_cards(&keys.position(cell, 0));
        let in_cell = game.in_cell(keys, cell);
        let held = step.held.len();
        let count = |positions: usize| {
            step.counted.fetch_add(positions, Relaxed);
            layer.under_way.fetch_add(positions, Relaxed);
        };
        let mut children = ChunkChildren::default();
        let mut repeats = Repeats::new();
        loop {
            let chunk = step.next.fetch_add(1, Relaxed);
            if chunk >= step.marks.len() {
                // The children this thread found sorted now, beside the
                // other threads, not by the merge after.
                if lock(&step.found[slot]).settle().is_err() {
                    return Part::Refused;
                }
                return Part::AllTaken;
            }
            children.clear();
            let (mut since_asked, mut refused) = (0, false);
            for runs in step.chunk(chunk) {
                if let Some(asked) = answers.asking(layer) {
                    if owner {
                        if self.keep_step(layer, step, outbox) {
                            answers.answer(layer, asked);
                        }
                    } else {
                        self.deliver_all(outbox);
                        answers.answer(layer, asked);
                    }
                }
                since_asked += 1;
                if since_asked >= 4096 {
                    count(since_asked);
                    if children.fold().is_err() {
                        return Part::Refused;
                    }
                    since_asked = 0;
                    if should_stop(held) {
                        return Part::Stopped;
                    }
                }
                let p = game.position(keys, cell, runs);
                if G::suitless(&p).won() {
                    return Part::Won;
                }
                game.for_each_child_of(&p, fixed_cards, |child| {
                    if repeats.again(&child) {
                        return;
                    }
                    let (to, entry) = game.cell_and_entry(keys, (cell, &in_cell), &child);
                    let Some(runs) = entry else {
                        refused = true;
                        return;
                    };
                    if to == cell {
                        refused |= !refused && children.push(runs).is_err();
                        return;
                    }
                    let number = keys.layer(G::suitless(&child));
                    debug_assert!(number > layer.number);
                    self.post(outbox, number, to, runs);
                });
                if refused {
                    return Part::Refused;
                }
            }
            count(since_asked);
            if children.fold().is_err() {
                return Part::Refused;
            }
            // Finished: its moves out filed, then its children not held
            // handed over and the chunk marked, under one lock
            // (`keep_step`).
            self.deliver_all(outbox);
            step.held.drop_held(&mut children.sorted);
            let mut found = lock(&step.found[slot]);
            if children
                .sorted
                .iter()
                .any(|&runs| found.add_with_share(runs, NEXT_SHARE).is_err())
            {
                return Part::Refused;
            }
            step.finished[chunk].store(true, Relaxed);
            step.chunks_done.fetch_add(1, Relaxed);
        }
    }

    /// The cell of `step`, under way, kept as it stands for a save, as
    /// `keep_under_way` keeps a cell searched with the set: its moves out
    /// filed (this thread's here, the others' at each chunk's end), then
    /// the positions it has still to search, the chunks of the step not
    /// finished (those other threads are searching too) and the children
    /// the finished ones found not held, in place of its entries, and
    /// those it has searched, held but not left, beside them. Every
    /// position held that is not searched is so left: it is in a chunk
    /// not finished, or a child of one finished. Resumed, the cell holds
    /// both and goes on with the first (`lean_cell`). Where memory is
    /// refused, or the memory free has no room for twice the positions
    /// held (the copies, beside what the cell last kept until they
    /// replace it), the cell stays as it last was, and the save resumes
    /// it from there. Why: a cell of a billion positions holds some 3 GB
    /// of them, and the first run of BakersDozen.191326999's complete
    /// game was killed for memory during a save. False where nothing is
    /// searched yet, as `keep_under_way`.
    fn keep_step(&self, layer: &ThisLayer, step: &Step, outbox: &mut Outbox) -> bool {
        self.deliver_all(outbox);
        let copies = 2 * step.held.bytes() as u64;
        if self.room(layer).is_some_and(|room| room < copies) {
            return true;
        }
        // The chunks read finished under every lock they are marked under.
        let mut found = step.locked_found();
        let finished: Vec<bool> = step.finished.iter().map(|f| f.load(Relaxed)).collect();
        if found.iter_mut().any(|found| found.settle().is_err()) {
            return true;
        }
        let left = || {
            (0..step.marks.len())
                .filter(|&chunk| !finished[chunk])
                .flat_map(|chunk| step.chunk(chunk))
        };
        let held = &step.held;
        let children = union_of(found.iter().map(|found| &**found));
        let to_search = Packer::pack(Union::of(left(), children));
        let searched = Packer::pack(Difference::of(held.increasing(), left()));
        match (to_search, searched) {
            (Ok(_), Ok(searched)) if searched.len() == 0 => false,
            (Ok(to_search), Ok(searched)) => {
                self.keep(layer, step.index, to_search, searched);
                true
            }
            _ => true,
        }
    }
}

/// The children in the cell a chunk finds, sorted and without repeats
/// every few thousand positions and at its end. Why: they repeat (some
/// three times each on BakersDozen.191326999's games), so sorted while
/// they fit a cache only a third of them wait loose in the step's piles
/// (a small set dropping the repeats as they come was slower: 133.3 s
/// against 127.7 s on a layer of 116 M positions). Only those found
/// since the last fold are sorted, then merged with the rest: sorting
/// the whole list each time took 30% of a chunk's time in layer 35 of
/// BakersDozen.191326999's clubs-followed game.
#[derive(Default)]
struct ChunkChildren {
    /// Those folded: increasing, each once.
    sorted: Vec<u64>,
    /// Those found since, as they came.
    fresh: Vec<u64>,
    /// Room for the next merge.
    spare: Vec<u64>,
}

impl ChunkChildren {
    fn push(&mut self, child: u64) -> Result<(), TryReserveError> {
        if self.fresh.len() == self.fresh.capacity() {
            self.fresh.try_reserve(self.fresh.len().max(1024))?;
        }
        self.fresh.push(child);
        Ok(())
    }

    fn clear(&mut self) {
        self.sorted.clear();
        self.fresh.clear();
    }

    /// The children found since the last fold sorted and merged with
    /// the others, each once. Where memory is refused, they are as
    /// before.
    fn fold(&mut self) -> Result<(), TryReserveError> {
        self.fresh.sort_unstable();
        self.fresh.dedup();
        if self.sorted.is_empty() {
            std::mem::swap(&mut self.sorted, &mut self.fresh);
            return Ok(());
        }
        self.spare.clear();
        self.spare
            .try_reserve(self.sorted.len() + self.fresh.len())?;
        let (mut old, mut new) = (self.sorted.iter().peekable(), self.fresh.iter().peekable());
        loop {
            let next = match (old.peek(), new.peek()) {
                (Some(&&a), Some(&&b)) => {
                    if a <= b {
                        old.next();
                        new.next_if_eq(&&a);
                        a
                    } else {
                        new.next();
                        b
                    }
                }
                (Some(&&a), None) => {
                    old.next();
                    a
                }
                (None, Some(&&b)) => {
                    new.next();
                    b
                }
                (None, None) => break,
            };
            self.spare.push(next);
        }
        std::mem::swap(&mut self.sorted, &mut self.spare);
        self.fresh.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    proptest! {
        /// Folded at any points, a chunk's children are those found,
        /// increasing, each once; cleared, none.
        #[test]
        fn a_chunks_children_folded_are_those_found_each_once(
            found in prop::collection::vec((0u64..64, any::<bool>()), 0..200),
        ) {
            let mut children = ChunkChildren::default();
            children.push(99).unwrap();
            children.fold().unwrap();
            children.clear();
            for &(child, fold) in &found {
                children.push(child).unwrap();
                if fold {
                    children.fold().unwrap();
                }
            }
            children.fold().unwrap();
            let each: BTreeSet<u64> = found.iter().map(|&(child, _)| child).collect();
            prop_assert_eq!(&children.sorted, &each.into_iter().collect::<Vec<_>>());
        }
    }
}

//! The layers searched one after another: each loaded from its file into
//! a visited set of its own, expanded breadth-first within itself (the
//! set's store is the queue), its children of higher layers appended to
//! their files; and the path to a won position rebuilt back through the
//! layers.

use std::io;
use std::time::{Duration, Instant};

use super::Figures;
use super::manifest::Manifest;
use super::measure::{cell_hash, measure};
use super::record::no_key;
use super::store::{Full, Store};
use crate::search::path::chain_moves;
use crate::search::visited::{NO_PARENT, Probe, Visited, hash};
use crate::search::{Limit, Limits, MAX_STATES, Outcome, Stats};
use crate::state::{Key, KeyDecoder, Move, State};

/// Expansions between two looks at the clock and the cancel flag.
const CLOCK_EVERY: u64 = 4096;
/// The least time between two progress reports.
const TELL_EVERY: Duration = Duration::from_secs(1);
/// Slots of the cache of keys appended lately (24 bytes each): a child
/// found again from another parent of the layer is most often still in it,
/// and is not written twice.
const APPENDED_SLOTS: usize = 1 << 20;

/// The cache of keys appended lately, empty slots: [`APPENDED_SLOTS`] of
/// them, or as many as the memory left holds (a cache only saves writes:
/// with fewer slots, more duplicates reach the files, which go when their
/// layer is loaded into its visited set).
fn appended_cache() -> Vec<Key> {
    let mut slots = APPENDED_SLOTS;
    let mut cache = Vec::new();
    while cache.try_reserve_exact(slots).is_err() && slots > 1 {
        slots /= 2;
    }
    cache.resize(slots, no_key());
    cache
}

mod back;

/// How the layered search ended.
pub(super) enum End {
    /// Won, or every layer exhausted; a solution's moves as the search's
    /// positions play them, from the deal's position.
    Decided(Outcome),
    /// Stopped by a limit: why, in a line for the user.
    Stopped(Limit, String),
}

/// A layered search under way.
pub(super) struct Layers<'a> {
    root: &'a State,
    decoder: KeyDecoder,
    limits: &'a Limits,
    deadline: Option<Instant>,
    started: Instant,
    store: Store,
    /// The manifest written at the last completed layer.
    manifest: Manifest,
    appended: Vec<Key>,
    stats: Stats,
    tell: &'a mut dyn FnMut(&Figures),
    told: Instant,
}

/// A won position found in a layer: the moves from the layer's entry it
/// was reached from, and that entry.
struct Won {
    entry: Key,
    moves: Vec<Move>,
}

/// How a pass over some cells of a layer ended.
enum Pass {
    /// Every position of its cells expanded: how many there were.
    Done(u64),
    /// More positions than `--max-states`: to be split.
    TooLarge,
    Won(Won),
    Stopped(Limit, String),
}

/// The most passes a layer is split into: past it, one cell holds more
/// than `--max-states` positions.
const MOST_PASSES: u64 = 1 << 20;

/// The most part files one split writes at once (each a buffered file).
const MOST_SPLIT: u64 = 256;

/// What one expansion did.
enum Step {
    Goes,
    Won(Won),
    Stopped(Limit, String),
}

impl<'a> Layers<'a> {
    pub(super) fn new(
        root: &'a State,
        decoder: KeyDecoder,
        limits: &'a Limits,
        deadline: Option<Instant>,
        store: Store,
        manifest: Manifest,
        tell: &'a mut dyn FnMut(&Figures),
    ) -> Layers<'a> {
        let stats = Stats {
            expanded: manifest.expanded,
            stored: manifest.stored,
            attempts: 1,
            ..Stats::default()
        };
        Layers {
            root,
            decoder,
            limits,
            deadline,
            started: Instant::now(),
            store,
            manifest,
            appended: appended_cache(),
            stats,
            tell,
            told: Instant::now(),
        }
    }

    /// The figures so far, the elapsed time of earlier runs included.
    pub(super) fn stats(&self) -> Stats {
        Stats {
            elapsed: Duration::from_secs_f64(self.manifest.seconds) + self.started.elapsed(),
            ..self.stats.clone()
        }
    }

    /// Gives back the files, for their removal or to keep.
    pub(super) fn into_store(self) -> Store {
        self.store
    }

    /// Writes the manifest for the layers done so far: `next` is searched
    /// next.
    pub(super) fn checkpoint(&mut self, next: usize, passes: Vec<(u64, u64)>) -> io::Result<()> {
        self.manifest.next = next;
        self.manifest.passes = passes;
        self.manifest.lengths = self.store.lengths().to_vec();
        self.manifest.expanded = self.stats.expanded;
        self.manifest.stored = self.stats.stored;
        let seconds = self.manifest.seconds + self.started.elapsed().as_secs_f64();
        let mut manifest = self.manifest.clone();
        manifest.seconds = seconds;
        self.store.write_manifest(&manifest)
    }

    /// Searches the layers from the manifest's next one up, each in
    /// passes over groups of its cells small enough for `--max-states`:
    /// a layer's file too large for one pass is split by the hash of its
    /// records' cells into part files first, and a pass that outgrows
    /// the limit all the same is undone and split again.
    pub(super) fn run(&mut self) -> io::Result<End> {
        let max = self.limits.max_states.min(MAX_STATES);
        let returns = self.root.returns();
        let mut from = self.manifest.next;
        while let Some(layer) = self.store.next_layer(from) {
            let mut passes = if layer == self.manifest.next && !self.manifest.passes.is_empty() {
                std::mem::take(&mut self.manifest.passes)
            } else {
                vec![(1, 0)]
            };
            let mut positions = 0;
            while let Some((modulus, residue)) = passes.pop() {
                let records = self.store.records_in(layer, modulus, residue)?;
                let outcome = if 2 * records > max && modulus < MOST_PASSES {
                    Pass::TooLarge
                } else {
                    self.pass(layer, (modulus, residue), max)?
                };
                match outcome {
                    Pass::Done(stored) => {
                        positions += stored;
                        self.stats.stored += stored;
                        self.stats.peak_stored = self.stats.peak_stored.max(stored);
                    }
                    Pass::TooLarge if modulus < MOST_PASSES => {
                        // What the pass appended goes; its parts take its
                        // place.
                        let lengths = self.manifest.lengths.clone();
                        self.store.truncate_to(&lengths)?;
                        self.appended.fill(no_key());
                        let factor = (2 * records)
                            .div_ceil(max)
                            .clamp(2, MOST_SPLIT)
                            .next_power_of_two();
                        let cell = |key: &Key| cell_hash(key, returns);
                        match self.store.split(layer, (modulus, residue), factor, cell) {
                            Ok(parts) => passes.extend(parts),
                            Err(Full::Disk) => return Ok(self.disk_full(layer)),
                            Err(Full::Io(e)) => return Err(e),
                        }
                    }
                    Pass::TooLarge => return Ok(self.too_large(layer, max)),
                    Pass::Won(won) => {
                        let moves = self.rebuild(layer, won)?;
                        return Ok(End::Decided(Outcome::Solved(moves)));
                    }
                    Pass::Stopped(limit, why) => return Ok(End::Stopped(limit, why)),
                }
                if passes.is_empty() {
                    self.checkpoint(layer + 1, Vec::new())?;
                } else {
                    self.checkpoint(layer, passes.clone())?;
                }
                self.store.remove_part(layer, modulus, residue)?;
            }
            self.report(layer, positions, true);
            from = layer + 1;
        }
        Ok(End::Decided(Outcome::Insoluble))
    }

    fn disk_full(&self, layer: usize) -> End {
        let why = format!(
            "the spill reached --spill-max ({} bytes used) in layer {layer}; {}",
            self.store.used(),
            self.resumes(layer, "a larger --spill-max")
        );
        End::Stopped(Limit::Memory, why)
    }

    /// Searches the cells of `layer` whose hash is `residue` modulo
    /// `modulus`: loaded from the layer's file, each position once, as
    /// entries (no parent in the layer), then expanded breadth-first.
    fn pass(&mut self, layer: usize, (modulus, residue): (u64, u64), max: u64) -> io::Result<Pass> {
        let mut visited = Visited::new(max);
        let mut memory = false;
        let returns = self.root.returns();
        self.store.read_pass(layer, (modulus, residue), |key, _| {
            if cell_hash(&key, returns) % modulus == residue {
                memory = visited.insert(&key, NO_PARENT, 0).is_err();
            }
            !memory && visited.len() as u64 <= max
        })?;
        if memory {
            let why = self.kept(layer, "memory ran out while loading it");
            return Ok(Pass::Stopped(Limit::Memory, why));
        }
        let mut index = 0;
        while index < visited.len() {
            if visited.len() as u64 > max {
                return Ok(Pass::TooLarge);
            }
            match self.expand(layer, &mut visited, index as u32, None)? {
                Step::Goes => {}
                Step::Won(won) => return Ok(Pass::Won(won)),
                Step::Stopped(limit, why) => return Ok(Pass::Stopped(limit, why)),
            }
            index += 1;
        }
        Ok(Pass::Done(visited.len() as u64))
    }

    fn too_large(&self, layer: usize, max: u64) -> End {
        let why = format!(
            "a cell of layer {layer} (its positions with the same cards moved and up) holds more than --max-states {max} positions; {}",
            self.resumes(layer, "a larger --max-states")
        );
        End::Stopped(Limit::States, why)
    }

    /// What the user can do with the files kept at a stop in `layer`.
    fn resumes(&self, layer: usize, with: &str) -> String {
        let with = if with.is_empty() {
            String::new()
        } else {
            format!(" with {with}")
        };
        format!("files kept: the same command{with} resumes from layer {layer}")
    }

    fn kept(&self, layer: usize, what: &str) -> String {
        format!(
            "layer {layer}: {what}; {}",
            self.resumes(layer, "more room")
        )
    }

    /// Expands the position `index` of `layer`: its children of the layer
    /// join it, those of higher layers go to their files (not when
    /// `looking_for` a position, rebuilding a path: then the search stops
    /// when that position is stored, and stops at nothing else).
    fn expand(
        &mut self,
        layer: usize,
        visited: &mut Visited,
        index: u32,
        looking_for: Option<&Key>,
    ) -> io::Result<Step> {
        let key = visited.key(index);
        let state = self.decoder.state(key);
        debug_assert_eq!(measure(&state), layer);
        if looking_for.is_none() {
            self.stats.expanded += 1;
            if self.stats.expanded.is_multiple_of(CLOCK_EVERY)
                && let Some(step) = self.look_at_the_clock(layer, visited.len())
            {
                return Ok(step);
            }
        }
        let mut moves = Vec::new();
        state.for_each_move(|mv| moves.push(mv));
        if visited.make_room(moves.len()).is_err() {
            let why = self.kept(layer, "memory ran out");
            return Ok(Step::Stopped(Limit::Memory, why));
        }
        for mv in moves {
            let mut child = state.clone();
            child.apply(mv);
            if child.is_won() {
                if looking_for.is_some() {
                    continue;
                }
                let mut moves = chain_moves(visited, &self.decoder, index, |i| visited.parent(i));
                moves.push(mv);
                let mut entry = index;
                while visited.parent(entry) != NO_PARENT {
                    entry = visited.parent(entry);
                }
                let entry = visited.key(entry);
                return Ok(Step::Won(Won { entry, moves }));
            }
            let child_layer = measure(&child);
            debug_assert!(child_layer >= layer, "a move lowered the measure");
            let child_key = child.key();
            if child_layer == layer {
                debug_assert_eq!(
                    cell_hash(&child_key, child.returns()),
                    cell_hash(&key, state.returns()),
                    "a move within a layer left its cell"
                );
                let h = hash(&child_key);
                let Probe::Vacant { slot, tag } = visited.probe(&child_key, h) else {
                    continue;
                };
                if state.is_lost_after(mv, &child) {
                    continue;
                }
                visited.insert_at(slot, tag, &child_key, index, 0);
                if looking_for == Some(&child_key) {
                    return Ok(Step::Won(Won {
                        entry: child_key,
                        moves: Vec::new(),
                    }));
                }
            } else if looking_for.is_none() {
                let slot = (hash(&child_key) >> 44) as usize % self.appended.len();
                if self.appended[slot] == child_key || state.is_lost_after(mv, &child) {
                    continue;
                }
                match self.store.append(child_layer, &child_key, &key) {
                    Ok(()) => self.appended[slot] = child_key,
                    Err(Full::Disk) => {
                        let End::Stopped(limit, why) = self.disk_full(layer) else {
                            unreachable!("a stop")
                        };
                        return Ok(Step::Stopped(limit, why));
                    }
                    Err(Full::Io(e)) => return Err(e),
                }
            }
        }
        Ok(Step::Goes)
    }

    /// Reports progress; says whether the time is up or the search was
    /// cancelled.
    fn look_at_the_clock(&mut self, layer: usize, positions: usize) -> Option<Step> {
        let limit = self.limits.interrupted().or_else(|| {
            self.deadline
                .is_some_and(|d| Instant::now() >= d)
                .then_some(Limit::Time)
        });
        if let Some(limit) = limit {
            let why = format!(
                "stopped in layer {layer} ({limit}); {}",
                self.resumes(layer, "")
            );
            return Some(Step::Stopped(limit, why));
        }
        if self.told.elapsed() >= TELL_EVERY {
            self.told = Instant::now();
            self.report(layer, positions as u64, false);
        }
        None
    }

    fn report(&mut self, layer: usize, positions: u64, done: bool) {
        let figures = Figures {
            layer,
            positions,
            expanded: self.stats.expanded,
            largest: self.stats.peak_stored,
            disk: self.store.used(),
            elapsed: self.stats().elapsed,
            done,
        };
        (self.tell)(&figures);
    }
}

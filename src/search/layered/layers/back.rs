//! The path to a won position found back through the layers: each
//! entry's parent read from its layer's file, then that parent's cell
//! searched again from its entries until the parent is stored.

use std::io;

use super::super::measure::{cell_hash, measure};
use super::super::record::no_key;
use super::{Layers, Step, Won};
use crate::search::MAX_STATES;
use crate::search::path::{chain_moves, move_to};
use crate::search::visited::{NO_PARENT, Visited, hash};
use crate::state::{Key, Move};

impl Layers<'_> {
    /// The moves from the deal's position to the won one: `won`'s moves
    /// in `layer`, after those that reached its entry, found back layer by
    /// layer (each entry's parent read from its layer's file, then that
    /// parent's layer searched again until the parent is stored).
    pub(super) fn rebuild(&mut self, layer: usize, won: Won) -> io::Result<Vec<Move>> {
        let Won {
            mut entry,
            mut moves,
        } = won;
        let mut layer = layer;
        loop {
            let mut parent = None;
            self.store.read_layer(layer, |key, from| {
                if key == entry {
                    parent = Some(from);
                }
                parent.is_none()
            })?;
            let parent =
                parent.ok_or_else(|| io::Error::other("an entry not in its layer file"))?;
            if parent == no_key() {
                debug_assert_eq!(entry, self.root.key());
                return Ok(moves);
            }
            let state = self.decoder.state(parent);
            let step = move_to(&state, &entry);
            layer = measure(&state);
            let (visited, index) = self.search_again(layer, &parent)?;
            let mut before = chain_moves(&visited, &self.decoder, index, |i| visited.parent(i));
            before.push(step);
            before.append(&mut moves);
            moves = before;
            let mut first = index;
            while visited.parent(first) != NO_PARENT {
                first = visited.parent(first);
            }
            entry = visited.key(first);
        }
    }

    /// `layer` searched again from its entries until `target` is stored:
    /// the set, and the target's index in it.
    fn search_again(&mut self, layer: usize, target: &Key) -> io::Result<(Visited, u32)> {
        let mut visited = Visited::new(self.limits.max_states.min(MAX_STATES));
        let returns = self.root.returns();
        let cell = cell_hash(target, returns);
        self.store.read_layer(layer, |key, _| {
            cell_hash(&key, returns) != cell || visited.insert(&key, NO_PARENT, 0).is_ok()
        })?;
        if let Some(index) = visited.index_of(target, hash(target)) {
            return Ok((visited, index));
        }
        let mut index = 0;
        while index < visited.len() {
            if let Step::Won(_) = self.expand(layer, &mut visited, index as u32, Some(target))? {
                let found = visited.len() as u32 - 1;
                return Ok((visited, found));
            }
            index += 1;
        }
        Err(io::Error::other("a parent not found again in its layer"))
    }
}

//! The open list of `--optimal`'s A* search: positions waiting to be
//! expanded, the lowest bound on a whole solution through them first, and
//! among equals the one the most moves from the deal (the nearest the
//! end, so that the last layer finds its solution early).

use std::collections::TryReserveError;

/// Waiting positions, as indices into the visited set, by `f` (moves so
/// far plus the lower bound on the rest) and then by `g` (moves so far).
#[derive(Default)]
pub(super) struct Open {
    /// Per `f`, per `g`: a stack of indices.
    buckets: Vec<Vec<Vec<u32>>>,
    /// No waiting position has a lower `f`.
    lowest: usize,
    len: u64,
}

impl Open {
    /// Queues `index`; fails, queueing nothing, when memory runs out.
    pub(super) fn push(&mut self, f: usize, g: usize, index: u32) -> Result<(), TryReserveError> {
        if self.buckets.len() <= f {
            self.buckets.try_reserve(f + 1 - self.buckets.len())?;
            self.buckets.resize_with(f + 1, Vec::new);
        }
        let by_g = &mut self.buckets[f];
        if by_g.len() <= g {
            by_g.try_reserve(g + 1 - by_g.len())?;
            by_g.resize_with(g + 1, Vec::new);
        }
        by_g[g].try_reserve(1)?;
        by_g[g].push(index);
        self.lowest = self.lowest.min(f);
        self.len += 1;
        Ok(())
    }

    /// The lowest `f` waiting, without taking anything.
    pub(super) fn lowest_f(&mut self) -> Option<usize> {
        while self.lowest < self.buckets.len() {
            let by_g = &mut self.buckets[self.lowest];
            while by_g.last().is_some_and(Vec::is_empty) {
                by_g.pop();
            }
            if !by_g.is_empty() {
                return Some(self.lowest);
            }
            self.lowest += 1;
        }
        None
    }

    /// Takes a position of the lowest `f`, the highest `g` among them:
    /// `(f, g, index)`.
    pub(super) fn pop(&mut self) -> Option<(usize, usize, u32)> {
        let f = self.lowest_f()?;
        let by_g = &mut self.buckets[f];
        let g = by_g.len() - 1;
        let index = by_g[g].pop().expect("a non-empty last stack");
        self.len -= 1;
        Some((f, g, index))
    }

    pub(super) fn len(&self) -> u64 {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowest_f_first_then_the_highest_g_newest_first() {
        let mut open = Open::default();
        open.push(9, 3, 1).unwrap();
        open.push(7, 2, 2).unwrap();
        open.push(7, 5, 3).unwrap();
        open.push(7, 5, 4).unwrap();
        open.push(8, 0, 5).unwrap();
        assert_eq!(open.len(), 5);
        assert_eq!(open.pop(), Some((7, 5, 4)));
        assert_eq!(open.pop(), Some((7, 5, 3)));
        // A lower f pushed later goes first.
        open.push(6, 1, 6).unwrap();
        assert_eq!(open.lowest_f(), Some(6));
        assert_eq!(open.pop(), Some((6, 1, 6)));
        assert_eq!(open.pop(), Some((7, 2, 2)));
        assert_eq!(open.pop(), Some((8, 0, 5)));
        assert_eq!(open.pop(), Some((9, 3, 1)));
        assert_eq!(open.pop(), None);
        assert_eq!(open.len(), 0);
    }
}

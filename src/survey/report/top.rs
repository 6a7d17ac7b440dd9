//! The greatest few of a stream: the slowest deals, the lowest seeds, kept
//! as they come, in memory bounded by how many are shown rather than by
//! how many deals there are.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The `k` greatest items pushed so far.
#[derive(Debug)]
pub struct Top<T: Ord> {
    k: usize,
    /// A min-heap: its top is the least kept, the first to go.
    kept: BinaryHeap<Reverse<T>>,
}

impl<T: Ord> Top<T> {
    pub fn new(k: usize) -> Top<T> {
        Top {
            k,
            kept: BinaryHeap::with_capacity(k + 1),
        }
    }

    pub fn push(&mut self, item: T) {
        if self.kept.len() < self.k {
            self.kept.push(Reverse(item));
        } else if self.kept.peek().is_some_and(|least| item > least.0) {
            self.kept.pop();
            self.kept.push(Reverse(item));
        }
    }

    /// The items kept, greatest first.
    pub fn sorted(&self) -> Vec<&T> {
        let mut items: Vec<&T> = self.kept.iter().map(|r| &r.0).collect();
        items.sort_unstable_by(|a, b| b.cmp(a));
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_greatest_whatever_the_order() {
        let mut top = Top::new(3);
        for x in [5, 1, 9, 7, 3, 9, 2] {
            top.push(x);
        }
        assert_eq!(top.sorted(), vec![&9, &9, &7]);
        // The least seeds: the greatest of their reverses.
        let mut least = Top::new(2);
        for seed in [40u32, 3, 17, 8] {
            least.push(Reverse(seed));
        }
        let seeds: Vec<u32> = least.sorted().iter().map(|r| r.0).collect();
        assert_eq!(seeds, vec![3, 8]);
    }

    #[test]
    fn fewer_items_than_kept_and_none() {
        let mut top = Top::new(20);
        top.push(1);
        assert_eq!(top.sorted(), vec![&1]);
        assert!(Top::<u8>::new(20).sorted().is_empty());
        let mut nothing = Top::new(0);
        nothing.push(4);
        assert!(nothing.sorted().is_empty());
    }
}

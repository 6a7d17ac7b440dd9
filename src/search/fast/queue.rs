//! The fast pass's frontier: positions by rank, lowest first, and among
//! equal ranks the newest first. Ranks are small integers (a few
//! thousand), so a list per rank does what a binary heap did, in the same
//! order, without its sifting through a frontier that grows to a million
//! entries on the hardest deals.

/// Positions (their indices, pushed in increasing order) by rank.
#[derive(Default)]
pub(super) struct RankQueue {
    /// The positions of each rank, oldest first.
    lists: Vec<Vec<u32>>,
    /// No list below this one holds a position.
    lowest: usize,
    /// Lists at or past this one were never used since the last clear.
    used: usize,
}

impl RankQueue {
    /// Empties the queue, keeping its lists' memory.
    pub(super) fn clear(&mut self) {
        for list in &mut self.lists[..self.used] {
            list.clear();
        }
        self.lowest = 0;
        self.used = 0;
    }

    /// Queues `index` at `rank`.
    pub(super) fn push(&mut self, rank: u32, index: u32) {
        let rank = rank as usize;
        if rank >= self.lists.len() {
            self.lists.resize_with(rank + 1, Vec::new);
        }
        self.lists[rank].push(index);
        self.lowest = self.lowest.min(rank);
        self.used = self.used.max(rank + 1);
    }

    /// The newest position of the lowest rank, taken off the queue.
    pub(super) fn pop(&mut self) -> Option<u32> {
        while self.lowest < self.used {
            if let Some(index) = self.lists[self.lowest].pop() {
                return Some(index);
            }
            self.lowest += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    use super::*;
    use crate::state::testing::xorshift;

    /// Pushes and pops mixed at random come out as from a max-heap of
    /// (lower rank, newer index), the order the pass was tuned with.
    #[test]
    fn pops_in_the_order_of_a_heap_of_rank_then_newest() {
        let mut queue = RankQueue::default();
        let mut heap = BinaryHeap::new();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..3 {
            queue.clear();
            heap.clear();
            let mut next = 0u32;
            for _ in 0..5_000 {
                xorshift(&mut rng);
                if rng.is_multiple_of(3) {
                    assert_eq!(queue.pop(), heap.pop().map(|(_, i)| i), "round {round}");
                } else {
                    let rank = (rng >> 8) as u32 % (50 + 40 * round);
                    queue.push(rank, next);
                    heap.push((Reverse(rank), next));
                    next += 1;
                }
            }
            while let Some((_, index)) = heap.pop() {
                assert_eq!(queue.pop(), Some(index));
            }
            assert_eq!(queue.pop(), None);
        }
    }
}

//! xpat2's own shuffle (SPEC §3): a seed becomes the permutation of the 52
//! cards that xpat2 deals for that number.
//!
//! It is a subtractive lagged-Fibonacci generator (lags 24 and 55) with
//! everything reduced below `RANDMAX`. The two queues hold the 55 lagged
//! values; every draw feeds both. The reduction to a position goes through
//! `f64` on purpose: that is what xpat2 does, and exact integer arithmetic
//! would pick different cards for some seeds.

use std::collections::VecDeque;

use crate::cards::{CARDS, Card};

/// Every value of the generator lies in `0..RANDMAX`.
pub const RANDMAX: u32 = 1_000_000_000;

/// `a - b` modulo `RANDMAX`, for `a, b < RANDMAX`.
fn diff(a: u32, b: u32) -> u32 {
    if b <= a { a - b } else { a + RANDMAX - b }
}

/// Maps a draw onto `0..limit` the way xpat2 does, through floating point
/// (its `myrand` in `moves.c`, with the default generator `rng = 1`).
pub fn reduce(n: u32, limit: usize) -> usize {
    (n as f64 / RANDMAX as f64 * limit as f64) as usize
}

/// The generator of SPEC §3 steps 1–4 (xpat2's `sprand`/`prand` in
/// `util.c`). Public because xpat2 restarts it from the deal's seed for
/// Midnight Oil's redeals ([`crate::redeal`]).
pub struct Generator {
    a: VecDeque<u32>,
    b: VecDeque<u32>,
}

impl Generator {
    /// The generator started from `seed`, its first 165 draws thrown away.
    pub fn new(seed: u32) -> Generator {
        // Step 1: 55 (key, value) pairs; keys walk 0, 21, 42, … mod 55.
        let mut pairs = Vec::with_capacity(55);
        pairs.push((0u32, seed));
        pairs.push((21, 1));
        while pairs.len() < 55 {
            let n = pairs.len();
            let key = (pairs[n - 1].0 + 21) % 55;
            pairs.push((key, diff(pairs[n - 2].1, pairs[n - 1].1)));
        }
        // Step 2: by key; each queue yields from its highest key down.
        pairs.sort_unstable();
        let a = pairs[24..].iter().rev().map(|&(_, v)| v).collect();
        let b = pairs[..24].iter().rev().map(|&(_, v)| v).collect();
        let mut generator = Generator { a, b };
        // Step 4: the first 165 draws are thrown away.
        for _ in 0..165 {
            generator.draw();
        }
        generator
    }

    /// Step 3: the next value, in `0..RANDMAX`.
    pub fn draw(&mut self) -> u32 {
        let n1 = self.a.pop_front().expect("queue A never empties");
        let n2 = self.b.pop_front().expect("queue B never empties");
        let d = diff(n1, n2);
        self.a.push_back(n2);
        self.b.push_back(d);
        d
    }
}

/// The permutation xpat2 deals for `seed` (SPEC §3 step 5): its first card
/// is the bottom card of the first column.
pub fn permutation(seed: u32) -> [Card; CARDS] {
    let mut generator = Generator::new(seed);
    let mut remaining: Vec<Card> = (0..CARDS as Card).collect();
    let mut out = [0; CARDS];
    // The first card removed ends last, the last removed is the head.
    for slot in (0..CARDS).rev() {
        let pos = reduce(generator.draw(), remaining.len());
        out[slot] = remaining.remove(pos);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known permutations from the original course material, which
    /// reproduces xpat2 (the facts of `conformance/permutations.tsv`).
    const KNOWN: [(u32, [Card; 52]); 11] = [
        (
            1,
            [
                13, 32, 33, 35, 30, 46, 7, 29, 9, 48, 38, 36, 51, 41, 26, 20, 23, 43, 27, 42, 4,
                21, 37, 39, 2, 15, 34, 28, 25, 17, 16, 18, 31, 3, 0, 10, 50, 49, 14, 6, 24, 1, 22,
                5, 40, 44, 11, 8, 45, 19, 12, 47,
            ],
        ),
        (
            12,
            [
                44, 9, 28, 35, 8, 5, 3, 4, 11, 25, 43, 2, 27, 1, 24, 40, 17, 41, 47, 18, 10, 34,
                39, 7, 36, 29, 15, 19, 30, 37, 48, 45, 0, 21, 12, 46, 22, 13, 16, 33, 31, 38, 23,
                6, 14, 49, 26, 50, 20, 32, 42, 51,
            ],
        ),
        (
            123,
            [
                16, 51, 44, 27, 11, 37, 33, 50, 48, 13, 17, 38, 7, 28, 39, 15, 4, 5, 3, 6, 42, 25,
                19, 34, 20, 49, 23, 0, 8, 26, 30, 29, 47, 36, 9, 24, 40, 45, 14, 22, 32, 10, 1, 18,
                12, 31, 35, 2, 21, 43, 46, 41,
            ],
        ),
        (
            1234,
            [
                36, 37, 44, 26, 9, 10, 23, 30, 29, 18, 4, 35, 15, 50, 33, 43, 28, 2, 45, 6, 3, 31,
                27, 20, 7, 51, 39, 5, 14, 8, 38, 17, 49, 0, 40, 42, 13, 19, 34, 1, 46, 22, 25, 24,
                12, 48, 16, 21, 32, 11, 41, 47,
            ],
        ),
        (
            12345,
            [
                10, 12, 6, 23, 50, 29, 28, 24, 7, 37, 49, 32, 38, 30, 31, 18, 13, 2, 15, 4, 5, 47,
                16, 1, 0, 35, 43, 40, 42, 44, 46, 39, 48, 20, 36, 34, 8, 14, 33, 11, 25, 45, 41,
                19, 3, 17, 21, 51, 26, 22, 27, 9,
            ],
        ),
        (
            123456,
            [
                1, 7, 39, 47, 5, 15, 50, 49, 37, 44, 29, 10, 4, 23, 17, 20, 0, 11, 24, 14, 28, 35,
                3, 48, 8, 41, 19, 46, 13, 12, 36, 34, 27, 9, 33, 22, 43, 32, 25, 30, 38, 6, 31, 16,
                51, 21, 26, 18, 45, 40, 42, 2,
            ],
        ),
        (
            1234567,
            [
                19, 17, 31, 6, 4, 14, 9, 36, 35, 30, 39, 40, 50, 48, 42, 37, 12, 3, 25, 1, 43, 27,
                5, 20, 10, 51, 11, 44, 46, 38, 16, 22, 26, 23, 21, 28, 15, 7, 47, 13, 18, 29, 32,
                0, 49, 34, 8, 45, 24, 33, 2, 41,
            ],
        ),
        (
            22222,
            [
                43, 17, 21, 40, 42, 47, 0, 35, 23, 18, 11, 29, 41, 10, 45, 7, 15, 25, 13, 51, 6,
                12, 33, 24, 8, 34, 50, 2, 30, 28, 37, 3, 4, 39, 49, 31, 32, 14, 44, 22, 46, 48, 9,
                1, 36, 5, 27, 26, 38, 20, 16, 19,
            ],
        ),
        (
            222222,
            [
                42, 48, 16, 9, 22, 21, 45, 12, 40, 44, 29, 31, 24, 27, 33, 38, 14, 15, 49, 37, 0,
                26, 10, 1, 47, 4, 50, 34, 23, 8, 3, 2, 19, 32, 13, 43, 51, 6, 39, 35, 18, 30, 11,
                7, 46, 17, 20, 5, 41, 36, 25, 28,
            ],
        ),
        (
            2222222,
            [
                17, 45, 5, 4, 33, 23, 10, 42, 39, 3, 24, 46, 6, 29, 44, 27, 0, 43, 2, 7, 20, 14,
                34, 8, 11, 18, 15, 28, 25, 49, 40, 47, 48, 21, 41, 9, 31, 30, 36, 12, 51, 1, 35,
                26, 50, 38, 32, 19, 13, 37, 22, 16,
            ],
        ),
        (
            999999999,
            [
                22, 1, 0, 21, 20, 44, 23, 43, 38, 11, 4, 2, 19, 27, 36, 9, 49, 7, 18, 14, 46, 10,
                25, 35, 39, 48, 51, 40, 33, 13, 42, 16, 32, 50, 24, 47, 26, 6, 34, 45, 5, 3, 41,
                15, 12, 31, 17, 28, 8, 29, 30, 37,
            ],
        ),
    ];

    #[test]
    fn matches_the_eleven_known_permutations() {
        for (seed, want) in KNOWN {
            assert_eq!(permutation(seed), want, "seed {seed}");
        }
    }

    #[test]
    fn every_seed_gives_a_permutation() {
        for seed in [1, 2, 3, 77, 500_000, 999_999_998] {
            let mut seen = [false; 52];
            for c in permutation(seed) {
                assert!(!seen[c as usize], "seed {seed}: card {c} twice");
                seen[c as usize] = true;
            }
        }
    }

    #[test]
    fn diff_wraps_below_randmax() {
        assert_eq!(diff(5, 3), 2);
        assert_eq!(diff(3, 5), RANDMAX - 2);
        assert_eq!(diff(0, 0), 0);
    }
}

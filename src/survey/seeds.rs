//! The seeds of a survey: ranges and lists (`1-1000,19621`) or a random
//! sample, held as sorted disjoint ranges so that `1-999999999` costs a
//! few bytes, and the i-th seed is found by a binary search.

use rustc_hash::FxHashSet;

use crate::rules::MAX_SEED;

/// The most seeds `--random` draws: the sample is held in memory while it
/// is drawn (about 16 bytes a seed); a larger survey is a range.
pub const MAX_RANDOM: u64 = 10_000_000;

/// A set of seeds in ascending order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeds {
    /// Disjoint, ascending, never adjacent: `(first, last)`, inclusive.
    ranges: Vec<(u32, u32)>,
    /// Seeds in `ranges[..=i]`, for [`Seeds::get`]'s binary search.
    ends: Vec<u64>,
}

impl Seeds {
    /// Parses `SEEDS`: items joined by commas, each a seed or an inclusive
    /// range `A-B`. Overlaps and repeats count once; the order is always
    /// ascending, whatever the order written.
    pub fn parse(text: &str) -> Result<Seeds, String> {
        if text.trim().is_empty() {
            return Err(
                "SEEDS is empty: expected ranges and lists of seeds, e.g. 1-1000,19621".into(),
            );
        }
        let mut ranges = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let range = match item.split_once('-') {
                Some((a, b)) => (parse_seed(a, item)?, parse_seed(b, item)?),
                None => {
                    let seed = parse_seed(item, item)?;
                    (seed, seed)
                }
            };
            if range.0 > range.1 {
                return Err(format!(
                    "range {item} is empty: its first seed is above its last (did you mean {}-{}?)",
                    range.1, range.0
                ));
            }
            ranges.push(range);
        }
        Ok(Seeds::from_ranges(ranges))
    }

    /// `n` distinct seeds drawn uniformly from 1..=[`MAX_SEED`]: the first
    /// `n` distinct values of a SplitMix64 stream started at `rng_seed`, so
    /// the same `rng_seed` always gives the same sample, on any machine.
    pub fn random(n: u64, rng_seed: u64) -> Result<Seeds, String> {
        if n == 0 || n > MAX_RANDOM {
            return Err(format!(
                "--random {n}: expected a number of seeds from 1 to {MAX_RANDOM} (survey larger sets as a range)"
            ));
        }
        let mut state = rng_seed;
        let mut drawn = FxHashSet::default();
        drawn.reserve(n as usize);
        while (drawn.len() as u64) < n {
            // Multiply-shift maps 64 random bits onto 1..=MAX_SEED; its
            // bias, under MAX_SEED / 2^64, is far below any sampling error.
            let bits = splitmix64(&mut state);
            drawn.insert(1 + ((bits as u128 * MAX_SEED as u128) >> 64) as u32);
        }
        let mut seeds: Vec<u32> = drawn.into_iter().collect();
        seeds.sort_unstable();
        Ok(Seeds::from_ranges(
            seeds.into_iter().map(|s| (s, s)).collect(),
        ))
    }

    /// Sorts and merges ranges into the canonical form.
    fn from_ranges(mut ranges: Vec<(u32, u32)>) -> Seeds {
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (a, b) in ranges {
            match merged.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        let mut total = 0;
        let ends = merged
            .iter()
            .map(|&(a, b)| {
                total += (b - a) as u64 + 1;
                total
            })
            .collect();
        Seeds {
            ranges: merged,
            ends,
        }
    }

    /// How many seeds.
    pub fn len(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Never true of a parsed set: SEEDS and --random refuse an empty one.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th seed in ascending order (`i < len()`).
    pub fn get(&self, i: u64) -> u32 {
        let r = self.ends.partition_point(|&end| end <= i);
        let before = if r == 0 { 0 } else { self.ends[r - 1] };
        self.ranges[r].0 + (i - before) as u32
    }

    /// Where `seed` is in ascending order, if it is one of these seeds.
    pub fn index_of(&self, seed: u32) -> Option<u64> {
        let r = self.ranges.partition_point(|&(_, last)| last < seed);
        let &(first, _) = self.ranges.get(r).filter(|&&(a, _)| a <= seed)?;
        let before = if r == 0 { 0 } else { self.ends[r - 1] };
        Some(before + (seed - first) as u64)
    }
}

/// One seed of `SEEDS`: digits only, from 1 to [`MAX_SEED`]; `item` is the
/// list item it came from, for the message.
fn parse_seed(text: &str, item: &str) -> Result<u32, String> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{item}' is not a seed or a range: expected e.g. 1-1000,19621 (seeds from 1 to {MAX_SEED})"
        ));
    }
    match text.trim_start_matches('0').parse::<u64>() {
        Ok(seed @ 1..=999_999_999) => Ok(seed as u32),
        _ => Err(format!(
            "seed {text} is out of range: expected a number from 1 to {MAX_SEED}"
        )),
    }
}

/// SplitMix64 (Steele, Lea and Flood): a tiny generator whose output is
/// fixed by its published constants, so samples are reproducible without a
/// crate whose algorithm might change between versions.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(seeds: &Seeds) -> Vec<u32> {
        (0..seeds.len()).map(|i| seeds.get(i)).collect()
    }

    #[test]
    fn ranges_and_lists_merge_in_ascending_order() {
        let s = Seeds::parse("19621,1-5,3-7, 9 ,8").unwrap();
        assert_eq!(all(&s), [1, 2, 3, 4, 5, 6, 7, 8, 9, 19621]);
        assert_eq!(s.ranges, [(1, 9), (19621, 19621)]);
        for (i, seed) in all(&s).into_iter().enumerate() {
            assert_eq!(s.index_of(seed), Some(i as u64));
        }
        assert_eq!(s.index_of(10), None);
        assert_eq!(s.index_of(19622), None);
        let whole = Seeds::parse("1-999999999").unwrap();
        assert_eq!(whole.len(), 999_999_999);
        assert_eq!(whole.get(999_999_998), MAX_SEED);
    }

    #[test]
    fn bad_seeds_say_what_is_wrong() {
        let cases = [
            ("", "SEEDS is empty"),
            (" ", "SEEDS is empty"),
            ("5-1", "range 5-1 is empty"),
            ("0", "seed 0 is out of range"),
            ("0-5", "seed 0 is out of range"),
            ("1-1000000000", "out of range"),
            ("1,,2", "'' is not a seed"),
            ("1-", "'1-' is not a seed"),
            ("-5", "'-5' is not a seed"),
            ("1-2-3", "'1-2-3' is not a seed"),
            ("abc", "'abc' is not a seed"),
            ("99999999999999999999999", "out of range"),
        ];
        for (text, says) in cases {
            let err = Seeds::parse(text).unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }

    #[test]
    fn random_samples_are_distinct_reproducible_and_spread() {
        let a = Seeds::random(10_000, 7).unwrap();
        assert_eq!(a.len(), 10_000);
        assert_eq!(a, Seeds::random(10_000, 7).unwrap());
        assert_ne!(a, Seeds::random(10_000, 8).unwrap());
        let seeds = all(&a);
        assert!(seeds.windows(2).all(|w| w[0] < w[1]));
        assert!(seeds.iter().all(|&s| (1..=MAX_SEED).contains(&s)));
        // Uniform: each tenth of the seed space holds about a tenth.
        for tenth in 0..10 {
            let lo = tenth * (MAX_SEED / 10);
            let n = seeds
                .iter()
                .filter(|&&s| s > lo && s <= lo + MAX_SEED / 10)
                .count();
            assert!((850..=1150).contains(&n), "tenth {tenth}: {n}");
        }
        assert!(Seeds::random(0, 1).is_err());
        assert!(Seeds::random(MAX_RANDOM + 1, 1).is_err());
    }
}

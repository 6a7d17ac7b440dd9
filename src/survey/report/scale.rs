//! Histograms on a log scale, filled one value at a time, and the scales
//! the plots draw them on.
//!
//! A survey's times and positions spread over six decades or more, so the
//! bins are a fixed fraction of a decade ([`BINS_PER_DECADE`]) wherever
//! the values fall: a bin is known from its value alone, and a million
//! deals cost a few dozen counters, never a list of values. Zero has no
//! logarithm (a deal decided before the clock ticked, a deal won without
//! expanding a position): zeros are counted apart and drawn as their own
//! bar, left of the log axis.

use std::collections::BTreeMap;

/// Bins per decade: each bin's upper edge is 10^(1/5) ≈ 1.58 times its
/// lower one.
pub const BINS_PER_DECADE: i32 = 5;

/// A bar of the histogram: the zeros, or the values in one log bin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bucket {
    Zero,
    /// Values in [10^(k/5), 10^((k+1)/5)).
    Bin(i32),
}

/// Counts of non-negative values by log bin, with the zeros apart.
#[derive(Clone, Debug, Default)]
pub struct LogHistogram {
    zeros: u64,
    bins: BTreeMap<i32, u64>,
    count: u64,
    sum: f64,
    max: f64,
}

impl LogHistogram {
    /// Counts `value`; a negative or non-finite one (which no row holds:
    /// the reader refuses them) counts as zero rather than panic.
    pub fn add(&mut self, value: f64) {
        self.count += 1;
        if value > 0.0 && value.is_finite() {
            *self.bins.entry(bin_of(value)).or_default() += 1;
            self.sum += value;
            self.max = self.max.max(value);
        } else {
            self.zeros += 1;
        }
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn zeros(&self) -> u64 {
        self.zeros
    }

    pub fn max(&self) -> f64 {
        self.max
    }

    pub fn mean(&self) -> f64 {
        match self.count {
            0 => 0.0,
            n => self.sum / n as f64,
        }
    }

    /// The log bins from the lowest filled to the highest, empty ones
    /// between included; none when every value is zero.
    pub fn bins(&self) -> Vec<(i32, u64)> {
        let (Some((&low, _)), Some((&high, _))) =
            (self.bins.first_key_value(), self.bins.last_key_value())
        else {
            return Vec::new();
        };
        (low..=high)
            .map(|k| (k, self.bins.get(&k).copied().unwrap_or(0)))
            .collect()
    }

    /// Every bar, the zeros' first when there are any.
    pub fn buckets(&self) -> Vec<(Bucket, u64)> {
        let zeros = (self.zeros > 0).then_some((Bucket::Zero, self.zeros));
        zeros
            .into_iter()
            .chain(self.bins().into_iter().map(|(k, n)| (Bucket::Bin(k), n)))
            .collect()
    }

    /// The bar holding the median (the value of rank ⌈n/2⌉), exactly known
    /// though the values are not kept.
    pub fn median(&self) -> Option<Bucket> {
        let rank = self.count.div_ceil(2).max(1);
        let mut seen = 0;
        self.buckets().into_iter().find_map(|(bucket, n)| {
            seen += n;
            (seen >= rank).then_some(bucket)
        })
    }
}

/// The bin of a positive value: the k with 10^(k/5) ≤ value < 10^((k+1)/5),
/// corrected where `log10` rounds across an edge (log10(1000) may come out
/// a hair under 3).
pub fn bin_of(value: f64) -> i32 {
    let mut k = (value.log10() * f64::from(BINS_PER_DECADE)).floor() as i32;
    if edge(k) > value {
        k -= 1;
    } else if edge(k + 1) <= value {
        k += 1;
    }
    k
}

/// The lower edge of bin `k`: 10^(k/5).
pub fn edge(k: i32) -> f64 {
    10f64.powf(f64::from(k) / f64::from(BINS_PER_DECADE))
}

/// The whole decades a log axis spans to show bins `low..=high`: from the
/// decade at or below the first bin's lower edge to the one at or above
/// the last bin's upper edge, so that both ends carry a labelled tick.
pub fn decades(low: i32, high: i32) -> (i32, i32) {
    let first = low.div_euclid(BINS_PER_DECADE);
    let last = (high + 1 + BINS_PER_DECADE - 1).div_euclid(BINS_PER_DECADE);
    (first, last.max(first + 1))
}

/// Where `k` (in bins, a fraction of a decade) falls on an axis from
/// decade `first` to `last` drawn `width` wide, from 0.
pub fn position(k: f64, (first, last): (i32, i32), width: f64) -> f64 {
    let decade = k / f64::from(BINS_PER_DECADE);
    (decade - f64::from(first)) / f64::from(last - first) * width
}

/// A round step for a count axis up to `max` with about four ticks
/// (1, 2 or 5 times a power of ten), and the axis' top, a multiple of it.
pub fn count_ticks(max: u64) -> (u64, u64) {
    let max = max.max(1);
    let rough = max.div_ceil(4);
    let mut power = 1u64;
    while power.saturating_mul(10) <= rough {
        power *= 10;
    }
    let step = [1, 2, 5, 10]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= rough)
        .unwrap_or(10 * power);
    (step, max.div_ceil(step) * step)
}

/// 10^`decade` seconds as an axis label: `0.001`, `1`, `100`.
pub fn seconds_label(decade: i32) -> String {
    match decade {
        d if d >= 0 => format!("{}", 10f64.powi(d)),
        d => format!("{:.*}", d.unsigned_abs() as usize, 10f64.powi(d)),
    }
}

/// 10^`decade` positions as an axis label: `1`, `100`, `10k`, `1M`, `1G`.
pub fn count_label(decade: i32) -> String {
    const UNITS: [&str; 4] = ["", "k", "M", "G"];
    match decade {
        d if d < 0 => seconds_label(d),
        d if d < 12 => format!("{}{}", 10u64.pow(d as u32 % 3), UNITS[(d / 3) as usize]),
        d => format!("1e{d}"),
    }
}

/// A value in a bar's words: up to four significant digits, no trailing
/// zeros (`0.0158`, `2.512`, `15850`).
pub fn short(value: f64) -> String {
    if value <= 0.0 || !value.is_finite() {
        return "0".into();
    }
    if value >= 1000.0 {
        return format!("{value:.0}");
    }
    let digits = (3 - value.log10().floor() as i32).clamp(0, 12) as usize;
    let text = format!("{value:.digits$}");
    match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_hold_their_edges_exactly() {
        assert_eq!(bin_of(1.0), 0);
        assert_eq!(bin_of(0.999_999), -1);
        assert_eq!(bin_of(10.0), 5);
        assert_eq!(bin_of(1000.0), 15);
        assert_eq!(bin_of(0.001), -15);
        assert_eq!(bin_of(1.6), 1);
        for k in -40..40 {
            assert_eq!(bin_of(edge(k)), k, "{k}");
            assert!(edge(k) < edge(k + 1));
        }
    }

    #[test]
    fn zeros_are_counted_apart_and_lead_the_bars() {
        let mut h = LogHistogram::default();
        for v in [0.0, 0.0, 1.0, 12.0, f64::NAN, -1.0] {
            h.add(v);
        }
        assert_eq!((h.count(), h.zeros()), (6, 4));
        let buckets = h.buckets();
        assert_eq!(buckets[0], (Bucket::Zero, 4));
        assert_eq!(buckets[1], (Bucket::Bin(0), 1));
        assert_eq!(buckets.last(), Some(&(Bucket::Bin(5), 1)));
        // Empty bins between are bars of height 0, so the axis is even.
        assert_eq!(buckets.len(), 1 + 6);
        assert_eq!(h.median(), Some(Bucket::Zero));
        assert_eq!(h.max(), 12.0);
    }

    #[test]
    fn empty_one_value_and_all_zero_histograms() {
        let h = LogHistogram::default();
        assert!(h.buckets().is_empty());
        assert_eq!((h.median(), h.mean()), (None, 0.0));
        let mut one = LogHistogram::default();
        one.add(0.02);
        assert_eq!(one.buckets(), vec![(Bucket::Bin(bin_of(0.02)), 1)]);
        assert_eq!(one.median(), Some(Bucket::Bin(-9)));
        let mut zeros = LogHistogram::default();
        zeros.add(0.0);
        assert!(zeros.bins().is_empty());
        assert_eq!(zeros.buckets(), vec![(Bucket::Zero, 1)]);
    }

    #[test]
    fn median_is_the_bar_of_the_middle_rank() {
        let mut h = LogHistogram::default();
        for v in [1.0, 1.0, 100.0, 100.0, 100.0] {
            h.add(v);
        }
        assert_eq!(h.median(), Some(Bucket::Bin(10)));
        let mut h = LogHistogram::default();
        for v in [1.0, 1.0, 100.0, 100.0] {
            h.add(v);
        }
        assert_eq!(h.median(), Some(Bucket::Bin(0)));
    }

    #[test]
    fn log_axes_span_whole_decades() {
        assert_eq!(decades(0, 0), (0, 1));
        assert_eq!(decades(0, 4), (0, 1));
        assert_eq!(decades(0, 5), (0, 2));
        assert_eq!(decades(-15, -11), (-3, -2));
        assert_eq!(decades(-16, -11), (-4, -2));
        assert_eq!(position(0.0, (0, 2), 100.0), 0.0);
        assert_eq!(position(5.0, (0, 2), 100.0), 50.0);
        assert_eq!(position(10.0, (0, 2), 100.0), 100.0);
        assert_eq!(position(-15.0, (-3, -2), 10.0), 0.0);
    }

    #[test]
    fn count_axes_end_on_a_round_tick() {
        assert_eq!(count_ticks(0), (1, 1));
        assert_eq!(count_ticks(1), (1, 1));
        assert_eq!(count_ticks(7), (2, 8));
        assert_eq!(count_ticks(100), (50, 100));
        assert_eq!(count_ticks(1_000_000), (500_000, 1_000_000));
        assert_eq!(count_ticks(123_456), (50_000, 150_000));
        for max in 1..2000 {
            let (step, top) = count_ticks(max);
            assert!(top >= max && top % step == 0 && top / step <= 5, "{max}");
        }
    }

    #[test]
    fn labels_read_as_numbers() {
        assert_eq!(seconds_label(-3), "0.001");
        assert_eq!(seconds_label(0), "1");
        assert_eq!(seconds_label(2), "100");
        assert_eq!(count_label(0), "1");
        assert_eq!(count_label(4), "10k");
        assert_eq!(count_label(6), "1M");
        assert_eq!(count_label(11), "100G");
        assert_eq!(count_label(13), "1e13");
        assert_eq!(short(0.015_848_9), "0.01585");
        assert_eq!(short(2.511_886), "2.512");
        assert_eq!(short(1.0), "1");
        assert_eq!(short(15848.9), "15849");
        assert_eq!(short(0.000_001), "0.000001");
        assert_eq!(short(0.0), "0");
    }
}

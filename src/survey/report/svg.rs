//! The page's two plots, drawn as SVG text: a histogram on a log axis and
//! the verdicts' shares as one stacked bar.
//!
//! Each plot is an image to assistive technology (`role="img"`), named by
//! its `<title>` and described by its `<desc>`, and each bar carries its
//! own `<title>` (its range and count), which a browser shows on hover.
//! Every text in them goes through [`escape`].

use std::fmt::Write;

use super::scale::{self, BINS_PER_DECADE, Bucket, LogHistogram};
use super::text::{deals, escape};

/// The histogram's size in SVG units (it scales to the page's width).
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 250.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 52.0;
/// The zeros' bar, left of the log axis, and the gap after it.
const ZERO_SLOT: f64 = 28.0;
const ZERO_GAP: f64 = 18.0;
/// The least height of a bar that holds any deal: the slow tail's few
/// deals stay visible beside a peak of a million.
const MIN_BAR: f64 = 2.0;

const BAR_COLOUR: &str = "#3f6fb0";
const AXIS_COLOUR: &str = "#444";
const GRID_COLOUR: &str = "#ddd";

/// What a histogram says besides its counts.
pub struct Plot<'a> {
    /// A prefix for the ids of its title and description, unique in the page.
    pub id: &'a str,
    pub title: &'a str,
    pub desc: &'a str,
    /// The horizontal axis' title.
    pub axis: &'a str,
    /// After a value in a bar's title: ` s`, ` positions`.
    pub unit: &'a str,
    /// The label of the tick at 10^decade.
    pub label: fn(i32) -> String,
}

/// The lower and upper value of a bar, as its title says them.
pub fn range_words(bucket: Bucket, unit: &str) -> String {
    match bucket {
        Bucket::Zero => format!("0{unit}"),
        Bucket::Bin(k) => format!(
            "{}–{}{unit}",
            scale::short(scale::edge(k)),
            scale::short(scale::edge(k + 1))
        ),
    }
}

/// Opens an `<svg>` of `width` × `height` named by `title`, described by
/// `desc`.
fn open(out: &mut String, plot_id: &str, title: &str, desc: &str, width: f64, height: f64) {
    let id = escape(plot_id);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" role=\"img\" viewBox=\"0 0 {width} {height}\" \
         aria-labelledby=\"{id}-title {id}-desc\" font-family=\"system-ui, sans-serif\" font-size=\"12\">\
         <title id=\"{id}-title\">{}</title><desc id=\"{id}-desc\">{}</desc>",
        escape(title),
        escape(desc)
    );
}

/// A histogram of `h`: a bar per log bin (the zeros' first, apart), the
/// count axis on the left, whole decades labelled below.
pub fn histogram(h: &LogHistogram, plot: &Plot) -> String {
    let mut out = String::new();
    open(&mut out, plot.id, plot.title, plot.desc, WIDTH, HEIGHT);
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let bottom = TOP + plot_h;
    let buckets = h.buckets();
    let most = buckets.iter().map(|&(_, n)| n).max().unwrap_or(0);
    let (step, top) = scale::count_ticks(most);
    // The count axis: gridlines and labels.
    for tick in (0..=top).step_by(step as usize) {
        let y = bottom - tick as f64 / top as f64 * plot_h;
        let _ = write!(
            out,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{GRID_COLOUR}\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{tick}</text>",
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0
        );
    }
    let axis_left = match h.zeros() {
        0 => LEFT,
        _ => LEFT + ZERO_SLOT + ZERO_GAP,
    };
    let axis_w = WIDTH - RIGHT - axis_left;
    let bins = h.bins();
    let span = bins
        .first()
        .zip(bins.last())
        .map(|(&(low, _), &(high, _))| scale::decades(low, high));
    let bar = |out: &mut String, bucket: Bucket, n: u64, x: f64, w: f64| {
        if n == 0 {
            return;
        }
        let height = (n as f64 / top as f64 * plot_h).max(MIN_BAR);
        let share = n as f64 / h.count().max(1) as f64 * 100.0;
        let _ = write!(
            out,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{height:.1}\" fill=\"{BAR_COLOUR}\">\
             <title>{}: {} ({share:.2}%)</title></rect>",
            bottom - height,
            (w - 1.0).max(1.0),
            escape(&range_words(bucket, plot.unit)),
            deals(n)
        );
    };
    for (bucket, n) in &buckets {
        match (*bucket, span) {
            (Bucket::Zero, _) => bar(&mut out, Bucket::Zero, *n, LEFT + 4.0, ZERO_SLOT - 4.0),
            (Bucket::Bin(k), Some(span)) => {
                let x0 = axis_left + scale::position(f64::from(k), span, axis_w);
                let x1 = axis_left + scale::position(f64::from(k + 1), span, axis_w);
                bar(&mut out, *bucket, *n, x0 + 0.5, x1 - x0);
            }
            (Bucket::Bin(_), None) => {}
        }
    }
    // The value axis: the zeros' label, then a tick per decade.
    let _ = write!(
        out,
        "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{bottom}\" y2=\"{bottom}\" stroke=\"{AXIS_COLOUR}\"/>\
         <line x1=\"{LEFT}\" x2=\"{LEFT}\" y1=\"{TOP}\" y2=\"{bottom}\" stroke=\"{AXIS_COLOUR}\"/>",
        WIDTH - RIGHT
    );
    if h.zeros() > 0 {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">0</text>",
            LEFT + 2.0 + ZERO_SLOT / 2.0,
            bottom + 16.0
        );
    }
    if let Some((first, last)) = span {
        for decade in first..=last {
            let x = axis_left
                + scale::position(f64::from(decade * BINS_PER_DECADE), (first, last), axis_w);
            let _ = write!(
                out,
                "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{bottom}\" y2=\"{}\" stroke=\"{AXIS_COLOUR}\"/>\
                 <text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                bottom + 5.0,
                bottom + 16.0,
                escape(&(plot.label)(decade))
            );
        }
    }
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\
         <text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">deals</text></svg>",
        LEFT + plot_w / 2.0,
        HEIGHT - 10.0,
        escape(plot.axis),
        TOP + plot_h / 2.0
    );
    out
}

/// One part of the shares' bar.
pub struct Part<'a> {
    pub label: &'a str,
    pub count: u64,
    pub colour: &'a str,
}

/// The parts as one bar 100% wide, each part's share written in it when
/// it is wide enough, and a legend below.
pub fn shares(parts: &[Part], id: &str, title: &str, desc: &str) -> String {
    const BAR_Y: f64 = 4.0;
    const BAR_H: f64 = 30.0;
    let (width, height) = (WIDTH, 70.0);
    let mut out = String::new();
    open(&mut out, id, title, desc, width, height);
    let total = parts.iter().map(|p| p.count).sum::<u64>().max(1) as f64;
    let mut x = 0.0;
    for part in parts.iter().filter(|p| p.count > 0) {
        let w = part.count as f64 / total * width;
        let share = part.count as f64 / total * 100.0;
        let _ = write!(
            out,
            "<rect x=\"{x:.2}\" y=\"{BAR_Y}\" width=\"{w:.2}\" height=\"{BAR_H}\" fill=\"{}\">\
             <title>{}: {} ({share:.2}%)</title></rect>",
            escape(part.colour),
            escape(part.label),
            deals(part.count)
        );
        if w >= 64.0 {
            let _ = write!(
                out,
                "<text x=\"{:.2}\" y=\"{}\" text-anchor=\"middle\" fill=\"#fff\" font-weight=\"bold\">{share:.1}%</text>",
                x + w / 2.0,
                BAR_Y + BAR_H / 2.0 + 4.0
            );
        }
        x += w;
    }
    for (i, part) in parts.iter().enumerate() {
        let lx = i as f64 * 200.0;
        let _ = write!(
            out,
            "<rect x=\"{lx}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\">{} ({})</text>",
            BAR_Y + BAR_H + 12.0,
            escape(part.colour),
            lx + 18.0,
            BAR_Y + BAR_H + 22.0,
            escape(part.label),
            part.count
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plot() -> Plot<'static> {
        Plot {
            id: "g0-seconds",
            title: "Time <per> deal",
            desc: "a & b",
            axis: "seconds per deal (log scale)",
            unit: " s",
            label: scale::seconds_label,
        }
    }

    fn count(text: &str, what: &str) -> usize {
        text.matches(what).count()
    }

    #[test]
    fn a_bar_per_filled_bin_and_a_tick_per_decade() {
        let mut h = LogHistogram::default();
        for v in [0.011, 0.012, 0.5, 3.0] {
            h.add(v);
        }
        let svg = histogram(&h, &plot());
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        assert_eq!(count(&svg, "<rect "), 3, "{svg}");
        assert!(svg.contains("<title>0.01–0.01585 s: 2 deals (50.00%)</title>"));
        // From 0.01 to 10: four decades' labels.
        for label in [">0.01<", ">0.1<", ">1<", ">10<"] {
            assert!(svg.contains(label), "{label}: {svg}");
        }
        assert!(svg.contains("aria-labelledby=\"g0-seconds-title g0-seconds-desc\""));
        assert!(svg.contains(">seconds per deal (log scale)<"));
        // Titles escaped.
        assert!(svg.contains("Time &lt;per&gt; deal") && svg.contains(">a &amp; b<"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    }

    #[test]
    fn zeros_get_their_own_bar_and_no_log_of_zero() {
        let mut h = LogHistogram::default();
        h.add(0.0);
        let svg = histogram(&h, &plot());
        assert_eq!(count(&svg, "<rect "), 1, "{svg}");
        assert!(
            svg.contains("<title>0 s: 1 deal (100.00%)</title>"),
            "{svg}"
        );
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        h.add(2.0);
        let svg = histogram(&h, &plot());
        assert_eq!(count(&svg, "<rect "), 2, "{svg}");
        assert!(
            svg.contains(">0</text>") && svg.contains(">10</text>"),
            "{svg}"
        );
    }

    #[test]
    fn an_empty_histogram_is_still_a_plot() {
        let svg = histogram(&LogHistogram::default(), &plot());
        assert_eq!(count(&svg, "<rect "), 0);
        assert!(svg.ends_with("</svg>") && !svg.contains("NaN"), "{svg}");
    }

    #[test]
    fn shares_fill_the_bar_and_name_each_part() {
        let parts = [
            Part {
                label: "SUCCES",
                count: 3,
                colour: "#000",
            },
            Part {
                label: "INSOLUBLE",
                count: 1,
                colour: "#111",
            },
            Part {
                label: "undecided",
                count: 0,
                colour: "#222",
            },
        ];
        let svg = shares(&parts, "s", "Verdicts", "3 of 4 won");
        assert!(svg.contains("width=\"480.00\""), "{svg}");
        assert!(
            svg.contains("<title>SUCCES: 3 deals (75.00%)</title>"),
            "{svg}"
        );
        assert!(
            svg.contains(">75.0%<") && svg.contains(">undecided (0)<"),
            "{svg}"
        );
        // No bar for an empty part, but a legend entry.
        assert_eq!(count(&svg, "<title>"), 2);
    }
}

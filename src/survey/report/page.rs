//! The report's HTML: an overview of every game, then a section per game
//! with its plots and lists, and a table beside each plot that says in
//! text what the plot draws.
//!
//! Seeds and games come from rows the reader validated, and rules from a
//! fixed list, but the page still escapes every text it did not write
//! itself ([`escape`]): file names are the user's, and a page is opened
//! in a browser, where an unescaped `<` would be markup.

use std::cmp::Reverse;
use std::fmt::Write;
use std::path::PathBuf;

use super::super::args::Under;
use super::super::summary::{percent, solvable_interval, wilson};
use super::scale::{self, LogHistogram};
use super::svg::{self, Part, Plot};
use super::text::{deals, escape};
use super::top::Top;
use super::{GameReport, SEEDS_SHOWN};
use crate::survey::row::Verdict;

/// The files named on the page before "and N more".
const FILES_SHOWN: usize = 20;

/// The verdicts' colours, told apart without colour vision too (blue,
/// orange, grey; each with white text at a contrast of 4.5:1 or more).
const SUCCES_COLOUR: &str = "#1f5fa8";
const INSOLUBLE_COLOUR: &str = "#b34716";
const UNDECIDED_COLOUR: &str = "#6b6b6b";

const STYLE: &str = include_str!("report.css");

/// What the page says about where its figures come from.
pub struct Sources<'a> {
    pub rules: Option<Under>,
    pub files: &'a [PathBuf],
    /// Rows for a deal already read: counted once.
    pub repeated: u64,
}

/// The whole page.
pub fn render(games: &[GameReport], sources: &Sources) -> String {
    let total: u64 = games.iter().map(GameReport::deals).sum();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Survey report: {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <h1>Survey report</h1>\n",
        escape(&deals(total))
    );
    out.push_str(&provenance(total, sources));
    if games.is_empty() {
        out.push_str("<p id=\"no-deal\">These files hold no deal: there is nothing to plot.</p>\n");
    } else {
        out.push_str(&overview(games));
    }
    for game in games {
        out.push_str(&section(game));
    }
    let _ = write!(
        out,
        "<footer><p>Written by xpat-solver {} (<code>survey --summary FILE... --html REPORT</code>) \
         from the rows alone, each deal once: the page needs no network.</p></footer>\n\
         </main>\n</body>\n</html>\n",
        escape(env!("CARGO_PKG_VERSION"))
    );
    out
}

/// The rules, and the files the rows came from.
fn provenance(total: u64, sources: &Sources) -> String {
    let mut out = String::new();
    if let Some(rules) = sources.rules {
        let _ = writeln!(
            out,
            "<p>Rules: <strong>{}</strong>: {}.</p>",
            escape(rules.name()),
            escape(rules.description())
        );
    }
    let names: Vec<String> = sources
        .files
        .iter()
        .take(FILES_SHOWN)
        .map(|f| format!("<code>{}</code>", escape(&f.to_string_lossy())))
        .collect();
    let more = match sources.files.len().saturating_sub(FILES_SHOWN) {
        0 => String::new(),
        m => format!(" and {m} more"),
    };
    let _ = write!(
        out,
        "<p>{} from {} file{}: {}{more}.",
        escape(&deals(total)),
        sources.files.len(),
        if sources.files.len() == 1 { "" } else { "s" },
        names.join(", ")
    );
    if sources.repeated > 0 {
        let _ = write!(
            out,
            " {} rows repeat a deal already read: each deal is counted once.",
            sources.repeated
        );
    }
    out.push_str("</p>\n");
    out
}

/// The solvable share of the deals decided, and the summary's interval
/// for it (the undecided counted lost at its low end, won at its high).
fn solvable(g: &GameReport) -> (String, String) {
    let share = match g.succes + g.insoluble {
        0 => "-".to_string(), // as the summary's table
        decided => percent(g.succes as f64 / decided as f64),
    };
    let (low, high) = solvable_interval(g.succes, g.insoluble, g.undecided);
    (share, format!("{}–{}", percent(low), percent(high)))
}

/// A table of every game, as the Markdown summary's first columns.
fn overview(games: &[GameReport]) -> String {
    let mut out = String::from(
        "<table id=\"overview\">\n<caption>Every game: the verdicts, and the solvable share of the deals decided \
         with its 95% interval</caption>\n<thead><tr><th scope=\"col\">game</th><th scope=\"col\">deals</th>\
         <th scope=\"col\">SUCCES</th><th scope=\"col\">INSOLUBLE</th><th scope=\"col\">undecided</th>\
         <th scope=\"col\">solvable</th><th scope=\"col\">95% interval</th></tr></thead>\n<tbody>\n",
    );
    for g in games {
        let (share, interval) = solvable(g);
        let name = escape(g.name());
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\"><a href=\"#game-{name}\">{name}</a></th><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{share}</td><td>{interval}</td></tr>",
            g.deals(),
            g.succes,
            g.insoluble,
            g.undecided
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// One game's section.
fn section(g: &GameReport) -> String {
    let name = escape(g.name());
    let mut out = format!(
        "<section id=\"game-{name}\" aria-labelledby=\"h-{name}\">\n<h2 id=\"h-{name}\">{name}: {}</h2>\n",
        escape(&deals(g.deals()))
    );
    out.push_str(&verdicts(g));
    let id = format!("{}-seconds", g.name());
    out.push_str(&distribution(
        &g.seconds,
        &Plot {
            id: &id,
            title: &format!("{}: time per deal", g.name()),
            desc: &describe(&g.seconds, " s"),
            axis: "seconds per deal (log scale)",
            unit: " s",
            label: scale::seconds_label,
        },
        "Time per deal",
    ));
    let id = format!("{}-expanded", g.name());
    out.push_str(&distribution(
        &g.expanded,
        &Plot {
            id: &id,
            title: &format!("{}: positions expanded per deal", g.name()),
            desc: &describe(&g.expanded, " positions"),
            axis: "positions expanded per deal (log scale)",
            unit: " positions",
            label: scale::count_label,
        },
        "Positions expanded per deal",
    ));
    out.push_str(&slowest(g));
    out.push_str(&seeds(g, "INSOLUBLE", g.insoluble, &g.insoluble_seeds));
    out.push_str(&seeds(g, "undecided", g.undecided, &g.undecided_seeds));
    out.push_str("</section>\n");
    out
}

/// The shares' bar and its table: each verdict's share of the deals with
/// its Wilson interval, then the solvable share.
fn verdicts(g: &GameReport) -> String {
    let n = g.deals();
    let rows = [
        ("SUCCES", g.succes, SUCCES_COLOUR),
        ("INSOLUBLE", g.insoluble, INSOLUBLE_COLOUR),
        ("undecided", g.undecided, UNDECIDED_COLOUR),
    ];
    let parts: Vec<Part> = rows
        .iter()
        .map(|&(label, count, colour)| Part {
            label,
            count,
            colour,
        })
        .collect();
    let desc = rows
        .iter()
        .map(|&(label, count, _)| format!("{label}: {count} of {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = format!(
        "<h3>Verdicts</h3>\n<figure>{}</figure>\n<table class=\"shares\">\n<caption>The verdicts of the {}, each share \
         with its 95% Wilson interval</caption>\n<thead><tr><th scope=\"col\">verdict</th><th scope=\"col\">deals</th>\
         <th scope=\"col\">share</th><th scope=\"col\">95% interval</th></tr></thead>\n<tbody>\n",
        svg::shares(
            &parts,
            &format!("{}-verdicts", g.name()),
            &format!("{}: verdicts", g.name()),
            &desc
        ),
        escape(&deals(n))
    );
    for (label, count, colour) in rows {
        let (low, high) = wilson(count, n);
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\"><span class=\"key\" style=\"background:{colour}\"></span>{label}</th>\
             <td>{count}</td><td>{}</td><td>{}–{}</td></tr>",
            percent(count as f64 / n.max(1) as f64),
            percent(low),
            percent(high)
        );
    }
    let (share, interval) = solvable(g);
    let _ = writeln!(
        out,
        "</tbody>\n</table>\n<p class=\"solvable\">Solvable share of the deals decided: <strong>{share}</strong>; \
         95% interval {interval}, its low end with the undecided deals counted lost, its high end with them counted won.</p>"
    );
    out
}

/// What a histogram shows, in words: its text alternative.
fn describe(h: &LogHistogram, unit: &str) -> String {
    let median = h
        .median()
        .map_or("none".into(), |b| svg::range_words(b, unit));
    let mut text = format!(
        "{}: the median in the bar {median}, the highest {}{unit}, the mean {}{unit}",
        deals(h.count()),
        scale::short(h.max()),
        scale::short(h.mean())
    );
    if h.zeros() > 0 {
        let _ = write!(
            text,
            "; {} at 0{unit} (the bar left of the axis)",
            deals(h.zeros())
        );
    }
    text + "."
}

/// A histogram in a figure, with its caption and its bars as a table.
fn distribution(h: &LogHistogram, plot: &Plot, heading: &str) -> String {
    let mut out = format!(
        "<h3>{}</h3>\n<figure>{}<figcaption>{}</figcaption></figure>\n\
         <details><summary>The histogram as a table</summary>\n<table class=\"bins\">\
         <thead><tr><th scope=\"col\">range</th><th scope=\"col\">deals</th></tr></thead>\n<tbody>\n",
        escape(heading),
        svg::histogram(h, plot),
        escape(plot.desc)
    );
    for (bucket, n) in h.buckets().into_iter().filter(|&(_, n)| n > 0) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{n}</td></tr>",
            escape(&svg::range_words(bucket, plot.unit))
        );
    }
    out.push_str("</tbody>\n</table>\n</details>\n");
    out
}

/// The slowest deals, the slowest first.
fn slowest(g: &GameReport) -> String {
    let kept = g.slowest.sorted();
    let mut out = format!(
        "<h3>The {} slowest deals</h3>\n<table class=\"slowest\">\n<thead><tr><th scope=\"col\">seed</th>\
         <th scope=\"col\">verdict</th><th scope=\"col\">seconds</th><th scope=\"col\">positions expanded</th>\
         </tr></thead>\n<tbody>\n",
        kept.len()
    );
    for slow in kept {
        let d = slow.0;
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{:.4}</td><td>{}</td></tr>",
            d.seed,
            verdict_word(d.verdict),
            d.seconds,
            d.expanded
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Echec => "undecided (ECHEC)",
        v => v.word(),
    }
}

/// A kind's seeds, the lowest first, at most [`SEEDS_SHOWN`].
fn seeds(g: &GameReport, kind: &str, count: u64, kept: &Top<Reverse<u32>>) -> String {
    let id = format!("{}-{kind}", g.name());
    let mut out = format!(
        "<h3 id=\"{}\">{} seeds ({count})</h3>\n",
        escape(&id),
        escape(kind)
    );
    if count == 0 {
        out.push_str("<p>None.</p>\n");
        return out;
    }
    let listed: Vec<String> = kept.sorted().iter().map(|s| s.0.to_string()).collect();
    let more = count.saturating_sub(listed.len() as u64);
    let _ = write!(out, "<p class=\"seeds\">{}", listed.join(" "));
    if more > 0 {
        let _ = write!(out, " <em>and {more} more</em>");
    }
    out.push_str("</p>\n");
    debug_assert!(listed.len() <= SEEDS_SHOWN);
    out
}

#[cfg(test)]
mod tests;

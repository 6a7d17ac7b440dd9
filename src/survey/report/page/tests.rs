use super::*;
use crate::survey::report::games;
use crate::survey::row::Row;
use crate::survey::summary::Results;

fn page_of(lines: &[&str], files: &[&str]) -> String {
    let mut results = Results::default();
    for line in lines {
        results.add(&Row::parse(line).unwrap());
    }
    let files: Vec<PathBuf> = files.iter().map(PathBuf::from).collect();
    render(
        &games(&results),
        &Sources {
            rules: results.rules,
            files: &files,
            repeated: results.repeated,
        },
    )
}

/// The text between `from` and the next `to`.
fn between<'a>(text: &'a str, from: &str, to: &str) -> &'a str {
    let start = text.find(from).unwrap_or_else(|| panic!("no {from}")) + from.len();
    let len = text[start..].find(to).unwrap();
    &text[start..start + len]
}

#[test]
fn file_names_are_escaped() {
    let page = page_of(
        &["FreeCell,1,SUCCES,40,10,10,0.5,"],
        &["<img src=x onerror=alert(1)>.csv", "a&b.csv"],
    );
    assert!(!page.contains("<img"), "{page}");
    assert!(page.contains("<code>&lt;img src=x onerror=alert(1)&gt;.csv</code>"));
    assert!(page.contains("<code>a&amp;b.csv</code>"));
    assert!(page.contains("1 deal from 2 files"));
}

#[test]
fn one_deal_makes_a_whole_page() {
    let page = page_of(&["FreeCell,1,SUCCES,40,10,10,0.5,"], &["a.csv"]);
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    assert_eq!(page.matches("<svg ").count(), 3, "{page}");
    assert!(page.contains("<h2 id=\"h-FreeCell\">FreeCell: 1 deal</h2>"));
    // The share and its Wilson interval, as the summary computes it.
    let (low, high) = wilson(1, 1);
    let line = format!(
        "<td>1</td><td>100.0000%</td><td>{}–{}</td>",
        percent(low),
        percent(high)
    );
    assert!(page.contains(&line), "{line}\n{page}");
    assert!(page.contains("Rules: <strong>forced</strong>"));
    assert_eq!(
        between(&page, "<table class=\"slowest\">", "</table>")
            .matches("<tr><td>")
            .count(),
        1
    );
    assert!(!page.contains("NaN") && !page.contains("inf"));
    // Nothing fetched: no script, no external reference.
    for outside in ["<script", "http:", "https:", "src=", "@import", "url("] {
        let hits: Vec<_> = page.match_indices(outside).collect();
        let only_svg_namespace = hits.iter().all(|(i, _)| {
            page[i.saturating_sub(7)..].starts_with("xmlns=\"http://www.w3.org/2000/svg")
        });
        assert!(hits.is_empty() || only_svg_namespace, "{outside}");
    }
}

#[test]
fn all_lost_and_zero_seconds() {
    let page = page_of(
        &[
            "BakersDozen,1,INSOLUBLE,,0,1,0.0,",
            "BakersDozen,2,INSOLUBLE,,3,3,0.0,",
        ],
        &["bd.csv"],
    );
    assert!(page.contains(
        "<h3 id=\"BakersDozen-INSOLUBLE\">INSOLUBLE seeds (2)</h3>\n<p class=\"seeds\">1 2</p>"
    ));
    assert!(
        page.contains("<h3 id=\"BakersDozen-undecided\">undecided seeds (0)</h3>\n<p>None.</p>")
    );
    // The solvable share of no deal won is 0, its interval from 0.
    assert!(
        page.contains("<strong>0.0000%</strong>; 95% interval 0.0000%–"),
        "{page}"
    );
    // Both deals at 0 seconds: one bar, at 0.
    assert!(
        page.contains("<title>0 s: 2 deals (100.00%)</title>"),
        "{page}"
    );
    assert!(page.contains("2 deals at 0 s (the bar left of the axis)"));
    assert!(!page.contains("NaN") && !page.contains("inf"));
}

#[test]
fn games_apart_and_long_lists_cut() {
    let mut lines: Vec<String> = (1..=SEEDS_SHOWN as u32 + 7)
        .map(|s| format!("Seahaven,{s},ECHEC,,5,5,10.0,time"))
        .collect();
    lines.push("FreeCell,1,SUCCES,40,10,10,0.5,".into());
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let page = page_of(&lines, &["x.csv"]);
    // FreeCell first, as in the summary's table.
    let fc = page.find("id=\"game-FreeCell\"").unwrap();
    let st = page.find("id=\"game-Seahaven\"").unwrap();
    assert!(fc < st);
    let listed = between(
        &page,
        "undecided seeds (507)</h3>\n<p class=\"seeds\">",
        "</p>",
    );
    assert!(listed.starts_with("1 2 3 "), "{listed}");
    assert!(listed.ends_with(" 500 <em>and 7 more</em>"), "{listed}");
    let table = between(&page[st..], "<table class=\"slowest\">", "</table>");
    assert_eq!(table.matches("<tr><td>").count(), 20);
    // Equal times: the lowest seeds.
    assert!(
        table.contains("<tr><td>1</td><td>undecided (ECHEC)</td><td>10.0000</td><td>5</td></tr>")
    );
}

#[test]
fn no_deal_says_so() {
    let page = page_of(&[], &["empty.csv"]);
    assert!(page.contains("<p id=\"no-deal\">"));
    assert!(!page.contains("<svg"));
    assert!(page.contains("<title>Survey report: 0 deals</title>"));
}

//! `--html PAGE` through the real binary: a page for a valid solution
//! only, written whole, said on a line before the verdict; nothing at all
//! after `ECHEC` or `INSOLUBLE`.

mod common;

use std::path::Path;

use common::{TempDir, arg, opened_with, run, solutions_dir, words_on_the_page};

/// The lines of stdout before the verdict that name the page.
fn says_page(stdout: &str, page: &str) -> bool {
    let lines: Vec<&str> = stdout.lines().collect();
    let said = lines
        .iter()
        .position(|l| l.starts_with("web page written to ") && l.contains(page));
    said.is_some_and(|i| i + 2 == lines.len())
}

/// What every page is: one HTML file with its script and data inside,
/// nothing fetched from anywhere.
fn assert_self_contained(html: &str, title: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..80]);
    assert!(
        html.contains(&format!("<title>{title}")),
        "no title {title}"
    );
    assert!(html.contains("id=\"foundation-count\""));
    for outside in ["http://", "https://", "<link", " src="] {
        assert!(!html.contains(outside), "the page refers to '{outside}'");
    }
}

#[test]
fn check_writes_the_page_of_a_valid_solution() {
    let dir = TempDir::new("page-check");
    let page = dir.join("fc1.html");
    let solution = solutions_dir().join("found/FreeCell.1.sol");
    let r = run(["fc.1", "-check", arg(&solution), "--html", arg(&page)]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    assert!(says_page(&r.stdout, "fc1.html"), "{}", r.stdout);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_self_contained(&html, "FreeCell 1");
    // The page's moves are the file's: a move in words per line.
    let moves = std::fs::read_to_string(&solution).unwrap().lines().count();
    assert_eq!(words_on_the_page(&html), moves);
}

#[test]
fn search_writes_the_page_of_the_solution_it_found() {
    let dir = TempDir::new("page-search");
    let (sol, page) = (dir.join("bd5.sol"), dir.join("bd5.html"));
    let r = run(["bd.5", "-search", arg(&sol), "-html", arg(&page)]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    assert!(says_page(&r.stdout, "bd5.html"), "{}", r.stdout);
    assert_self_contained(&std::fs::read_to_string(&page).unwrap(), "BakersDozen 5");
    // Nothing but the two files asked for is left in the directory.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn no_page_without_a_solution() {
    let dir = TempDir::new("page-none");
    let page = dir.join("p.html");
    let page_arg = page.to_str().unwrap();
    let sol = dir.join("x.sol");
    let sol_arg = sol.to_str().unwrap();
    // A limit stops the search: ECHEC.
    let r = run([
        "bd.562",
        "-search",
        sol_arg,
        "--html",
        page_arg,
        "--max-states",
        "1000",
    ]);
    assert_eq!(r.verdict(), ("ECHEC", 1), "{r:?}");
    // Midnight Oil 1 has no solution: INSOLUBLE.
    let r = run(["mo.1", "-search", sol_arg, "--html", page_arg]);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(!page.exists() && !sol.exists());
    // A file that does not win: ECHEC k, and an old page is left alone.
    std::fs::write(&page, "old").unwrap();
    std::fs::write(&sol, "33 T\n").unwrap();
    let r = run(["fc.123", "-check", sol_arg, "--html", page_arg]);
    assert_eq!(r.verdict(), ("ECHEC 2", 1), "{r:?}");
    assert!(!r.stdout.contains("web page"), "{}", r.stdout);
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "old");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn a_page_that_cannot_be_written_is_refused_before_the_search() {
    let dir = TempDir::new("page-dir");
    let sol = dir.join("x.sol");
    let missing = dir.join("no/such/dir/p.html");
    for page in [missing.as_path(), dir.path()] {
        let r = run(["fc.1", "-search", arg(&sol), "--html", arg(page)]);
        assert_eq!(r.code, 3, "{r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
        assert!(r.stdout.is_empty(), "{r:?}");
        assert!(!sol.exists());
    }
}

/// The moves of a page in words, in order.
fn words(html: &str) -> Vec<String> {
    let start = html.find("\"words\":[").expect("the moves in words") + 8;
    let end = start
        + html[start..]
            .find("],\"stopped\"")
            .expect("the end of the words");
    let list = &html[start..=end];
    list.trim_matches(|c| c == '[' || c == ']')
        .split("\",\"")
        .map(|w| w.trim_matches('"').to_string())
        .collect()
}

/// Every fragment given opens its position, all 52 cards drawn, no error.
fn opens_cleanly(page: &Path, positions: &[usize]) {
    let fragments: Vec<String> = positions.iter().map(|k| format!("#{k}")).collect();
    for ((shown, cards, error), k) in opened_with(page, &fragments).into_iter().zip(positions) {
        assert_eq!(
            (shown, cards, error.as_str()),
            (k.to_string(), 52, "-"),
            "#{k}"
        );
    }
}

/// Midnight Oil under xpat2's complete rules: the search's solution gets
/// its page, which says each of its redeals and turns, and opens at each of
/// them without a script error; `-check` of the same file writes the same
/// page.
#[test]
fn a_midnight_oil_page_of_the_complete_rules_shows_its_redeals_and_turns() {
    let dir = TempDir::new("page-mo-xpat2");
    let (sol, page) = (dir.join("mo2.sol"), dir.join("mo2.html"));
    let r = run([
        "mo.2",
        "-search",
        arg(&sol),
        "--rules",
        "xpat2",
        "--html",
        arg(&page),
    ]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    assert!(says_page(&r.stdout, "mo2.html"), "{}", r.stdout);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_self_contained(&html, "MidnightOil 2");
    let lines: Vec<String> = std::fs::read_to_string(&sol)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let said = words(&html);
    assert_eq!(said.len(), lines.len());
    let mut redeals = Vec::new();
    for (i, (line, words)) in lines.iter().zip(&said).enumerate() {
        if line == "R" {
            redeals.push((i + 1).to_string());
            let nth = ["1st", "2nd"][redeals.len() - 1];
            assert_eq!(
                *words,
                format!("the columns dealt again ({nth} redeal of 2)")
            );
        }
        if line.ends_with(" U") {
            assert!(words.ends_with(" turned up to its column's top"), "{words}");
        }
        if line.ends_with(" D") {
            assert!(words.contains(" turned down beneath "), "{words}");
        }
    }
    let table = format!(
        "\"redeals\":2,\"turns\":1,\"redealAt\":[{}]",
        redeals.join(",")
    );
    assert!(html.contains(&table), "{table}");
    let changed = (0..lines.len()).filter(|&i| lines[i] == "R" || lines[i].ends_with(['U', 'D']));
    let mut positions = vec![0, lines.len()];
    positions.extend(changed.flat_map(|i| [i, i + 1]));
    opens_cleanly(&page, &positions);
    let again = dir.join("again.html");
    let r = run([
        "mo.2",
        "-check",
        arg(&sol),
        "--rules",
        "xpat2",
        "--html",
        arg(&again),
    ]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    assert_eq!(std::fs::read_to_string(&again).unwrap(), html);
}

/// A solution the search found once, kept: a card turned down, then two
/// redeals, each said on its page.
#[test]
fn a_midnight_oil_page_says_a_turn_down_and_both_redeals() {
    let dir = TempDir::new("page-mo3-xpat2");
    let page = dir.join("mo3.html");
    let html = checked_page("mo.3", "mo3-xpat2.sol", &page);
    let said = words(&html);
    // Lines 20 (42 D: J♥, under 9♥ then), 21 and 25 (R).
    assert_eq!(said[19], "9♥ turned down beneath J♥");
    assert_eq!(said[20], "the columns dealt again (1st redeal of 2)");
    assert_eq!(said[24], "the columns dealt again (2nd redeal of 2)");
    assert!(html.contains("\"redealAt\":[21,25],\"turnAt\":[20]"));
    opens_cleanly(&page, &[19, 20, 21, 24, 25, said.len()]);
}

/// The page `-check --rules xpat2 --html page` writes of the fixture
/// `name` of `game`, which it must win.
fn checked_page(game: &str, name: &str, page: &Path) -> String {
    let file = fixture(name);
    let r = run([
        game,
        "-check",
        arg(&file),
        "--rules",
        "xpat2",
        "--html",
        arg(page),
    ]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    std::fs::read_to_string(page).unwrap()
}

/// A file of `tests/fixtures/pages/`.
fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pages")
        .join(name)
}

/// FreeCell under the complete rules, a hand-made file with three cards
/// back from the foundation (to a free cell, onto a card, to an empty
/// column), each going up again: `-check` wins it and its page says each.
#[test]
fn a_freecell_page_shows_cards_back_from_the_foundation() {
    let dir = TempDir::new("page-fc-back");
    let page = dir.join("fc1.html");
    let html = checked_page("fc.1", "fc1-xpat2-back.sol", &page);
    assert_self_contained(&html, "FreeCell 1");
    let said = words(&html);
    let back: Vec<(usize, &str)> = said
        .iter()
        .enumerate()
        .filter(|(_, w)| w.contains(" back from the foundation "))
        .map(|(i, w)| (i + 1, w.as_str()))
        .collect();
    assert_eq!(
        back,
        [
            (7, "A♥ back from the foundation to a free cell"),
            (11, "A♠ back from the foundation onto 2♦"),
            (16, "2♥ back from the foundation to an empty column"),
        ]
    );
    assert!(html.contains("\"table\":null"));
    opens_cleanly(&page, &[6, 7, 8, 11, 16, said.len()]);
    // Under the course's rules the same file stops at the first card back.
    let file = fixture("fc1-xpat2-back.sol");
    let r = run(["fc.1", "-check", arg(&file), "--rules", "free"]);
    assert_eq!(r.verdict(), ("ECHEC 7", 1), "{r:?}");
}

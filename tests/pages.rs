//! `--html PAGE` through the real binary: a page for a valid solution
//! only, written whole, said on a line before the verdict; nothing at all
//! after `ECHEC` or `INSOLUBLE`.

mod common;

use common::{TempDir, arg, run, solutions_dir, words_on_the_page};

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

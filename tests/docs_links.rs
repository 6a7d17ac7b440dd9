//! Every relative link of README.md and docs/*.md leads somewhere: the
//! file exists, and a `#anchor` names a heading of the page it points to
//! (as GitHub spells anchors). The README is a front page that sends its
//! readers to docs/; a page moved or a heading renamed must not leave a
//! dead link behind.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The pages checked: the README and every Markdown page of docs/.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of `text` outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (None, None) => out.push(line),
            _ => {}
        }
    }
    out
}

/// The line with its inline code spans (`...`) and HTML comments blanked:
/// a link written there is an example, not a link.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        }
        out.push(' ');
    }
    match (out.find("<!--"), out.find("-->")) {
        (Some(a), Some(b)) if a < b => out.replace_range(a..b + 3, ""),
        _ => {}
    }
    out
}

/// The targets of the inline links and images of a line: `[text](target)`.
fn targets(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        found.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    found
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces as `-`, every other character dropped; a repeated anchor
/// gets `-1`, `-2`, ...
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashSet<String> = HashSet::new();
    for line in prose(text) {
        let Some(heading) = line
            .trim_start_matches('#')
            .strip_prefix(' ')
            .filter(|_| line.starts_with('#'))
        else {
            continue;
        };
        let slug: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut unique = slug.clone();
        let mut n = 0;
        while seen.contains(&unique) {
            n += 1;
            unique = format!("{slug}-{n}");
        }
        seen.insert(unique);
    }
    seen
}

/// Every dead link of `page`, said in a line.
fn dead_links(page: &Path) -> Vec<String> {
    let text = fs::read_to_string(page).unwrap();
    let dir = page.parent().unwrap();
    let mut dead = Vec::new();
    for line in prose(&text) {
        for target in targets(&without_code(line)) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.to_path_buf()
            } else {
                dir.join(path)
            };
            if !file.exists() {
                dead.push(format!("{}: {target}: no such file", page.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if file.extension().is_some_and(|e| e == "md")
                && !anchors(&fs::read_to_string(&file).unwrap()).contains(anchor)
            {
                dead.push(format!("{}: {target}: no such heading", page.display()));
            }
        }
    }
    dead
}

#[test]
fn every_relative_link_of_the_readme_and_docs_resolves() {
    let pages = pages();
    assert!(pages.len() > 5, "the docs pages are found: {pages:?}");
    let dead: Vec<String> = pages.iter().flat_map(|page| dead_links(page)).collect();
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
}

#[test]
fn the_readme_stays_a_front_page() {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines: move the detail to docs/"
    );
}

#[test]
fn the_checker_sees_a_dead_file_and_a_dead_anchor() {
    let dir = std::env::temp_dir().join(format!("docs-links-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.md");
    fs::write(
        &page,
        "# A page\n## Two words\n[ok](#two-words) [ok](page.md#a-page) `[code](gone.md)`\n\
         ```\n[fenced](gone.md)\n```\n[bad](gone.md) [bad](#three-words) [bad](page.md#nope)\n",
    )
    .unwrap();
    let dead = dead_links(&page);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(dead.len(), 3, "{dead:?}");
    assert!(dead[0].ends_with("gone.md: no such file"), "{dead:?}");
    assert!(
        dead[1].ends_with("#three-words: no such heading"),
        "{dead:?}"
    );
    assert!(
        dead[2].ends_with("page.md#nope: no such heading"),
        "{dead:?}"
    );
}

#[test]
fn anchors_are_spelt_as_github_spells_them() {
    let a = anchors("## Shorter solutions (`--fast`, `--optimal`)\n### Measured\n### Measured\n");
    for anchor in [
        "shorter-solutions---fast---optimal",
        "measured",
        "measured-1",
    ] {
        assert!(a.contains(anchor), "{anchor}: {a:?}");
    }
    let a = anchors("## xpat2's complete rules (`--rules xpat2`)\n");
    assert!(a.contains("xpat2s-complete-rules---rules-xpat2"), "{a:?}");
}

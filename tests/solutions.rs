//! Replays every solution file under `solutions/` with the real binary and
//! holds it to its row in `solutions/EXPECTED.tsv`: game, file, last line,
//! exit code, and optionally words the line before the verdict must contain.
//! A `.sol` file without a row, or a row without its file, fails the test.
//! Files under `xpat2/` are of xpat2's complete rules (SPEC §10) and are
//! replayed with `--rules xpat2`.
//! Files under `free/` are in the free form (SPEC §9) and are replayed with
//! `--foundation free`; every other file with the default, forced rules.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{run, solutions_dir};

struct Row {
    game: String,
    file: String,
    last: String,
    code: i32,
    reason: Option<String>,
}

fn manifest() -> Vec<Row> {
    let path = solutions_dir().join("EXPECTED.tsv");
    let text = std::fs::read_to_string(&path).expect("solutions/EXPECTED.tsv");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(
                f.len() == 4 || f.len() == 5,
                "EXPECTED.tsv line {}: want 4 or 5 tab-separated fields: {l:?}",
                i + 1
            );
            Row {
                game: f[0].to_string(),
                file: f[1].to_string(),
                last: f[2].to_string(),
                code: f[3]
                    .parse()
                    .unwrap_or_else(|_| panic!("EXPECTED.tsv line {}: exit code", i + 1)),
                reason: f.get(4).map(|s| s.to_string()),
            }
        })
        .collect()
}

/// Every `.sol` file under `dir`, as a path relative to `solutions/`.
fn sol_files(dir: &Path, prefix: &str, into: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let relative = format!("{prefix}{name}");
        if entry.file_type().unwrap().is_dir() {
            sol_files(&entry.path(), &format!("{relative}/"), into);
        } else if name.ends_with(".sol") {
            into.insert(relative);
        }
    }
}

#[test]
fn every_solution_file_has_exactly_one_manifest_row_and_every_row_a_file() {
    let rows = manifest();
    let mut listed = BTreeSet::new();
    for row in &rows {
        assert!(
            listed.insert(row.file.clone()),
            "{} has two rows in EXPECTED.tsv",
            row.file
        );
    }
    let mut present = BTreeSet::new();
    sol_files(&solutions_dir(), "", &mut present);
    let unlisted: Vec<_> = present.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "solution files without a row in solutions/EXPECTED.tsv: {unlisted:?}"
    );
    let missing: Vec<_> = listed.difference(&present).collect();
    assert!(
        missing.is_empty(),
        "rows of solutions/EXPECTED.tsv without a file: {missing:?}"
    );
}

#[test]
fn every_solution_file_gets_its_expected_verdict() {
    let rows = manifest();
    assert!(rows.len() >= 50, "the manifest lost rows: {}", rows.len());
    let mut failures = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let path = solutions_dir().join(&row.file);
        // Alternate the one- and two-dash forms: both must work.
        let flag = if i % 2 == 0 { "-check" } else { "--check" };
        let mut args = vec![row.game.as_str(), flag, path.to_str().unwrap()];
        if row.file.starts_with("free/") {
            args.extend(["--foundation", "free"]);
        }
        if row.file.starts_with("xpat2/") {
            args.extend(["--rules", "xpat2"]);
        }
        let r = run(args);
        let mut wrong = Vec::new();
        if r.verdict() != (row.last.as_str(), row.code) {
            wrong.push(format!(
                "got '{}' exit {}, want '{}' exit {}",
                r.last_line(),
                r.code,
                row.last,
                row.code
            ));
        }
        if let Some(reason) = &row.reason
            && !r.reason().contains(reason.as_str())
        {
            wrong.push(format!("reason {:?} lacks {reason:?}", r.reason()));
        }
        if !r.stderr.is_empty() {
            wrong.push(format!("stderr: {}", r.stderr.trim()));
        }
        if !wrong.is_empty() {
            failures.push(format!("{} {}: {}", row.game, row.file, wrong.join("; ")));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The hand-made illegal cases cover every class of SPEC §5–6 in every
/// game where the class exists; a renamed or lost file shows here.
#[test]
fn the_illegal_cases_cover_every_class() {
    let rows = manifest();
    let classes = [
        "fc123-card-buried",
        "fc123-card-on-foundation",
        "fc123-target-buried",
        "fc123-target-in-register",
        "fc123-target-on-foundation",
        "fc123-wrong-rank",
        "fc123-wrong-colour",
        "st1-wrong-suit",
        "mo1-wrong-suit",
        "bd1-wrong-rank",
        "fc123-v-no-empty-column",
        "st2-v-not-a-king",
        "mo1-v-forbidden",
        "bd2-v-forbidden",
        "fc123-t-registers-full",
        "st1-t-registers-full",
        "mo1-t-no-registers",
        "bd1-t-no-registers",
        "fc123-t-register-to-register",
        "st1-t-register-to-register",
        "fc123-malformed-blank-line",
        "fc123-malformed-two-spaces",
        "fc123-malformed-tab",
        "fc123-malformed-letters",
        "fc123-malformed-card-52",
        "fc123-malformed-plus-sign",
        "fc123-malformed-minus-sign",
    ];
    for class in classes {
        let file = format!("illegal/{class}.sol");
        let row = rows
            .iter()
            .find(|r| r.file == file)
            .unwrap_or_else(|| panic!("no row for {file}"));
        assert_eq!(row.code, 1, "{file}");
        assert!(row.last.starts_with("ECHEC "), "{file}");
        assert!(row.reason.is_some(), "{file}: say why in the manifest");
    }
    for accepted in [
        "format/fc123-crlf.sol",
        "format/fc123-no-final-newline.sol",
        "format/fc123-leading-zeros.sol",
    ] {
        let row = rows.iter().find(|r| r.file == accepted).unwrap();
        assert_eq!((row.last.as_str(), row.code), ("SUCCES", 0), "{accepted}");
    }
}

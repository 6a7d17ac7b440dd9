//! Random command lines through the real binary: whatever they are, it
//! ends with an exit code of the protocol (0 to 3, as SPEC §7 gives them),
//! never an abort (134) nor a panic, and a usage error is one line.
//!
//! The words are drawn from what the command line knows (every option,
//! with one dash and two, values at and past every bound) and from
//! arbitrary text. The deals are ones every mode decides in milliseconds,
//! so that each run is short; files are those of a scratch directory,
//! which is also where the binary runs (no real device is ever named: a
//! broken build could replace it).
//! `cargo test` runs 200 command lines (a few seconds); a longer pass:
//! `PROPTEST_CASES=5000 cargo test --test hostile arguments`.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use proptest::prelude::*;

use crate::common::{TempDir, run_in, scratch_device, solutions_dir};

/// The cases `cargo test` runs, unless `PROPTEST_CASES` says otherwise.
const CASES: u32 = 200;

/// What the command line knows: deals good and bad, every option with one
/// dash and two, values at and past every bound.
const KNOWN: &str = "fc.1 st.2 mo.3 bd.1 FreeCell.000000123 fc.0 fc.1000000000 xx.1 \
    fc.1.2 fc. .1 -check --check -search --search --check= --search= -max-states \
    --max-states 0 1 -1 10 18446744073709551616 --timeout -timeout 0.001 1e308 1e20 \
    inf NaN -0 --diff -diff 52 53 --xpat2 -xpat2 --xpat2-at start end middle -- - \
    -h --help -V --version -x --nope . ..";

/// A word of a command line: known words mostly, arbitrary text at times.
fn word(files: Vec<String>) -> impl Strategy<Value = OsString> {
    let mut known: Vec<&'static str> = KNOWN.split_whitespace().collect();
    known.extend(["", " "]);
    prop_oneof![
        6 => proptest::sample::select(known).prop_map(OsString::from),
        3 => proptest::sample::select(files).prop_map(OsString::from),
        1 => "\\PC{0,12}".prop_map(|text| relative(text.into_bytes())),
        1 => proptest::collection::vec(any::<u8>(), 0..8).prop_map(relative),
    ]
}

/// Arbitrary bytes as a word that, taken for a file, names one in the
/// scratch directory: no NUL (no argument holds one), no leading `/`.
fn relative(mut bytes: Vec<u8>) -> OsString {
    bytes.retain(|&b| b != 0);
    if bytes.first() == Some(&b'/') {
        bytes.insert(0, b'_');
    }
    OsString::from_vec(bytes)
}

#[test]
fn random_command_lines_end_in_a_protocol_exit_code() {
    let dir = TempDir::new("arguments");
    let work = dir.join("work");
    std::fs::create_dir(&work).unwrap();
    // A copy: a random `-search FILE` may write over the file it names,
    // and the fixture is another test's (it was, once a search of another
    // deal wrote there).
    let good = dir.join("fc123.sol");
    std::fs::copy(
        solutions_dir().join("format/fc123-no-final-newline.sol"),
        &good,
    )
    .unwrap();
    let files: Vec<String> = [
        good.to_str().unwrap().to_string(),
        dir.join("out.sol").to_str().unwrap().to_string(),
        dir.join("save").to_str().unwrap().to_string(),
        dir.path().to_str().unwrap().to_string(),
        dir.join("no/such/dir/x.sol").to_str().unwrap().to_string(),
        scratch_device(dir.path()).to_str().unwrap().to_string(),
    ]
    .into();
    let config = ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let words = proptest::collection::vec(word(files), 0..7);
    proptest!(config, |(words in words)| {
        // `run_in` fails the case on a signal (134 is SIGABRT) or a panic;
        // what the binary writes under a relative name stays in `work`.
        let r = run_in(&work, &words);
        prop_assert!((0..=3).contains(&r.code), "{words:?}: {r:?}");
        if r.code == 3 {
            prop_assert_eq!(r.stderr.lines().count(), 1, "{:?}: {:?}", words, r);
        }
    });
}

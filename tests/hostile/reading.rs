//! Item 3: `-check` read the whole file, then parsed every line before
//! checking the first: `/dev/zero` grew past 4 GB, a gigabyte of NULs
//! peaked at 7.3 GB and printed a 2 GB reason, 30 MB of newlines took
//! 2.6 GB. Now each run below has its address space limited to a few
//! megabytes above what the program needs to start, and must still give
//! its verdict with a short reason. The other files the program reads, a
//! player's xpat2 save and a survey's CSV, read `/dev/zero` until memory
//! ran out; they too are refused in a few megabytes now.

use std::fs::{self, File};
use std::io::{BufWriter, Write};

use xpat_solver::deal::Deal;
use xpat_solver::state::{Move, State};

use crate::arg;
use crate::common::{Run, TempDir, least_memory_to_start, run_limited};

/// Room above what the binary needs to start: far less than any of the
/// files, so a run that held one of them whole would fail.
const HEADROOM_KB: u64 = 4 * 1024;

#[test]
fn endless_and_huge_files_get_a_verdict_in_a_few_megabytes() {
    let limit = least_memory_to_start() + HEADROOM_KB;
    let dir = TempDir::new("huge");
    // A gigabyte of NULs, sparse: it costs the disk nothing.
    let nuls = dir.join("nuls");
    File::create(&nuls).unwrap().set_len(1 << 30).unwrap();
    let newlines = dir.join("newlines");
    fs::write(&newlines, vec![b'\n'; 30 << 20]).unwrap();
    let cases = [
        ("/dev/zero", "line longer than 256 bytes, starting '\\0\\0"),
        (arg(&nuls), "line longer than 256 bytes, starting '\\0\\0"),
        (arg(&newlines), "move 1 (malformed): blank line"),
    ];
    for (file, says) in cases {
        let r = run_limited(limit, ["fc.1", "-check", file]);
        assert_eq!(r.verdict(), ("ECHEC 1", 1), "{file}: {r:?}");
        assert!(r.reason().contains(says), "{file}: {r:?}");
        assert!(r.stdout.len() < 1024, "{file}: {} bytes", r.stdout.len());
        assert_eq!(r.stderr, "", "{file}");
    }
}

/// Two moves that bring FreeCell 123 back to its deal: a file can repeat
/// them for ever, every line legal.
pub(crate) fn a_legal_round_trip(deal: &Deal) -> [Move; 2] {
    let root = State::new(deal);
    let mut firsts = Vec::new();
    root.for_each_move(|mv| firsts.push(mv));
    for first in firsts {
        let mut after = root.clone();
        after.apply(first);
        let mut back = None;
        after.for_each_move(|mv| {
            let mut again = after.clone();
            again.apply(mv);
            if again.key() == root.key() {
                back = Some(mv);
            }
        });
        if let Some(back) = back {
            return [first, back];
        }
    }
    panic!("no move of FreeCell 123 can be undone at once");
}

/// A file of legal moves is replayed to its end, and may be as long as
/// the disk: memory stays bounded, and only `--xpat2` keeps the moves.
#[test]
fn a_long_file_of_legal_moves_is_replayed_in_bounded_memory() {
    let deal = Deal::new("fc.123".parse().unwrap());
    let [there, back] = a_legal_round_trip(&deal);
    let dir = TempDir::new("round-trips");
    let file = dir.join("round-trips.sol");
    let trips = 1_000_000;
    let mut out = BufWriter::new(File::create(&file).unwrap());
    for _ in 0..trips {
        writeln!(out, "{there}\n{back}").unwrap();
    }
    out.into_inner().unwrap().sync_all().unwrap();
    let limit = least_memory_to_start() + HEADROOM_KB;
    let r = run_limited(limit, ["fc.123", "-check", arg(&file)]);
    let moves = 2 * trips;
    assert_eq!(
        r.verdict(),
        (format!("ECHEC {}", moves + 1).as_str(), 1),
        "{r:?}"
    );
    assert!(
        r.reason().starts_with(&format!("after {moves} moves: ")),
        "{r:?}"
    );
}

/// Exit 3 and one line on stderr that says `says`.
fn assert_refused(r: &Run, what: &str, says: &str) {
    assert_eq!(r.code, 3, "{what}: {r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{what}: {r:?}");
    assert!(r.stderr.contains(says), "{what} should say '{says}': {r:?}");
}

/// `--from-xpat2` read the whole file and `survey --summary` and
/// `--resume` the whole CSV: `/dev/zero` ran until memory ran out. Now a
/// save is read no further than its header announces, a survey file a
/// line at a time, and both are refused at once.
#[test]
fn endless_and_huge_saves_and_survey_files_are_refused_in_a_few_megabytes() {
    let limit = least_memory_to_start() + HEADROOM_KB;
    let dir = TempDir::new("huge-inputs");
    let nuls = dir.join("nuls");
    File::create(&nuls).unwrap().set_len(1 << 30).unwrap();
    // A true save's header, announcing 2^31 - 1 moves.
    let mut save = fs::read("tests/fixtures/xpat2/fc123-sequence-move.xpat2").unwrap();
    save[32 + 4 * 9..32 + 4 * 10].copy_from_slice(&i32::MAX.to_be_bytes());
    let boasting = dir.join("boasting.xpat2");
    fs::write(&boasting, &save).unwrap();
    for (file, says) in [
        ("/dev/zero", "no xpat2 magic number"),
        (arg(&nuls), "no xpat2 magic number"),
        (arg(&boasting), "announces 2147483647 moves"),
    ] {
        let r = run_limited(limit, ["--from-xpat2", file, "-check", "/dev/null"]);
        assert_refused(&r, file, says);
    }
    for file in ["/dev/zero", arg(&nuls)] {
        let r = run_limited(limit, ["survey", "--summary", file]);
        assert_refused(&r, file, "is not a survey file");
    }
    let r = run_limited(
        limit,
        ["survey", "fc", "1-2", "--out", arg(&nuls), "--resume"],
    );
    assert_refused(&r, "--resume", "is not a survey file");
    assert_eq!(fs::metadata(&nuls).unwrap().len(), 1 << 30, "file changed");
}

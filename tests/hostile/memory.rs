//! Item 4: an allocation that failed (`ulimit -v`, a machine without the
//! memory) aborted the process (exit 134) and lost the search. Now the
//! search's tables grow fallibly and a failure is `ECHEC`, "out of
//! memory", with nothing written.

use crate::common::{TempDir, least_memory_to_start, run_limited};
use crate::{arg, assert_empty};

/// Baker's Dozen 1797 needs millions of positions: a few megabytes above
/// what the program needs to start run out within its first rounds, on
/// one thread or on several (or on none started: the caller's alone).
/// Without the nested rollouts, which hold next to no memory and can win
/// it there (the next test).
#[test]
fn running_out_of_memory_is_echec_never_an_abort() {
    let start = least_memory_to_start();
    let dir = TempDir::new("oom");
    let out = dir.join("bd1797.sol");
    for (headroom_mb, jobs) in [(2, "1"), (5, "1"), (2, "2"), (5, "2"), (15, "2")] {
        let r = run_limited(
            start + headroom_mb * 1024,
            [
                "bd.1797",
                "-search",
                arg(&out),
                "--xpat2",
                arg(dir.path()),
                "--jobs",
                jobs,
                "--no-rollouts",
            ],
        );
        assert_eq!(
            r.verdict(),
            ("ECHEC", 1),
            "{headroom_mb} MB, --jobs {jobs}: {r:?}"
        );
        assert!(
            r.reason()
                .ends_with("gave up, out of memory; nothing written"),
            "{r:?}"
        );
        assert_empty(dir.path());
    }
}

/// Two threads where the address space holds a thread's stack but not
/// the signal stack the standard library maps as the thread starts: it
/// panicked there, outside any closure of ours, and the process aborted
/// (exit 134 at 1 876 kB over what showing a deal takes) or hung (at
/// 1 884 kB). Every 8 kB from 1.5 to 2.5 MB (the signal stack and its
/// guard take 12 kB, so none is stepped over): `ECHEC` out of memory each
/// time (`memory::spawn_scoped_with` starts no thread without room for both).
#[test]
fn a_thread_without_room_for_its_signal_stack_is_not_started() {
    let start = least_memory_to_start();
    let dir = TempDir::new("oom-threads");
    let out = dir.join("bd1797.sol");
    for headroom_kb in (1536..=2560).step_by(8) {
        let r = run_limited(
            start + headroom_kb,
            [
                "bd.1797",
                "-search",
                arg(&out),
                "--jobs",
                "2",
                "--no-rollouts",
            ],
        );
        assert_eq!(r.verdict(), ("ECHEC", 1), "{headroom_kb} kB: {r:?}");
        assert_empty(dir.path());
    }
}

/// With the nested rollouts, the same tight memory: the search may win
/// (the rollouts before the threads hold next to nothing, and the
/// solution's shortening stops where its memory runs out instead of
/// aborting), or give up out of memory, but never abort, and a file
/// written is whole and replays.
#[test]
fn a_win_with_little_memory_left_is_written_whole() {
    let start = least_memory_to_start();
    let dir = TempDir::new("oom-won");
    let out = dir.join("bd1797.sol");
    for (headroom_mb, jobs) in [(2, "1"), (2, "2"), (5, "2"), (15, "2")] {
        let r = run_limited(
            start + headroom_mb * 1024,
            ["bd.1797", "-search", arg(&out), "--jobs", jobs],
        );
        match r.verdict() {
            ("SUCCES", 0) => {
                let check = crate::common::run(["bd.1797", "-check", arg(&out)]);
                assert_eq!(check.verdict(), ("SUCCES", 0), "{check:?}");
                std::fs::remove_file(&out).unwrap();
            }
            ("ECHEC", 1) => assert!(r.reason().contains("out of memory"), "{r:?}"),
            _ => panic!("{headroom_mb} MB, --jobs {jobs}: {r:?}"),
        }
        assert_empty(dir.path());
    }
}

/// The search over components, whose smaller tables (names of lost
/// components, a component's listing, threads) grew infallibly, under
/// the same tight memory and more: `ECHEC` out of memory or a win, never
/// an abort, on one thread or two, forced rules or free.
///
/// Where a headroom runs out depends on the machine's memory layout: a
/// table that has just doubled may hold the rest of the 30 s (bd.1649
/// with 10 MB to spare did on one machine, out of memory at 3 s on
/// another). So a case may also reach its time limit, but each deal must
/// run out of memory in one of its cases at least.
#[test]
fn components_run_out_of_memory_without_an_abort() {
    let start = least_memory_to_start();
    let dir = TempDir::new("oom-components");
    let out = dir.join("x.sol");
    // Each deal, and whether one of its cases ran out of memory.
    let mut ran_out = std::collections::BTreeMap::<&str, bool>::new();
    for (headroom_mb, jobs, deal, rules) in [
        (2, "1", "bd.1797", "forced"),
        (2, "2", "bd.1797", "forced"),
        (7, "1", "bd.1649", "forced"),
        (8, "1", "bd.1649", "forced"),
        (10, "1", "bd.1649", "forced"),
        (12, "2", "bd.7927", "forced"),
        (8, "2", "bd.7927", "free"),
    ] {
        let r = run_limited(
            start + headroom_mb * 1024,
            [
                deal,
                "-search",
                arg(&out),
                "--components",
                "--foundation",
                rules,
                "--jobs",
                jobs,
                "--timeout",
                "30",
                // The search over components is what runs out here: the
                // suitless game before it has its own case below, and the
                // rollouts, which hold next to no memory, would only take
                // half the time (all of it on a loaded machine) first.
                "--no-suitless",
                "--no-rollouts",
            ],
        );
        let case = format!("{deal} {rules}, {headroom_mb} MB, --jobs {jobs}");
        let out_of_memory = r.verdict() == ("ECHEC", 1) && r.reason().contains("out of memory");
        match r.verdict() {
            ("SUCCES", 0) => {
                let check = crate::common::run([deal, "-check", arg(&out), "--foundation", rules]);
                assert_eq!(check.verdict(), ("SUCCES", 0), "{case}: {check:?}");
                std::fs::remove_file(&out).unwrap();
            }
            ("ECHEC", 1) if out_of_memory => {}
            ("ECHEC", 1) => assert!(r.reason().contains("time limit"), "{case}: {r:?}"),
            _ => panic!("{case}: {r:?}"),
        }
        *ran_out.entry(deal).or_default() |= out_of_memory;
        assert_empty(dir.path());
    }
    for (deal, ran_out) in ran_out {
        assert!(ran_out, "{deal} never ran out of memory");
    }
}

/// The suitless game refused memory (`try_reserve`) stops, and the search
/// goes on: bd.78829, which it proves lost in some 600 000 positions
/// (about 10 MB), with 4 MB to spare ends `INSOLUBLE` or `ECHEC`, never
/// killed. Without the rollouts and within 10 s, to leave the other
/// cases of this file, which run beside it, their time.
#[test]
fn the_suitless_game_short_of_memory_never_aborts() {
    let start = least_memory_to_start();
    let dir = TempDir::new("oom-suitless");
    let out = dir.join("x.sol");
    let r = run_limited(
        start + 4 * 1024,
        [
            "bd.78829",
            "-search",
            arg(&out),
            "--jobs",
            "1",
            "--no-rollouts",
            "--timeout",
            "10",
        ],
    );
    let verdict = r.verdict();
    assert!(
        verdict == ("INSOLUBLE", 2) || verdict == ("ECHEC", 1),
        "{r:?}"
    );
    assert_empty(dir.path());
}

/// A survey whose deals run out of memory goes on to the next deal and
/// ends with every row, instead of aborting and losing the rest; the small
/// deals are searched as usual. One worker, so that no deal runs beside
/// one running out.
#[test]
fn a_survey_out_of_memory_writes_every_row() {
    let start = least_memory_to_start();
    let dir = TempDir::new("oom-survey");
    let csv = dir.join("rows.csv");
    let r = run_limited(
        start + 20 * 1024,
        [
            "survey",
            "bd",
            "1797,2,7927,3",
            "--jobs",
            "1",
            "--components",
            "--timeout",
            "4",
            "--out",
            arg(&csv),
        ],
    );
    assert!(r.code == 0 || r.code == 1, "{r:?}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    let mut verdicts: Vec<String> = rows
        .iter()
        .map(|row| {
            let fields: Vec<&str> = row.split(',').collect();
            format!("{} {} {}", fields[1], fields[2], fields[7])
        })
        .collect();
    verdicts.sort();
    assert_eq!(
        verdicts,
        [
            "1797 ECHEC memory",
            "2 SUCCES ",
            "3 SUCCES ",
            "7927 ECHEC memory"
        ],
        "{text}"
    );
}

/// `--spill` under tight memory: its cache of keys appended lately was
/// one infallible block of 24 MB, and the process aborted; the cache now
/// takes what the memory holds, and the layers stop out of memory, their
/// files kept for the same command to resume.
#[test]
fn spilling_runs_out_of_memory_and_keeps_its_files() {
    let start = least_memory_to_start();
    let dir = TempDir::new("oom-spill");
    let out = dir.join("x.sol");
    let spill = dir.join("spill");
    for headroom_mb in [6, 15] {
        let r = run_limited(
            start + headroom_mb * 1024,
            [
                "bd.1797",
                "-search",
                arg(&out),
                "--spill",
                arg(&spill),
                "--max-states",
                "20000",
                "--timeout",
                "20",
            ],
        );
        assert_eq!(r.verdict(), ("ECHEC", 1), "{headroom_mb} MB: {r:?}");
        assert!(r.reason().contains("(out of memory)"), "{r:?}");
        assert!(r.reason().contains("the same command resumes"), "{r:?}");
        assert!(spill.join("xpat-spill-manifest").exists(), "{r:?}");
        assert!(!out.exists());
        std::fs::remove_dir_all(&spill).unwrap();
    }
}

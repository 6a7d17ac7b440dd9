//! The layered search against the usual one: the same verdicts on deals
//! small enough for both, solutions that replay, and a search stopped at
//! its disk limit that resumes to the same verdict.

use std::path::Path;

use super::{Spill, Spilled, Usual, phase, search};
use crate::check::{Verdict, replay_moves};
use crate::deal::{Deal, test_deal};
use crate::foundation::Foundation;
use crate::rules::{GameId, Rules, find};
use crate::search::{Length, Limits, Outcome};

/// Positions the usual search may store to decide a deal of the tests,
/// and a pass over a layer may hold.
const SMALL: u64 = 200_000;
/// The disk the layers of a deal of the tests may take: about 100 000
/// records, so that a deal whose space is large is left out quickly.
const SMALL_DISK: u64 = 4_000_000;

fn limits(max_states: u64) -> Limits {
    Limits {
        max_states,
        length: Length::AsFound,
        jobs: 1,
        ..Limits::default()
    }
}

fn spill(dir: &Path, max_bytes: u64) -> Spill {
    Spill {
        dir: dir.to_path_buf(),
        max_bytes,
    }
}

/// The deal searched in layers from the start, every layer up to `SMALL`
/// positions, in `dir`.
fn in_layers(deal: &Deal, dir: &Path, max_bytes: u64) -> Spilled {
    in_passes(deal, dir, max_bytes, SMALL)
}

/// [`in_layers`], each pass over a layer's cells up to `max_states`.
fn in_passes(deal: &Deal, dir: &Path, max_bytes: u64, max_states: u64) -> Spilled {
    let rules = deal.foundation.name();
    let limits = limits(max_states);
    let manifest = super::read_manifest(dir).unwrap();
    let spill = spill(dir, max_bytes);
    phase(
        deal,
        rules,
        &limits,
        None,
        &spill,
        manifest,
        Usual::Skipped,
        &mut |_| {},
    )
    .unwrap()
}

/// FreeCell with `cells` free cells: with none or one, many deals'
/// spaces are small enough to search whole in layers.
fn freecell_with(cells: usize) -> &'static Rules {
    let rules = find("fc").unwrap();
    Box::leak(Box::new(Rules {
        registers: cells,
        ..*rules
    }))
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

/// Every deal the usual search decides within `SMALL` positions gets the
/// same verdict from the layers (where no layer is larger), a solution
/// that replays as won, and leaves no file behind. Both verdicts are met
/// in each game. Chosen from the first twelve of each, which took 26 s:
/// the Seahaven deals the layers decide (a won one takes them 0.1 to
/// 2 s; st.2, 5, 6 and 8 to 11 outgrow their limits), FreeCell's first
/// won with one cell (fc.9) and the lost ones before it.
#[test]
fn the_layers_decide_as_the_usual_search_does() {
    let cases: Vec<(Deal, &str)> = [
        ("mo", Foundation::Forced, (1..=12).collect::<Vec<u32>>()),
        ("mo", Foundation::Free, (1..=8).collect()),
        ("st", Foundation::Forced, vec![1, 3, 4, 12]),
    ]
    .into_iter()
    .flat_map(|(game, foundation, seeds)| {
        seeds
            .into_iter()
            .map(move |seed| (test_deal(game, seed).with_foundation(foundation), game))
    })
    // Baker's Dozen's spaces are far larger: only deals lost from the
    // start are small enough.
    .chain([218, 870, 3118].map(|seed| (test_deal("bd", seed), "bd")))
    .chain([0, 1].into_iter().flat_map(|cells| {
        [1, 2, 3, 4, 5, 6, 7, 9].map(move |seed| {
            let rules = freecell_with(cells);
            (Deal::new(GameId { rules, seed }), "fc")
        })
    }))
    .collect();
    let mut seen = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    for (deal, game) in cases {
        let usual = crate::search::search(&deal, &limits(SMALL), None).outcome;
        if !matches!(usual, Outcome::Solved(_) | Outcome::Insoluble) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let layered = in_layers(&deal, dir.path(), SMALL_DISK);
        if layered.stopped.is_some() {
            continue;
        }
        let layered = layered.report.outcome;
        let name = format!("{} {}", deal.id, deal.foundation);
        let counts = seen.entry(game).or_default();
        match (&usual, &layered) {
            (Outcome::Insoluble, Outcome::Insoluble) => counts.1 += 1,
            (Outcome::Solved(_), Outcome::Solved(moves)) => {
                counts.0 += 1;
                assert!(
                    matches!(replay_moves(&deal, moves), Verdict::Won { .. }),
                    "{name}"
                );
            }
            _ => panic!("{name}: usual {usual:?}, layered {layered:?}"),
        }
        assert_eq!(files_in(dir.path()), 0, "{name}");
    }
    for game in ["mo", "st", "fc"] {
        let (won, lost) = seen.get(game).copied().unwrap_or_default();
        assert!(won > 0 && lost > 0, "{game}: {won} won, {lost} lost");
    }
    assert_eq!(seen.get("bd"), Some(&(0, 3)));
}

/// A search stopped by its disk limit leaves its manifest and files; the
/// same search with room resumes from them (cutting what was appended
/// after the manifest) and reaches the verdict of a search never stopped.
#[test]
fn a_search_stopped_at_its_disk_limit_resumes_to_the_same_verdict() {
    for (game, seed) in [("st", 35), ("mo", 4), ("st", 2)] {
        let deal = test_deal(game, seed);
        let whole = tempfile::tempdir().unwrap();
        let once = in_layers(&deal, whole.path(), u64::MAX).report.outcome;
        let dir = tempfile::tempdir().unwrap();
        let stopped = in_layers(&deal, dir.path(), 2_000);
        assert!(
            stopped.stopped.unwrap().contains("--spill-max"),
            "{game}.{seed}"
        );
        assert!(dir.path().join(super::MANIFEST).exists());
        let resumed = in_layers(&deal, dir.path(), u64::MAX).report.outcome;
        assert_eq!(
            std::mem::discriminant(&resumed),
            std::mem::discriminant(&once),
            "{game}.{seed}"
        );
        if let Outcome::Solved(moves) = &resumed {
            assert!(matches!(replay_moves(&deal, moves), Verdict::Won { .. }));
        }
        assert_eq!(files_in(dir.path()), 0, "{game}.{seed}");
    }
}

/// With the usual search first: a deal it decides never touches the
/// directory; one it gives up on goes on in layers.
#[test]
fn the_layers_start_only_where_the_usual_search_gives_up() {
    let deal = test_deal("st", 35);
    let dir = tempfile::tempdir().unwrap();
    let spill = spill(dir.path(), u64::MAX);
    let mut layers_told = 0;
    let easy = search(&deal, &limits(SMALL), &spill, None, &mut |_| {
        layers_told += 1
    })
    .unwrap();
    assert_eq!(easy.report.outcome, Outcome::Insoluble);
    assert_eq!(layers_told, 0);
    let forced = search(&deal, &limits(2_000), &spill, None, &mut |_| {
        layers_told += 1
    })
    .unwrap();
    assert_eq!(forced.report.outcome, Outcome::Insoluble);
    assert!(layers_told > 0);
    assert!(forced.report.stats.stored > easy.report.stats.stored);
    assert_eq!(files_in(dir.path()), 0);
}

/// Layers split into many passes (their files into part files by the
/// hash of the cells, passes that outgrow the limit undone and split
/// again) reach the verdict of one pass a layer, and a solution found in
/// them is rebuilt through the cells and replays. Four of the five
/// deals of st.1 to 12 and st.35 that took part when all thirteen were
/// searched here (29 s): the test's own limits leave out st.2, 5, 6 and
/// 8 to 12.
#[test]
fn layers_searched_in_many_passes_decide_as_in_one() {
    let (mut solved, mut lost) = (0, 0);
    for seed in [1, 3, 4, 35] {
        let deal = test_deal("st", seed);
        let one = tempfile::tempdir().unwrap();
        let whole = in_layers(&deal, one.path(), SMALL_DISK);
        if whole.stopped.is_some() || whole.report.stats.peak_stored <= 300 {
            continue;
        }
        // Half the largest layer: at least one layer is split.
        let max = whole.report.stats.peak_stored / 2;
        let many = tempfile::tempdir().unwrap();
        let split = in_passes(&deal, many.path(), u64::MAX, max);
        if split
            .stopped
            .as_ref()
            .is_some_and(|why| why.starts_with("a cell"))
        {
            // One cell larger than half the largest layer.
            continue;
        }
        assert_eq!(split.stopped, None, "st.{seed}");
        assert!(split.report.stats.peak_stored <= max, "st.{seed}");
        match (&whole.report.outcome, &split.report.outcome) {
            (Outcome::Insoluble, Outcome::Insoluble) => lost += 1,
            (Outcome::Solved(_), Outcome::Solved(moves)) => {
                solved += 1;
                assert!(matches!(replay_moves(&deal, moves), Verdict::Won { .. }));
            }
            (a, b) => panic!("st.{seed}: {a:?} in one pass, {b:?} in many"),
        }
        assert_eq!(files_in(many.path()), 0, "st.{seed}");
    }
    assert!(solved > 0 && lost > 0, "{solved} won, {lost} lost");
}

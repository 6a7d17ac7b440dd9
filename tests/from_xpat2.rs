//! `--from-xpat2 SAVE` through the real binary, on saves the real xpat2
//! wrote mid-game after mouse clicks (`tests/fixtures/xpat2/`): a win from
//! the player's position, its moves replayed from there with `-check`, the
//! continued save and the page; no win from here; saves that cannot be
//! followed.

mod common;

use std::path::{Path, PathBuf};

use common::{Run, TempDir, arg, opened_with, run, words_on_the_page};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/xpat2")
        .join(name)
}

/// The save's header integer `i` and its move words, as XPAT2-SAVE.md
/// lays them out.
struct Header {
    ints: Vec<i32>,
    words: Vec<u32>,
}

fn header(bytes: &[u8]) -> Header {
    let int = |at: usize| i32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    let ints: Vec<i32> = (0..32).map(|i| int(32 + 4 * i)).collect();
    let words = (0..ints[9] as usize)
        .map(|i| int(160 + 4 * i) as u32)
        .collect();
    Header { ints, words }
}

/// A save as xpat2 lays it out: rule name, header, words.
fn encode(xpat2_name: &str, seed: i32, words: &[u32], played: usize) -> Vec<u8> {
    let mut bytes = xpat2_name.as_bytes().to_vec();
    bytes.resize(32, 0);
    let mut a = [-1i32; 32];
    (a[8], a[9], a[10]) = (seed, words.len() as i32, played as i32);
    for i in [11, 12, 13, 14, 16, 17] {
        a[i] = 0;
    }
    a[15] = 0x741a;
    for v in a {
        bytes.extend_from_slice(&v.to_be_bytes());
    }
    for w in words {
        bytes.extend_from_slice(&w.to_be_bytes());
    }
    bytes
}

/// `xpat-solver --from-xpat2 SAVE MODE FILE MORE...`.
fn from_save(save: &Path, mode: &str, file: &Path, more: &[&str]) -> Run {
    let mut args = vec!["--from-xpat2", arg(save), mode, arg(file)];
    args.extend(more);
    run(args)
}

/// Exit 3, one line on stderr saying `says`, nothing on stdout.
fn assert_refused(r: &Run, says: &str) {
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(r.stderr.contains(says), "should say '{says}': {}", r.stderr);
    assert!(r.stdout.is_empty(), "{r:?}");
}

/// Each real save: SUCCES from the player's position; the moves written
/// replay from there (and are not a solution of the deal alone); the
/// continued save keeps the player's words and opens at their position.
#[test]
fn a_win_from_the_players_position_and_its_save() {
    let cases = [
        ("fc123-sequence-move.xpat2", "FreeCell.123"),
        ("fc123-one-move-undone.xpat2", "FreeCell.123"),
        ("st5-clicks.xpat2", "Seahaven.5"),
        ("bd7-clicks.xpat2", "BakersDozen.7"),
    ];
    for (name, game) in cases {
        let dir = TempDir::new("from-xpat2");
        let (sol, save) = (dir.join("rest.sol"), dir.join("won.save"));
        let player = std::fs::read(fixture(name)).unwrap();
        let theirs = header(&player);
        let r = from_save(&fixture(name), "-search", &sol, &["--xpat2", arg(&save)]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{name}: {r:?}");
        assert!(
            r.stdout
                .starts_with(&format!("{game}: the player's position"))
        );
        let rest = std::fs::read_to_string(&sol).unwrap().lines().count();

        let r = from_save(&fixture(name), "-check", &sol, &[]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{name}: {r:?}");
        assert!(
            r.stdout
                .contains(&format!("won in {rest} moves from the player's position"))
        );
        let r = run([game, "-check", arg(&sol)]);
        assert_eq!(r.code, 1, "{name}: only the rest of the game: {r:?}");

        let ours = header(&std::fs::read(&save).unwrap());
        let played = theirs.ints[10] as usize;
        assert_eq!(ours.ints[8], theirs.ints[8], "{name}: the seed");
        assert_eq!(
            ours.ints[10] as usize, played,
            "{name}: opens where they were"
        );
        assert_eq!(ours.ints[12], 0, "{name}: not finished yet");
        assert_eq!(ours.words[..played], theirs.words[..played], "{name}");
        // The rest: a word per move, and a word per card the player had
        // not sent up (a word's destination pile is bits 9..16; the
        // foundations are piles 0..4).
        let up = theirs.words[..played]
            .iter()
            .filter(|&&w| (w >> 9) & 0x7f < 4)
            .count();
        assert_eq!(ours.words.len(), played + rest + 52 - up, "{name}");
    }
}

/// The continued save can open on the won game instead, and the page
/// holds the whole game and opens at the player's position with `#k`.
#[test]
fn the_won_game_and_the_page_of_the_whole_game() {
    let dir = TempDir::new("from-xpat2-end");
    let sol = dir.join("r.sol");
    let fixture = fixture("fc123-sequence-move.xpat2");
    // -search writes the moves, -check writes the same save and page
    // from them.
    let mut written = Vec::new();
    for (mode, name) in [("-search", "found"), ("-check", "checked")] {
        let (save, page) = (dir.join(name), dir.join(&format!("{name}.html")));
        let more = ["--xpat2", arg(&save), "--xpat2-at", "end"];
        let r = from_save(
            &fixture,
            mode,
            &sol,
            &[&more[..], &["--html", arg(&page)]].concat(),
        );
        assert_eq!(r.verdict(), ("SUCCES", 0), "{mode}: {r:?}");
        // The player's 8 words are 10 single-card moves of the solver's
        // (the loader's tests list them): the page opens there with #10.
        let link = format!("{name}.html#10 in a browser");
        assert!(r.stdout.contains(&link), "{}", r.stdout);
        written.push((
            std::fs::read(&save).unwrap(),
            std::fs::read_to_string(&page).unwrap(),
        ));
    }
    assert_eq!(written[0], written[1]);
    let (save, html) = &written[0];
    let end = header(save);
    assert_eq!((end.ints[10], end.ints[12]), (end.ints[9], 1), "opens won");
    let rest = std::fs::read_to_string(&sol).unwrap().lines().count();
    assert!(html.contains("<title>FreeCell 123"));
    assert_eq!(words_on_the_page(html), 10 + rest);
}

/// Seahaven 3 with 3♠ put in a free cell: lost (the solver's own search
/// finds it, among the first moves of the deal that lose it). Nothing is
/// written.
#[test]
fn no_win_from_here() {
    let dir = TempDir::new("from-xpat2-lost");
    let save = dir.join("lost.save");
    std::fs::write(&save, encode("Seahaven", 3, &[0x1a32_1e31], 1)).unwrap();
    let (sol, out, page) = (dir.join("r.sol"), dir.join("o.save"), dir.join("p.html"));
    let more = ["--xpat2", arg(&out), "--html", arg(&page)];
    let r = from_save(&save, "-search", &sol, &more);
    assert_eq!(r.verdict(), ("INSOLUBLE", 2), "{r:?}");
    assert!(r.reason().contains("no win from here"), "{r:?}");
    assert!(!sol.exists() && !out.exists() && !page.exists());
    // The deal itself is won by the search: the loss is the player's move.
    let r = run(["st.3", "-search", arg(&sol)]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
}

#[test]
fn saves_that_cannot_be_followed_are_refused_in_one_line() {
    let dir = TempDir::new("from-xpat2-bad");
    let sol = dir.join("r.sol");
    let real = std::fs::read(fixture("fc123-sequence-move.xpat2")).unwrap();
    let corrupt = dir.join("corrupt.save");
    std::fs::write(&corrupt, &real[..100]).unwrap();
    let r = from_save(&corrupt, "-search", &sol, &[]);
    assert_refused(&r, "shorter than the 160-byte header");
    // Word 2, A♦ to the ♦ foundation (pile 3), sent to the ♥ one instead.
    let mut words = header(&real).words;
    words[1] = (words[1] & !(0x7f << 9)) | 2 << 9;
    let unfollowable = dir.join("unfollowable.save");
    std::fs::write(&unfollowable, encode("Free Cell", 123, &words, 8)).unwrap();
    let r = from_save(&unfollowable, "-search", &sol, &[]);
    assert_refused(
        &r,
        "move 2 of the save (A♦ from column 3 to the foundation)",
    );
    let r = from_save(&dir.join("none"), "-check", &sol, &[]);
    assert_refused(&r, "cannot read xpat2 save");
    assert!(!sol.exists());
}

#[test]
fn the_players_own_save_is_not_replaced() {
    let dir = TempDir::new("from-xpat2-own");
    let save = dir.join("FreeCell.000000123");
    let bytes = std::fs::read(fixture("fc123-cell-to-cell.xpat2")).unwrap();
    std::fs::write(&save, &bytes).unwrap();
    let sol = dir.join("r.sol");
    let r = from_save(&save, "-search", &sol, &["--xpat2", arg(dir.path())]);
    assert_refused(&r, "the file being read");
    assert_eq!(std::fs::read(&save).unwrap(), bytes);
}

/// Whether a move word is a turn of a column (`ROTATE_UP` or
/// `ROTATE_DOWN`, docs/xpat2-complete-rules.md).
fn is_turn(word: u32) -> bool {
    matches!(word & !0x7fff, 0xfff3_8000 | 0xfff4_8000)
}

/// The real saves holding xpat2's complete rules' moves (issue 26): the
/// moves made, as the doc of the fixtures reads them.
const COMPLETE: [(&str, &str, usize); 7] = [
    ("mo1-redeal.xpat2", "MidnightOil.1", 37),
    ("mo1-two-redeals.xpat2", "MidnightOil.1", 74),
    ("mo1-up-redeals.xpat2", "MidnightOil.1", 73),
    ("mo1-turn-up.xpat2", "MidnightOil.1", 1),
    ("mo2-turn-down.xpat2", "MidnightOil.2", 1),
    ("mo1-turn-up-redeal.xpat2", "MidnightOil.1", 38),
    ("fc123-foundation-back.xpat2", "FreeCell.123", 5),
];

/// Each save with redeals, turns or cards back from the foundation,
/// under `--rules xpat2`: won from the player's position, the moves
/// written replay from there; the continued save keeps the player's
/// words, writes header integer 13 as 0 (or xpat2 would abort on it) and
/// the turns its replayed words make in integer 16, and, read back, is
/// the won game.
#[test]
fn saves_with_redeals_turns_and_returns_are_continued_under_complete_rules() {
    for (name, game, words) in COMPLETE {
        let dir = TempDir::new("from-xpat2-complete");
        let (sol, save) = (dir.join("rest.sol"), dir.join("won.save"));
        let theirs = header(&std::fs::read(fixture(name)).unwrap());
        assert_eq!(theirs.words.len(), words, "{name}");
        let more = [
            "--rules",
            "xpat2",
            "--xpat2",
            arg(&save),
            "--xpat2-at",
            "end",
        ];
        let r = from_save(&fixture(name), "-search", &sol, &more);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{name}: {r:?}");
        let intro = format!("{game}: the player's position in");
        assert!(r.stdout.starts_with(&intro), "{name}: {}", r.stdout);
        assert!(r.stdout.contains(&format!("after their {words} moves")) || words == 1);

        let r = from_save(&fixture(name), "-check", &sol, &["--rules", "xpat2"]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{name}: {r:?}");
        assert!(r.stdout.contains("from the player's position"), "{r:?}");

        let ours = header(&std::fs::read(&save).unwrap());
        assert_eq!(ours.words[..words], theirs.words[..], "{name}");
        assert_eq!(ours.ints[13], 0, "{name}: redeals written 0");
        let turns = ours.words.iter().filter(|&&w| is_turn(w)).count();
        assert_eq!(ours.ints[16] as usize, turns, "{name}");
        assert_eq!((ours.ints[10], ours.ints[12]), (ours.ints[9], 1), "{name}");
        let empty = dir.join("empty.sol");
        std::fs::write(&empty, "").unwrap();
        let r = from_save(&save, "-check", &empty, &["--rules", "xpat2"]);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{name}: {r:?}");
        assert!(r.stdout.contains("won in 0 moves"), "{name}: {r:?}");
    }
}

/// Under forced rules (and free ones) such a save stops at its first
/// redeal, turn or card back, in one line that names the move and says
/// which option follows it.
#[test]
fn saves_with_complete_rules_moves_are_refused_under_other_rules() {
    let dir = TempDir::new("from-xpat2-refused");
    let sol = dir.join("r.sol");
    let cases = [
        ("mo1-redeal.xpat2", "move 1 of the save (a redeal)"),
        ("mo1-up-redeals.xpat2", "move 2 of the save (a redeal)"),
        (
            "mo2-turn-down.xpat2",
            "move 1 of the save (a turn of a column)",
        ),
        (
            "fc123-foundation-back.xpat2",
            "move 3 of the save (A♦ from the ♦ foundation to free cell 2)",
        ),
    ];
    for (name, says) in cases {
        for rules in [&[][..], &["--foundation", "free"][..]] {
            let r = from_save(&fixture(name), "-search", &sol, rules);
            assert_refused(&r, says);
            assert!(r.stderr.contains("--rules xpat2"), "{name}: {}", r.stderr);
        }
    }
    // The page shows them: the player's moves (a redeal, a card back),
    // then the solution, every position with its 52 cards and no script
    // error, the last one the won game.
    for name in ["mo1-redeal.xpat2", "fc123-foundation-back.xpat2"] {
        let page = dir.join("p.html");
        let more = ["--rules", "xpat2", "--html", arg(&page)];
        let r = from_save(&fixture(name), "-search", &sol, &more);
        assert_eq!(r.verdict(), ("SUCCES", 0), "{name}: {r:?}");
        let moves = std::fs::read_to_string(&sol).unwrap().lines().count();
        let played = r
            .stdout
            .split(".html#")
            .nth(1)
            .and_then(|t| t.split(' ').next().and_then(|k| k.parse::<usize>().ok()));
        let played = played.expect("the page opens at the player's position");
        let fragments = ["".to_string(), format!("#{played}"), "#end".to_string()];
        let shown = opened_with(&page, &fragments);
        for (fragment, (_, cards, error)) in fragments.iter().zip(&shown) {
            assert_eq!((*cards, error.as_str()), (52, "-"), "{name} {fragment}");
        }
        assert_eq!(shown[1].0, played.to_string(), "{name}");
        assert_eq!(shown[2].0, (played + moves).to_string(), "{name}");
    }
}

/// Under free rules a player's save without such moves is followed
/// exactly: every foundation move of the solution is written, and it
/// replays from the player's position under the same rules.
#[test]
fn a_players_save_is_followed_under_free_rules() {
    let dir = TempDir::new("from-xpat2-free-rules");
    let sol = dir.join("rest.sol");
    let save = fixture("fc123-sequence-move.xpat2");
    let r = from_save(&save, "-search", &sol, &["--foundation", "free"]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    let text = std::fs::read_to_string(&sol).unwrap();
    // The rest writes a foundation move for every card the player did not
    // send up (a word's destination pile is bits 9..16, the foundations
    // piles 0..4).
    let theirs = header(&std::fs::read(&save).unwrap());
    let up = theirs
        .words
        .iter()
        .filter(|&&w| (w >> 9) & 0x7f < 4)
        .count();
    assert!(up > 0);
    assert_eq!(text.lines().filter(|l| l.ends_with(" F")).count(), 52 - up);
    let r = from_save(&save, "-check", &sol, &["--foundation", "free"]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    let r = from_save(&save, "-check", &sol, &[]);
    assert_eq!(r.code, 1, "a free file is not a forced one: {r:?}");
}

/// A game with both redeals and the turn, and a FreeCell game with a card
/// back from the foundation, exported with `--xpat2` and read back with
/// `--from-xpat2`: at the start the player's position is the deal and the
/// file wins from it; at the end the save is the won game.
#[test]
fn solutions_with_redeals_turns_and_returns_round_trip_through_saves() {
    let dir = TempDir::new("xpat2-complete-round-trip");
    let mo = dir.join("mo.sol");
    let r = run(["mo.3", "--rules", "xpat2", "-search", arg(&mo)]);
    assert_eq!(r.verdict(), ("SUCCES", 0), "{r:?}");
    let text = std::fs::read_to_string(&mo).unwrap();
    assert_eq!(text.lines().filter(|l| *l == "R").count(), 2, "{text}");
    let returns =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xpat2/fc123-returns.sol");
    let empty = dir.join("empty.sol");
    std::fs::write(&empty, "").unwrap();
    for (game, sol) in [("mo.3", mo.as_path()), ("fc.123", returns.as_path())] {
        for at in ["start", "end"] {
            let save = dir.join(&format!("{game}.{at}"));
            let more = ["--rules", "xpat2", "--xpat2", arg(&save), "--xpat2-at", at];
            let r = run([&[game, "-check", arg(sol)][..], &more[..]].concat());
            assert_eq!(r.verdict(), ("SUCCES", 0), "{game} {at}: {r:?}");
            let h = header(&std::fs::read(&save).unwrap());
            assert_eq!(h.ints[13], 0, "{game} {at}");
            let (file, intro) = match at {
                "start" => (sol, "after their 0 moves"),
                _ => (empty.as_path(), "won in 0 moves"),
            };
            let r = from_save(&save, "-check", file, &["--rules", "xpat2"]);
            assert_eq!(r.verdict(), ("SUCCES", 0), "{game} {at}: {r:?}");
            assert!(r.stdout.contains(intro), "{game} {at}: {}", r.stdout);
        }
    }
}

//! The page as text: self-contained, within its size budget, and carrying
//! a replay that reaches the won game from the position the text display
//! shows. (What a browser makes of it is `scripts/html-check`'s part.)

use super::replay::{Collected, Step, collect};
use super::*;
use crate::cards::Card;
use crate::rules::GameId;
use crate::state::{Dest, FOUNDATION, State};

fn solution(name: &str) -> (Deal, Vec<Move>) {
    let path = format!("{}/solutions/found/{name}.sol", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let moves = crate::solution::parse(&text)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let id: GameId = name.parse().unwrap();
    (Deal::new(id), moves)
}

/// The page's data for `moves`.
fn data(deal: &Deal, moves: &[Move]) -> String {
    let mut out = Vec::new();
    write_data(&mut out, deal, "t", moves.iter().copied()).unwrap();
    String::from_utf8(out).unwrap()
}

/// Applies a replay's steps as the page's script does, checking each.
fn play_steps(replay: &Collected) -> Vec<Vec<Card>> {
    let mut piles = replay.start.clone();
    for (i, steps) in replay.moves.iter().enumerate() {
        for &Step { card, from, to } in steps {
            assert_eq!(piles[from].pop(), Some(card), "move {}", i + 1);
            piles[to].push(card);
        }
    }
    piles
}

#[test]
fn a_replay_of_each_game_starts_where_the_text_display_does_and_ends_won() {
    for name in [
        "FreeCell.1",
        "Seahaven.1",
        "MidnightOil.4",
        "BakersDozen.562",
    ] {
        let (deal, moves) = solution(name);
        let replay = collect(&deal, &moves);
        assert_eq!(replay.stopped, None, "{name}");
        assert_eq!(
            (replay.moves.len(), replay.words.len()),
            (moves.len(), moves.len())
        );
        // The text display: each dealt column less what went up at once.
        let state = State::new(&deal);
        for (i, dealt) in deal.columns.iter().enumerate() {
            let shown: Vec<Card> = dealt
                .iter()
                .copied()
                .filter(|&c| state.below(c) != FOUNDATION)
                .collect();
            assert_eq!(replay.start[4 + i], shown, "{name} column {}", i + 1);
        }
        let heights: Vec<usize> = replay.start[..4].iter().map(Vec::len).collect();
        assert_eq!(heights, state.foundation().map(usize::from), "{name}");
        let end = play_steps(&replay);
        assert!(end[..4].iter().all(|f| f.len() == 13), "{name} ends won");
        assert!(end[4..].iter().all(Vec::is_empty), "{name}");
    }
}

#[test]
fn the_page_is_self_contained_and_carries_its_contract() {
    let (deal, moves) = solution("FreeCell.1");
    let html = page(&deal, &moves);
    for placeholder in ["{{", "/*STYLE*/", "/*SCRIPT*/"] {
        assert!(
            !html.contains(placeholder),
            "{placeholder} left in the page"
        );
    }
    for external in ["http:", "https:", " src=", "<link", "@import", "url("] {
        assert!(
            !html.contains(external),
            "the page refers outside: {external}"
        );
    }
    assert!(html.contains("id=\"foundation-count\""));
    assert!(html.contains("<title>FreeCell 1 · xpat-solver</title>"));
    let words = collect(&deal, &moves).words;
    assert!(html.contains(&json_string(&words[0])));
    assert_eq!(
        html.matches("</script>").count(),
        3,
        "data cannot close its element"
    );
}

/// The budget of issue 15: under 200 KB for the longest solutions of
/// 1..1000 (about 600 moves); a legal walk of 900 moves stands in for one.
#[test]
fn long_replays_stay_under_200_kb() {
    let (deal, moves) = solution("BakersDozen.562");
    let size = page(&deal, &moves).len();
    assert!(size < 200_000, "{} moves: {size} bytes", moves.len());
    // A FreeCell deal with a column's top card already on a card it may
    // lie on: to a free cell and back, 450 times.
    let (deal, card, onto) = (1..)
        .find_map(|seed| {
            let deal = crate::deal::test_deal("fc", seed);
            let state = State::new(&deal);
            let pair = state.columns().into_iter().find_map(|c| match c[..] {
                [.., onto, card] if deal.id.rules.build.allows(card, onto) => Some((card, onto)),
                _ => None,
            });
            pair.map(|(card, onto)| (deal, card, onto))
        })
        .unwrap();
    let walk: Vec<Move> = [Dest::Register, Dest::Card(onto)]
        .into_iter()
        .map(|dest| Move { card, dest })
        .cycle()
        .take(900)
        .collect();
    assert_eq!(collect(&deal, &walk).moves.len(), 900, "a legal walk");
    let size = page(&deal, &walk).len();
    assert!(size < 200_000, "900 moves: {size} bytes");
}

#[test]
fn the_data_holds_the_start_and_the_steps() {
    // Seahaven 5 plays A♥ at once; its first column is 4♠ 4♥ 5♦ 8♥ 4♣.
    let deal = crate::deal::test_deal("st", 5);
    let json = data(&deal, &[]);
    assert!(json.contains("\"startUp\":[2],"), "{json}");
    assert!(
        json.contains("\"start\":[[],[],[2],[],[13,14,19,30,12],"),
        "{json}"
    );
    assert!(
        json.ends_with("\"moves\":[],\"words\":[],\"stopped\":null}"),
        "{json}"
    );
    let (deal, moves) = solution("FreeCell.1");
    let json = data(&deal, &moves[..1]);
    let step = collect(&deal, &moves[..1]).moves[0][0];
    let expected = format!("\"moves\":[[[{},{},{}]", step.card, step.from, step.to);
    assert!(json.contains(&expected), "{json}");
}

#[test]
fn an_illegal_move_is_reported_in_the_page() {
    let (deal, mut moves) = solution("FreeCell.1");
    moves.truncate(3);
    moves.push(moves[2]);
    let html = page(&deal, &moves);
    assert!(
        html.contains("\"stopped\":\"move 4 ("),
        "the page says which move"
    );
}

#[test]
fn json_strings_cannot_end_the_script_element() {
    assert_eq!(
        json_string("a\"b\\c</script>\n"),
        "\"a\\\"b\\\\c\\u003c/script>\\u000a\""
    );
}

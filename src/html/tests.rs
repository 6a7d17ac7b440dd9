//! The page as text: self-contained, within its size budget, and carrying
//! a replay that reaches the won game from the position the text display
//! shows. (What a browser makes of it is `scripts/html-check`'s part.)

use super::replay::{Collected, collect};
use super::shown::Step;
use super::*;
use crate::cards::{Card, Name, suit};
use crate::foundation::Foundation;
use crate::midnight::Table;
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

/// Applies move `i`'s steps and rewrites to `piles` as the page's script
/// does, checking each.
fn play_move(piles: &mut [Vec<Card>], replay: &Collected, i: usize) {
    for &Step { card, from, to } in &replay.moves[i] {
        assert_eq!(piles[from].pop(), Some(card), "move {}", i + 1);
        piles[to].push(card);
    }
    for r in &replay.rewrites[i] {
        assert_eq!(piles[r.pile], r.was, "move {}", i + 1);
        piles[r.pile] = r.now.clone();
    }
}

/// Applies a replay's changes as the page's script does, checking each.
fn play_steps(replay: &Collected) -> Vec<Vec<Card>> {
    let mut piles = replay.start.clone();
    for i in 0..replay.moves.len() {
        play_move(&mut piles, replay, i);
    }
    piles
}

/// A file of `tests/fixtures/pages/`, for `game` under xpat2's complete
/// rules.
fn complete_rules_file(file: &str, game: &str, seed: u32) -> (Deal, Vec<Move>) {
    let path = format!("{}/tests/fixtures/pages/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let moves = crate::solution::parse(&text)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let deal = crate::deal::test_deal(game, seed).with_foundation(Foundation::Xpat2);
    (deal, moves)
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
        json.ends_with("\"moves\":[],\"table\":null,\"words\":[],\"stopped\":null}"),
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

/// Midnight Oil under the complete rules (solutions `-search --rules
/// xpat2` found, one with a turn up, one with a turn down, both with two
/// redeals): after every move the page's columns are the Table's, in its
/// order, and its foundation piles hold what the Table's foundation does.
#[test]
fn a_midnight_oil_page_follows_the_tables_columns_through_redeals_and_turns() {
    for (file, seed, turn) in [
        ("mo2-xpat2.sol", 2, Dest::TurnUp),
        ("mo3-xpat2.sol", 3, Dest::TurnDown),
    ] {
        let (deal, moves) = complete_rules_file(file, "mo", seed);
        let replay = collect(&deal, &moves);
        assert_eq!(replay.stopped, None, "{file}");
        assert_eq!(replay.moves.len(), moves.len(), "{file}");
        assert!(replay.start_up.is_empty(), "nothing goes up by itself");
        let mut table = Table::for_replay(&deal);
        assert_eq!(replay.start[4..], table.columns()[..], "{file}: the deal");
        let mut piles = replay.start.clone();
        let mut redeals = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let columns_before = table.columns();
            table.try_apply(mv).unwrap();
            play_move(&mut piles, &replay, i);
            let k = i + 1;
            assert_eq!(piles[4..], table.columns()[..], "{file}: after move {k}");
            let heights: Vec<u8> = piles[..4].iter().map(|p| p.len() as u8).collect();
            assert_eq!(heights, table.foundation(), "{file}: after move {k}");
            let words = &replay.words[i];
            match mv.dest {
                Dest::Redeal => {
                    redeals += 1;
                    let nth = ["1st", "2nd"][redeals - 1];
                    assert_eq!(
                        *words,
                        format!("the columns dealt again ({nth} redeal of 2)")
                    );
                    assert!(replay.moves[i].is_empty());
                    assert!(!replay.rewrites[i].is_empty(), "{file}: move {k}");
                    assert!(replay.rewrites[i].iter().all(|r| r.marked.is_none()));
                }
                Dest::TurnUp => {
                    assert_eq!(
                        *words,
                        format!("{} turned up to its column's top", Name(mv.card))
                    );
                    let [r] = &replay.rewrites[i][..] else {
                        panic!("{file}: move {k}: one column turned")
                    };
                    assert_eq!((r.now.last(), r.marked), (Some(&mv.card), Some(mv.card)));
                }
                Dest::TurnDown => {
                    let [r] = &replay.rewrites[i][..] else {
                        panic!("{file}: move {k}: one column turned")
                    };
                    let top = *r.was.last().unwrap();
                    assert_eq!(r.marked, Some(top));
                    let beneath = r.now.iter().position(|&c| c == mv.card).unwrap();
                    assert_eq!(r.now[beneath - 1], top, "{file}: move {k}");
                    assert_eq!(
                        *words,
                        format!("{} turned down beneath {}", Name(top), Name(mv.card))
                    );
                }
                _ => {
                    assert!(replay.rewrites[i].is_empty(), "{file}: move {k}");
                    assert_eq!(replay.moves[i].len(), 1, "{file}: move {k}");
                    let step = replay.moves[i][0];
                    assert_eq!(step.card, mv.card);
                    assert_eq!(
                        columns_before[step.from - 4].last(),
                        Some(&mv.card),
                        "{file}: move {k} takes a column's top card"
                    );
                }
            }
        }
        assert_eq!(redeals, 2, "{file}");
        assert!(moves.iter().any(|m| m.dest == turn), "{file}");
        assert!(table.is_won());
        assert!(piles[..4].iter().all(|f| f.len() == 13), "{file} ends won");
    }
}

/// The page's data says which moves spent a redeal or the turn, and
/// writes a turned column with the card it marks.
#[test]
fn a_midnight_oil_page_says_when_its_redeals_and_turn_are_spent() {
    let (deal, moves) = complete_rules_file("mo2-xpat2.sol", "mo", 2);
    let at = |dest: fn(Dest) -> bool| -> Vec<String> {
        (1..=moves.len())
            .filter(|&k| dest(moves[k - 1].dest))
            .map(|k| k.to_string())
            .collect()
    };
    let redeals = at(|d| d == Dest::Redeal).join(",");
    let turns = at(|d| matches!(d, Dest::TurnUp | Dest::TurnDown)).join(",");
    let json = data(&deal, &moves);
    let table = format!(
        "\"table\":{{\"redeals\":2,\"turns\":1,\"redealAt\":[{redeals}],\"turnAt\":[{turns}]}}"
    );
    assert!(json.contains(&table), "{table} in {json}");
    let turned = moves.iter().position(|m| m.dest == Dest::TurnUp).unwrap();
    let r = &collect(&deal, &moves).rewrites[turned][0];
    let change = format!(
        "[{},{},{},{}]",
        r.pile,
        numbers(&r.was),
        numbers(&r.now),
        moves[turned].card
    );
    assert!(json.contains(&change), "{change} in {json}");
    // Other games have no table.
    let (deal, moves) = solution("FreeCell.1");
    assert!(data(&deal, &moves).contains("\"table\":null,"));
}

/// A third redeal is refused by the Table, and the page says so.
#[test]
fn a_third_redeal_ends_a_midnight_oil_replay() {
    let deal = crate::deal::test_deal("mo", 2).with_foundation(Foundation::Xpat2);
    let replay = collect(&deal, &[Move::REDEAL, Move::REDEAL, Move::REDEAL]);
    assert_eq!(replay.moves.len(), 2);
    let why = replay.stopped.unwrap();
    assert!(
        why.starts_with("move 3 (the columns dealt again) is illegal"),
        "{why}"
    );
}

/// FreeCell under the complete rules, a hand-made file: A♥ up, back to a
/// free cell, up again; A♠ up, back onto 2♦, up again; 2♥ up, back to an
/// empty column, up again; then a solution the search found.
#[test]
fn a_card_back_from_the_foundation_leaves_its_foundation_pile() {
    let (deal, moves) = complete_rules_file("fc1-xpat2-back.sol", "fc", 1);
    let replay = collect(&deal, &moves);
    assert_eq!(replay.stopped, None);
    let mut piles = replay.start.clone();
    let mut backs = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        let back = piles[usize::from(suit(mv.card))].last() == Some(&mv.card);
        let before = piles.clone();
        play_move(&mut piles, &replay, i);
        if !back {
            continue;
        }
        let [step] = replay.moves[i][..] else {
            panic!("move {}: one step", i + 1)
        };
        assert_eq!(
            (step.card, step.from),
            (mv.card, usize::from(suit(mv.card)))
        );
        let first_empty =
            |range: std::ops::Range<usize>| range.clone().find(|&p| before[p].is_empty());
        let to = match mv.dest {
            Dest::Register => first_empty(12..16),
            Dest::EmptyColumn => first_empty(4..12),
            Dest::Card(onto) => (4..12).find(|&p| before[p].last() == Some(&onto)),
            _ => None,
        };
        assert_eq!(Some(step.to), to, "move {}", i + 1);
        backs.push(replay.words[i].clone());
    }
    assert_eq!(
        backs,
        [
            "A♥ back from the foundation to a free cell",
            "A♠ back from the foundation onto 2♦",
            "2♥ back from the foundation to an empty column",
        ]
    );
    assert!(piles[..4].iter().all(|f| f.len() == 13), "ends won");
}

/// Under the course's rules the same card back is illegal, and the page
/// stops there.
#[test]
fn a_card_back_is_refused_where_the_rules_refuse_it() {
    let (deal, moves) = complete_rules_file("fc1-xpat2-back.sol", "fc", 1);
    let deal = deal.with_foundation(Foundation::Free);
    let replay = collect(&deal, &moves);
    assert_eq!(replay.moves.len(), 6);
    let why = replay.stopped.unwrap();
    assert!(
        why.starts_with("move 7 (A♥ to a free cell) is illegal"),
        "{why}"
    );
}

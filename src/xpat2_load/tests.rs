//! The loader on saves the real xpat2 wrote after mouse clicks
//! (`tests/fixtures/xpat2/`, see the module's documentation), on saves the
//! project writes itself, and on what it must refuse.

use super::*;
use crate::rules::find;
use crate::state::{Dest, State};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/xpat2/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn mv(card: u8, dest: Dest) -> Move {
    Move { card, dest }
}

/// A save as xpat2 lays it out, for files it would not write itself.
fn encode(xpat2_name: &str, seed: i32, words: &[u32], played: usize) -> Vec<u8> {
    let mut bytes = xpat2_name.as_bytes().to_vec();
    bytes.resize(32, 0);
    let mut a = [-1i32; 32];
    a[8] = seed;
    a[9] = words.len() as i32;
    a[10] = played as i32;
    for i in [11, 12, 13, 14, 16, 17] {
        a[i] = 0;
    }
    a[15] = MAGIC;
    for v in a {
        bytes.extend_from_slice(&v.to_be_bytes());
    }
    for w in words {
        bytes.extend_from_slice(&w.to_be_bytes());
    }
    bytes
}

/// The solver's position after the moves a save was followed with.
fn followed(bytes: &[u8]) -> (GameId, Vec<Move>, State) {
    let (id, moves) = load(bytes).unwrap_or_else(|e| panic!("{e}"));
    let mut state = State::new(&Deal::new(id));
    for &m in &moves {
        state.try_apply(m).expect("the loader's moves are legal");
    }
    (id, moves, state)
}

fn sorted_columns(state: &State) -> Vec<Vec<u8>> {
    let mut columns = state.columns();
    columns.sort();
    columns
}

#[test]
fn freecell_with_a_sequence_moved_at_once_and_own_foundation_moves() {
    let bytes = fixture("fc123-sequence-move.xpat2");
    let saved = read(&bytes).unwrap();
    assert_eq!(saved.id.to_string(), "FreeCell.123");
    assert_eq!(
        (saved.words.len(), saved.played, saved.finished),
        (8, 8, false)
    );
    // Word 2: A♦ (array index 18, third column) to the ♦ foundation (pile 3).
    assert_eq!(saved.words[1] & 0xFFFF, 18 | 3 << 9);
    let (_, moves, state) = followed(&bytes);
    // 2♥ to a cell (A♦ and 2♦ go up by themselves), 9♠ onto 10♥, 8♦ onto
    // 9♠, Q♦ onto K♠, J♠ onto Q♦, then 10♥ 9♠ 8♦ onto J♠ through cells.
    let t = Dest::Register;
    let expected = [
        mv(6, t),
        mv(33, Dest::Card(38)),
        mv(31, Dest::Card(33)),
        mv(47, Dest::Card(49)),
        mv(41, Dest::Card(47)),
        mv(31, t),
        mv(33, t),
        mv(38, Dest::Card(41)),
        mv(33, Dest::Card(38)),
        mv(31, Dest::Card(33)),
    ];
    assert_eq!(moves, expected);
    assert_eq!(state.foundation(), [0, 0, 0, 2]);
    assert_eq!(state.registers().collect::<Vec<_>>(), [6]);
    let j_heart_column = [42, 25, 19, 34, 20, 49, 47, 41, 38, 33, 31];
    assert!(state.columns().contains(&j_heart_column.to_vec()));
}

#[test]
fn undone_moves_are_not_followed() {
    let mut bytes = fixture("fc123-one-move-undone.xpat2");
    let saved = read(&bytes).unwrap();
    assert_eq!((saved.words.len(), saved.played), (8, 7));
    let (_, moves, _) = followed(&bytes);
    assert_eq!(moves.len(), 5, "the sequence move was undone");
    // Whatever the undone word says, it is not read as a move.
    bytes[160 + 4 * 7..160 + 4 * 8].copy_from_slice(&[0xFF; 4]);
    assert_eq!(load(&bytes).unwrap().1.len(), 5);
}

#[test]
fn a_move_between_free_cells_changes_nothing_for_the_solver() {
    let bytes = fixture("fc123-cell-to-cell.xpat2");
    let saved = read(&bytes).unwrap();
    assert_eq!((saved.words.len(), saved.played), (9, 9));
    let last = saved.words[8];
    assert_eq!(
        ((last >> 9) & 0x7F, last >> 25),
        (13, 12),
        "cell 0 to cell 1"
    );
    let (_, moves, state) = followed(&bytes);
    assert_eq!(moves.len(), 6);
    assert_eq!(moves[5], mv(31, Dest::Register));
    assert_eq!(state.registers().collect::<Vec<_>>(), [6, 31]);
}

#[test]
fn seahaven_with_a_king_to_an_empty_column_and_a_free_cell_to_the_foundation() {
    let (id, moves, state) = followed(&fixture("st5-clicks.xpat2"));
    assert_eq!(id.to_string(), "Seahaven.5");
    // 3♣ onto 4♣, 7♦ and 5♠ to cells, K♣ to the emptied column; the eight
    // cards the player sent up are already there for the solver.
    let expected = [
        mv(8, Dest::Card(12)),
        mv(27, Dest::Register),
        mv(48, Dest::EmptyColumn),
        mv(17, Dest::Register),
    ];
    assert_eq!(moves, expected);
    assert_eq!(state.foundation(), [5, 0, 2, 1]);
    assert_eq!(state.registers().collect::<Vec<_>>(), [17, 27, 29]);
    assert!(sorted_columns(&state).contains(&vec![48]));
}

#[test]
fn bakers_dozen() {
    let (id, moves, state) = followed(&fixture("bd7-clicks.xpat2"));
    assert_eq!(id.to_string(), "BakersDozen.7");
    assert_eq!(moves, [mv(26, Dest::Card(28))], "7♥ onto 8♣");
    assert_eq!(state.foundation(), [1, 0, 3, 0]);
}

/// What the project writes for xpat2 is followed back to the same moves,
/// to the won game, in every game.
#[test]
fn the_projects_own_saves_are_followed_move_for_move() {
    for name in ["FreeCell.2", "Seahaven.3", "MidnightOil.4", "BakersDozen.5"] {
        let path = format!("{}/solutions/found/{name}.sol", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(&path).unwrap();
        let solution: Vec<Move> = crate::solution::parse(&text)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let id: GameId = name.parse().unwrap();
        let deal = Deal::new(id);
        for at in [crate::xpat2::At::Start, crate::xpat2::At::End] {
            let bytes = crate::xpat2::save(&deal, &solution, at).unwrap();
            let (loaded, moves, state) = followed(&bytes);
            let played = read(&bytes).unwrap().played;
            if played == 0 {
                assert!(moves.is_empty(), "{name}: nothing played yet");
            } else {
                assert_eq!(loaded, id);
                assert_eq!(moves, solution, "{name}");
                assert!(state.is_won(), "{name}");
            }
        }
    }
}

#[test]
fn a_card_put_onto_one_the_solver_played_up_is_refused_by_name() {
    // Baker's Dozen 26: the solver plays 4♦ up at once; the player puts 3♣
    // onto it, where 3♣ cannot go up yet.
    let word = 0x1814_1023;
    let bytes = encode("Baker's Dozen", 26, &[word], 1);
    match load(&bytes) {
        Err(Error::Move { number, what, why }) => {
            assert_eq!(number, 1);
            assert_eq!(what, "3♣ from column 9 onto 4♦ in column 5");
            assert!(why.contains("on the foundation"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    let message = load(&bytes).unwrap_err().to_string();
    assert!(
        message.starts_with("move 1 of the save (3♣ from column 9"),
        "{message}"
    );
}

#[test]
fn words_xpat2_would_never_write_are_refused_by_name() {
    let played = read(&fixture("bd7-clicks.xpat2")).unwrap();
    let mut words = played.words.clone();
    // A♣ (array index 0, on the ♣ foundation) back to the first column.
    words.push(4 << 9);
    let bytes = encode("Baker's Dozen", 7, &words, words.len());
    match load(&bytes) {
        Err(Error::Move {
            number: 6,
            what,
            why,
        }) => {
            assert_eq!(what, "A♣ from the ♣ foundation onto 4♠ in column 1");
            assert!(why.contains("back from the foundation"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // FreeCell 123's first word with a wrong source pile in its high half.
    let mut first = read(&fixture("fc123-sequence-move.xpat2")).unwrap().words[0];
    first ^= 1 << 25;
    match load(&encode("Free Cell", 123, &[first], 1)) {
        Err(Error::Move { number: 1, why, .. }) => assert!(why.contains("pile 7"), "{why}"),
        other => panic!("{other:?}"),
    }
    match load(&encode("Free Cell", 123, &[0xFFFF_FFFF], 1)) {
        Err(Error::Move { number: 1, why, .. }) => assert!(why.contains("outside"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn headers_that_are_not_a_game_of_ours_are_refused() {
    let good = encode("Free Cell", 123, &[], 0);
    assert_eq!(
        load(&good),
        Ok((
            GameId {
                rules: find("fc").unwrap(),
                seed: 123
            },
            vec![]
        ))
    );
    let refused = |bytes: &[u8], words: &str| match read(bytes) {
        Err(Error::Format(why)) => assert!(why.contains(words), "{why}"),
        other => panic!("expected a refusal mentioning '{words}', got {other:?}"),
    };
    refused(&good[..100], "shorter");
    let mut bytes = good.clone();
    bytes[32 + 4 * 15 + 3] = 0;
    refused(&bytes, "magic");
    refused(&encode("Klondike", 123, &[], 0), "'Klondike'");
    let mut bytes = good.clone();
    bytes[32 + 4 * 18..32 + 4 * 19].copy_from_slice(&3i32.to_be_bytes());
    refused(&bytes, "customized");
    refused(&encode("Free Cell", 0, &[], 0), "seed 0");
    let mut bytes = encode("Free Cell", 123, &[1, 2], 2);
    bytes.truncate(160 + 4);
    refused(&bytes, "announces 2 moves");
    refused(&encode("Free Cell", 123, &[1], 2), "2 of its 1");
    // The name is read up to its NUL, whatever follows.
    let mut bytes = fixture("st5-clicks.xpat2");
    bytes[20] = b'x';
    assert_eq!(read(&bytes).unwrap().id.to_string(), "Seahaven.5");
}

#[test]
fn a_new_game_in_every_rule_loads_with_no_move() {
    for rules in &crate::rules::GAMES {
        let bytes = encode(rules.xpat2_name, 42, &[], 0);
        let (id, moves) = load(&bytes).unwrap();
        assert_eq!((id.rules.name, id.seed, moves.len()), (rules.name, 42, 0));
    }
}

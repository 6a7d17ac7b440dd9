//! The loader on saves the real xpat2 wrote after mouse clicks
//! (`tests/fixtures/xpat2/`, see the module's documentation), on saves the
//! project writes itself, and on what it must refuse.

use super::*;
use crate::cards::Card;
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
    match load(&encode("Free Cell", 123, &[0x7FFF_7FFF], 1)) {
        Err(Error::Move { number: 1, why, .. }) => assert!(why.contains("outside"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Bits 15 and 31 set: one of xpat2's special words, none in FreeCell.
    match load(&encode("Free Cell", 123, &[0xFFFF_FFFF], 1)) {
        Err(Error::Move { number: 1, why, .. }) => assert!(why.contains("never writes"), "{why}"),
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

/// A real save followed under xpat2's complete rules.
fn complete(name: &str) -> Follower {
    let saved = read(&fixture(name)).unwrap();
    follow_under(&saved, Foundation::Xpat2).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn table(follower: &Follower) -> &crate::midnight::Table {
    match follower.position() {
        Position::Table(table) => table,
        other => panic!("not a table: {other:?}"),
    }
}

/// Midnight Oil's columns after `moves` of `seed`'s deal, by the
/// redeal's and turn's own functions (`redeal.rs`, checked against the
/// real xpat2's screens): `Some(card)` sends a column's top card up,
/// `None` redeals.
fn predicted(seed: u32, moves: &[Option<Card>]) -> Vec<Vec<Card>> {
    let mut columns = crate::deal::test_deal("mo", seed).columns;
    for mv in moves {
        match mv {
            Some(card) => {
                let column = columns.iter_mut().find(|c| c.last() == Some(card)).unwrap();
                column.pop();
            }
            None => columns = crate::redeal::redeal(&columns, seed),
        }
    }
    columns
}

/// Each Midnight Oil save the real xpat2 wrote is followed to the layout
/// its doc (docs/xpat2-complete-rules.md) and xpat2's screen show, with
/// the redeals and turn it left, as the file's moves `R`, `CARD U`,
/// `CARD D`, `CARD F`.
#[test]
fn midnight_oil_saves_are_followed_to_the_layout_xpat2_shows() {
    const AS: Card = 1;
    const AD: Card = 3;
    let f = complete("mo1-redeal.xpat2");
    assert_eq!(table(&f).columns(), predicted(1, &[None]));
    assert_eq!((table(&f).redeals_left(), table(&f).turns_left()), (1, 1));
    assert_eq!(f.moves(), [Move::REDEAL]);

    let f = complete("mo1-two-redeals.xpat2");
    assert_eq!(table(&f).columns(), predicted(1, &[None, None]));
    assert_eq!(table(&f).redeals_left(), 0);

    let f = complete("mo1-up-redeals.xpat2");
    let want = predicted(1, &[Some(AS), None, Some(AD), None]);
    assert_eq!(table(&f).columns(), want);
    let sizes: Vec<usize> = want.iter().map(Vec::len).collect();
    assert_eq!(sizes[15..], [3, 2, 0], "50 cards: column 17 holds 2");
    assert_eq!(table(&f).foundation(), [0, 1, 0, 1]);
    let up = |card| mv(card, Dest::Foundation);
    assert_eq!(f.moves(), [up(AS), Move::REDEAL, up(AD), Move::REDEAL]);

    // `b` on column 1's bottom card: it comes up to the top.
    let f = complete("mo1-turn-up.xpat2");
    let dealt = predicted(1, &[]);
    let mut column = dealt[0].clone();
    column.rotate_left(1);
    assert_eq!(table(&f).columns()[0], column);
    assert_eq!(table(&f).columns()[1..], dealt[1..]);
    assert_eq!(f.moves(), [mv(dealt[0][0], Dest::TurnUp)]);
    assert_eq!((table(&f).redeals_left(), table(&f).turns_left()), (2, 0));

    // `f` on Q♥ in column 5 (6♥ Q♥ 9♥): 9♥ goes down beneath it.
    let f = complete("mo2-turn-down.xpat2");
    assert_eq!(predicted(2, &[])[4], [22, 46, 34]);
    assert_eq!(table(&f).columns()[4], [22, 34, 46], "6♥ 9♥ Q♥");
    assert_eq!(f.moves(), [mv(46, Dest::TurnDown)]);

    let f = complete("mo1-turn-up-redeal.xpat2");
    assert_eq!(f.moves(), [mv(dealt[0][0], Dest::TurnUp), Move::REDEAL]);
    let mut turned = dealt.clone();
    turned[0] = column;
    assert_eq!(table(&f).columns(), crate::redeal::redeal(&turned, 1));
}

/// FreeCell 123 with A♦ up, back to a free cell, up again, and back onto
/// 2♠: the solver's position is the player's exactly (nothing played up
/// by itself), and the moves are the file's.
#[test]
fn freecell_cards_back_from_the_foundation_are_followed() {
    let f = complete("fc123-foundation-back.xpat2");
    let Position::Exact(state) = f.position() else {
        panic!("an exact position");
    };
    assert_eq!(state.foundation(), [0; 4]);
    assert_eq!(state.below(3), 5, "A♦ on 2♠");
    assert_eq!(state.registers().collect::<Vec<_>>(), [6], "2♥");
    let (up, cell) = (Dest::Foundation, Dest::Register);
    let want = [
        mv(6, cell),
        mv(3, up),
        mv(3, cell),
        mv(3, up),
        mv(3, Dest::Card(5)),
    ];
    assert_eq!(f.moves(), want);
    // The same moves replay as a file of the complete rules.
    let deal = Deal::new(f_id("fc", 123)).with_foundation(Foundation::Xpat2);
    let mut replayed = State::for_replay(&deal);
    for &m in &want {
        replayed.try_apply(m).unwrap();
    }
    assert_eq!(&replayed, state);
}

fn f_id(game: &str, seed: u32) -> GameId {
    GameId {
        rules: find(game).unwrap(),
        seed,
    }
}

/// A redeal's group that is not xpat2's for the columns on the table, a
/// save that stops inside one, a third redeal, a second turn, a turn of a
/// top card: refused by name.
#[test]
fn redeals_and_turns_xpat2_would_not_write_are_refused() {
    let two = read(&fixture("mo1-two-redeals.xpat2")).unwrap().words;
    let refused = |words: &[u32], played: usize, says: &str| {
        let bytes = encode("Midnight Oil", 1, words, played);
        let saved = read(&bytes).unwrap();
        let e = follow_under(&saved, Foundation::Xpat2)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{says}: {e}");
    };
    let mut wrong = two[..37].to_vec();
    wrong[5] ^= 1;
    refused(&wrong, 37, "move 37 of the save (a redeal)");
    refused(&two[..20], 20, "stop inside its words");
    let three = [&two[..], &two[..37]].concat();
    refused(&three, three.len(), "both redeals are done");
    let turns = [0xfff4_8000, 0xfff4_8003];
    refused(&turns, 2, "the column's turn is done");
    // Index 2: column 1's top card.
    refused(&[0xfff4_8002], 1, "top card");
    // Not in FreeCell, and not under forced rules.
    let saved = read(&encode("Free Cell", 1, &[0xfff4_8000], 1)).unwrap();
    let e = follow_under(&saved, Foundation::Xpat2)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no redeal or turn"), "{e}");
}

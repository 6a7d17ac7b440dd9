//! The suitless game held to its claim: every real move is a move of the
//! suitless game from the real position's image (so its plays contain
//! the real ones), and no position it calls lost can be won, by plain
//! searches of small games under forced, free and complete rules; and it
//! proves real deals lost that nothing else here decides.

use super::super::automatic::Automatic;
use super::super::testing::{
    JUDGED_CAP, SMALL_SIZES, complete, every_legal_move, judged_small_games, judged_small_walks,
    walk, walk_from,
};
use super::*;
use crate::deal::test_deal;
use layers::Layered;
use std::time::Duration;

fn test_state(game: &str, seed: u32) -> State {
    State::new(&test_deal(game, seed))
}

/// The suitless positions `p` leads to by one move, then by foundation
/// moves only: under forced rules, a real move is followed by every card
/// that can go up, run tops among them.
fn reached(game: &Game, p: &Position) -> Vec<Position> {
    let mut all = Vec::new();
    game.for_each_child(p, |child| all.push(child));
    let mut at = 0;
    while at < all.len() {
        let here = all[at];
        at += 1;
        let score: u8 = here.up.iter().sum();
        game.for_each_child(&here, |child| {
            if child.up.iter().sum::<u8>() > score && !all.contains(&child) {
                all.push(child);
            }
        });
    }
    all
}

/// Holds every legal move of `state` to the suitless game: the image of
/// the position it leads to is reached from `state`'s image. A card back
/// from the foundation is held as the start of a burst (the module doc),
/// with every way it can go on and end ([`burst_ends`]).
fn every_move_is_suitless(state: &State) -> usize {
    let (game, image) = Game::of(state).expect("Baker's Dozen");
    assert_eq!(game.settled_image(state), image);
    let reached = reached(&game, &image);
    let mut moves = 0;
    every_move_or_burst(state, &mut |child: &State, how: &str| {
        let after = game.image(child);
        assert!(
            reached.contains(&after),
            "{how} is no move of the suitless game:\n{state}"
        );
        moves += 1;
    });
    moves
}

/// Calls `reached` with each position a legal move of `state` leads to
/// and how: a card back from the foundation with each end of the burst
/// it starts ([`burst_ends`]).
pub(super) fn every_move_or_burst(state: &State, reached: &mut impl FnMut(&State, &str)) {
    every_legal_move(state, |mv| {
        let mut child = state.clone();
        child.apply(mv);
        if is_up(state, mv.card) {
            burst_ends(&child, mv.card, &format!("{mv:?}"), reached);
        } else {
            reached(&child, &format!("{mv:?}"));
        }
    });
}

/// Whether `card` is on the foundation in `state`.
fn is_up(state: &State, card: Card) -> bool {
    state.foundation()[suit(card) as usize] >= rank(card)
}

/// Calls `end` with each position a burst that brought `last` back
/// (`state` just after) ends in: a card not coming back put onto
/// `last`; or a foundation's top brought onto `last`, or the card
/// beneath `last` on its pile brought anywhere, and so on.
pub(super) fn burst_ends(state: &State, last: Card, how: &str, end: &mut impl FnMut(&State, &str)) {
    every_legal_move(state, |mv| {
        let onto_last = mv.dest == crate::state::Dest::Card(last);
        let beneath = is_up(state, mv.card) && suit(mv.card) == suit(last);
        if !onto_last && !beneath {
            return;
        }
        let mut child = state.clone();
        child.apply(mv);
        let how = format!("{how}, {mv:?}");
        if is_up(state, mv.card) {
            burst_ends(&child, mv.card, &how, end);
        } else {
            end(&child, &how);
        }
    });
}

#[test]
fn every_move_of_bakers_dozen_is_a_move_of_the_suitless_game() {
    let mut rng = 0x5017_1E55_0000_0001_u64;
    let mut moves = 0;
    for seed in 1..=10 {
        walk("bd", seed, 80, &mut rng, |state| {
            moves += every_move_is_suitless(state)
        });
        let free = test_deal("bd", seed).with_foundation(crate::foundation::Foundation::Free);
        walk_from(State::new(&free), 80, &mut rng, |state| {
            moves += every_move_is_suitless(state)
        });
        let start = complete(&test_state("bd", seed), Automatic::Nothing);
        walk_from(start, 80, &mut rng, |state| {
            moves += every_move_is_suitless(state)
        });
    }
    assert!(moves > 5_000, "{moves}");
}

/// Small games, and positions along walks from them: under each rule,
/// every position the suitless game calls lost that a plain search
/// decides is lost. (On games this small the pair test finds nearly all
/// of them lost too: the real deals below are where the suitless game
/// goes further.)
#[test]
fn every_position_the_suitless_game_calls_lost_is_lost() {
    let mut rng = 0x5017_1E55_0000_0002_u64;
    let (mut judged, mut won) = (0, 0);
    judged_small_games(&mut rng, &SMALL_SIZES, 8, 6, |state, plain| {
        let lost = suitless(state, 50_000, || false).is_lost();
        match plain {
            Some(true) => {
                assert!(!lost, "won, yet lost in the suitless game:\n{state}");
                won += 1;
            }
            Some(false) if lost => judged += 1,
            _ => {}
        }
    });
    assert!(
        won >= 50 && judged >= 100,
        "{won} won, {judged} lost in the suitless game"
    );
}

/// Every child a position leads to is settled, those a top card moved
/// onto a host leads to among them (`for_each_child_of` settles those
/// only where the card left on top of its column goes up): settled
/// again, each stays
/// as it is. Searched from real deals under the three rules, a few
/// thousand positions each.
#[test]
fn every_child_is_settled() {
    use crate::foundation::Foundation;
    let mut children = 0;
    for foundation in [Foundation::Forced, Foundation::Free, Foundation::Xpat2] {
        for seed in 1..=4 {
            let state = State::new(&test_deal("bd", seed).with_foundation(foundation));
            let (game, start) = Game::of(&state).expect("Baker's Dozen");
            let (mut todo, mut seen) = (vec![start], FxHashSet::default());
            while let Some(p) = todo.pop() {
                if seen.len() > 5_000 {
                    break;
                }
                game.for_each_child(&p, |child| {
                    let mut again = child;
                    game.settle(&mut again, game.fixed_cards(&child));
                    assert_eq!(again, child, "bd.{seed} {foundation:?}");
                    children += 1;
                    if seen.insert(game.pack(&child)) {
                        todo.push(child);
                    }
                });
            }
        }
    }
    assert!(children > 100_000, "{children}");
}

/// Cards back in bursts against cards back one at a time (the module
/// doc), under complete rules: on small games and along walks from them,
/// bursts call lost no position a plain search of every legal move wins,
/// and every position one at a time calls lost; on real deals, the same
/// proofs in fewer positions.
#[test]
fn cards_back_in_bursts_prove_what_cards_back_one_at_a_time_prove() {
    let by = |state: &State, bursts: bool, most: usize| {
        let (mut game, start) = Game::of(state).expect("Baker's Dozen");
        game.bursts = bursts;
        search(&game, &start, most, &|| false, &FxHashSet::default()).0
    };
    let mut rng = 0x5017_1E55_0000_0005_u64;
    let (mut lost, mut only_bursts, mut won) = (0, 0, 0);
    judged_small_games(&mut rng, &SMALL_SIZES, 8, 6, |state, plain| {
        if !state.returns() {
            return;
        }
        let (bursts, single) = (by(state, true, 50_000), by(state, false, 50_000));
        if plain == Some(true) {
            assert!(!bursts.is_lost(), "won, yet lost in bursts:\n{state}");
            won += 1;
        }
        if single.is_lost() {
            assert!(
                bursts.is_lost(),
                "lost one at a time, not in bursts:\n{state}"
            );
            lost += 1;
        } else if bursts.is_lost() {
            only_bursts += 1;
        }
    });
    assert!(
        lost >= 100 && won >= 20,
        "{lost} lost both ways, {only_bursts} in bursts only, {won} won"
    );
    for seed in [1865, 78829] {
        let deal = test_deal("bd", seed).with_foundation(crate::foundation::Foundation::Xpat2);
        let state = State::new(&deal);
        let (bursts, single) = (by(&state, true, 20_000_000), by(&state, false, 20_000_000));
        assert!(bursts.is_lost() && single.is_lost(), "bd.{seed}");
        assert!(bursts.positions() < single.positions(), "bd.{seed}");
    }
}

/// The memo: along walks of small games, a search of each position with
/// what the searches of the positions before it proved lost (and the
/// lookup alone) calls no won position lost, and calls lost every
/// position a search of its own calls lost.
#[test]
fn what_the_memo_calls_lost_is_lost() {
    let mut rng = 0x5017_1E55_0000_0003_u64;
    let (mut judged, mut won, mut known) = (0, 0, 0);
    let mut memo: Option<(State, Memo)> = None;
    judged_small_walks(
        &mut rng,
        &SMALL_SIZES,
        8,
        6,
        JUDGED_CAP,
        |root, state, plain| {
            // A new walk: its start differs, or only in its rules (which
            // equality of positions does not see).
            let same =
                |r: &State| r == root && (r.automatic, r.returns) == (root.automatic, root.returns);
            if !memo.as_ref().is_some_and(|(r, _)| same(r)) {
                memo = Some((root.clone(), Memo::new(root).expect("Baker's Dozen")));
            }
            let memo = &mut memo.as_mut().expect("made above").1;
            let was_known = memo.known_lost(state);
            let lost = memo.search(state, 50_000, || false).is_lost();
            assert!(!was_known || lost, "known lost, then not:\n{state}");
            if suitless(state, 50_000, || false).is_lost() {
                assert!(lost, "lost alone, not with the memo:\n{state}");
            }
            known += usize::from(was_known);
            match plain {
                Some(true) => {
                    assert!(!lost, "won, yet lost with the memo:\n{state}");
                    won += 1;
                }
                Some(false) if lost => judged += 1,
                _ => {}
            }
        },
    );
    assert!(
        won >= 50 && judged >= 100 && known >= 20,
        "{won} won, {judged} lost with the memo, {known} known before"
    );
}

/// Real deals: the suitless game proves lost from the start, under forced
/// and free rules, deals the pair and triple tests pass (bd.1865, and
/// bd.78829, which no search here had decided), and leaves bd.1 (won).
#[test]
fn the_suitless_game_on_real_deals() {
    let free = |seed| {
        State::new(&test_deal("bd", seed).with_foundation(crate::foundation::Foundation::Free))
    };
    for state in [test_state("bd", 1865), test_state("bd", 78829), free(1865)] {
        assert!(!crate::state::Pairs::default().is_lost(&state));
        assert!(
            suitless(&state, 20_000_000, || false).is_lost(),
            "\n{state}"
        );
    }
    for state in [test_state("bd", 1), free(1)] {
        assert!(!suitless(&state, 20_000_000, || false).is_lost());
    }
}

/// The suitless game searched in layers, with `threads`, no limit.
fn in_layers_with(state: &State, threads: usize) -> Suitless {
    let limits = LayerLimits {
        threads,
        most: usize::MAX,
        stopped: &|| false,
        every: LAYER_EVERY,
        checkpoint: None,
        lean_from: LEAN_FROM,
        room: || None,
    };
    in_layers(state, &limits, &mut |_| {})
}

/// The search in layers is the plain search in another order: on small
/// games and along walks from them, under forced and free rules, it calls
/// lost exactly the positions the plain search calls lost, having
/// reached as many positions, on one thread or two in turn (each
/// position on both took 41 s alone, in turn 28 s); under complete rules
/// too, where a layer counts fixed cards gone alone.
#[test]
fn the_search_in_layers_finds_what_the_plain_search_finds() {
    let mut rng = 0x5017_1E55_0000_0004_u64;
    // Lost and open games counted, under forced and free rules, and
    // under complete ones.
    let (mut plain_rules, mut complete) = ((0, 0), (0, 0));
    let mut searched = 0;
    judged_small_games(&mut rng, &SMALL_SIZES, 8, 6, |state, plain| {
        let whole = suitless(state, usize::MAX, || false);
        searched += 1;
        let threads = 1 + searched % 2;
        let layered = in_layers_with(state, threads);
        assert_eq!(
            layered.is_lost(),
            whole.is_lost(),
            "{threads} threads:\n{state}"
        );
        let won = |found| matches!(found, Suitless::Won { .. });
        assert_eq!(won(layered), won(whole), "{threads} threads:\n{state}");
        if whole.is_lost() {
            assert_eq!(layered.positions(), whole.positions(), "\n{state}");
        }
        if plain == Some(true) {
            assert!(!whole.is_lost());
        }
        let counts = if state.returns() {
            &mut complete
        } else {
            &mut plain_rules
        };
        *(if whole.is_lost() {
            &mut counts.0
        } else {
            &mut counts.1
        }) += 1;
    });
    for (lost, open) in [plain_rules, complete] {
        assert!(lost >= 200 && open >= 10, "{lost} lost, {open} open");
    }
}

/// Real deals in layers, under forced, free and complete rules: the
/// same proofs as the plain search, with the same positions (bd.78829,
/// 584 523 of them with forced moves), one thread or two, the
/// entries waiting counted to the last; a limit or a stop leaves the
/// search open. (A won deal is left to the
/// small games: in layers a win is met only in the last layers, after
/// most of the game, bd.1 past 2 M positions.)
#[test]
fn the_search_in_layers_on_real_deals() {
    use crate::foundation::Foundation;
    let under = |foundation, seed| State::new(&test_deal("bd", seed).with_foundation(foundation));
    let (free, complete) = (
        under(Foundation::Free, 1865),
        under(Foundation::Xpat2, 78829),
    );
    for state in [test_state("bd", 78829), free, complete] {
        let whole = suitless(&state, 20_000_000, || false);
        assert!(whole.is_lost());
        for threads in [1, 2] {
            let mut layers = Vec::new();
            // A report as often as the caller's thread wakes: many of
            // each layer under way.
            let limits = LayerLimits {
                threads,
                most: usize::MAX,
                stopped: &|| false,
                every: Duration::ZERO,
                checkpoint: None,
                lean_from: LEAN_FROM,
                room: || None,
            };
            let mut under_way = Vec::new();
            let found = in_layers(&state, &limits, &mut |layer| match layer.done {
                true => layers.push(layer.clone()),
                false => under_way.push((layers.len(), layer.clone())),
            });
            assert_eq!(found, whole, "{threads} threads");
            // A layer under way is reported before its end, with what its
            // cells done hold so far, on top of the layers before it.
            assert!(!under_way.is_empty());
            for (before, layer) in &under_way {
                let done = &layers[*before];
                assert_eq!(layer.number, done.number);
                assert!(layer.positions <= done.positions, "{layer:?} {done:?}");
                assert_eq!(layer.total - layer.positions, done.total - done.positions);
            }
            // Layers come in order, and count every position.
            assert!(layers.windows(2).all(|w| w[0].number < w[1].number));
            let counted: usize = layers.iter().map(|l| l.positions).sum();
            assert_eq!(Some(counted), layers.last().map(|l| l.total));
            assert_eq!(counted, whole.positions());
            assert_eq!(layers.last().map(|l| (l.waiting, l.bytes)), Some((0, 0)));
            // The entries waiting take a few bytes each (16 to 22 in hash
            // sets): the point of piles.
            let most = layers.iter().max_by_key(|l| l.waiting).unwrap();
            assert!(most.waiting > 10_000, "{most:?}");
            assert!(most.bytes < 8 * most.waiting, "{most:?}");
        }
    }
    let state = test_state("bd", 78829);
    let small = LayerLimits {
        threads: 1,
        most: 10_000,
        stopped: &|| false,
        every: LAYER_EVERY,
        checkpoint: None,
        lean_from: LEAN_FROM,
        room: || None,
    };
    assert!(!in_layers(&state, &small, &mut |_| {}).is_lost());
    let stopped = LayerLimits {
        threads: 2,
        most: usize::MAX,
        stopped: &|| true,
        every: LAYER_EVERY,
        checkpoint: None,
        lean_from: LEAN_FROM,
        room: || None,
    };
    assert!(!in_layers(&state, &stopped, &mut |_| {}).is_lost());
}

/// Every cell searched breadth-first in little memory (`lean_cell`, as
/// cells of many entries are) gives the verdicts and the counts the
/// search with a set gives: real deals under forced, free and complete
/// rules, on one thread and two (on two, a thread with no cell left
/// searches chunks of the other's steps; lost deals, whose counts are
/// the whole game's; the followed game's test has won ones).
#[test]
fn cells_searched_breadth_first_find_what_the_set_finds() {
    use crate::foundation::Foundation::{Forced, Free, Xpat2};
    let (mut lost, mut most_under_way) = (0, 0);
    // Each deal on one thread or two in turn (both on each: 23 s beside
    // another test, 13 s alone now; bd.78829 under complete rules on
    // both, its cells the largest).
    for (seed, foundation, threads) in [
        (78829, Forced, &[2][..]),
        (1865, Free, &[1]),
        (78829, Xpat2, &[1, 2]),
        (1865, Xpat2, &[2]),
        (1865, Forced, &[1]),
    ] {
        let state = State::new(&test_deal("bd", seed).with_foundation(foundation));
        let with_set = in_layers_with(&state, 1);
        for &threads in threads {
            let lean = LayerLimits {
                threads,
                most: usize::MAX,
                stopped: &|| false,
                every: Duration::ZERO,
                checkpoint: None,
                lean_from: 0,
                room: || None,
            };
            // Reported as they go: the positions of cells under way, in
            // no count until their cell is done.
            let found = in_layers(&state, &lean, &mut |layer| {
                if layer.done {
                    assert_eq!(layer.under_way, 0);
                }
                most_under_way = most_under_way.max(layer.under_way);
            });
            if with_set.is_lost() {
                assert_eq!(found, with_set, "bd.{seed} {foundation:?}");
            } else {
                assert!(
                    matches!(found, Suitless::Won { .. }),
                    "bd.{seed}: {found:?}"
                );
            }
        }
        lost += usize::from(with_set.is_lost());
    }
    assert_eq!(lost, 5);
    assert!(most_under_way > 0);
}

/// With no room in memory for a second cell breadth-first beside one
/// under way (`Search::claim`), the threads search such cells one at a
/// time, sharing its steps, and find what they find side by side; with
/// room, two go at once.
#[test]
fn cells_breadth_first_wait_for_room_in_memory() {
    let state = test_state("bd", 78829);
    let with_set = in_layers_with(&state, 1);
    assert!(with_set.is_lost());
    let mut most_at_once = Vec::new();
    let rooms: [fn() -> Option<u64>; 2] = [|| None, || Some(0)];
    for room in rooms {
        let mut at_once = 0;
        let limits = LayerLimits {
            threads: 2,
            most: usize::MAX,
            stopped: &|| false,
            every: Duration::ZERO,
            checkpoint: None,
            lean_from: 0,
            room,
        };
        let found = in_layers(&state, &limits, &mut |layer| {
            at_once = at_once.max(layer.lean_at_once);
        });
        assert_eq!(found, with_set, "room {:?}", room());
        most_at_once.push(at_once);
    }
    assert_eq!(most_at_once, [2, 1]);
}

/// Limits of a search in layers on `threads` that saves itself to
/// `path` at each layer's end, and stops when `stopped` says.
fn saving_each_layer<'a>(
    threads: usize,
    path: &'a std::path::Path,
    stopped: &'a (dyn Fn() -> bool + Sync),
) -> LayerLimits<'a> {
    LayerLimits {
        threads,
        most: usize::MAX,
        stopped,
        every: LAYER_EVERY,
        checkpoint: Some(Checkpoint {
            path,
            every: Duration::ZERO,
            most_bytes: u64::MAX,
            spill_over: usize::MAX,
        }),
        lean_from: LEAN_FROM,
        room: || None,
    }
}

/// Limits of a search in layers on two threads, awake and due to save
/// to `path` at every instant, inside its layers too.
fn saving_at_every_instant<'a>(
    path: &'a std::path::Path,
    stopped: &'a (dyn Fn() -> bool + Sync),
) -> LayerLimits<'a> {
    LayerLimits {
        every: Duration::ZERO,
        ..saving_each_layer(2, path, stopped)
    }
}

/// A search in layers stopped after a layer and resumed from its
/// checkpoint, again and again, ends as the search run straight does,
/// with the same count of positions: under forced, free and complete
/// rules, on one thread or two.
#[test]
fn a_search_resumed_from_its_checkpoints_is_the_search_run_straight() {
    resumed_again_and_again(usize::MAX);
}

/// The same with every entry of the layers above spilled to disk at each
/// layer's end (`spill.rs`), and read back when its layer comes: the
/// checkpoints name the spill files, the search resumed reads them, and
/// the search decided leaves none.
#[test]
fn a_search_spilling_its_entries_to_disk_is_the_search_run_straight() {
    resumed_again_and_again(0);
}

/// A spill file changed on disk after the search wrote it is refused
/// when its layer comes: the search resumed ends open, saying why, and
/// never decides on entries it cannot trust.
#[test]
fn a_damaged_spill_file_leaves_the_search_open() {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved");
    let state = test_state("bd", 78829);
    let stop = AtomicBool::new(false);
    let stopped = || stop.load(Relaxed);
    let mut limits = saving_each_layer(1, &path, &stopped);
    if let Some(c) = &mut limits.checkpoint {
        c.spill_over = 0;
    }
    let mut layers = 0;
    let found = in_layers(&state, &limits, &mut |layer: &Layer| {
        layers += usize::from(layer.done);
        if layers == 4 {
            stop.store(true, Relaxed);
        }
    });
    assert!(matches!(found, Suitless::Open { .. }));
    let resumed = Resumed::read(&state, &path).unwrap();
    let file = spill::path_of(&path, &resumed.spilled[0]);
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    stop.store(false, Relaxed);
    let mut refused = Vec::new();
    let found = resumed_in_layers(resumed, &limits, &mut |layer: &Layer| {
        if let Some(Err(message)) = &layer.spilled {
            refused.push(message.clone());
        }
    });
    assert!(matches!(found, Suitless::Open { .. }), "{found:?}");
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].contains("checksum"), "{refused:?}");
}

/// A layer's cells spilled at its start and cut short on disk before
/// they are taken: the thread that takes one cannot read it, and the
/// search ends open, saying which file, and never decides without it.
#[test]
fn a_cell_that_cannot_be_read_back_leaves_the_search_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved");
    let state = test_state("bd", 78829);
    let stopped = || false;
    let mut limits = saving_each_layer(1, &path, &stopped);
    if let Some(c) = &mut limits.checkpoint {
        c.spill_over = 0;
    }
    let (mut cut, mut refused) = (0, Vec::new());
    let found = in_layers(&state, &limits, &mut |layer: &Layer| match &layer.spilled {
        // A layer's cells just written to a file of their own.
        Some(Ok(said)) if cut == 0 && said.contains(&format!("of layer {}", layer.number)) => {
            for entry in std::fs::read_dir(dir.path()).unwrap() {
                let name = entry.unwrap().file_name().into_string().unwrap();
                if name.starts_with(&format!("saved.spill-{}-", layer.number)) {
                    let file = std::fs::OpenOptions::new()
                        .write(true)
                        .open(dir.path().join(name))
                        .unwrap();
                    file.set_len(0).unwrap();
                    cut += 1;
                }
            }
        }
        Some(Err(message)) => refused.push(message.clone()),
        _ => {}
    });
    assert!(cut > 0, "no layer's cells spilled");
    assert!(matches!(found, Suitless::Open { .. }), "{found:?}");
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].contains("cannot read back"), "{refused:?}");
}

/// The two tests above: spilled past `spill_over` bytes of entries.
fn resumed_again_and_again(spill_over: usize) {
    use crate::foundation::Foundation;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let under = |foundation, seed| State::new(&test_deal("bd", seed).with_foundation(foundation));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved");
    let states = [
        test_state("bd", 78829),
        under(Foundation::Free, 1865),
        under(Foundation::Xpat2, 78829),
    ];
    for (state, threads, step) in [(&states[0], 1, 4), (&states[1], 2, 7), (&states[2], 2, 3)] {
        let whole = in_layers_with(state, 1);
        assert!(whole.is_lost());
        let stop = AtomicBool::new(false);
        let stopped = || stop.load(Relaxed);
        let mut limits = saving_each_layer(threads, &path, &stopped);
        if let Some(c) = &mut limits.checkpoint {
            c.spill_over = spill_over;
        }
        let spill_files = || {
            std::fs::read_dir(dir.path())
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .contains(".spill-")
                })
                .count()
        };
        let mut spilled = 0;
        // Each run stops after `step` layers, its last one saved.
        let mut runs = 0;
        let mut next = None::<Resumed>;
        let found = loop {
            runs += 1;
            assert!(runs < 40);
            stop.store(false, Relaxed);
            let mut layers = 0;
            let mut progress = |layer: &Layer| {
                if layer.done {
                    layers += 1;
                    if let Some(saved) = &layer.saved {
                        assert!(saved.as_ref().is_ok_and(|s| s.bytes > 0), "{saved:?}");
                    }
                    if layers == step {
                        stop.store(true, Relaxed);
                    }
                }
            };
            let found = match next.take() {
                None => in_layers(state, &limits, &mut progress),
                Some(resumed) => resumed_in_layers(resumed, &limits, &mut progress),
            };
            if !stop.load(Relaxed) {
                break found;
            }
            assert!(matches!(found, Suitless::Open { .. }));
            let resumed = Resumed::read(state, &path).unwrap();
            assert_eq!(resumed.positions(), found.positions());
            assert!(resumed.waiting() > 0 || !resumed.spilled.is_empty());
            let by_layer = resumed.waiting_by_layer();
            let in_all = by_layer
                .iter()
                .map(|&(_, entries, _)| entries)
                .sum::<usize>();
            assert_eq!(in_all, resumed.waiting());
            assert!(by_layer.windows(2).all(|w| w[0].0 < w[1].0), "{by_layer:?}");
            assert!(
                by_layer
                    .iter()
                    .all(|&(layer, _, _)| layer >= resumed.layer())
            );
            spilled += resumed.spilled.len();
            if spill_over == usize::MAX {
                assert!(resumed.spilled.is_empty());
            }
            next = Some(resumed);
        };
        assert!(runs >= 3, "{runs} runs");
        assert_eq!(found, whole, "{threads} threads, {runs} runs");
        assert_eq!(spilled > 0, spill_over == 0, "{spilled} spill files named");
        assert_eq!(spill_files(), 0, "spill files left");
    }
}

/// A layer saved in its middle while its threads go on, the search
/// stopped right after and resumed from that save, five times, ends as
/// the search run straight does, with the same count of positions; each
/// save counts the positions of the cells done (or keeps cells under way,
/// the next test's subject): under forced and complete rules (few, large
/// cells), on two threads. (A layer of hours is then not started again
/// when its process is killed.)
#[test]
fn a_search_resumed_from_saves_inside_layers_is_the_search_run_straight() {
    saved_inside_again_and_again(usize::MAX);
}

/// The same with every layer's cells but its first on disk at its start
/// (`spill.rs`), each read back when taken: a save inside the layer names
/// its files and marks the cells still there, and the search resumed
/// reads those cells alone, none retired since (the count would grow),
/// none forgotten (it would shrink).
#[test]
fn a_search_resumed_from_saves_inside_layers_spilled_is_the_search_run_straight() {
    saved_inside_again_and_again(0);
}

/// The two tests above: spilled past `spill_over` bytes of entries.
/// Spilled, whether a save finds cells on disk depends on the threads'
/// timing (one in five tries found none): a few tries at most.
fn saved_inside_again_and_again(spill_over: usize) {
    let tries = if spill_over == 0 { 8 } else { 1 };
    let marked = (0..tries)
        .map(|_| saved_inside_and_resumed(spill_over))
        .find(|&marked| marked > 0)
        .unwrap_or(0);
    assert_eq!(marked > 0, spill_over == 0, "{marked} cells marked on disk");
}

/// Each save inside a layer taken, the search stopped and resumed from
/// it, checked against the search run straight: the cells the saves
/// marked on disk.
fn saved_inside_and_resumed(spill_over: usize) -> usize {
    use crate::foundation::Foundation;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let (dir, kept) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let path = dir.path().join("saved");
    // The checkpoint and its spill files, copied from one directory to
    // the other (the files of `to` removed first): a process killed
    // right after that save would leave them so.
    let copy_all = |from: &std::path::Path, to: &std::path::Path| {
        for entry in std::fs::read_dir(to).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name().to_string_lossy().starts_with("saved") {
                std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
            }
        }
    };
    let complete = State::new(&test_deal("bd", 78829).with_foundation(Foundation::Xpat2));
    let mut marked = 0;
    let on_disk = |(_, cell, _): &(usize, u64, pile::Pile)| cell & checkpoint::ON_DISK != 0;
    for state in [test_state("bd", 78829), complete] {
        let whole = in_layers_with(&state, 1);
        let stop = AtomicBool::new(false);
        let stopped = || stop.load(Relaxed);
        // A layer of more than a few cells is saved in its middle.
        let mut limits = saving_at_every_instant(&path, &stopped);
        if let Some(c) = &mut limits.checkpoint {
            c.spill_over = spill_over;
        }
        if spill_over == 0 {
            // A cell at a time, breadth-first, the other thread helping:
            // a save finds cells not yet taken, on disk (small cells
            // searched with the set are all taken before a save comes).
            (limits.lean_from, limits.room) = (0, || Some(0));
        }
        // The last run unsaved: saved, it would save at every instant.
        // (Its spill files are named after the checkpoint, which stays.)
        let mut unsaved = saving_each_layer(2, &path, &stopped);
        if let Some(c) = &mut unsaved.checkpoint {
            c.every = Duration::MAX;
            c.spill_over = spill_over;
        }
        // Runs, and those stopped after a save inside a layer.
        let (mut runs, mut inside) = (0, 0);
        let mut next = None::<Resumed>;
        let found = loop {
            runs += 1;
            assert!(runs <= 6);
            stop.store(false, Relaxed);
            let limits = if runs <= 5 { &limits } else { &unsaved };
            let mut saved_inside = false;
            let mut progress = |layer: &Layer| {
                // Every save reads back: none is written with nothing in
                // it (all on disk, or all retired), which would replace
                // the last good one.
                if let Some(Ok(_)) = &layer.saved
                    && let Err(e) = Resumed::read(&state, &path)
                {
                    panic!("a save that cannot be read back: {e}");
                }
                if let (false, Some(saved)) = (layer.done, &layer.saved) {
                    assert!(saved.as_ref().is_ok_and(|s| s.bytes > 0), "{saved:?}");
                    // Something new: cells retired, or cells under way kept.
                    // Breadth-first, a save as a layer begins may come
                    // before either: the next one is taken, so that cells
                    // retired in the layer are on disk too.
                    let cells_kept = saved.as_ref().map_or(0, |s| s.under_way);
                    if layer.positions == 0 && cells_kept == 0 {
                        assert_eq!(spill_over, 0, "{layer:?}");
                        return;
                    }
                    // Kept as it is: the layer may end, and be saved at
                    // its end, before its threads see the stop.
                    if !saved_inside {
                        copy_all(dir.path(), kept.path());
                    }
                    saved_inside = true;
                    stop.store(true, Relaxed);
                }
            };
            let found = match next.take() {
                None => in_layers(&state, limits, &mut progress),
                Some(resumed) => resumed_in_layers(resumed, limits, &mut progress),
            };
            if !stop.load(Relaxed) {
                break found;
            }
            inside += usize::from(saved_inside);
            assert!(matches!(found, Suitless::Open { .. }));
            // The search went on while it saved, and until it stopped.
            copy_all(kept.path(), dir.path());
            let resumed = Resumed::read(&state, &path).unwrap();
            assert!(resumed.positions() <= found.positions());
            marked += resumed.cells.iter().filter(|c| on_disk(c)).count();
            next = Some(resumed);
        };
        // Breadth-first, a resumed search's last layers can end between
        // two looks of the thread that saves.
        assert_eq!(runs, inside + 1);
        assert!(
            inside == 5 || (spill_over == 0 && inside > 0),
            "{inside} saves"
        );
        assert_eq!(found, whole, "\n{state}");
    }
    marked
}

/// A save inside a layer that kept cells under way with the positions
/// they had searched, the search stopped right after and resumed from
/// it, ends as the search run straight does, with the same count of
/// positions (a cell resumed from its entries alone, what it had
/// searched forgotten, would count fewer): under forced and complete
/// rules (under free rules bd.1865's cells hold a position or two), on
/// two threads, its cells searched with the set or breadth-first. (A
/// cell of an hour is then not started again when its process is
/// killed.)
#[test]
fn a_search_resumed_with_cells_under_way_is_the_search_run_straight() {
    use crate::foundation::Foundation;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    let dir = tempfile::tempdir().unwrap();
    let (path, kept) = (dir.path().join("saved"), dir.path().join("kept"));
    let under = |foundation, seed| State::new(&test_deal("bd", seed).with_foundation(foundation));
    // Cells searched with the set, or breadth-first, each resumed the
    // other way.
    let states = [
        test_state("bd", 78829),
        under(Foundation::Xpat2, 1865),
        under(Foundation::Xpat2, 78829),
    ];
    let each_way = |(at, s)| [(at, s, LEAN_FROM), (at, s, 0)];
    for (at, state, lean_from) in states.iter().enumerate().flat_map(each_way) {
        let whole = in_layers_with(state, 1);
        let stop = AtomicBool::new(false);
        let stopped = || stop.load(Relaxed);
        // Each save inside a layer asks its threads to keep their cells;
        // the last game's, breadth-first, have no room in memory for a
        // second at once nor for a copy: saves come while a thread waits
        // for room, and keep no cell.
        let no_room = at == 2 && lean_from == 0;
        let limits = LayerLimits {
            lean_from,
            room: if no_room { || Some(0) } else { || None },
            ..saving_at_every_instant(&path, &stopped)
        };
        // The latest save that kept cells (any save, where none can) is
        // copied, and the search stopped at the twentieth: cells kept
        // later in their search (breadth-first, in a later step, with
        // children found in it).
        let copied = AtomicUsize::new(0);
        let mut progress = |layer: &Layer| {
            if let (false, Some(Ok(saved)), false) = (layer.done, &layer.saved, stop.load(Relaxed))
                && (saved.under_way > 0 || no_room)
            {
                assert!(saved.under_way == 0 || !no_room, "{saved:?}");
                std::fs::copy(&path, &kept).unwrap();
                if copied.fetch_add(1, Relaxed) + 1 >= 20 {
                    stop.store(true, Relaxed);
                }
            }
        };
        // Whether a save finds a cell with positions searched depends on
        // the threads' timing (small cells end between two saves): a
        // few runs at most.
        for _ in 0..20 {
            in_layers(state, &limits, &mut progress);
            if copied.load(Relaxed) > 0 {
                break;
            }
        }
        assert!(
            copied.load(Relaxed) > 0,
            "no cell kept under way in 20 runs, lean from {lean_from}\n{state}"
        );
        let resumed = Resumed::read(state, &kept).unwrap();
        assert_eq!(resumed.under_way() > 0, !no_room);
        // Each cell kept: the positions searched and those left to search
        // are apart, and both there; and every child in the cell of a
        // position searched is one or the other (a position counted
        // searched whose moves were not all made breaks that).
        let members = |pile: &pile::Pile| {
            let mut all = Vec::new();
            pile.for_each(|runs| all.push(runs));
            all.sort_unstable();
            all.dedup();
            all
        };
        let (game, start) = Game::of(state).unwrap();
        let keys = layers::Keys::of(&game, &start);
        for (layer, cell, searched) in &resumed.cells {
            if cell & checkpoint::UNDER_WAY == 0 {
                continue;
            }
            let (_, _, left) = resumed
                .cells
                .iter()
                .find(|(l, c, _)| l == layer && *c == cell & !checkpoint::UNDER_WAY)
                .expect("the cell kept is saved");
            let (searched, left) = (members(searched), members(left));
            assert!(!searched.is_empty() && !left.is_empty());
            assert!(
                searched
                    .iter()
                    .all(|runs| left.binary_search(runs).is_err())
            );
            let cell = cell & !checkpoint::UNDER_WAY;
            let fixed_cards = game.fixed_cards(&keys.position(cell, 0));
            for &runs in &searched {
                let p = keys.position(cell, runs);
                game.for_each_child_of(&p, fixed_cards, |child| {
                    if keys.cell(&child) == cell {
                        let runs = game.entry(&keys, &child).unwrap();
                        assert!(
                            searched.binary_search(&runs).is_ok()
                                || left.binary_search(&runs).is_ok(),
                            "a child of a position searched is lost\n{state}"
                        );
                    }
                });
            }
        }
        stop.store(false, Relaxed);
        let unsaved = LayerLimits {
            checkpoint: None,
            lean_from: LEAN_FROM - lean_from,
            room: || None,
            ..saving_each_layer(2, &path, &stopped)
        };
        let found = resumed_in_layers(resumed, &unsaved, &mut |_| {});
        assert_eq!(found, whole, "\n{state}");
    }
}

/// A checkpoint is resumed only by its own game, and whole: one of
/// another deal or other rules, one cut short anywhere, one with a byte
/// changed and a file that is not one are each refused with a reason.
#[test]
fn a_checkpoint_is_refused_unless_whole_and_of_its_game() {
    use crate::foundation::Foundation;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let state = test_state("bd", 78829);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved");
    let stop = AtomicBool::new(false);
    let stopped = || stop.load(Relaxed);
    let limits = saving_each_layer(1, &path, &stopped);
    let found = in_layers(&state, &limits, &mut |layer| {
        if layer.done && layer.number >= 12 {
            stop.store(true, Relaxed);
        }
    });
    assert!(matches!(found, Suitless::Open { .. }));
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 10_000, "{} bytes", bytes.len());
    assert!(Resumed::read(&state, &path).is_ok());
    let others = [
        test_state("bd", 78830),
        State::new(&test_deal("bd", 78829).with_foundation(Foundation::Free)),
        State::new(&test_deal("bd", 78829).with_foundation(Foundation::Xpat2)),
    ];
    for other in &others {
        let refused = Resumed::read(other, &path).err().unwrap();
        assert!(refused.contains("another game"), "{refused}");
    }
    // Nor the same deal with cards followed.
    let clubs = crate::cards::SUIT_CARDS;
    let refused = Resumed::read_followed(&state, clubs, &path).err().unwrap();
    assert!(refused.contains("another game"), "{refused}");
    let damaged = dir.path().join("damaged");
    let refused = |file: &[u8]| {
        std::fs::write(&damaged, file).unwrap();
        Resumed::read(&state, &damaged).err()
    };
    let step = bytes.len() / 97;
    for cut in (0..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
        assert!(refused(&bytes[..cut]).is_some(), "cut at {cut}");
    }
    for at in (60..bytes.len()).step_by(step) {
        let mut changed = bytes.clone();
        changed[at] ^= 0x10;
        assert!(refused(&changed).is_some(), "byte {at} changed");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(refused(&longer).is_some());
    assert!(
        refused(b"not a checkpoint")
            .unwrap()
            .contains("not a checkpoint")
    );
    assert!(Resumed::read(&state, &dir.path().join("none")).is_err());
}

/// A checkpoint of `state`'s game at `path` holding `cells` (layer, key,
/// pile), at layer 5 after 100 positions, read back.
fn saved_with(
    state: &State,
    path: &std::path::Path,
    cells: &[(usize, u64, &pile::Pile)],
) -> Result<Resumed, String> {
    checkpoint::write(state, 0, path, u64::MAX, (5, 100), &[], |write| {
        cells
            .iter()
            .try_for_each(|&(layer, cell, pile)| write(layer, cell, pile))
    })
    .unwrap();
    Resumed::read(state, path)
}

/// The positions searched of a cell saved under way are read only for a
/// cell of the layer under way that the file holds: one for a cell it
/// does not hold, or in a higher layer, is refused; one beside its cell
/// is read, and not counted among the entries waiting.
#[test]
fn positions_searched_are_read_only_beside_their_cell() {
    let state = test_state("bd", 78829);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved");
    let pile = |members: &[u64]| {
        let mut pile = pile::Pile::default();
        members.iter().for_each(|&m| pile.add(m).unwrap());
        pile
    };
    let (left, searched) = (pile(&[3, 9]), pile(&[1, 4, 7]));
    let marked = checkpoint::UNDER_WAY;
    let save = |cells: &[(usize, u64, &pile::Pile)]| saved_with(&state, &path, cells);
    let read = save(&[(5, 2, &left), (5, 2 | marked, &searched), (6, 8, &left)]).unwrap();
    assert_eq!((read.waiting(), read.under_way()), (4, 1));
    assert_eq!(read.waiting_by_layer(), [(5, 2, 1), (6, 2, 1)]);
    for cells in [
        [(5, 2, &left), (5, 3 | marked, &searched), (6, 8, &left)],
        [(5, 2, &left), (6, 8, &left), (6, 8 | marked, &searched)],
    ] {
        let refused = save(&cells).err().unwrap();
        assert!(refused.contains("damaged"), "{refused}");
    }
}

/// A cell marked on disk is read only in the layer under way, with a
/// pile of nothing: one in a higher layer, one with entries, or one
/// marked under way too, is refused; one beside its cell, or alone, is
/// read, and counted neither among the entries nor the cells waiting.
#[test]
fn cells_on_disk_are_marked_only_in_the_layer_under_way() {
    let state = test_state("bd", 78829);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved");
    let (none, left) = (pile::Pile::default(), {
        let mut pile = pile::Pile::default();
        [3, 9].iter().for_each(|&m| pile.add(m).unwrap());
        pile
    });
    let on_disk = checkpoint::ON_DISK;
    let save = |cells: &[(usize, u64, &pile::Pile)]| saved_with(&state, &path, cells);
    let read = save(&[
        (5, 2, &left),
        (5, 2 | on_disk, &none),
        (5, 4 | on_disk, &none),
    ])
    .unwrap();
    assert_eq!(read.waiting(), 2);
    assert_eq!(read.waiting_by_layer(), [(5, 2, 1)]);
    for cells in [
        [(5, 2, &left), (6, 2, &left), (6, 4 | on_disk, &none)],
        [(5, 2, &left), (5, 2 | on_disk, &left), (6, 8, &left)],
        [
            (5, 2, &left),
            (5, 2 | on_disk | checkpoint::UNDER_WAY, &none),
            (6, 8, &left),
        ],
    ] {
        let refused = save(&cells).err().unwrap();
        assert!(refused.contains("damaged"), "{refused}");
    }
}

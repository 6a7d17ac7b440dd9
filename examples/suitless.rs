//! Plays out the suitless game of Baker's Dozen deals from Rust: the
//! proof the search asks for where it is about to be long, alone, with a
//! limit of positions instead of a share of the time (a benchmark of it,
//! and a way to ask it of deals with more room than a search gives it).
//!
//! Usage: `cargo run --release --example suitless -- [forced|free|xpat2]
//! [--follow CARDS] [--layers [--jobs N] [--lean-from ENTRIES]
//! [--checkpoint FILE [--every MINUTES] [--spill-over GB]]] [MOST] bd.SEED...`,
//! e.g. `forced 20000000 bd.78829 bd.1`.
//! Prints one line per deal: `lost` (the suitless game never wins, so
//! the deal is lost under those rules), `won` (it wins, which proves
//! nothing), `open` (it reached MOST positions, default 20 000 000), the
//! positions reached and the seconds taken. With `--layers`, the search
//! in layers a cell at a time (`state::suitless_in_layers`, for proofs
//! of large games: MOST bounds the positions waiting, some 5 bytes
//! each), on N threads (default 1), a line on stderr per layer, and one
//! every ten minutes while a layer is under way (its cells done so far).
//! Cells of ENTRIES entries or more are searched breadth-first (default
//! `SUITLESS_LEAN_FROM`; 0 for every cell, to measure that way).
//!
//! With `--follow CARDS`, the game with those cards followed
//! (`state::suitless_followed`; with `--layers`,
//! `state::suitless_followed_in_layers`): CARDS is `+`-joined suits (`0`
//! to `3`: clubs, spades, hearts, diamonds) and ranks (`r1` to `r13`:
//! the four cards of that rank), at most 16 cards, e.g. `2` or
//! `r12+r11`.
//!
//! With `--checkpoint FILE` (one deal), the search in layers saves
//! itself to FILE every MINUTES (default 10), at the end of a layer or,
//! in a layer that runs longer, in its middle, and
//! a run that finds FILE resumes from it (after checking it is the
//! same deal under the same rules, the same cards followed): a proof of hours killed halfway goes
//! on from its last save. The seconds printed are this run's. FILE is
//! removed once the game is decided, kept while it is open. With
//! `--spill-over GB`, past GB gigabytes of entries waiting, those of the
//! farthest layers go to files beside FILE (`FILE.spill-LAYER-N`) until
//! half as many are held, and a layer's cells beyond its first ones at
//! its start; each cell is read back when a thread takes it. The
//! checkpoint names the files, and they are removed with it. Exit 3 on a
//! bad argument or a checkpoint that cannot be read.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use xpat_solver::cards::{KING, RANK_CARDS, SUIT_CARDS, SUITS, card_of};
use xpat_solver::deal::Deal;
use xpat_solver::foundation::Foundation;
use xpat_solver::rules::GameId;
use xpat_solver::state::{
    SUITLESS_EVERY, SUITLESS_LEAN_FROM, SUITLESS_MOST_FOLLOWED, State, Suitless,
    SuitlessCheckpoint, SuitlessLayer, SuitlessLimits, SuitlessResumed, suitless,
    suitless_followed, suitless_followed_in_layers, suitless_resumed_in_layers,
};

/// The binary's allocator (huge pages for the big tables; the spare).
#[global_allocator]
static ALLOCATOR: xpat_solver::memory::WithSpare = xpat_solver::memory::WithSpare;

fn main() -> ExitCode {
    xpat_solver::memory::return_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let asked = match parse(&args) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("suitless: {message}");
            return ExitCode::from(3);
        }
    };
    for &id in &asked.deals {
        let state = State::new(&Deal::new(id).with_foundation(asked.foundation));
        let start = Instant::now();
        let found = match asked.layers {
            None => match asked.follow {
                Some(cards) => suitless_followed(&state, cards, asked.most, || false),
                None => suitless(&state, asked.most, || false),
            },
            Some(threads) => {
                let checkpoint =
                    asked
                        .checkpoint
                        .as_ref()
                        .map(|(path, every)| SuitlessCheckpoint {
                            path,
                            every: *every,
                            most_bytes: u64::MAX,
                            spill_over: asked.spill_over,
                        });
                let limits = SuitlessLimits {
                    threads,
                    most: asked.most,
                    stopped: &|| false,
                    every: SUITLESS_EVERY,
                    checkpoint,
                    lean_from: asked.lean_from,
                    room: xpat_solver::memory::usable,
                };
                // A layer of a large game takes an hour (bd.1649's 25th
                // under complete rules): a log shows it under way every
                // ten minutes, so that a watcher can tell how far it is.
                let mut last_told = Instant::now();
                let mut progress = |layer: &SuitlessLayer| {
                    let saved = layer.saved.is_some() || layer.spilled.is_some();
                    if layer.done || saved || last_told.elapsed() >= UNDER_WAY_EVERY {
                        report(id, layer);
                        last_told = Instant::now();
                    }
                };
                let cards = asked.follow.unwrap_or(0);
                match checkpoint.filter(|c| c.path.exists()) {
                    None => suitless_followed_in_layers(&state, cards, &limits, &mut progress),
                    Some(c) => match SuitlessResumed::read_followed(&state, cards, c.path) {
                        Ok(resumed) => {
                            eprintln!(
                                "{id}: resumed from {} at layer {}: {} positions searched, {} waiting{}, read in {:.1} s",
                                c.path.display(),
                                resumed.layer(),
                                resumed.positions(),
                                resumed.waiting(),
                                match resumed.spill_files() {
                                    0 => String::new(),
                                    n => format!(" and more in {n} spill files"),
                                },
                                start.elapsed().as_secs_f64()
                            );
                            let by_layer = resumed.waiting_by_layer();
                            let by_layer: Vec<String> = by_layer
                                .iter()
                                .map(|(layer, entries, cells)| {
                                    format!("layer {layer}: {entries} in {cells} cells")
                                })
                                .collect();
                            eprintln!("{id}: waiting by layer: {}", by_layer.join(", "));
                            suitless_resumed_in_layers(resumed, &limits, &mut progress)
                        }
                        Err(message) => {
                            eprintln!("suitless: {message}");
                            return ExitCode::from(3);
                        }
                    },
                }
            }
        };
        let verdict = match found {
            Suitless::Lost { .. } => "lost",
            Suitless::Won { .. } => "won",
            Suitless::Open { .. } => "open",
        };
        if let Some((path, _)) = &asked.checkpoint
            && verdict != "open"
            && path.exists()
        {
            match std::fs::remove_file(path) {
                Ok(()) => eprintln!("{id}: decided; checkpoint {} removed", path.display()),
                Err(e) => eprintln!("{id}: decided; cannot remove {}: {e}", path.display()),
            }
        }
        println!(
            "{id} {verdict} {} positions {:.3} s",
            found.positions(),
            start.elapsed().as_secs_f64()
        );
    }
    ExitCode::SUCCESS
}

/// How often a layer under way is told of.
const UNDER_WAY_EVERY: Duration = Duration::from_secs(600);

/// A layer's line on stderr, and its checkpoint's.
fn report(id: GameId, layer: &SuitlessLayer) {
    eprintln!(
        "{id} layer {}{}: {} positions in {} cells{}, {} in all, {} waiting ({:.1} MB), {:.1} s",
        layer.number,
        if layer.done { "" } else { " under way" },
        layer.positions,
        layer.cells,
        match layer.under_way {
            0 => String::new(),
            n => format!(" and {n} in cells under way"),
        },
        layer.total,
        layer.waiting,
        layer.bytes as f64 / 1e6,
        layer.elapsed.as_secs_f64()
    );
    let when = if layer.done { "after" } else { "inside" };
    match &layer.saved {
        Some(Ok(saved)) => eprintln!(
            "{id} checkpoint {when} layer {}: {:.1} MB in {:.1} s{}",
            layer.number,
            saved.bytes as f64 / 1e6,
            saved.took.as_secs_f64(),
            match saved.under_way {
                0 => String::new(),
                1 => ", 1 cell under way kept with what it had searched".to_string(),
                n => format!(", {n} cells under way kept with what they had searched"),
            }
        ),
        Some(Err(message)) => {
            eprintln!(
                "{id} no checkpoint {when} layer {}: {message}",
                layer.number
            )
        }
        None => {}
    }
    match &layer.spilled {
        Some(Ok(what)) => eprintln!("{id} layer {}: {what}", layer.number),
        Some(Err(message)) => eprintln!("{id} layer {}: {message}", layer.number),
        None => {}
    }
}

/// The cards of `--follow`'s argument, a bit each (the module doc).
fn followed_cards(arg: &str) -> Option<u64> {
    let mut cards = 0u64;
    for item in arg.split('+') {
        cards |= match item.strip_prefix('r') {
            Some(rank) => {
                let rank = rank.parse::<u8>().ok().filter(|r| (1..=KING).contains(r))?;
                RANK_CARDS << card_of(rank, 0)
            }
            None => {
                let suit = item
                    .parse::<u8>()
                    .ok()
                    .filter(|&s| usize::from(s) < SUITS)?;
                SUIT_CARDS << suit
            }
        };
    }
    (cards.count_ones() as usize <= SUITLESS_MOST_FOLLOWED).then_some(cards)
}

/// What the command line asks.
struct Asked {
    foundation: Foundation,
    /// Threads for `--layers`; none without it.
    layers: Option<usize>,
    /// Cells searched breadth-first from this many entries on.
    lean_from: usize,
    /// The cards `--follow` names, a bit each.
    follow: Option<u64>,
    /// The checkpoint's file and the time between saves.
    checkpoint: Option<(PathBuf, Duration)>,
    /// Bytes of entries waiting past which the farthest go to disk.
    spill_over: usize,
    most: usize,
    deals: Vec<GameId>,
}

/// The rules, the search, the limit and the deals of the command line.
fn parse(args: &[String]) -> Result<Asked, String> {
    let usage = "usage: suitless [forced|free|xpat2] [--follow CARDS] [--layers [--jobs N] [--lean-from ENTRIES] [--checkpoint FILE [--every MINUTES] [--spill-over GB]]] [MOST] bd.SEED...";
    let mut rest = args;
    let mut foundation = Foundation::Forced;
    if let Some(first) = rest.first() {
        let named = match first.as_str() {
            "forced" => Some(Foundation::Forced),
            "free" => Some(Foundation::Free),
            "xpat2" => Some(Foundation::Xpat2),
            _ => None,
        };
        if let Some(named) = named {
            foundation = named;
            rest = &rest[1..];
        }
    }
    let mut layers = None;
    let mut lean_from = SUITLESS_LEAN_FROM;
    let mut checkpoint = None;
    let mut spill_over = usize::MAX;
    let mut follow = None;
    if rest.first().is_some_and(|a| a == "--follow") {
        let cards = rest.get(1).and_then(|a| followed_cards(a));
        follow = Some(cards.ok_or(format!(
            "--follow needs suits 0 to 3 and ranks r1 to r13 joined by +, at most {SUITLESS_MOST_FOLLOWED} cards; {usage}"
        ))?);
        rest = &rest[2..];
    }
    if rest.first().is_some_and(|a| a == "--layers") {
        layers = Some(1);
        rest = &rest[1..];
        if rest.first().is_some_and(|a| a == "--jobs") {
            let jobs = rest.get(1).and_then(|a| a.parse::<usize>().ok());
            layers = Some(
                jobs.filter(|&n| n > 0)
                    .ok_or(format!("--jobs needs a number of threads; {usage}"))?,
            );
            rest = &rest[2..];
        }
        if rest.first().is_some_and(|a| a == "--lean-from") {
            let entries = rest.get(1).and_then(|a| a.parse::<usize>().ok());
            lean_from = entries.ok_or(format!("--lean-from needs a number of entries; {usage}"))?;
            rest = &rest[2..];
        }
        if rest.first().is_some_and(|a| a == "--checkpoint") {
            let path = rest
                .get(1)
                .filter(|a| !a.is_empty())
                .ok_or(format!("--checkpoint needs a file; {usage}"))?;
            rest = &rest[2..];
            let mut every = Duration::from_secs(600);
            if rest.first().is_some_and(|a| a == "--every") {
                let minutes = rest.get(1).and_then(|a| a.parse::<f64>().ok());
                let minutes = minutes
                    .filter(|m| m.is_finite() && *m >= 0.0 && *m < 1e6)
                    .ok_or(format!("--every needs minutes; {usage}"))?;
                every = Duration::from_secs_f64(minutes * 60.0);
                rest = &rest[2..];
            }
            checkpoint = Some((PathBuf::from(path), every));
            if rest.first().is_some_and(|a| a == "--spill-over") {
                let gb = rest.get(1).and_then(|a| a.parse::<f64>().ok());
                let gb = gb
                    .filter(|g| g.is_finite() && *g >= 0.0 && *g < 1e6)
                    .ok_or(format!("--spill-over needs gigabytes; {usage}"))?;
                spill_over = (gb * 1e9) as usize;
                rest = &rest[2..];
            }
        }
    }
    let mut most = 20_000_000;
    if let Some(limit) = rest.first().and_then(|a| a.parse::<usize>().ok()) {
        most = limit;
        rest = &rest[1..];
    }
    if rest.is_empty() {
        return Err(usage.to_string());
    }
    let deals = rest
        .iter()
        .map(|a| a.parse::<GameId>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{e}; {usage}"))?;
    if checkpoint.is_some() && deals.len() != 1 {
        return Err(format!(
            "--checkpoint saves the search of one deal; {usage}"
        ));
    }
    Ok(Asked {
        foundation,
        layers,
        lean_from,
        follow,
        checkpoint,
        spill_over,
        most,
        deals,
    })
}

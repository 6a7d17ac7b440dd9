//! Plays out the suitless game of Baker's Dozen deals from Rust: the
//! proof the search asks for where it is about to be long, alone, with a
//! limit of positions instead of a share of the time (a benchmark of it,
//! and a way to ask it of deals with more room than a search gives it).
//!
//! Usage: `cargo run --release --example suitless -- [forced|free|xpat2]
//! [--layers [--jobs N]] [MOST] bd.SEED...`, e.g. `forced 20000000
//! bd.78829 bd.1`. Prints one line per deal: `lost` (the suitless game
//! never wins, so the deal is lost under those rules), `won` (it wins,
//! which proves nothing), `open` (it reached MOST positions, default
//! 20 000 000), the positions reached and
//! the seconds taken. With `--layers`, the search in layers a cell at a
//! time (`state::suitless_in_layers`, for proofs of large games: MOST
//! bounds the positions waiting, some 5 bytes each), on N threads
//! (default 1), a line on stderr per layer. Exit 3 on a bad argument.

use std::process::ExitCode;
use std::time::Instant;

use xpat_solver::deal::Deal;
use xpat_solver::foundation::Foundation;
use xpat_solver::rules::GameId;
use xpat_solver::state::{
    SUITLESS_EVERY, State, Suitless, SuitlessLimits, suitless, suitless_in_layers,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (foundation, layers, most, deals) = match parse(&args) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("suitless: {message}");
            return ExitCode::from(3);
        }
    };
    for id in deals {
        let state = State::new(&Deal::new(id).with_foundation(foundation));
        let start = Instant::now();
        let found = match layers {
            None => suitless(&state, most, || false),
            Some(threads) => {
                let limits = SuitlessLimits {
                    threads,
                    most,
                    stopped: &|| false,
                    every: SUITLESS_EVERY,
                };
                suitless_in_layers(&state, &limits, &mut |layer| {
                    if !layer.done {
                        return;
                    }
                    eprintln!(
                        "{id} layer {}: {} positions in {} cells, {} in all, {} waiting ({:.1} MB), {:.1} s",
                        layer.number,
                        layer.positions,
                        layer.cells,
                        layer.total,
                        layer.waiting,
                        layer.bytes as f64 / 1e6,
                        layer.elapsed.as_secs_f64()
                    );
                })
            }
        };
        let verdict = match found {
            Suitless::Lost { .. } => "lost",
            Suitless::Won { .. } => "won",
            Suitless::Open { .. } => "open",
        };
        println!(
            "{id} {verdict} {} positions {:.3} s",
            found.positions(),
            start.elapsed().as_secs_f64()
        );
    }
    ExitCode::SUCCESS
}

/// What the command line asks: rules, threads for `--layers` (none
/// without it), the limit and the deals.
type Asked = (Foundation, Option<usize>, usize, Vec<GameId>);

/// The rules, the search, the limit and the deals of the command line.
fn parse(args: &[String]) -> Result<Asked, String> {
    let usage = "usage: suitless [forced|free|xpat2] [--layers [--jobs N]] [MOST] bd.SEED...";
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
    Ok((foundation, layers, most, deals))
}

//! Plays out the suitless game of Baker's Dozen deals from Rust: the
//! proof the search asks for where it is about to be long, alone, with a
//! limit of positions instead of a share of the time (a benchmark of it,
//! and a way to ask it of deals with more room than a search gives it).
//!
//! Usage: `cargo run --release --example suitless -- [forced|free|xpat2]
//! [MOST] bd.SEED...`, e.g. `forced 20000000 bd.78829 bd.1`. Prints one
//! line per deal: `lost` (the suitless game never wins, so the deal is
//! lost under those rules), `open` (it won, or reached MOST positions,
//! default 20 000 000), the positions reached and the seconds taken.
//! Exit 3 on a bad argument.

use std::process::ExitCode;
use std::time::Instant;

use xpat_solver::deal::Deal;
use xpat_solver::foundation::Foundation;
use xpat_solver::rules::GameId;
use xpat_solver::state::{State, suitless};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (foundation, most, deals) = match parse(&args) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("suitless: {message}");
            return ExitCode::from(3);
        }
    };
    for id in deals {
        let state = State::new(&Deal::new(id).with_foundation(foundation));
        let start = Instant::now();
        let found = suitless(&state, most, || false);
        let verdict = if found.is_lost() { "lost" } else { "open" };
        println!(
            "{id} {verdict} {} positions {:.3} s",
            found.positions(),
            start.elapsed().as_secs_f64()
        );
    }
    ExitCode::SUCCESS
}

/// The rules, the limit and the deals of the command line.
fn parse(args: &[String]) -> Result<(Foundation, usize, Vec<GameId>), String> {
    let usage = "usage: suitless [forced|free|xpat2] [MOST] bd.SEED...";
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
    Ok((foundation, most, deals))
}

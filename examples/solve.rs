//! Solves one deal from Rust and prints the solution file: the library's
//! `-search`, without the command line's options and files.
//!
//! Usage: `cargo run --release --example solve -- RULE.SEED [forced|free]`,
//! e.g. `FreeCell.123` or `bd.7 free`. Prints one move per line (`CARD
//! DEST`, SPEC §6), then the verdict the solution replays to; exit 0 when
//! solved, 1 when a limit stopped the search, 2 when the deal has no
//! solution, 3 on a bad argument.

use std::process::ExitCode;

use xpat_solver::check::{self, Verdict};
use xpat_solver::deal::Deal;
use xpat_solver::foundation::Foundation;
use xpat_solver::rules::GameId;
use xpat_solver::search::{self, Limits, Outcome};
use xpat_solver::solution;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let deal = match parse(&args) {
        Ok(deal) => deal,
        Err(message) => {
            eprintln!("solve: {message}");
            return ExitCode::from(3);
        }
    };
    let report = search::search(&deal, &Limits::default(), None);
    match report.outcome {
        Outcome::Solved(moves) => {
            print!("{}", solution::format(&moves));
            // The moves as a checker reads them back from the file.
            match check::replay_moves(&deal, &moves) {
                Verdict::Won { moves } => println!("{}: won in {moves} moves", deal.id),
                Verdict::Failed { line, why } => println!("{}: line {line}: {why}", deal.id),
            }
            ExitCode::SUCCESS
        }
        Outcome::Insoluble => {
            println!("{}: no solution", deal.id);
            ExitCode::from(2)
        }
        Outcome::GaveUp(limit) => {
            println!("{}: undecided ({limit})", deal.id);
            ExitCode::from(1)
        }
    }
}

/// The deal of `RULE.SEED`, played by the foundation rule named after it.
fn parse(args: &[String]) -> Result<Deal, String> {
    let usage = "usage: solve RULE.SEED [forced|free]";
    let (id, rule) = match args {
        [id] => (id, "forced"),
        [id, rule] => (id, rule.as_str()),
        _ => return Err(usage.to_string()),
    };
    let id: GameId = id.parse()?;
    let foundation = match rule {
        "forced" => Foundation::Forced,
        "free" => Foundation::Free,
        other => return Err(format!("'{other}' is not forced or free; {usage}")),
    };
    Ok(Deal::new(id).with_foundation(foundation))
}

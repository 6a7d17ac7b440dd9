//! Surveys a small range of deals from Rust and prints the shares: the
//! library's `xpat-solver survey`, one deal after another, without its
//! files, resuming or workers.
//!
//! Usage: `cargo run --release --example survey -- GAME FIRST LAST
//! [SECONDS]`, e.g. `fc 1 100`: every seed from FIRST to LAST of GAME
//! (a name or alias of SPEC §1), each searched under forced foundation
//! moves for at most SECONDS (default 10). Prints the summary table that
//! `survey --summary` prints: per game the deals won, proven lost and
//! undecided, the solvable share with its 95% interval, times and lengths.

use std::process::ExitCode;
use std::time::Duration;

use xpat_solver::deal::Deal;
use xpat_solver::foundation::Foundation;
use xpat_solver::rules::{self, GameId, MAX_SEED, Rules};
use xpat_solver::search::{self, Limits};
use xpat_solver::shared_args::timeout_seconds;
use xpat_solver::survey::args::Under;
use xpat_solver::survey::row::Row;
use xpat_solver::survey::summary::Results;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (rules, seeds, timeout) = match parse(&args) {
        Ok(plan) => plan,
        Err(message) => {
            eprintln!("survey: {message}");
            return ExitCode::from(3);
        }
    };
    let limits = Limits {
        timeout: Some(timeout),
        ..Limits::default()
    };
    let mut results = Results::under(Under::Forced);
    for seed in seeds {
        let id = GameId { rules, seed };
        let report = search::search(&Deal::new(id), &limits, None);
        let row = Row::new(id, Foundation::Forced, Under::Forced, &report);
        eprintln!("{id}: {}", row.verdict.word());
        results.add(&row);
    }
    print!("{}", results.render());
    ExitCode::SUCCESS
}

/// The game, its seeds and each deal's time limit.
fn parse(
    args: &[String],
) -> Result<(&'static Rules, std::ops::RangeInclusive<u32>, Duration), String> {
    let usage = "usage: survey GAME FIRST LAST [SECONDS]";
    let (game, first, last, seconds) = match args {
        [g, f, l] => (g, f, l, "10"),
        [g, f, l, s] => (g, f, l, s.as_str()),
        _ => return Err(usage.to_string()),
    };
    let rules = rules::find(game).ok_or_else(|| format!("unknown game '{game}'; {usage}"))?;
    let seed = |text: &str| {
        text.parse::<u32>()
            .ok()
            .filter(|s| (1..=MAX_SEED).contains(s))
            .ok_or_else(|| format!("seed '{text}' is not a number from 1 to {MAX_SEED}"))
    };
    let (first, last) = (seed(first)?, seed(last)?);
    if first > last {
        return Err(format!("FIRST {first} is after LAST {last}"));
    }
    let timeout = timeout_seconds(seconds)
        .ok_or_else(|| format!("SECONDS '{seconds}' is not a positive number"))?;
    Ok((rules, first..=last, timeout))
}

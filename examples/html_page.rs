//! `html_page RULE.SEED SOLUTION PAGE`: writes the web page replaying a
//! solution file (the `html` module), for `scripts/html-check` until the
//! command line has `xpat-solver RULE.SEED -check SOLUTION --html PAGE`.
//! Bad input: one line on stderr and exit 3, as the solver does.

use std::process::ExitCode;

use xpat_solver::deal::Deal;
use xpat_solver::rules::GameId;
use xpat_solver::state::Move;
use xpat_solver::{html, solution};

fn run(args: &[String]) -> Result<(), String> {
    let [game, file, page] = args else {
        return Err("usage: html_page RULE.SEED SOLUTION PAGE".to_string());
    };
    let id: GameId = game.parse()?;
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let moves = solution::parse(&bytes)
        .into_iter()
        .enumerate()
        .map(|(i, line)| line.map_err(|why| format!("{file} line {}: {why}", i + 1)))
        .collect::<Result<Vec<Move>, String>>()?;
    let html = html::page(&Deal::new(id), &moves);
    solution::write_atomically(page.as_ref(), html.as_bytes()).map_err(|e| format!("{e:#}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("html_page: {why}");
            ExitCode::from(3)
        }
    }
}

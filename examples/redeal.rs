//! Prints a Midnight Oil layout after redeals and turns, as predicted by
//! `xpat_solver::redeal`, for `scripts/xpat2-redeal-check` to compare with
//! what the real xpat2 shows.
//!
//! Usage: `redeal SEED [OP ...]`, starting from the deal of SEED (SPEC §4,
//! nothing played), each OP one of:
//! - `redeal`: xpat2's `d`;
//! - `up:CARD`: the top card CARD (SPEC §2 number) goes to the foundation;
//! - `turnup:COL:INDEX` / `turndown:COL:INDEX`: column COL (from 1), card
//!   INDEX (0 = bottom), xpat2's `b` / `f` then a click on that card.
//!
//! Output: 18 lines, column 1 first, each the column's card numbers from
//! bottom to top separated by spaces (an empty line for an empty column).

use std::process::ExitCode;

use xpat_solver::cards::Card;
use xpat_solver::redeal::{redeal, turn_down, turn_up};
use xpat_solver::shuffle::permutation;

fn run(args: &[String]) -> Result<Vec<Vec<Card>>, String> {
    let seed: u32 = args
        .first()
        .and_then(|s| s.parse().ok())
        .filter(|s| (1..1_000_000_000).contains(s))
        .ok_or("usage: redeal SEED [redeal|up:CARD|turnup:COL:I|turndown:COL:I ...]")?;
    let mut columns: Vec<Vec<Card>> = permutation(seed).chunks(3).map(<[Card]>::to_vec).collect();
    for op in &args[1..] {
        let parts: Vec<&str> = op.split(':').collect();
        let number = |i: usize| -> Result<usize, String> {
            parts
                .get(i)
                .and_then(|s| s.parse().ok())
                .ok_or(format!("bad operation {op}"))
        };
        match parts[0] {
            "redeal" if parts.len() == 1 => columns = redeal(&columns, seed),
            "up" if parts.len() == 2 => {
                let card = number(1)?;
                let column = columns
                    .iter_mut()
                    .find(|c| c.last().map(|&t| t as usize) == Some(card))
                    .ok_or(format!("{op}: card {card} is no column's top card"))?;
                column.pop();
            }
            "turnup" | "turndown" if parts.len() == 3 => {
                let (col, index) = (number(1)?, number(2)?);
                let column = col
                    .checked_sub(1)
                    .and_then(|c| columns.get_mut(c))
                    .ok_or(format!("{op}: no column {col}"))?;
                let turned = if parts[0] == "turnup" {
                    turn_up(column, index)
                } else {
                    turn_down(column, index)
                };
                if !turned {
                    return Err(format!("{op}: no card {index} in column {col}"));
                }
            }
            _ => return Err(format!("bad operation {op}")),
        }
    }
    Ok(columns)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(columns) => {
            for column in columns {
                let words: Vec<String> = column.iter().map(Card::to_string).collect();
                println!("{}", words.join(" "));
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("redeal: {message}");
            ExitCode::from(3)
        }
    }
}

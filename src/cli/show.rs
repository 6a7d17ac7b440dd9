//! No mode: the deal's initial position, shown as a person reads it:
//! normalized under forced rules, as dealt under free rules (where a
//! solution file starts from it).

use std::fmt::Write;

use anyhow::Result;

use super::EXIT_SUCCES;
use xpat_solver::cards::{Card, Name, card_of};
use xpat_solver::deal::Deal;
use xpat_solver::state::{FOUNDATION, State};

/// Shows the deal; exit 0.
pub(super) fn run(deal: &Deal) -> Result<u8> {
    say!("{}", show_initial(deal).trim_end_matches('\n'))?;
    Ok(EXIT_SUCCES)
}

/// The initial position of a solution file as a person reads it: the foundation,
/// the registers, then the columns in xpat2's deal order (first column
/// first), each from its bottom card to its top card, every card by name
/// and by the number a solution file uses.
fn show_initial(deal: &Deal) -> String {
    const SUITS: [&str; 4] = ["♣", "♠", "♥", "♦"];
    let state = State::for_replay(deal);
    let card = |c: Card| format!("{:>3}({c:>2})", Name(c));
    let plain = |c: Card| format!("{}({c})", Name(c));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: columns from bottom to top, card numbers in parentheses",
        deal.id
    );
    let _ = write!(out, "Foundation:");
    for (s, &height) in state.foundation().iter().enumerate() {
        let _ = match height {
            0 => write!(out, " {} -", SUITS[s]),
            h => write!(out, " {}", plain(card_of(h, s as u8))),
        };
    }
    let _ = match state.score() {
        1 => writeln!(out, "   (1 card)"),
        n => writeln!(out, "   ({n} cards)"),
    };
    if deal.id.rules.registers > 0 {
        let _ = write!(out, "Registers: ");
        for c in state.registers() {
            let _ = write!(out, " {}", plain(c));
        }
        for _ in 0..state.free_registers() {
            let _ = write!(out, " .");
        }
        let _ = writeln!(out);
    }
    // Normalization only ever takes a column's top card, so each column of
    // the position is its dealt column less the cards now on the foundation.
    for (i, dealt) in deal.columns.iter().enumerate() {
        let _ = write!(out, "{:>2}:", i + 1);
        let mut empty = true;
        for &c in dealt.iter().filter(|&&c| state.below(c) != FOUNDATION) {
            let _ = write!(out, " {}", card(c));
            empty = false;
        }
        let _ = writeln!(out, "{}", if empty { " (empty)" } else { "" });
    }
    out
}

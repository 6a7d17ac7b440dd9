//! A solution as one self-contained web page (issue 15): the deal laid out
//! as xpat2 lays it out, and buttons, a slider and the arrow keys to step
//! through the moves. No network and no file beside it: style, script and
//! the replay's data are all inside the page.
//!
//! The contract scripts and tests rely on: `PAGE#end` opens on the last
//! position and `PAGE#k` after move `k`; the element `id="foundation-count"`
//! holds the number of cards on the foundation in the position shown; an
//! error in the page's script shows as an element `id="js-error"`. Every
//! card is drawn as an element with `data-card` (its number, SPEC §2) inside
//! an element with `data-pile` (`foundation`, `cell` or `column`) and
//! `data-index` (xpat2's order, from 0), so a script can read the position.
//!
//! Positions are computed here (`replay.rs`) and embedded as a compact list
//! of changes per move; the page's script applies them and draws. Most are
//! single-card steps `[card, from, to]`: a move that sends its own card to
//! the foundation (a free-rule move) or takes one back from it (xpat2's
//! complete rules) is a step like any other, with its own words
//! (`words.rs`). Midnight Oil's redeal and turn (SPEC §10) move cards
//! inside and across columns at once: each is written as the columns it
//! changes, `[pile, [cards before], [cards after]]` (and the card a turn
//! moves, to mark it), and `table` says which moves spent a redeal or the
//! turn, so the page can say what is left of them.

mod replay;
mod shown;
mod table;
mod words;

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::deal::Deal;
use crate::midnight;
use crate::state::{Dest, Move};
use replay::{Opening, Replay};

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The most moves a page replays. A real solution has a few hundred and
/// the search writes none longer; a file of legal moves going back and
/// forth may hold millions, and its page would be tens of megabytes no
/// browser steps through: `--html` refuses it, and says this number.
pub const MOST_MOVES: usize = 100_000;

/// Writes the page replaying `moves` from the deal to `out`, as the replay
/// goes: the moves are gone through twice (their steps, then their words)
/// and nothing per move is kept. Moves after an illegal one are not shown;
/// the page says which move stopped the replay, and why.
pub fn write(
    out: &mut impl Write,
    deal: &Deal,
    moves: impl Iterator<Item = Move> + Clone,
) -> io::Result<()> {
    let title = format!("{} {}", deal.id.rules.name, deal.id.seed);
    let (before, after) = TEMPLATE
        .split_once("{{DATA}}")
        .expect("the template has a place for the data");
    let fill = |part: &str| {
        part.replace("{{TITLE}}", &escape_html(&title))
            .replace("/*STYLE*/", STYLE)
            .replace("/*SCRIPT*/", SCRIPT)
    };
    out.write_all(fill(before).as_bytes())?;
    write_data(out, deal, &title, moves)?;
    out.write_all(fill(after).as_bytes())
}

/// The page replaying `moves`, whole in memory (tests, and small pages).
pub fn page(deal: &Deal, moves: &[Move]) -> String {
    let mut out = Vec::new();
    write(&mut out, deal, moves.iter().copied()).expect("a Vec takes every write");
    String::from_utf8(out).expect("the page is UTF-8")
}

/// The replay as the script reads it (`page.js`, `DATA`).
fn write_data(
    out: &mut impl Write,
    deal: &Deal,
    title: &str,
    moves: impl Iterator<Item = Move> + Clone,
) -> io::Result<()> {
    let rules = deal.id.rules;
    // xpat2 puts free cells and foundations in a row above the columns when
    // the game has free cells (FreeCell, Seahaven); without them (Midnight
    // Oil, Baker's Dozen) the columns go in two rows, first, third, … above
    // second, fourth, …, and the foundations in a column at the right.
    let layout = if rules.registers > 0 { "top" } else { "side" };
    write!(
        out,
        "{{\"title\":{},\"layout\":\"{layout}\",\"columns\":{},\"cells\":{},",
        json_string(title),
        rules.columns,
        rules.registers
    )?;
    let (Opening { start, start_up }, steps) = Replay::new(deal, moves.clone());
    let piles: Vec<String> = start.iter().map(|p| numbers(p)).collect();
    write!(out, "\"start\":[{}],", piles.join(","))?;
    write!(out, "\"startUp\":{},", numbers(&start_up))?;
    out.write_all(b"\"moves\":[")?;
    // Moves that spend a redeal or the turn (at most the game's few).
    let (mut redeal_at, mut turn_at) = (Vec::new(), Vec::new());
    for (i, shown) in steps.enumerate() {
        out.write_all(if i == 0 { b"[" } else { b",[" })?;
        for (j, s) in shown.steps.iter().enumerate() {
            let sep = if j == 0 { "" } else { "," };
            write!(out, "{sep}[{},{},{}]", s.card, s.from, s.to)?;
        }
        for (j, r) in shown.rewrites.iter().enumerate() {
            let sep = if j + shown.steps.len() == 0 { "" } else { "," };
            write!(
                out,
                "{sep}[{},{},{}",
                r.pile,
                numbers(&r.was),
                numbers(&r.now)
            )?;
            if let Some(card) = r.marked {
                write!(out, ",{card}")?;
            }
            out.write_all(b"]")?;
        }
        out.write_all(b"]")?;
        match shown.mv.dest {
            Dest::Redeal => redeal_at.push(i + 1),
            Dest::TurnUp | Dest::TurnDown => turn_at.push(i + 1),
            _ => {}
        }
    }
    out.write_all(b"],\"table\":")?;
    if midnight::plays(deal) {
        let at = |moves: &[usize]| numbers(moves);
        write!(
            out,
            "{{\"redeals\":{},\"turns\":{},\"redealAt\":{},\"turnAt\":{}}}",
            rules.redeals,
            rules.turns,
            at(&redeal_at),
            at(&turn_at)
        )?;
    } else {
        out.write_all(b"null")?;
    }
    out.write_all(b",\"words\":[")?;
    let (_, mut words) = Replay::new(deal, moves);
    for (i, shown) in words.by_ref().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        write!(out, "{sep}{}", json_string(&shown.words))?;
    }
    let stopped = words.stopped().map_or("null".to_string(), json_string);
    write!(out, "],\"stopped\":{stopped}}}")
}

/// `[a,b,c]` of numbers (cards, moves).
fn numbers<N: ToString>(list: &[N]) -> String {
    let list: Vec<String> = list.iter().map(N::to_string).collect();
    format!("[{}]", list.join(","))
}

/// A JSON string that is also safe inside a `<script>` element: `<` is
/// escaped, so no `</script>` can end it early.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests;

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
//! Positions are computed here ([`replay`]) and embedded as a compact list
//! of single-card steps per move; the page's script applies them and draws.
//! A move that sends its own card to the foundation (a free-rule move) is a
//! step to a foundation pile like any other, so it needs no new data, only
//! its words in [`replay::in_words`].

pub mod replay;

use std::fmt::Write;

use crate::deal::Deal;
use crate::state::Move;
use replay::Replay;

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The page replaying `moves` from the deal. Moves after an illegal one
/// are not shown; the page says which move stopped the replay, and why.
pub fn page(deal: &Deal, moves: &[Move]) -> String {
    let title = format!("{} {}", deal.id.rules.name, deal.id.seed);
    let data = data_json(deal, &title, &Replay::new(deal, moves));
    TEMPLATE
        .replace("{{TITLE}}", &escape_html(&title))
        .replace("/*STYLE*/", STYLE)
        .replace("/*SCRIPT*/", SCRIPT)
        .replace("{{DATA}}", &data)
}

/// The replay as the script reads it (`page.js`, `DATA`).
fn data_json(deal: &Deal, title: &str, replay: &Replay) -> String {
    let rules = deal.id.rules;
    // xpat2 puts free cells and foundations in a row above the columns when
    // the game has free cells (FreeCell, Seahaven); without them (Midnight
    // Oil, Baker's Dozen) the columns go in two rows, first, third, … above
    // second, fourth, …, and the foundations in a column at the right.
    let layout = if rules.registers > 0 { "top" } else { "side" };
    let mut out = String::with_capacity(64 * replay.moves.len() + 1024);
    let _ = write!(
        out,
        "{{\"title\":{},\"layout\":\"{layout}\",\"columns\":{},\"cells\":{},",
        json_string(title),
        rules.columns,
        rules.registers
    );
    let piles: Vec<String> = replay.start.iter().map(|p| numbers(p)).collect();
    let _ = write!(out, "\"start\":[{}],", piles.join(","));
    let _ = write!(out, "\"startUp\":{},", numbers(&replay.start_up));
    out.push_str("\"moves\":[");
    for (i, steps) in replay.moves.iter().enumerate() {
        out.push_str(if i == 0 { "[" } else { ",[" });
        for (j, s) in steps.iter().enumerate() {
            let sep = if j == 0 { "" } else { "," };
            let _ = write!(out, "{sep}[{},{},{}]", s.card, s.from, s.to);
        }
        out.push(']');
    }
    out.push_str("],\"words\":[");
    let words: Vec<String> = replay.words.iter().map(|w| json_string(w)).collect();
    out.push_str(&words.join(","));
    let stopped = replay
        .stopped
        .as_deref()
        .map_or("null".to_string(), json_string);
    let _ = write!(out, "],\"stopped\":{stopped}}}");
    out
}

/// `[a,b,c]` of card numbers.
fn numbers(cards: &[u8]) -> String {
    let list: Vec<String> = cards.iter().map(u8::to_string).collect();
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

//! `--html PAGE`: a valid solution also written as a web page that
//! replays it (the [`html`](crate::html) module); from a player's save,
//! the whole game, their moves first.

use std::path::Path;

use anyhow::Result;

use super::output::Shown;
use super::start::Start;
use crate::html;
use crate::solution;
use crate::state::Move;

/// Writes the page of `moves` (already replayed and won from `start`)
/// when asked, atomically, and says where to open it, before the verdict
/// line. A player's game opens on their position with `PAGE#k`.
pub(super) fn write(start: &Start, moves: &[Move], page: Option<&Path>) -> Result<()> {
    let Some(page) = page else {
        return Ok(());
    };
    let before = start.before();
    let text = html::page(&start.deal, &[before, moves].concat());
    solution::write_atomically(page, text.as_bytes())?;
    let shown = Shown(page);
    match before.len() {
        0 => say!("web page written to {shown}: open it in a browser"),
        k => say!(
            "web page written to {shown}: open {shown}#{k} in a browser for the player's position, then the {} moves of the solution",
            moves.len()
        ),
    }
}

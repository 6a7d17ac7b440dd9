//! `--html PAGE`: a valid solution also written as a web page that
//! replays it (the [`html`](xpat_solver::html) module; written with the other
//! outputs, see [`super::files`]); from a player's save, the whole game,
//! their moves first.

use std::path::PathBuf;

use anyhow::Result;

use super::output::Shown;
use super::start::Start;

/// Says where the page went and how to open it, before the verdict line;
/// nothing when no page was asked. A player's game opens on their
/// position with `PAGE#k`.
pub(super) fn say_written(start: &Start, page: Option<PathBuf>, moves: usize) -> Result<()> {
    let Some(page) = page else {
        return Ok(());
    };
    let shown = Shown(&page);
    match start.before().len() {
        0 => say!("web page written to {shown}: open it in a browser"),
        k => say!(
            "web page written to {shown}: open {shown}#{k} in a browser for the player's position, then the {moves} moves of the solution"
        ),
    }
}

//! Where `-check` and `-search` start: the deal, or with `--from-xpat2` a
//! player's position in it, read from the save they made in xpat2 and
//! followed move by move (issue 15). Everything after reads a [`Start`]:
//! the search and the replay begin at its position, and the outputs
//! (solution file, xpat2 save, web page) know what came before it.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use super::options::Game;
use super::output::Shown;
use xpat_solver::deal::Deal;
use xpat_solver::foundation::Foundation;
use xpat_solver::midnight::{self, Table};
use xpat_solver::search::{self, Limits, Report};
use xpat_solver::state::{Move, State};
use xpat_solver::xpat2::HEADER_BYTES;
use xpat_solver::xpat2::load::{self, Follower, Position, Saved};

/// The deal, and the player's game when there is one.
pub(super) struct Start {
    pub deal: Deal,
    pub player: Option<Player>,
}

/// A player's game as their save holds it, followed to their position.
pub(super) struct Player {
    /// The save's file.
    pub path: PathBuf,
    pub saved: Saved,
    pub followed: Follower,
}

/// The bytes of a save, read no further than its header announces (see
/// [`load::bytes_needed`]), and refused when that is more than
/// [`load::MAX_MOVE_BYTES`] of moves.
fn read_save(path: &Path) -> Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    let head = HEADER_BYTES as u64;
    (&mut file).take(head).read_to_end(&mut bytes)?;
    let more = load::bytes_needed(&bytes) - head;
    if more > load::MAX_MOVE_BYTES {
        bail!(
            "its header announces {} moves, far more than any xpat2 game records",
            more / 4
        );
    }
    file.take(more).read_to_end(&mut bytes)?;
    Ok(bytes)
}

impl Start {
    /// The deal of `RULE.SEED` played by the foundation rule `foundation`,
    /// or the player's game of `--from-xpat2` followed under those rules:
    /// `Err` (exit 3) for a save that cannot be read or followed, naming
    /// the move.
    pub fn new(game: &Game, foundation: Foundation) -> Result<Start> {
        let save = match game {
            Game::Deal(id) => {
                return Ok(Start {
                    deal: Deal::new(*id).with_foundation(foundation),
                    player: None,
                });
            }
            Game::Save(save) => save,
        };
        let bytes =
            read_save(save).with_context(|| format!("cannot read xpat2 save '{}'", Shown(save)))?;
        let player = load::read(&bytes)
            .and_then(|saved| {
                let followed = load::follow_under(&saved, foundation)?;
                Ok(Player {
                    path: save.clone(),
                    saved,
                    followed,
                })
            })
            .map_err(|e| anyhow!("xpat2 save '{}': {e}", Shown(save)))?;
        Ok(Start {
            deal: Deal::new(player.saved.id).with_foundation(foundation),
            player: Some(player),
        })
    }

    /// Searches from the start: the deal, or the player's position (under
    /// forced rules normalized; under free and complete rules exactly
    /// theirs, the search's own foundation moves written out; in Midnight
    /// Oil under the complete rules with the redeals and turn they left).
    pub fn search(&self, limits: &Limits, progress: Option<search::Progress>) -> Report {
        let deal = &self.deal;
        let Some(player) = &self.player else {
            return if midnight::plays(deal) {
                midnight::search::search(deal, limits, progress)
            } else {
                search::search(deal, limits, progress)
            };
        };
        match player.followed.position() {
            Position::Normalized(state) => search::search_from(deal, state, limits, progress),
            Position::Exact(state) => search::search_from_played(deal, state, limits, progress),
            Position::Table(table) => {
                midnight::search::search_from(deal, &table.searching_from(), limits, progress)
            }
        }
    }

    /// The start as a search under forced rules takes it: the deal's
    /// position, or the player's normalized; `None` for a start that is
    /// not one [`State`] (Midnight Oil's table under the complete rules).
    pub fn state(&self) -> Option<State> {
        match self.player.as_ref().map(|p| p.followed.position()) {
            None if midnight::plays(&self.deal) => None,
            None => Some(State::new(&self.deal)),
            Some(Position::Normalized(state) | Position::Exact(state)) => Some(state.clone()),
            Some(Position::Table(_)) => None,
        }
    }

    /// Cards on the foundation at the start.
    pub fn score(&self) -> u8 {
        match &self.player {
            Some(player) => player.followed.score(),
            None => 0,
        }
    }

    /// Replays `lines` (a file, or a search's solution) from where a file
    /// starts: the player's position, or the deal as a file starts from it
    /// (normalized under forced rules; under Midnight Oil's complete rules
    /// as a [`Table`] lays it).
    pub fn replay<E>(
        &self,
        lines: impl IntoIterator<Item = Result<xpat_solver::solution::Line, E>>,
    ) -> Result<xpat_solver::check::Verdict, E> {
        let position = match &self.player {
            Some(player) => player.followed.position().clone(),
            None if midnight::plays(&self.deal) => Position::Table(Table::for_replay(&self.deal)),
            None => Position::Exact(State::for_replay(&self.deal)),
        };
        xpat_solver::check::replay_lines(position, lines)
    }

    /// The solver's moves from the deal to [`Start::root`].
    pub fn before(&self) -> &[Move] {
        self.player.as_ref().map_or(&[], |p| p.followed.moves())
    }

    /// Says where a player's game stands, on the first line of a mode's
    /// output.
    pub fn introduce(&self) -> Result<()> {
        let Some(player) = &self.player else {
            return Ok(());
        };
        let (played, recorded) = (player.saved.played, player.saved.words.len());
        let undone = match recorded - played {
            0 => String::new(),
            n => format!(" ({n} undone, left out)"),
        };
        let moves = if played == 1 { "move" } else { "moves" };
        say!(
            "{}: the player's position in {}, after their {played} {moves}{undone}: {} cards on the foundation",
            self.deal.id,
            Shown(&player.path),
            self.score()
        )
    }
}

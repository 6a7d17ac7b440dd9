//! The check that ends every word the player played: the solver's
//! position is the player's (under forced rules, its normalized form).
//! Checking the result, not reasoning about each kind of move, is what
//! makes a followed save trustworthy.

use super::follower::{Follower, Position};
use crate::cards::{Card, KING, SUITS, card_of};
use crate::midnight::Table;

impl Follower {
    /// `Ok` when the player's position (normalized under forced rules) is
    /// the solver's.
    pub(super) fn same_position(&self) -> Result<(), String> {
        let state = match &self.position {
            Position::Normalized(state) | Position::Exact(state) => state,
            Position::Table(table) => return self.same_table(table),
        };
        let rules = self.rules;
        let mut columns: Vec<Vec<Card>> = (0..rules.columns)
            .map(|i| self.board.pile(self.board.column_pile(i)).to_vec())
            .collect();
        let mut cells: Vec<Card> = (0..rules.registers)
            .flat_map(|i| self.board.pile(self.board.cell_pile(i)).to_vec())
            .collect();
        let mut foundation = [0u8; SUITS];
        for (s, height) in foundation.iter_mut().enumerate() {
            *height = self.board.pile(s).len() as u8;
        }
        if !self.exact() {
            normalize(&mut columns, &mut cells, &mut foundation);
        }
        columns.retain(|c| !c.is_empty());
        columns.sort();
        cells.sort();
        let mut solver_columns = state.columns();
        solver_columns.sort();
        let solver_cells: Vec<Card> = state.registers().collect();
        if foundation != state.foundation() {
            return Err(format!(
                "the foundation would hold {foundation:?} cards per suit for the player, {:?} for the solver",
                state.foundation()
            ));
        }
        if cells != solver_cells || columns != solver_columns {
            return Err(
                "the player's position, with every playable card played up, is not the solver's"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// `Ok` when the player's columns, in order, and foundation are the
    /// table's.
    fn same_table(&self, table: &Table) -> Result<(), String> {
        let foundation: Vec<u8> = (0..SUITS).map(|s| self.board.pile(s).len() as u8).collect();
        if foundation != table.foundation() {
            return Err(format!(
                "the foundation would hold {foundation:?} cards per suit for the player, {:?} for the solver",
                table.foundation()
            ));
        }
        if self.board.columns() != table.columns() {
            return Err("the player's columns are not the solver's".to_string());
        }
        Ok(())
    }
}

/// Plays every card that can go to the foundation from piles kept as
/// lists, until none can.
fn normalize(columns: &mut [Vec<Card>], cells: &mut Vec<Card>, foundation: &mut [u8; SUITS]) {
    loop {
        let mut played = false;
        for (s, height) in foundation.iter_mut().enumerate() {
            if *height == KING {
                continue;
            }
            let next = card_of(*height + 1, s as u8);
            if let Some(column) = columns.iter_mut().find(|c| c.last() == Some(&next)) {
                column.pop();
            } else if let Some(i) = cells.iter().position(|&c| c == next) {
                cells.remove(i);
            } else {
                continue;
            }
            *height += 1;
            played = true;
        }
        if !played {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::test_deal;
    use crate::state::{Dest, Move};

    /// The check that ends every word sees a difference the moves made.
    #[test]
    fn a_solver_position_that_is_not_the_players_is_seen() {
        let deal = test_deal("fc", 123);
        let mut follower = Follower::new(&deal);
        assert_eq!(follower.same_position(), Ok(()));
        // 9♠ to a free cell for the solver alone.
        follower.state_mut().apply(Move {
            card: 33,
            dest: Dest::Register,
        });
        let why = follower.same_position().unwrap_err();
        assert!(why.contains("not the solver's"), "{why}");
    }
}

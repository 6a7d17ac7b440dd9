//! The moves of Midnight Oil under the complete rules: why one is illegal
//! (the words of `-check`), and every move a search tries.

use super::{COLUMNS, Table};
use crate::cards::{Card, KING, SUITS, rank, suit};
use crate::state::{Dest, Illegal, Move};

impl Table {
    /// Why `mv` is illegal here, or `Ok` (SPEC §5, §9, §10).
    pub fn check_move(&self, mv: Move) -> Result<(), Illegal> {
        let card = mv.card;
        match mv.dest {
            Dest::Redeal if self.redeals_left == 0 => Err(Illegal::NoRedealLeft),
            Dest::Redeal => Ok(()),
            Dest::TurnUp | Dest::TurnDown => {
                if self.turns_left == 0 {
                    return Err(Illegal::TurnUsed);
                }
                match self.locate(card) {
                    None => Err(Illegal::TurnNeedsBuried { top: false }),
                    Some((i, at)) if at + 1 == self.heights[i] as usize => {
                        Err(Illegal::TurnNeedsBuried { top: true })
                    }
                    Some(_) => Ok(()),
                }
            }
            _ if self.is_up(card) => Err(match mv.dest {
                Dest::Foundation => Illegal::CardOnFoundation,
                _ => Illegal::NoReturns,
            }),
            _ => {
                let Some((i, at)) = self.locate(card) else {
                    unreachable!("a card is on the foundation or in a column")
                };
                if at + 1 != self.heights[i] as usize {
                    let covered_by = self.column(i)[at + 1];
                    return Err(Illegal::CardBuried { covered_by });
                }
                self.check_destination(card, mv.dest)
            }
        }
    }

    /// Why the top card `card` may not go to `dest`, or `Ok`.
    fn check_destination(&self, card: Card, dest: Dest) -> Result<(), Illegal> {
        match dest {
            Dest::Foundation => {
                let height = self.foundation[suit(card) as usize];
                if rank(card) != height + 1 {
                    return Err(Illegal::NotNextUp { height });
                }
                Ok(())
            }
            Dest::Card(onto) if onto == card => Err(Illegal::TargetIsTheCard),
            Dest::Card(onto) if self.is_up(onto) => Err(Illegal::TargetOnFoundation),
            Dest::Card(onto) => {
                let (i, at) = self.locate(onto).expect("a card not up is in a column");
                if at + 1 != self.heights[i] as usize {
                    let covered_by = self.column(i)[at + 1];
                    return Err(Illegal::TargetBuried { covered_by });
                }
                let build = self.rules.build;
                if !build.allows(card, onto) {
                    return Err(Illegal::WrongBuild { build, onto });
                }
                Ok(())
            }
            Dest::EmptyColumn if self.heights.contains(&0) => {
                Err(Illegal::EmptyColumnRefuses(self.rules.empty_column))
            }
            Dest::EmptyColumn => Err(Illegal::NoEmptyColumn),
            Dest::Register => Err(Illegal::NoRegisters),
            Dest::TurnUp | Dest::TurnDown | Dest::Redeal => unreachable!("checked before"),
        }
    }

    /// Calls `f` with every move of the position: each top card onto the
    /// other column's top it builds on, or up; a redeal while one is left;
    /// while the turn is left, each buried card up to its column's top,
    /// and each column's top card down beneath each buried card of its
    /// column (two cards swapped at a column's top are one position, tried
    /// once).
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let tops = self.top_bits();
        let mut start = 0;
        for i in 0..COLUMNS {
            let height = self.heights[i] as usize;
            if height == 0 {
                continue;
            }
            let column = &self.cards[start..start + height];
            let top = column[height - 1];
            if rank(top) == self.foundation[suit(top) as usize] + 1 {
                f(Move {
                    card: top,
                    dest: Dest::Foundation,
                });
            }
            if rank(top) < KING {
                let onto = top + SUITS as Card;
                if tops & 1 << onto != 0 {
                    f(Move {
                        card: top,
                        dest: Dest::Card(onto),
                    });
                }
            }
            if self.turns_left > 0 {
                for (at, &card) in column[..height - 1].iter().enumerate() {
                    f(Move {
                        card,
                        dest: Dest::TurnUp,
                    });
                    if at + 2 < height {
                        f(Move {
                            card,
                            dest: Dest::TurnDown,
                        });
                    }
                }
            }
            start += height;
        }
        if self.redeals_left > 0 {
            f(Move::REDEAL);
        }
    }

    /// Whether a search tries the turn `mv` here: always while a redeal
    /// is left; after the last redeal, only when the column's new top
    /// card can then move (up, or onto the top one rank higher of its
    /// suit) or take the top one rank lower of its suit.
    ///
    /// That loses no win. *Proof.* With no redeal left, let a winning
    /// sequence from here begin with the turn of column `i`, then a move
    /// `m` that touches neither column `i`'s top card nor the card it
    /// lands on. Then `m` is legal here too (its card and its target are
    /// the same other columns' tops, the foundation the same), the turn is
    /// legal after `m` (column `i` and the turn untouched), and both
    /// orders reach the same position: so `m` first, then the turn, wins
    /// too. Pushing the turn later so, it ends before a move touching
    /// column `i`, since column `i` is not empty (it held a buried card)
    /// and must be emptied to win. From this position then, either a
    /// win starts with another move than the turn, or with the turn
    /// followed at once by a move touching column `i`: one by its new
    /// top card, or one onto it — the moves this asks for. While a
    /// redeal is left, a redeal after the turn reads column `i` too, and
    /// every turn is tried. ∎
    pub(super) fn turn_can_matter(&self, mv: Move) -> bool {
        if self.redeals_left > 0 {
            return true;
        }
        let Some((i, at)) = self.locate(mv.card) else {
            return false;
        };
        let column = self.column(i);
        let top = column[column.len() - 1];
        let new_top = match mv.dest {
            Dest::TurnUp => mv.card,
            Dest::TurnDown => column[column.len() - 2],
            _ => unreachable!("a turn"),
        };
        debug_assert!(at + 1 < column.len());
        let others = self.top_bits() & !(1u64 << top);
        let r = rank(new_top);
        r == self.foundation[suit(new_top) as usize] + 1
            || (r < KING && others & 1 << (new_top + SUITS as Card) != 0)
            || (r > 1 && others & 1 << (new_top - SUITS as Card) != 0)
    }
}

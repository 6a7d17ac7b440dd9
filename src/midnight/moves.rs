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
}

//! The moves of SPEC §5 and §9: what a move is, why one may be illegal,
//! playing one, and finding every move worth searching.

use std::fmt;

use super::automatic::Automatic;
use super::bits::{card_bits, top_bits};
use super::{FLOOR, FOUNDATION, REGISTER, State};
use crate::cards::{Card, KING, SUIT_CARDS, card_of, rank, suit};
use crate::rules::{Build, EmptyColumn};

/// Where a move puts its card: SPEC §6's three kinds of destination, and
/// under free rules SPEC §9's fourth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dest {
    /// On top of this card, which must be a column's top card.
    Card(Card),
    /// Into an empty column (`V`); all empty columns are alike.
    EmptyColumn,
    /// Into a free register (`T`).
    Register,
    /// Onto its suit's foundation (`F`): free rules only, where foundation
    /// moves are the player's.
    Foundation,
    /// Midnight Oil under xpat2's complete rules (SPEC §10): the card, a
    /// buried one, comes up to its column's top (`CARD U`, xpat2's
    /// `RotateDown`).
    TurnUp,
    /// The column's top card goes down to lie directly beneath the card,
    /// a buried one (`CARD D`, xpat2's `RotateUp`).
    TurnDown,
    /// A redeal (`R`): the move's card means nothing and is 0.
    Redeal,
}

/// One move of a solution: a card and where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The card that moves (SPEC §2 number).
    pub card: Card,
    /// Where it goes.
    pub dest: Dest,
}

impl Move {
    /// The redeal of Midnight Oil's complete rules (`R`).
    pub const REDEAL: Move = Move {
        card: 0,
        dest: Dest::Redeal,
    };
}

impl fmt::Display for Move {
    /// The solution-file form: `33 38`, `33 V`, `33 T`, `33 F`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dest {
            Dest::Card(d) => write!(f, "{} {}", self.card, d),
            Dest::EmptyColumn => write!(f, "{} V", self.card),
            Dest::Register => write!(f, "{} T", self.card),
            Dest::Foundation => write!(f, "{} F", self.card),
            Dest::TurnUp => write!(f, "{} U", self.card),
            Dest::TurnDown => write!(f, "{} D", self.card),
            Dest::Redeal => f.write_str("R"),
        }
    }
}

/// Why a move is illegal in a position (SPEC §5): the rule it breaks and
/// the cards that show it, for `-check` to put in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The card is on the foundation, and cards never come back (or it
    /// is sent there again).
    CardOnFoundation,
    /// The card is on the foundation and cards may come back (SPEC §10),
    /// but not this one: `top` lies on it.
    NotFoundationTop {
        /// The foundation's top card of that suit.
        top: Card,
    },
    /// A card back from the foundation in Midnight Oil, which never allows
    /// it, even under xpat2's complete rules.
    NoReturns,
    /// A redeal or a turn outside Midnight Oil's complete rules.
    NotThisGame,
    /// Midnight Oil: both redeals done already.
    NoRedealLeft,
    /// Midnight Oil: the one turn done already.
    TurnUsed,
    /// A turn names a card that is not buried in a column (`top`: it is a
    /// column's top card; otherwise not in a column at all).
    TurnNeedsBuried {
        /// Whether the card is a column's top.
        top: bool,
    },
    /// The card is neither a column's top nor in a register.
    CardBuried {
        /// The card lying on it.
        covered_by: Card,
    },
    /// The target card is on the foundation.
    TargetOnFoundation,
    /// The target card is in a register, where nothing goes onto it.
    TargetInRegister,
    /// The target card is in a column, but not its top.
    TargetBuried {
        /// The card lying on it.
        covered_by: Card,
    },
    /// The card would go onto itself.
    TargetIsTheCard,
    /// The game's building rule does not let the card lie on `onto`.
    WrongBuild {
        /// The game's building rule.
        build: Build,
        /// The card it would lie on.
        onto: Card,
    },
    /// `V` with no empty column.
    NoEmptyColumn,
    /// There is an empty column, and the game's rule for it refuses the card.
    EmptyColumnRefuses(EmptyColumn),
    /// The game has no registers at all.
    NoRegisters,
    /// `T` with every register taken.
    RegistersFull,
    /// `T` for a card already in a register.
    RegisterToRegister,
    /// `F` under forced rules: cards go up by themselves, and a file never
    /// says so (SPEC §6).
    FoundationIsForced,
    /// The card is not its suit's next: `height` cards of its suit are up.
    NotNextUp {
        /// Cards of its suit on the foundation.
        height: u8,
    },
}

impl State {
    /// Why `mv` is illegal here, or `Ok` (SPEC §5).
    pub fn check_move(&self, mv: Move) -> Result<(), Illegal> {
        let card = mv.card;
        if matches!(mv.dest, Dest::TurnUp | Dest::TurnDown | Dest::Redeal) {
            return Err(Illegal::NotThisGame);
        }
        if mv.dest == Dest::Foundation && self.automatic == Automatic::Every {
            return Err(Illegal::FoundationIsForced);
        }
        if self.below[card as usize] == FOUNDATION {
            return self.check_return(mv);
        }
        if let Some(covered_by) = self.above(card) {
            return Err(Illegal::CardBuried { covered_by });
        }
        match mv.dest {
            Dest::Card(onto) => self.check_onto(card, onto),
            Dest::EmptyColumn => self.check_empty_column(card),
            Dest::Register => self.check_register(card),
            Dest::Foundation => self.check_up(card),
            Dest::TurnUp | Dest::TurnDown | Dest::Redeal => Err(Illegal::NotThisGame),
        }
    }

    /// Why `mv`, whose card is on the foundation, may not bring it back, or
    /// `Ok` (SPEC §10): only a pile's top card, only where cards come back,
    /// and then to anywhere a column's top card may go.
    fn check_return(&self, mv: Move) -> Result<(), Illegal> {
        let card = mv.card;
        if !self.returns || mv.dest == Dest::Foundation {
            return Err(Illegal::CardOnFoundation);
        }
        let height = self.foundation[suit(card) as usize];
        if rank(card) != height {
            let top = card_of(height, suit(card));
            return Err(Illegal::NotFoundationTop { top });
        }
        match mv.dest {
            Dest::Card(onto) => self.check_onto(card, onto),
            Dest::EmptyColumn => self.check_empty_column(card),
            Dest::Register => self.check_register(card),
            _ => Err(Illegal::CardOnFoundation),
        }
    }

    /// Why the accessible `card` may not go up, or `Ok`.
    fn check_up(&self, card: Card) -> Result<(), Illegal> {
        let height = self.foundation[suit(card) as usize];
        if rank(card) != height + 1 {
            return Err(Illegal::NotNextUp { height });
        }
        Ok(())
    }

    /// Why the accessible `card` may not go onto `onto`, or `Ok`.
    fn check_onto(&self, card: Card, onto: Card) -> Result<(), Illegal> {
        if onto == card {
            return Err(Illegal::TargetIsTheCard);
        }
        match self.below[onto as usize] {
            FOUNDATION => return Err(Illegal::TargetOnFoundation),
            REGISTER => return Err(Illegal::TargetInRegister),
            _ => {}
        }
        if let Some(covered_by) = self.above(onto) {
            return Err(Illegal::TargetBuried { covered_by });
        }
        let build = self.rules.build;
        if !build.allows(card, onto) {
            return Err(Illegal::WrongBuild { build, onto });
        }
        Ok(())
    }

    /// Why the accessible `card` may not go into an empty column, or `Ok`.
    fn check_empty_column(&self, card: Card) -> Result<(), Illegal> {
        let rule = self.rules.empty_column;
        if self.empty_columns == 0 {
            return Err(Illegal::NoEmptyColumn);
        }
        if !rule.accepts(card) {
            return Err(Illegal::EmptyColumnRefuses(rule));
        }
        Ok(())
    }

    /// Why the accessible `card` may not go into a register, or `Ok`.
    fn check_register(&self, card: Card) -> Result<(), Illegal> {
        if self.rules.registers == 0 {
            return Err(Illegal::NoRegisters);
        }
        if self.below[card as usize] == REGISTER {
            return Err(Illegal::RegisterToRegister);
        }
        if self.free_registers() == 0 {
            return Err(Illegal::RegistersFull);
        }
        Ok(())
    }

    /// Plays a move known to be legal, then the foundation moves that
    /// follow by themselves (all of them under forced rules: normalization).
    #[inline]
    pub fn apply(&mut self, mv: Move) {
        self.apply_telling(mv, |_| {});
    }

    /// [`State::apply`], telling `played` each card that went up by itself.
    #[inline]
    pub(super) fn apply_telling(&mut self, mv: Move, played: impl FnMut(Card)) {
        debug_assert_eq!(self.check_move(mv), Ok(()));
        self.put(mv.card, mv.dest);
        self.play_automatic(played);
    }

    /// Takes `card`, with whatever lies on it, from where it lies to
    /// `dest`: no rule checked, nothing played up by itself.
    #[inline]
    pub(super) fn put(&mut self, card: Card, dest: Dest) {
        self.lift(card);
        match dest {
            Dest::Card(onto) => self.place(card, onto),
            Dest::EmptyColumn => {
                self.empty_columns -= 1;
                self.place(card, FLOOR);
            }
            Dest::Register => self.place(card, REGISTER),
            Dest::Foundation => self.place_up(card),
            Dest::TurnUp | Dest::TurnDown | Dest::Redeal => {
                unreachable!("Midnight Oil's complete rules are played by `midnight`")
            }
        }
    }

    /// Plays `mv` if it is legal.
    pub fn try_apply(&mut self, mv: Move) -> Result<(), Illegal> {
        self.check_move(mv)?;
        self.apply(mv);
        Ok(())
    }

    /// Calls `f` with every move worth searching: the legal moves of
    /// SPEC §5 less those that can never matter. A lone card is never moved
    /// into an empty column (the same position again), and a register card
    /// never to another register (not legal). All empty columns are one
    /// target, as they are one destination in a solution file. Under free
    /// rules, each suit's next card that is accessible may also go up
    /// (under forced rules it is up already).
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let rules = self.rules;
        let can_register = (self.registers_used as usize) < rules.registers;
        // A bit per card: column tops, and cards in registers.
        let bits = card_bits(&self.below);
        let tops = bits.in_column & top_bits(&self.above);
        let mut movable = tops | bits.register;
        while movable != 0 {
            let card = movable.trailing_zeros() as Card;
            movable &= movable - 1;
            let below = self.below[card as usize];
            let mut targets = tops & rules.build.parents_of(1 << card);
            while targets != 0 {
                let onto = targets.trailing_zeros() as Card;
                targets &= targets - 1;
                let dest = Dest::Card(onto);
                f(Move { card, dest });
            }
            if self.empty_columns > 0 && below != FLOOR && rules.empty_column.accepts(card) {
                let dest = Dest::EmptyColumn;
                f(Move { card, dest });
            }
            if can_register && below != REGISTER {
                let dest = Dest::Register;
                f(Move { card, dest });
            }
        }
        if self.automatic != Automatic::Every {
            for (s, &height) in self.foundation.iter().enumerate() {
                let card = card_of(height + 1, s as u8);
                if height < KING && self.is_accessible(card) {
                    let dest = Dest::Foundation;
                    f(Move { card, dest });
                }
            }
        }
        if self.returns {
            self.for_each_return(tops, tops | bits.register, can_register, f);
        }
    }

    /// Calls `f` with every return from the foundation (SPEC §10) that can
    /// help win: `tops` are the column tops, `accessible` those and the
    /// register cards.
    ///
    /// # Which returns can matter
    ///
    /// Take a winning sequence. A return of `c` can be put off until the
    /// first move that needs `c` off its pile: a card put onto `c`, or the
    /// return of the card beneath `c` on its pile; `c` then comes straight
    /// to where the sequence has it at that moment. Until then `c` lies on
    /// its pile instead: nothing goes onto it, no card of its suit goes up
    /// (its pile waits for `c`) or comes down (that is the move that needs
    /// it), and every other move finds as much room or more (the card or
    /// column `c` would cover stays free, and no move uses it while `c`
    /// would lie there). A return never followed by such a move is dropped
    /// (`c` lies on its pile until the sequence puts it back up). So some
    /// winning sequence starts each return of `c` a burst: returns of `c`
    /// and the cards beneath it on its pile, each followed by the next, the
    /// last followed by a card `x` that is not coming back put onto the
    /// last card returned. Such an `x` is accessible already when the burst
    /// starts (returns uncover nothing, and cards of the burst are higher
    /// than the last), and may lie on a card of `c`'s pile no higher than
    /// `c`; lower than `c` when `c` goes into a register, where nothing can
    /// go onto it. Only returns with such an `x` are made, and so a search
    /// over them misses no solution. In the same-suit games `x` would be a
    /// card of the pile itself, up already: no return is ever made there.
    fn for_each_return(
        &self,
        tops: u64,
        accessible: u64,
        can_register: bool,
        mut f: impl FnMut(Move),
    ) {
        let build = self.rules.build;
        for (s, &height) in self.foundation.iter().enumerate() {
            if height == 0 {
                continue;
            }
            let card = card_of(height, s as u8);
            let pile = (SUIT_CARDS << s) & ((2u64 << card) - 1);
            let hosts_pile = build.children_of(pile) & accessible;
            if hosts_pile == 0 {
                continue;
            }
            let mut targets = tops & build.parents_of(1 << card);
            while targets != 0 {
                let onto = targets.trailing_zeros() as Card;
                targets &= targets - 1;
                if hosts_pile & !(1u64 << onto) != 0 {
                    let dest = Dest::Card(onto);
                    f(Move { card, dest });
                }
            }
            if self.empty_columns > 0 && self.rules.empty_column.accepts(card) {
                let dest = Dest::EmptyColumn;
                f(Move { card, dest });
            }
            let hosts_beneath = build.children_of(pile & !(1u64 << card)) & accessible;
            if can_register && hosts_beneath != 0 {
                let dest = Dest::Register;
                f(Move { card, dest });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{deals, initial};
    use super::*;

    #[test]
    fn generated_moves_are_exactly_the_useful_legal_ones() {
        for (rules, seed, _, state) in deals(1..=20) {
            let mut generated = Vec::new();
            state.for_each_move(|m| generated.push(m));
            for card in 0..52 {
                let dests = (0..52)
                    .map(Dest::Card)
                    .chain([Dest::EmptyColumn, Dest::Register]);
                for dest in dests {
                    let mv = Move { card, dest };
                    let lone_to_empty = dest == Dest::EmptyColumn && state.below(card) == FLOOR;
                    let legal = state.check_move(mv).is_ok() && !lone_to_empty;
                    assert_eq!(
                        generated.contains(&mv),
                        legal,
                        "{} {seed}: {mv}",
                        rules.name
                    );
                }
            }
        }
    }

    #[test]
    fn illegal_moves_are_named() {
        let (deal, state) = initial("fc", 123);
        // FreeCell 123: first column ends with 9♠ (33) on top.
        assert_eq!(deal.columns[0].last(), Some(&33));
        let buried = deal.columns[0][5];
        let mv = |card, dest| Move { card, dest };
        assert_eq!(
            state.check_move(mv(buried, Dest::Register)),
            Err(Illegal::CardBuried { covered_by: 33 })
        );
        assert_eq!(
            state.check_move(mv(33, Dest::EmptyColumn)),
            Err(Illegal::NoEmptyColumn)
        );
        assert_eq!(
            state.check_move(mv(33, Dest::Card(33))),
            Err(Illegal::TargetIsTheCard)
        );
        assert_eq!(
            state.check_move(mv(33, Dest::Card(buried))),
            Err(Illegal::TargetBuried { covered_by: 33 })
        );
        assert!(matches!(
            state.check_move(mv(33, Dest::Card(deal.columns[1][0]))),
            Err(Illegal::TargetBuried { .. })
        ));
        let mut s = state.clone();
        s.try_apply(mv(33, Dest::Register)).unwrap();
        assert_eq!(
            s.check_move(mv(33, Dest::Register)),
            Err(Illegal::RegisterToRegister)
        );
        let (_, bd) = initial("bd", 1);
        let top = bd.columns()[0].last().copied().unwrap();
        assert_eq!(
            bd.check_move(mv(top, Dest::Register)),
            Err(Illegal::NoRegisters)
        );
    }

    #[test]
    fn a_card_of_the_wrong_build_names_the_rule_and_the_target() {
        let (_, state) = initial("fc", 123);
        let tops: Vec<Card> = state.columns().iter().map(|c| *c.last().unwrap()).collect();
        let mut seen = 0;
        for &card in &tops {
            for &onto in &tops {
                let wrong = onto != card && !Build::AlternateColour.allows(card, onto);
                let dest = Dest::Card(onto);
                if wrong {
                    seen += 1;
                    assert_eq!(
                        state.check_move(Move { card, dest }),
                        Err(Illegal::WrongBuild {
                            build: Build::AlternateColour,
                            onto
                        })
                    );
                }
            }
        }
        assert!(seen > 0);
    }

    #[test]
    fn seahaven_empty_columns_take_only_kings() {
        let (_, st) = initial("st", 1);
        let mut st = st.clone();
        st.empty_columns = 1; // pretend a column emptied
        let king = (0..52).find(|&c| rank(c) == KING && st.is_accessible(c));
        let other = (0..52)
            .find(|&c| rank(c) != KING && st.is_accessible(c))
            .unwrap();
        let dest = Dest::EmptyColumn;
        assert_eq!(
            st.check_move(Move { card: other, dest }),
            Err(Illegal::EmptyColumnRefuses(EmptyColumn::KingsOnly))
        );
        if let Some(king) = king {
            assert_eq!(st.check_move(Move { card: king, dest }), Ok(()));
        }
    }
}

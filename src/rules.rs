//! The four games as data (SPEC §1, §4, §5): one row of properties each.
//!
//! Everything that differs between the games lives in a [`Rules`] row, so a
//! variant (say, Seahaven whose empty columns take any card) is one more row
//! in [`GAMES`] and one more name in the table of SPEC §1.

use std::fmt;

use crate::cards::{Card, KING, SUIT_CARDS, is_red, rank, suit};

/// Which card may go on top of a column's top card (SPEC §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// One rank lower and of the other colour (FreeCell).
    AlternateColour,
    /// One rank lower and of the same suit (Seahaven, Midnight Oil).
    SameSuit,
    /// One rank lower, any suit (Baker's Dozen).
    AnySuit,
}

impl Build {
    /// May `card` be put on top of `onto`?
    #[inline]
    pub fn allows(self, card: Card, onto: Card) -> bool {
        rank(onto) == rank(card) + 1
            && match self {
                Build::AlternateColour => is_red(card) != is_red(onto),
                Build::SameSuit => suit(card) == suit(onto),
                Build::AnySuit => true,
            }
    }

    /// The cards (a bit per card, bit `c` for card `c`) that this rule lets
    /// lie on at least one card of `onto` (same encoding).
    #[inline]
    pub fn children_of(self, onto: u64) -> u64 {
        // Card numbers grow with rank, four to a rank (SPEC §2): a card's
        // possible parents are the four bits one rank group (4 bits) up.
        match self {
            Build::SameSuit => onto >> 4,
            Build::AnySuit => {
                let any = (onto | onto >> 1 | onto >> 2 | onto >> 3) & SUIT_CARDS;
                (any * 0xF) >> 4
            }
            Build::AlternateColour => {
                // Black parents (clubs, spades) take red children and the
                // other way round.
                let black = (onto | onto >> 1) & SUIT_CARDS;
                let red = (onto >> 2 | onto >> 3) & SUIT_CARDS;
                ((red * 0x3) | (black * 0xC)) >> 4
            }
        }
    }

    /// The cards (a bit per card) that at least one card of `cards` may lie
    /// on under this rule: [`Build::children_of`] the other way round.
    #[inline]
    pub fn parents_of(self, cards: u64) -> u64 {
        // A card's possible parents are the four bits one rank group up;
        // Kings' would be past the pack and are cut off.
        let parents = match self {
            Build::SameSuit => cards << 4,
            Build::AnySuit => {
                let any = (cards | cards >> 1 | cards >> 2 | cards >> 3) & SUIT_CARDS;
                (any * 0xF) << 4
            }
            Build::AlternateColour => {
                let black = (cards | cards >> 1) & SUIT_CARDS;
                let red = (cards >> 2 | cards >> 3) & SUIT_CARDS;
                ((black * 0xC) | (red * 0x3)) << 4
            }
        };
        parents & ((1u64 << 52) - 1)
    }

    /// Words for messages: what the rule asks of the card below.
    pub fn describe(self) -> &'static str {
        match self {
            Build::AlternateColour => "one rank higher and of the other colour",
            Build::SameSuit => "one rank higher and of the same suit",
            Build::AnySuit => "one rank higher",
        }
    }
}

/// What an empty column accepts (SPEC §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyColumn {
    /// Any card (FreeCell).
    AnyCard,
    /// Only a King (Seahaven).
    KingsOnly,
    /// Nothing: an emptied column stays empty (Midnight Oil, Baker's Dozen).
    Nothing,
}

impl EmptyColumn {
    /// May `card` go into an empty column?
    #[inline]
    pub fn accepts(self, card: Card) -> bool {
        match self {
            EmptyColumn::AnyCard => true,
            EmptyColumn::KingsOnly => rank(card) == KING,
            EmptyColumn::Nothing => false,
        }
    }
}

/// One game: its names and every property the rules depend on.
#[derive(Debug, PartialEq, Eq)]
pub struct Rules {
    /// The long name of SPEC §1 (`FreeCell`).
    pub name: &'static str,
    /// The short alias of SPEC §1 (`fc`).
    pub alias: &'static str,
    /// The rule name as xpat2 spells it (`Free Cell`), for its save files.
    pub xpat2_name: &'static str,
    /// Number of columns.
    pub columns: usize,
    /// Number of registers (free cells).
    pub registers: usize,
    /// Cards dealt to each column, first column first (SPEC §4).
    pub deal: &'static [u8],
    /// Cards left over after the columns, dealt to the registers.
    pub dealt_to_registers: usize,
    /// The free cells (numbered from 0) where xpat2 lays the cards dealt to
    /// registers, in deal order: Seahaven's two go to cells 0 and 2. The
    /// game does not tell free cells apart; xpat2's save files, which name
    /// every card by its place in xpat2's card array, do.
    pub xpat2_cells: &'static [usize],
    /// Baker's Dozen: kings go to the bottom of their column after the deal.
    pub kings_to_bottom: bool,
    /// What a card may be put onto in a column.
    pub build: Build,
    /// What an empty column accepts.
    pub empty_column: EmptyColumn,
    /// Under xpat2's complete rules (SPEC §10): whether a foundation's top
    /// card may come back to the tableau (every game but Midnight Oil).
    pub returns_from_foundation: bool,
    /// Under xpat2's complete rules: how many redeals a game allows
    /// (Midnight Oil's two), and how many turns of a column (its one).
    pub redeals: u8,
    /// How many turns of a column the game allows (see `redeals`).
    pub turns: u8,
}

impl Rules {
    /// Length from which a same-suit run at a column's top can no longer
    /// move except to the foundation (SPEC §8): with `r` registers, `r + 2`
    /// cards (2 in Midnight Oil). `None` where the rule does not apply.
    pub fn dead_run_length(&self) -> Option<usize> {
        (self.build == Build::SameSuit).then_some(self.registers + 2)
    }

    /// Whether an exhaustive search is a proof in the full game, or only
    /// with forced foundation moves (SPEC §7): in the same-suit games a card
    /// played to the foundation was never useful anywhere else.
    pub fn forced_foundation_is_exact(&self) -> bool {
        self.build == Build::SameSuit
    }

    /// Whether a card only ever moves onto a card one rank higher or to the
    /// foundation: no registers, and empty columns take nothing (Midnight
    /// Oil, Baker's Dozen). The rules that find lost positions by where a
    /// card may go hold only then.
    pub fn only_onto_higher(&self) -> bool {
        self.registers == 0 && self.empty_column == EmptyColumn::Nothing
    }
}

/// The four games, in the order of SPEC §1.
pub static GAMES: [Rules; 4] = [
    Rules {
        name: "FreeCell",
        alias: "fc",
        xpat2_name: "Free Cell",
        columns: 8,
        registers: 4,
        deal: &[7, 6, 7, 6, 7, 6, 7, 6],
        dealt_to_registers: 0,
        xpat2_cells: &[],
        kings_to_bottom: false,
        build: Build::AlternateColour,
        empty_column: EmptyColumn::AnyCard,
        returns_from_foundation: true,
        redeals: 0,
        turns: 0,
    },
    Rules {
        name: "Seahaven",
        alias: "st",
        xpat2_name: "Seahaven",
        columns: 10,
        registers: 4,
        deal: &[5; 10],
        dealt_to_registers: 2,
        xpat2_cells: &[0, 2],
        kings_to_bottom: false,
        build: Build::SameSuit,
        empty_column: EmptyColumn::KingsOnly,
        returns_from_foundation: true,
        redeals: 0,
        turns: 0,
    },
    Rules {
        name: "MidnightOil",
        alias: "mo",
        xpat2_name: "Midnight Oil",
        columns: 18,
        registers: 0,
        deal: &[3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1],
        dealt_to_registers: 0,
        xpat2_cells: &[],
        kings_to_bottom: false,
        build: Build::SameSuit,
        empty_column: EmptyColumn::Nothing,
        returns_from_foundation: false,
        redeals: 2,
        turns: 1,
    },
    Rules {
        name: "BakersDozen",
        alias: "bd",
        xpat2_name: "Baker's Dozen",
        columns: 13,
        registers: 0,
        deal: &[4; 13],
        dealt_to_registers: 0,
        xpat2_cells: &[],
        kings_to_bottom: true,
        build: Build::AnySuit,
        empty_column: EmptyColumn::Nothing,
        returns_from_foundation: true,
        redeals: 0,
        turns: 0,
    },
];

/// The most columns any game has.
pub const MAX_COLUMNS: usize = 18;
/// The most registers any game has.
pub const MAX_REGISTERS: usize = 4;

/// Finds a game by its long name or alias (exact spelling, as in SPEC §1).
pub fn find(name: &str) -> Option<&'static Rules> {
    GAMES.iter().find(|r| r.name == name || r.alias == name)
}

/// Highest seed xpat2 knows (SPEC §1).
pub const MAX_SEED: u32 = 999_999_999;

/// A deal: a game and a seed, as named on the command line by `RULE.SEED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameId {
    /// The game.
    pub rules: &'static Rules,
    /// The seed xpat2 deals it from, 1 to [`MAX_SEED`].
    pub seed: u32,
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.rules.name, self.seed)
    }
}

impl std::str::FromStr for GameId {
    type Err = String;

    /// Parses `RULE.SEED` (SPEC §1); the error says what would be right.
    fn from_str(text: &str) -> Result<GameId, String> {
        let names = GAMES
            .iter()
            .map(|r| format!("{} ({})", r.name, r.alias))
            .collect::<Vec<_>>()
            .join(", ");
        let Some((rule, seed)) = text.split_once('.') else {
            return Err(format!(
                "'{text}' is not RULE.SEED: expected a game and a seed joined by a dot, e.g. FreeCell.123 or fc.123"
            ));
        };
        let Some(rules) = find(rule) else {
            return Err(format!("unknown game '{rule}': expected one of {names}"));
        };
        if seed.is_empty() || !seed.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "seed '{seed}' is not a number: expected digits only, from 1 to {MAX_SEED}"
            ));
        }
        let digits = seed.trim_start_matches('0');
        let value = if digits.len() > 9 {
            None
        } else {
            digits.parse::<u32>().ok().or(Some(0))
        };
        match value {
            Some(seed @ 1..=MAX_SEED) => Ok(GameId { rules, seed }),
            _ => Err(format!(
                "seed {seed} is out of range: expected a number from 1 to {MAX_SEED}"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deal_shape_holds_the_whole_pack() {
        for r in &GAMES {
            let dealt: usize = r.deal.iter().map(|&n| n as usize).sum();
            assert_eq!(dealt + r.dealt_to_registers, 52, "{}", r.name);
            assert_eq!(r.deal.len(), r.columns, "{}", r.name);
            assert!(r.columns <= MAX_COLUMNS && r.registers <= MAX_REGISTERS);
            assert!(r.dealt_to_registers <= r.registers);
        }
    }

    #[test]
    fn building_rules() {
        let (nine_spades, ten_hearts, ten_spades, ten_clubs) = (33, 38, 37, 36);
        assert!(Build::AlternateColour.allows(nine_spades, ten_hearts));
        assert!(!Build::AlternateColour.allows(nine_spades, ten_clubs));
        assert!(Build::SameSuit.allows(nine_spades, ten_spades));
        assert!(!Build::SameSuit.allows(nine_spades, ten_clubs));
        assert!(Build::AnySuit.allows(nine_spades, ten_clubs));
        assert!(!Build::AnySuit.allows(nine_spades, 41)); // J♠: two ranks up
        assert!(!Build::AnySuit.allows(ten_clubs, nine_spades));
    }

    /// The bit-parallel form says the same as `allows`, card by card, and
    /// of a set of parents it gives the union of their children.
    #[test]
    fn children_of_a_set_of_cards_follow_the_building_rule() {
        for build in [Build::AlternateColour, Build::SameSuit, Build::AnySuit] {
            let mut all = 0;
            for onto in 0..52u8 {
                let expected = (0..52u8)
                    .filter(|&c| build.allows(c, onto))
                    .fold(0u64, |m, c| m | 1 << c);
                assert_eq!(build.children_of(1 << onto), expected, "{build:?} {onto}");
                all |= expected;
            }
            let every_card = (1u64 << 52) - 1;
            assert_eq!(build.children_of(every_card), all, "{build:?}");
            // Kings lie on nothing.
            assert_eq!(all & (0xF << 48), 0);
            // And the other way round: the cards a card may lie on.
            for card in 0..52u8 {
                let expected = (0..52u8)
                    .filter(|&onto| build.allows(card, onto))
                    .fold(0u64, |m, onto| m | 1 << onto);
                assert_eq!(build.parents_of(1 << card), expected, "{build:?} {card}");
            }
        }
    }

    #[test]
    fn empty_columns() {
        assert!(EmptyColumn::AnyCard.accepts(0));
        assert!(EmptyColumn::KingsOnly.accepts(49));
        assert!(!EmptyColumn::KingsOnly.accepts(47));
        assert!(!EmptyColumn::Nothing.accepts(51));
    }

    #[test]
    fn names_and_seeds_parse() {
        let id: GameId = "FreeCell.123456".parse().unwrap();
        assert_eq!((id.rules.name, id.seed), ("FreeCell", 123456));
        let id: GameId = "bd.000000007".parse().unwrap();
        assert_eq!((id.rules.name, id.seed), ("BakersDozen", 7));
        assert_eq!("mo.999999999".parse::<GameId>().unwrap().seed, MAX_SEED);
        assert_eq!("st.1".parse::<GameId>().unwrap().rules.name, "Seahaven");
        for bad in [
            "FreeCell",
            "FreeCell.",
            "fc.0",
            "fc.000",
            "fc.1000000000",
            "fc.-1",
            "fc.+1",
            "fc. 1",
            "fc.1 ",
            "fc.1.2",
            "fc.1e3",
            "freecell.1",
            "xx.1",
            ".1",
            "fc.99999999999999999999999",
        ] {
            assert!(bad.parse::<GameId>().is_err(), "{bad} should be refused");
        }
    }
}

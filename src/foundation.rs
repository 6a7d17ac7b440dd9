//! The rules of play a deal is played by: who plays cards to the
//! foundation, the rules themselves at once (the course's rules, SPEC §5),
//! or the player, move by move (SPEC §9); and whether xpat2's further
//! moves are allowed (SPEC §10: cards back from the foundation, Midnight
//! Oil's redeals and turn). The deal, the building rules and everything
//! else about a game are the same under all three.
//!
//! The rule is data carried by the [`Deal`](crate::deal::Deal), so a
//! position, its moves, the search and the replay of a file all read it
//! from where they read the deal; a survey that wants both verdicts of a
//! deal runs it twice, once per value of [`Foundation::ALL`].

use std::fmt;
use std::str::FromStr;

/// Whether foundation moves are forced or the player's choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Foundation {
    /// Every card that can go up goes up at once, and solution files never
    /// write foundation moves (SPEC §5–6): the course's rules.
    #[default]
    Forced,
    /// A card goes up only when a move says so (`CARD F`), as in xpat2;
    /// solution files write every foundation move (SPEC §9).
    Free,
    /// xpat2's complete rules (SPEC §10): free foundation moves, and a
    /// foundation's top card may come back (not in Midnight Oil, which has
    /// two redeals and one turn of a column instead). `--rules xpat2`.
    Xpat2,
}

impl Foundation {
    /// Both foundation rules of `--foundation`, the default first.
    pub const ALL: [Foundation; 2] = [Foundation::Forced, Foundation::Free];

    /// Every rule set `--rules` names, the default first.
    pub const EVERY: [Foundation; 3] = [Foundation::Forced, Foundation::Free, Foundation::Xpat2];

    /// The option's value for this rule: `forced`, `free` or `xpat2`.
    pub fn name(self) -> &'static str {
        match self {
            Foundation::Forced => "forced",
            Foundation::Free => "free",
            Foundation::Xpat2 => "xpat2",
        }
    }

    /// Whether every card that can go up goes up at once (SPEC §5), so
    /// that no file writes a foundation move.
    pub fn is_forced(self) -> bool {
        self == Foundation::Forced
    }

    /// `--rules NAME`: any of [`Foundation::EVERY`] by its name; the error
    /// says what would be right.
    pub fn from_rules_name(text: &str) -> Result<Foundation, String> {
        Foundation::EVERY
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| "expected forced, free or xpat2".to_string())
    }
}

impl fmt::Display for Foundation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Foundation {
    type Err = String;

    /// `--foundation`: `forced` or `free`, spelled exactly so; the error
    /// says what would be right (`xpat2` is a rule set of `--rules`).
    fn from_str(text: &str) -> Result<Foundation, String> {
        Foundation::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| "expected forced or free".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_nothing_else_reads() {
        for f in Foundation::ALL {
            assert_eq!(f.to_string().parse::<Foundation>(), Ok(f));
        }
        assert_eq!(Foundation::default(), Foundation::Forced);
        for bad in ["", "Free", "FORCED", "both", "free ", "f", "xpat2"] {
            assert!(bad.parse::<Foundation>().is_err(), "{bad:?}");
        }
        for f in Foundation::EVERY {
            assert_eq!(Foundation::from_rules_name(f.name()), Ok(f));
        }
        for bad in ["", "Xpat2", "both", "complete", "xpat2 "] {
            assert!(Foundation::from_rules_name(bad).is_err(), "{bad:?}");
        }
    }
}

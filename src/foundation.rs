//! Who plays cards to the foundation: the rules themselves at once (the
//! course's rules, SPEC §5), or the player, move by move (xpat2's own game,
//! SPEC §9). Everything else about a game is the same under both.
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
}

impl Foundation {
    /// Both rules, the default first.
    pub const ALL: [Foundation; 2] = [Foundation::Forced, Foundation::Free];

    /// The option's value for this rule: `forced` or `free`.
    pub fn name(self) -> &'static str {
        match self {
            Foundation::Forced => "forced",
            Foundation::Free => "free",
        }
    }
}

impl fmt::Display for Foundation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Foundation {
    type Err = String;

    /// `forced` or `free`, spelled exactly so; the error says what would be
    /// right.
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
        for bad in ["", "Free", "FORCED", "both", "free ", "f"] {
            assert!(bad.parse::<Foundation>().is_err(), "{bad:?}");
        }
    }
}

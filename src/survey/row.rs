//! One line of a survey's CSV file: a deal and how its search ended.
//!
//! `game,seed,verdict,moves,expanded,stored,seconds,limit`: the game by its
//! long name, the verdict word of `-search` (SPEC §7), the solution's
//! length (SUCCES only), the search's figures as `-search` prints them, and
//! for an ECHEC the limit that stopped it (`time` or `states`), so that a
//! reader can tell the deals worth a longer run from those worth more
//! memory. Nothing in a field needs quoting.

use crate::rules::GameId;
use crate::search::{Limit, Outcome, Report};

/// The first line of every survey file.
pub const HEADER: &str = "game,seed,verdict,moves,expanded,stored,seconds,limit";

/// The verdict of one deal, as `-search` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Succes,
    Insoluble,
    /// Undecided: a limit stopped the search.
    Echec,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Succes => "SUCCES",
            Verdict::Insoluble => "INSOLUBLE",
            Verdict::Echec => "ECHEC",
        }
    }
}

/// One deal's line.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub id: GameId,
    pub verdict: Verdict,
    /// The solution's length, for SUCCES.
    pub moves: Option<u32>,
    pub expanded: u64,
    pub stored: u64,
    /// Search time, as `-search` reports it.
    pub seconds: f64,
    /// What stopped an ECHEC.
    pub limit: Option<Limit>,
}

impl Row {
    pub fn new(id: GameId, report: &Report) -> Row {
        let (verdict, moves, limit) = match &report.outcome {
            Outcome::Solved(moves) => (Verdict::Succes, Some(moves.len() as u32), None),
            Outcome::Insoluble => (Verdict::Insoluble, None, None),
            Outcome::GaveUp(limit) => (Verdict::Echec, None, Some(*limit)),
        };
        Row {
            id,
            verdict,
            moves,
            expanded: report.stats.expanded,
            stored: report.stats.stored,
            seconds: report.stats.elapsed.as_secs_f64(),
            limit,
        }
    }

    /// The line, newline included, to be written in one piece.
    pub fn line(&self) -> String {
        let moves = self.moves.map(|m| m.to_string()).unwrap_or_default();
        format!(
            "{},{},{},{moves},{},{},{:.6},{}\n",
            self.id.rules.name,
            self.id.seed,
            self.verdict.word(),
            self.expanded,
            self.stored,
            self.seconds,
            self.limit.map_or("", limit_word)
        )
    }

    /// Reads a line (without its newline); the error says which field is
    /// wrong.
    pub fn parse(line: &str) -> Result<Row, String> {
        let fields: Vec<&str> = line.trim_end_matches('\r').split(',').collect();
        let [game, seed, verdict, moves, expanded, stored, seconds, limit] = fields[..] else {
            return Err(format!(
                "{} fields where a row has 8 ({HEADER})",
                fields.len()
            ));
        };
        let id: GameId = format!("{game}.{seed}").parse()?;
        let verdict = match verdict {
            "SUCCES" => Verdict::Succes,
            "INSOLUBLE" => Verdict::Insoluble,
            "ECHEC" => Verdict::Echec,
            _ => {
                return Err(format!(
                    "verdict '{verdict}' is not SUCCES, INSOLUBLE or ECHEC"
                ));
            }
        };
        let number = |name: &str, text: &str| {
            text.parse::<u64>()
                .map_err(|_| format!("{name} '{text}' is not a whole number"))
        };
        let moves = match (verdict, moves) {
            (Verdict::Succes, m) => Some(number("moves", m)? as u32),
            (_, "") => None,
            (_, m) => return Err(format!("moves '{m}' for a deal not won")),
        };
        let seconds: f64 = seconds
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)
            .ok_or_else(|| format!("seconds '{seconds}' is not a duration"))?;
        let limit = match (verdict, limit) {
            (_, "") => None,
            (Verdict::Echec, "time") => Some(Limit::Time),
            (Verdict::Echec, "states") => Some(Limit::States),
            (Verdict::Echec, "forgotten") => Some(Limit::Forgotten),
            (_, l) => return Err(format!("limit '{l}' is not time or states for an ECHEC")),
        };
        Ok(Row {
            id,
            verdict,
            moves,
            expanded: number("expanded", expanded)?,
            stored: number("stored", stored)?,
            seconds,
            limit,
        })
    }
}

/// The `limit` column's word.
fn limit_word(limit: Limit) -> &'static str {
    match limit {
        Limit::Time => "time",
        Limit::States => "states",
        Limit::Forgotten => "forgotten",
        Limit::Cancelled => "interrupted",
        Limit::Memory => "memory",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Stats;
    use std::time::Duration;

    fn report(outcome: Outcome) -> Report {
        Report {
            outcome,
            stats: Stats {
                stored: 1234,
                expanded: 999,
                elapsed: Duration::from_micros(2500),
                ..Stats::default()
            },
        }
    }

    #[test]
    fn rows_read_back_as_written() {
        let id: GameId = "st.35".parse().unwrap();
        for outcome in [
            Outcome::Insoluble,
            Outcome::GaveUp(Limit::Time),
            Outcome::GaveUp(Limit::States),
        ] {
            let row = Row::new(id, &report(outcome));
            let line = row.line();
            assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
            assert_eq!(Row::parse(line.trim_end()), Ok(row));
        }
        let line = Row::new(id, &report(Outcome::GaveUp(Limit::Time))).line();
        assert_eq!(line, "Seahaven,35,ECHEC,,999,1234,0.002500,time\n");
        assert_eq!(HEADER.split(',').count(), 8);
    }

    #[test]
    fn solved_rows_carry_their_length() {
        let row = Row::parse("FreeCell,7,SUCCES,50,10,20,0.001,").unwrap();
        assert_eq!((row.verdict, row.moves), (Verdict::Succes, Some(50)));
        assert_eq!(row.line(), "FreeCell,7,SUCCES,50,10,20,0.001000,\n");
        // Aliases and CRLF are read too.
        assert_eq!(
            Row::parse("fc,7,INSOLUBLE,,1,1,0,\r")
                .unwrap()
                .id
                .rules
                .name,
            "FreeCell"
        );
    }

    #[test]
    fn bad_rows_say_which_field() {
        let cases = [
            ("FreeCell,7,SUCCES,50,10,20,0.001", "7 fields"),
            ("Freecell,7,SUCCES,50,10,20,0.001,", "unknown game"),
            ("FreeCell,0,SUCCES,50,10,20,0.001,", "out of range"),
            ("FreeCell,7,WON,50,10,20,0.001,", "verdict 'WON'"),
            ("FreeCell,7,SUCCES,,10,20,0.001,", "moves ''"),
            ("FreeCell,7,ECHEC,50,10,20,0.001,time", "moves '50'"),
            ("FreeCell,7,ECHEC,,x,20,0.001,time", "expanded 'x'"),
            ("FreeCell,7,ECHEC,,1,20,-1,time", "seconds '-1'"),
            ("FreeCell,7,ECHEC,,1,20,0.1,memory", "limit 'memory'"),
            ("FreeCell,7,SUCCES,5,1,20,0.1,time", "limit 'time'"),
            ("FreeCell,7,SUCC", "3 fields"),
        ];
        for (line, says) in cases {
            let err = Row::parse(line).unwrap_err();
            assert!(err.contains(says), "{line}: {err}");
        }
    }
}

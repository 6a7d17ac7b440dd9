//! One line of a survey's CSV file: a deal and how its search ended.
//!
//! `game,seed,verdict,moves,expanded,stored,seconds,limit`: the game by its
//! long name, the verdict word of `-search` (SPEC §7), the solution's
//! length (SUCCES only), the search's figures as `-search` prints them, and
//! for an ECHEC the limit that stopped it (`time`, `states`, `memory`), so
//! that a reader can tell the deals worth a longer run from those worth
//! more memory. Nothing in a field needs quoting.
//!
//! A survey with `--foundation free` or `both` writes [`WIDE_HEADER`]'s two
//! more columns: `foundation`, the rule the verdict and `moves` hold under
//! (`free` counts every foundation move), and `forced`, the verdict with
//! forced foundation moves when it was searched (`both`). The course's
//! rules keep the eight columns, so files of either kind stay readable by
//! whatever read them before.

use crate::foundation::Foundation;
use crate::rules::GameId;
use crate::search::{Limit, Outcome, Report};

/// The first line of a survey file under forced rules (the default).
pub const HEADER: &str = "game,seed,verdict,moves,expanded,stored,seconds,limit";

/// The first line of a survey file with `--foundation free` or `both`.
pub const WIDE_HEADER: &str =
    "game,seed,verdict,moves,expanded,stored,seconds,limit,foundation,forced";

/// The verdict of one deal, as `-search` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Succes,
    Insoluble,
    /// Undecided: a limit stopped the search.
    Echec,
}

impl Verdict {
    /// Reads a verdict word; `field` names the column for the message.
    fn parse(word: &str, field: &str) -> Result<Verdict, String> {
        match word {
            "SUCCES" => Ok(Verdict::Succes),
            "INSOLUBLE" => Ok(Verdict::Insoluble),
            "ECHEC" => Ok(Verdict::Echec),
            _ => Err(format!(
                "{field} '{word}' is not SUCCES, INSOLUBLE or ECHEC"
            )),
        }
    }

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
    /// The rule `verdict` and `moves` hold under.
    pub foundation: Foundation,
    /// The verdict with forced foundation moves, when searched beside
    /// `verdict` (`--foundation both`).
    pub forced: Option<Verdict>,
}

impl Row {
    /// The row of one search under `foundation`.
    pub fn new(id: GameId, foundation: Foundation, report: &Report) -> Row {
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
            foundation,
            forced: None,
        }
    }

    /// The row of `--foundation both` for a deal not won with forced
    /// moves: `free`'s verdict and solution, the forced verdict beside it,
    /// and the figures of both searches, which together are the deal's cost.
    pub fn after_forced(forced: &Row, free: Row) -> Row {
        Row {
            expanded: forced.expanded + free.expanded,
            stored: forced.stored + free.stored,
            seconds: forced.seconds + free.seconds,
            forced: Some(forced.verdict),
            ..free
        }
    }

    /// The line, newline included, to be written in one piece: with the
    /// two columns of [`WIDE_HEADER`] when `wide`.
    pub fn line(&self, wide: bool) -> String {
        let moves = self.moves.map(|m| m.to_string()).unwrap_or_default();
        let more = match wide {
            false => String::new(),
            true => format!(
                ",{},{}",
                self.foundation,
                self.forced.map_or("", Verdict::word)
            ),
        };
        format!(
            "{},{},{},{moves},{},{},{:.6},{}{more}\n",
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
        let wrong = || {
            format!(
                "{} fields where a row has 8 ({HEADER}) or 10 (with foundation,forced)",
                fields.len()
            )
        };
        let [
            game,
            seed,
            verdict,
            moves,
            expanded,
            stored,
            seconds,
            limit_text,
            ref wide @ ..,
        ] = fields[..]
        else {
            return Err(wrong());
        };
        let (foundation, forced) = match *wide {
            [] => (Foundation::Forced, None),
            [foundation, forced] => (
                foundation
                    .parse()
                    .map_err(|_| format!("foundation '{foundation}' is not forced or free"))?,
                match forced {
                    "" => None,
                    word => Some(Verdict::parse(word, "forced")?),
                },
            ),
            _ => return Err(wrong()),
        };
        let id: GameId = format!("{game}.{seed}").parse()?;
        let verdict = Verdict::parse(verdict, "verdict")?;
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
        let limit = match (verdict, limit_text) {
            (_, "") => None,
            (Verdict::Echec, word) => ROW_LIMITS.into_iter().find(|&l| limit_word(l) == word),
            _ => None,
        };
        if limit.is_none() && !limit_text.is_empty() {
            return Err(format!(
                "limit '{limit_text}' is not time, states or memory for an ECHEC"
            ));
        }
        Ok(Row {
            id,
            verdict,
            moves,
            expanded: number("expanded", expanded)?,
            stored: number("stored", stored)?,
            seconds,
            limit,
            foundation,
            forced,
        })
    }
}

/// The limits a row can carry: an interrupted deal gets no row. The
/// reader takes the writer's words ([`limit_word`]), so the two cannot
/// disagree.
const ROW_LIMITS: [Limit; 4] = [Limit::Time, Limit::States, Limit::Forgotten, Limit::Memory];

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
            Outcome::GaveUp(Limit::Memory),
        ] {
            let row = Row::new(id, Foundation::Forced, &report(outcome));
            for wide in [false, true] {
                let line = row.line(wide);
                assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
                assert_eq!(Row::parse(line.trim_end()), Ok(row.clone()));
            }
        }
        let line = Row::new(
            id,
            Foundation::Forced,
            &report(Outcome::GaveUp(Limit::Time)),
        );
        assert_eq!(
            line.line(false),
            "Seahaven,35,ECHEC,,999,1234,0.002500,time\n"
        );
        assert_eq!(HEADER.split(',').count(), 8);
        assert!(WIDE_HEADER.starts_with(&format!("{HEADER},")));
    }

    /// `--foundation both`: the free search's verdict and solution, the
    /// forced verdict beside it, the two searches' figures added.
    #[test]
    fn a_deal_won_only_with_free_moves_keeps_both_verdicts() {
        let id: GameId = "bd.3118".parse().unwrap();
        let forced = Row::new(id, Foundation::Forced, &report(Outcome::Insoluble));
        let moves = vec![
            crate::state::Move {
                card: 0,
                dest: crate::state::Dest::Foundation
            };
            66
        ];
        let free = Row::new(id, Foundation::Free, &report(Outcome::Solved(moves)));
        let row = Row::after_forced(&forced, free);
        let line = row.line(true);
        assert_eq!(
            line,
            "BakersDozen,3118,SUCCES,66,1998,2468,0.005000,,free,INSOLUBLE\n"
        );
        assert_eq!(Row::parse(line.trim_end()), Ok(row));
    }

    #[test]
    fn solved_rows_carry_their_length() {
        let row = Row::parse("FreeCell,7,SUCCES,50,10,20,0.001,").unwrap();
        assert_eq!((row.verdict, row.moves), (Verdict::Succes, Some(50)));
        assert_eq!(row.line(false), "FreeCell,7,SUCCES,50,10,20,0.001000,\n");
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
            ("FreeCell,7,ECHEC,,1,20,0.1,forever", "limit 'forever'"),
            ("FreeCell,7,SUCCES,5,1,20,0.1,time", "limit 'time'"),
            ("FreeCell,7,SUCC", "3 fields"),
            ("FreeCell,7,SUCCES,5,1,20,0.1,,free", "9 fields"),
            ("FreeCell,7,SUCCES,5,1,20,0.1,,libre,", "foundation 'libre'"),
            ("FreeCell,7,SUCCES,5,1,20,0.1,,free,WON", "forced 'WON'"),
        ];
        for (line, says) in cases {
            let err = Row::parse(line).unwrap_err();
            assert!(err.contains(says), "{line}: {err}");
        }
    }
}

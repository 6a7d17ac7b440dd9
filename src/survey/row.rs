//! One line of a survey's CSV file: a deal and how its search ended.
//!
//! `game,seed,verdict,moves,expanded,stored,seconds,limit`: the game by its
//! long name, the verdict word of `-search` (SPEC §7), the solution's
//! length (SUCCES only), the search's figures as `-search` prints them, and
//! for an ECHEC the limit that stopped it (`time`, `states`, `memory`), so
//! that a reader can tell the deals worth a longer run from those worth
//! more memory. Nothing in a field needs quoting.
//!
//! A survey with `--foundation free` or `both`, or `--rules xpat2`,
//! writes [`WIDE_HEADER`]'s three more columns: `foundation`, the rule the
//! verdict and `moves` hold under (`free` and `xpat2` count every
//! foundation move), `forced`, the verdict with forced foundation moves
//! when it was searched (`both`), and `rules`, the rule set the survey ran
//! under (the `--foundation` or `--rules` word), which every
//! row of a file shares: a file answers one question, so it is resumed and
//! summarized only with others of its rules. The course's rules keep the
//! eight columns (their rules are `forced`), so files of either kind stay
//! readable by whatever read them before; so do files with
//! [`LEGACY_WIDE_HEADER`], begun before the `rules` column, whose rows
//! tell `both` (a `forced` verdict) from `free` (none).

use crate::foundation::Foundation;
use crate::rules::GameId;
use crate::search::{Limit, Outcome, Report};
use crate::solution::quote;

use super::args::Under;

/// The first line of a survey file under forced rules (the default).
pub const HEADER: &str = "game,seed,verdict,moves,expanded,stored,seconds,limit";

/// The first line of a survey file under other rules.
pub const WIDE_HEADER: &str =
    "game,seed,verdict,moves,expanded,stored,seconds,limit,foundation,forced,rules";

/// The first line of a `--foundation free` or `both` file begun before
/// the `rules` column: still read, resumed and written in its own columns.
pub const LEGACY_WIDE_HEADER: &str =
    "game,seed,verdict,moves,expanded,stored,seconds,limit,foundation,forced";

/// Which columns a file's rows have: what its header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// [`HEADER`]: rules `forced`.
    Forced,
    /// [`LEGACY_WIDE_HEADER`]: rules `both` or `free` by the `forced` column.
    Legacy,
    /// [`WIDE_HEADER`]: the rules in their column.
    Ruled,
}

impl Layout {
    /// Every layout, the newest last.
    const ALL: [Layout; 3] = [Layout::Forced, Layout::Legacy, Layout::Ruled];

    /// The layout a new file under `rules` gets.
    pub fn for_rules(rules: Under) -> Layout {
        match rules {
            Under::Forced => Layout::Forced,
            _ => Layout::Ruled,
        }
    }

    /// The header line of the layout (without its newline).
    pub fn header(self) -> &'static str {
        match self {
            Layout::Forced => HEADER,
            Layout::Legacy => LEGACY_WIDE_HEADER,
            Layout::Ruled => WIDE_HEADER,
        }
    }

    /// The layout whose header is `line` (without its newline).
    pub fn of_header(line: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.header() == line)
    }

    /// Whether `text` may be the start of a header torn short.
    pub fn begins_a_header(text: &str) -> bool {
        Layout::ALL.iter().any(|l| l.header().starts_with(text))
    }

    /// How many columns a row of the layout has.
    pub fn columns(self) -> usize {
        self.header().split(',').count()
    }

    /// Whether rows under `rules` can be written in this layout.
    pub fn holds(self, rules: Under) -> bool {
        match self {
            Layout::Forced => rules == Under::Forced,
            // Its rows tell their rules by the forced column alone.
            Layout::Legacy => matches!(rules, Under::Free | Under::Both),
            Layout::Ruled => rules != Under::Forced,
        }
    }
}

/// The verdict of one deal, as `-search` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Won: a solution was found.
    Succes,
    /// Proven without a solution.
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
                "{field} '{}' is not SUCCES, INSOLUBLE or ECHEC",
                quote(word.as_bytes())
            )),
        }
    }

    /// The verdict word: `SUCCES`, `INSOLUBLE` or `ECHEC`.
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
    /// The deal.
    pub id: GameId,
    /// Its verdict under the row's rules.
    pub verdict: Verdict,
    /// The solution's length, for SUCCES.
    pub moves: Option<u32>,
    /// Positions the search expanded.
    pub expanded: u64,
    /// Positions the search stored.
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
    /// The rule set the survey ran under (its file's, see [`Layout`]).
    pub rules: Under,
}

impl Row {
    /// The row of one search under `foundation`, in a survey under `rules`.
    pub fn new(id: GameId, foundation: Foundation, rules: Under, report: &Report) -> Row {
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
            rules,
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

    /// The line, newline included, to be written in one piece, with the
    /// columns of `layout`.
    pub fn line(&self, layout: Layout) -> String {
        let moves = self.moves.map(|m| m.to_string()).unwrap_or_default();
        let wide = || {
            format!(
                ",{},{}",
                self.foundation,
                self.forced.map_or("", Verdict::word)
            )
        };
        let more = match layout {
            Layout::Forced => String::new(),
            Layout::Legacy => wide(),
            Layout::Ruled => format!("{},{}", wide(), self.rules.name()),
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

    /// Reads a line (without its newline), of any [`Layout`]; the error
    /// says which field is wrong, quoted.
    pub fn parse(line: &str) -> Result<Row, String> {
        let fields: Vec<&str> = line.trim_end_matches('\r').split(',').collect();
        let wrong = || {
            format!(
                "{} fields where a row has 8 ({HEADER}), 10 or 11 (with foundation,forced[,rules])",
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
        let field = |text: &str| quote(text.as_bytes());
        let foundation = |word: &str| {
            Foundation::from_rules_name(word)
                .map_err(|_| format!("foundation '{}' is not forced, free or xpat2", field(word)))
        };
        let forced = |word: &str| match word {
            "" => Ok(None),
            word => Verdict::parse(word, "forced").map(Some),
        };
        let (foundation, forced, rules) = match *wide {
            [] => (Foundation::Forced, None, Some(Under::Forced)),
            [f, v] => (foundation(f)?, forced(v)?, None),
            [f, v, r] => (
                foundation(f)?,
                forced(v)?,
                Some(Under::parse(r).map_err(|e| format!("rules '{}': {e}", field(r)))?),
            ),
            _ => return Err(wrong()),
        };
        // Before the rules column, `both` gave every row a forced verdict
        // and `free` none.
        let rules = rules.unwrap_or(match forced {
            Some(_) => Under::Both,
            None => Under::Free,
        });
        // xpat2's rules are searched once, under themselves alone.
        if (foundation == Foundation::Xpat2) != (rules == Under::Xpat2)
            || (rules == Under::Xpat2 && forced.is_some())
        {
            return Err(format!(
                "foundation '{foundation}' and forced '{}' under rules '{}': xpat2's rules hold in all three columns or in none",
                forced.map_or("", Verdict::word),
                rules.name()
            ));
        }
        let id: GameId = format!("{game}.{seed}")
            .parse()
            .map_err(|e: String| super::say::one_line(&e).into_owned())?;
        let verdict = Verdict::parse(verdict, "verdict")?;
        let number = |name: &str, text: &str| {
            text.parse::<u64>()
                .map_err(|_| format!("{name} '{}' is not a whole number", field(text)))
        };
        let moves = match (verdict, moves) {
            (Verdict::Succes, m) => Some(number("moves", m)? as u32),
            (_, "") => None,
            (_, m) => return Err(format!("moves '{}' for a deal not won", field(m))),
        };
        let seconds: f64 = seconds
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)
            .ok_or_else(|| format!("seconds '{}' is not a duration", field(seconds)))?;
        let limit = match (verdict, limit_text) {
            (_, "") => None,
            (Verdict::Echec, word) => ROW_LIMITS.into_iter().find(|&l| limit_word(l) == word),
            _ => None,
        };
        if limit.is_none() && !limit_text.is_empty() {
            return Err(format!(
                "limit '{}' is not time, states or memory for an ECHEC",
                field(limit_text)
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
            rules,
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
            for rules in Under::ALL {
                let first = rules.searches()[0];
                let mut row = Row::new(id, first, rules, &report(outcome.clone()));
                // `both` searches forced first: its rows hold that verdict.
                row.forced = (rules == Under::Both).then_some(row.verdict);
                for layout in Layout::ALL.into_iter().filter(|l| l.holds(rules)) {
                    let line = row.line(layout);
                    assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
                    assert_eq!(line.split(',').count(), layout.columns());
                    assert_eq!(Row::parse(line.trim_end()), Ok(row.clone()), "{line}");
                }
            }
        }
        let line = Row::new(
            id,
            Foundation::Forced,
            Under::Forced,
            &report(Outcome::GaveUp(Limit::Time)),
        );
        assert_eq!(
            line.line(Layout::Forced),
            "Seahaven,35,ECHEC,,999,1234,0.002500,time\n"
        );
        assert_eq!(HEADER.split(',').count(), 8);
        assert!(LEGACY_WIDE_HEADER.starts_with(&format!("{HEADER},")));
        assert!(WIDE_HEADER.starts_with(&format!("{LEGACY_WIDE_HEADER},")));
    }

    /// The rules column says which rule set a row was surveyed under; a
    /// row of a file begun before it tells by its forced verdict.
    #[test]
    fn rows_know_their_rules() {
        let rules = |line: &str| Row::parse(line).map(|r| r.rules.name());
        assert_eq!(rules("FreeCell,7,SUCCES,50,10,20,0.001,"), Ok("forced"));
        assert_eq!(rules("FreeCell,7,SUCCES,50,10,20,0.001,,free,"), Ok("free"));
        assert_eq!(
            rules("FreeCell,7,SUCCES,50,10,20,0.001,,free,INSOLUBLE"),
            Ok("both")
        );
        assert_eq!(
            rules("FreeCell,7,SUCCES,50,10,20,0.001,,forced,SUCCES,both"),
            Ok("both")
        );
        assert_eq!(
            rules("FreeCell,7,SUCCES,50,10,20,0.001,,free,,free"),
            Ok("free")
        );
        assert_eq!(
            rules("MidnightOil,7,SUCCES,90,10,20,0.001,,xpat2,,xpat2"),
            Ok("xpat2")
        );
        let err = Row::parse("FreeCell,7,SUCCES,50,10,20,0.001,,free,,\u{1b}[2J").unwrap_err();
        assert!(err.contains("rules '\\u{1b}[2J'"), "{err}");
    }

    /// `--foundation both`: the free search's verdict and solution, the
    /// forced verdict beside it, the two searches' figures added.
    #[test]
    fn a_deal_won_only_with_free_moves_keeps_both_verdicts() {
        let id: GameId = "bd.3118".parse().unwrap();
        let forced = Row::new(
            id,
            Foundation::Forced,
            Under::Both,
            &report(Outcome::Insoluble),
        );
        let moves = vec![
            crate::state::Move {
                card: 0,
                dest: crate::state::Dest::Foundation
            };
            66
        ];
        let free = Row::new(
            id,
            Foundation::Free,
            Under::Both,
            &report(Outcome::Solved(moves)),
        );
        let row = Row::after_forced(&forced, free);
        let line = row.line(Layout::Ruled);
        assert_eq!(
            line,
            "BakersDozen,3118,SUCCES,66,1998,2468,0.005000,,free,INSOLUBLE,both\n"
        );
        assert_eq!(Row::parse(line.trim_end()), Ok(row.clone()));
        let legacy = row.line(Layout::Legacy);
        assert_eq!(Row::parse(legacy.trim_end()), Ok(row));
    }

    #[test]
    fn solved_rows_carry_their_length() {
        let row = Row::parse("FreeCell,7,SUCCES,50,10,20,0.001,").unwrap();
        assert_eq!((row.verdict, row.moves), (Verdict::Succes, Some(50)));
        assert_eq!(
            row.line(Layout::Forced),
            "FreeCell,7,SUCCES,50,10,20,0.001000,\n"
        );
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
            ("FreeCell,7,SUCCES,5,1,20,0.1,,free,,libre", "rules 'libre'"),
            ("FreeCell,7,SUCCES,5,1,20,0.1,,free,,free,x", "12 fields"),
            ("FreeCell,7,SUCCES,5,1,20,0.1,,xpat2,,free", "in all three"),
            ("FreeCell,7,SUCCES,5,1,20,0.1,,free,,xpat2", "in all three"),
            (
                "FreeCell,7,SUCCES,5,1,20,0.1,,xpat2,SUCCES,xpat2",
                "in all three",
            ),
            ("FreeCell,7,SUCCES,5,1,20,0.1,,xpat2,", "in all three"),
            ("FreeCell,7,\u{1b}[2J,5,1,20,0.1,", "verdict '\\u{1b}[2J'"),
            (
                "FreeCell\n,7,SUCCES,5,1,20,0.1,",
                "unknown game 'FreeCell\\n'",
            ),
        ];
        for (line, says) in cases {
            let err = Row::parse(line).unwrap_err();
            assert!(err.contains(says), "{line}: {err}");
        }
    }
}

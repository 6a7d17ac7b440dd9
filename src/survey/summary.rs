//! The summary of a survey, per game: how many deals are won, proven
//! lost, undecided; the solvable share with its 95% interval; times and
//! solution lengths; which seeds are lost or undecided.
//!
//! It is computed from the rows alone, once each deal, whatever files
//! they came from and in whatever order, so the summary of shards merged
//! is the summary of the whole survey.

use rustc_hash::FxHashMap;

use crate::rules::GAMES;

use super::args::Under;
use super::deals::deal_key;
use super::row::{Row, Verdict};

/// Seeds listed per game and kind before "and N more".
const SEEDS_LISTED: usize = 20;

/// What the summary keeps of a row.
#[derive(Clone, Copy, Debug)]
struct Entry {
    verdict: Verdict,
    moves: u32,
    seconds: f32,
    /// Positions expanded, for the report's plots.
    expanded: u64,
    /// The forced verdict, when searched beside the real game's
    /// (`--foundation both`).
    forced: Option<Verdict>,
}

/// Every deal's result, once each.
#[derive(Default)]
pub struct Results {
    by_deal: FxHashMap<(u8, u32), Entry>,
    /// Rows for a deal already seen (shards that overlap, or a file given
    /// twice): counted once.
    pub repeated: u64,
    /// The rules every row holds under (a survey's, or its files'; the
    /// callers refuse mixing), said above the table.
    pub rules: Option<Under>,
}

impl Results {
    /// The results of a survey under `rules`, before any row.
    pub fn under(rules: Under) -> Results {
        Results {
            rules: Some(rules),
            ..Results::default()
        }
    }

    /// Adds a row. A deal seen twice counts once: a verdict wins over an
    /// ECHEC (a later run with higher limits decided it), else the first.
    pub fn add(&mut self, row: &Row) {
        self.rules.get_or_insert(row.rules);
        let key = deal_key(row.id);
        let entry = Entry {
            verdict: row.verdict,
            moves: row.moves.unwrap_or(0),
            seconds: row.seconds as f32,
            expanded: row.expanded,
            forced: row.forced,
        };
        match self.by_deal.get_mut(&key) {
            None => {
                self.by_deal.insert(key, entry);
            }
            Some(old) => {
                self.repeated += 1;
                if old.verdict == Verdict::Echec && entry.verdict != Verdict::Echec {
                    *old = entry;
                }
            }
        }
    }

    /// Deals counted.
    pub fn deals(&self) -> u64 {
        self.by_deal.len() as u64
    }

    /// Deals left ECHEC.
    pub fn undecided(&self) -> u64 {
        self.by_deal
            .values()
            .filter(|e| e.verdict == Verdict::Echec)
            .count() as u64
    }

    /// Every deal counted, once each, in no particular order: what the
    /// HTML report (`survey::report`) aggregates.
    pub fn each(&self) -> impl Iterator<Item = Deal> + '_ {
        self.by_deal.iter().map(|(&(game, seed), e)| Deal {
            game: game as usize,
            seed,
            verdict: e.verdict,
            seconds: e.seconds,
            expanded: e.expanded,
        })
    }

    /// The summary: a Markdown table, one line per game, then the seeds
    /// proven lost and those undecided.
    pub fn render(&self) -> String {
        let mut out = self.rules.map_or(String::new(), |r| {
            format!("Rules: {}: {}\n\n", r.name(), r.description())
        });
        out.push_str(
            "| game | deals | SUCCES | INSOLUBLE | undecided | solvable | 95% interval | median s | p90 s | max s | median moves |\n\
             |---|---|---|---|---|---|---|---|---|---|---|\n",
        );
        let mut lists = String::new();
        for (g, rules) in GAMES.iter().enumerate() {
            let game =
                GameSummary::of(self.by_deal.iter().filter(|((gi, _), _)| *gi as usize == g));
            if game.deals() == 0 {
                continue;
            }
            out.push_str(&format!("| {} {}\n", rules.name, game.columns()));
            lists.push_str(&seed_list(rules.name, "INSOLUBLE", &game.insoluble));
            lists.push_str(&seed_list(rules.name, "undecided", &game.undecided));
            lists.push_str(&game.forced_lines(rules.name));
        }
        out + &lists
    }
}

/// One deal's result, as [`Results::each`] gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deal {
    /// Its game's index in [`GAMES`].
    pub game: usize,
    /// Its seed.
    pub seed: u32,
    /// What its search said.
    pub verdict: Verdict,
    /// How long its search took.
    pub seconds: f32,
    /// Positions its search expanded.
    pub expanded: u64,
}

/// One game's figures.
#[derive(Default)]
struct GameSummary {
    succes: u64,
    insoluble: Vec<u32>,
    undecided: Vec<u32>,
    seconds: Vec<f32>,
    moves: Vec<u32>,
    /// Forced verdicts known (`--foundation both`): SUCCES, INSOLUBLE,
    /// ECHEC.
    forced: [u64; 3],
    /// Deals won, and INSOLUBLE with forced foundation moves: those
    /// forcing loses.
    forcing_loses: Vec<u32>,
    /// Deals won, and undecided with forced foundation moves: forcing may
    /// or may not lose them.
    won_free_forced_open: Vec<u32>,
}

impl GameSummary {
    fn of<'a>(entries: impl Iterator<Item = (&'a (u8, u32), &'a Entry)>) -> GameSummary {
        let mut g = GameSummary::default();
        for (&(_, seed), e) in entries {
            g.seconds.push(e.seconds);
            if let Some(forced) = e.forced {
                let column = match forced {
                    Verdict::Succes => 0,
                    Verdict::Insoluble => 1,
                    Verdict::Echec => 2,
                };
                g.forced[column] += 1;
                match (forced, e.verdict) {
                    (Verdict::Insoluble, Verdict::Succes) => g.forcing_loses.push(seed),
                    (Verdict::Echec, Verdict::Succes) => g.won_free_forced_open.push(seed),
                    _ => {}
                }
            }
            match e.verdict {
                Verdict::Succes => {
                    g.succes += 1;
                    g.moves.push(e.moves);
                }
                Verdict::Insoluble => g.insoluble.push(seed),
                Verdict::Echec => g.undecided.push(seed),
            }
        }
        g.insoluble.sort_unstable();
        g.undecided.sort_unstable();
        g.forcing_loses.sort_unstable();
        g.won_free_forced_open.sort_unstable();
        g.seconds.sort_unstable_by(f32::total_cmp);
        g.moves.sort_unstable();
        g
    }

    fn deals(&self) -> u64 {
        self.seconds.len() as u64
    }

    /// Under `--foundation both`: the forced verdicts, and the deals that
    /// forcing loses (the course's first kind of counterexample; its
    /// second kind, deals no play wins, are the INSOLUBLE ones then).
    fn forced_lines(&self, game: &str) -> String {
        let [won, lost, open] = self.forced;
        if won + lost + open == 0 {
            return String::new();
        }
        format!(
            "{game} with forced foundation moves: {won} SUCCES, {lost} INSOLUBLE, {open} undecided\n{}{}",
            seed_list(
                game,
                "lost by forcing (INSOLUBLE forced, won free)",
                &self.forcing_loses
            ),
            seed_list(
                game,
                "won free, undecided forced",
                &self.won_free_forced_open
            )
        )
    }

    /// The table's columns after the game's name, each closed by `|`.
    fn columns(&self) -> String {
        let (n, s) = (self.deals(), self.succes);
        let (lost, open) = (self.insoluble.len() as u64, self.undecided.len() as u64);
        let share = match s + lost {
            0 => "-".to_string(),
            decided => percent(s as f64 / decided as f64),
        };
        let (low, high) = solvable_interval(s, lost, open);
        let secs = |p| format!("{:.4}", percentile(&self.seconds, p).unwrap_or(0.0));
        let moves = percentile(&self.moves, 0.5).map_or("-".into(), |m| m.to_string());
        format!(
            "| {n} | {s} | {lost} | {open} | {share} | {}–{} | {} | {} | {} | {moves} |",
            percent(low),
            percent(high),
            secs(0.5),
            secs(0.9),
            secs(1.0)
        )
    }
}

pub(super) fn percent(share: f64) -> String {
    format!("{:.4}%", share * 100.0)
}

/// `GAME KIND (count): seeds...`, the first [`SEEDS_LISTED`], or nothing.
fn seed_list(game: &str, kind: &str, seeds: &[u32]) -> String {
    if seeds.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = seeds
        .iter()
        .take(SEEDS_LISTED)
        .map(|s| s.to_string())
        .collect();
    let more = match seeds.len().saturating_sub(SEEDS_LISTED) {
        0 => String::new(),
        m => format!(" and {m} more"),
    };
    format!(
        "{game} {kind} ({}): {}{more}\n",
        seeds.len(),
        shown.join(" ")
    )
}

/// The nearest-rank `p`-quantile of sorted values (`p` in (0, 1]): an
/// element of the data, so merged shards give the same figure exactly.
fn percentile<T: Copy>(sorted: &[T], p: f64) -> Option<T> {
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.max(1) - 1).copied()
}

/// The 95% interval of the solvable share, Solvitaire's way of bounding
/// what a limit left open: its low end is the Wilson interval's low end
/// with the undecided deals counted as lost, its high end the high end
/// with them counted as won. (Solvitaire's code computes the same two
/// bounds with the Agresti–Coull interval; issue 10 asks for Wilson's,
/// which stays inside [0, 1] and is tighter at shares near 100%.)
pub(super) fn solvable_interval(succes: u64, insoluble: u64, undecided: u64) -> (f64, f64) {
    let n = succes + insoluble + undecided;
    (wilson(succes, n).0, wilson(succes + undecided, n).1)
}

/// The Wilson score interval at 95% for `x` successes in `n` trials.
pub(super) fn wilson(x: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054; // the normal's 97.5% quantile
    let (x, n) = (x as f64, n as f64);
    let p = x / n;
    let z2n = Z * Z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = Z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 5e-5 && (a.1 - b.1).abs() < 5e-5
    }

    /// Textbook values (Newcombe 1998, table I).
    #[test]
    fn wilson_interval_matches_published_values() {
        assert!(
            close(wilson(81, 263), (0.2553, 0.3662)),
            "{:?}",
            wilson(81, 263)
        );
        assert!(
            close(wilson(15, 148), (0.0624, 0.1605)),
            "{:?}",
            wilson(15, 148)
        );
        assert!(close(wilson(0, 20), (0.0, 0.1611)), "{:?}", wilson(0, 20));
        assert!(
            close(wilson(1, 29), (0.0061, 0.1718)),
            "{:?}",
            wilson(1, 29)
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn undecided_deals_widen_the_interval_both_ways() {
        let decided = solvable_interval(90, 10, 0);
        assert!(close(decided, wilson(90, 100)));
        let (low, high) = solvable_interval(90, 5, 5);
        assert!(close((low, high), (wilson(90, 100).0, wilson(95, 100).1)));
        assert!(low < high);
        let (low, high) = solvable_interval(1000, 0, 0);
        assert!(low > 0.996 && high == 1.0, "{low} {high}");
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<u32> = (1..=10).collect();
        assert_eq!(percentile(&v, 0.5), Some(5));
        assert_eq!(percentile(&v, 0.9), Some(9));
        assert_eq!(percentile(&v, 1.0), Some(10));
        assert_eq!(percentile(&[7u32], 0.5), Some(7));
        assert_eq!(percentile::<u32>(&[], 0.5), None);
    }

    fn row(line: &str) -> Row {
        Row::parse(line).unwrap()
    }

    #[test]
    fn each_deal_counts_once_and_a_verdict_beats_an_echec() {
        let mut r = Results::default();
        r.add(&row("FreeCell,1,ECHEC,,5,5,10.0,time"));
        r.add(&row("FreeCell,1,SUCCES,40,5,5,12.0,"));
        r.add(&row("FreeCell,1,ECHEC,,5,5,10.0,time"));
        r.add(&row("Seahaven,1,INSOLUBLE,,5,5,0.5,"));
        assert_eq!((r.deals(), r.undecided(), r.repeated), (2, 0, 2));
        let text = r.render();
        assert!(
            text.contains("| FreeCell | 1 | 1 | 0 | 0 | 100.0000% |"),
            "{text}"
        );
        assert!(
            text.contains("| 12.0000 | 12.0000 | 12.0000 | 40 |"),
            "{text}"
        );
        assert!(text.contains("Seahaven INSOLUBLE (1): 1\n"), "{text}");
        assert!(!text.contains("Midnight"), "{text}");
        // Rows of the course's rules: said once, above the table, and no
        // forced verdicts below it.
        let (rules, table) = text.split_once("\n\n").unwrap();
        assert_eq!(
            rules,
            "Rules: forced: forced foundation moves (the course's rules)"
        );
        assert!(!table.contains("forced"), "{text}");
    }

    /// The rules the rows hold under head the summary: a survey's before
    /// any row, or its files'.
    #[test]
    fn the_summary_says_its_rules() {
        let mut r = Results::default();
        assert!(r.render().starts_with("| game |"));
        r.add(&row("MidnightOil,1,SUCCES,90,5,5,1.0,,xpat2,,xpat2"));
        assert!(
            r.render()
                .starts_with("Rules: xpat2: xpat2's complete rules (free foundation moves, cards back from the foundation, Midnight Oil's redeals and turn)\n\n| game |"),
            "{}",
            r.render()
        );
        assert!(r.render().contains("| MidnightOil | 1 | 1 | 0 | 0 |"));
        let empty = Results::under(Under::Free).render();
        assert!(empty.starts_with("Rules: free: "), "{empty}");
    }

    /// `--foundation both`: the real game's verdicts in the table, the
    /// forced ones and the deals forcing loses below it.
    #[test]
    fn both_rules_show_what_forcing_loses() {
        let mut r = Results::default();
        r.add(&row("BakersDozen,3118,SUCCES,66,5,5,1.0,,free,INSOLUBLE"));
        r.add(&row("BakersDozen,7,INSOLUBLE,,5,5,1.0,,free,INSOLUBLE"));
        r.add(&row("BakersDozen,8,SUCCES,40,5,5,1.0,,forced,SUCCES"));
        r.add(&row("BakersDozen,9,SUCCES,70,5,5,1.0,,free,ECHEC"));
        let text = r.render();
        assert!(text.contains("| BakersDozen | 4 | 3 | 1 | 0 |"), "{text}");
        assert!(
            text.contains(
                "BakersDozen with forced foundation moves: 1 SUCCES, 2 INSOLUBLE, 1 undecided\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("BakersDozen lost by forcing (INSOLUBLE forced, won free) (1): 3118\n"),
            "{text}"
        );
        assert!(
            text.contains("BakersDozen won free, undecided forced (1): 9\n"),
            "{text}"
        );
    }

    #[test]
    fn long_seed_lists_are_cut_at_twenty() {
        let seeds: Vec<u32> = (1..=25).collect();
        let line = seed_list("Seahaven", "undecided", &seeds);
        assert!(
            line.starts_with("Seahaven undecided (25): 1 2 3 "),
            "{line}"
        );
        assert!(line.ends_with(" 19 20 and 5 more\n"), "{line}");
        assert_eq!(seed_list("Seahaven", "undecided", &[]), "");
    }
}

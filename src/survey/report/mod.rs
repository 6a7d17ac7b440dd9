//! `survey --summary FILE... --html REPORT`: the summary as one page a
//! reader looks at, per game: the verdicts' shares with their intervals,
//! the time and the positions each deal took as histograms on a log
//! scale, the slowest deals, the seeds lost and undecided.
//!
//! The page stands alone: its style is inline and its plots are SVG drawn
//! here ([`svg`]), so it opens offline, from a mail or an archive, the same
//! in ten years. It is aggregated from the summary's own results (each
//! deal once, the intervals the summary computes) a deal at a time, into
//! counters ([`scale`]) and bounded lists ([`top`]): a million deals cost
//! what a few hundred do, beyond the summary's own table of deals.
//!
//! - [`page`]: the HTML around the plots, everything in it escaped

pub mod page;
pub mod scale;
pub mod svg;
pub mod text;
pub mod top;

use std::cmp::{Ordering, Reverse};
use std::path::{Path, PathBuf};

use crate::output::{OutputId, Outputs};
use crate::rules::GAMES;

use super::row::Verdict;
use super::summary::{Deal, Results};
use scale::LogHistogram;
use top::Top;

/// The slowest deals shown per game.
pub const SLOWEST_SHOWN: usize = 20;

/// The INSOLUBLE or undecided seeds listed per game before "and N more".
pub const SEEDS_SHOWN: usize = 500;

/// One game's figures for the page.
#[derive(Debug)]
pub struct GameReport {
    /// Its index in [`GAMES`].
    pub game: usize,
    pub succes: u64,
    pub insoluble: u64,
    pub undecided: u64,
    pub seconds: LogHistogram,
    pub expanded: LogHistogram,
    pub slowest: Top<Slow>,
    /// The lowest seeds, as the summary lists them.
    pub insoluble_seeds: Top<Reverse<u32>>,
    pub undecided_seeds: Top<Reverse<u32>>,
}

impl GameReport {
    fn new(game: usize) -> GameReport {
        GameReport {
            game,
            succes: 0,
            insoluble: 0,
            undecided: 0,
            seconds: LogHistogram::default(),
            expanded: LogHistogram::default(),
            slowest: Top::new(SLOWEST_SHOWN),
            insoluble_seeds: Top::new(SEEDS_SHOWN),
            undecided_seeds: Top::new(SEEDS_SHOWN),
        }
    }

    fn add(&mut self, deal: &Deal) {
        match deal.verdict {
            Verdict::Succes => self.succes += 1,
            Verdict::Insoluble => {
                self.insoluble += 1;
                self.insoluble_seeds.push(Reverse(deal.seed));
            }
            Verdict::Echec => {
                self.undecided += 1;
                self.undecided_seeds.push(Reverse(deal.seed));
            }
        }
        self.seconds.add(f64::from(deal.seconds));
        self.expanded.add(deal.expanded as f64);
        self.slowest.push(Slow(*deal));
    }

    pub fn name(&self) -> &'static str {
        GAMES[self.game].name
    }

    pub fn deals(&self) -> u64 {
        self.succes + self.insoluble + self.undecided
    }
}

/// A deal among the slowest: ordered by its time, and among equal times
/// the lower seed first, so that the list does not depend on the order
/// the files were read in.
#[derive(Clone, Copy, Debug)]
pub struct Slow(pub Deal);

impl Ord for Slow {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .seconds
            .total_cmp(&other.0.seconds)
            .then(other.0.seed.cmp(&self.0.seed))
    }
}

impl PartialOrd for Slow {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Slow {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Slow {}

/// The figures of every game the results hold, in [`GAMES`]' order, in
/// one pass over the deals.
pub fn games(results: &Results) -> Vec<GameReport> {
    let mut games: Vec<GameReport> = (0..GAMES.len()).map(GameReport::new).collect();
    for deal in results.each() {
        if let Some(game) = games.get_mut(deal.game) {
            game.add(&deal);
        }
    }
    games.retain(|g| g.deals() > 0);
    games
}

/// The page's file, prepared before any row is read: its path checked,
/// its temporary file made beside it.
pub struct Pending {
    outputs: Outputs,
    id: OutputId,
}

/// Checks that the page can be written at `path` and is none of the
/// `inputs` (by any path or link), as every output of the program is (see
/// [`crate::output`]): a bad path costs one line before the files are read.
pub fn prepare(path: &Path, inputs: &[PathBuf]) -> Result<Pending, String> {
    let mut outputs = Outputs::new();
    for input in inputs {
        outputs.add_input(input).map_err(|e| format!("{e:#}"))?;
    }
    let id = outputs.prepare(path).map_err(|e| format!("{e:#}"))?;
    Ok(Pending { outputs, id })
}

/// Writes the page of `results` (read from `files`) and renames it over
/// its target: the page appears whole or not at all.
pub fn publish(page: Pending, results: &Results, files: &[PathBuf]) -> Result<(), String> {
    let Pending { mut outputs, id } = page;
    let html = page::render(
        &games(results),
        &page::Sources {
            rules: results.rules,
            files,
            repeated: results.repeated,
        },
    );
    outputs
        .write(id, html.as_bytes())
        .and_then(|()| outputs.publish_all())
        .map_err(|e| format!("{e:#}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::row::Row;

    fn results(lines: &[&str]) -> Results {
        let mut r = Results::default();
        for line in lines {
            r.add(&Row::parse(line).unwrap());
        }
        r
    }

    #[test]
    fn each_game_apart_each_deal_once() {
        let r = results(&[
            "FreeCell,1,SUCCES,40,100,200,0.5,",
            "FreeCell,1,ECHEC,,5,5,10.0,time",
            "FreeCell,2,INSOLUBLE,,1000,1000,2.0,",
            "FreeCell,3,ECHEC,,9,9,10.0,time",
            "Seahaven,7,SUCCES,80,0,10,0.0,",
        ]);
        let games = games(&r);
        assert_eq!(games.len(), 2);
        let fc = &games[0];
        assert_eq!(fc.name(), "FreeCell");
        assert_eq!((fc.succes, fc.insoluble, fc.undecided), (1, 1, 1));
        let slowest: Vec<u32> = fc.slowest.sorted().iter().map(|s| s.0.seed).collect();
        assert_eq!(slowest, vec![3, 2, 1]);
        assert_eq!(fc.insoluble_seeds.sorted(), vec![&Reverse(2)]);
        assert_eq!(fc.undecided_seeds.sorted(), vec![&Reverse(3)]);
        let st = &games[1];
        assert_eq!((st.name(), st.deals()), ("Seahaven", 1));
        // A deal of no time and no position expanded: two zeros.
        assert_eq!((st.seconds.zeros(), st.expanded.zeros()), (1, 1));
    }

    #[test]
    fn ties_in_time_put_the_lower_seed_first() {
        let r = results(&[
            "FreeCell,9,SUCCES,40,1,1,1.0,",
            "FreeCell,4,SUCCES,40,1,1,1.0,",
            "FreeCell,6,SUCCES,40,1,1,1.0,",
        ]);
        let fc = &games(&r)[0];
        let order: Vec<u32> = fc.slowest.sorted().iter().map(|s| s.0.seed).collect();
        assert_eq!(order, vec![4, 6, 9]);
    }

    #[test]
    fn no_deal_no_game() {
        assert!(games(&Results::default()).is_empty());
    }
}

//! A survey run: worker threads take the deals one at a time from a shared
//! counter and search them; the main thread alone writes the rows, keeps
//! the results, draws the progress and watches for signals.
//!
//! One process for all deals saves a process start per deal (about as
//! long as a FreeCell search), and a counter rather than fixed slices keeps
//! every core busy when a few deals take seconds and most milliseconds.
//!
//! Each search starts with `memory::return_freed_memory` (glibc's
//! `mallopt`), process-wide: called from several workers at once it is
//! harmless, as glibc takes its main arena's lock for it and every call
//! sets the same value.

use std::io::ErrorKind;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;

use crate::check::{self, Verdict as Replay};
use crate::deal::Deal;
use crate::foundation::Foundation;
use crate::lock::lock;
use crate::rules::GameId;
use crate::search::{self, BYTES_PER_POSITION, Limit, Limits, MAX_STATES, Outcome, components};
use crate::state::State;
use crate::{memory, midnight, solution};

use super::args::{EXIT_USAGE, Plan, Under};
use super::deals::{Deals, deal_key};
use super::files::{self, solution_name};
use super::finish::{Stop, finish};
use super::progress::Progress;
use super::row::{Layout, Row, Verdict};
use super::say::{self, shown};
use super::signals;
use super::summary::Results;
use super::table::{Resumed, Table};

/// A worker's stack: the main thread's usual size, as `-search` has.
const WORKER_STACK: usize = 8 << 20;

/// Runs the survey; returns the exit code.
pub fn run(plan: Plan) -> u8 {
    survey(&plan).unwrap_or_else(|message| {
        say::error(&message);
        EXIT_USAGE
    })
}

/// What a worker hands the main thread through the channel (its rows go
/// through [`Work::ended`]).
enum Done {
    /// A solution that does not replay, or a solution file not written.
    Failed(String),
}

/// What the workers share.
struct Work<'a> {
    deals: &'a Deals,
    limits: Limits,
    solutions: Option<&'a Path>,
    under: Under,
    /// Baker's Dozen under forced and free rules searched by components.
    components: bool,
    /// Deals already in the file being resumed.
    skip: FxHashSet<(u8, u32)>,
    /// Deals to survey in this run (those of `deals` not in `skip`).
    todo: u64,
    /// Worker threads: `--jobs`, or fewer when fewer deals are to do.
    jobs: usize,
    /// The next position in `deals` to take.
    next: AtomicU64,
    /// Set by the main thread, once it has seen a signal or a failure:
    /// take no new deal.
    stop: AtomicBool,
    /// Set by the first SIGINT or SIGTERM.
    interrupted: &'a AtomicBool,
    /// The rows of deals ended and not written yet, in the order they
    /// ended. The main thread takes them every [`ROWS_EVERY`]: a row sent
    /// through the channel woke it for every deal, 5 % of a fast
    /// FreeCell survey's time in the kernel.
    ended: Mutex<Vec<Row>>,
}

/// How often the main thread writes the rows of the deals ended.
const ROWS_EVERY: Duration = Duration::from_millis(50);

fn survey(plan: &Plan) -> Result<u8, String> {
    let interrupted = signals::install()?;
    let Some((mut table, resumed)) = open(plan)? else {
        // Whoever was to read the rows went away before the first: as
        // when they go later (`Stop::ReaderGone`), the survey stops.
        return Ok(signals::EXIT_INTERRUPTED);
    };
    let mut results = Results::under(plan.under);
    let mut skip = FxHashSet::default();
    let mut already = 0;
    for row in &resumed.rows {
        results.add(row);
        already += u64::from(skip.insert(deal_key(row.id)) && plan.deals.contains(row.id));
    }
    let todo = plan.deals.len() - already;
    // No more workers than deals: the memory is shared by those that run.
    let jobs = plan
        .jobs
        .min(usize::try_from(todo).unwrap_or(usize::MAX))
        .max(1);
    let (max_states, why) = max_states(plan, jobs);
    announce(plan, todo, already, jobs, max_states, &why);
    if let (Some(torn), Some(path)) = (&resumed.torn, table.path()) {
        say::note(&format!(
            "survey: the last line of {} was torn ('{}'): cut off, its deal is redone",
            shown(path),
            crate::solution::quote(torn.as_bytes())
        ));
    }
    let work = Work {
        deals: &plan.deals,
        // No --diff: a survey wants proofs. The rest as `Limits::default`,
        // so that a field added to `Limits` needs no change here.
        limits: Limits {
            max_states,
            timeout: Some(plan.timeout),
            // The first Ctrl-C ends the searches under way at once; their
            // deals get no row, so `--resume` does them again.
            cancel: Some(interrupted.clone()),
            length: plan.length,
            pairs: !plan.no_pairs,
            rollouts: !plan.no_rollouts,
            suitless: !plan.no_suitless,
            ..Limits::default()
        },
        solutions: plan.solutions.as_deref(),
        under: plan.under,
        components: plan.components,
        skip,
        todo,
        jobs,
        next: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        interrupted: &interrupted,
        ended: Mutex::default(),
    };
    let start = Instant::now();
    let (mut stop, surveyed) = drive(&work, &mut table, &mut results);
    table.sync();
    let seconds = start.elapsed().as_secs_f64();
    let closing = format!(
        "{}{surveyed} deals surveyed in {seconds:.1} s on {} ({}), peak memory {} MB, budget {} MB\n",
        results.render(),
        workers(jobs),
        rate(surveyed, seconds),
        memory::peak().unwrap_or(0) >> 20,
        (max_states * jobs as u64 * BYTES_PER_POSITION) >> 20
    );
    match table.path() {
        // The rows are in the file: the summary is this run's answer on
        // stdout, as `-search`'s verdict, so a stdout that cannot take it
        // is exit 3; a reader gone (`| head`) asked for no more.
        Some(_) => match say::out(&closing) {
            Err(e) if e.kind() != ErrorKind::BrokenPipe => {
                let failed = Stop::Failed(format!("cannot write to standard output: {e}"));
                stop = stop.or(Some(failed));
            }
            _ => {}
        },
        None => say::block(&closing),
    }
    Ok(finish(stop, plan, &table, &results, surveyed, todo))
}

/// The first line on stderr: what will be searched, and within what.
fn announce(plan: &Plan, todo: u64, already: u64, jobs: usize, max_states: u64, why: &str) {
    let names: Vec<&str> = plan.deals.games().iter().map(|r| r.name).collect();
    say::note(&format!(
        "survey: {todo} deals of {} under the {} rules on {}, each at most {} s and {max_states} positions ({why}){}",
        names.join(", "),
        plan.under.name(),
        workers(jobs),
        plan.timeout.as_secs_f64(),
        match already {
            0 => String::new(),
            n => format!("; {n} already done"),
        }
    ));
}

/// Opens where the rows go (reading the file back to resume it) and the
/// solutions' directory, every path checked against the others first.
/// With `--resume`, sweeps the directory of the temporary files a killed
/// run left, and says how many. `None`: the rows go to stdout, and its
/// reader has gone already.
fn open(plan: &Plan) -> Result<Option<(Table, Resumed)>, String> {
    let layout = Layout::for_rules(plan.under);
    let made = match &plan.solutions {
        Some(dir) => files::prepare_solutions(dir)?,
        None => false,
    };
    let stale = plan
        .solutions
        .as_deref()
        .map(|dir| files::check_solutions_dir(dir, plan))
        .transpose();
    let opened = stale.and_then(|stale| {
        let table = match &plan.out {
            None => match Table::stdout(layout) {
                Ok(table) => Ok(Some((table, Resumed::nothing()))),
                Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(None),
                Err(e) => Err(format!("cannot write to standard output: {e}")),
            },
            Some(path) if plan.resume => Table::resume(path, plan.under).map(Some),
            Some(path) => {
                Table::create(path, layout).map(|table| Some((table, Resumed::nothing())))
            }
        };
        Ok((table?, stale))
    });
    let (table, stale) = match opened {
        Ok((Some(table), stale)) => (table, stale),
        refused => {
            if let (true, Some(dir)) = (made, &plan.solutions) {
                // Nothing is left of a run refused: the directory it made, empty.
                let _ = std::fs::remove_dir(dir);
            }
            return refused.map(|_| None);
        }
    };
    if let Some(stale) = stale.filter(|_| plan.resume) {
        let dir = shown(&stale.dir);
        match stale.sweep() {
            0 => {}
            n => say::note(&format!(
                "survey: removed {n} stale temporary file{} (.xpat-solver-*.tmp, left by a run killed) from {dir}",
                if n == 1 { "" } else { "s" }
            )),
        }
    }
    Ok(Some(table))
}

/// Starts the workers and takes their rows until they are done; returns
/// why the run stopped early, if it did, and how many deals it surveyed.
fn drive(work: &Work, table: &mut Table, results: &mut Results) -> (Option<Stop>, u64) {
    let mut progress = Progress::new(work.todo, table.path().is_none());
    let (tx, rx) = mpsc::channel();
    let mut ended = (None, 0);
    std::thread::scope(|scope| {
        let mut stop = None;
        for _ in 0..work.jobs {
            // A signal while the workers start stops the starting too.
            if work.interrupted.load(Relaxed) || stop.is_some() {
                break;
            }
            let tx = tx.clone();
            let builder = std::thread::Builder::new().name("survey".into());
            let spawned =
                memory::spawn_scoped_with(scope, builder, WORKER_STACK, move || work.run(tx));
            if let Err(e) = spawned {
                stop = Some(Stop::Failed(format!("cannot start a worker thread: {e}")));
                work.stop.store(true, Relaxed);
            }
        }
        drop(tx);
        ended = collect(&rx, work, table, results, &mut progress, stop);
    });
    progress.finish();
    ended
}

/// The main thread's loop: writes each row as it comes, and turns a
/// signal or a failure into a stop, until every worker has ended.
fn collect(
    rx: &Receiver<Done>,
    work: &Work,
    table: &mut Table,
    results: &mut Results,
    progress: &mut Progress,
    mut stop: Option<Stop>,
) -> (Option<Stop>, u64) {
    let mut surveyed = 0;
    let mut workers_done = false;
    while !workers_done {
        match rx.recv_timeout(ROWS_EVERY) {
            Ok(Done::Failed(message)) => stop = stop.or(Some(Stop::Failed(message))),
            Err(RecvTimeoutError::Timeout) => {}
            // The workers may have seen a signal first and stopped: the
            // check below still makes it an interruption.
            Err(RecvTimeoutError::Disconnected) => workers_done = true,
        }
        // Every row ended before a failure or the last worker's end is
        // there now, and is written before the run stops.
        let rows = std::mem::take(&mut *lock(&work.ended));
        if !rows.is_empty() {
            match progress.around_row(|| table.write_rows(&rows)) {
                Ok(()) => {
                    for row in &rows {
                        results.add(row);
                        progress.add(row.verdict);
                    }
                    surveyed += rows.len() as u64;
                }
                Err(e) => stop = stop.or(Some(write_failed(table, &e))),
            }
        }
        if stop.is_none() && work.interrupted.load(Relaxed) {
            stop = Some(Stop::Interrupted);
            progress.say(
                "survey: interrupted; stopping the deals under way (they are redone on --resume), Ctrl-C again to quit at once",
            );
        }
        if stop.is_some() {
            work.stop.store(true, Relaxed);
        }
    }
    (stop, surveyed)
}

fn write_failed(table: &Table, e: &std::io::Error) -> Stop {
    match table.path() {
        None if e.kind() == ErrorKind::BrokenPipe => Stop::ReaderGone,
        None => Stop::Failed(format!("cannot write to standard output: {e}")),
        Some(path) => Stop::Failed(format!("cannot write {}: {e}", shown(path))),
    }
}

impl Work<'_> {
    /// A worker: deals one after another until none is left or the main
    /// thread says stop.
    fn run(&self, tx: Sender<Done>) {
        // Only the main thread's word stops a worker, so that a signal is
        // always seen, said and answered in one place.
        while !self.stop.load(Relaxed) {
            let j = self.next.fetch_add(1, Relaxed);
            if j >= self.deals.len() {
                break;
            }
            let id = self.deals.get(j);
            if self.skip.contains(&deal_key(id)) {
                continue;
            }
            match self.survey(id) {
                Ok(Some(row)) => lock(&self.ended).push(row),
                // Interrupted: take no further deal either.
                Ok(None) => break,
                Err(e) => {
                    if tx.send(Done::Failed(e)).is_err() {
                        break;
                    }
                }
            }
        }
    }

    /// One deal under the survey's foundation rule. `None` when a search
    /// was interrupted: that deal has no verdict to record.
    fn survey(&self, id: GameId) -> Result<Option<Row>, String> {
        let first = self.under.searches()[0];
        let Some(row) = self.search(id, first, false)? else {
            return Ok(None);
        };
        if self.under != Under::Both {
            return Ok(Some(row));
        }
        // A forced win is a win in the real game, and where building is in
        // suit forced moves lose nothing: the forced verdict is the game's.
        if row.verdict == Verdict::Succes || id.rules.forced_foundation_is_exact() {
            let forced = Some(row.verdict);
            return Ok(Some(Row { forced, ..row }));
        }
        // A deal forced moves lose is most often one no play wins
        // (FreeCell 1..1000000: 19 of 20; Baker's Dozen 1..100000: 233 of
        // 242), and a proof is the prover's work alone: on those deals,
        // with one worker, 31% and 42% fewer expansions than the whole
        // portfolio, FreeCell 376548 decided within 10 s (8.1 s instead of
        // 10.4 s), and the ones won free still won at once.
        let lost = row.verdict == Verdict::Insoluble;
        Ok(self
            .search(id, Foundation::Free, lost)?
            .map(|free| Row::after_forced(&row, free)))
    }

    /// One search, as `-search` does it (with `prover_alone`, see
    /// [`Limits::prover_alone`]): the search, the solution
    /// replayed by the `-check` code, and written if asked. `None` when
    /// interrupted, even with a solution: its shortening may have been cut
    /// short, and a rerun would shorten it.
    fn search(
        &self,
        id: GameId,
        foundation: Foundation,
        prover_alone: bool,
    ) -> Result<Option<Row>, String> {
        let deal = Deal::new(id).with_foundation(foundation);
        let limits = Limits {
            prover_alone,
            forced_searched: self.under == Under::Both,
            ..self.limits.clone()
        };
        // Midnight Oil's redeals and turn need positions that keep the
        // columns' order: its own search, and its own replay.
        let report = if midnight::plays(&deal) {
            midnight::search::search(&deal, &limits, None)
        } else if self.components && components::refusal(&deal).is_none() {
            let start = State::new(&deal);
            let expansion = components::Expansion::MovesOut;
            match components::search_after_first_look(&deal, &start, &limits, expansion, None) {
                components::Answer::FirstLook(look) | components::Answer::Rollouts(look) => look,
                components::Answer::Components(searched) => {
                    if let Some(why) = searched.stopped {
                        return Err(format!("{id}: {why}"));
                    }
                    searched.report
                }
            }
        } else {
            search::search(&deal, &limits, None)
        };
        if report.outcome == Outcome::GaveUp(Limit::Cancelled) || self.limits.cancelled() {
            return Ok(None);
        }
        if let Outcome::Solved(moves) = &report.outcome {
            let replayed = if midnight::plays(&deal) {
                check::replay_moves_from(midnight::Table::for_replay(&deal), moves)
            } else {
                check::replay_moves(&deal, moves)
            };
            if let Replay::Failed { why, .. } = replayed {
                return Err(format!(
                    "internal error: the {foundation} solution found for {id} does not replay ({why})"
                ));
            }
            if let Some(dir) = self.solutions {
                let name = solution_name(id, foundation);
                solution::write_atomically(&dir.join(name), solution::format(moves).as_bytes())
                    .map_err(|e| format!("{e:#}"))?;
            }
        }
        Ok(Some(Row::new(id, foundation, self.under, &report)))
    }
}

/// `--max-states`, or what keeps all workers together within a third of
/// the memory usable now; and where the figure came from, for the log.
fn max_states(plan: &Plan, workers_running: usize) -> (u64, String) {
    if let Some(n) = plan.max_states {
        return (n, "--max-states".into());
    }
    let jobs = workers_running as u64;
    match memory::usable() {
        Some(bytes) => (
            (bytes / 3 / jobs / BYTES_PER_POSITION).clamp(1, MAX_STATES),
            format!(
                "a third of {:.1} GB usable, shared by {} at {BYTES_PER_POSITION} B a position",
                bytes as f64 / 1e9,
                workers(workers_running)
            ),
        ),
        None => (
            (search::DEFAULT_MAX_STATES / jobs).max(1),
            "usable memory unknown: -search's default shared by the workers".into(),
        ),
    }
}

/// "1 worker", "2 workers".
pub(super) fn workers(jobs: usize) -> String {
    match jobs {
        1 => "1 worker".into(),
        n => format!("{n} workers"),
    }
}

/// Deals a second, or seconds a deal when that reads better: a survey of
/// hard deals at 10 s each is not "0 deals/s".
fn rate(surveyed: u64, seconds: f64) -> String {
    let per_second = surveyed as f64 / seconds.max(1e-9);
    if per_second >= 1.0 || surveyed == 0 {
        format!("{per_second:.0} deals/s")
    } else {
        format!("{:.1} s a deal", seconds / surveyed as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::rate;

    #[test]
    fn a_slow_survey_says_seconds_a_deal() {
        assert_eq!(rate(3000, 1.5), "2000 deals/s");
        assert_eq!(rate(102, 702.7), "6.9 s a deal");
        assert_eq!(rate(0, 0.0), "0 deals/s");
    }
}

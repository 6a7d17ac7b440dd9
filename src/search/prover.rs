//! The prover between its turns (see [`super::portfolio`]): one attempt
//! that keeps its visited set and frontier from round to round, shared by
//! the threads of a search; and the lock and wait its threads share.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use super::attempt::{self, AnyAttempt};
use super::order::Order;
use super::{Limits, Progress, Report};
use crate::deal::Deal;
use crate::lock::{lock, wait_on};
use crate::state::State;

/// How often a thread waiting for the prover looks at the stop flag.
const WAIT: Duration = Duration::from_millis(20);

/// The prover between its turns, shared by the threads of a search.
pub(super) struct Prover<'a> {
    slot: Mutex<Slot<'a>>,
    /// Told when the prover's turn ends, for a thread that waits for it.
    idle: Condvar,
    /// The budget of its last turn: positions it may hold between turns.
    held: AtomicU64,
}

// One per search, held in place: boxing the attempt would be an allocation
// that aborts the process when memory runs out, where running out must be
// an outcome (`Limit::Memory`).
#[allow(clippy::large_enum_variant)]
enum Slot<'a> {
    /// Not begun.
    Unborn,
    /// Between turns.
    Idle(AnyAttempt<'a>),
    /// A thread has it; the other threads skip its turns meanwhile.
    Busy,
}

impl<'a> Prover<'a> {
    pub(super) fn new() -> Prover<'a> {
        Prover {
            slot: Mutex::new(Slot::Unborn),
            idle: Condvar::new(),
            held: AtomicU64::new(0),
        }
    }

    /// Positions it may hold between its turns.
    pub(super) fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    /// Runs the prover's turn: under `limits`, begun with `order` from
    /// `root` the first time. When another thread has it: `None`, or for
    /// the `last` turn, once that thread is done (`None` if the search is
    /// stopped meanwhile). The last turn's budget is final: the prover's
    /// table is sized to it.
    pub(super) fn turn(
        &self,
        deal: &Deal,
        root: &'a State,
        order: &Order,
        limits: &Limits,
        last: bool,
        progress: Option<Progress>,
    ) -> Option<Report> {
        let mut slot = lock(&self.slot);
        while last && matches!(*slot, Slot::Busy) {
            if limits.cancelled() {
                return None;
            }
            slot = wait_on(&self.idle, slot, WAIT);
        }
        let taken = std::mem::replace(&mut *slot, Slot::Busy);
        drop(slot);
        let mut prover = match taken {
            Slot::Unborn => attempt::begin(deal, root, limits, order),
            Slot::Idle(prover) => prover,
            Slot::Busy => return None,
        };
        if last {
            prover.last_turn(limits.max_states);
        }
        let report = prover.resume(limits.clone(), progress);
        self.held.fetch_max(limits.max_states, Ordering::Relaxed);
        *lock(&self.slot) = Slot::Idle(prover);
        self.idle.notify_all();
        Some(report)
    }
}

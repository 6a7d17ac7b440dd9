//! Locks shared by a search's or a survey's threads, read through a
//! panic: a poisoned lock only means a thread panicked, and the panic
//! reaches the caller when the scope joins that thread, so what the lock
//! guards is still good to read until then. One helper for the crate,
//! where the search, the search in layers and the survey each wrote
//! their own.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// `mutex` locked, poisoned or not.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Waits until `condvar` is told or `timeout` is over, whichever comes
/// first; a poisoned lock as in [`lock`].
pub(crate) fn wait_on<'g, T>(
    condvar: &Condvar,
    guard: MutexGuard<'g, T>,
    timeout: Duration,
) -> MutexGuard<'g, T> {
    condvar
        .wait_timeout(guard, timeout)
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_lock_poisoned_by_a_panic_is_still_read() {
        let mutex = Arc::new(Mutex::new(7));
        let held = Arc::clone(&mutex);
        let panicked = std::thread::spawn(move || {
            let _guard = held.lock().unwrap();
            panic!("a thread panics holding the lock");
        })
        .join();
        assert!(panicked.is_err());
        assert!(mutex.is_poisoned());
        *lock(&mutex) += 1;
        assert_eq!(*lock(&mutex), 8);
        let condvar = Condvar::new();
        let guard = wait_on(&condvar, lock(&mutex), Duration::from_millis(1));
        assert_eq!(*guard, 8);
    }
}

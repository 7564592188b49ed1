//! A value made on a thread of its own while the caller goes on, waited
//! for where it is first needed: how a solver loads what only some solves
//! read (a solve that never needs it never waits for it).

use crate::SolveError;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

type Cell<T> = Arc<OnceLock<Result<T, String>>>;

/// A value that is ready, or being made ([`Deferred::pending`]).
pub(crate) struct Deferred<T>(Cell<T>);

impl<T> Clone for Deferred<T> {
    fn clone(&self) -> Self {
        Deferred(self.0.clone())
    }
}

/// The one way to give a pending [`Deferred`] its value. Dropped without
/// [`Filler::fill`] (its maker failed or panicked), it gives an error, so
/// that nothing waits for ever.
pub(crate) struct Filler<T>(Cell<T>);

impl<T> Deferred<T> {
    /// A value still to be made, and what fills it in.
    pub(crate) fn pending() -> (Self, Filler<T>) {
        let cell = Arc::new(OnceLock::new());
        (Deferred(cell.clone()), Filler(cell))
    }

    /// The value, once made (waiting for it if need be), or why it could
    /// not be.
    pub(crate) fn get(&self) -> Result<&T, SolveError> {
        self.0
            .wait()
            .as_ref()
            .map_err(|e| SolveError::Internal(e.clone()))
    }
}

impl<T> Filler<T> {
    /// Gives the value (or why it could not be made).
    pub(crate) fn fill(self, value: Result<T, String>) {
        let _ = self.0.set(value);
    }
}

impl<T> Drop for Filler<T> {
    fn drop(&mut self) {
        // A no-op once filled.
        let _ = (self.0).set(Err("its maker stopped before making it".into()));
    }
}

/// Work that fills [`Deferred`] values, started on a thread of its own by
/// the first [`Start::now`] of any of its clones (when the values are first
/// wanted, or when a solve that may want them begins), once.
#[derive(Clone)]
pub(crate) struct Start {
    work: Arc<Mutex<Option<Work>>>,
    /// Nanoseconds spent waiting for the values, over all waits.
    waited: Arc<AtomicU64>,
}

type Work = (String, Box<dyn FnOnce() + Send>);

impl Start {
    /// The work (its thread named `name`), not started yet.
    pub(crate) fn new(name: String, work: impl FnOnce() + Send + 'static) -> Start {
        Start {
            work: Arc::new(Mutex::new(Some((name, Box::new(work))))),
            waited: Arc::new(AtomicU64::new(0)),
        }
    }

    /// `value`, started if need be and waited for; the wait is counted
    /// ([`Start::waited`]).
    pub(crate) fn wait<'a, T>(&self, value: &'a Deferred<T>) -> Result<&'a T, SolveError> {
        self.now()?;
        let t = Instant::now();
        let got = value.get();
        let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.waited.fetch_add(ns, Ordering::Relaxed);
        got
    }

    /// The time spent in [`Start::wait`] so far, by every caller.
    pub(crate) fn waited(&self) -> Duration {
        Duration::from_nanos(self.waited.load(Ordering::Relaxed))
    }

    /// Starts the work, unless it was started before.
    pub(crate) fn now(&self) -> Result<(), SolveError> {
        let work = match self.work.lock() {
            Ok(mut w) => w.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some((name, work)) = work {
            std::thread::Builder::new()
                .name(name.clone())
                .spawn(work)
                .map_err(|e| SolveError::Internal(format!("a thread for {name}: {e}")))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_made_on_another_thread_is_waited_for() {
        let (d, fill) = Deferred::pending();
        let t = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            fill.fill(Ok(7u32));
        });
        assert_eq!(*d.get().unwrap(), 7);
        assert_eq!(*d.clone().get().unwrap(), 7);
        t.join().unwrap();
    }

    #[test]
    fn work_starts_once_when_first_wanted() {
        let (d, fill) = Deferred::pending();
        let runs = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let counted = runs.clone();
        let start = Start::new("test".into(), move || {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            fill.fill(Ok(5u8));
        });
        std::thread::sleep(std::time::Duration::from_millis(10));
        assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 0);
        start.now().unwrap();
        assert_eq!(*start.clone().wait(&d).unwrap(), 5);
        assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn a_maker_that_fails_or_stops_gives_an_error_not_a_wait() {
        let (d, fill) = Deferred::<u32>::pending();
        fill.fill(Err("no table".into()));
        assert!(d.get().unwrap_err().to_string().contains("no table"));
        let (d, fill) = Deferred::<u32>::pending();
        let t = std::thread::spawn(move || {
            let _keep = fill;
            panic!("a maker's panic");
        });
        assert!(t.join().is_err());
        assert!(d.get().unwrap_err().to_string().contains("stopped"));
    }
}

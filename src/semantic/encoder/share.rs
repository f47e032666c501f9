//! A helper thread for the matrix products of a pass someone waits on: a query's.
//!
//! The products are nearly all of a pass's time, and each output column is a sum of its own, so
//! half of the columns can be computed on another core without changing a bit. That half is only
//! offered: the helper does it if it starts it first, and the caller takes it back otherwise. A
//! machine whose cores are busy (the background worker embedding tools on the other one) then
//! makes a query no slower than one thread would, where waiting for a thread to be scheduled
//! made it several times slower.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

type Job = Box<dyn FnOnce() + Send>;

/// How long the helper keeps looking for the next job before it sleeps, and the caller for the
/// helper's result. A pass offers a job every few hundred microseconds, and waking a sleeping
/// thread took about as long here: a helper that slept between the products of one pass arrived
/// after the caller had taken them back, and a caller that slept waited as long again.
const LINGER: Duration = Duration::from_millis(2);

struct Helper {
    jobs: Mutex<VecDeque<Job>>,
    wake: Condvar,
}

static HELPER: Helper = Helper { jobs: Mutex::new(VecDeque::new()), wake: Condvar::new() };

/// Whether the helper runs: started on the first offer; where the system gives no thread,
/// every product is the caller's.
static RUNNING: LazyLock<bool> =
    LazyLock::new(|| std::thread::Builder::new().name("dsh-tool-search-query".into()).spawn(|| HELPER.run()).is_ok());

impl Helper {
    fn run(&self) {
        crate::priority::lower_this_thread();
        loop {
            let job = self.next();
            // A job that panics has dropped its result's sender, so its caller does it again.
            let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
        }
    }

    /// The next job: looked for without sleeping for [`LINGER`], then waited for.
    fn next(&self) -> Job {
        let lingering = Instant::now();
        while lingering.elapsed() < LINGER {
            if let Some(job) = lock(&self.jobs).pop_front() {
                return job;
            }
            std::hint::spin_loop();
        }
        let mut jobs = lock(&self.jobs);
        loop {
            match jobs.pop_front() {
                Some(job) => return job,
                None => jobs = self.wake.wait(jobs).unwrap_or_else(PoisonError::into_inner),
            }
        }
    }
}

/// Work offered to the helper, which either has started it or never will.
pub(super) struct Offer<T> {
    started: Arc<AtomicBool>,
    result: Receiver<T>,
}

/// Offers `work` to the helper; `None` when there is no helper.
pub(super) fn offer<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Option<Offer<T>> {
    if !*RUNNING {
        return None;
    }
    let started = Arc::new(AtomicBool::new(false));
    let (done, result) = channel();
    let claim = started.clone();
    let job: Job = Box::new(move || {
        if !claim.swap(true, Ordering::AcqRel) {
            let _ = done.send(work());
        }
    });
    lock(&HELPER.jobs).push_back(job);
    HELPER.wake.notify_one();
    Some(Offer { started, result })
}

impl<T> Offer<T> {
    /// The helper's result, waiting for it when the helper has started; `None` when it had not
    /// (it will now skip the work) or the work panicked: the caller then does it itself. The
    /// wait spins for [`LINGER`] before it sleeps, for the reason the helper does.
    pub(super) fn take(self) -> Option<T> {
        if !self.started.swap(true, Ordering::AcqRel) {
            return None;
        }
        let waiting = Instant::now();
        while waiting.elapsed() < LINGER {
            match self.result.try_recv() {
                Ok(result) => return Some(result),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        self.result.recv().ok()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Offers `work` until the helper does it (it is shared by every test in the process, so it
    /// may be busy for a while): its result, or `None` if it never did within five seconds.
    fn done_by_the_helper<T: Send + 'static>(work: impl Fn() -> T + Send + Sync + 'static) -> Option<T> {
        let work = Arc::new(work);
        let patience = Instant::now();
        while patience.elapsed() < Duration::from_secs(5) {
            let work = work.clone();
            let offered = offer(move || work()).expect("a helper thread");
            std::thread::sleep(Duration::from_millis(20));
            if let Some(result) = offered.take() {
                return Some(result);
            }
        }
        None
    }

    #[test]
    fn work_is_done_by_the_helper_or_given_back() {
        assert_eq!(done_by_the_helper(|| 6 * 7), Some(42));
        // Taken back at once: the helper may not have started; either way the caller knows.
        for i in 0..100 {
            let taken = offer(move || i).unwrap().take();
            assert!(taken.is_none() || taken == Some(i));
        }
    }

    #[test]
    fn work_that_panics_is_given_back_and_the_helper_goes_on() {
        let ran = Arc::new(AtomicBool::new(false));
        let patience = Instant::now();
        while !ran.load(Ordering::Acquire) && patience.elapsed() < Duration::from_secs(5) {
            let flag = ran.clone();
            let panicked = offer(move || -> u32 {
                flag.store(true, Ordering::Release);
                panic!("a panic the helper must survive (this test expects it)")
            });
            std::thread::sleep(Duration::from_millis(20));
            assert_eq!(panicked.unwrap().take(), None);
        }
        assert!(ran.load(Ordering::Acquire), "the helper never started the work");
        assert_eq!(done_by_the_helper(|| 1), Some(1));
    }
}

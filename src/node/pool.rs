//! The threads the asynchronous exports rank on, so that JavaScript's thread never does: a search
//! costs milliseconds once the transformer reads its query, and everything else a host runs on
//! that thread (DSH's web server, its other Agents, their streams) would wait that long.
//!
//! A few threads of our own rather than libuv's pool: that pool (four threads by default) also
//! serves the host's file system and compression, which a burst of searches would queue behind
//! them. Jobs run in the order they came, each under `catch_unwind`, so a job that panics costs
//! its own answer (its caller turns the panic into a rejection), never a thread.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Condvar, LazyLock, Mutex, MutexGuard, PoisonError};

type Job = Box<dyn FnOnce() + Send>;

/// Threads at most: ranking is arithmetic, so threads past the cores only take turns.
const MAX_THREADS: usize = 4;

struct Pool {
    jobs: Mutex<VecDeque<Job>>,
    wake: Condvar,
}

static POOL: Pool = Pool { jobs: Mutex::new(VecDeque::new()), wake: Condvar::new() };

/// How many threads serve the pool, started on the first job: one core fewer than the machine
/// has (at least one), so the host's JavaScript thread always finds a core free.
/// On two cores, 50 Agents searching 1,000 tools at once held DSH's event loop less with one
/// ranking thread than with two (loop delay p99 3.3 to 4.2 ms against 4.3 to 5.3 ms, four runs
/// each, as `pnpm benchmark --event-loop` prints it) and answered about as fast (a search's p50
/// 450 to 510 ms either way). None where the system gives no thread, and jobs then run on the
/// caller's.
static THREADS: LazyLock<usize> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let wanted = cores.saturating_sub(1).clamp(1, MAX_THREADS);
    (0..wanted)
        .filter(|at| {
            std::thread::Builder::new().name(format!("dsh-tool-search-rank-{at}")).spawn(|| POOL.run()).is_ok()
        })
        .count()
});

/// Runs `job` on one of the pool's threads, after the jobs queued before it.
pub(super) fn spawn(job: impl FnOnce() + Send + 'static) {
    if *THREADS == 0 {
        let _ = catch_unwind(AssertUnwindSafe(job));
        return;
    }
    lock(&POOL.jobs).push_back(Box::new(job));
    POOL.wake.notify_one();
}

impl Pool {
    fn run(&self) {
        crate::priority::lower_this_thread();
        loop {
            let job = {
                let mut jobs = lock(&self.jobs);
                loop {
                    match jobs.pop_front() {
                        Some(job) => break job,
                        None => jobs = self.wake.wait(jobs).unwrap_or_else(PoisonError::into_inner),
                    }
                }
            };
            let _ = catch_unwind(AssertUnwindSafe(job));
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;
    use std::time::Duration;

    use super::*;

    #[test]
    fn jobs_run_off_the_caller_and_a_panicking_job_costs_no_thread() {
        let caller = std::thread::current().id();
        let (done, results) = channel();
        for at in 0..2 * MAX_THREADS {
            spawn(|| panic!("a job that panics"));
            let done = done.clone();
            spawn(move || done.send((at, std::thread::current().id())).unwrap());
        }
        let mut ran: Vec<usize> = (0..2 * MAX_THREADS)
            .map(|_| {
                let (at, thread) = results.recv_timeout(Duration::from_secs(60)).expect("every job runs");
                assert_ne!(thread, caller);
                at
            })
            .collect();
        ran.sort_unstable();
        assert_eq!(ran, (0..2 * MAX_THREADS).collect::<Vec<_>>());
        assert!((1..=MAX_THREADS).contains(&*THREADS));
    }
}

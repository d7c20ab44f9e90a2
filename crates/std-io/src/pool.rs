//! A thread pool that grows up to a bound and keeps idle threads for reuse.
//!
//! `std` has no readiness API, so each connection gets a thread of its own
//! for as long as it is open; the bound on busy threads is the server's
//! connection limit. A finished thread waits for the next job: up to
//! `max_idle` idle threads wait `keep_idle`, the others (the surplus after a
//! burst) only [`SURPLUS_IDLE`], then exit, so that after an attack the
//! threads fall back to `max_idle` within a second or so.
//!
//! Each thread owns a state `S` (made with `S::default()` when the thread
//! starts) that every job it runs gets: the server keeps the thread's
//! `ServerConn` there, so a new connection on a warm thread reuses the
//! buffers of the last one (`ServerConn::reset`) instead of allocating.

use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::lock::{lock, wait_timeout};

/// How long an idle thread beyond the pool's `max_idle` waits for a job
/// before it exits.
pub(crate) const SURPLUS_IDLE: Duration = Duration::from_secs(1);

/// Runs one job (a connection) on a pool thread, with the thread's state.
pub(crate) type Work<J, S> = Arc<dyn Fn(J, &mut S) + Send + Sync>;

struct State<J> {
    queue: VecDeque<J>,
    /// Threads waiting for a job.
    idle: usize,
    /// Threads alive.
    threads: usize,
    /// Jobs accepted and not finished (queued or running).
    busy: usize,
    closing: bool,
}

struct Shared<J, S> {
    state: Mutex<State<J>>,
    /// Signalled when a job is queued or the pool closes.
    work: Condvar,
    /// Signalled when a job finishes or a thread exits.
    done: Condvar,
    max: usize,
    stack_size: usize,
    /// Idle threads kept `keep_idle`; those beyond wait [`SURPLUS_IDLE`].
    max_idle: usize,
    keep_idle: Duration,
    run: Work<J, S>,
}

/// The pool. Dropping it does not stop the threads: call
/// [`Pool::close`] and [`Pool::wait_threads`].
pub(crate) struct Pool<J: Send + 'static, S: Default + 'static = ()> {
    shared: Arc<Shared<J, S>>,
}

impl<J: Send + 'static, S: Default + 'static> Pool<J, S> {
    pub(crate) fn new(
        max: usize,
        stack_size: usize,
        max_idle: usize,
        keep_idle: Duration,
        run: Work<J, S>,
    ) -> Pool<J, S> {
        Pool {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    queue: VecDeque::new(),
                    idle: 0,
                    threads: 0,
                    busy: 0,
                    closing: false,
                }),
                work: Condvar::new(),
                done: Condvar::new(),
                max: max.max(1),
                stack_size,
                max_idle,
                keep_idle,
                run,
            }),
        }
    }

    /// Runs `job` on an idle thread or a new one; gives it back when `max`
    /// jobs are already running, or the pool is closing, or no thread can be
    /// started.
    pub(crate) fn submit(&self, job: J) -> Result<(), J> {
        let sh = &self.shared;
        let mut st = lock(&sh.state);
        if st.closing || st.busy >= sh.max {
            return Err(job);
        }
        if st.idle > st.queue.len() {
            st.busy += 1;
            st.queue.push_back(job);
            drop(st);
            sh.work.notify_one();
            return Ok(());
        }
        st.busy += 1;
        st.threads += 1;
        drop(st);
        // The job moves into the new thread; if spawning fails it is lost
        // with the closure, so hand it over through a slot we can take back.
        let slot = Arc::new(Mutex::new(Some(job)));
        let slot2 = Arc::clone(&slot);
        let sh2 = Arc::clone(sh);
        let spawned = thread::Builder::new()
            .name("http-net-conn".into())
            .stack_size(sh.stack_size)
            .spawn(move || {
                let first = lock(&slot2).take();
                worker(sh2, first)
            });
        match spawned {
            Ok(_) => Ok(()),
            Err(_) => {
                let mut st = lock(&sh.state);
                st.busy -= 1;
                st.threads -= 1;
                drop(st);
                sh.done.notify_all();
                match lock(&slot).take() {
                    Some(job) => Err(job),
                    // The thread ran after all (cannot happen when spawn failed).
                    None => Ok(()),
                }
            }
        }
    }

    /// Jobs running or queued.
    #[cfg(test)]
    pub(crate) fn busy(&self) -> usize {
        lock(&self.shared.state).busy
    }

    /// Threads alive (busy or idle).
    #[cfg(test)]
    pub(crate) fn threads(&self) -> usize {
        lock(&self.shared.state).threads
    }

    /// Waits until no job runs, or `until` passes; returns whether none runs.
    pub(crate) fn wait_idle(&self, until: Instant) -> bool {
        self.wait_until(until, |st| st.busy == 0)
    }

    /// Refuses new jobs and lets idle threads exit.
    pub(crate) fn close(&self) {
        lock(&self.shared.state).closing = true;
        self.shared.work.notify_all();
    }

    /// Waits until every thread has exited, or `until` passes.
    pub(crate) fn wait_threads(&self, until: Instant) -> bool {
        self.wait_until(until, |st| st.threads == 0)
    }

    /// Waits on `done` until `ready` holds of the state, or `until` passes;
    /// returns whether it holds.
    fn wait_until(&self, until: Instant, ready: impl Fn(&State<J>) -> bool) -> bool {
        let mut st = lock(&self.shared.state);
        while !ready(&st) {
            let now = Instant::now();
            if now >= until {
                return false;
            }
            st = wait_timeout(&self.shared.done, st, until - now);
        }
        true
    }
}

/// Marks the job finished if it panicked (the normal path does it together
/// with going idle, so that a finished thread is never counted as neither).
struct Finish<'a, J, S>(&'a Shared<J, S>, bool);

impl<J, S> Drop for Finish<'_, J, S> {
    fn drop(&mut self) {
        if self.1 {
            lock(&self.0.state).busy -= 1;
            self.0.done.notify_all();
        }
    }
}

/// Decrements the thread count when the thread exits, even by a panic.
struct Exit<'a, J, S>(&'a Shared<J, S>);

impl<J, S> Drop for Exit<'_, J, S> {
    fn drop(&mut self) {
        lock(&self.0.state).threads -= 1;
        self.0.done.notify_all();
    }
}

fn worker<J, S: Default>(sh: Arc<Shared<J, S>>, first: Option<J>) {
    let _exit = Exit(&sh);
    let mut state = S::default();
    let mut job = first;
    loop {
        let finished = job.is_some();
        if let Some(j) = job.take() {
            let mut f = Finish(&sh, true);
            (sh.run)(j, &mut state);
            f.1 = false;
        }
        let mut st = lock(&sh.state);
        if finished {
            st.busy -= 1;
            sh.done.notify_all();
        }
        st.idle += 1;
        // A surplus thread (beyond `max_idle` idle ones) waits a short
        // while; when it times out it exits only if it is still surplus,
        // otherwise it stays for `keep_idle` (counted from going idle).
        let idle_since = Instant::now();
        let mut deadline = idle_since
            + if st.idle > sh.max_idle {
                SURPLUS_IDLE.min(sh.keep_idle)
            } else {
                sh.keep_idle
            };
        job = loop {
            if let Some(j) = st.queue.pop_front() {
                break Some(j);
            }
            let now = Instant::now();
            if st.closing {
                break None;
            }
            if now >= deadline {
                let kept = idle_since + sh.keep_idle;
                if st.idle > sh.max_idle || now >= kept {
                    break None;
                }
                deadline = kept;
                continue;
            }
            st = wait_timeout(&sh.work, st, deadline - now);
        };
        st.idle -= 1;
        if job.is_none() {
            return;
        }
    }
}

/// Whether an accept error is worth retrying after a pause (out of file
/// descriptors, an aborted handshake) rather than ending the server.
pub(crate) fn transient_accept_error(e: &io::Error) -> bool {
    !matches!(
        e.kind(),
        io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    fn deadline() -> Instant {
        Instant::now() + Duration::from_secs(10)
    }

    #[test]
    fn grows_to_the_bound_and_refuses_beyond() {
        let (tx, rx) = mpsc::channel::<()>();
        let rx = Arc::new(Mutex::new(rx));
        let ran = Arc::new(AtomicUsize::new(0));
        let ran2 = Arc::clone(&ran);
        let pool = Pool::new(
            3,
            64 * 1024,
            3,
            Duration::from_secs(5),
            Arc::new(move |_: u32, _: &mut ()| {
                ran2.fetch_add(1, Ordering::SeqCst);
                let _ = lock(&rx).recv_timeout(Duration::from_secs(10));
            }),
        );
        for i in 0..3 {
            assert!(pool.submit(i).is_ok());
        }
        assert_eq!(pool.submit(9), Err(9));
        assert_eq!(pool.busy(), 3);
        assert_eq!(pool.threads(), 3);
        for _ in 0..3 {
            tx.send(()).unwrap();
        }
        assert!(pool.wait_idle(deadline()));
        assert_eq!(ran.load(Ordering::SeqCst), 3);
        // Idle threads are reused: no new thread for the next jobs.
        for i in 0..3 {
            assert!(pool.submit(i).is_ok());
        }
        assert_eq!(pool.threads(), 3);
        for _ in 0..3 {
            tx.send(()).unwrap();
        }
        assert!(pool.wait_idle(deadline()));
        pool.close();
        assert!(pool.wait_threads(deadline()));
        assert_eq!(pool.submit(1), Err(1));
    }

    #[test]
    fn idle_threads_retire() {
        let pool = Pool::new(
            4,
            64 * 1024,
            4,
            Duration::from_millis(20),
            Arc::new(|_: (), _: &mut ()| {}),
        );
        pool.submit(()).unwrap();
        assert!(pool.wait_threads(deadline()));
        assert_eq!(pool.threads(), 0);
    }

    #[test]
    fn idle_threads_beyond_the_keep_exit_soon_the_kept_ones_stay() {
        // Eight jobs held at once, so eight threads; then all go idle.
        let (tx, rx) = mpsc::channel::<()>();
        let rx = Arc::new(Mutex::new(rx));
        let pool = Pool::new(
            8,
            64 * 1024,
            2,
            Duration::from_secs(60),
            Arc::new(move |_: u32, _: &mut ()| {
                let _ = lock(&rx).recv_timeout(Duration::from_secs(10));
            }),
        );
        for i in 0..8 {
            pool.submit(i).unwrap();
        }
        assert_eq!(pool.threads(), 8);
        for _ in 0..8 {
            tx.send(()).unwrap();
        }
        assert!(pool.wait_idle(deadline()));
        // The surplus exits after about `SURPLUS_IDLE`; two stay, well
        // before their 60 s keep.
        let t0 = Instant::now();
        while pool.threads() > 2 && t0.elapsed() < Duration::from_secs(10) {
            thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(pool.threads(), 2, "the surplus exited, the keep stayed");
        assert!(t0.elapsed() < SURPLUS_IDLE + Duration::from_secs(2));
        thread::sleep(SURPLUS_IDLE + Duration::from_millis(300));
        assert_eq!(pool.threads(), 2, "the kept threads wait for their keep");
        // And they are reused.
        pool.submit(1).unwrap();
        tx.send(()).unwrap();
        assert!(pool.wait_idle(deadline()));
        assert_eq!(pool.threads(), 2);
        pool.close();
        assert!(pool.wait_threads(deadline()));
    }

    #[test]
    fn a_panicking_job_frees_its_slot() {
        let pool = Pool::new(
            1,
            64 * 1024,
            1,
            Duration::from_secs(5),
            Arc::new(|n: u8, _: &mut ()| {
                if n == 0 {
                    panic!("job panicked on purpose");
                }
            }),
        );
        pool.submit(0).unwrap();
        assert!(pool.wait_idle(deadline()));
        assert!(pool.wait_threads(deadline()));
        pool.submit(1).unwrap();
        assert!(pool.wait_idle(deadline()));
        pool.close();
        assert!(pool.wait_threads(deadline()));
    }

    #[test]
    fn each_thread_keeps_its_state_across_jobs() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen2 = Arc::clone(&seen);
        let pool = Pool::new(
            1,
            64 * 1024,
            1,
            Duration::from_secs(5),
            Arc::new(move |_: (), runs: &mut u32| {
                *runs += 1;
                lock(&seen2).push(*runs);
            }),
        );
        for _ in 0..3 {
            pool.submit(()).unwrap();
            assert!(pool.wait_idle(deadline()));
        }
        assert_eq!(*lock(&seen), [1, 2, 3], "one thread, its state reused");
        pool.close();
        assert!(pool.wait_threads(deadline()));
    }
}

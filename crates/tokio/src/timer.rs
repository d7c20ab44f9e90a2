//! A connection's time, server or client: the clock read at most once per
//! wakeup of its task ([`WakeClock`]), and one runtime timer for all its
//! waits ([`Timer`]).
//!
//! A clock read costs about as much as parsing a short field on a virtual
//! machine, and arming a fresh runtime timer for every wait (then taking it
//! out of the wheel when the wait ends) costs more than the read itself. So
//! a connection reads the clock once each time its task is polled, and
//! keeps one `Sleep` for its life: a wait moves it only when it must fire
//! earlier; a later deadline is a cheap store, and the runtime re-arms the
//! timer itself when the earlier one comes due.

use std::future::{poll_fn, Future};
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::task::{Context, Poll, Waker};

use http_net_conn::Timestamp;
use tokio::time::{sleep_until, Instant, Sleep};

/// The clock reading `t` as the core's time input, since a process-wide
/// epoch (the first reading taken here): the core's [`Meter`] compares
/// and subtracts readings, so any one epoch serves.
pub(crate) fn stamp(t: Instant) -> Timestamp {
    Timestamp::after_epoch(t.saturating_duration_since(epoch()))
}

/// Reads the monotonic clock: every reading on a connection's path goes
/// through here (and is counted in this crate's tests).
pub(crate) fn read_clock() -> Instant {
    #[cfg(test)]
    READINGS.with(|r| r.set(r.get() + 1));
    Instant::now()
}

#[cfg(test)]
thread_local! {
    /// The clock readings [`read_clock`] took on this thread.
    pub(crate) static READINGS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The instant the core's `t` stands for (see [`stamp`]).
pub(crate) fn instant(t: Timestamp) -> Instant {
    epoch() + t.since_epoch()
}

/// The process-wide epoch of [`stamp`]: every time of this adapter (a
/// connection's clock, its slot's marks, the server's eviction clock) is
/// counted from it, so that one subtraction turns a clock reading into all
/// of them.
pub(crate) fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// The time of the current wakeup of a connection's task: read from the
/// clock at its first use in a poll, then the same reading until the task
/// is polled again ([`per_wakeup`]). A handler that computes for long
/// within one poll makes the readings after it early: deadlines counted
/// from them end sooner, never later.
#[derive(Debug, Default)]
pub(crate) struct WakeClock {
    /// Nanoseconds since [`stamp`]'s epoch, plus one; 0: not read
    /// in this wakeup.
    nanos: AtomicU64,
    /// Polls of the task so far (wrapping): a wait that changed it went
    /// back to the scheduler.
    wakeups: AtomicU32,
}

impl WakeClock {
    /// The time of this wakeup, as the core's time input.
    pub(crate) fn stamp(&self) -> Timestamp {
        match self.nanos.load(Ordering::Relaxed) {
            0 => {
                let t = stamp(read_clock());
                let n = t.as_nanos().saturating_add(1);
                self.nanos.store(n, Ordering::Relaxed);
                t
            }
            n => Timestamp::from_nanos(n - 1),
        }
    }

    /// A new poll of the task: the next use reads the clock.
    pub(crate) fn forget(&self) {
        self.nanos.store(0, Ordering::Relaxed);
        let n = self.wakeups.load(Ordering::Relaxed);
        self.wakeups.store(n.wrapping_add(1), Ordering::Relaxed);
    }

    /// How many times the task was polled so far (wrapping): unchanged
    /// across an `.await` that did not go back to the scheduler.
    pub(crate) fn wakeups(&self) -> u32 {
        self.wakeups.load(Ordering::Relaxed)
    }
}

/// Polls `fut` with `clock` forgetting its reading at every poll, so that
/// each wakeup of the task reads the clock at most once. It takes the
/// future pinned where the caller made it: an `async fn` taking it by value
/// would hold it twice (the argument and the pinned local), and this one is
/// the whole connection.
pub(crate) fn per_wakeup<'a, F: Future>(
    clock: &'a WakeClock,
    mut fut: Pin<&'a mut F>,
) -> impl Future<Output = F::Output> + 'a {
    poll_fn(move |cx| {
        clock.forget();
        fut.as_mut().poll(cx)
    })
}

/// One runtime timer for all the waits of a connection, made at its first
/// wait that is not ready at once. Deadlines are the core's [`Timestamp`]s:
/// one is turned into an `Instant` only when the timer must be set.
#[derive(Debug, Default)]
pub(crate) struct Timer {
    armed: Option<Armed>,
}

/// The runtime timer of a [`Timer`], once made.
#[derive(Debug)]
struct Armed {
    sleep: Pin<Box<Sleep>>,
    /// The deadline it is set to.
    set: Timestamp,
    /// The waker its last poll registered, while it is still registered
    /// with the runtime (the timer neither fired nor was moved since).
    waker: Option<Waker>,
}

impl Timer {
    /// Polls the timer as one set to fire at `deadline`. A deadline later
    /// than the one set moves nothing: the timer fires early, and is set
    /// then to the deadline that applies (once per timeout's length for a
    /// busy connection, instead of once per wait); only a deadline earlier
    /// than the one set re-arms it at once.
    pub(crate) fn poll_until(&mut self, deadline: Timestamp, cx: &mut Context<'_>) -> Poll<()> {
        let a = self.armed.get_or_insert_with(|| Armed {
            sleep: Box::pin(sleep_until(instant(deadline))),
            set: deadline,
            waker: None,
        });
        if deadline < a.set {
            a.sleep.as_mut().reset(instant(deadline));
            a.set = deadline;
            a.waker = None;
        }
        // Fast path: the runtime still holds a waker of this task and the
        // timer has not fired, so polling it again would only register the
        // same waker (the general twin is the loop below). A fire racing
        // this look wakes the task through that waker.
        if let Some(w) = &a.waker {
            if w.will_wake(cx.waker()) && !a.sleep.is_elapsed() {
                return Poll::Pending;
            }
        }
        loop {
            match a.sleep.as_mut().poll(cx) {
                Poll::Pending => {
                    if !a.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                        a.waker = Some(cx.waker().clone());
                    }
                    return Poll::Pending;
                }
                Poll::Ready(()) if a.set >= deadline => {
                    a.waker = None;
                    return Poll::Ready(());
                }
                // Fired for an earlier deadline: wait on for this one.
                Poll::Ready(()) => {
                    a.sleep.as_mut().reset(instant(deadline));
                    a.set = deadline;
                    a.waker = None;
                }
            }
        }
    }

    /// Runs `fut` until `deadline` (computed only when `fut` is not ready
    /// at its first poll, so that a ready future reads no clock and moves
    /// no timer); `None` when the deadline passed first. The general twin
    /// is `wire::bounded_by`, which arms a timer of its own.
    pub(crate) async fn bounded_by<F: Future>(
        &mut self,
        deadline: impl FnOnce() -> Timestamp,
        fut: F,
    ) -> Option<F::Output> {
        let mut fut = pin!(fut);
        let mut deadline = Some(deadline);
        let mut at = None;
        poll_fn(|cx| {
            if let Poll::Ready(v) = fut.as_mut().poll(cx) {
                return Poll::Ready(Some(v));
            }
            let until = match (at, deadline.take()) {
                (Some(until), _) => until,
                (None, Some(d)) => *at.insert(d()),
                // `at` is set at the first poll that reaches here.
                (None, None) => stamp(read_clock()),
            };
            self.poll_until(until, cx).map(|()| None)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn run(f: impl Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(f);
    }

    #[test]
    fn a_later_deadline_waits_on_past_the_earlier_one_and_an_earlier_one_fires_first() {
        run(async {
            let mut timer = Timer::default();
            let t0 = Instant::now();
            let ms = Duration::from_millis;
            let at = |t: Instant, d: Duration| stamp(t).saturating_add(d);
            // Set for 10 ms, then waited on for 60 ms: it fires at 10 ms,
            // and waits on.
            let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
            assert!(timer.poll_until(at(t0, ms(10)), &mut cx).is_pending());
            poll_fn(|cx| timer.poll_until(at(t0, ms(60)), cx)).await;
            assert!(t0.elapsed() >= ms(60), "{:?}", t0.elapsed());
            // Set for 500 ms, then waited on for 20 ms from now: re-armed.
            let t1 = Instant::now();
            assert!(timer.poll_until(at(t1, ms(500)), &mut cx).is_pending());
            poll_fn(|cx| timer.poll_until(at(t1, ms(20)), cx)).await;
            let took = t1.elapsed();
            assert!(took >= ms(20) && took < ms(400), "{took:?}");
        });
    }

    #[test]
    fn a_timer_polled_again_by_its_task_while_waiting_still_fires_and_moves_earlier() {
        run(async {
            let mut timer = Timer::default();
            let t0 = Instant::now();
            let at = |d| stamp(t0).saturating_add(Duration::from_millis(d));
            // The task wakes itself at every poll: each poll after the first
            // finds the runtime holding its waker, and the fire is still
            // seen.
            let mut polls = 0u32;
            poll_fn(|cx| {
                polls += 1;
                let r = timer.poll_until(at(30), cx);
                if r.is_pending() {
                    cx.waker().wake_by_ref();
                }
                r
            })
            .await;
            assert!(
                t0.elapsed() >= Duration::from_millis(30),
                "{:?}",
                t0.elapsed()
            );
            assert!(polls > 2, "polled while waiting: {polls}");
            // Waiting for 10 s, then for 20 ms: the earlier deadline moves
            // the timer though the same task's waker is held.
            let t1 = Instant::now();
            let at1 = |d| stamp(t1).saturating_add(Duration::from_millis(d));
            let mut cx = Context::from_waker(Waker::noop());
            assert!(timer.poll_until(at1(10_000), &mut cx).is_pending());
            assert!(timer.poll_until(at1(10_000), &mut cx).is_pending());
            poll_fn(|cx| timer.poll_until(at1(20), cx)).await;
            let took = t1.elapsed();
            assert!(
                took >= Duration::from_millis(20) && took < Duration::from_secs(5),
                "{took:?}"
            );
        });
    }

    #[test]
    fn the_clock_is_read_once_per_wakeup() {
        run(async {
            let clock = WakeClock::default();
            let first = pin!(async {
                let a = clock.stamp();
                std::thread::sleep(Duration::from_millis(2));
                let b = clock.stamp();
                (a, b)
            });
            let (a, b) = per_wakeup(&clock, first).await;
            assert_eq!(a, b, "one reading within a poll");
            let second = pin!(async {
                tokio::task::yield_now().await;
                clock.stamp()
            });
            let c = per_wakeup(&clock, second).await;
            assert!(c > b, "a new wakeup reads the clock again");
        });
    }
}

//! A server connection's time: the clock read at most once per wakeup of
//! its task ([`WakeClock`]), and one runtime timer for all its waits
//! ([`Timer`]).
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
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;

use http_net_conn::Timestamp;
use tokio::time::{sleep_until, Instant, Sleep};

use crate::wire;

/// The time of the current wakeup of a connection's task: read from the
/// clock at its first use in a poll, then the same reading until the task
/// is polled again ([`per_wakeup`]). A handler that computes for long
/// within one poll makes the readings after it early: deadlines counted
/// from them end sooner, never later.
#[derive(Debug, Default)]
pub(crate) struct WakeClock {
    /// Nanoseconds since [`wire::stamp`]'s epoch, plus one; 0: not read
    /// in this wakeup.
    nanos: AtomicU64,
}

impl WakeClock {
    /// The time of this wakeup, as the core's time input.
    pub(crate) fn stamp(&self) -> Timestamp {
        match self.nanos.load(Ordering::Relaxed) {
            0 => {
                let t = wire::stamp(Instant::now());
                let n = t.as_nanos().saturating_add(1);
                self.nanos.store(n, Ordering::Relaxed);
                t
            }
            n => Timestamp::from_nanos(n - 1),
        }
    }

    /// The time of this wakeup.
    pub(crate) fn now(&self) -> Instant {
        wire::instant(self.stamp())
    }

    /// The task goes back to the scheduler: the next use reads the clock.
    pub(crate) fn forget(&self) {
        self.nanos.store(0, Ordering::Relaxed);
    }
}

/// Runs `fut` with `clock` forgetting its reading at every poll, so that
/// each wakeup of the task reads the clock at most once.
pub(crate) async fn per_wakeup<F: Future>(clock: &WakeClock, fut: F) -> F::Output {
    let mut fut = pin!(fut);
    poll_fn(|cx| {
        clock.forget();
        fut.as_mut().poll(cx)
    })
    .await
}

/// One runtime timer for all the waits of a connection, made at its first
/// wait that is not ready at once.
#[derive(Debug, Default)]
pub(crate) struct Timer {
    sleep: Option<Pin<Box<Sleep>>>,
}

impl Timer {
    /// The timer, set to fire at `deadline`. A later deadline than the one
    /// set is a store (the runtime moves the timer when the earlier one
    /// comes due); only an earlier one takes it out of the wheel and puts
    /// it back.
    fn arm(&mut self, deadline: Instant) -> Pin<&mut Sleep> {
        let sleep = self
            .sleep
            .get_or_insert_with(|| Box::pin(sleep_until(deadline)));
        if sleep.deadline() != deadline {
            sleep.as_mut().reset(deadline);
        }
        sleep.as_mut()
    }

    /// Runs `fut` until `deadline` (computed only when `fut` is not ready
    /// at its first poll, so that a ready future reads no clock and moves
    /// no timer); `None` when the deadline passed first. The general twin
    /// is [`wire::bounded_by`], which arms a timer of its own.
    pub(crate) async fn bounded_by<F: Future>(
        &mut self,
        deadline: impl FnOnce() -> Instant,
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
                (None, None) => Instant::now(),
            };
            self.arm(until).poll(cx).map(|()| None)
        })
        .await
    }

    /// [`Timer::bounded_by`] with the deadline known.
    pub(crate) async fn bounded<F: Future>(
        &mut self,
        deadline: Instant,
        fut: F,
    ) -> Option<F::Output> {
        self.bounded_by(|| deadline, fut).await
    }
}

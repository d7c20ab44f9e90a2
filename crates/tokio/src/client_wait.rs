//! The client's waits: one runtime timer per connection, kept with it in
//! the pool and moved only when a wait must end before it fires, and the
//! clock read at most once per wakeup (the crate's [`WakeClock`]).
//!
//! A wait that ends later than the connection's timer leaves the timer
//! where it is: when it fires before the wait's end, it is moved to that
//! end (re-armed) instead of timing the wait out ([`Timer::poll_until`]).
//! So a keep-alive connection's requests register no timer while the
//! timeouts stay the same (`read_timeout` and `write_timeout` from when a
//! wait began, within the connection's bound: the core's
//! `ClientConn::wait_until` for a read). What is the client's own: the runtime a
//! pooled connection's timer belongs to, checked when a task takes it.

use http_net_conn::Timestamp;
use std::future::{poll_fn, Future};
use std::task::{Context, Poll};

use crate::timer::{Timer, WakeClock};

/// One connection's runtime timer: the crate's [`Timer`] (made at the
/// connection's first wait, moved only for an earlier end, re-armed when
/// it fired for an earlier wait), with the runtime it belongs to.
#[derive(Debug, Default)]
pub(crate) struct ConnTimer {
    timer: Timer,
    /// The runtime the timer belongs to (a timer polled after its runtime
    /// shut down panics, so one made by another runtime is not polled).
    runtime: Option<tokio::runtime::Id>,
}

impl ConnTimer {
    /// A timer for a connection opened by the current runtime.
    pub(crate) fn new() -> ConnTimer {
        ConnTimer {
            timer: Timer::default(),
            runtime: current_runtime(),
        }
    }

    /// Drops the timer unless it belongs to the current runtime (a pooled
    /// connection may be taken by a task of another runtime).
    pub(crate) fn check_runtime(&mut self) {
        let id = current_runtime();
        if id != self.runtime {
            self.timer = Timer::default();
            self.runtime = id;
        }
    }
}

/// The runtime of the task running now, if any.
fn current_runtime() -> Option<tokio::runtime::Id> {
    tokio::runtime::Handle::try_current().ok().map(|h| h.id())
}

/// Polls `io` until it is ready (`Some`), or until the end `until` gives
/// for a wait that begins at its argument (`None`). A ready `io` reads no
/// clock and touches no timer; a wait reads the clock once (unless this
/// wakeup's time is known) and polls the connection's timer.
pub(crate) fn wait<'a, T>(
    timer: &'a mut ConnTimer,
    clock: &'a WakeClock,
    until: impl Fn(Timestamp) -> Timestamp + 'a,
    mut io: impl FnMut(&mut Context<'_>) -> Poll<T> + 'a,
) -> impl Future<Output = Option<T>> + 'a {
    let mut end: Option<Timestamp> = None;
    poll_fn(move |cx| {
        let ready = io(cx);
        poll_wait(timer, clock, &mut end, cx, ready, &until)
    })
}

/// One poll of [`wait`] whose I/O was polled already (`ready`), for a
/// caller that is itself polled (an `AsyncRead`): `end` keeps the wait's
/// end across polls (`None` before the first poll that had to wait, and
/// again once the wait is over).
pub(crate) fn poll_wait<T>(
    timer: &mut ConnTimer,
    clock: &WakeClock,
    end: &mut Option<Timestamp>,
    cx: &mut Context<'_>,
    ready: Poll<T>,
    until: impl FnOnce(Timestamp) -> Timestamp,
) -> Poll<Option<T>> {
    if let Poll::Ready(v) = ready {
        *end = None;
        return Poll::Ready(Some(v));
    }
    let at = *end.get_or_insert_with(|| {
        let at = until(clock.stamp());
        // The task waits now: the next wakeup reads the clock again.
        clock.forget();
        at
    });
    match timer.timer.poll_until(at, cx) {
        Poll::Ready(()) => {
            *end = None;
            Poll::Ready(None)
        }
        Poll::Pending => Poll::Pending,
    }
}

//! The client's waits: one runtime timer per connection, kept with it in
//! the pool and moved only when a wait must end before it fires, and the
//! clock read at most once per wakeup (the crate's [`WakeClock`]).
//!
//! A wait that ends later than the connection's timer leaves the timer
//! where it is: when it fires before the wait's end, it is moved to that
//! end (re-armed) instead of timing the wait out. So a keep-alive
//! connection's requests register no timer while the timeouts stay the
//! same (`read_timeout` and `write_timeout` from when a wait began, within
//! the request's deadline, RFC-free policy of the core's
//! [`RequestDeadline::wait`]).

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use http_net_conn::RequestDeadline;
use tokio::time::{Instant, Sleep};

use crate::timer::WakeClock;
use crate::wire;

/// One connection's runtime timer: created at its first wait, then moved
/// only when a wait must end before it fires.
#[derive(Debug, Default)]
pub(crate) struct ConnTimer {
    sleep: Option<Pin<Box<Sleep>>>,
    /// The runtime the timer belongs to (a timer polled after its runtime
    /// shut down panics, so one made by another runtime is not polled).
    runtime: Option<tokio::runtime::Id>,
}

impl ConnTimer {
    /// Drops the timer unless it belongs to the current runtime (a pooled
    /// connection may be taken by a task of another runtime).
    pub(crate) fn check_runtime(&mut self) {
        let id = tokio::runtime::Handle::try_current().ok().map(|h| h.id());
        if id != self.runtime {
            self.sleep = None;
            self.runtime = id;
        }
    }

    /// Ready once `end` has passed. The timer is moved to `end` when it
    /// would fire later, and re-armed to `end` when it fired earlier (for
    /// an earlier wait).
    fn poll_until(&mut self, end: Instant, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            let Some(sleep) = self.sleep.as_mut() else {
                self.sleep = Some(Box::pin(tokio::time::sleep_until(end)));
                self.runtime = tokio::runtime::Handle::try_current().ok().map(|h| h.id());
                continue;
            };
            let at = sleep.deadline();
            if at > end {
                sleep.as_mut().reset(end);
                continue;
            }
            match sleep.as_mut().poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(()) if at >= end => return Poll::Ready(()),
                Poll::Ready(()) => sleep.as_mut().reset(end),
            }
        }
    }
}

/// Polls `io` until it is ready (`Some`), or until `per` after the wait
/// began, within the request's deadline (`None`). A ready `io` reads no
/// clock and touches no timer; a wait reads the clock once (unless this
/// wakeup's time is known) and polls the connection's timer.
pub(crate) async fn wait<T>(
    timer: &mut ConnTimer,
    clock: &WakeClock,
    per: Duration,
    request_deadline: RequestDeadline,
    mut io: impl FnMut(&mut Context<'_>) -> Poll<T>,
) -> Option<T> {
    let mut end: Option<Instant> = None;
    poll_fn(|cx| {
        if let Poll::Ready(v) = io(cx) {
            return Poll::Ready(Some(v));
        }
        let end = *end.get_or_insert_with(|| {
            let at = request_deadline.wait(clock.stamp(), per).0;
            // The task waits now: the next wakeup reads the clock again.
            clock.forget();
            wire::instant(at)
        });
        timer.poll_until(end, cx).map(|()| None)
    })
    .await
}

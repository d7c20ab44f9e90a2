//! One open connection as the accept loop and a graceful stop see it: the
//! core's [`SlotCell`] (what it does, since when, whether it was evicted),
//! whether a write waits on the peer, its request body's flow, and the
//! bell that wakes its task. The endpoint reads it through [`Published`]
//! only at the connection limit.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use http_net_conn::driver::{Flow, FlowGauge, Published, SlotCell, SlotState};
use http_net_conn::{Stage, Timestamp};
use std::future::{poll_fn, Future};
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use crate::timer::WakeClock;

/// One open connection, as the accept loop and the shutdown see it.
#[derive(Debug)]
pub(crate) struct Slot {
    /// Its key in the endpoint.
    pub(crate) id: u64,
    pub(crate) cell: SlotCell,
    /// When a write began waiting on the peer to take bytes (its receive
    /// window full), in milliseconds since the adapter's epoch, plus one;
    /// 0: no write waits. (The scheduler's own flag: the state stays.)
    stalled: AtomicU64,
    /// The request body's progress while a handler reads it (the std
    /// server's gauge too), for eviction.
    pub(crate) body: FlowGauge,
    /// Rung on eviction and on shutdown.
    pub(crate) wake: Bell,
    /// The connection task's clock, read once per wakeup.
    pub(crate) clock: WakeClock,
}

impl Published for Slot {
    fn cell(&self) -> &SlotCell {
        &self.cell
    }
    /// This adapter bounds a response's rate with its own deadlines, so it
    /// gives no byte counts for responses: a stalled write's time alone.
    fn flows(&self, now: Timestamp) -> (Flow, Flow) {
        let stalled = self.stalled.load(Ordering::SeqCst);
        let response = Flow {
            stalled_ms: (stalled != 0)
                .then(|| Slot::ms(now).saturating_add(1).saturating_sub(stalled)),
            ..Flow::default()
        };
        (self.body.flow(now), response)
    }
}

impl Slot {
    /// A connection accepted at `now`, waiting for its first byte.
    pub(crate) fn new(id: u64, now: Timestamp) -> Slot {
        Slot {
            id,
            cell: SlotCell::new(now),
            stalled: AtomicU64::new(0),
            body: FlowGauge::new(),
            wake: Bell::default(),
            clock: WakeClock::default(),
        }
    }

    pub(crate) fn evicted(&self) -> bool {
        self.cell.evicted().is_some()
    }

    /// Carries out the endpoint's eviction: the task wakes and sees it.
    pub(crate) fn evict(&self, _stage: Stage) {
        self.wake.ring();
    }

    /// Milliseconds of the adapter's one epoch (`timer::epoch`).
    fn ms(now: Timestamp) -> u64 {
        now.as_nanos() / 1_000_000
    }

    /// Records what the connection is doing (only a change moves its
    /// start). A running handler takes no clock reading.
    pub(crate) fn set(&self, state: SlotState) {
        if !self.cell.is_in(state) {
            let now = (state != SlotState::Handler).then(|| self.clock.stamp());
            self.cell.enter(state, now);
        }
    }

    /// [`Slot::set`] with the time already read by the caller (no clock
    /// read).
    pub(crate) fn set_at(&self, state: SlotState, now: Timestamp) {
        self.cell
            .enter(state, (state != SlotState::Handler).then_some(now));
    }

    /// A write starts waiting on the peer (at this wakeup's time).
    pub(crate) fn stall_begins(&self) {
        let ms = Slot::ms(self.clock.stamp()).saturating_add(1);
        self.stalled.store(ms, Ordering::SeqCst);
    }

    /// The write no longer waits.
    pub(crate) fn stall_ends(&self) {
        self.stalled.store(0, Ordering::SeqCst);
    }
}

/// How the accept loop and the shutdown wake one connection's task: a
/// count of rings, the count its task last heard, and the task's waker.
/// A ring while the task is not waiting is heard at its next wait (as a
/// `tokio::sync::Notify` permit, several rings heard as one). Only the
/// connection's own task waits on it, so a wait is two loads and a
/// `will_wake` check under an uncontended lock, with nothing to register
/// or take out afterwards: the per-wait cost of a `Notify` was about
/// 400 instructions per request.
#[derive(Debug, Default)]
pub(crate) struct Bell {
    rung: AtomicU32,
    heard: AtomicU32,
    waker: Mutex<Option<Waker>>,
}

impl Bell {
    /// Wakes the connection's task (now, or at its next wait).
    pub(crate) fn ring(&self) {
        self.rung.fetch_add(1, Ordering::SeqCst);
        let waker = self.waker.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(w) = waker {
            w.wake();
        }
    }

    /// Resolves once the bell rang since the task last heard it.
    pub(crate) fn rang(&self) -> impl Future<Output = ()> + '_ {
        poll_fn(move |cx| self.poll_rang(cx))
    }

    fn heard_new_ring(&self) -> bool {
        let rung = self.rung.load(Ordering::SeqCst);
        if rung == self.heard.load(Ordering::Relaxed) {
            return false;
        }
        self.heard.store(rung, Ordering::Relaxed);
        true
    }

    /// One poll of [`Bell::rang`].
    pub(crate) fn poll_rang(&self, cx: &mut Context<'_>) -> Poll<()> {
        if self.heard_new_ring() {
            return Poll::Ready(());
        }
        {
            let mut w = self.waker.lock().unwrap_or_else(|p| p.into_inner());
            match &*w {
                Some(old) if old.will_wake(cx.waker()) => {}
                _ => *w = Some(cx.waker().clone()),
            }
        }
        // A ring between the first look and the waker's store is seen here;
        // one after it finds the waker.
        if self.heard_new_ring() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::pin;

    fn poll_once(bell: &Bell) -> Poll<()> {
        let mut fut = pin!(bell.rang());
        let mut cx = Context::from_waker(Waker::noop());
        fut.as_mut().poll(&mut cx)
    }

    #[test]
    fn a_ring_is_heard_once_whether_it_came_before_or_during_the_wait() {
        let bell = Bell::default();
        assert_eq!(poll_once(&bell), Poll::Pending, "nothing rang");
        bell.ring();
        bell.ring();
        assert_eq!(poll_once(&bell), Poll::Ready(()), "rung while not waiting");
        assert_eq!(poll_once(&bell), Poll::Pending, "two rings heard as one");
    }

    #[test]
    fn a_ring_wakes_the_waiting_task() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let bell = std::sync::Arc::new(Bell::default());
            let ringer = std::sync::Arc::clone(&bell);
            let t = std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(20));
                ringer.ring();
            });
            bell.rang().await;
            t.join().unwrap();
        });
    }
}

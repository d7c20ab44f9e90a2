//! One open connection as the accept loop and the shutdown see it: its
//! [`SlotState`] (the core's vocabulary, as the std server's slots), since
//! when, and whether a write waits on the peer. Eviction reads these
//! through [`Slot::summary`] for the core's `pick_eviction`.

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};

use http_net_conn::driver::{FlowGauge, SlotState, Summary};
use http_net_conn::Timestamp;
use std::future::{poll_fn, Future};
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use crate::timer::WakeClock;

/// One open connection, as the accept loop and the shutdown see it.
#[derive(Debug)]
pub(crate) struct Slot {
    pub(crate) id: u64,
    /// Its [`SlotState`], as a byte.
    state: AtomicU8,
    /// When that state began, in milliseconds since the adapter's epoch
    /// (`timer::epoch`).
    since: AtomicU64,
    /// When a write began waiting on the peer to take bytes (its receive
    /// window full), in milliseconds since the adapter's epoch, plus one;
    /// 0: no write waits. (The scheduler's own flag: the state stays.)
    stalled: AtomicU64,
    /// The request body's progress while a handler reads it (the std
    /// server's gauge too), for eviction.
    pub(crate) body: FlowGauge,
    /// Set by the accept loop when it evicts this connection.
    pub(crate) evicted: AtomicBool,
    /// Rung on eviction and on shutdown.
    pub(crate) wake: Bell,
    /// The peer's address, when the per-peer cap counts it.
    pub(crate) peer: Option<IpAddr>,
    /// The connection task's clock, read once per wakeup.
    pub(crate) clock: WakeClock,
}

impl Slot {
    /// A connection accepted `now_ms` after the adapter's epoch, waiting
    /// for its first byte.
    pub(crate) fn new(id: u64, now_ms: u64, peer: Option<IpAddr>) -> Slot {
        Slot {
            id,
            state: AtomicU8::new(SlotState::Fresh.to_u8()),
            since: AtomicU64::new(now_ms),
            stalled: AtomicU64::new(0),
            body: FlowGauge::new(),
            evicted: AtomicBool::new(false),
            wake: Bell::default(),
            peer,
            clock: WakeClock::default(),
        }
    }

    pub(crate) fn evicted(&self) -> bool {
        self.evicted.load(Ordering::SeqCst)
    }

    /// What the connection is doing.
    pub(crate) fn state(&self) -> Option<SlotState> {
        SlotState::from_u8(self.state.load(Ordering::SeqCst))
    }

    /// Milliseconds of the adapter's one epoch (`timer::epoch`), the unit
    /// of the slot's marks.
    fn ms(now: Timestamp) -> u64 {
        now.as_nanos() / 1_000_000
    }

    /// Records what the connection is doing (only a change moves `since`).
    /// A running handler takes no clock reading: eviction weighs it by its
    /// stalled writes alone.
    pub(crate) fn set(&self, state: SlotState) {
        if self.state.load(Ordering::Relaxed) != state.to_u8() {
            let now = if state == SlotState::Handler {
                Timestamp::from_nanos(0)
            } else {
                self.clock.stamp()
            };
            self.set_at(state, now);
        }
    }

    /// [`Slot::set`] with the time already read by the caller (no clock
    /// read).
    pub(crate) fn set_at(&self, state: SlotState, now: Timestamp) {
        let b = state.to_u8();
        if self.state.load(Ordering::Relaxed) != b {
            if state != SlotState::Handler {
                self.since.store(Slot::ms(now), Ordering::SeqCst);
            }
            self.state.store(b, Ordering::SeqCst);
        }
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

    /// What eviction weighs, seen at `now_ms` (milliseconds since the
    /// server started): a connection whose write waits on the peer is a
    /// response stalled that long, whatever its state; otherwise its state
    /// and how long it has been in it. This adapter bounds a response's
    /// rate with its own deadlines, so it gives no byte
    /// counts for responses: a running handler is weighed by its request
    /// body's progress and its stalled writes.
    pub(crate) fn summary(&self, now_ms: u64) -> Option<Summary> {
        let stalled = self.stalled.load(Ordering::SeqCst);
        if stalled != 0 {
            let for_ms = now_ms.saturating_add(1).saturating_sub(stalled);
            let mut s = Summary::new(SlotState::Handler, for_ms);
            s.response.stalled_ms = Some(for_ms);
            return Some(s);
        }
        let state = self.state()?;
        if state == SlotState::Handler {
            // A handler's slot keeps no start time (no clock reading):
            // its body's progress tells its age.
            let body = self
                .body
                .flow(Timestamp::from_nanos(now_ms.saturating_mul(1_000_000)));
            let mut s = Summary::new(state, body.age_ms.unwrap_or(0));
            s.body = body;
            return Some(s);
        }
        let age = now_ms.saturating_sub(self.since.load(Ordering::SeqCst));
        Some(Summary::new(state, age))
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

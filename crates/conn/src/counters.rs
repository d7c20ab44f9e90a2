//! What a server counts, the same in every adapter: one [`Counters`]
//! snapshot type with one meaning per field, and the atomics both servers
//! add to ([`LiveCounters`]). Each event is counted once, where the rule
//! below says: a connection that times out is one timeout, however many of
//! its reads or writes failed on the way.

use core::sync::atomic::{AtomicU64, Ordering};

use crate::Stage;

/// Counts by the [`Stage`] a server connection was in: waiting idle
/// between requests (or before its first byte, or draining after an error
/// response), reading a request head, reading a request body (or draining
/// its unread rest), writing a response, setting the connection up (a TLS
/// handshake).
///
/// ```
/// use http_net_conn::{Counters, Stage};
/// let c = Counters::default();
/// assert_eq!(c.timed_out.get(Stage::Head), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StageCounts {
    /// Idle keep-alive connections (or ones that sent nothing yet, or
    /// draining their peer's input after an error response).
    pub idle: u64,
    /// Connections in a request head.
    pub head: u64,
    /// Connections in a request body.
    pub body: u64,
    /// Connections writing a response.
    pub write: u64,
    /// Connections in their setup step before the first HTTP byte.
    pub setup: u64,
}

impl StageCounts {
    /// The count for `stage` (a client's stage, `Connect` or `Deadline`,
    /// is never counted: 0).
    pub fn get(&self, stage: Stage) -> u64 {
        match stage_index(stage) {
            Some(0) => self.idle,
            Some(1) => self.head,
            Some(2) => self.body,
            Some(3) => self.write,
            Some(4) => self.setup,
            _ => 0,
        }
    }
}

/// The stages a server connection is counted in, by their index.
const STAGES: [Stage; 5] = [
    Stage::Idle,
    Stage::Head,
    Stage::Body,
    Stage::Write,
    Stage::Setup,
];

/// Where a stage is counted (`None`: a client's stage).
pub(crate) fn stage_index(stage: Stage) -> Option<usize> {
    STAGES.iter().position(|&s| s == stage)
}

/// The stage counted at `i`.
pub(crate) fn stage_at(i: usize) -> Option<Stage> {
    STAGES.get(i).copied()
}

/// What a server has done so far: both servers' `ServerHandle::counters`.
///
/// ```
/// use http_net_conn::driver::LiveCounters;
/// let live = LiveCounters::new();
/// live.accepted();
/// live.refused();
/// let c = live.snapshot();
/// assert_eq!((c.accepted, c.refused, c.current), (1, 1, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counters {
    /// Connections taken from the listener: served, refused, or closed in
    /// their setup step (`accepted - refused` were admitted).
    pub accepted: u64,
    /// Connections refused: answered `503` beyond the connection limit with
    /// none to evict, beyond the per-peer cap, or with no descriptor or
    /// thread left; with a setup step (TLS), closed unanswered instead,
    /// and also when their peer is over its setup rate.
    pub refused: u64,
    /// Connections closed to admit a newcomer at the connection limit, by
    /// the stage they were in.
    pub evicted: StageCounts,
    /// Connections closed by a deadline or a minimum data rate, once each,
    /// by the stage that ran out: the idle timeout; the head deadline; a
    /// body read's stall or rate, or the drain of an unread body; a write's
    /// stall or rate, or the whole-response deadline; the setup deadline.
    /// An evicted connection is counted in `evicted` only.
    pub timed_out: StageCounts,
    /// Connections whose setup step failed (a TLS handshake that failed),
    /// each closed without a response.
    pub setup_failed: u64,
    /// Handlers that panicked.
    pub panics: u64,
    /// Responses whose handler left the body it promised unsent (a body
    /// the connection left to it and not sent, or an answer it began and
    /// did not end): the connection closes after what was due before the
    /// missing bytes.
    pub unsent_bodies: u64,
    /// Connections admitted and not yet closed (one draining its peer's
    /// input after its close no longer counts).
    pub current: u64,
}

/// The counters a server's connections add to (atomics, no lock; one per
/// server), read with [`LiveCounters::snapshot`].
#[derive(Debug, Default)]
pub struct LiveCounters {
    accepted: AtomicU64,
    refused: AtomicU64,
    evicted: [AtomicU64; 5],
    timed_out: [AtomicU64; 5],
    setup_failed: AtomicU64,
    panics: AtomicU64,
    unsent_bodies: AtomicU64,
    current: AtomicU64,
}

/// Adds one.
fn add(a: &AtomicU64) {
    a.fetch_add(1, Ordering::Relaxed);
}

impl LiveCounters {
    /// All zero.
    pub const fn new() -> LiveCounters {
        LiveCounters {
            accepted: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            evicted: [const { AtomicU64::new(0) }; 5],
            timed_out: [const { AtomicU64::new(0) }; 5],
            setup_failed: AtomicU64::new(0),
            panics: AtomicU64::new(0),
            unsent_bodies: AtomicU64::new(0),
            current: AtomicU64::new(0),
        }
    }
    /// A connection was taken from the listener.
    pub fn accepted(&self) {
        add(&self.accepted);
    }
    /// A connection was refused.
    pub fn refused(&self) {
        add(&self.refused);
    }
    /// A connection in `stage` was evicted.
    pub fn evicted(&self, stage: Stage) {
        if let Some(a) = stage_index(stage).and_then(|i| self.evicted.get(i)) {
            add(a);
        }
    }
    /// A connection was closed because `stage`'s deadline or rate ran out
    /// (once per connection: see [`Counters::timed_out`]).
    pub fn timed_out(&self, stage: Stage) {
        if let Some(a) = stage_index(stage).and_then(|i| self.timed_out.get(i)) {
            add(a);
        }
    }
    /// A connection ended: `timed_out_in` is the stage whose deadline or
    /// rate closed it, if one did; it is counted once, unless the
    /// connection was `evicted` (counted as evicted then). Both servers
    /// call it when a connection's serving ends, before any linger.
    pub fn ended(&self, timed_out_in: Option<Stage>, evicted: bool) {
        if let (Some(stage), false) = (timed_out_in, evicted) {
            self.timed_out(stage);
        }
    }
    /// A connection's setup step failed.
    pub fn setup_failed(&self) {
        add(&self.setup_failed);
    }
    /// A handler panicked.
    pub fn panicked(&self) {
        add(&self.panics);
    }
    /// A handler left the body it promised unsent.
    pub fn unsent_body(&self) {
        add(&self.unsent_bodies);
    }
    /// A connection was admitted.
    pub fn opened(&self) {
        add(&self.current);
    }
    /// An admitted connection closed.
    pub fn closed(&self) {
        self.current.fetch_sub(1, Ordering::Relaxed);
    }
    /// What the counters say now.
    pub fn snapshot(&self) -> Counters {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let stages = |a: &[AtomicU64; 5]| StageCounts {
            idle: load(&a[0]),
            head: load(&a[1]),
            body: load(&a[2]),
            write: load(&a[3]),
            setup: load(&a[4]),
        };
        Counters {
            accepted: load(&self.accepted),
            refused: load(&self.refused),
            evicted: stages(&self.evicted),
            timed_out: stages(&self.timed_out),
            setup_failed: load(&self.setup_failed),
            panics: load(&self.panics),
            unsent_bodies: load(&self.unsent_bodies),
            current: load(&self.current),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stage_has_its_own_count_and_a_clients_stage_none() {
        let live = LiveCounters::new();
        let stages = [
            Stage::Idle,
            Stage::Head,
            Stage::Body,
            Stage::Write,
            Stage::Setup,
        ];
        for (i, s) in stages.iter().enumerate() {
            for _ in 0..=i {
                live.timed_out(*s);
                live.evicted(*s);
            }
        }
        live.timed_out(Stage::Connect);
        live.evicted(Stage::Deadline);
        // An evicted connection's timeout is not counted; no timeout, nothing.
        live.ended(Some(Stage::Head), true);
        live.ended(None, false);
        let c = live.snapshot();
        for (i, s) in stages.iter().enumerate() {
            assert_eq!(c.timed_out.get(*s), i as u64 + 1, "{s:?}");
            assert_eq!(c.evicted.get(*s), i as u64 + 1, "{s:?}");
        }
        assert_eq!(c.timed_out.get(Stage::Connect), 0);
        live.opened();
        live.opened();
        live.closed();
        assert_eq!(live.snapshot().current, 1);
    }
}

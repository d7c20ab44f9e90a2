//! The pace of one transfer (a request body, a response): the bytes it
//! moved, the time it spent waiting on the peer, and its optional whole
//! deadline; and when the next wait must end, by the stall timeout, the
//! minimum rate or the deadline. Both adapters' reads and writes ask it,
//! with the time they read passed in.

use core::time::Duration;

use crate::{Rate, Timestamp};

/// What ends a wait ([`Meter::deadline`]): an adapter reports each with its
/// own error (`Timeout` for a stall or a deadline, `TooSlow` for a rate).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No progress for the stall timeout.
    Stall,
    /// The minimum data rate: the waiting this transfer has done exceeds
    /// what its bytes earned (and the rate's grace).
    Rate,
    /// The transfer's whole deadline (a response's `response_timeout`).
    Deadline,
}

/// One transfer's pace. Only time spent waiting on the peer counts against
/// the rate, so a handler that pauses between reads or writes is never the
/// peer's fault.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{Rate, Timestamp};
/// use http_net_conn::driver::{Bound, Meter};
///
/// let rate = Rate { bytes_per_sec: 100, grace: Duration::from_secs(2) };
/// let t0 = Timestamp::from_nanos(0);
/// let mut m = Meter::new();
/// // Nothing moved: the rate's grace bounds the wait.
/// let two = t0.saturating_add(Duration::from_secs(2));
/// assert_eq!(m.deadline(t0, t0, Duration::from_secs(30), rate), (two, Bound::Rate));
/// // 500 bytes earn 5 s of waiting; 1 s is spent.
/// m.add(500);
/// m.waited(Duration::from_secs(1));
/// let four = t0.saturating_add(Duration::from_secs(4));
/// assert_eq!(m.deadline(t0, t0, Duration::from_secs(30), rate), (four, Bound::Rate));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Meter {
    bytes: u64,
    waited: Duration,
    until: Option<Timestamp>,
}

impl Meter {
    /// A transfer that has not started, with no deadline.
    pub const fn new() -> Meter {
        Meter {
            bytes: 0,
            waited: Duration::ZERO,
            until: None,
        }
    }

    /// Starts counting afresh (a new request body or response), with a
    /// whole deadline `until` or none.
    pub fn restart(&mut self, until: Option<Timestamp>) {
        *self = Meter {
            until,
            ..Meter::new()
        };
    }

    /// Starts counting afresh at `now`, with a whole deadline `whole`
    /// after it (a response's `response_timeout`) or none.
    pub fn start(&mut self, now: Timestamp, whole: Option<Duration>) {
        self.restart(whole.map(|d| now.saturating_add(d)));
    }

    /// The whole deadline.
    pub fn until(&self) -> Option<Timestamp> {
        self.until
    }

    /// Bytes moved since the last restart.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Time spent waiting on the peer since the last restart.
    pub fn time_waited(&self) -> Duration {
        self.waited
    }

    /// Counts `n` bytes moved: by a read or a write, or sent by the caller
    /// past the connection's output (a body left to it).
    pub fn add(&mut self, n: u64) {
        self.bytes = self.bytes.saturating_add(n);
    }

    /// Counts one wait on the peer that lasted `d`.
    pub fn waited(&mut self, d: Duration) {
        self.waited = self.waited.saturating_add(d);
    }

    /// When a wait starting at `now` must end, and what ends it: `stall`
    /// after the last progress (`progress`), the minimum `rate` (its grace,
    /// or the waiting the bytes earned at that rate, less the time already
    /// waited), or the whole deadline, whichever comes first.
    pub fn deadline(
        &self,
        now: Timestamp,
        progress: Timestamp,
        stall: Duration,
        rate: Rate,
    ) -> (Timestamp, Bound) {
        let mut at = (progress.saturating_add(stall), Bound::Stall);
        if let Some(due) = rate.due(self.bytes) {
            let by_rate = now.saturating_add(due.saturating_sub(self.waited));
            if by_rate < at.0 {
                at = (by_rate, Bound::Rate);
            }
        }
        if let Some(until) = self.until {
            if until < at.0 {
                at = (until, Bound::Deadline);
            }
        }
        at
    }
}

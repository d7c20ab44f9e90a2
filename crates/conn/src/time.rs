//! Time as an input: the core reads no clock. An adapter reads its own
//! monotonic clock once per wakeup and passes the reading in as a
//! [`Timestamp`]; the core answers with deadlines in the same terms.

use core::time::Duration;

/// A reading of the adapter's monotonic clock: nanoseconds since an epoch
/// the adapter chose (its server's start, say), so that two readings of
/// one adapter compare and subtract. `no_std`: no clock is read here.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::Timestamp;
///
/// let t0 = Timestamp::from_nanos(1_000);
/// let t1 = t0.saturating_add(Duration::from_millis(5));
/// assert_eq!(t1.saturating_duration_since(t0), Duration::from_millis(5));
/// assert_eq!(t0.saturating_duration_since(t1), Duration::ZERO);
/// assert!(t0 < t1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    nanos: u64,
}

impl Timestamp {
    /// The reading `nanos` nanoseconds after the adapter's epoch.
    pub const fn from_nanos(nanos: u64) -> Timestamp {
        Timestamp { nanos }
    }

    /// The reading `since` after the adapter's epoch (saturating past
    /// about 584 years).
    pub fn after_epoch(since: Duration) -> Timestamp {
        Timestamp {
            nanos: u64::try_from(since.as_nanos()).unwrap_or(u64::MAX),
        }
    }

    /// Nanoseconds since the adapter's epoch.
    pub const fn as_nanos(self) -> u64 {
        self.nanos
    }

    /// Time since the adapter's epoch.
    pub const fn since_epoch(self) -> Duration {
        Duration::from_nanos(self.nanos)
    }

    /// `self` plus `d`, saturating.
    pub fn saturating_add(self, d: Duration) -> Timestamp {
        let d = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        Timestamp {
            nanos: self.nanos.saturating_add(d),
        }
    }

    /// The time from `earlier` to `self`; zero when `earlier` is later.
    pub const fn saturating_duration_since(self, earlier: Timestamp) -> Duration {
        Duration::from_nanos(self.nanos.saturating_sub(earlier.nanos))
    }
}

/// A client's whole-request deadline (the adapters' `request_timeout`):
/// each wait of a request (connecting, writing, reading the response) ends
/// at the sooner of its own timeout and this, and a wait it ended is a
/// timeout of [`Stage::Deadline`](crate::Stage::Deadline).
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{RequestDeadline, Stage, Timestamp};
///
/// let t0 = Timestamp::from_nanos(0);
/// let secs = |s| t0.saturating_add(Duration::from_secs(s));
/// let d = RequestDeadline::new(t0, Some(Duration::from_secs(10)));
/// // A read with a 30 s timeout, started at 4 s: the deadline ends it.
/// assert_eq!(d.wait(secs(4), Duration::from_secs(30)), (secs(10), true));
/// assert_eq!(d.wait(secs(4), Duration::from_secs(1)), (secs(5), false));
/// assert_eq!(d.timed_out(secs(10), Stage::Head), Stage::Deadline);
/// assert_eq!(d.timed_out(secs(5), Stage::Head), Stage::Head);
/// assert_eq!(RequestDeadline::NONE.wait(secs(4), Duration::from_secs(1)), (secs(5), false));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RequestDeadline {
    at: Option<Timestamp>,
}

impl RequestDeadline {
    /// No whole-request deadline.
    pub const NONE: RequestDeadline = RequestDeadline { at: None };

    /// The deadline of a request started at `now` with `timeout` (none
    /// without).
    pub fn new(now: Timestamp, timeout: Option<Duration>) -> RequestDeadline {
        RequestDeadline {
            at: timeout.map(|t| now.saturating_add(t)),
        }
    }

    /// When the request must be over, if ever.
    pub const fn at(self) -> Option<Timestamp> {
        self.at
    }

    /// The end of a wait starting `now` that its own timeout `per` bounds
    /// (a connect, read or write timeout), and whether the request's
    /// deadline is what ends it. An end at `now` or before: no wait at all.
    pub fn wait(self, now: Timestamp, per: Duration) -> (Timestamp, bool) {
        let own = now.saturating_add(per);
        match self.at {
            Some(at) if at < own => (at, true),
            _ => (own, false),
        }
    }

    /// What a wait at `stage` that timed out at `now` reports:
    /// [`Stage::Deadline`](crate::Stage::Deadline) once the request's
    /// deadline has passed, `stage` otherwise.
    pub fn timed_out(self, now: Timestamp, stage: crate::Stage) -> crate::Stage {
        match self.at {
            Some(at) if at <= now => crate::Stage::Deadline,
            _ => stage,
        }
    }
}

/// A span of time that starts at a reading and ends `length` later: a
/// graceful stop's wait for requests in flight, a client's wait for
/// `100 Continue`, a pooled connection's idle life. The adapter keeps the
/// timer; the core says when it ends and whether it has.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{Timestamp};
/// use http_net_conn::driver::{Window};
///
/// let t0 = Timestamp::from_nanos(0);
/// let secs = |s| t0.saturating_add(Duration::from_secs(s));
/// let w = Window::start(t0, Duration::from_secs(2));
/// assert_eq!(w.left(secs(1)), Some(Duration::from_secs(1)));
/// assert!(!w.passed(secs(1)));
/// assert_eq!(w.left(secs(2)), None);
/// assert!(w.passed(secs(3)));
/// assert_eq!(w.until(), secs(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    until: Timestamp,
}

impl Window {
    /// The window of `length` from `now`.
    pub fn start(now: Timestamp, length: Duration) -> Window {
        Window {
            until: now.saturating_add(length),
        }
    }

    /// When it ends.
    pub const fn until(self) -> Timestamp {
        self.until
    }

    /// Whether it has ended at `now` (its end included).
    pub fn passed(self, now: Timestamp) -> bool {
        now >= self.until
    }

    /// The time left at `now`; `None` once it has ended.
    pub fn left(self, now: Timestamp) -> Option<Duration> {
        (!self.passed(now)).then(|| self.until.saturating_duration_since(now))
    }
}

/// The linger after an error response or a refusal (RFC 9112 §9.6: a
/// server that closes while the peer may still be sending half-closes
/// first and reads on, so that the peer reads the response instead of a
/// reset): the adapter shuts its write side, then reads and discards until
/// the peer closes, [`drain_bytes`](crate::ServerSettings::drain_bytes) were
/// read, or [`drain_time`](crate::ServerSettings::drain_time) has passed.
///
/// A graceful stop ends a linger at once: the response has been written,
/// the linger only helps the peer read it, and a stop must not wait on a
/// peer. An adapter's stop therefore never waits for a lingering
/// connection: it ends the linger when the stop comes (or has already let
/// the connection go from what the stop waits for), and the server's
/// `serve` returns without waiting out `drain_time`.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{Timestamp};
/// use http_net_conn::driver::{Linger};
///
/// let t0 = Timestamp::from_nanos(0);
/// let ms = |m| t0.saturating_add(Duration::from_millis(m));
/// let mut l = Linger::start(t0, Duration::from_secs(2), 1000).unwrap();
/// assert_eq!(l.wait(ms(500)), Some(Duration::from_millis(1500)));
/// assert!(l.read(600)); // room for 400 more bytes
/// assert!(!l.read(400)); // the byte bound is reached: close
/// let mut l = Linger::start(t0, Duration::from_secs(2), 1000).unwrap();
/// assert!(!l.read(0)); // the peer closed
/// assert_eq!(l.wait(ms(2000)), None); // the time is up
/// assert!(Linger::start(t0, Duration::ZERO, 1000).is_none()); // no linger
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Linger {
    window: Window,
    left: u64,
}

impl Linger {
    /// A linger from `now` of at most `time` and `bytes`; `None` when
    /// either is zero (the connection closes at once).
    pub fn start(now: Timestamp, time: Duration, bytes: u64) -> Option<Linger> {
        (!time.is_zero() && bytes > 0).then(|| Linger {
            window: Window::start(now, time),
            left: bytes,
        })
    }

    /// The answer to a connection refused at the connection limit: its
    /// `503` is written and its input read for at most 250 ms and 16 KiB,
    /// far less than an error response's linger, since a refusal comes
    /// when the server is short of connections.
    pub fn after_refusal(now: Timestamp) -> Linger {
        Linger {
            window: Window::start(now, Duration::from_millis(250)),
            left: 16 * 1024,
        }
    }

    /// When it ends at the latest.
    pub const fn until(&self) -> Timestamp {
        self.window.until()
    }

    /// How long the next read may wait from `now`; `None`: stop, the time
    /// is up.
    pub fn wait(&self, now: Timestamp) -> Option<Duration> {
        self.window.left(now)
    }

    /// Counts a read of `n` bytes (0: the peer closed); whether to read on.
    pub fn read(&mut self, n: usize) -> bool {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        self.left = self.left.saturating_sub(n);
        n > 0 && self.left > 0
    }
}

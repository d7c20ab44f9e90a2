//! Eviction at the connection limit: which open connection makes way for a
//! newcomer. One pure function over per-connection summaries that both
//! servers call when a newcomer finds the limit reached; no clock (the
//! caller gives ages and byte counts it read once), no I/O.

use core::time::Duration;

#[cfg(target_has_atomic = "64")]
use core::sync::atomic::{AtomicU64, Ordering};

use crate::{Stage, Timestamp};

/// What an open connection is doing, as a server's slot shows it: the one
/// vocabulary of both adapters' slots.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SlotState {
    /// Setting the connection up before its first HTTP byte (a TLS
    /// handshake): ranked as a partial head.
    Setup = 6,
    /// Closing after its answer or an error response, nothing more to
    /// serve.
    Closing = 0,
    /// Between requests (keep-alive), or waiting for its turn between
    /// pipelined requests: nothing in progress.
    Idle = 1,
    /// Accepted, and no byte of its first request yet: its request may be
    /// on its way, so it goes after every idle and stalled connection.
    Fresh = 2,
    /// Part of a request head has arrived.
    Head = 3,
    /// Reading and discarding the unread rest of a body after its answer.
    Drain = 4,
    /// A handler runs: it may read the request body ([`Summary::body`]) and
    /// write the response ([`Summary::response`]).
    Handler = 5,
}

impl SlotState {
    /// The state as a byte, for a slot that keeps it in an atomic.
    pub const fn to_u8(self) -> u8 {
        self as u8
    }

    /// Whether a graceful stop closes a connection in this state at once:
    /// no request is in flight (it waits for one, lingers or drains after
    /// its answer, or is still in its setup step).
    ///
    /// ```
    /// use http_net_conn::driver::SlotState;
    /// assert!(SlotState::Idle.stop_closes() && SlotState::Closing.stop_closes());
    /// assert!(!SlotState::Head.stop_closes() && !SlotState::Handler.stop_closes());
    /// ```
    pub const fn stop_closes(self) -> bool {
        !matches!(self, SlotState::Head | SlotState::Handler)
    }

    /// The state [`to_u8`](SlotState::to_u8) gave `b`; `None` for another
    /// byte.
    ///
    /// ```
    /// use http_net_conn::driver::SlotState;
    /// for s in [SlotState::Setup, SlotState::Closing, SlotState::Idle, SlotState::Fresh,
    ///           SlotState::Head, SlotState::Drain, SlotState::Handler] {
    ///     assert_eq!(SlotState::from_u8(s.to_u8()), Some(s));
    /// }
    /// assert_eq!(SlotState::from_u8(7), None);
    /// ```
    pub const fn from_u8(b: u8) -> Option<SlotState> {
        Some(match b {
            0 => SlotState::Closing,
            1 => SlotState::Idle,
            2 => SlotState::Fresh,
            3 => SlotState::Head,
            4 => SlotState::Drain,
            5 => SlotState::Handler,
            6 => SlotState::Setup,
            _ => return None,
        })
    }
}

/// The progress of one direction of a connection (a request body, or the
/// response), as eviction weighs it. Times are in milliseconds, read from
/// one clock reading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flow {
    /// Bytes moved since it started.
    pub bytes: u64,
    /// Since it started (`None`: not started).
    pub age_ms: Option<u64>,
    /// Time spent waiting on the peer, a wait in progress included.
    pub waited_ms: u64,
    /// How long the current wait for a byte has lasted (`None`: not
    /// waiting, or a byte moved since).
    pub stalled_ms: Option<u64>,
}

impl Flow {
    /// Not started.
    pub const NONE: Flow = Flow {
        bytes: 0,
        age_ms: None,
        waited_ms: 0,
        stalled_ms: None,
    };

    /// Bytes per second since it started (0 when it has not started).
    pub fn pace(&self) -> u64 {
        match self.age_ms {
            Some(age) if age > 0 => self.bytes.saturating_mul(1000) / age,
            _ => 0,
        }
    }

    /// Below `rate` bytes per second over its whole age, once at least
    /// `grace_ms` old (`rate` 0: never).
    fn slow_since_start(&self, rate: u64, grace_ms: u64) -> bool {
        match self.age_ms {
            Some(age) => {
                rate != 0
                    && age >= grace_ms
                    && u128::from(self.bytes) * 1000 < u128::from(rate) * u128::from(age)
            }
            None => false,
        }
    }

    /// Below `rate` over the time spent waiting, once that is at least
    /// `grace_ms`.
    fn slow_while_waiting(&self, rate: u64, grace_ms: u64) -> bool {
        rate != 0
            && self.waited_ms >= grace_ms
            && u128::from(self.bytes) * 1000 < u128::from(rate) * u128::from(self.waited_ms)
    }

    fn stalled_for(&self, ms: u64) -> bool {
        self.stalled_ms.is_some_and(|s| s >= ms)
    }
}

/// One open connection, as eviction sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// What it is doing.
    pub state: SlotState,
    /// Since it entered `state`, in milliseconds.
    pub age_ms: u64,
    /// The request body a handler reads ([`SlotState::Handler`] only).
    pub body: Flow,
    /// The response ([`SlotState::Handler`] only; an adapter that cannot
    /// see a response's bytes gives its stall alone).
    pub response: Flow,
}

impl Summary {
    /// A connection in `state` for `age_ms`, with no body or response flow.
    pub const fn new(state: SlotState, age_ms: u64) -> Summary {
        Summary {
            state,
            age_ms,
            body: Flow::NONE,
            response: Flow::NONE,
        }
    }
}

/// What eviction weighs the summaries against: the server's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvictPolicy {
    /// The eviction grace: stalls at least this old go before younger ones
    /// (it orders; it protects no one).
    pub grace_ms: u64,
    /// The minimum request-body rate, bytes per second (0: none).
    pub min_body_rate: u64,
    /// The minimum response rate, bytes per second (0: none).
    pub min_response_rate: u64,
}

/// Under pressure, a response younger than the grace whose peer took no
/// byte for this long may go (two of a blocking writer's write slices).
pub const YOUNG_RESPONSE_STALL_MS: u64 = 200;

/// Refused connections (beyond the connection limit with none evictable,
/// or beyond the per-peer cap) lingering at once, each within
/// [`Linger::after_refusal`](crate::driver::Linger::after_refusal); beyond
/// it a refused connection is answered with one read and no linger
/// ([`Refusal::AtOnce`](crate::driver::Refusal::AtOnce)), so that a flood
/// of them holds no more than this.
pub const REFUSING_AT_ONCE: usize = 64;

/// A candidate's place in the eviction order: the least one goes first.
/// Tier, then bytes per second, then the longest in its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank {
    tier: u8,
    pace: u64,
    younger: u64,
}

impl Rank {
    fn new(tier: u8, pace: u64, age_ms: u64) -> Rank {
        Rank {
            tier,
            pace,
            younger: u64::MAX - age_ms,
        }
    }
}

/// Where `s` stands in the eviction order, and the wait it is evicted
/// from ([`Stage::Idle`] for a closing, idle or fresh connection,
/// [`Stage::Head`], [`Stage::Body`] for a body read or drained,
/// [`Stage::Write`] for a response: an adapter answers a head `503` with
/// `Retry-After` ([`ServerConn::evicted_mid_head`](crate::ServerConn::evicted_mid_head)),
/// a body `408`, and cuts a response); `None` when it is never evicted (a handler moving data at its
/// rates, or waiting on neither side). Four tiers, the lower first:
/// 0. closing connections;
/// 1. idle keep-alive connections;
/// 2. stalled at least the grace: a partial head (or a connection's setup,
///    such as a TLS handshake), the drain of a body, a body or response
///    below its minimum rate since it started (its own rate grace does not
///    protect it here) or that has waited the grace for a byte;
/// 3. the same younger than the grace (below the rate since it started,
///    whatever its age), a connection that has sent no byte yet (whatever
///    its age: its request may be on its way), and a response whose peer
///    took no byte for [`YOUNG_RESPONSE_STALL_MS`].
///
/// Within a tier, the fewest bytes per second first, then the longest in
/// its state.
///
/// ```
/// use http_net_conn::driver::{rank, EvictPolicy, SlotState, Summary};
///
/// let p = EvictPolicy { grace_ms: 1000, min_body_rate: 240, min_response_rate: 240 };
/// let idle = rank(&Summary::new(SlotState::Idle, 5), &p).unwrap().0;
/// let old_head = rank(&Summary::new(SlotState::Head, 1500), &p).unwrap().0;
/// let young_head = rank(&Summary::new(SlotState::Head, 10), &p).unwrap().0;
/// assert!(idle < old_head && old_head < young_head);
/// assert_eq!(rank(&Summary::new(SlotState::Handler, 10), &p), None);
/// ```
pub fn rank(s: &Summary, p: &EvictPolicy) -> Option<(Rank, Stage)> {
    let grace = p.grace_ms;
    let tier = |old: bool| if old { 2 } else { 3 };
    let age = s.age_ms;
    match s.state {
        SlotState::Closing => Some((Rank::new(0, 0, age), Stage::Idle)),
        SlotState::Idle => Some((Rank::new(1, 0, age), Stage::Idle)),
        SlotState::Fresh => Some((Rank::new(3, 0, age), Stage::Idle)),
        SlotState::Head => Some((Rank::new(tier(age >= grace), 0, age), Stage::Head)),
        SlotState::Setup => Some((Rank::new(tier(age >= grace), 0, age), Stage::Setup)),
        SlotState::Drain => Some((Rank::new(tier(age >= grace), 0, age), Stage::Body)),
        SlotState::Handler => {
            let stalled_or_slow = |f: &Flow, rate: u64| {
                f.slow_since_start(rate, grace)
                    || f.slow_while_waiting(rate, grace)
                    || f.stalled_for(grace)
            };
            let flow_rank = |f: &Flow, tier: u8| Rank::new(tier, f.pace(), age);
            let (b, r) = (&s.body, &s.response);
            if stalled_or_slow(b, p.min_body_rate) {
                Some((flow_rank(b, 2), Stage::Body))
            } else if stalled_or_slow(r, p.min_response_rate) {
                Some((flow_rank(r, 2), Stage::Write))
            } else if b.slow_since_start(p.min_body_rate, 0) {
                Some((flow_rank(b, 3), Stage::Body))
            } else if r.slow_since_start(p.min_response_rate, 0)
                || r.stalled_for(YOUNG_RESPONSE_STALL_MS.min(grace))
            {
                Some((flow_rank(r, 3), Stage::Write))
            } else {
                None
            }
        }
    }
}

/// The connection to evict among `candidates` (each with the caller's key),
/// and the wait it is evicted from: the least [`rank`]; `None` when none
/// may be evicted (the newcomer is then refused with `503`).
///
/// ```
/// use http_net_conn::{Stage};
/// use http_net_conn::driver::{pick_eviction, EvictPolicy, SlotState, Summary};
///
/// let p = EvictPolicy { grace_ms: 1000, min_body_rate: 0, min_response_rate: 0 };
/// let slots = [
///     (1, Summary::new(SlotState::Handler, 50)),
///     (2, Summary::new(SlotState::Head, 30)),
///     (3, Summary::new(SlotState::Head, 80)),
/// ];
/// assert_eq!(pick_eviction(slots, &p), Some((3, Stage::Head)));
/// ```
pub fn pick_eviction<K>(
    candidates: impl IntoIterator<Item = (K, Summary)>,
    p: &EvictPolicy,
) -> Option<(K, Stage)> {
    let mut best: Option<(Rank, K, Stage)> = None;
    for (k, s) in candidates {
        if let Some((r, why)) = rank(&s, p) {
            if best.as_ref().is_none_or(|(b, _, _)| r < *b) {
                best = Some((r, k, why));
            }
        }
    }
    best.map(|(_, k, why)| (k, why))
}

/// One direction's progress (a request body, a response), published by the
/// connection that moves its bytes for the one that picks whom to evict
/// (another thread or task): atomics, written once per wait, read as a
/// [`Flow`] only when a newcomer finds the limit reached. Times are
/// [`Timestamp`]s of one epoch for all the gauges a server compares.
/// Needs 64-bit atomics.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{Timestamp};
/// use http_net_conn::driver::{FlowGauge};
///
/// let g = FlowGauge::new();
/// let ms = |m: u64| Timestamp::from_nanos(m * 1_000_000);
/// g.begin(ms(1000)); // a read starts waiting
/// let f = g.flow(ms(1500));
/// assert_eq!((f.bytes, f.age_ms, f.waited_ms, f.stalled_ms), (0, Some(500), 500, Some(500)));
/// g.end(100, Duration::from_millis(700)); // 100 bytes came
/// let f = g.flow(ms(1700));
/// assert_eq!((f.bytes, f.waited_ms, f.stalled_ms), (100, 700, None));
/// ```
#[cfg(target_has_atomic = "64")]
#[derive(Debug, Default)]
pub struct FlowGauge {
    bytes: AtomicU64,
    waited_ms: AtomicU64,
    /// When the current wait began (ms since the epoch, plus one; 0: none).
    wait_from: AtomicU64,
    /// When the current run of waits without a byte began (0: none).
    stalled_from: AtomicU64,
    /// When the transfer first waited for the peer (0: not yet).
    started: AtomicU64,
}

#[cfg(target_has_atomic = "64")]
impl FlowGauge {
    /// A transfer that has not started.
    pub const fn new() -> FlowGauge {
        FlowGauge {
            bytes: AtomicU64::new(0),
            waited_ms: AtomicU64::new(0),
            wait_from: AtomicU64::new(0),
            stalled_from: AtomicU64::new(0),
            started: AtomicU64::new(0),
        }
    }

    fn ms(t: Timestamp) -> u64 {
        (t.as_nanos() / 1_000_000).saturating_add(1)
    }

    /// A new transfer (a new request body or response).
    pub fn reset(&self) {
        for a in [
            &self.bytes,
            &self.waited_ms,
            &self.wait_from,
            &self.stalled_from,
            &self.started,
        ] {
            a.store(0, Ordering::Relaxed);
        }
    }

    /// A wait on the peer begins at `now`.
    pub fn begin(&self, now: Timestamp) {
        let ms = Self::ms(now);
        self.wait_from.store(ms, Ordering::Relaxed);
        let _ = self
            .started
            .compare_exchange(0, ms, Ordering::Relaxed, Ordering::Relaxed);
        let _ = self
            .stalled_from
            .compare_exchange(0, ms, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// The wait ended: the transfer has moved `bytes` in all, after
    /// `waited` in all spent waiting on the peer.
    pub fn end(&self, bytes: u64, waited: Duration) {
        if bytes != self.bytes.swap(bytes, Ordering::Relaxed) {
            self.stalled_from.store(0, Ordering::Relaxed);
        }
        let waited = u64::try_from(waited.as_millis()).unwrap_or(u64::MAX);
        self.waited_ms.store(waited, Ordering::Relaxed);
        self.wait_from.store(0, Ordering::Relaxed);
    }

    /// The progress as eviction weighs it, seen at `now` (one clock
    /// reading for every slot).
    pub fn flow(&self, now: Timestamp) -> Flow {
        let now = Self::ms(now);
        let started = self.started.load(Ordering::Relaxed);
        let wait_from = self.wait_from.load(Ordering::Relaxed);
        let stalled_from = self.stalled_from.load(Ordering::Relaxed);
        let mut waited_ms = self.waited_ms.load(Ordering::Relaxed);
        if wait_from != 0 {
            waited_ms = waited_ms.saturating_add(now.saturating_sub(wait_from));
        }
        Flow {
            bytes: self.bytes.load(Ordering::Relaxed),
            age_ms: (started != 0).then(|| now.saturating_sub(started)),
            waited_ms,
            stalled_ms: (stalled_from != 0 && wait_from != 0)
                .then(|| now.saturating_sub(stalled_from)),
        }
    }
}

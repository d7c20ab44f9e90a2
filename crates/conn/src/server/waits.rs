//! The server connection's deadlines between handlers (idle keep-alive,
//! the whole head, the drain of an unread body), owned by the connection:
//! the adapter asks [`ServerConn::poll_timeout`] when it is about to wait
//! and calls [`ServerConn::handle_timeout`] when its wait bound ran out;
//! what an expiry does (a `408` queued, a close, the stage it counts in)
//! is decided here for every adapter.

use super::deadlines::{ReadTimeouts, IDLE_GRACE};
use super::ServerConn;
use crate::driver::SlotState;
use crate::{Phase, ServerSettings, Stage, Timestamp};

/// What a deadline that ran out (or an eviction) did to the connection
/// ([`ServerConn::handle_timeout`], [`ServerConn::evict`]): what the
/// adapter carries out, and the stage a timeout counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// The wait that ended: [`Stage::Idle`], [`Stage::Head`] or
    /// [`Stage::Body`] (the drain of an unread body).
    pub stage: Stage,
    /// The connection queued a response (`408` for a head that ran out,
    /// `503` with `Retry-After` for one evicted): send it, half-close and
    /// linger. Otherwise close at once, sending nothing more.
    pub linger: bool,
    /// The stage whose timeout this is, for the server's counters; `None`
    /// for an eviction (counted as one).
    pub timed_out: Option<Stage>,
    /// An eviction between requests: read once more, without waiting,
    /// what had arrived before it (a request on its way is answered, as
    /// the connection's last), then close. Asked again, the eviction
    /// closes.
    pub look_once: bool,
}

/// What the adapter does before its next read ([`ServerConn::next_read`]).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextRead {
    /// Read, waiting at most until `until`; the connection's slot shows
    /// `slot`. A wait that reaches `until` calls
    /// [`ServerConn::handle_timeout`] ([`Stage::Setup`], a connection's
    /// setup from [`ServerSettings::setup_wait`](crate::ServerSettings::setup_wait),
    /// has no connection yet: close quietly).
    ///
    /// When `stop_closes`, a graceful stop closes the connection instead
    /// (idle and draining ones): mark the slot first, then look at the
    /// stop, so that a stop between the two is seen by the wake of the
    /// marked slot.
    Wait {
        /// The deadline.
        until: Timestamp,
        /// What times out at `until`.
        stage: Stage,
        /// What the connection's slot shows while it waits.
        slot: SlotState,
        /// A graceful stop closes the connection rather than wait.
        stop_closes: bool,
    },
    /// A deadline had run out already: carry the [`Expiry`] out.
    Expired(Expiry),
    /// Nothing more to read for a request: send the output, half-close,
    /// drain the peer's input for a bounded time, close (the phases
    /// `Draining`, `Closed` and `Switched`, and any a later version adds).
    Linger,
}

impl ServerConn {
    /// Sets the timeouts of the waits between handlers (kept across
    /// [`reset`](ServerConn::reset); [`ReadTimeouts::DEFAULT`] until set).
    pub fn set_timeouts(&mut self, timeouts: ReadTimeouts) {
        self.deadlines.timeouts = timeouts;
    }

    /// The deadline of the wait the adapter is about to begin at `now`,
    /// started now if none runs for the connection's phase: the idle
    /// timeout from the first wait of an idle connection, the whole head's
    /// from the first wait for its rest, the drain's from the first wait
    /// for an unread body. `None`: the connection reads no more for a
    /// request (send the output and linger).
    ///
    /// Call it only when about to wait (after input that did not complete
    /// a request): a head that arrives whole never asks, and so reads no
    /// clock. Asked again during the same wait (a stale wakeup), it
    /// answers the same deadline.
    ///
    /// ```
    /// use core::time::Duration;
    /// use http_net_conn::{Config, ServerConn, ServerEvent, Timestamp};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let t0 = Timestamp::from_nanos(0);
    /// let secs = |s| t0.saturating_add(Duration::from_secs(s));
    /// assert_eq!(conn.poll_timeout(t0), Some(secs(30))); // idle
    /// assert_eq!(conn.poll_timeout(secs(5)), Some(secs(30))); // the same wait
    /// let _ = conn.recv(b"GET / HT");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    /// assert_eq!(conn.poll_timeout(secs(6)), Some(secs(16))); // the head's
    /// assert_eq!(conn.handle_timeout(secs(15)), None);
    /// let expired = conn.handle_timeout(secs(16)).unwrap();
    /// assert!(expired.linger);
    /// assert!(conn.output().starts_with(b"HTTP/1.1 408 "));
    /// ```
    pub fn poll_timeout(&mut self, now: Timestamp) -> Option<Timestamp> {
        self.poll_timeout_in(self.phase(), now)
    }

    /// [`poll_timeout`](ServerConn::poll_timeout) in `phase` (the
    /// connection's, computed once by the caller).
    fn poll_timeout_in(&mut self, phase: Phase, now: Timestamp) -> Option<Timestamp> {
        let d = &mut self.deadlines;
        let t = d.timeouts;
        let (slot, length) = match phase {
            Phase::Idle => {
                d.idle_since.get_or_insert(now);
                (&mut d.idle, t.idle)
            }
            Phase::Head => (&mut d.head, t.head),
            Phase::Body | Phase::Responding => (&mut d.drain, t.body),
            _ => return None,
        };
        Some(*slot.get_or_insert(now.saturating_add(length)))
    }

    /// Carries out what a deadline that has run out at `now` does: an idle
    /// connection or the drain of an unread body closes; a head that ran
    /// out has `408` queued (with `Connection: close`, RFC 9110 §15.5.9)
    /// to send before a linger. `None` while no deadline of the
    /// connection's phase has passed (a wait bound that fired early: wait
    /// again, to [`poll_timeout`](ServerConn::poll_timeout)'s answer).
    pub fn handle_timeout(&mut self, now: Timestamp) -> Option<Expiry> {
        let d = &self.deadlines;
        let (deadline, stage) = match self.phase() {
            Phase::Idle => (d.idle, Stage::Idle),
            Phase::Head => (d.head, Stage::Head),
            Phase::Body | Phase::Responding => (d.drain, Stage::Body),
            _ => return None,
        };
        if deadline? > now {
            return None;
        }
        self.paces.timed_out(stage);
        let linger = stage == Stage::Head && self.time_out().is_ok();
        Some(Expiry {
            stage,
            linger,
            timed_out: Some(stage),
            look_once: false,
        })
    }

    /// The server evicted this connection (at its connection limit) while
    /// it waited for input: mid-head it has `503` with `Retry-After`
    /// queued ([`evicted_mid_head`](ServerConn::evicted_mid_head)) to send
    /// before a linger; while draining it closes. Between requests it
    /// reads once more, without waiting, what had arrived
    /// ([`Expiry::look_once`]): a request already sent is answered, with
    /// `Connection: close` ([`begin_request`](ServerConn::begin_request)),
    /// and the eviction asked again closes. One rule for every adapter.
    ///
    /// ```
    /// use http_net_conn::{Config, ServerConn};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// assert!(conn.evict().look_once); // idle: one more look
    /// assert!(!conn.evict().look_once); // nothing came: close
    /// ```
    pub fn evict(&mut self) -> Expiry {
        let phase = self.phase();
        let first = !core::mem::replace(&mut self.deadlines.evicted, true);
        let stage = match phase {
            Phase::Idle => Stage::Idle,
            Phase::Head => Stage::Head,
            _ => Stage::Body,
        };
        Expiry {
            stage,
            linger: phase == Phase::Head && self.evicted_mid_head().is_ok(),
            timed_out: None,
            look_once: phase == Phase::Idle && first,
        }
    }

    /// When the connection, idle and waiting for its peer since the start
    /// of its idle deadline ([`poll_timeout`](ServerConn::poll_timeout)),
    /// gives its buffers up ([`take_buffers`](ServerConn::take_buffers), to
    /// a pool that lends them to others): [`IDLE_GRACE`] after that start
    /// when its peer came back within the grace last time, at once
    /// otherwise (asked during an idle wait). `None` before the idle wait's
    /// first [`poll_timeout`](ServerConn::poll_timeout). One rule for every
    /// adapter; an adapter with no pool (a thread per connection) keeps
    /// them.
    ///
    /// ```
    /// use core::time::Duration;
    /// use http_net_conn::{Config, ServerConn, Timestamp};
    /// use http_net_conn::driver::IDLE_GRACE;
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let t0 = Timestamp::from_nanos(0);
    /// assert_eq!(conn.buffers_idle_at(), None);
    /// let _ = conn.poll_timeout(t0);
    /// assert_eq!(conn.buffers_idle_at(), Some(t0.saturating_add(IDLE_GRACE)));
    /// // The peer came back later than the grace: next time, at once.
    /// conn.idle_ended(t0.saturating_add(Duration::from_secs(1)));
    /// assert_eq!(conn.buffers_idle_at(), Some(t0));
    /// ```
    pub fn buffers_idle_at(&self) -> Option<Timestamp> {
        let since = self.idle_since()?;
        Some(if self.deadlines.quick {
            since.saturating_add(IDLE_GRACE)
        } else {
            since
        })
    }

    /// The idle peer's first bytes came at `now` (the reading of the
    /// wakeup that brought them): whether within [`IDLE_GRACE`] of the
    /// wait's start decides when the next idle wait gives its buffers up.
    pub fn idle_ended(&mut self, now: Timestamp) {
        if let Some(since) = self.idle_since() {
            self.deadlines.quick = now <= since.saturating_add(IDLE_GRACE);
        }
    }

    /// When the current idle wait began (kept until the request its peer
    /// sends begins).
    fn idle_since(&self) -> Option<Timestamp> {
        self.deadlines.idle_since
    }

    /// Whether the buffers this connection holds are worth keeping for
    /// reuse (by a pool, or by its thread's next connection) once it is
    /// idle or closed: no larger than a new connection's. The output
    /// buffer grows past its high water under a peer that pipelines
    /// requests without reading; kept, that memory would stay resident.
    ///
    /// ```
    /// use http_net_conn::{Config, ServerConn};
    ///
    /// assert!(ServerConn::new(Config::DEFAULT).buffers_kept());
    /// ```
    pub fn buffers_kept(&self) -> bool {
        self.allocated_bytes() <= crate::Buffers::fresh_bytes(self.config())
    }

    /// When the current head's deadline started (its first wait for the
    /// rest), if one runs: where a request refused before a whole head
    /// began, for the access log.
    pub fn head_started(&self) -> Option<Timestamp> {
        let head = self.deadlines.timeouts.head.as_nanos();
        self.deadlines.head.map(|d| {
            let head = u64::try_from(head).unwrap_or(u64::MAX);
            Timestamp::from_nanos(d.as_nanos().saturating_sub(head))
        })
    }

    /// The wait before the next read at `now`, for an adapter's driver:
    /// [`poll_timeout`](ServerConn::poll_timeout) and
    /// [`handle_timeout`](ServerConn::handle_timeout) at once, with what the
    /// connection's slot shows while it waits and whether a graceful stop
    /// closes it.
    ///
    /// ```
    /// use core::time::Duration;
    /// use http_net_conn::{Config, ServerConn, Stage, Timestamp};
    /// use http_net_conn::driver::{NextRead, SlotState};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let now = Timestamp::from_nanos(0);
    /// assert_eq!(
    ///     conn.next_read(now),
    ///     NextRead::Wait {
    ///         until: now.saturating_add(Duration::from_secs(30)),
    ///         stage: Stage::Idle,
    ///         slot: SlotState::Fresh,
    ///         stop_closes: true,
    ///     },
    /// );
    /// ```
    pub fn next_read(&mut self, now: Timestamp) -> NextRead {
        // The phase once for both questions (`poll_timeout` asks it anew).
        let phase = self.phase();
        let Some(until) = self.poll_timeout_in(phase, now) else {
            return NextRead::Linger;
        };
        // `until` is the phase's deadline `handle_timeout` looks at: asked
        // only once it has passed (a wait that begins in time, the common
        // case, costs no second look).
        if until <= now {
            if let Some(expired) = self.handle_timeout(now) {
                return NextRead::Expired(expired);
            }
        }
        let (stage, slot, stop_closes) = match phase {
            // Before its first request a connection is new, not idle
            // keep-alive: its request may be on its way.
            Phase::Idle if !self.deadlines.begun => (Stage::Idle, SlotState::Fresh, true),
            Phase::Idle => (Stage::Idle, SlotState::Idle, true),
            Phase::Head => (Stage::Head, SlotState::Head, false),
            // The rest of a body the handler left unread: drained within
            // one body timeout in all, however it trickles.
            _ => (Stage::Body, SlotState::Drain, true),
        };
        NextRead::Wait {
            until,
            stage,
            slot,
            stop_closes,
        }
    }
}

impl ServerSettings {
    /// The wait of a connection's setup phase (a TLS handshake, before its
    /// first HTTP byte) for a connection admitted to a slot at `now`: it
    /// must be done by [`setup_timeout`](ServerSettings::setup_timeout)
    /// after `now`, whatever the peer sends meanwhile (one deadline for the
    /// whole setup, as for a request head, not one per read). Its slot
    /// shows [`SlotState::Setup`], which eviction ranks as a partial head
    /// ([`rank`](crate::driver::rank)); a wait that reaches the deadline is a
    /// timeout of [`Stage::Setup`] (close, no response: there is no HTTP
    /// yet to answer in), and a graceful stop closes it (no request is in
    /// flight). An adapter passes it to [`NextRead::step`], as it does
    /// the waits between requests.
    ///
    /// ```
    /// use core::time::Duration;
    /// use http_net_conn::{ServerSettings, Stage, Timestamp};
    /// use http_net_conn::driver::{NextRead, ReadStep, SlotState};
    ///
    /// let s = ServerSettings { setup_timeout: Duration::from_secs(5), ..ServerSettings::DEFAULT };
    /// let admitted = Timestamp::from_nanos(1_000);
    /// let until = admitted.saturating_add(Duration::from_secs(5));
    /// let mut shown = None;
    /// let step = s.setup_wait(admitted).step(|state| shown = Some(state), || false);
    /// assert_eq!(step, ReadStep::Read { until, stage: Stage::Setup });
    /// assert_eq!(shown, Some(SlotState::Setup));
    /// // A graceful stop closes a connection still in its setup.
    /// assert_eq!(s.setup_wait(admitted).step(|_| {}, || true), ReadStep::Stopped);
    /// ```
    pub fn setup_wait(&self, now: Timestamp) -> NextRead {
        NextRead::Wait {
            until: now.saturating_add(self.setup_timeout),
            stage: Stage::Setup,
            slot: SlotState::Setup,
            stop_closes: true,
        }
    }
}

//! The waits between handlers: which deadline bounds the next read of a
//! server connection (idle keep-alive, the whole head, the drain of an
//! unread body), decided here for every adapter from the connection's
//! phase and the time the adapter read.

use core::time::Duration;

use super::ServerConn;
use crate::driver::SlotState;
use crate::{Phase, Stage, Timestamp};

/// The timeouts of the waits between handlers (the shared server settings'
/// names and defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadTimeouts {
    /// An idle keep-alive connection, with no byte of its next request:
    /// closed without a response (default 30 s).
    pub idle: Duration,
    /// The whole request head, from the first wait for its rest: `408`
    /// (default 10 s).
    pub head: Duration,
    /// The drain of a body the handler left unread, in all, however it
    /// trickles: closed (default 30 s, the body timeout).
    pub body: Duration,
}

impl ReadTimeouts {
    /// 30 s idle, 10 s for a head, 30 s for a drain.
    pub const DEFAULT: ReadTimeouts = ReadTimeouts {
        idle: Duration::from_secs(30),
        head: Duration::from_secs(10),
        body: Duration::from_secs(30),
    };
}

/// What the adapter does before its next read ([`ReadDeadlines::next_read`]).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextRead {
    /// Read, waiting at most until `until`; the connection's slot shows
    /// `slot`, and a wait that reaches `until` is a timeout of `stage`
    /// ([`Stage::Idle`]: close quietly; [`Stage::Head`]: `408`, see
    /// [`NextRead::HeadTimedOut`]; [`Stage::Body`]: close; [`Stage::Setup`],
    /// a connection's setup from
    /// [`ServerSettings::setup_wait`](crate::ServerSettings::setup_wait):
    /// close quietly).
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
    /// The whole-head deadline has passed: queue `408`
    /// ([`ServerConn::time_out`]), send it, linger.
    HeadTimedOut,
    /// Close without a response: a drain past its deadline.
    Close,
    /// Nothing more to read for a request: send the output, half-close,
    /// drain the peer's input for a bounded time, close (the phases
    /// `Draining`, `Closed` and `Switched`, and any a later version adds).
    Linger,
}

/// The deadlines of a server connection's reads between handlers, kept
/// across the reads of one request: the whole head's (from the first wait
/// for its rest, so that a head that arrives whole costs no clock reading)
/// and the drain's.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{Config, ServerConn, Stage, Timestamp};
/// use http_net_conn::driver::{NextRead, ReadDeadlines, ReadTimeouts, SlotState};
///
/// let mut conn = ServerConn::new(Config::DEFAULT);
/// let mut d = ReadDeadlines::new();
/// let t = ReadTimeouts::DEFAULT;
/// let now = Timestamp::from_nanos(0);
/// // A new connection: fresh, under the idle timeout.
/// assert_eq!(
///     d.next_read(&conn, true, now, &t),
///     NextRead::Wait {
///         until: now.saturating_add(t.idle),
///         stage: Stage::Idle,
///         slot: SlotState::Fresh,
///         stop_closes: true,
///     },
/// );
/// // Part of a head: the head deadline, from this wait on.
/// let _ = conn.recv(b"GET / HT");
/// let _ = conn.poll_event();
/// let later = now.saturating_add(Duration::from_secs(11));
/// assert!(matches!(d.next_read(&conn, true, now, &t), NextRead::Wait { stage: Stage::Head, .. }));
/// assert_eq!(d.next_read(&conn, true, later, &t), NextRead::HeadTimedOut);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadDeadlines {
    head: Option<Timestamp>,
    drain: Option<Timestamp>,
}

impl ReadDeadlines {
    /// No deadline yet.
    pub const fn new() -> ReadDeadlines {
        ReadDeadlines {
            head: None,
            drain: None,
        }
    }

    /// A request's head is complete: its deadlines are spent.
    pub fn request_started(&mut self) {
        *self = ReadDeadlines::new();
    }

    /// Starts the head deadline at `now` if none runs (a head's first bytes
    /// seen by other means, such as a last look after an eviction).
    pub fn head_began(&mut self, now: Timestamp, t: &ReadTimeouts) {
        self.head.get_or_insert(now.saturating_add(t.head));
    }

    /// When the current head's deadline started (its first wait for the
    /// rest), if one runs.
    pub fn head_started(&self, t: &ReadTimeouts) -> Option<Timestamp> {
        self.head
            .map(|d| Timestamp::from_nanos(d.as_nanos().saturating_sub(t.head.as_nanos() as u64)))
    }

    /// The wait before the next read of `conn` at `now`: `fresh` while the
    /// connection has not had a request yet.
    pub fn next_read(
        &mut self,
        conn: &ServerConn,
        fresh: bool,
        now: Timestamp,
        t: &ReadTimeouts,
    ) -> NextRead {
        match conn.phase() {
            Phase::Idle => NextRead::Wait {
                until: now.saturating_add(t.idle),
                stage: Stage::Idle,
                // Before its first request a connection is new, not idle
                // keep-alive: its request may be on its way.
                slot: if fresh {
                    SlotState::Fresh
                } else {
                    SlotState::Idle
                },
                stop_closes: true,
            },
            Phase::Head => {
                let until = *self.head.get_or_insert(now.saturating_add(t.head));
                if until <= now {
                    return NextRead::HeadTimedOut;
                }
                NextRead::Wait {
                    until,
                    stage: Stage::Head,
                    slot: SlotState::Head,
                    stop_closes: false,
                }
            }
            // The rest of a body the handler left unread: drained within one
            // body timeout in all, however it trickles.
            Phase::Body | Phase::Responding => {
                let until = *self.drain.get_or_insert(now.saturating_add(t.body));
                if until <= now {
                    return NextRead::Close;
                }
                NextRead::Wait {
                    until,
                    stage: Stage::Body,
                    slot: SlotState::Drain,
                    stop_closes: true,
                }
            }
            _ => NextRead::Linger,
        }
    }
}

//! The deadlines a server connection keeps between handlers and their
//! timeouts: the state `waits.rs` reads and moves.

use core::time::Duration;

use crate::Timestamp;

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

/// How long an idle connection whose peer came back quickly last time
/// keeps its buffers before it gives them up
/// ([`ServerConn::buffers_idle_at`](crate::ServerConn::buffers_idle_at)): a peer sending its next request right
/// after an answer (a benchmark, a pipeline that waits for each answer, a
/// proxy's reused connection) is read straight into the connection's
/// buffers, without giving them up and taking them back for each request.
/// One tick of a runtime's timer.
pub const IDLE_GRACE: Duration = Duration::from_millis(1);

/// The deadlines of the waits between handlers, kept across the reads of
/// one request; each starts at the first wait it bounds (the `now` given to
/// [`ServerConn::poll_timeout`](crate::ServerConn::poll_timeout)), so that input that completes without a
/// wait costs no clock reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Deadlines {
    pub(crate) timeouts: ReadTimeouts,
    pub(crate) idle: Option<Timestamp>,
    /// When the idle wait began (the start of `idle`), kept rather than
    /// computed back from `idle` and its timeout on each ask.
    pub(crate) idle_since: Option<Timestamp>,
    pub(crate) head: Option<Timestamp>,
    pub(crate) drain: Option<Timestamp>,
    /// A request has begun on this connection (it is no longer fresh).
    pub(crate) begun: bool,
    /// The server evicted the connection: the request it answers now is
    /// its last.
    pub(crate) evicted: bool,
    /// The peer came back within [`IDLE_GRACE`] of its last idle wait's
    /// start (or has not waited yet).
    pub(crate) quick: bool,
}

impl Deadlines {
    pub(crate) const fn new() -> Deadlines {
        Deadlines {
            timeouts: ReadTimeouts::DEFAULT,
            idle: None,
            idle_since: None,
            head: None,
            drain: None,
            begun: false,
            evicted: false,
            quick: true,
        }
    }

    /// A new peer: no deadline runs, the timeouts stay.
    pub(crate) fn reset(&mut self) {
        *self = Deadlines {
            timeouts: self.timeouts,
            ..Deadlines::new()
        };
    }

    /// A request's head is complete: the waits before it are over.
    pub(crate) fn request_started(&mut self) {
        *self = Deadlines {
            timeouts: self.timeouts,
            begun: true,
            evicted: self.evicted,
            quick: self.quick,
            ..Deadlines::new()
        };
    }

    /// Whether the server evicted the connection (its request is its last).
    pub(crate) fn evicted(&self) -> bool {
        self.evicted
    }
}

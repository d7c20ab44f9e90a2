//! The records the client connection keeps of its latest request
//! ([`Attempt`]) and what it reports from them ([`ExpectState`],
//! [`Failure`], [`Retry`]), and its deadlines ([`Deadlines`]); the rules
//! that read them are in `reuse.rs` and `timeout.rs`.

use core::time::Duration;

use crate::time::{RequestDeadline, Window};

/// What the client connection records of the latest request, for
/// [`ClientConn::request_sent`](crate::ClientConn::request_sent), [`ClientConn::retry`](crate::ClientConn::retry) and the reuse rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Attempt {
    /// The method is idempotent (RFC 9110 §9.2.2).
    pub(super) idempotent: bool,
    /// The output held nothing when the request was queued, and no byte of
    /// it has been reported sent since: nothing of it left this side.
    pub(super) untouched: bool,
    /// The request was ended (`send_end`, or a request without a body).
    pub(super) ended: bool,
    /// `send_request` refused it before writing anything, for bytes the
    /// server had sent on the idle connection (RFC 9112 §9.2, C73).
    pub(super) refused_unsolicited: bool,
    /// A byte of a response to it was received.
    pub(super) heard: bool,
    /// Body bytes were handed to the connection (`send_data`): the
    /// caller's reader, if any, was read from.
    pub(super) body_taken: bool,
    /// [`poll_head`](crate::ClientConn::poll_head) handed out its final
    /// response head.
    pub(super) answered: bool,
}

/// Where a request's `Expect: 100-continue` stands (RFC 9110 §10.1.1), as
/// [`ClientConn::expect_state`](crate::ClientConn::expect_state) reports it.
///
/// ```
/// use http_net_conn::{BodyLength, ClientConn, ClientEvent, Config, ExpectState};
///
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// let fields: &[(&[u8], &[u8])] = &[(b"Host", b"a.example"), (b"Expect", b"100-continue")];
/// conn.send_request(b"PUT", b"/f", fields, BodyLength::Known(5)).unwrap();
/// assert_eq!(conn.expect_state(), ExpectState::Waiting);
/// let n = conn.output().len();
/// conn.consume_output(n);
/// let _ = conn.recv(b"HTTP/1.1 100 Continue\r\n\r\n");
/// assert!(matches!(conn.poll_event(), Ok(ClientEvent::Informational(_))));
/// assert_eq!(conn.expect_state(), ExpectState::Continue); // send the body
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExpectState {
    /// The latest request did not send `Expect: 100-continue` with a body.
    #[default]
    None,
    /// It did, and neither `100` nor a final response has come: the body
    /// waits (for as long as the adapter's wait allows; RFC 9110 §10.1.1
    /// lets a client send it anyway after a while).
    Waiting,
    /// `100 Continue` came: send the body.
    Continue,
    /// A final response came before `100` (a `417`, a `401`, a `413`): the
    /// body is not sent, and the request is not complete, so the
    /// connection is not reused.
    Final,
}

/// How a request on a connection failed, as the adapter saw it: the only
/// I/O fact the retry rule needs.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// The connection ended under the request: an end of stream (which
    /// [`recv_eof`](crate::ClientConn::recv_eof) reports too), or an I/O error on
    /// it (a reset, a broken pipe, an aborted connection).
    Closed,
    /// Anything else: a timeout (the server may be working on the
    /// request), a protocol error, a local error.
    Other,
}

/// Whether a failed request is sent again on a new connection:
/// [`ClientConn::retry`](crate::ClientConn::retry)'s answer.
///
/// The rule (RFC 9110 §9.2.2: a client SHOULD NOT automatically retry a
/// request with a non-idempotent method unless it knows the request
/// semantics are idempotent or that the original request was not applied;
/// RFC 9112 §9.3.1 lets it retry idempotent requests on a connection that
/// closed early). A request is retried only when it failed on a
/// connection that had already carried a response (a reused, pooled or
/// pipelined one: the server may have closed it as idle while the request
/// was on its way), only once (the retry goes out on a new connection,
/// which carried nothing, so a second failure is final), and only when one
/// of these holds:
/// - [`Retry::NotSent`]: nothing of the request left this side, so the
///   server cannot have applied it, whatever the method: the connection
///   refused it before writing anything because the server had sent bytes
///   on the idle connection (a `408` before closing it, RFC 9112 §9.2), or
///   the connection was found closed before any byte of the request was
///   reported sent and the body can be sent again (bytes the caller holds,
///   or a stream none of which was handed to the connection yet);
/// - [`Retry::Idempotent`]: the method is idempotent (RFC 9110 §9.2.2),
///   the body can be sent again, and the connection closed before any
///   byte of a response: sending it twice has the effect of sending it
///   once.
///
/// A non-idempotent request that left even in part is never retried, sent
/// in full or not: a server may act on a head before its body is complete
/// (a handler that answers without reading the body), so a request cut
/// short is no proof that it was not applied. A failure after any
/// response byte is never retried: the server answered.
///
/// ```
/// use http_net_conn::{BodyLength, ClientConn, Config, Failure, Retry};
///
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// conn.send_request(b"GET", b"/", &[(b"Host", b"a.example")], BodyLength::Empty).unwrap();
/// // A new connection carried no response before: a failure is final.
/// assert_eq!(conn.retry(Failure::Closed, true), Retry::No);
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Retry {
    /// Not sent again: the failure is the caller's.
    No,
    /// Sent again on a new connection: nothing of it left this side.
    NotSent,
    /// Sent again on a new connection: an idempotent request with a body
    /// that can be sent again, on a reused connection that closed before
    /// any byte of a response.
    Idempotent,
}

impl Retry {
    /// Whether the request is sent again.
    pub const fn is_retry(self) -> bool {
        !matches!(self, Retry::No)
    }
}

/// The deadlines [`ClientConn::arm`](crate::ClientConn::arm) set for the latest request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Deadlines {
    pub(super) request: RequestDeadline,
    /// How long `Expect: 100-continue` waits for `100`.
    pub(super) expect_wait: Duration,
    /// That wait, from the first [`ClientConn::poll_timeout`](crate::ClientConn::poll_timeout) that found
    /// the request waiting for `100` (the wait's start).
    pub(super) continue_window: Option<Window>,
}

impl Deadlines {
    pub(super) const NONE: Deadlines = Deadlines::new(RequestDeadline::NONE, Duration::ZERO);

    pub(super) const fn new(request: RequestDeadline, expect_wait: Duration) -> Deadlines {
        Deadlines {
            request,
            expect_wait,
            continue_window: None,
        }
    }
}

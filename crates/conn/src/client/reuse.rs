//! What a client adapter used to work out for itself about the latest
//! request: whether it was sent in full, whether the connection may be
//! reused after its response, where its `Expect: 100-continue` stands, and
//! whether it is sent again after the connection failed (the one retry
//! rule, RFC 9110 §9.2.2, RFC 9112 §9.3.1).

use super::ClientConn;
use crate::state::CRead;

/// What the client connection records of the latest request, for
/// [`ClientConn::request_sent`], [`ClientConn::retry`] and the reuse rule.
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
}

/// Where a request's `Expect: 100-continue` stands (RFC 9110 §10.1.1), as
/// [`ClientConn::expect_state`] reports it.
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
    /// [`recv_eof`](ClientConn::recv_eof) reports too), or an I/O error on
    /// it (a reset, a broken pipe, an aborted connection).
    Closed,
    /// Anything else: a timeout (the server may be working on the
    /// request), a protocol error, a local error.
    Other,
}

/// Whether a failed request is sent again on a new connection:
/// [`ClientConn::retry`]'s answer.
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
///   reported sent and the body can be sent again;
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

impl ClientConn {
    /// Whether the latest request was sent in full: it was ended (by
    /// [`send_end`](ClientConn::send_end), or at once without a body), and
    /// every byte queued (and every body byte left to the caller) was
    /// reported sent. False when a response came first and the caller
    /// stopped sending (an early `413`, a final answer to `Expect`), or
    /// when no request was sent.
    pub fn request_sent(&self) -> bool {
        self.attempt.ended && self.out.is_empty()
    }

    /// Whether the connection can carry another request now that the
    /// latest response ended: the request was sent in full, the
    /// connection persists (neither side asked to close, the body was not
    /// delimited by the close, no protocol switch, no error), no response
    /// is outstanding, and no byte the server sent unasked waits. An
    /// adapter puts the connection back in its pool only then.
    ///
    /// ```
    /// use http_net_conn::{BodyLength, ClientConn, ClientEvent, Config};
    ///
    /// let mut conn = ClientConn::new(Config::DEFAULT);
    /// conn.send_request(b"PUT", b"/f", &[(b"Host", b"a.example")], BodyLength::Known(4)).unwrap();
    /// let _ = conn.send_data(b"ab").unwrap();
    /// let n = conn.output().len();
    /// conn.consume_output(n);
    /// // The server answers before the body is complete.
    /// let _ = conn.recv(b"HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ClientEvent::Response(_))));
    /// assert!(matches!(conn.poll_event(), Ok(ClientEvent::End(_))));
    /// assert!(!conn.request_sent());
    /// assert!(!conn.reusable()); // half a request went out: close it
    /// ```
    pub fn reusable(&self) -> bool {
        self.request_sent()
            && !self.should_close()
            && self.read == CRead::Head
            && self.queue.is_empty()
            && !self.input.buf.has_unread()
    }

    /// Whether a byte of a response has been received since the latest
    /// request was sent (seen by [`poll_event`](ClientConn::poll_event); with
    /// requests pipelined, an earlier one's counts): an end of stream
    /// before it is a connection closed unanswered, after it a response
    /// cut short.
    pub fn response_started(&self) -> bool {
        self.attempt.heard
    }

    /// Where the latest request's `Expect: 100-continue` stands: sent with
    /// a body, a `100` or a final response since (RFC 9110 §10.1.1).
    pub fn expect_state(&self) -> ExpectState {
        self.expect
    }

    /// Whether the latest request, which failed as `failure` says, is sent
    /// again on a new connection (the rule is at [`Retry`]). `replayable`:
    /// the caller can send the same body again (bytes it holds, not a
    /// stream it has read from).
    pub fn retry(&self, failure: Failure, replayable: bool) -> Retry {
        let a = &self.attempt;
        if !self.carried {
            return Retry::No;
        }
        if a.refused_unsolicited {
            return Retry::NotSent;
        }
        let closed = failure == Failure::Closed || self.input.buf.eof;
        if !closed || a.heard || !replayable {
            return Retry::No;
        }
        if a.untouched {
            Retry::NotSent
        } else if a.idempotent {
            Retry::Idempotent
        } else {
            Retry::No
        }
    }
}

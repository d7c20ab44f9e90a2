//! What a client adapter used to work out for itself about the latest
//! request: whether it was sent in full, whether the connection may be
//! reused after its response, where its `Expect: 100-continue` stands, and
//! whether it is sent again after the connection failed (the one retry
//! rule, RFC 9110 §9.2.2, RFC 9112 §9.3.1).

use super::attempt::{ExpectState, Failure, Retry};
use super::conn::ClientConn;
use crate::state::CRead;

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

    /// Whether the latest response (the head
    /// [`poll_event`](ClientConn::poll_event) returned last) came over a
    /// connection that had already carried an earlier response, one whose
    /// body ended before this head arrived: a reused connection, as Go's
    /// `httptrace.GotConnInfo.Reused`. False before any response, and for
    /// the first response on a new connection (or on one
    /// [`reset`](ClientConn::reset)). The adapters' `ClientResponse::reused`
    /// is this, read when the response's head is: false for a connection
    /// opened for the request (the first to an origin, after the server
    /// closed the last one, after a retry), true for one taken from the
    /// pool.
    ///
    /// ```
    /// use http_net_conn::{BodyLength, ClientConn, ClientEvent, Config};
    ///
    /// let mut conn = ClientConn::new(Config::DEFAULT);
    /// for reused in [false, true] {
    ///     conn.send_request(b"GET", b"/", &[(b"Host", b"a.example")], BodyLength::Empty).unwrap();
    ///     let n = conn.output().len();
    ///     conn.consume_output(n);
    ///     let _ = conn.recv(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    ///     assert!(matches!(conn.poll_event(), Ok(ClientEvent::Response(_))));
    ///     assert_eq!(conn.reused(), reused);
    ///     assert!(matches!(conn.poll_event(), Ok(ClientEvent::End(_))));
    ///     // It stays what it was until the next head, the body's end included.
    ///     assert_eq!(conn.reused(), reused);
    /// }
    /// conn.reset(); // a new connection
    /// assert!(!conn.reused());
    /// ```
    pub fn reused(&self) -> bool {
        self.reused
    }

    /// Where the latest request's `Expect: 100-continue` stands: sent with
    /// a body, a `100` or a final response since (RFC 9110 §10.1.1).
    pub fn expect_state(&self) -> ExpectState {
        self.expect
    }

    /// Whether the latest request, which failed as `failure` says, is sent
    /// again on a new connection (the rule is at [`Retry`]). `replayable`:
    /// the caller can send the same body again (bytes it holds, not a
    /// stream); a stream none of which was handed to
    /// [`send_data`](ClientConn::send_data) yet counts as replayable.
    pub fn retry(&self, failure: Failure, replayable: bool) -> Retry {
        let a = &self.attempt;
        if !self.carried {
            return Retry::No;
        }
        if a.refused_unsolicited {
            return Retry::NotSent;
        }
        let closed = failure == Failure::Closed || self.input.buf.eof;
        // A stream none of which was handed over can be sent again.
        let replayable = replayable || !a.body_taken;
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

//! What follows a handler: the server connection's policy for an answer
//! left whole, failed, owed, cut short or missing, decided once here for
//! every adapter (which only moves the bytes the answer says).

use super::ServerConn;
use crate::state::SRead;
use crate::{AnswerState, LocalError, Method, ServerSettings};

/// How an adapter's handler ended, as the adapter saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandlerOutcome {
    /// It returned success.
    Ok,
    /// It returned an error.
    Failed,
    /// It panicked (the adapter caught the panic).
    Panicked,
}

/// What the adapter does once the handler returned
/// ([`ServerConn::after_handler`]). In every case but [`Next`](AfterHandler::Next)
/// the connection ends.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterHandler {
    /// The answer is whole: go on to the next request (what is queued
    /// leaves before the next read).
    Next,
    /// Send the output (an error response the connection queued, or the
    /// handler's whole answer after it failed), then half-close, drain the
    /// peer's input for a bounded time, and close
    /// ([`Phase::Draining`](crate::Phase::Draining)).
    Linger,
    /// The application's error: it promised a body and did not send all of
    /// it (a body left to it with
    /// [`Placement::AfterOutput`](crate::Placement::AfterOutput) and not
    /// sent, or an answer begun and not ended). Send the output (which
    /// stops before the missing bytes), then close; never reuse the
    /// connection. Count or report it as the application's error.
    Truncated,
    /// Send the output and close: an answer cut short by a body read that
    /// timed out, or a `101` / `2xx` to `CONNECT` the handler did not take
    /// over.
    CloseAfterOutput,
    /// Close now, sending nothing more.
    Close,
}

/// The per-request part of a server's settings: what
/// [`ServerConn::begin_request`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestPolicy {
    /// Requests served on one connection before it closes (the last
    /// response carries `Connection: close`); 0: no limit.
    pub max_requests: u64,
    /// Whether `CONNECT` reaches the handler (a server that opens
    /// tunnels); otherwise it is answered `501`.
    pub tunnels: bool,
}

impl RequestPolicy {
    /// 1,000 requests a connection (nginx's `keepalive_requests`), no
    /// tunnels.
    pub const DEFAULT: RequestPolicy = RequestPolicy {
        max_requests: 1000,
        tunnels: false,
    };
}

/// Whether a request goes to the handler ([`ServerConn::begin_request`]).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Begin {
    /// Run the handler.
    Handle,
    /// `CONNECT` without tunnels: `501` is queued and the connection is
    /// closing (RFC 9110 §9.3.6: a proxy's method); send it and linger.
    Refused,
}

impl ServerConn {
    /// The policy at the start of a request (after a
    /// [`ServerEvent::Request`](crate::ServerEvent::Request)), for an
    /// adapter that had `served` requests on this connection before it and
    /// is `stopping` (a graceful stop): `CONNECT` without tunnels is
    /// refused with `501`; the request that reaches `max_requests`, or any
    /// during a stop or after an eviction ([`ServerConn::evict`]), is the
    /// connection's last (`Connection: close` on its answer).
    ///
    /// ```
    /// use http_net_conn::{Config, ServerConn, ServerEvent};
    /// use http_net_conn::driver::{Begin, RequestPolicy};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let _ = conn.recv(b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// assert_eq!(conn.begin_request(0, false, &RequestPolicy::DEFAULT), Ok(Begin::Refused));
    /// assert!(conn.output().starts_with(b"HTTP/1.1 501 "));
    /// ```
    pub fn begin_request(
        &mut self,
        served: u64,
        stopping: bool,
        policy: &RequestPolicy,
    ) -> Result<Begin, LocalError> {
        self.deadlines.request_started();
        if self.ex.req.method == Method::Connect && !policy.tunnels {
            self.reject(501)?;
            return Ok(Begin::Refused);
        }
        let count = served.saturating_add(1);
        let evicted = self.deadlines.evicted();
        if stopping || evicted || (policy.max_requests != 0 && count >= policy.max_requests) {
            self.close_after_response();
        }
        Ok(Begin::Handle)
    }

    /// The rule that follows a handler, from where the answer stands:
    /// - a peer error or a reject ended the exchange: its error response is
    ///   queued, [`AfterHandler::Linger`];
    /// - a body the handler owes ([`body_owed`](ServerConn::body_owed)):
    ///   [`AfterHandler::Truncated`];
    /// - the answer is whole: [`AfterHandler::Next`] if the handler
    ///   succeeded, [`AfterHandler::Linger`] if it failed after answering or
    ///   one of its body reads timed out (`body_timed_out`: the peer's body
    ///   stopped, and its rest is not drained);
    /// - no answer: the connection queues `408` when a body read timed out
    ///   (`body_timed_out`), `500` otherwise (a failure, a panic, or success
    ///   without an answer), and [`AfterHandler::Linger`];
    /// - an answer begun and not ended: [`AfterHandler::Truncated`], or
    ///   [`AfterHandler::CloseAfterOutput`] when a body read timed out (the
    ///   peer's fault, not the application's);
    /// - a `101` or a `2xx` to `CONNECT`: [`AfterHandler::CloseAfterOutput`]
    ///   when the handler did not take the stream over, [`AfterHandler::Close`]
    ///   once it did ([`ServerEvent::Switched`](crate::ServerEvent::Switched)
    ///   was polled), whatever it returned.
    ///
    /// ```
    /// use http_net_conn::{Config, ServerConn, ServerEvent};
    /// use http_net_conn::driver::{AfterHandler, HandlerOutcome};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// // The handler returned `Ok` without answering: 500, then close.
    /// assert_eq!(conn.after_handler(HandlerOutcome::Ok, false), AfterHandler::Linger);
    /// assert!(conn.output().starts_with(b"HTTP/1.1 500 "));
    /// ```
    pub fn after_handler(&mut self, outcome: HandlerOutcome, body_timed_out: bool) -> AfterHandler {
        // The handler took the stream over (it polled `Switched`): the
        // connection has nothing more to send, whatever the handler
        // returned.
        if self.ex.read == SRead::Switched {
            return AfterHandler::Close;
        }
        if self.failed() {
            return AfterHandler::Linger;
        }
        if self.body_owed().is_some() {
            return AfterHandler::Truncated;
        }
        match self.answer_state() {
            // The handler answered after its body read timed out: the peer's
            // body stopped, so nothing more is read (no drain of the rest
            // for another body timeout); the answer is sent, then the
            // connection half-closes and lingers as after an error.
            AnswerState::Complete if body_timed_out => AfterHandler::Linger,
            AnswerState::Complete if outcome == HandlerOutcome::Ok => AfterHandler::Next,
            AnswerState::Complete => AfterHandler::Linger,
            AnswerState::NotStarted => {
                let status = if body_timed_out { 408 } else { 500 };
                match self.reject(status) {
                    Ok(()) => AfterHandler::Linger,
                    Err(_) => AfterHandler::Close,
                }
            }
            AnswerState::Started if !body_timed_out => AfterHandler::Truncated,
            // Cut short by a body read that timed out; a 101 or 2xx to
            // CONNECT not taken over.
            _ => AfterHandler::CloseAfterOutput,
        }
    }
}

impl ServerSettings {
    /// What starts a request ([`ServerConn::begin_request`](crate::ServerConn::begin_request)).
    pub const fn request_policy(&self) -> RequestPolicy {
        RequestPolicy {
            max_requests: self.max_requests,
            tunnels: self.tunnels,
        }
    }
}

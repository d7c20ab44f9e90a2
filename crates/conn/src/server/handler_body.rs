//! The request body as a handler reads it, the same in every adapter: what
//! a read answers before it waits (bytes kept from the last one, the end,
//! an over-limit or unavailable body, the `100 Continue` due), the body's
//! events after it, and the body limit a handler lowers. An adapter only
//! waits for input when a read says so.

use http_net_framing::Error as FramingError;

use super::{AnswerState, ServerConn, ServerEvent};
use crate::leftover::Leftover;
use crate::{Error, Limit, OwnedFields, RemoteError};

/// What a handler's reads of the request body keep between calls, in an
/// adapter's per-connection state (allocated once, reused from request to
/// request): the bytes a `Data` event surfaced that did not fit the
/// caller's buffer, and the trailers once the body ended.
///
/// ```
/// use http_net_conn::driver::{BodyFail, HandlerBody};
/// use http_net_conn::{Config, Limit, ServerConn, ServerEvent};
///
/// let mut conn = ServerConn::new(Config::DEFAULT);
/// conn.recv(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
/// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
/// let mut body = HandlerBody::default();
/// let mut buf = [0u8; 4];
/// assert_eq!(body.read(&mut conn, false, &mut buf), Ok(None)); // input first
/// conn.recv(b"6\r\nabcdef\r\n0\r\nT: 1\r\n\r\n");
/// assert_eq!(body.read(&mut conn, false, &mut buf), Ok(Some(4)));
/// assert_eq!(body.read(&mut conn, false, &mut buf), Ok(Some(2))); // kept
/// assert_eq!(&buf[..2], b"ef");
/// assert_eq!(body.read(&mut conn, false, &mut buf), Ok(Some(0))); // the end
/// assert_eq!(body.trailers().get(b"t"), Some(&b"1"[..]));
/// // A lower limit than what was read: the body is over it, now and after.
/// let over = Err(BodyFail::OverLimit(Limit::BodyBudget(3)));
/// assert_eq!(conn.limit_handler_body(3), over);
/// assert_eq!(body.read(&mut conn, false, &mut buf).map(|_| ()), over);
/// ```
#[derive(Debug, Default)]
pub struct HandlerBody {
    kept: Leftover,
    trailers: OwnedFields,
}

/// Why a handler's body read or [`ServerConn::limit_handler_body`] failed;
/// each adapter's error has a variant of the same name for each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyFail {
    /// The body went over its budget (the configured one, or the request's
    /// own [`limit_body`](ServerConn::limit_body)): the connection queued
    /// its `413` when no answer had started, and every later read fails so.
    OverLimit(Limit),
    /// The body can no longer be read: the connection failed, the adapter's
    /// stream broke, or the connection was handed over (`101`, `2xx` to
    /// `CONNECT`).
    BodyUnavailable,
    /// The peer broke a protocol rule in the body.
    Protocol(Error),
}

impl HandlerBody {
    /// Forgets the last request's kept bytes and trailers (keeping the
    /// allocations), for the next request.
    pub fn clear(&mut self) {
        self.kept.clear();
        self.trailers.clear();
    }

    /// The request's trailer fields, once its body was read to the end.
    pub fn trailers(&self) -> &OwnedFields {
        &self.trailers
    }

    /// One read of the request body into `buf` for a handler: `Ok(Some(n))`
    /// bytes (0 at the end of the body, for an empty `buf`, and once the
    /// answer is complete: the connection then discards the rest);
    /// `Ok(None)` when the connection needs input first (the adapter sends
    /// the output, which may hold the `100 Continue` queued here when the
    /// request expects it and it is still due, then reads, then reads the
    /// body again). `broken`: the adapter's stream failed.
    pub fn read(
        &mut self,
        conn: &mut ServerConn,
        broken: bool,
        buf: &mut [u8],
    ) -> Result<Option<usize>, BodyFail> {
        conn.over_limit()?;
        let n = self.kept.take(buf);
        if n > 0 || buf.is_empty() {
            return Ok(Some(n));
        }
        match conn.answer_state() {
            s if conn.failed() || broken || s == AnswerState::Switched => {
                return Err(BodyFail::BodyUnavailable)
            }
            AnswerState::Complete => return Ok(Some(0)),
            _ if conn.continue_due() => conn
                .responder()
                .send_continue()
                .map_err(BodyFail::Protocol)?,
            _ => {}
        }
        loop {
            return match conn.poll_event() {
                Ok(ServerEvent::Data([])) => continue,
                Ok(ServerEvent::Data(d)) => Ok(Some(self.kept.hand_out(d, buf))),
                Ok(ServerEvent::NeedInput) => Ok(None),
                Ok(ServerEvent::End(t)) => {
                    self.trailers.extend(t.iter());
                    Ok(Some(0))
                }
                // `Paused` on every read after the end.
                Ok(_) => Ok(Some(0)),
                Err(e) => Err(conn.body_fail(e)),
            };
        }
    }
}

impl ServerConn {
    /// [`limit_body`](ServerConn::limit_body) for a handler: a body over
    /// the new limit (or over its budget before) fails with
    /// [`BodyFail::OverLimit`], as its reads then do.
    pub fn limit_handler_body(&mut self, max_bytes: u64) -> Result<(), BodyFail> {
        self.over_limit()?;
        self.limit_body(max_bytes).map_err(|e| self.body_fail(e))
    }

    /// What a body error `e` is to a handler: over the limit when the
    /// body went over its budget, a protocol error otherwise.
    fn body_fail(&self, e: Error) -> BodyFail {
        self.over_limit().err().unwrap_or(BodyFail::Protocol(e))
    }

    /// After a `101` or a `2xx` to `CONNECT` was queued and the output sent:
    /// the bytes that arrived after the request, for the new protocol (to
    /// be read before the stream's); `None` when the connection was not
    /// handed over.
    pub fn switched_input(&mut self) -> Result<Option<Leftover>, Error> {
        let mut input = Leftover::new();
        match self.poll_event()? {
            ServerEvent::Switched(bytes) => input.hand_out(bytes, &mut []),
            _ => return Ok(None),
        };
        Ok(Some(input))
    }

    /// `BodyFail::OverLimit` with the budget in force once the body went
    /// over it (the peer's error that failed the connection).
    fn over_limit(&self) -> Result<(), BodyFail> {
        match self.peer_error() {
            Some(RemoteError::Framing(FramingError::BodyTooLarge)) => Err(BodyFail::OverLimit(
                Limit::BodyBudget(self.body_budget().unwrap_or(0)),
            )),
            _ => Ok(()),
        }
    }
}

use alloc::vec::Vec;

use crate::status::write_status_line;
use crate::validate::is_reason;
use crate::writer::{write_fields, CallerFields, FieldPair};
use crate::LocalError;

/// A response head built once, validated once, and reused across requests
/// (the fastest way to answer). The connection adds `Content-Length`,
/// `Connection`, `Date` and `Server` (when set: [`ServerConn::set_date`](crate::ServerConn::set_date),
/// [`Config::with_server_name`](crate::Config::with_server_name)) when it sends it.
///
/// A whole exchange answered with a prebuilt response:
///
/// ```
/// use http_net_conn::{Config, PreparedResponse, ServerConn, ServerEvent};
///
/// let ok = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
/// assert_eq!(ok.status(), 200);
///
/// let mut conn = ServerConn::new(Config::DEFAULT);
/// let input = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
/// assert_eq!(conn.recv(input), input.len());
/// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
/// assert!(matches!(conn.poll_event(), Ok(ServerEvent::End(_))));
/// conn.responder().respond(&ok, b"hello").unwrap();
/// assert_eq!(
///     conn.output(),
///     b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedResponse {
    status: u16,
    /// Status line and field lines, each ending in CR LF; no final empty line.
    head: Vec<u8>,
    /// What the fields say about the connection (close, date, upgrade).
    caller: CallerFields,
}

impl PreparedResponse {
    /// Builds and validates a response head with the standard reason phrase
    /// (an empty one for an unregistered code). `Content-Length` and
    /// `Transfer-Encoding` may not be among `fields`: the connection frames
    /// the body it is given.
    pub fn new(status: u16, fields: &[FieldPair<'_>]) -> Result<PreparedResponse, LocalError> {
        PreparedResponse::build(status, None, fields)
    }

    /// Builds a response head with a reason phrase of the caller's: HTAB, SP,
    /// visible ASCII and obs-text only (RFC 9112 §4), so no response can be
    /// split through it.
    pub fn with_reason(
        status: u16,
        reason: &[u8],
        fields: &[FieldPair<'_>],
    ) -> Result<PreparedResponse, LocalError> {
        if !is_reason(reason) {
            return Err(LocalError::InvalidReason);
        }
        PreparedResponse::build(status, Some(reason), fields)
    }

    fn build(
        status: u16,
        reason: Option<&[u8]>,
        fields: &[FieldPair<'_>],
    ) -> Result<PreparedResponse, LocalError> {
        if !(100..=999).contains(&status) {
            return Err(LocalError::InvalidStatus);
        }
        let mut head = Vec::new();
        write_status_line(&mut head, status, reason);
        let caller = write_fields(&mut head, fields)?;
        if caller.has_framing() {
            return Err(LocalError::ConflictingFraming);
        }
        head.shrink_to_fit();
        Ok(PreparedResponse {
            status,
            head,
            caller,
        })
    }

    /// The status code.
    pub const fn status(&self) -> u16 {
        self.status
    }

    /// The validated status line and field lines.
    pub fn head_bytes(&self) -> &[u8] {
        &self.head
    }

    pub(crate) fn caller_fields(&self) -> &CallerFields {
        &self.caller
    }
}

/// How the body of a message being sent is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyLength {
    /// No body (`Content-Length: 0` where a length is due).
    Empty,
    /// Exactly this many bytes, sent with `send_data` (`Content-Length`).
    Known(u64),
    /// Unknown length: chunked towards HTTP/1.1, close-delimited towards an
    /// HTTP/1.0 peer.
    Streamed,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_once_and_validated() {
        let r = PreparedResponse::new(404, &[(b"X", b"y")]).unwrap();
        assert_eq!(r.head_bytes(), b"HTTP/1.1 404 Not Found\r\nX: y\r\n");
        let r = PreparedResponse::with_reason(299, b"Odd", &[]).unwrap();
        assert_eq!(r.head_bytes(), b"HTTP/1.1 299 Odd\r\n");
        assert_eq!(
            PreparedResponse::new(99, &[]),
            Err(LocalError::InvalidStatus)
        );
        assert_eq!(
            PreparedResponse::new(1000, &[]),
            Err(LocalError::InvalidStatus)
        );
        assert_eq!(
            PreparedResponse::new(200, &[(b"Content-Length", b"5")]),
            Err(LocalError::ConflictingFraming)
        );
        assert_eq!(
            PreparedResponse::new(200, &[(b"transfer-encoding", b"chunked")]),
            Err(LocalError::ConflictingFraming)
        );
        assert_eq!(
            PreparedResponse::new(200, &[(b"X", b"x\r\nSet-Cookie: evil=1")]),
            Err(LocalError::InvalidFieldValue)
        );
        assert_eq!(
            PreparedResponse::with_reason(200, b"OK\r\nSet-Cookie: x=y", &[]),
            Err(LocalError::InvalidReason)
        );
    }
}

//! The response to a peer error: its status, a short text body naming the
//! rule, and `Connection: close` (RFC 9112 §9.6). To a HEAD request the
//! head is the same, `Content-Length` included (the length of the text a
//! GET would get, RFC 9110 §8.6), and the text is not sent (RFC 9110
//! §9.3.2).

use core::fmt::{self, Write as _};

use crate::status::{reason, write_status_line};
use crate::writer::{write_content_length, write_decimal, write_server, Output};
use alloc::vec::Vec;

use crate::{Limit, LocalError, RemoteError};

/// The detail of the `413` for a body over a limit of the local side's,
/// whether its length was declared or met while it was read.
pub(super) struct OverLimit(pub(super) Limit);

impl fmt::Display for OverLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the body is over {}", self.0)
    }
}

/// Where the connection's own error response sits in the output: the last
/// `len` bytes from `start`, while none of them has been sent, so that
/// [`replace_error_body`] can rewrite it with the adapter's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ErrorTail {
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) status: u16,
    to_head: bool,
    /// Its `Retry-After`, kept when the body is replaced.
    retry_after: Option<u32>,
}

/// Queues the error response of a peer error: its status, a short text body
/// (none to HEAD: `to_head`), `Connection: close` (RFC 9112 §9.6).
pub(super) fn queue_error_response(
    out: &mut Output,
    e: RemoteError,
    to_head: bool,
    date: Option<&[u8; 29]>,
    server: Option<&[u8]>,
) -> ErrorTail {
    queue_error(out, (e.status(), None), Some(&e), to_head, date, server)
}

/// Queues an error response with `status` (400..=599) and its
/// `Retry-After` when given: a short text body naming the status (and
/// `detail`, when given), `Connection: close`. With `to_head` (the request
/// is HEAD) the head keeps the `Content-Length` of that text and the text is
/// left out (RFC 9110 §9.3.2, §8.6).
pub(super) fn queue_error(
    out: &mut Output,
    (status, retry_after): (u16, Option<u32>),
    detail: Option<&dyn fmt::Display>,
    to_head: bool,
    date: Option<&[u8; 29]>,
    server: Option<&[u8]>,
) -> ErrorTail {
    let buf = out.buf();
    let start = buf.len();
    let parts = ErrorParts {
        status,
        detail,
        retry_after,
        body: None,
        content: !to_head,
    };
    write_error(buf, &parts, date, server);
    ErrorTail {
        start,
        len: buf.len() - start,
        status,
        to_head,
        retry_after,
    }
}

/// Rewrites the error response `tail` marks with `content_type` and `body`
/// in place of its text (the head otherwise the same; to HEAD the body's
/// `Content-Length` and no body). [`LocalError::WrongState`] when part of
/// it has been sent (or other bytes follow it), and nothing changes.
pub(super) fn replace_error_body(
    out: &mut Output,
    tail: ErrorTail,
    content_type: &[u8],
    body: &[u8],
    date: Option<&[u8; 29]>,
    server: Option<&[u8]>,
) -> Result<ErrorTail, LocalError> {
    if !crate::validate::is_field_value(content_type) {
        return Err(LocalError::InvalidFieldValue);
    }
    if !out.truncate_unsent(tail.start, tail.len) {
        return Err(LocalError::WrongState);
    }
    let buf = out.buf();
    let parts = ErrorParts {
        status: tail.status,
        detail: None,
        retry_after: tail.retry_after,
        body: Some((content_type, body)),
        content: !tail.to_head,
    };
    write_error(buf, &parts, date, server);
    Ok(ErrorTail {
        len: buf.len() - tail.start,
        ..tail
    })
}

/// Appends to `buf` the error response a server sends without a connection
/// state machine: the `503` to a peer refused beyond a connection limit,
/// before any byte of its request is read. The bytes are those of the
/// connection's own error responses (status line, `Content-Type`,
/// `Content-Length`, `Connection: close`, `Server` and `Date` when given, a
/// short text body naming the status), plus `Retry-After: N` when
/// `retry_after` is given (RFC 9110 §10.2.3).
///
/// `status` must be 400..=599 ([`LocalError::InvalidStatus`] otherwise,
/// and nothing is written); `server` must be a valid field value
/// ([`Config::with_server_name`](crate::Config::with_server_name) checks one).
///
/// ```
/// let mut buf = Vec::new();
/// http_net_conn::driver::write_error_response(&mut buf, 503, Some(1), None, None).unwrap();
/// assert!(buf.starts_with(b"HTTP/1.1 503 Service Unavailable\r\n"));
/// assert!(buf.windows(16).any(|w| w == b"Retry-After: 1\r\n"));
/// ```
pub fn write_error_response(
    buf: &mut Vec<u8>,
    status: u16,
    retry_after: Option<u32>,
    date: Option<&[u8; 29]>,
    server: Option<&[u8]>,
) -> Result<(), LocalError> {
    write_standalone_error(buf, status, retry_after, date, server, None)
}

/// `Retry-After` of the `503` beyond a connection limit, in seconds.
pub const BUSY_RETRY_AFTER: u32 = 1;

/// The `503` beyond a connection limit, into `buf` (cleared first), as
/// both servers send it: `Retry-After: 1` ([`BUSY_RETRY_AFTER`]), `date`
/// and `server`, with the error-body hook's `body` when it gave one the
/// writer accepts (a content type that is not a field value leaves the
/// server's own text).
///
/// ```
/// use http_net_conn::{ErrorBody};
/// use http_net_conn::driver::{write_busy_response};
///
/// let date = b"Sun, 06 Nov 1994 08:49:37 GMT";
/// let mut buf = Vec::new();
/// write_busy_response(&mut buf, date, None, None);
/// assert!(buf.starts_with(b"HTTP/1.1 503 Service Unavailable\r\n"));
/// let json = ErrorBody { content_type: b"application/json".to_vec(), body: br#"{"busy":true}"#.to_vec() };
/// write_busy_response(&mut buf, date, None, Some(&json));
/// assert!(buf.ends_with(b"{\"busy\":true}"));
/// ```
pub fn write_busy_response(
    buf: &mut Vec<u8>,
    date: &[u8; 29],
    server: Option<&[u8]>,
    body: Option<&crate::ErrorBody>,
) {
    buf.clear();
    if let Some(b) = body {
        let r = write_error_response_with_body(
            buf,
            503,
            Some(BUSY_RETRY_AFTER),
            Some(date),
            server,
            &b.content_type,
            &b.body,
        );
        if r.is_ok() {
            return;
        }
        buf.clear();
    }
    // 503 is an error status: this cannot fail.
    let _ = write_error_response(buf, 503, Some(BUSY_RETRY_AFTER), Some(date), server);
}

/// [`write_error_response`] with a body of the caller's in place of the
/// short text: `body` with `Content-Type: content_type` (e.g.
/// `application/json`) and its `Content-Length`; the rest of the head is
/// the same. [`LocalError::InvalidStatus`] for a status outside 400..=599,
/// [`LocalError::InvalidFieldValue`] for a content type that is not a field
/// value (RFC 9110 §5.5); then nothing is written.
///
/// ```
/// let mut buf = Vec::new();
/// http_net_conn::driver::write_error_response_with_body(
///     &mut buf, 503, Some(1), None, None, b"application/json", br#"{"busy":true}"#,
/// )
/// .unwrap();
/// assert!(buf.starts_with(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"));
/// assert!(buf.ends_with(b"\r\n\r\n{\"busy\":true}"));
/// ```
pub fn write_error_response_with_body(
    buf: &mut Vec<u8>,
    status: u16,
    retry_after: Option<u32>,
    date: Option<&[u8; 29]>,
    server: Option<&[u8]>,
    content_type: &[u8],
    body: &[u8],
) -> Result<(), LocalError> {
    write_standalone_error(
        buf,
        status,
        retry_after,
        date,
        server,
        Some((content_type, body)),
    )
}

/// [`write_error_response`] and [`write_error_response_with_body`]: the
/// status checked (400..=599), then the content type of a caller's body,
/// then the whole answer written.
fn write_standalone_error(
    buf: &mut Vec<u8>,
    status: u16,
    retry_after: Option<u32>,
    date: Option<&[u8; 29]>,
    server: Option<&[u8]>,
    body: Option<(&[u8], &[u8])>,
) -> Result<(), LocalError> {
    if !(400..=599).contains(&status) {
        return Err(LocalError::InvalidStatus);
    }
    if let Some((content_type, _)) = body {
        if !crate::validate::is_field_value(content_type) {
            return Err(LocalError::InvalidFieldValue);
        }
    }
    let parts = ErrorParts {
        status,
        detail: None,
        retry_after,
        body,
        content: true,
    };
    write_error(buf, &parts, date, server);
    Ok(())
}

/// What an error response says: its status, the text's detail, a
/// `Retry-After`, a body of the caller's in place of the text (content type
/// and bytes), and whether the body is sent (not to HEAD).
struct ErrorParts<'a> {
    status: u16,
    detail: Option<&'a dyn fmt::Display>,
    retry_after: Option<u32>,
    body: Option<(&'a [u8], &'a [u8])>,
    content: bool,
}

fn write_error(
    buf: &mut Vec<u8>,
    parts: &ErrorParts<'_>,
    date: Option<&[u8; 29]>,
    server: Option<&[u8]>,
) {
    let status = parts.status;
    let mut text = Text {
        buf: [0; 256],
        len: 0,
    };
    let reason = reason(status).unwrap_or("Error");
    if parts.body.is_none() {
        let _ = match parts.detail {
            Some(d) => writeln!(text, "{status} {reason}: {d}"),
            None => writeln!(text, "{status} {reason}"),
        };
    }
    let (content_type, body) = parts
        .body
        .unwrap_or((b"text/plain; charset=utf-8", &text.buf[..text.len]));
    write_status_line(buf, status, None);
    buf.extend_from_slice(b"Content-Type: ");
    buf.extend_from_slice(content_type);
    buf.extend_from_slice(b"\r\n");
    write_content_length(buf, body.len() as u64);
    buf.extend_from_slice(b"Connection: close\r\n");
    if let Some(secs) = parts.retry_after {
        buf.extend_from_slice(b"Retry-After: ");
        write_decimal(buf, u64::from(secs));
        buf.extend_from_slice(b"\r\n");
    }
    write_server(buf, server);
    if let Some(date) = date {
        buf.extend_from_slice(b"Date: ");
        buf.extend_from_slice(date);
        buf.extend_from_slice(b"\r\n");
    }
    buf.extend_from_slice(b"\r\n");
    if parts.content {
        buf.extend_from_slice(body);
    }
}

/// A fixed buffer that keeps whole characters up to its size.
struct Text {
    buf: [u8; 256],
    len: usize,
}

impl fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for ch in s.chars() {
            let mut tmp = [0u8; 4];
            let bytes = ch.encode_utf8(&mut tmp).as_bytes();
            if self.len + bytes.len() > self.buf.len() {
                return Ok(());
            }
            self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
            self.len += bytes.len();
        }
        Ok(())
    }
}

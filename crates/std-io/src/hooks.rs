//! The server's hooks: the body of the error responses it writes itself
//! ([`ServerBuilder::error_body`](crate::ServerBuilder::error_body)) and a
//! record of each request ([`ServerBuilder::access_log`](crate::ServerBuilder::access_log)).

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_net_conn::RemoteError;

use crate::error::{Error, Limit, Stage};

/// Why the server answers with an error response of its own.
#[non_exhaustive]
#[derive(Clone, Copy, Debug)]
pub enum ErrorCause<'a> {
    /// The peer broke a rule (the `conn` error names it, with its RFC
    /// section): a malformed head or body, a declared `Content-Length` over
    /// the body limit, an unsupported `Expect`...
    Peer(RemoteError),
    /// The request body went over a body limit the server set
    /// ([`ServerBuilder::max_body_bytes`](crate::ServerBuilder::max_body_bytes)
    /// or [`Exchange::limit_body`](crate::Exchange::limit_body)) while it was
    /// read: `413`.
    OverLimit(Limit),
    /// A timeout: the head deadline (`Stage::Head`) or a body read
    /// (`Stage::Body`), `408`.
    Timeout(Stage),
    /// The handler returned this error without answering: `500`.
    Handler(&'a Error),
    /// The handler panicked without answering: `500`.
    Panic,
    /// The handler returned `Ok` without answering: `500`.
    NoAnswer,
    /// A `CONNECT` with tunnels off
    /// ([`ServerBuilder::tunnels`](crate::ServerBuilder::tunnels)): `501`.
    Connect,
    /// A connection beyond the connection limit, refused before any byte
    /// of its request is read: `503` (the body is asked for once per
    /// second and written without waiting: keep it within a few KiB).
    Busy,
}

/// An error response the server is about to write itself, as
/// [`ServerBuilder::error_body`](crate::ServerBuilder::error_body) sees it.
#[derive(Clone, Copy, Debug)]
pub struct ErrorResponse<'a> {
    pub(crate) status: u16,
    pub(crate) cause: ErrorCause<'a>,
    pub(crate) method: &'a str,
    pub(crate) target: &'a [u8],
}

impl<'a> ErrorResponse<'a> {
    /// The status (400..=599).
    pub fn status(&self) -> u16 {
        self.status
    }
    /// Why.
    pub fn cause(&self) -> ErrorCause<'a> {
        self.cause
    }
    /// The request's method, `""` when the connection refused the request
    /// before its head reached the server (a malformed head, a head
    /// deadline, a declared `Content-Length` over the body limit).
    pub fn method(&self) -> &'a str {
        self.method
    }
    /// The request's target as received, empty when `method` is.
    pub fn target(&self) -> &'a [u8] {
        self.target
    }
}

/// The body an [`ServerBuilder::error_body`](crate::ServerBuilder::error_body)
/// hook supplies for an error response: sent with `Content-Type:
/// content_type` and its `Content-Length` (to `HEAD`, the length and no body).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorBody {
    /// The `Content-Type` value, e.g. `application/json`; one that is not a
    /// valid field value (RFC 9110 §5.5) is refused and the server's own
    /// text is sent.
    pub content_type: Vec<u8>,
    /// The body bytes.
    pub body: Vec<u8>,
}

/// One request as [`ServerBuilder::access_log`](crate::ServerBuilder::access_log)
/// sees it once its response is written (or the connection ended).
#[derive(Clone, Copy, Debug)]
pub struct AccessRecord<'a> {
    pub(crate) peer: Option<SocketAddr>,
    pub(crate) method: &'a str,
    pub(crate) target: &'a [u8],
    pub(crate) status: Option<u16>,
    pub(crate) bytes: u64,
    pub(crate) duration: Duration,
    pub(crate) error: Option<&'a Error>,
    pub(crate) panicked: bool,
}

impl<'a> AccessRecord<'a> {
    /// The peer's address, when the listener knows it.
    pub fn peer(&self) -> Option<SocketAddr> {
        self.peer
    }
    /// The method, as received (`""` for a request the connection refused
    /// before its head reached the server: see [`ErrorResponse::method`]).
    pub fn method(&self) -> &'a str {
        self.method
    }
    /// The target, as received (empty when `method` is).
    pub fn target(&self) -> &'a [u8] {
        self.target
    }
    /// The final status sent: the handler's (through the [`Exchange`](crate::Exchange)
    /// answers or [`Exchange::conn`](crate::Exchange::conn)) or the server's
    /// own error status, as the connection reports it
    /// ([`ServerConn::response_status`](http_net_conn::ServerConn::response_status));
    /// `None` when no response was sent.
    pub fn status(&self) -> Option<u16> {
        self.status
    }
    /// The bytes written to the peer for this request: heads, informational
    /// responses and body, as sent.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
    /// From the whole request head to the response written (for a request
    /// refused before its head reached the server: from its first byte).
    pub fn duration(&self) -> Duration {
        self.duration
    }
    /// The error the handler returned, whatever it had sent: the errors the
    /// peer never sees.
    pub fn error(&self) -> Option<&'a Error> {
        self.error
    }
    /// Whether the handler panicked.
    pub fn panicked(&self) -> bool {
        self.panicked
    }
}

/// The error-body hook.
pub(crate) type ErrorBodyFn = dyn Fn(&ErrorResponse<'_>) -> Option<ErrorBody> + Send + Sync;
/// The access-log hook.
pub(crate) type AccessLogFn = dyn Fn(&AccessRecord<'_>) + Send + Sync;

/// The hooks a server was built with.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub(crate) error_body: Option<Arc<ErrorBodyFn>>,
    pub(crate) access_log: Option<Arc<AccessLogFn>>,
}

impl Hooks {
    /// Whether a hook needs each request's method and target kept.
    pub(crate) fn any(&self) -> bool {
        self.error_body.is_some() || self.access_log.is_some()
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("error_body", &self.error_body.is_some())
            .field("access_log", &self.access_log.is_some())
            .finish()
    }
}

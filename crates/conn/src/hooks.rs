//! What a server's hooks see, the same in every adapter: why the server
//! writes an error response of its own ([`ErrorCause`], [`ErrorResponse`])
//! and the body a hook gives it ([`ErrorBody`]), a record of each request
//! for an access log ([`AccessRecord`]), the local limits a body went
//! over ([`Limit`]), and the line that reports an application's mistake
//! ([`MistakeReport`]). The adapters keep the hooks themselves (closures) and
//! build these values; the data is defined once, here.

use alloc::vec::Vec;
use core::fmt;
use core::net::SocketAddr;
use core::time::Duration;

use crate::driver::MistakeGate;
#[cfg(target_has_atomic = "64")]
use crate::Timestamp;
use crate::{HandlerError, Mistake, RemoteError, Stage};
#[cfg(target_has_atomic = "ptr")]
use alloc::sync::Arc;

/// A limit the local side set, which a message went over (not the peer's
/// fault: the message may be well-formed).
///
/// ```
/// use http_net_conn::Limit;
/// assert_eq!(Limit::BodyBudget(1000).to_string(), "the body limit of 1000 bytes");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// The limit, in bytes, a caller gave a client's read of a whole
    /// response body (the `limit` of `ClientResponse::body_to_vec` in
    /// both adapters).
    BodyToVec(usize),
    /// The body limit in force, in bytes: the connection configuration's
    /// body budget (a server's `max_body_bytes`, or
    /// `framing::BodyLimits::with_body_budget`), or a lower one a handler set
    /// for its request (`limit_body`).
    BodyBudget(u64),
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::BodyToVec(n) => write!(f, "the body_to_vec limit of {n} bytes"),
            Limit::BodyBudget(n) => write!(f, "the body limit of {n} bytes"),
        }
    }
}

/// Why a server answers with an error response of its own.
///
/// ```
/// use http_net_conn::{ErrorCause, Stage};
/// let why = ErrorCause::Timeout(Stage::Head);
/// assert!(matches!(why, ErrorCause::Timeout(Stage::Head)));
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug)]
pub enum ErrorCause<'a> {
    /// The peer broke a rule (the error names it, with its RFC section): a
    /// malformed head or body, an unsupported `Expect`...
    Peer(RemoteError),
    /// The request body is over a body limit the server set (its
    /// `max_body_bytes`, or a handler's `limit_body`): `413`, the same
    /// whether its `Content-Length` declared it (refused before the
    /// handler runs) or it went over while it was read
    /// ([`ErrorCause::of_peer`]).
    OverLimit(Limit),
    /// A timeout: the head deadline (`Stage::Head`) or a body read
    /// (`Stage::Body`), `408`.
    Timeout(Stage),
    /// The handler returned this error without answering: `500`.
    Handler(&'a HandlerError),
    /// The handler panicked without answering: `500`.
    Panic,
    /// The handler returned `Ok` without answering: `500`.
    NoAnswer,
    /// A `CONNECT` with tunnels off: `501`.
    Connect,
    /// A connection beyond the connection limit, refused before any byte
    /// of its request is read: `503` (the body is asked for once per
    /// second and written without waiting: keep it within a few KiB).
    Busy,
    /// A connection evicted at the connection limit while its request head
    /// was arriving, to admit a newcomer: `503` with `Retry-After`
    /// ([`ServerConn::evicted_mid_head`](crate::ServerConn::evicted_mid_head)).
    Evicted,
}

/// An error response a server is about to write itself, as its
/// `error_body` hook sees it.
///
/// ```
/// use http_net_conn::{ErrorCause, ErrorResponse};
/// let r = ErrorResponse::new(503, ErrorCause::Busy, "", b"");
/// assert_eq!(r.status(), 503);
/// assert!(matches!(r.cause(), ErrorCause::Busy));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ErrorResponse<'a> {
    status: u16,
    cause: ErrorCause<'a>,
    method: &'a str,
    target: &'a [u8],
}

impl<'a> ErrorResponse<'a> {
    /// The response of `status` for `cause`, to the request of `method`
    /// and `target` (both empty when there was no whole head).
    pub const fn new(
        status: u16,
        cause: ErrorCause<'a>,
        method: &'a str,
        target: &'a [u8],
    ) -> ErrorResponse<'a> {
        ErrorResponse {
            status,
            cause,
            method,
            target,
        }
    }
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

/// The body an `error_body` hook supplies for an error response: sent with
/// `Content-Type: content_type` and its `Content-Length` (to `HEAD`, the
/// length and no body).
///
/// ```
/// use http_net_conn::ErrorBody;
/// let b = ErrorBody { content_type: b"application/json".to_vec(), body: b"{}".to_vec() };
/// assert_eq!(b.body, b"{}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorBody {
    /// The `Content-Type` value, e.g. `application/json`; one that is not a
    /// valid field value (RFC 9110 §5.5) is refused and the server's own
    /// text is sent.
    pub content_type: Vec<u8>,
    /// The body bytes.
    pub body: Vec<u8>,
}

/// One request as a server's `access_log` hook sees it once its response
/// is written (or the connection ended). Built by the server: [`new`] and
/// the `with_*` setters.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::AccessRecord;
/// let r = AccessRecord::new(None, "GET", b"/")
///     .with_status(Some(200))
///     .with_bytes(42)
///     .with_duration(Duration::from_millis(3));
/// assert_eq!((r.method(), r.status(), r.bytes()), ("GET", Some(200), 42));
/// assert!(r.error().is_none() && !r.panicked());
/// ```
///
/// [`new`]: AccessRecord::new
#[derive(Clone, Copy, Debug)]
pub struct AccessRecord<'a> {
    peer: Option<SocketAddr>,
    method: &'a str,
    target: &'a [u8],
    status: Option<u16>,
    bytes: u64,
    duration: Duration,
    error: Option<&'a HandlerError>,
    panicked: bool,
}

impl<'a> AccessRecord<'a> {
    /// The record of a request of `method` and `target` from `peer`: no
    /// status, no bytes, no time, no error.
    pub const fn new(peer: Option<SocketAddr>, method: &'a str, target: &'a [u8]) -> Self {
        AccessRecord {
            peer,
            method,
            target,
            status: None,
            bytes: 0,
            duration: Duration::ZERO,
            error: None,
            panicked: false,
        }
    }
    /// With the final status sent (`None`: none was).
    #[must_use]
    pub const fn with_status(mut self, status: Option<u16>) -> Self {
        self.status = status;
        self
    }
    /// With the bytes written to the peer for the request.
    #[must_use]
    pub const fn with_bytes(mut self, bytes: u64) -> Self {
        self.bytes = bytes;
        self
    }
    /// With the time the request took.
    #[must_use]
    pub const fn with_duration(mut self, duration: Duration) -> Self {
        self.duration = duration;
        self
    }
    /// With the error the handler returned.
    #[must_use]
    pub const fn with_error(mut self, error: Option<&'a HandlerError>) -> Self {
        self.error = error;
        self
    }
    /// With whether the handler panicked.
    #[must_use]
    pub const fn with_panicked(mut self, panicked: bool) -> Self {
        self.panicked = panicked;
        self
    }

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
    /// The final status sent: the handler's or the server's own error
    /// status, as the connection reports it
    /// ([`ServerConn::response_status`](crate::ServerConn::response_status));
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
    pub fn error(&self) -> Option<&'a HandlerError> {
        self.error
    }
    /// Whether the handler panicked.
    pub fn panicked(&self) -> bool {
        self.panicked
    }
}

/// The line a server writes to stderr for a [`Mistake`] by default:
/// `http-net: <mistake> (<METHOD> <target>)`, the target's bytes outside
/// printable ASCII escaped as `\xNN`; without the parenthesis when the
/// request is no longer known (a handler that answered, then returned a
/// refusal).
///
/// ```
/// use http_net_conn::{LocalError, Mistake, MistakeReport};
///
/// let m = Mistake::Refused(LocalError::InvalidFieldName);
/// let line = MistakeReport::new(m, Some(("GET", b"/a\x01"))).to_string();
/// assert!(line.starts_with("http-net: the connection refused"), "{line}");
/// assert!(line.ends_with(" (GET /a\\x01)"), "{line}");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MistakeReport<'a> {
    mistake: Mistake,
    request: Option<(&'a str, &'a [u8])>,
}

impl<'a> MistakeReport<'a> {
    /// The report of `mistake`, made answering `request` (method, target).
    pub const fn new(mistake: Mistake, request: Option<(&'a str, &'a [u8])>) -> Self {
        MistakeReport { mistake, request }
    }

    /// The report and a line end, for one write to stderr (both servers'
    /// default).
    pub fn line(&self) -> alloc::string::String {
        alloc::format!("{self}\n")
    }
}

impl fmt::Display for MistakeReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "http-net: {}", self.mistake)?;
        let Some((method, target)) = self.request else {
            return Ok(());
        };
        write!(f, " ({method} ")?;
        for &b in target {
            if b.is_ascii_graphic() {
                fmt::Write::write_char(f, char::from(b))?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        f.write_str(")")
    }
}

/// The error-body hook ([`ServerHooks::error_body`]).
pub type ErrorBodyFn = dyn Fn(&ErrorResponse<'_>) -> Option<ErrorBody> + Send + Sync;
/// The error-status hook ([`ServerHooks::error_status`]): the status a
/// handler's error that carries none stands for (`None`: a plain error,
/// `500`).
pub type ErrorStatusFn = dyn Fn(&HandlerError) -> Option<u16> + Send + Sync;
/// The access-log hook ([`ServerHooks::access_log`]).
pub type AccessLogFn = dyn Fn(&AccessRecord<'_>) + Send + Sync;
/// The mistake-log hook ([`ServerHooks::mistake_log`]).
pub type MistakeLogFn = dyn Fn(&Mistake) + Send + Sync;

/// The hooks a server was built with, the same in both adapters: their
/// builders' `error_body`, `access_log`, `mistake_log` and
/// `report_mistakes` set these fields. Each adapter calls the hooks on its
/// own threads or tasks and contains a hook's panic; what a hook sees is
/// defined here once.
///
/// ```
/// use http_net_conn::{Mistake, Timestamp};
/// use http_net_conn::driver::{MistakeGate, ServerHooks};
///
/// let hooks = ServerHooks::default();
/// assert!(!hooks.keeps_request());
/// let gate = MistakeGate::new();
/// let t = Timestamp::from_nanos(0);
/// assert!(hooks.mistake_due(&gate, Mistake::Unanswered, t));
/// assert!(!hooks.mistake_due(&gate, Mistake::Unanswered, t)); // once a second
/// let quiet = ServerHooks { report_mistakes: false, ..ServerHooks::default() };
/// assert!(!quiet.mistake_due(&MistakeGate::new(), Mistake::Panicked, t));
/// ```
#[cfg(target_has_atomic = "ptr")]
#[derive(Clone)]
pub struct ServerHooks {
    /// Gives the body of the error responses the server writes itself,
    /// and of the answers handlers' errors choose.
    pub error_body: Option<Arc<ErrorBodyFn>>,
    /// Chooses the status of a handler's error that carries none.
    pub error_status: Option<Arc<ErrorStatusFn>>,
    /// Sees each request with its status.
    pub access_log: Option<Arc<AccessLogFn>>,
    /// Where the application's mistakes go instead of stderr.
    pub mistake_log: Option<Arc<MistakeLogFn>>,
    /// Whether mistakes are reported at all (default on).
    pub report_mistakes: bool,
}

#[cfg(target_has_atomic = "ptr")]
impl Default for ServerHooks {
    fn default() -> ServerHooks {
        ServerHooks {
            error_body: None,
            error_status: None,
            access_log: None,
            mistake_log: None,
            report_mistakes: true,
        }
    }
}

#[cfg(target_has_atomic = "ptr")]
impl ServerHooks {
    /// Whether a hook needs each request's method and target kept (an
    /// error body or an access log is set).
    pub fn keeps_request(&self) -> bool {
        self.error_body.is_some() || self.access_log.is_some()
    }

    /// Whether the mistake `m`, made at `now`, is reported (to
    /// [`mistake_log`](ServerHooks::mistake_log), or else on stderr):
    /// reports are on and the server's `gate` lets it through, once a
    /// second for each kind.
    #[cfg(target_has_atomic = "64")]
    pub fn mistake_due(&self, gate: &MistakeGate, m: Mistake, now: Timestamp) -> bool {
        self.report_mistakes && gate.admit(m, now)
    }

    /// Where the mistake `m`, made at `now` answering `request` (method,
    /// target), is reported, if it is ([`mistake_due`](ServerHooks::mistake_due)):
    /// the mistake-log hook, or else the line for stderr
    /// ([`MistakeReport::line`]). The adapter calls the hook (containing
    /// its panic) or writes the line.
    #[cfg(target_has_atomic = "64")]
    pub fn mistake_sink(
        &self,
        gate: &MistakeGate,
        m: Mistake,
        now: Timestamp,
        request: Option<(&str, &[u8])>,
    ) -> Option<MistakeSink<'_>> {
        if !self.mistake_due(gate, m, now) {
            return None;
        }
        Some(match &self.mistake_log {
            Some(hook) => MistakeSink::Hook(&**hook),
            None => MistakeSink::Line(MistakeReport::new(m, request).line()),
        })
    }
}

/// Where a reported mistake goes ([`ServerHooks::mistake_sink`]).
#[cfg(target_has_atomic = "ptr")]
pub enum MistakeSink<'a> {
    /// The mistake-log hook, to call with the mistake.
    Hook(&'a MistakeLogFn),
    /// The default: this line, to write to stderr at once.
    Line(alloc::string::String),
}

#[cfg(target_has_atomic = "ptr")]
impl fmt::Debug for MistakeSink<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MistakeSink::Hook(_) => f.write_str("Hook"),
            MistakeSink::Line(l) => f.debug_tuple("Line").field(l).finish(),
        }
    }
}

#[cfg(target_has_atomic = "ptr")]
impl fmt::Debug for ServerHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerHooks")
            .field("error_body", &self.error_body.is_some())
            .field("access_log", &self.access_log.is_some())
            .field("mistake_log", &self.mistake_log.is_some())
            .field("report_mistakes", &self.report_mistakes)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn the_report_names_the_request_when_known() {
        let m = Mistake::Unanswered;
        assert_eq!(
            MistakeReport::new(m, Some(("POST", b"/a?b=c"))).to_string(),
            "http-net: the handler returned without answering (sent 500) (POST /a?b=c)"
        );
        assert_eq!(
            MistakeReport::new(m, None).to_string(),
            "http-net: the handler returned without answering (sent 500)"
        );
    }
}

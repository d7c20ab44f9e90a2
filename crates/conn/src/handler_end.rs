//! A handler's end as both adapters read it: the answer its error chose
//! ([`ServerConn::answer_chosen`]), what it is to the connection
//! ([`HandlerOutcome::of`]) and which mistake of the application it shows,
//! with the request it was made on ([`Mistake::of_handler`]). The adapters
//! keep only what differs: their own error type, and how they report.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::error::Error as StdError;
use core::net::SocketAddr;

use crate::driver::HandlerOutcome;
use crate::framing::Error as FramingError;
use crate::status::reason;
use crate::{
    AccessRecord, AnswerState, BodyLength, Error, ErrorBody, ErrorCause, ErrorResponse, FieldPair,
    HandlerError, Limit, LocalError, Mistake, RemoteError, ServerConn, Stage, Timestamp,
    COPY_LIMIT,
};

/// What became of the answer a handler's error chose
/// ([`ServerConn::answer_chosen`]).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChosenAnswer {
    /// None was chosen (the handler returned `Ok`, a plain error, or
    /// panicked), or it came too late (an answer had begun, the connection
    /// had failed, a body read had timed out): the connection's rule for a
    /// handler's end applies ([`ServerConn::after_handler`]).
    NotChosen,
    /// The chosen answer is queued whole: the handler's end is an answer
    /// ([`HandlerOutcome::Ok`]), not a mistake.
    Sent,
    /// The connection refused it (a status outside `400..=599`, a field the
    /// writer refuses) and nothing of it was queued: the application's
    /// mistake ([`Mistake::Refused`]), answered `500`.
    Refused(LocalError),
}

impl ChosenAnswer {
    /// What the handler's `end` (as for [`HandlerOutcome::of`]) is to the
    /// connection now: an answer ([`HandlerOutcome::Ok`]) once the chosen
    /// answer was sent, otherwise as it returned.
    pub fn outcome(self, end: &Option<Result<(), HandlerError>>) -> HandlerOutcome {
        match self {
            ChosenAnswer::Sent => HandlerOutcome::Ok,
            _ => HandlerOutcome::of(end),
        }
    }
}

#[cfg(target_has_atomic = "ptr")]
impl crate::driver::ServerHooks {
    /// [`ServerConn::answer_chosen`] with these hooks: the
    /// [`error_status`](crate::driver::ServerHooks::error_status) hook chooses the
    /// status of an error that carries none, and the
    /// [`error_body`](crate::driver::ServerHooks::error_body) hook gives the body.
    /// An adapter contains a hook's panic around this call (nothing is
    /// queued before both hooks returned): a panic chooses nothing.
    pub fn answer_chosen(
        &self,
        conn: &mut ServerConn,
        end: &Option<Result<(), HandlerError>>,
        body_timed_out: bool,
    ) -> ChosenAnswer {
        conn.answer_chosen(
            end,
            body_timed_out,
            |e| self.error_status.as_ref().and_then(|hook| hook(e)),
            |r| self.error_body.as_ref().and_then(|hook| hook(r)),
        )
    }
}

/// What an adapter knows of its handler's end, for
/// [`ServerHooks::handler_end`](crate::driver::ServerHooks::handler_end).
#[derive(Debug)]
pub struct HandlerEnd<'a, E> {
    /// How the handler ended (`None`: it panicked).
    pub end: &'a Option<Result<(), HandlerError>>,
    /// One of its body reads timed out (or was evicted): the peer's doing.
    pub body_timed_out: bool,
    /// Its stream broke: the peer or the network cut the answer, nothing
    /// more is sent and no mistake is asked for.
    pub broken: bool,
    /// The request's method and target the adapter kept for the hooks
    /// (a request answered whole is gone from the connection).
    pub kept: Option<MethodTarget<'a>>,
    /// Finds the core's refusal in the adapter's own error `E`.
    pub local_of: fn(&E) -> Option<LocalError>,
}

/// Runs a hook inside the adapter's panic containment: `false` when it
/// panicked (the core runs no hook itself outside one).
pub type Catch = fn(&mut dyn FnMut()) -> bool;

#[cfg(target_has_atomic = "64")]
impl crate::driver::ServerHooks {
    /// A handler's end, decided once for every adapter: the answer its
    /// error chose ([`answer_chosen`](crate::driver::ServerHooks::answer_chosen),
    /// not asked when it returned `Ok`), the mistake it shows
    /// ([`Mistake::of_handler`], asked only when reports are on; `now`
    /// read only when there is one), what follows it
    /// ([`ServerConn::after_handler`]; [`AfterHandler::Close`](crate::driver::AfterHandler::Close)
    /// when its stream broke), and the `error_body` hook's body for an
    /// error response the connection queued for it. Each hook runs inside
    /// `catch`. The adapter reports the mistake returned (calls the hook
    /// or writes the line), then carries out what follows.
    pub fn handler_end<E: StdError + 'static>(
        &self,
        conn: &mut ServerConn,
        h: HandlerEnd<'_, E>,
        gate: &crate::driver::MistakeGate,
        now: impl FnOnce() -> crate::Timestamp,
        catch: Catch,
    ) -> (
        crate::driver::AfterHandler,
        Option<(Mistake, crate::driver::MistakeSink<'_>)>,
    ) {
        if h.broken {
            return (crate::driver::AfterHandler::Close, None);
        }
        let timed_out = h.body_timed_out;
        let mut chosen = ChosenAnswer::NotChosen;
        // A handler that returned `Ok` chose nothing (no containment).
        if !matches!(h.end, Some(Ok(()))) {
            catch(&mut || chosen = self.answer_chosen(conn, h.end, timed_out));
        }
        let mistake = if self.report_mistakes {
            Mistake::of_handler(conn, h.end, chosen, timed_out, h.local_of, h.kept)
                .and_then(|(m, req)| Some((m, self.mistake_sink(gate, m, now(), req)?)))
        } else {
            None
        };
        let next = conn.after_handler(chosen.outcome(h.end), timed_out);
        if next == crate::driver::AfterHandler::Linger && self.error_body.is_some() {
            // An error response the connection queued (its own, or the
            // 500/408 for no answer) takes the hook's body.
            let cause = ErrorCause::after_handler(conn, h.end, timed_out);
            self.set_error_body(conn, cause, h.kept.unwrap_or(("", b"")), catch);
        }
        (next, mistake)
    }

    /// Gives the error response `conn` queued the `error_body` hook's body
    /// for `cause` (the request's method and target as `kept`), when a hook
    /// is set and gives one; a hook that panics (inside `catch`) leaves the
    /// server's own text.
    pub fn set_error_body(
        &self,
        conn: &mut ServerConn,
        cause: ErrorCause<'_>,
        (method, target): MethodTarget<'_>,
        catch: Catch,
    ) {
        let (Some(status), Some(hook)) = (conn.error_status(), &self.error_body) else {
            return;
        };
        let response = ErrorResponse::new(status, cause, method, target);
        let mut body = None;
        catch(&mut || body = hook(&response));
        if let Some(body) = body {
            let _ = conn.set_error_body(&body.content_type, &body.body);
        }
    }

    /// Readies the error response the connection queued of its own for
    /// `why`, decided once for every adapter: `None` when the connection
    /// closes at once (an expiry that queued nothing); `Some(false)` when
    /// it is sent as it is, untold (an answer was out already); otherwise
    /// (`Some(true)`) with the `error_body` hook's body (inside `catch`),
    /// the request's start in `kept` when a hook keeps it (for a response
    /// before a whole head: its first byte, or `now`), and the transfers counted afresh for a
    /// response before a request; the adapter sends it, lingers, then
    /// tells [`access_log`](crate::driver::ServerHooks::access_log).
    pub fn own_error(
        &self,
        conn: &mut ServerConn,
        kept: &mut KeptRequest,
        why: OwnError,
        now: impl FnOnce() -> Timestamp,
        catch: Catch,
    ) -> Option<bool> {
        let cause = match why {
            OwnError::Expired(e) if !e.linger => return None,
            OwnError::Expired(e) => {
                if let Some(started) = conn.head_started() {
                    kept.set_started(started);
                }
                e.timed_out.map_or(ErrorCause::Evicted, ErrorCause::Timeout)
            }
            OwnError::Peer(_) if conn.error_status().is_none() => return Some(false),
            OwnError::Peer(e) => {
                if kept.get().is_none() {
                    if self.keeps_request() {
                        kept.set_started(conn.head_started().unwrap_or_else(now));
                    }
                    conn.restart_transfers();
                }
                ErrorCause::of_peer(conn, e)
            }
            OwnError::Connect => ErrorCause::Connect,
        };
        self.set_error_body(conn, cause, kept.get().unwrap_or(("", b"")), catch);
        Some(true)
    }

    /// The `503` beyond the connection limit, in `msg` (cleared first:
    /// [`write_busy_response`](crate::driver::write_busy_response)), with
    /// the `error_body` hook's body when it gives one the writer accepts;
    /// the hook runs inside `catch` (one that panics leaves the server's
    /// own text).
    pub fn busy_response(
        &self,
        msg: &mut Vec<u8>,
        date: &[u8; 29],
        server: Option<&[u8]>,
        catch: Catch,
    ) {
        let mut body = None;
        if let Some(hook) = &self.error_body {
            catch(&mut || body = hook(&ErrorResponse::new(503, ErrorCause::Busy, "", b"")));
        }
        crate::driver::write_busy_response(msg, date, server, body.as_ref());
    }

    /// Tells the access-log hook, when one is set, of the request `kept`
    /// holds (then forgets it): `conn`'s response status, `bytes` written
    /// for it, the time since it began (`now` is asked only when the hook
    /// is set), and the handler's `end` (`None`: a response of the
    /// connection's own; `Some(None)`: the handler panicked). The hook runs
    /// inside the adapter's containment (`catch`). With no hook this reads
    /// no clock and builds no record.
    #[cfg(target_has_atomic = "64")]
    pub fn access_log(
        &self,
        conn: &ServerConn,
        kept: &mut KeptRequest,
        bytes: u64,
        end: Option<&Option<Result<(), HandlerError>>>,
        now: impl FnOnce() -> Timestamp,
        catch: Catch,
    ) {
        if let Some(hook) = &self.access_log {
            let record = AccessRecord::new(kept.peer, &kept.method, &kept.target)
                .with_status(conn.response_status())
                .with_bytes(bytes)
                .with_duration(now().saturating_duration_since(kept.started))
                .with_error(end.and_then(|e| e.as_ref()?.as_ref().err()))
                .with_panicked(matches!(end, Some(None)));
            catch(&mut || hook(&record));
        }
        kept.forget();
    }
}

/// Why a server connection sends an error response of its own
/// ([`ServerHooks::own_error`](crate::driver::ServerHooks::own_error)).
#[non_exhaustive]
#[derive(Clone, Copy, Debug)]
pub enum OwnError {
    /// A deadline ran out, or the connection was evicted.
    Expired(crate::driver::Expiry),
    /// The peer broke a rule.
    Peer(RemoteError),
    /// A `CONNECT` with tunnels off (`501`).
    Connect,
}

/// The request a server's hooks see after the connection let it go (a
/// request answered whole is gone from it): its method and target, copied
/// only when a hook asks for them
/// ([`ServerHooks::keeps_request`](crate::driver::ServerHooks::keeps_request)),
/// the peer, and when the request began. One per connection, reused by its
/// requests: no allocation once its buffers have grown.
///
/// ```
/// use http_net_conn::driver::{KeptRequest, ServerHooks};
/// use http_net_conn::{Config, ServerConn, ServerEvent, Timestamp};
///
/// let hooks = ServerHooks {
///     access_log: Some(std::sync::Arc::new(|r| assert_eq!(r.target(), b"/a"))),
///     ..ServerHooks::default()
/// };
/// let mut kept = KeptRequest::new(None);
/// let mut conn = ServerConn::new(Config::DEFAULT);
/// let _ = conn.recv(b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
/// if let Ok(ServerEvent::Request(view)) = conn.poll_event() {
///     kept.keep(&hooks, &view);
/// }
/// assert_eq!(kept.get(), Some(("GET", &b"/a"[..])));
/// let t = Timestamp::from_nanos(0);
/// hooks.access_log(&conn, &mut kept, 0, None, || t, |f| {
///     f();
///     true
/// });
/// assert_eq!(kept.get(), None); // told, then forgotten
/// ```
#[cfg(target_has_atomic = "64")]
#[derive(Debug)]
pub struct KeptRequest {
    peer: Option<SocketAddr>,
    method: String,
    target: Vec<u8>,
    started: Timestamp,
}

#[cfg(target_has_atomic = "64")]
impl KeptRequest {
    /// Nothing kept yet, on a connection from `peer`.
    pub fn new(peer: Option<SocketAddr>) -> KeptRequest {
        KeptRequest {
            peer,
            method: String::new(),
            target: Vec::new(),
            started: Timestamp::from_nanos(0),
        }
    }

    /// Copies the method and target of the request `view`, when `hooks`
    /// keep them (nothing is copied, or even looked at, otherwise).
    #[inline]
    pub fn keep(&mut self, hooks: &crate::driver::ServerHooks, view: &crate::RequestView<'_>) {
        if hooks.keeps_request() {
            self.method.clear();
            self.method.push_str(view.method_str());
            self.target.clear();
            self.target.extend_from_slice(view.target());
        }
    }

    /// The request began at `at` (the access record's duration counts from
    /// it).
    pub fn set_started(&mut self, at: Timestamp) {
        self.started = at;
    }

    /// The method and target kept, when a request is.
    pub fn get(&self) -> Option<(&str, &[u8])> {
        (!self.method.is_empty()).then(|| (self.method.as_str(), &self.target[..]))
    }

    /// Forgets the request (a later error before a whole head has none).
    pub fn forget(&mut self) {
        self.method.clear();
        self.target.clear();
    }
}

/// The content type of the text a chosen answer carries when the
/// `error_body` hook gives none.
const TEXT: &[u8] = b"text/plain; charset=utf-8";

impl ServerConn {
    /// Sends the answer a handler's error chose, as if the handler had
    /// answered with `respond_with`: asked by an adapter when its handler
    /// returned (`end` as for [`HandlerOutcome::of`]), before
    /// [`Mistake::of_handler`] and [`after_handler`](ServerConn::after_handler).
    ///
    /// The status is the error's own ([`HandlerError::status`]), or else
    /// `choose`'s (the server's `error_status` hook). It is used only when
    /// no answer has begun, the connection has not failed and no body read
    /// timed out (`body_timed_out`). The answer carries the error's fields
    /// and `body`'s answer (the server's `error_body` hook, called with the
    /// status and [`ErrorCause::Handler`]) or else a short text naming the
    /// status, with its `Content-Length`; it keeps the connection as any
    /// answer does, except a `408`, which closes it (RFC 9110 §15.5.9).
    ///
    /// ```
    /// use http_net_conn::driver::{AfterHandler, ChosenAnswer};
    /// use http_net_conn::{Config, HandlerError, Mistake, ServerConn, ServerEvent};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// conn.recv(b"GET /?n=x HTTP/1.1\r\nHost: a\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// let end = Some(Err(HandlerError::bad_request(core::fmt::Error)));
    /// let chosen = conn.answer_chosen(&end, false, |_| None, |_| None);
    /// assert_eq!(chosen, ChosenAnswer::Sent);
    /// assert!(conn.output().starts_with(b"HTTP/1.1 400 Bad Request\r\n"));
    /// // An answer, not a mistake; the connection is kept.
    /// let m = Mistake::of_handler(&conn, &end, chosen, false, |_: &core::fmt::Error| None, None);
    /// assert_eq!(m, None);
    /// assert_eq!(conn.after_handler(chosen.outcome(&end), false), AfterHandler::Next);
    /// ```
    pub fn answer_chosen(
        &mut self,
        end: &Option<Result<(), HandlerError>>,
        body_timed_out: bool,
        choose: impl FnOnce(&HandlerError) -> Option<u16>,
        body: impl FnOnce(&ErrorResponse<'_>) -> Option<ErrorBody>,
    ) -> ChosenAnswer {
        let Some(Err(e)) = end else {
            return ChosenAnswer::NotChosen;
        };
        if self.failed() || body_timed_out || self.answer_state() != AnswerState::NotStarted {
            return ChosenAnswer::NotChosen;
        }
        let Some(status) = e.status().or_else(|| choose(e)) else {
            return ChosenAnswer::NotChosen;
        };
        if !(400..=599).contains(&status) {
            return ChosenAnswer::Refused(LocalError::InvalidStatus);
        }
        let given = {
            let (method, target) = self
                .request()
                .map_or(("", &b""[..]), |r| (r.method_str(), r.target()));
            body(&ErrorResponse::new(
                status,
                ErrorCause::Handler(e),
                method,
                target,
            ))
        };
        let text;
        let (content_type, bytes) = match &given {
            Some(b) => (&b.content_type[..], &b.body[..]),
            None => {
                text = format!("{status} {}\n", reason(status).unwrap_or("Error"));
                (TEXT, text.as_bytes())
            }
        };
        let mut fields: Vec<FieldPair<'_>> = e.fields().collect();
        if !fields
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(b"content-type"))
        {
            fields.push((b"Content-Type", content_type));
        }
        if status == 408 {
            self.close_after_response();
        }
        match self.send_chosen(status, &fields, bytes) {
            Ok(()) => ChosenAnswer::Sent,
            Err(Error::Local(l)) => ChosenAnswer::Refused(l),
            Err(Error::Remote(_)) => ChosenAnswer::Refused(LocalError::WrongState),
        }
    }

    /// `respond_with`, with the body copied into the output whatever its
    /// size (in pieces of at most [`COPY_LIMIT`]), so that the adapter has
    /// only the output to send.
    fn send_chosen(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
        body: &[u8],
    ) -> Result<(), Error> {
        let mut r = self.responder();
        r.send_head(status, fields, BodyLength::Known(body.len() as u64))?;
        for piece in body.chunks(COPY_LIMIT) {
            // At most `COPY_LIMIT`: copied, never left to the caller.
            let _ = r.send_data(piece)?;
        }
        r.send_end(&[])
    }
}

/// A request's method and target, as a mistake is reported with them.
type MethodTarget<'a> = (&'a str, &'a [u8]);

impl HandlerOutcome {
    /// What a handler's end is to the connection: `Some(Ok(()))` returned
    /// success, `Some(Err(_))` an error, `None` a panic (the adapter caught
    /// it).
    ///
    /// ```
    /// use http_net_conn::{HandlerError};
    /// use http_net_conn::driver::{HandlerOutcome};
    /// assert_eq!(HandlerOutcome::of(&Some(Ok(()))), HandlerOutcome::Ok);
    /// let e = HandlerError::new(core::fmt::Error);
    /// assert_eq!(HandlerOutcome::of(&Some(Err(e))), HandlerOutcome::Failed);
    /// assert_eq!(HandlerOutcome::of(&None), HandlerOutcome::Panicked);
    /// ```
    pub fn of(end: &Option<Result<(), HandlerError>>) -> HandlerOutcome {
        match end {
            Some(Ok(())) => HandlerOutcome::Ok,
            Some(Err(_)) => HandlerOutcome::Failed,
            None => HandlerOutcome::Panicked,
        }
    }
}

impl Mistake {
    /// The application's mistake, if the handler's `end` (as for
    /// [`HandlerOutcome::of`]) on `conn` shows one ([`Mistake::after_handler`]'s
    /// rule, so asked before [`ServerConn::after_handler`]), and the
    /// request's method and target to report it with. A chosen answer
    /// (`chosen`, from [`ServerConn::answer_chosen`]) that was sent is no
    /// mistake; one the connection refused is [`Mistake::Refused`].
    ///
    /// The connection's refusal of one of the handler's commands is looked
    /// for in the error it returned: in the adapter's own error type `E`
    /// with `local_of` (which finds the core's [`LocalError`] it wraps), or
    /// else as the core's error ([`Mistake::refusal`]). `body_timed_out`:
    /// one of the handler's body reads timed out (the peer's doing). The
    /// request is the one `conn` still holds, or else `kept`, the method and
    /// target the adapter copied (a request answered whole is gone from the
    /// connection).
    ///
    /// ```
    /// use http_net_conn::driver::ChosenAnswer;
    /// use http_net_conn::{
    ///     Config, Error, HandlerError, LocalError, Mistake, ServerConn, ServerEvent,
    /// };
    ///
    /// // An adapter's error, which wraps the core's.
    /// #[derive(Debug)]
    /// struct AdapterError(Error);
    /// impl core::fmt::Display for AdapterError {
    ///     fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
    ///         self.0.fmt(f)
    ///     }
    /// }
    /// impl std::error::Error for AdapterError {}
    /// fn local_of(e: &AdapterError) -> Option<LocalError> {
    ///     match e.0 {
    ///         Error::Local(l) => Some(l),
    ///         _ => None,
    ///     }
    /// }
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let _ = conn.recv(b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// // The handler returned the refusal, wrapped in the adapter's error.
    /// let refused = AdapterError(Error::Local(LocalError::InvalidFieldName));
    /// let end = Some(Err(HandlerError::new(refused)));
    /// let none = ChosenAnswer::NotChosen;
    /// let seen = Mistake::of_handler(&conn, &end, none, false, local_of, None);
    /// let request = Some(("GET", &b"/a"[..]));
    /// assert_eq!(seen, Some((Mistake::Refused(LocalError::InvalidFieldName), request)));
    /// // Any other error, and no answer: unanswered.
    /// let end = Some(Err(HandlerError::new(core::fmt::Error)));
    /// let seen = Mistake::of_handler(&conn, &end, none, false, local_of, None);
    /// assert_eq!(seen, Some((Mistake::Unanswered, request)));
    /// ```
    pub fn of_handler<'a, E: StdError + 'static>(
        conn: &'a ServerConn,
        end: &Option<Result<(), HandlerError>>,
        chosen: ChosenAnswer,
        body_timed_out: bool,
        local_of: fn(&E) -> Option<LocalError>,
        kept: Option<MethodTarget<'a>>,
    ) -> Option<(Mistake, Option<MethodTarget<'a>>)> {
        let refused = match chosen {
            ChosenAnswer::Sent => return None,
            ChosenAnswer::Refused(l) => Some(l),
            _ => end.as_ref().and_then(|r| r.as_ref().err()).and_then(|e| {
                match e.downcast_ref::<E>() {
                    Some(own) => local_of(own),
                    None => Mistake::refusal(e),
                }
            }),
        };
        let m = Mistake::after_handler(conn, HandlerOutcome::of(end), refused, body_timed_out)?;
        let request = conn
            .request()
            .map(|r| (r.method_str(), r.target()))
            .or(kept);
        Some((m, request))
    }
}

impl ErrorCause<'_> {
    /// Why `conn` queued its error response for the peer error `e`, as
    /// both servers' `error_body` hooks see it: a body over the body limit
    /// is [`ErrorCause::OverLimit`] with the limit in force, whether its
    /// length was declared (refused before the handler runs) or met while
    /// it was read; any other is [`ErrorCause::Peer`].
    ///
    /// ```
    /// use http_net_conn::{Config, ErrorCause, Limit, ServerConn};
    ///
    /// let config = Config::DEFAULT.with_body_limits(
    ///     http_net_conn::BodyLimits::DEFAULT.with_body_budget(4),
    /// );
    /// let mut conn = ServerConn::new(config);
    /// conn.recv(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nabcde");
    /// let e = match conn.poll_event() {
    ///     Err(http_net_conn::Error::Remote(e)) => e,
    ///     other => panic!("{other:?}"),
    /// };
    /// let cause = ErrorCause::of_peer(&conn, e);
    /// assert!(matches!(cause, ErrorCause::OverLimit(Limit::BodyBudget(4))));
    /// assert!(conn.output().starts_with(b"HTTP/1.1 413 "));
    /// ```
    pub fn of_peer(conn: &ServerConn, e: RemoteError) -> ErrorCause<'static> {
        match e {
            RemoteError::Framing(FramingError::BodyTooLarge) => {
                ErrorCause::OverLimit(Limit::BodyBudget(conn.body_budget().unwrap_or(0)))
            }
            e => ErrorCause::Peer(e),
        }
    }

    /// Why the connection queued the error response that follows a
    /// handler (asked after [`ServerConn::after_handler`] answered
    /// [`Linger`](crate::driver::AfterHandler::Linger)), for the error-body
    /// hook: by the response's status, then the peer's error that failed
    /// the connection ([`ServerConn::peer_error`]), then how the handler
    /// ended (`end`: `None` after a panic). One rule for every adapter.
    ///
    /// ```
    /// use http_net_conn::{Config, ErrorCause, ServerConn, ServerEvent};
    /// use http_net_conn::driver::HandlerOutcome;
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// let _ = conn.after_handler(HandlerOutcome::Panicked, false);
    /// assert!(matches!(ErrorCause::after_handler(&conn, &None, false), ErrorCause::Panic));
    /// ```
    pub fn after_handler<'e>(
        conn: &ServerConn,
        end: &'e Option<Result<(), HandlerError>>,
        body_timed_out: bool,
    ) -> ErrorCause<'e> {
        let error = end.as_ref().and_then(|r| r.as_ref().err());
        match (conn.error_status(), conn.peer_error(), error) {
            (Some(413), _, _) => {
                ErrorCause::OverLimit(Limit::BodyBudget(conn.body_budget().unwrap_or(0)))
            }
            (Some(408), _, _) => ErrorCause::Timeout(Stage::Body),
            (Some(500), _, Some(e)) if !body_timed_out => ErrorCause::Handler(e),
            (Some(500), _, None) if end.is_none() => ErrorCause::Panic,
            (Some(500), _, None) => ErrorCause::NoAnswer,
            (_, Some(r), _) => ErrorCause::of_peer(conn, r),
            // A body the peer broke, whose error the handler did not
            // return: the handler's own error, or no answer from it.
            (_, None, Some(e)) => ErrorCause::Handler(e),
            (_, None, None) => ErrorCause::NoAnswer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyLimits, Config, Error, ServerEvent};
    use alloc::sync::Arc;

    fn run(f: &mut dyn FnMut()) -> bool {
        f();
        true
    }

    /// Keeps the request `head` on a new connection, with `hooks`.
    fn keep_of(
        hooks: &crate::driver::ServerHooks,
        head: &[u8],
    ) -> (crate::ServerConn, KeptRequest) {
        let mut conn = crate::ServerConn::new(crate::Config::DEFAULT);
        let mut kept = KeptRequest::new(None);
        let _ = conn.recv(head);
        if let Ok(crate::ServerEvent::Request(view)) = conn.poll_event() {
            kept.keep(hooks, &view);
        }
        (conn, kept)
    }

    #[test]
    fn the_access_record_costs_nothing_without_its_hook() {
        let head = b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n";
        // No hook keeps the request: nothing copied.
        let (_, kept) = keep_of(&crate::driver::ServerHooks::default(), head);
        assert_eq!(kept.get(), None);
        // No access log: the clock is not asked.
        let hooks = crate::driver::ServerHooks {
            error_body: Some(Arc::new(|_| None)),
            ..crate::driver::ServerHooks::default()
        };
        let (conn, mut kept) = keep_of(&hooks, head);
        assert_eq!(kept.get(), Some(("GET", &b"/a"[..])));
        let now = || -> Timestamp { panic!("the clock was read") };
        hooks.access_log(&conn, &mut kept, 0, None, now, run);
        assert_eq!(kept.get(), None);
    }

    #[test]
    fn the_access_record_says_what_became_of_the_request() {
        use core::sync::atomic::{AtomicU64, Ordering};
        static SEEN: AtomicU64 = AtomicU64::new(0);
        let hooks = crate::driver::ServerHooks {
            access_log: Some(Arc::new(|r| {
                assert_eq!((r.method(), r.target()), ("PUT", &b"/b"[..]));
                assert!(r.panicked() && r.error().is_none());
                let ms = u64::try_from(r.duration().as_millis()).unwrap_or(0);
                SEEN.store(r.bytes() * 1000 + ms, Ordering::SeqCst);
            })),
            ..crate::driver::ServerHooks::default()
        };
        let (conn, mut kept) = keep_of(&hooks, b"PUT /b HTTP/1.1\r\nHost: a\r\n\r\n");
        kept.set_started(Timestamp::from_nanos(1_000_000));
        let now = || Timestamp::from_nanos(8_000_000);
        hooks.access_log(&conn, &mut kept, 5, Some(&None), now, run);
        assert_eq!(SEEN.load(Ordering::SeqCst), 5_007);
        assert_eq!(kept.get(), None);
    }

    #[test]
    fn a_status_chosen_after_the_answer_began_is_not_used() {
        let mut conn = ServerConn::new(Config::DEFAULT);
        let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        assert_eq!(conn.recv(req), req.len());
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
        conn.responder()
            .send_head(200, &[], crate::BodyLength::Streamed)
            .unwrap();
        let end = Some(Err(HandlerError::bad_request(core::fmt::Error)));
        let chosen = conn.answer_chosen(&end, false, |_| Some(404), |_| None);
        assert_eq!(chosen, ChosenAnswer::NotChosen);
        assert_eq!(conn.response_status(), Some(200));
        // Today's rule: an answer begun and not ended is cut short.
        let after = conn.after_handler(chosen.outcome(&end), false);
        assert_eq!(after, crate::driver::AfterHandler::Truncated);
        // Nor after a body read timed out: the connection's `408` follows.
        let mut conn = ServerConn::new(Config::DEFAULT);
        assert_eq!(conn.recv(req), req.len());
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
        let chosen = conn.answer_chosen(&end, true, |_| None, |_| None);
        assert_eq!(chosen, ChosenAnswer::NotChosen);
    }

    #[test]
    fn a_declared_body_over_the_budget_names_the_configured_limit_not_the_last_requests() {
        let config = Config::DEFAULT.with_body_limits(BodyLimits::DEFAULT.with_body_budget(16));
        let mut conn = ServerConn::new(config);
        let first = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc";
        assert_eq!(conn.recv(first), first.len());
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
        // The first request lowers its own limit, and is answered.
        conn.limit_body(10).unwrap();
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Data(b"abc"))));
        let _ = conn.responder().respond_with(204, &[], b"").unwrap();
        let n = conn.output().len();
        conn.consume_output(n);
        while let Ok(ServerEvent::End(_)) = conn.poll_event() {}
        let second = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n";
        assert_eq!(conn.recv(second), second.len());
        let e = match conn.poll_event() {
            Err(Error::Remote(e)) => e,
            other => panic!("{other:?}"),
        };
        let cause = ErrorCause::of_peer(&conn, e);
        assert!(
            matches!(cause, ErrorCause::OverLimit(Limit::BodyBudget(16))),
            "{cause:?}"
        );
        let out = conn.output();
        let text = b"the body is over the body limit of 16 bytes";
        assert!(out.windows(text.len()).any(|w| w == text));
    }
}

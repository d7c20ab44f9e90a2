//! `ServerConn`: the server connection's state and its commands (the
//! reading side here; the answering side in `responder.rs`).

use http_net_framing::{request_body, BodyKind, Error as FramingError};
use http_net_head::{Method, Parsed, RequestHead, RequestParser, Version};

use super::reject::{queue_error, queue_error_response, replace_error_body, ErrorTail, OverLimit};
use super::request_state::{ReqInfo, RequestState};
use super::responder::Responder;
use super::view::{AnswerState, Phase, RequestView, ServerEvent};
use crate::body::{BodyIn, BodyRead};
use crate::fields::{borrowed_event, input_commands, Ev};
use crate::inbuf::Held;
use crate::state::{
    server_joint, CloseWhy, Persist, SRead, SReadEv, SWrite, SWriteEv, ServerJoint,
};
use crate::validate::trim_ows;
use crate::writer::Output;
use crate::{Buffers, Config, Error, Limit, LocalError, RemoteError, COPY_LIMIT};

/// The input half, with the request parser.
type Input = crate::fields::Input<RequestParser, RequestHead>;

/// A Sans-IO HTTP/1.1 server connection.
///
/// Buffers are allocated once, in [`new`](ServerConn::new) (and can be lent
/// to a pool while the connection is idle: [`take_buffers`](ServerConn::take_buffers)). The caller
/// feeds bytes in, polls events, answers through the [`Responder`], and
/// writes [`output`](ServerConn::output) to the peer:
///
/// ```
/// use http_net_conn::{BodyLength, Config, ServerConn, ServerEvent};
///
/// let mut conn = ServerConn::new(Config::DEFAULT);
/// let input = b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello";
/// assert_eq!(conn.recv(input), input.len());
/// let mut body = Vec::new();
/// loop {
///     match conn.poll_event().unwrap() {
///         ServerEvent::Request(req) => assert_eq!(req.target(), b"/echo"),
///         ServerEvent::Data(bytes) => body.extend_from_slice(bytes),
///         ServerEvent::End(_) => break,
///         other => panic!("unexpected {other:?}"),
///     }
/// }
/// let mut res = conn.responder();
/// res.send_head(200, &[(b"Content-Type", b"text/plain")], BodyLength::Known(5)).unwrap();
/// res.send_data(&body).unwrap();
/// res.send_end(&[]).unwrap();
/// assert_eq!(
///     conn.output(),
///     b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello"
/// );
/// let n = conn.output().len();
/// conn.consume_output(n);
/// assert!(!conn.should_close());
/// assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
/// ```
#[derive(Debug)]
pub struct ServerConn {
    input: Input,
    pub(super) ex: RequestState,
    out: Output,
    /// The connection's own error response, while it is wholly unsent.
    error_tail: Option<ErrorTail>,
    /// The deadlines of the waits between handlers (`waits.rs`).
    pub(super) deadlines: super::deadlines::Deadlines,
    /// The paces of the request's body and responses (`paces.rs`).
    pub(super) paces: super::meters::Paces,
    /// The peer's error that failed the connection, if one did.
    peer_error: Option<RemoteError>,
}

impl ServerConn {
    /// A connection with its buffers allocated once, here: the input buffer
    /// holds a whole head plus [`Config::read_chunk`] bytes; field storage for
    /// the head and for trailers holds `max_fields` each.
    pub fn new(config: Config) -> ServerConn {
        let input = Input::new(&config, RequestParser::new(config.head_limits()));
        ServerConn {
            input,
            ex: RequestState::new(config),
            out: Output::new(2 * COPY_LIMIT),
            error_tail: None,
            deadlines: super::deadlines::Deadlines::new(),
            paces: super::meters::Paces::of(&crate::ServerSettings::DEFAULT),
            peer_error: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.ex.config
    }

    /// Returns the connection to the state [`new`](ServerConn::new) leaves
    /// it in, for the next peer, keeping its buffers: an adapter that serves
    /// one connection after another on a thread (a pool) makes one
    /// `ServerConn` per thread and resets it per accepted connection, which
    /// allocates nothing (the workspace test `crates/integration/tests/alloc_conn.rs`). Whatever state the connection
    /// was in (mid-request, failed, switched, closed), every byte received
    /// or queued is forgotten (zeroed first with [`set_wipe`](ServerConn::set_wipe)
    /// on), and so is the date given to [`set_date`](ServerConn::set_date).
    /// The configuration and the wipe setting stay; the output buffer keeps
    /// the capacity it grew to.
    pub fn reset(&mut self) {
        self.input.reset();
        self.input.parser.reset();
        self.ex = RequestState::new(self.ex.config);
        self.out.reset();
        self.error_tail = None;
        self.deadlines.reset();
        self.paces.new_peer();
        self.peer_error = None;
    }

    /// Lends the connection's buffers out (to a pool) while it is idle
    /// between requests: no request in progress (its answer complete, or
    /// none yet), no unread input, no output waiting. `None` otherwise, or
    /// when they are lent already. With [`set_wipe`](ServerConn::set_wipe)
    /// on, every byte of them is zeroed first.
    ///
    /// While they are lent the connection holds no buffer:
    /// [`spare_mut`](ServerConn::spare_mut) is empty and
    /// [`recv`](ServerConn::recv) copies nothing (it returns 0: restore the
    /// buffers first, then read), [`phase`](ServerConn::phase) stays
    /// [`Phase::Idle`], and [`poll_event`](ServerConn::poll_event) says
    /// [`ServerEvent::NeedInput`] (or `Closed` after
    /// [`recv_eof`](ServerConn::recv_eof)). Everything else works as
    /// usual: [`reject`](ServerConn::reject) and
    /// [`time_out`](ServerConn::time_out) queue their response into a new
    /// output buffer (an allocation), [`reset`](ServerConn::reset) keeps
    /// them lent. An adapter takes them when a read would block on an idle
    /// connection and restores them when the socket is readable.
    pub fn take_buffers(&mut self) -> Option<Buffers> {
        let idle = self.ex.read == SRead::Idle && self.ex.write == SWrite::Idle;
        if !idle {
            return None;
        }
        let lent = crate::buffers::lend(&mut self.input, &mut self.out)?;
        self.ex.head_dirty = false;
        Some(lent)
    }

    /// Takes buffers back after [`take_buffers`](ServerConn::take_buffers)
    /// (the same ones or any other connection's: they carry no state), each
    /// resized to what the [`Config`] needs: a no-op for buffers made with
    /// the same configuration, a reallocation for smaller ones. Output
    /// queued while they were lent is kept (copied into the restored output
    /// buffer). `Err` gives them back untouched when the connection holds
    /// its own (they were not lent).
    pub fn restore_buffers(&mut self, buffers: Buffers) -> Result<(), Buffers> {
        crate::buffers::restore(&mut self.input, &mut self.out, &self.ex.config, buffers)
    }

    /// Whether the buffers are lent ([`take_buffers`](ServerConn::take_buffers)).
    pub fn buffers_lent(&self) -> bool {
        self.input.buf.is_lent()
    }

    /// The bytes the connection's buffers hold allocated, as
    /// [`Buffers::allocated_bytes`] counts them (none while they are lent).
    /// The output buffer grows past its high water under a peer that
    /// pipelines requests without reading, and keeps its size after
    /// [`reset`](ServerConn::reset): an adapter that keeps one connection
    /// per thread compares this with a new connection's figure to free
    /// buffers that grew.
    ///
    /// ```
    /// use http_net_conn::{Config, ServerConn};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let fresh = conn.allocated_bytes();
    /// let buffers = conn.take_buffers().unwrap();
    /// assert_eq!(buffers.allocated_bytes(), fresh);
    /// assert_eq!(conn.allocated_bytes(), 0);
    /// conn.restore_buffers(buffers).unwrap();
    /// assert_eq!(conn.allocated_bytes(), fresh);
    /// ```
    pub fn allocated_bytes(&self) -> usize {
        crate::buffers::held_bytes(&self.input, &self.out)
    }

    fn held(&self) -> Held {
        match (&self.input.head, self.ex.req_alive()) {
            (Some(h), true) => Some((self.input.head_at, h.len)),
            _ => None,
        }
    }

    fn takes_input(&self) -> bool {
        !matches!(self.ex.read, SRead::Closed | SRead::Switched)
    }

    /// Free space to read peer bytes into (compacting the buffer first if
    /// less than one read is free); empty while the connection will not take
    /// input (closed, switched, or draining after an error: then read into a
    /// scratch buffer and discard).
    pub fn spare_mut(&mut self) -> &mut [u8] {
        if !self.takes_input() {
            return &mut [];
        }
        // An `End` still due refers to its trailers by offset: keep them.
        let trailers_due = self.ex.read == SRead::Body && self.ex.body.trailers_due();
        let held = self.held();
        if !trailers_due && self.input.buf.make_room(held) {
            if held.is_some() {
                self.input.head_at = 0;
            } else {
                self.ex.head_dirty = false;
            }
        }
        self.input.buf.spare()
    }

    input_commands!("ServerConn");

    /// The next event. A malformed request yields `Err(Error::Remote(_))` once,
    /// with the matching error response queued in the output; the connection
    /// is then [`Phase::Draining`] and yields [`ServerEvent::Closed`].
    pub fn poll_event(&mut self) -> Result<ServerEvent<'_>, Error> {
        self.wipe();
        let ev = loop {
            if let Some(ev) = self.step()? {
                break ev;
            }
        };
        Ok(borrowed_event!(ServerEvent, ev, self.input, {
            // Fast path, general twin `request()` (which first asks whether
            // the head is held: it was just surfaced): D-11, -7 instructions
            // per request (docs/DECISIONS.md).
            #[cfg(not(http_net_general_path))]
            Ev::Head => match self.input.received() {
                Some(msg) => ServerEvent::Request(RequestView::new(msg, self.ex.req.expects_continue)),
                None => ServerEvent::NeedInput,
            },
            #[cfg(http_net_general_path)]
            Ev::Head => self
                .request()
                .map_or(ServerEvent::NeedInput, ServerEvent::Request),
            Ev::Paused => ServerEvent::Paused,
            // Client-side outcomes: never produced here.
            Ev::Informational | Ev::Idle => ServerEvent::NeedInput,
        }))
    }

    /// Zeroes consumed input when wiping is on.
    fn wipe(&mut self) {
        if !self.input.buf.wiping() {
            // Nothing is zeroed: only forget the released head.
            self.ex.head_dirty = false;
            return;
        }
        if self.ex.head_dirty {
            self.ex.head_dirty = false;
            if let Some(h) = &self.input.head {
                self.input.buf.wipe_region(self.input.head_at, h.len);
            }
        }
        let held = self.held();
        self.input.buf.wipe_consumed(held);
    }

    /// One move of the read side; `None` when it moved without an event.
    /// The joint rules are consulted where they can apply: a read half that
    /// is done, idle with the connection closing, or reading a body whose
    /// answer is complete.
    #[inline(always)]
    fn step(&mut self) -> Result<Option<Ev>, Error> {
        // Fast path (the first two arms skip the joint rules where they
        // cannot apply), general twin: consult them before every step. With
        // run-time moves too (D-10's first form): +45 instructions per
        // request on the H5 loop (docs/DECISIONS.md, D-10).
        #[cfg(http_net_general_path)]
        if server_joint(self.ex.read, self.ex.write, self.ex.persist) != ServerJoint::None {
            return Ok(self.settle());
        }
        match self.ex.read {
            SRead::Idle if self.ex.persist.keeps_alive() => self.read_head(),
            SRead::Body if self.ex.write != SWrite::Done => self.read_body(),
            SRead::Drain => self.drain(),
            SRead::Closed => Ok(Some(Ev::Closed)),
            SRead::Switched => Ok(Some(Ev::Switched)),
            SRead::Idle | SRead::Body | SRead::Done => Ok(self.settle()),
        }
    }

    /// The joint rules applied: the next request, the switch, the close, or
    /// (the answer not complete yet) `Paused`.
    fn settle(&mut self) -> Option<Ev> {
        match self.ex.settle() {
            Some(true) => Some(Ev::Closed),
            Some(false) => Some(Ev::Switched),
            None if self.ex.read == SRead::Done => Some(Ev::Paused),
            None => None,
        }
    }

    fn read_head(&mut self) -> Result<Option<Ev>, Error> {
        if self.out.queued() > self.ex.config.output_high_water() {
            return Ok(Some(Ev::Paused));
        }
        if !self.input.buf.has_unread() {
            if self.input.buf.eof {
                self.ex.close(CloseWhy::Ended);
                return Ok(Some(Ev::Closed));
            }
            return Ok(Some(Ev::NeedInput));
        }
        let input = &mut self.input;
        match input.parser.parse(input.buf.unread(), &mut input.fields) {
            Ok(Parsed::Partial) if self.input.buf.eof => Err(self.fail(RemoteError::UnexpectedEof)),
            Ok(Parsed::Partial) if self.input.buf.is_stuck(None) => {
                Err(self.fail(RemoteError::Head(http_net_head::Error::HeadTooLarge)))
            }
            Ok(Parsed::Partial) => Ok(Some(Ev::NeedInput)),
            Ok(Parsed::Complete(head)) => self.start_request(head),
            Err(e) => Err(self.fail(RemoteError::Head(e))),
        }
    }

    /// A request head was parsed: decide its framing, persistence,
    /// expectation and upgrade, and surface it.
    fn start_request(&mut self, head: RequestHead) -> Result<Option<Ev>, Error> {
        let hb = self.input.buf.unread();
        let fields = self.input.fields.get(..head.field_count).unwrap_or(&[]);
        // Fast path, general twin `request_body` (which answers the same
        // for a head with neither field, RFC 9112 §6.3 step 7): most
        // requests have no body; H5 by callgrind, docs/DECISIONS.md, D-31.
        let no_framing = head.known.transfer_encoding.is_empty()
            && head.known.content_length.is_empty()
            && cfg!(not(http_net_general_path));
        let kind = if no_framing {
            BodyKind::None
        } else {
            let limits = self.ex.config.body_limits();
            match request_body(head.version, &head.known, fields, hb, &limits) {
                Ok(kind) => kind,
                Err(e) => {
                    // No body of this request's: a budget it went over is
                    // the configured one (`body_budget`).
                    self.input.body = BodyKind::None;
                    return Err(self.fail(RemoteError::Framing(e)));
                }
            }
        };
        if head.method == Method::Connect && !matches!(kind, BodyKind::None | BodyKind::Length(0)) {
            return Err(self.fail(RemoteError::ConnectWithContent));
        }
        let http11 = head.version == Version::Http11;
        let known = head.known;
        let mut expects_continue = false;
        if http11 && !known.expect.is_empty() {
            // Every member of every `Expect` line must be 100-continue (RFC 9110 §10.1.1).
            let ok = known.expect.values(b"expect", fields, hb).all(|v| {
                let v = v.get(hb);
                !trim_ows(v).is_empty()
                    && v.split(|&b| b == b',')
                        .all(|m| trim_ows(m).eq_ignore_ascii_case(b"100-continue"))
            });
            if !ok {
                return Err(self.fail(RemoteError::UnsupportedExpectation));
            }
            expects_continue = true;
        }
        let conn = known.connection;
        let keep_alive = if http11 {
            !conn.close()
        } else {
            conn.keep_alive() && !conn.close()
        };
        self.ex.req = ReqInfo {
            version: head.version,
            method: head.method,
            expects_continue,
            continue_sent: false,
            upgrade_offered: http11 && !known.upgrade.is_empty() && conn.upgrade(),
        };
        self.ex.persist = self.ex.persist.close_if(!keep_alive, CloseWhy::PeerAsked);
        let body = BodyIn::start(kind, &mut self.ex.chunked, &self.ex.config, head.len);
        if body.pending() {
            // A body: its count and its own limit start afresh (a request
            // without one is not counted: `has_body`).
            self.ex.delivered = 0;
            self.ex.body_limit = u64::MAX;
        }
        self.input.head_at = self.input.buf.pos;
        self.input.buf.pos += head.len;
        self.input.head = Some(head);
        self.input.body = kind;
        self.input.parser.reset();
        self.ex.body = body;
        self.ex.move_read_from(SRead::Idle, SReadEv::Head);
        self.ex.move_write_from(SWrite::Idle, SWriteEv::Request);
        Ok(Some(Ev::Head))
    }

    fn read_body(&mut self) -> Result<Option<Ev>, Error> {
        if let BodyIn::EndDue { base, count } = self.ex.body {
            self.ex.move_read_from(SRead::Body, SReadEv::End);
            // After a 101 or a 2xx to CONNECT, `Switched` stands for the end.
            let switched = self.ex.write == SWrite::Switched;
            return Ok((!switched).then_some(Ev::End { base, count }));
        }
        let held = self.held();
        let input = &mut self.input;
        match self.ex.body.step(
            &mut input.buf,
            &mut self.ex.chunked,
            &mut input.trailers,
            held,
        ) {
            Ok(BodyRead::Data(range)) => {
                let delivered = self.ex.delivered + range.len() as u64;
                if delivered > self.ex.body_limit {
                    // Over the request's own limit (`limit_body`): the
                    // same error as over the configured budget.
                    return Err(self.fail(RemoteError::Framing(FramingError::BodyTooLarge)));
                }
                self.ex.delivered = delivered;
                Ok(Some(Ev::Data(range)))
            }
            Ok(BodyRead::Moved) => Ok(None),
            Ok(BodyRead::NeedInput) => Ok(Some(Ev::NeedInput)),
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Discards the rest of a body whose response is complete (C64, C66, C67).
    fn drain(&mut self) -> Result<Option<Ev>, Error> {
        if !self.ex.body.pending() {
            self.ex.move_read_from(SRead::Drain, SReadEv::Drained);
            return Ok(None);
        }
        let pos = self.input.buf.pos;
        let input = &mut self.input;
        let read = self.ex.body.step(
            &mut input.buf,
            &mut self.ex.chunked,
            &mut input.trailers,
            None,
        );
        let consumed = (self.input.buf.pos - pos) as u64;
        if consumed > self.ex.drain_left {
            // Past the drain bound: close after the response.
            self.ex.close(CloseWhy::UnreadBody);
            return Ok(Some(Ev::Closed));
        }
        self.ex.drain_left -= consumed;
        match read {
            Ok(BodyRead::Data(_) | BodyRead::Moved) => Ok(None),
            Ok(BodyRead::NeedInput) => Ok(Some(Ev::NeedInput)),
            Err(e @ RemoteError::Framing(_)) => {
                // The answer is out: no error response, only the close.
                self.ex.fail();
                Err(Error::Remote(e))
            }
            Err(_) => {
                // Cut short, or stuck: nothing more will be read.
                self.ex.close(CloseWhy::Ended);
                Ok(Some(Ev::Closed))
            }
        }
    }

    /// A peer error: queue the error response if no answer has started,
    /// then read and send nothing more.
    fn fail(&mut self, e: RemoteError) -> Error {
        let unanswered = matches!(self.ex.write, SWrite::Idle | SWrite::Waiting);
        if unanswered {
            let server = self.ex.config.server_name();
            let to_head = self.ex.head_in_progress();
            let budget = self.body_budget();
            let (out, date) = (&mut self.out, self.ex.date());
            let tail = if e == RemoteError::Framing(FramingError::BodyTooLarge) {
                // The local side's limit, declared or met while reading:
                // one text naming it.
                let limit = OverLimit(Limit::BodyBudget(budget.unwrap_or(0)));
                queue_error(out, (413, None), Some(&limit), to_head, date, server)
            } else {
                queue_error_response(out, e, to_head, date, server)
            };
            self.error_tail = Some(tail);
        }
        self.ex.fail();
        self.peer_error = Some(e);
        if unanswered {
            // The connection's error response is the answer.
            self.ex.closed_answer = AnswerState::Complete;
            self.ex.status = e.status();
        }
        Error::Remote(e)
    }

    /// Answers with an error status of the caller's choosing (400..=599),
    /// written by the connection like its own error responses: a short text
    /// body naming the status, `Date` (and `Server`) when set, and
    /// `Connection: close`. To a HEAD request the head is the same,
    /// `Content-Length` of that text included, and the text is not sent
    /// (RFC 9110 §9.3.2, §8.6); the same holds for the connection's own
    /// error responses to a peer error after a HEAD request's head; then the connection reads nothing more and is
    /// [`Phase::Draining`] (send the output, half-close, drain, close), and
    /// [`poll_event`](ServerConn::poll_event) yields
    /// [`ServerEvent::Closed`].
    ///
    /// For what the adapter decides rather than the bytes: a head deadline
    /// that expired mid-head ([`time_out`](ServerConn::time_out)), a body
    /// read that timed out, a handler that failed before answering. Allowed
    /// only while no final response head has been queued for the current
    /// request (an informational one may have been; between requests and
    /// mid-head too); otherwise [`LocalError::WrongState`] and nothing is
    /// queued: the answer already started cannot be replaced, so close
    /// instead.
    pub fn reject(&mut self, status: u16) -> Result<(), LocalError> {
        self.reject_with(status, None)
    }

    /// [`reject`](ServerConn::reject), with `Retry-After: retry_after`
    /// when given.
    fn reject_with(&mut self, status: u16, retry_after: Option<u32>) -> Result<(), LocalError> {
        if !(400..=599).contains(&status) {
            return Err(LocalError::InvalidStatus);
        }
        let open = !matches!(self.ex.read, SRead::Closed | SRead::Switched)
            && matches!(self.ex.write, SWrite::Idle | SWrite::Waiting);
        if !open {
            return Err(LocalError::WrongState);
        }
        let server = self.ex.config.server_name();
        let to_head = self.ex.head_in_progress();
        let (out, date) = (&mut self.out, self.ex.date());
        let tail = queue_error(out, (status, retry_after), None, to_head, date, server);
        self.error_tail = Some(tail);
        self.ex.fail();
        self.ex.closed_answer = AnswerState::Complete;
        self.ex.status = status;
        Ok(())
    }

    /// The status of the error response the connection queued (its own, for
    /// a peer error, or through [`reject`](ServerConn::reject) /
    /// [`time_out`](ServerConn::time_out)) while none of it has been sent:
    /// the response [`set_error_body`](ServerConn::set_error_body) can
    /// still rewrite. `None` otherwise (no error response, or part of it
    /// already consumed from the output).
    pub fn error_status(&self) -> Option<u16> {
        self.error_tail_status()
    }

    /// The peer's error that failed the connection (a malformed head or
    /// body, a body over its budget), if one did.
    pub fn peer_error(&self) -> Option<RemoteError> {
        self.peer_error
    }

    fn error_tail_status(&self) -> Option<u16> {
        let tail = self.error_tail?;
        self.out
            .unsent_tail(tail.start, tail.len)
            .then_some(tail.status)
    }

    /// Gives the queued error response ([`error_status`](ServerConn::error_status))
    /// a body of the caller's in place of the connection's text: `body` with
    /// `Content-Type: content_type` (e.g. `application/json`) and its
    /// `Content-Length`; the status, `Connection: close`, `Date` and
    /// `Server` stay. To a HEAD request the head carries the body's length
    /// and the body is not sent (RFC 9110 §9.3.2). May be called again,
    /// until the output is consumed.
    ///
    /// [`LocalError::WrongState`] when no error response is wholly queued,
    /// [`LocalError::InvalidFieldValue`] for a content type that is not a
    /// field value (RFC 9110 §5.5); then nothing changes.
    ///
    /// ```
    /// use http_net_conn::{Config, ServerConn};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n");
    /// assert!(conn.poll_event().is_err()); // 400 queued
    /// assert_eq!(conn.error_status(), Some(400));
    /// conn.set_error_body(b"application/json", br#"{"error":400}"#).unwrap();
    /// let out = conn.output();
    /// assert!(out.starts_with(b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"));
    /// assert!(out.ends_with(b"\r\n\r\n{\"error\":400}"));
    /// ```
    pub fn set_error_body(&mut self, content_type: &[u8], body: &[u8]) -> Result<(), LocalError> {
        let Some(tail) = self.error_tail else {
            return Err(LocalError::WrongState);
        };
        let server = self.ex.config.server_name();
        let tail = replace_error_body(
            &mut self.out,
            tail,
            content_type,
            body,
            self.ex.date(),
            server,
        )?;
        self.error_tail = Some(tail);
        Ok(())
    }

    /// `408 Request Timeout` through [`reject`](ServerConn::reject): what an
    /// adapter sends when the head deadline expires with part of a head
    /// received (RFC 9110 §15.5.9), or a body read times out before any answer.
    pub fn time_out(&mut self) -> Result<(), LocalError> {
        self.reject(408)
    }

    /// What the server sends a connection it evicted at its connection
    /// limit while the connection's request head was arriving: `503
    /// Service Unavailable` with `Retry-After: 1`
    /// ([`BUSY_RETRY_AFTER`](crate::driver::BUSY_RETRY_AFTER), as to a connection
    /// refused beyond the limit): the peer did nothing wrong and may come
    /// back (RFC 9110 §15.6.4, §10.2.3); then the connection closes as
    /// after [`reject`](ServerConn::reject). Between requests an evicted
    /// connection closes without a response, and a handler's body read or
    /// write ends instead.
    ///
    /// ```
    /// use http_net_conn::{Config, ServerConn, ServerEvent};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let _ = conn.recv(b"GET / HTTP/1.1\r\nHo");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    /// conn.evicted_mid_head().unwrap();
    /// assert!(conn.output().starts_with(b"HTTP/1.1 503 Service Unavailable\r\n"));
    /// assert!(conn.output().windows(16).any(|w| w == b"Retry-After: 1\r\n"));
    /// ```
    pub fn evicted_mid_head(&mut self) -> Result<(), LocalError> {
        self.reject_with(503, Some(super::reject::BUSY_RETRY_AFTER))
    }

    /// The current request, from its head until the response is complete.
    pub fn request(&self) -> Option<RequestView<'_>> {
        if !self.ex.req_alive() {
            return None;
        }
        let msg = self.input.received()?;
        Some(RequestView::new(msg, self.ex.req.expects_continue))
    }

    /// The current request and the answering half, borrowed together.
    pub fn parts(&mut self) -> (Option<RequestView<'_>>, Responder<'_>) {
        let expects_continue = self.ex.req.expects_continue;
        let view = self
            .input
            .received()
            .filter(|_| self.ex.req_alive())
            .map(|msg| RequestView::new(msg, expects_continue));
        (
            view,
            Responder {
                ex: &mut self.ex,
                out: &mut self.out,
            },
        )
    }

    /// The answering half alone.
    pub fn responder(&mut self) -> Responder<'_> {
        self.parts().1
    }

    /// Sets the 29-byte IMF-fixdate written as `Date` in every response head
    /// (the adapter formats it at most once a second).
    pub fn set_date(&mut self, date: &[u8; 29]) {
        self.ex.set_date(date);
    }

    /// Zero consumed input and sent output from now on.
    pub fn set_wipe(&mut self, wipe: bool) {
        self.input.buf.set_wipe(wipe);
        self.out.set_wipe(wipe);
    }

    /// Bytes waiting to be sent (up to where a body left to the caller goes:
    /// see [`Placement::AfterOutput`](crate::Placement::AfterOutput)).
    pub fn output(&self) -> &[u8] {
        self.out.pending()
    }

    /// Reports that the first `n` bytes of [`output`](ServerConn::output) were sent.
    pub fn consume_output(&mut self, n: usize) {
        self.out.consume(n);
    }

    /// Every output byte queued and not yet reported sent, including bytes
    /// held back behind a body left to the caller.
    pub fn output_queued(&self) -> usize {
        self.out.queued()
    }

    /// The body bytes the caller still owes right after
    /// [`output`](ServerConn::output): `Some(n)` after a command returned
    /// [`Placement::AfterOutput`](crate::Placement::AfterOutput) for `n`
    /// bytes, until [`consume_output`](ServerConn::consume_output) reaches
    /// the end of the output pending at that command (which says the
    /// caller's `n` bytes went out right after it); `None` otherwise. When
    /// nothing was pending at the command, report the caller's bytes sent
    /// with `consume_output(0)`: until then the debt stays on record and no
    /// later output shows. An adapter whose handler returned with `Some(_)`
    /// here and did not send those bytes must close the connection instead
    /// of sending more output: the peer was promised them.
    ///
    /// ```
    /// use http_net_conn::{Config, Placement, PreparedResponse, ServerConn, ServerEvent};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let input = b"GET /file HTTP/1.1\r\nHost: a\r\n\r\n";
    /// assert_eq!(conn.recv(input), input.len());
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// let ok = PreparedResponse::new(200, &[]).unwrap();
    /// let placement = conn.responder().respond_head_only(&ok, 100_000).unwrap();
    /// assert_eq!(placement, Placement::AfterOutput);
    /// assert_eq!(conn.output().len(), conn.output_queued());
    /// assert_eq!(conn.body_owed(), Some(100_000));
    /// let n = conn.output().len();
    /// conn.consume_output(n); // the head is sent; then the 100,000 bytes
    /// assert_eq!(conn.body_owed(), None);
    /// ```
    ///
    /// A large piece of a streamed body, given when nothing was pending:
    ///
    /// ```
    /// use http_net_conn::{BodyLength, Config, Placement, ServerConn, ServerEvent};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let input = b"GET /file HTTP/1.1\r\nHost: a\r\n\r\n";
    /// assert_eq!(conn.recv(input), input.len());
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// conn.responder().send_head(200, &[], BodyLength::Known(100_000)).unwrap();
    /// let n = conn.output().len();
    /// conn.consume_output(n); // the head is sent
    /// let big = vec![b'x'; 100_000];
    /// let placement = conn.responder().send_data(&big).unwrap();
    /// assert_eq!(placement, Placement::AfterOutput);
    /// assert_eq!(conn.output(), b"");
    /// assert_eq!(conn.body_owed(), Some(100_000)); // on record
    /// // ... the caller writes `big` ...
    /// conn.consume_output(0); // and reports it sent
    /// assert_eq!(conn.body_owed(), None);
    /// ```
    pub fn body_owed(&self) -> Option<u64> {
        self.out.owed()
    }

    /// Where the answer to the current request stands: what an adapter
    /// checks after a handler returns (answer it, finish it, or close),
    /// without keeping a copy of the write state.
    pub fn answer_state(&self) -> AnswerState {
        self.ex.answer_state()
    }

    /// The status of the final response to the current request: the
    /// caller's (through the [`Responder`]: `2xx` to `5xx`, or `101`), or
    /// the error response the connection queued itself (for a peer error,
    /// [`reject`](ServerConn::reject), [`time_out`](ServerConn::time_out),
    /// a body over [`limit_body`](ServerConn::limit_body)). `None` while no
    /// final head is queued (informational responses do not count), and
    /// from the next request's head until it is answered: what an access
    /// log records once the answer is complete, without keeping a copy.
    ///
    /// ```
    /// use http_net_conn::{Config, PreparedResponse, ServerConn, ServerEvent};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /x HTTP/1.1\r\nHost: a\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// assert_eq!(conn.response_status(), None);
    /// conn.responder().send_informational(103, &[]).unwrap();
    /// assert_eq!(conn.response_status(), None); // not a final response
    /// let ok = PreparedResponse::new(204, &[]).unwrap();
    /// conn.responder().respond(&ok, b"").unwrap();
    /// assert_eq!(conn.response_status(), Some(204));
    ///
    /// // The next request: no answer yet, then the connection's own.
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// assert_eq!(conn.response_status(), None);
    /// conn.reject(503).unwrap();
    /// assert_eq!(conn.response_status(), Some(503));
    /// ```
    pub fn response_status(&self) -> Option<u16> {
        match self.ex.answer_state() {
            AnswerState::NotStarted => None,
            _ => Some(self.ex.status),
        }
    }

    /// Whether the current request has a body (a `Content-Length` above 0,
    /// or chunked).
    fn has_body(&self) -> bool {
        !matches!(self.input.body, BodyKind::None | BodyKind::Length(0))
    }

    /// The request body bytes surfaced for the current request so far (the
    /// sum of its [`ServerEvent::Data`] lengths; what the connection drains
    /// after the answer is not counted): 0 for a request without a body,
    /// and until the next request with one. What
    /// [`limit_body`](ServerConn::limit_body) compares with its limit.
    pub fn body_delivered(&self) -> u64 {
        if self.has_body() {
            self.ex.delivered
        } else {
            0
        }
    }

    /// Lowers the body limit of the current request to `max_bytes` (the
    /// configured [`body_budget`](http_net_framing::BodyLimits::body_budget)
    /// stays the ceiling, and a limit set before for this request can only
    /// be lowered): for a handler that accepts less on some paths than the
    /// server does. A body over it is refused as a body over the configured
    /// budget is, with `413 Content Too Large` (RFC 9110 §15.5.14): at once
    /// when the declared `Content-Length` or the bytes surfaced so far
    /// ([`body_delivered`](ServerConn::body_delivered)) are over it (before
    /// any `100 Continue`), otherwise from
    /// [`poll_event`](ServerConn::poll_event) at the `Data` that would take
    /// the count past it (that `Data` is not surfaced). Either way the error
    /// is `Error::Remote(RemoteError::Framing(BodyTooLarge))`, the `413` is
    /// queued when no answer has started (an answer that has is cut short),
    /// and the connection is [`failed`](ServerConn::failed).
    ///
    /// A no-op for a request without a body and once the answer is complete
    /// (or the connection closed): there is nothing left to bound.
    ///
    /// ```
    /// use http_net_conn::framing::Error as FramingError;
    /// use http_net_conn::{Config, Error, RemoteError, ServerConn, ServerEvent};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// conn.recv(b"POST /avatar HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// conn.limit_body(4).unwrap();
    /// assert_eq!(conn.body_budget(), Some(4));
    /// conn.recv(b"3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Data(b"abc"))));
    /// assert_eq!(conn.body_delivered(), 3);
    /// let too_large = Error::Remote(RemoteError::Framing(FramingError::BodyTooLarge));
    /// assert_eq!(conn.poll_event().unwrap_err(), too_large);
    /// assert_eq!(conn.response_status(), Some(413));
    /// assert!(conn.output().starts_with(b"HTTP/1.1 413 "));
    /// ```
    pub fn limit_body(&mut self, max_bytes: u64) -> Result<(), Error> {
        if !self.has_body() || !self.ex.req_alive() {
            return Ok(());
        }
        let limit = self.ex.body_limit.min(max_bytes);
        self.ex.body_limit = limit;
        let declared = match self.input.body {
            BodyKind::Length(n) => n,
            _ => 0,
        };
        if declared > limit || self.ex.delivered > limit {
            return Err(self.fail(RemoteError::Framing(FramingError::BodyTooLarge)));
        }
        Ok(())
    }

    /// The body budget of the current request: the lower of the configured
    /// [`body_budget`](http_net_framing::BodyLimits::body_budget) and the
    /// request's own [`limit_body`](ServerConn::limit_body); `None` when
    /// neither bounds it. What an adapter names when a body read fails with
    /// `BodyTooLarge`.
    pub fn body_budget(&self) -> Option<u64> {
        let ceiling = match self.ex.config.body_limits().body_budget() {
            0 => u64::MAX,
            n => n,
        };
        let own = if self.has_body() {
            self.ex.body_limit
        } else {
            u64::MAX
        };
        let budget = ceiling.min(own);
        (budget != u64::MAX).then_some(budget)
    }

    /// Whether `100 Continue` is still due before the request body is read:
    /// the request (HTTP/1.1) expects it (RFC 9110 §10.1.1), none was sent,
    /// no final answer has started, and body bytes are still expected. An
    /// adapter sends it ([`Responder::send_continue`]) on the handler's first
    /// body read.
    pub fn continue_due(&self) -> bool {
        self.ex.req.expects_continue
            && !self.ex.req.continue_sent
            && self.ex.body_pending()
            && self.ex.write == SWrite::Waiting
    }

    /// Whether `100 Continue` was sent for the current request.
    pub fn continue_sent(&self) -> bool {
        self.ex.req.continue_sent
    }

    /// Whether a peer error or [`reject`](ServerConn::reject) ended the
    /// connection (its error response, if one could still be sent, is
    /// queued in the output).
    pub fn failed(&self) -> bool {
        self.ex.persist == Persist::Failed
    }

    /// What the connection is waiting for (the joint rules still due are
    /// taken into account, so the answer does not depend on whether
    /// [`poll_event`](ServerConn::poll_event) ran since the last command).
    pub fn phase(&self) -> Phase {
        let between = if self.input.buf.has_unread() {
            Phase::Head
        } else {
            Phase::Idle
        };
        let ex = &self.ex;
        match server_joint(ex.read, ex.write, ex.persist) {
            _ if ex.persist == Persist::Failed => Phase::Draining,
            ServerJoint::Close | ServerJoint::StopReading => Phase::Closed,
            ServerJoint::Switch => Phase::Switched,
            ServerJoint::Cycle => between,
            ServerJoint::Drain => Phase::Body,
            ServerJoint::None => match ex.read {
                SRead::Closed => Phase::Closed,
                SRead::Switched => Phase::Switched,
                SRead::Idle => between,
                SRead::Body if !ex.body.pending() => Phase::Responding,
                SRead::Body | SRead::Drain => Phase::Body,
                SRead::Done => Phase::Responding,
            },
        }
    }

    /// Whether the connection must close once the output is sent (decided
    /// after every message: `Connection: close`, HTTP/1.0 without keep-alive,
    /// an error, an unread body past the drain bound, a close-delimited answer,
    /// a switch to another protocol).
    pub fn should_close(&self) -> bool {
        !self.ex.persist.keeps_alive() || matches!(self.ex.read, SRead::Closed | SRead::Switched)
    }

    /// Asks the connection to close after the current response (graceful
    /// shutdown: `Connection: close` is added to it, or the idle connection closes).
    pub fn close_after_response(&mut self) {
        self.ex.persist = self.ex.persist.close(CloseWhy::LocalAsked);
    }
}

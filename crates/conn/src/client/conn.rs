//! `ClientConn`: the client connection's state and its reading side (the
//! sending side in `send.rs`, the reuse and retry rules in `reuse.rs`).

use alloc::collections::VecDeque;

use http_net_framing::{response_body, BodyEncoder, BodyKind, ChunkedDecoder};
use http_net_head::{unfold_in_place, Method, Parsed, ResponseHead, ResponseParser, Version};

use crate::body::{BodyIn, BodyRead};
use crate::fields::{borrowed_event, input_commands, Ev, Input};
use crate::state::{
    client_joint, client_read, client_write, take, CRead, CReadEv, CWrite, CWriteEv, ClientJoint,
    CloseWhy, Persist,
};
use crate::writer::Output;
use crate::{Buffers, Config, Error, RemoteError, COPY_LIMIT};

use super::attempt::{Attempt, Deadlines, ExpectState};
use super::view::{ClientEvent, ResponseView};

/// Requests that may be outstanding at once on a client connection.
pub const MAX_PIPELINED: usize = 64;

/// What the response to a request depends on.
#[derive(Clone, Copy, Debug)]
pub(super) struct ReqMeta {
    pub(super) method: Method,
    /// `Upgrade` with `Connection: upgrade` was sent.
    pub(super) upgrade: bool,
    /// `Connection: close` was sent.
    pub(super) close: bool,
}

/// A Sans-IO HTTP/1.1 client connection. Requests may be pipelined; responses
/// are matched to them in order.
///
/// ```
/// use http_net_conn::{BodyLength, ClientConn, ClientEvent, Config};
///
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// conn.send_request(b"GET", b"/", &[(b"Host", b"a.example")], BodyLength::Empty).unwrap();
/// assert_eq!(conn.output(), b"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n");
/// let n = conn.output().len();
/// conn.consume_output(n);
///
/// let input = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
/// assert_eq!(conn.recv(input), input.len());
/// match conn.poll_event().unwrap() {
///     ClientEvent::Response(res) => assert_eq!(res.status(), 200),
///     other => panic!("unexpected {other:?}"),
/// }
/// assert!(matches!(conn.poll_event(), Ok(ClientEvent::Data(b"ok"))));
/// assert!(matches!(conn.poll_event(), Ok(ClientEvent::End(_))));
/// assert!(matches!(conn.poll_event(), Ok(ClientEvent::Idle)));
/// assert!(!conn.should_close());
/// ```
#[derive(Debug)]
pub struct ClientConn {
    pub(super) config: Config,
    pub(super) input: Input<ResponseParser, ResponseHead>,
    pub(super) out: Output,
    /// The read half's state, moved only through the table.
    pub(super) read: CRead,
    /// The response body (read half `Body`).
    pub(super) body_in: BodyIn,
    pub(super) chunked: ChunkedDecoder,
    /// The write half's state, moved only through the table.
    pub(super) write: CWrite,
    /// The request body's encoder (write half `Body`).
    pub(super) enc: BodyEncoder,
    pub(super) queue: VecDeque<ReqMeta>,
    pub(super) informational: usize,
    /// Whether the connection persists: the one answer to every question
    /// about closing.
    pub(super) persist: Persist,
    /// The latest request, as the retry and reuse rules read it.
    pub(super) attempt: Attempt,
    /// Where the latest request's `Expect: 100-continue` stands.
    pub(super) expect: ExpectState,
    /// A response ended on this connection: it is a reused one.
    pub(super) carried: bool,
    /// `carried` when the latest response head was read: that response
    /// came over a connection that had carried an earlier one.
    pub(super) reused: bool,
    /// The latest request's deadlines (`timeout.rs`).
    pub(super) clock: Deadlines,
}

impl ClientConn {
    /// A connection with its buffers allocated once, here.
    pub fn new(config: Config) -> ClientConn {
        let head = config.head_limits();
        ClientConn {
            config,
            input: Input::new(
                &config,
                ResponseParser::new(head, config.response_options()),
            ),
            out: Output::new(2 * COPY_LIMIT),
            read: CRead::Head,
            body_in: BodyIn::EMPTY,
            chunked: ChunkedDecoder::new(config.body_limits(), head),
            write: CWrite::Idle,
            enc: BodyEncoder::Discard(None),
            queue: VecDeque::with_capacity(MAX_PIPELINED),
            informational: 0,
            persist: Persist::KeepAlive,
            attempt: Attempt::default(),
            expect: ExpectState::None,
            carried: false,
            reused: false,
            clock: Deadlines::NONE,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Returns the connection to the state [`new`](ClientConn::new) leaves
    /// it in, for a new connection to a server, keeping its buffers (no
    /// allocation): every byte received or queued and every outstanding
    /// request is forgotten. The configuration stays.
    pub fn reset(&mut self) {
        self.input.reset();
        self.input.parser.reset();
        self.out.reset();
        self.read = CRead::Head;
        self.body_in = BodyIn::EMPTY;
        self.chunked = ChunkedDecoder::new(self.config.body_limits(), self.config.head_limits());
        self.write = CWrite::Idle;
        self.enc = BodyEncoder::Discard(None);
        self.queue.clear();
        self.informational = 0;
        self.persist = Persist::KeepAlive;
        self.attempt = Attempt::default();
        self.expect = ExpectState::None;
        self.carried = false;
        self.reused = false;
        self.clock = Deadlines::NONE;
    }

    /// Bytes waiting to be sent (up to where a body left to the caller goes).
    pub fn output(&self) -> &[u8] {
        self.out.pending()
    }

    /// Reports that the first `n` bytes of [`output`](ClientConn::output) were sent.
    pub fn consume_output(&mut self, n: usize) {
        if n > 0 {
            self.attempt.untouched = false;
        }
        self.out.consume(n);
    }

    /// The body bytes the caller still owes right after
    /// [`output`](ClientConn::output), as
    /// [`ServerConn::body_owed`](crate::ServerConn::body_owed) says for a
    /// server.
    pub fn body_owed(&self) -> Option<u64> {
        self.out.owed()
    }

    /// Lends the connection's buffers out (to a pool) while it is idle: no
    /// request outstanding, none being sent, no unread input, no output
    /// waiting (a pooled keep-alive connection between uses). `None`
    /// otherwise, or when they are lent already. While they are lent [`spare_mut`](ClientConn::spare_mut) is
    /// empty and [`recv`](ClientConn::recv) copies nothing; restore them
    /// before sending the next request (a request sent while they are lent
    /// goes into a new output buffer, an allocation, kept by the restore).
    /// See [`ServerConn::take_buffers`](crate::ServerConn::take_buffers) and
    /// [`Buffers`] for a pool.
    pub fn take_buffers(&mut self) -> Option<Buffers> {
        let idle = self.read == CRead::Head && self.write == CWrite::Idle && self.queue.is_empty();
        if !idle {
            return None;
        }
        crate::buffers::lend(&mut self.input, &mut self.out)
    }

    /// Takes buffers back after [`take_buffers`](ClientConn::take_buffers),
    /// as [`ServerConn::restore_buffers`](crate::ServerConn::restore_buffers)
    /// does.
    pub fn restore_buffers(&mut self, buffers: Buffers) -> Result<(), Buffers> {
        crate::buffers::restore(&mut self.input, &mut self.out, &self.config, buffers)
    }

    /// Whether the buffers are lent ([`take_buffers`](ClientConn::take_buffers)).
    pub fn buffers_lent(&self) -> bool {
        self.input.buf.is_lent()
    }

    fn takes_input(&self) -> bool {
        matches!(self.read, CRead::Head | CRead::Body)
    }

    /// Free space to read peer bytes into; empty once the connection reads
    /// nothing more.
    pub fn spare_mut(&mut self) -> &mut [u8] {
        if !self.takes_input() {
            return &mut [];
        }
        // An `End` still due refers to its trailers by offset: keep them.
        let trailers_due = self.read == CRead::Body && self.body_in.trailers_due();
        if !trailers_due {
            self.input.buf.make_room(None);
        }
        self.input.buf.spare()
    }

    input_commands!("ClientConn");

    /// Whether the connection must close (or may not be reused) once the
    /// current exchange is over.
    pub fn should_close(&self) -> bool {
        !self.persist.keeps_alive() || matches!(self.read, CRead::Closed | CRead::Switched)
    }

    /// Requests sent whose responses have not ended yet.
    pub fn outstanding(&self) -> usize {
        self.queue.len()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Result<ClientEvent<'_>, Error> {
        let ev = loop {
            if let Some(ev) = self.step()? {
                break ev;
            }
        };
        Ok(borrowed_event!(ClientEvent, ev, self.input, {
            Ev::Informational => self
                .view()
                .map_or(ClientEvent::NeedInput, ClientEvent::Informational),
            Ev::Head => self
                .view()
                .map_or(ClientEvent::NeedInput, ClientEvent::Response),
            Ev::Idle => ClientEvent::Idle,
            // A server-side outcome: never produced here.
            Ev::Paused => ClientEvent::NeedInput,
        }))
    }

    fn view(&self) -> Option<ResponseView<'_>> {
        self.input.received().map(ResponseView::new)
    }

    /// A move of the read half, taken from the table.
    #[inline(always)]
    fn move_read(&mut self, ev: CReadEv) {
        self.read = take(client_read(self.read, ev), CRead::Closed);
    }

    /// A move of the write half, taken from the table.
    #[inline(always)]
    pub(super) fn move_write(&mut self, ev: CWriteEv) {
        self.write = take(client_write(self.write, ev), CWrite::Closed);
    }

    /// Nothing more is read or written.
    pub(super) fn close(&mut self, why: CloseWhy) {
        self.persist = self.persist.close(why);
        self.move_read(CReadEv::Close);
        self.move_write(CWriteEv::Close);
    }

    pub(super) fn fail(&mut self, e: RemoteError) -> Error {
        self.close(CloseWhy::Ended);
        self.persist = Persist::Failed;
        Error::Remote(e)
    }

    /// One move of the read side; the joint rules ([`client_joint`]) first.
    fn step(&mut self) -> Result<Option<Ev>, Error> {
        if client_joint(self.read, self.write, self.persist) == ClientJoint::Close {
            let why = self.persist.why().unwrap_or(CloseWhy::Ended);
            self.close(why);
        }
        match self.read {
            CRead::Closed => Ok(Some(Ev::Closed)),
            CRead::Switched => Ok(Some(Ev::Switched)),
            CRead::Head => self.read_head(),
            CRead::Body => self.read_body(),
        }
    }

    fn read_head(&mut self) -> Result<Option<Ev>, Error> {
        // A closing response closed the connection in `step`: nothing after
        // it is a response (C112), and later requests are not answered.
        let Some(&front) = self.queue.front() else {
            if self.input.buf.has_unread() {
                return Err(self.fail(RemoteError::UnsolicitedResponse));
            }
            if self.input.buf.eof {
                self.close(CloseWhy::Ended);
                return Ok(Some(Ev::Closed));
            }
            return Ok(Some(Ev::Idle));
        };
        if !self.input.buf.has_unread() {
            if self.input.buf.eof {
                return Err(self.fail(RemoteError::UnexpectedEof));
            }
            return Ok(Some(Ev::NeedInput));
        }
        self.attempt.heard = true;
        let head = match self
            .input
            .parser
            .parse(self.input.buf.unread(), &mut self.input.fields)
        {
            Ok(Parsed::Complete(head)) => head,
            Ok(Parsed::Partial) if self.input.buf.eof => {
                return Err(self.fail(RemoteError::UnexpectedEof))
            }
            Ok(Parsed::Partial) if self.input.buf.is_stuck(None) => {
                return Err(self.fail(RemoteError::Head(http_net_head::Error::HeadTooLarge)))
            }
            Ok(Parsed::Partial) => return Ok(Some(Ev::NeedInput)),
            Err(e) => return Err(self.fail(RemoteError::Head(e))),
        };
        // The responses before this one have ended (they come in order).
        self.reused = self.carried;
        let at = self.input.buf.pos;
        if head.obs_fold {
            // A user agent replaces obs-fold with SP (RFC 9112 §5.2).
            let count = head.field_count.min(self.input.fields.len());
            let bytes = &mut self.input.buf.bytes_mut()[at..];
            for f in &self.input.fields[..count] {
                unfold_in_place(bytes, f.value);
            }
        }
        self.input.parser.reset();
        self.input.head_at = at;
        self.input.buf.pos += head.len;
        self.input.head = Some(head);
        match head.status {
            101 if front.upgrade => {
                if self.expect == ExpectState::Waiting {
                    self.expect = ExpectState::Final;
                }
                self.queue.pop_front();
                self.input.body = BodyKind::None;
                self.move_read(CReadEv::Switch);
                self.move_write(CWriteEv::Close);
                Ok(Some(Ev::Head))
            }
            101 => Err(self.fail(RemoteError::UnofferedUpgrade)),
            100..=199 => {
                self.informational += 1;
                if self.informational > self.config.max_informational() {
                    return Err(self.fail(RemoteError::TooManyInformational));
                }
                if head.status == 100 && self.expect == ExpectState::Waiting {
                    self.expect = ExpectState::Continue;
                }
                self.input.body = BodyKind::None;
                self.move_read(CReadEv::Info);
                Ok(Some(Ev::Informational))
            }
            _ => self.start_response(head, front),
        }
    }

    fn start_response(&mut self, head: ResponseHead, front: ReqMeta) -> Result<Option<Ev>, Error> {
        self.informational = 0;
        if self.expect == ExpectState::Waiting {
            self.expect = ExpectState::Final;
        }
        let hb = &self.input.buf.bytes()[self.input.head_at..];
        let fields = self.input.fields.get(..head.field_count).unwrap_or(&[]);
        let limits = self.config.body_limits();
        let kind = match response_body(
            front.method,
            head.status,
            head.version,
            &head.known,
            fields,
            hb,
            &limits,
        ) {
            Ok(kind) => kind,
            Err(e) => return Err(self.fail(RemoteError::Framing(e))),
        };
        self.input.body = kind;
        let conn = head.known.connection;
        let keep_alive = match head.version {
            Version::Http11 => !conn.close(),
            Version::Http10 => conn.keep_alive() && !conn.close(),
        };
        self.persist = self
            .persist
            .close_if(!keep_alive, CloseWhy::PeerAsked)
            .close_if(front.close, CloseWhy::LocalAsked)
            .close_if(kind == BodyKind::CloseDelimited, CloseWhy::CloseDelimited);
        let body = match kind {
            BodyKind::Tunnel => {
                self.queue.pop_front();
                self.move_read(CReadEv::Switch);
                self.move_write(CWriteEv::Close);
                return Ok(Some(Ev::Head));
            }
            _ => BodyIn::start(kind, &mut self.chunked, &self.config, head.len),
        };
        self.body_in = body;
        self.move_read(CReadEv::Response);
        Ok(Some(Ev::Head))
    }

    fn read_body(&mut self) -> Result<Option<Ev>, Error> {
        if let BodyIn::EndDue { base, count } = self.body_in {
            self.queue.pop_front();
            self.carried = true;
            self.move_read(CReadEv::End);
            return Ok(Some(Ev::End { base, count }));
        }
        match self.body_in.step(
            &mut self.input.buf,
            &mut self.chunked,
            &mut self.input.trailers,
            None,
        ) {
            Ok(BodyRead::Data(range)) => Ok(Some(Ev::Data(range))),
            Ok(BodyRead::Moved) => Ok(None),
            Ok(BodyRead::NeedInput) => Ok(Some(Ev::NeedInput)),
            Err(e) => Err(self.fail(e)),
        }
    }
}

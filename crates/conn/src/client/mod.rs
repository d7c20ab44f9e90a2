//! The client connection: requests in, bytes out; bytes in, response events
//! out. Responses are matched to the outstanding requests in order.

mod send;
mod view;

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use http_net_framing::{response_body, BodyKind, ChunkedDecoder, LengthDecoder};
use http_net_head::{
    unfold_in_place, Field, Method, ResponseHead, ResponseOptions, ResponseParser, Status, Version,
};

use crate::inbuf::InBuf;
use crate::state::{
    client_joint, client_read, client_write, take, CRead, CReadEv, CWrite, CWriteEv, ClientJoint,
    CloseWhy, Persist,
};
use crate::writer::{Encoder, Output};
use crate::{Config, Error, RemoteError, Trailers, COPY_LIMIT};

pub use view::{ClientEvent, ResponseView};

/// Requests that may be outstanding at once on a client connection.
pub const MAX_PIPELINED: usize = 64;

/// What the response to a request depends on.
#[derive(Clone, Copy, Debug)]
struct ReqMeta {
    method: Method,
    /// `Upgrade` with `Connection: upgrade` was sent.
    upgrade: bool,
    /// `Connection: close` was sent.
    close: bool,
}

/// How the response body is read.
#[derive(Clone, Debug)]
enum Decoder {
    Length(LengthDecoder),
    /// Chunked: the decoder is `ClientConn::chunked` (220 bytes, kept out of
    /// the enum so that a state move copies a few words).
    Chunked,
    /// Until the peer closes.
    Close,
    /// Read; `End` is due with `count` trailers relative to offset `base`.
    Finished {
        base: usize,
        count: usize,
    },
}

impl Decoder {
    const EMPTY: Decoder = Decoder::Finished { base: 0, count: 0 };
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Ev {
    Informational,
    Response,
    Data(Range<usize>),
    End { base: usize, count: usize },
    Switched,
    NeedInput,
    Idle,
    Closed,
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
/// conn.recv(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
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
    config: Config,
    buf: InBuf,
    parser: ResponseParser,
    fields: Vec<Field>,
    trailers: Vec<Field>,
    head: Option<ResponseHead>,
    head_at: usize,
    body: BodyKind,
    out: Output,
    /// The read half's state, moved only through the table.
    read: CRead,
    /// The response body's decoder (read half `Body`).
    dec: Decoder,
    chunked: ChunkedDecoder,
    /// The write half's state, moved only through the table.
    write: CWrite,
    /// The request body's encoder (write half `Body`).
    enc: Encoder,
    queue: VecDeque<ReqMeta>,
    informational: usize,
    /// Whether the connection persists: the one answer to every question
    /// about closing.
    persist: Persist,
}

impl ClientConn {
    /// A connection with its buffers allocated once, here.
    pub fn new(config: Config) -> ClientConn {
        let head = config.head_limits();
        ClientConn {
            config,
            buf: InBuf::new(head.max_head_bytes(), config.read_chunk()),
            parser: ResponseParser::new(head, ResponseOptions::default()),
            fields: vec![Field::default(); head.max_fields()],
            trailers: vec![Field::default(); head.max_fields()],
            head: None,
            head_at: 0,
            body: BodyKind::None,
            out: Output::new(2 * COPY_LIMIT),
            read: CRead::Head,
            dec: Decoder::EMPTY,
            chunked: ChunkedDecoder::new(config.body_limits(), head),
            write: CWrite::Idle,
            enc: Encoder::Drop(None),
            queue: VecDeque::with_capacity(MAX_PIPELINED),
            informational: 0,
            persist: Persist::KeepAlive,
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
        self.buf.reset();
        self.parser.reset();
        self.head = None;
        self.head_at = 0;
        self.body = BodyKind::None;
        self.out.reset();
        self.read = CRead::Head;
        self.dec = Decoder::EMPTY;
        self.chunked = ChunkedDecoder::new(self.config.body_limits(), self.config.head_limits());
        self.write = CWrite::Idle;
        self.enc = Encoder::Drop(None);
        self.queue.clear();
        self.informational = 0;
        self.persist = Persist::KeepAlive;
    }

    /// Bytes waiting to be sent (up to where a body left to the caller goes).
    pub fn output(&self) -> &[u8] {
        self.out.pending()
    }

    /// Reports that the first `n` bytes of [`output`](ClientConn::output) were sent.
    pub fn consume_output(&mut self, n: usize) {
        self.out.consume(n);
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
        let trailers_due =
            self.read == CRead::Body && matches!(self.dec, Decoder::Finished { count: 1.., .. });
        if !trailers_due {
            self.buf.make_room(None);
        }
        self.buf.spare()
    }

    /// Reports `n` bytes written into [`spare_mut`](ClientConn::spare_mut).
    pub fn commit(&mut self, n: usize) {
        if self.takes_input() {
            self.buf.commit(n);
        }
    }

    /// Copies as much of `bytes` as fits into the input buffer; returns how many.
    pub fn recv(&mut self, bytes: &[u8]) -> usize {
        let n = crate::inbuf::copy_what_fits(self.spare_mut(), bytes);
        self.commit(n);
        n
    }

    /// The peer closed its sending side (ends a close-delimited body).
    pub fn recv_eof(&mut self) {
        self.buf.eof = true;
    }

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
        Ok(match ev {
            Ev::Informational => self
                .view()
                .map_or(ClientEvent::NeedInput, ClientEvent::Informational),
            Ev::Response => self
                .view()
                .map_or(ClientEvent::NeedInput, ClientEvent::Response),
            Ev::Data(range) => ClientEvent::Data(self.buf.bytes().get(range).unwrap_or(&[])),
            Ev::End { count: 0, .. } => ClientEvent::End(Trailers::EMPTY),
            Ev::End { base, count } => {
                let buf = self.buf.bytes().get(base..).unwrap_or(&[]);
                ClientEvent::End(Trailers::new(
                    buf,
                    self.trailers.get(..count).unwrap_or(&[]),
                ))
            }
            Ev::Switched => ClientEvent::Switched(self.buf.unread()),
            Ev::NeedInput => ClientEvent::NeedInput,
            Ev::Idle => ClientEvent::Idle,
            Ev::Closed => ClientEvent::Closed,
        })
    }

    fn view(&self) -> Option<ResponseView<'_>> {
        let head = self.head.as_ref()?;
        let buf = self
            .buf
            .bytes()
            .get(self.head_at..self.head_at + head.len)?;
        Some(ResponseView::new(buf, head, &self.fields, self.body))
    }

    /// A move of the read half, taken from the table.
    #[inline(always)]
    fn move_read(&mut self, ev: CReadEv) {
        self.read = take(client_read(self.read, ev), CRead::Closed);
    }

    /// A move of the write half, taken from the table.
    #[inline(always)]
    fn move_write(&mut self, ev: CWriteEv) {
        self.write = take(client_write(self.write, ev), CWrite::Closed);
    }

    /// Nothing more is read or written.
    fn close(&mut self, why: CloseWhy) {
        self.persist = self.persist.close(why);
        self.move_read(CReadEv::Close);
        self.move_write(CWriteEv::Close);
    }

    fn fail(&mut self, e: RemoteError) -> Error {
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
            if self.buf.has_unread() {
                return Err(self.fail(RemoteError::UnsolicitedResponse));
            }
            if self.buf.eof {
                self.close(CloseWhy::Ended);
                return Ok(Some(Ev::Closed));
            }
            return Ok(Some(Ev::Idle));
        };
        if !self.buf.has_unread() {
            if self.buf.eof {
                return Err(self.fail(RemoteError::UnexpectedEof));
            }
            return Ok(Some(Ev::NeedInput));
        }
        let head = match self.parser.parse(self.buf.unread(), &mut self.fields) {
            Ok(Status::Complete(head)) => head,
            Ok(Status::Partial) if self.buf.eof => {
                return Err(self.fail(RemoteError::UnexpectedEof))
            }
            Ok(Status::Partial) if self.buf.is_stuck(None) => {
                return Err(self.fail(RemoteError::Head(http_net_head::Error::HeadTooLarge)))
            }
            Ok(Status::Partial) => return Ok(Some(Ev::NeedInput)),
            Err(e) => return Err(self.fail(RemoteError::Head(e))),
        };
        let at = self.buf.pos;
        if head.obs_fold {
            // A user agent replaces obs-fold with SP (RFC 9112 §5.2).
            let count = head.field_count.min(self.fields.len());
            let bytes = &mut self.buf.bytes_mut()[at..];
            for f in &self.fields[..count] {
                unfold_in_place(bytes, f.value);
            }
        }
        self.parser.reset();
        self.head_at = at;
        self.buf.pos += head.len;
        self.head = Some(head);
        match head.status {
            101 if front.upgrade => {
                self.queue.pop_front();
                self.body = BodyKind::None;
                self.move_read(CReadEv::Switch);
                self.move_write(CWriteEv::Close);
                Ok(Some(Ev::Response))
            }
            101 => Err(self.fail(RemoteError::UnofferedUpgrade)),
            100..=199 => {
                self.informational += 1;
                if self.informational > self.config.max_informational() {
                    return Err(self.fail(RemoteError::TooManyInformational));
                }
                self.body = BodyKind::None;
                self.move_read(CReadEv::Info);
                Ok(Some(Ev::Informational))
            }
            _ => self.start_response(head, front),
        }
    }

    fn start_response(&mut self, head: ResponseHead, front: ReqMeta) -> Result<Option<Ev>, Error> {
        self.informational = 0;
        let hb = &self.buf.bytes()[self.head_at..];
        let fields = self.fields.get(..head.field_count).unwrap_or(&[]);
        let limits = self.config.body_limits();
        let kind = match response_body(
            front.method,
            head.status,
            head.version,
            &head.facts,
            fields,
            hb,
            &limits,
        ) {
            Ok(kind) => kind,
            Err(e) => return Err(self.fail(RemoteError::Framing(e))),
        };
        self.body = kind;
        let conn = head.facts.connection;
        let keep_alive = match head.version {
            Version::Http11 => !conn.close(),
            Version::Http10 => conn.keep_alive() && !conn.close(),
        };
        self.persist = self
            .persist
            .close_if(!keep_alive, CloseWhy::PeerAsked)
            .close_if(front.close, CloseWhy::LocalAsked)
            .close_if(kind == BodyKind::CloseDelimited, CloseWhy::CloseDelimited);
        let dec = match kind {
            BodyKind::Tunnel => {
                self.queue.pop_front();
                self.move_read(CReadEv::Switch);
                self.move_write(CWriteEv::Close);
                return Ok(Some(Ev::Response));
            }
            BodyKind::Length(n) if n > 0 => Decoder::Length(LengthDecoder::new(n)),
            BodyKind::Chunked => {
                let head_limits = self.config.head_limits();
                let room = head_limits.max_head_bytes().saturating_sub(head.len);
                self.chunked = ChunkedDecoder::new(limits, head_limits.with_max_head_bytes(room));
                Decoder::Chunked
            }
            BodyKind::CloseDelimited => Decoder::Close,
            _ => Decoder::Finished { base: 0, count: 0 },
        };
        self.dec = dec;
        self.move_read(CReadEv::Response);
        Ok(Some(Ev::Response))
    }

    fn read_body(&mut self) -> Result<Option<Ev>, Error> {
        let dec = &mut self.dec;
        let start = self.buf.pos;
        let (consumed, data, done, trailers) = match dec {
            Decoder::Finished { base, count } => {
                let ev = Ev::End {
                    base: *base,
                    count: *count,
                };
                self.queue.pop_front();
                self.move_read(CReadEv::End);
                return Ok(Some(ev));
            }
            Decoder::Length(d) => {
                let step = d.decode(self.buf.unread());
                (step.consumed, step.data, step.done, 0)
            }
            Decoder::Chunked => match self.chunked.decode(self.buf.unread(), &mut self.trailers) {
                Ok(step) => (
                    step.consumed,
                    step.data,
                    step.done,
                    step.trailers.map_or(0, |t| t.field_count),
                ),
                Err(e) => return Err(self.fail(RemoteError::Framing(e))),
            },
            Decoder::Close => {
                let n = self.buf.unread().len();
                (n, 0..n, n == 0 && self.buf.eof, 0)
            }
        };
        self.buf.pos += consumed;
        if done {
            *dec = Decoder::Finished {
                base: start,
                count: trailers,
            };
        }
        if !data.is_empty() {
            Ok(Some(Ev::Data(start + data.start..start + data.end)))
        } else if done || consumed > 0 {
            Ok(None)
        } else if self.buf.eof {
            // A truncated body is never complete (RFC 9112 §8, C106).
            Err(self.fail(RemoteError::UnexpectedEof))
        } else if self.buf.is_stuck(None) {
            Err(self.fail(RemoteError::Head(http_net_head::Error::HeadTooLarge)))
        } else {
            Ok(Some(Ev::NeedInput))
        }
    }
}

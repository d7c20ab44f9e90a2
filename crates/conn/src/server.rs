use core::marker::PhantomData;

use http_net_framing::BodyKind;
use http_net_head::{Field, Method, RequestHead, TargetForm, Version};

use crate::{BodyLength, Config, Error, FieldPair, Placement, Response};

/// What a server connection is waiting for: the adapter picks its timeout
/// from this (idle keep-alive, head deadline, body read, write, drain).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Between requests: no byte of the next request yet.
    Idle,
    /// Part of a request head has arrived.
    Head,
    /// Reading (or draining) a request body.
    Body,
    /// The request is read; the application has not finished its answer.
    Responding,
    /// An error response is queued: send it, half-close, drain the peer's
    /// input for a bounded time, then close.
    Draining,
    /// The connection was handed over after a 101 or a 2xx to CONNECT.
    Switched,
    /// Done: close the socket once the output is sent.
    Closed,
}

/// An event of a server connection.
#[derive(Debug)]
pub enum ServerEvent<'a> {
    /// A request head was read; the body (if any) follows as `Data` events.
    Request(RequestView<'a>),
    /// Request body bytes, borrowed from the input buffer.
    Data(&'a [u8]),
    /// The request is complete, with its trailers (often empty).
    End(Trailers<'a>),
    /// HTTP is over on this connection (after a 101, or a 2xx to CONNECT):
    /// these bytes arrived after the request and belong to the new protocol.
    Switched(&'a [u8]),
    /// More input is needed.
    NeedInput,
    /// The application must finish the current response (and the output be
    /// sent) before the next request is surfaced.
    Paused,
    /// The connection is finished; close it once the output is sent.
    Closed,
}

/// A received request head, borrowed from the connection's input buffer.
#[derive(Clone, Copy, Debug)]
pub struct RequestView<'a> {
    buf: &'a [u8],
    head: &'a RequestHead,
    fields: &'a [Field],
    body: BodyKind,
}

impl<'a> RequestView<'a> {
    /// The parsed head (spans into [`RequestView::buf`]).
    pub fn head(&self) -> &'a RequestHead {
        self.head
    }
    /// The buffer the spans refer to.
    pub fn buf(&self) -> &'a [u8] {
        self.buf
    }
    /// The field storage, `head().field_count` entries.
    pub fn field_spans(&self) -> &'a [Field] {
        self.fields
    }
    /// The method.
    pub fn method(&self) -> Method {
        self.head.method
    }
    /// The method's bytes.
    pub fn method_bytes(&self) -> &'a [u8] {
        self.head.method_span.get(self.buf)
    }
    /// The request target, as received.
    pub fn target(&self) -> &'a [u8] {
        self.head.target.get(self.buf)
    }
    /// The target's form.
    pub fn target_form(&self) -> TargetForm {
        self.head.target_form
    }
    /// The version.
    pub fn version(&self) -> Version {
        self.head.version
    }
    /// The fields as (name, value) bytes, in received order.
    pub fn fields(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + 'a {
        let buf = self.buf;
        self.fields.iter().map(move |f| (f.name.get(buf), f.value.get(buf)))
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &[u8]) -> Option<&'a [u8]> {
        self.fields().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }
    /// How the request body is delimited.
    pub fn body_kind(&self) -> BodyKind {
        self.body
    }
}

/// The trailer fields that ended a chunked request (empty otherwise).
#[derive(Clone, Copy, Debug)]
pub struct Trailers<'a> {
    buf: &'a [u8],
    fields: &'a [Field],
}

impl<'a> Trailers<'a> {
    /// The trailer fields as (name, value) bytes, in received order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + 'a {
        let buf = self.buf;
        self.fields.iter().map(move |f| (f.name.get(buf), f.value.get(buf)))
    }
    /// Whether there were no trailer fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
}

/// The answering half of a server connection, usable while the request is
/// borrowed (see [`ServerConn::parts`]).
#[derive(Debug)]
pub struct Responder<'a> {
    _conn: PhantomData<&'a mut ()>,
}

impl Responder<'_> {
    /// Queues `100 Continue` (never to an HTTP/1.0 peer: then a no-op).
    pub fn send_continue(&mut self) -> Result<(), Error> {
        todo!("issue 4")
    }
    /// Queues an informational (1xx) response with fields, e.g. `103 Early
    /// Hints` (never to an HTTP/1.0 peer: then a no-op).
    pub fn send_informational(&mut self, status: u16, fields: &[FieldPair<'_>]) -> Result<(), Error> {
        let _ = (status, fields);
        todo!("issue 4")
    }
    /// Answers with a prebuilt response and a whole body. `Content-Length` is
    /// written for it; no body leaves for HEAD, 1xx, 204 or 304.
    pub fn respond(&mut self, response: &Response, body: &[u8]) -> Result<Placement, Error> {
        let _ = (response, body);
        todo!("issue 4")
    }
    /// Writes a response head with borrowed fields, validated on this call;
    /// the body follows with [`send_data`](Responder::send_data) and
    /// [`send_end`](Responder::send_end) (`BodyLength::Known` for a head-only
    /// answer whose body the caller sends itself).
    pub fn send_head(&mut self, status: u16, fields: &[FieldPair<'_>], body: BodyLength) -> Result<(), Error> {
        let _ = (status, fields, body);
        todo!("issue 4")
    }
    /// Sends body bytes of the current response.
    pub fn send_data(&mut self, data: &[u8]) -> Result<Placement, Error> {
        let _ = data;
        todo!("issue 4")
    }
    /// Ends the current response, with trailers if it is chunked.
    pub fn send_end(&mut self, trailers: &[FieldPair<'_>]) -> Result<(), Error> {
        let _ = trailers;
        todo!("issue 4")
    }
}

/// A Sans-IO HTTP/1.1 server connection.
#[derive(Debug)]
pub struct ServerConn {
    config: Config,
}

impl ServerConn {
    /// A connection with its buffers allocated once, here.
    pub fn new(config: Config) -> ServerConn {
        ServerConn { config }
    }
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Free space to read peer bytes into (compacting the buffer first if it
    /// must); empty while the connection will not take input.
    pub fn spare_mut(&mut self) -> &mut [u8] {
        todo!("issue 4")
    }
    /// Reports `n` bytes written into [`spare_mut`](ServerConn::spare_mut).
    pub fn commit(&mut self, n: usize) {
        let _ = n;
        todo!("issue 4")
    }
    /// Copies as much of `bytes` as fits into the input buffer; returns how many.
    pub fn recv(&mut self, bytes: &[u8]) -> usize {
        let _ = bytes;
        todo!("issue 4")
    }
    /// The peer closed its sending side.
    pub fn recv_eof(&mut self) {
        todo!("issue 4")
    }
    /// The next event. A malformed request yields `Err(Error::Remote(_))` once,
    /// with the matching error response queued in the output; the connection
    /// is then [`Phase::Draining`].
    pub fn poll_event(&mut self) -> Result<ServerEvent<'_>, Error> {
        todo!("issue 4")
    }
    /// The current request, from its head until the response is complete.
    pub fn request(&self) -> Option<RequestView<'_>> {
        todo!("issue 4")
    }
    /// The current request and the answering half, borrowed together.
    pub fn parts(&mut self) -> (Option<RequestView<'_>>, Responder<'_>) {
        todo!("issue 4")
    }
    /// The answering half alone.
    pub fn responder(&mut self) -> Responder<'_> {
        self.parts().1
    }
    /// Sets the 29-byte IMF-fixdate written as `Date` in every response head
    /// (the adapter formats it at most once a second).
    pub fn set_date(&mut self, date: &[u8; 29]) {
        let _ = date;
        todo!("issue 4")
    }
    /// Zero consumed input and sent output from now on.
    pub fn set_wipe(&mut self, wipe: bool) {
        let _ = wipe;
        todo!("issue 4")
    }
    /// Bytes waiting to be sent.
    pub fn output(&self) -> &[u8] {
        todo!("issue 4")
    }
    /// Reports that the first `n` bytes of [`output`](ServerConn::output) were sent.
    pub fn consume_output(&mut self, n: usize) {
        let _ = n;
        todo!("issue 4")
    }
    /// What the connection is waiting for.
    pub fn phase(&self) -> Phase {
        todo!("issue 4")
    }
    /// Whether the connection must close once the output is sent (decided
    /// after every message: `Connection: close`, HTTP/1.0 without keep-alive,
    /// an error, an unread body past the drain bound, a close-delimited answer).
    pub fn should_close(&self) -> bool {
        todo!("issue 4")
    }
    /// Asks the connection to close after the current response (graceful
    /// shutdown: `Connection: close` is added to it, or the idle connection closes).
    pub fn close_after_response(&mut self) {
        todo!("issue 4")
    }
}

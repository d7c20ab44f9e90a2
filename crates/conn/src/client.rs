use http_net_framing::BodyKind;
use http_net_head::{Field, ResponseHead, Version};

use crate::{BodyLength, Config, Error, FieldPair, Placement, Trailers};

/// An event of a client connection.
#[derive(Debug)]
pub enum ClientEvent<'a> {
    /// An informational (1xx, not 101) response to the current request.
    Informational(ResponseView<'a>),
    /// The final response head; its body follows as `Data` events.
    Response(ResponseView<'a>),
    /// Response body bytes, borrowed from the input buffer.
    Data(&'a [u8]),
    /// The response is complete, with its trailers (often empty).
    End(Trailers<'a>),
    /// A 101 to a request that offered an upgrade, or a 2xx to CONNECT: these
    /// bytes arrived after the head and belong to the new protocol.
    Switched(&'a [u8]),
    /// More input is needed.
    NeedInput,
    /// No request is outstanding.
    Idle,
    /// The connection is finished.
    Closed,
}

/// A received response head, borrowed from the connection's input buffer.
#[derive(Clone, Copy, Debug)]
pub struct ResponseView<'a> {
    buf: &'a [u8],
    head: &'a ResponseHead,
    fields: &'a [Field],
    body: BodyKind,
}

impl<'a> ResponseView<'a> {
    /// The parsed head.
    pub fn head(&self) -> &'a ResponseHead {
        self.head
    }
    /// The status code.
    pub fn status(&self) -> u16 {
        self.head.status
    }
    /// The reason phrase.
    pub fn reason(&self) -> &'a [u8] {
        self.head.reason.get(self.buf)
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
    /// How the response body is delimited.
    pub fn body_kind(&self) -> BodyKind {
        self.body
    }
}

/// A Sans-IO HTTP/1.1 client connection. Requests may be pipelined; responses
/// are matched to them in order.
#[derive(Debug)]
pub struct ClientConn {
    config: Config,
}

impl ClientConn {
    /// A connection with its buffers allocated once, here.
    pub fn new(config: Config) -> ClientConn {
        ClientConn { config }
    }
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Writes a request head (HTTP/1.1). The method must be a token and the
    /// target a valid request-target; `fields` must include `Host`. The body
    /// follows with [`send_data`](ClientConn::send_data) and
    /// [`send_end`](ClientConn::send_end).
    pub fn send_request(
        &mut self,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        body: BodyLength,
    ) -> Result<(), Error> {
        let _ = (method, target, fields, body);
        todo!("issue 4")
    }
    /// Sends body bytes of the current request.
    pub fn send_data(&mut self, data: &[u8]) -> Result<Placement, Error> {
        let _ = data;
        todo!("issue 4")
    }
    /// Ends the current request, with trailers if it is chunked.
    pub fn send_end(&mut self, trailers: &[FieldPair<'_>]) -> Result<(), Error> {
        let _ = trailers;
        todo!("issue 4")
    }
    /// Bytes waiting to be sent.
    pub fn output(&self) -> &[u8] {
        todo!("issue 4")
    }
    /// Reports that the first `n` bytes of [`output`](ClientConn::output) were sent.
    pub fn consume_output(&mut self, n: usize) {
        let _ = n;
        todo!("issue 4")
    }
    /// Free space to read peer bytes into.
    pub fn spare_mut(&mut self) -> &mut [u8] {
        todo!("issue 4")
    }
    /// Reports `n` bytes written into [`spare_mut`](ClientConn::spare_mut).
    pub fn commit(&mut self, n: usize) {
        let _ = n;
        todo!("issue 4")
    }
    /// Copies as much of `bytes` as fits into the input buffer; returns how many.
    pub fn recv(&mut self, bytes: &[u8]) -> usize {
        let _ = bytes;
        todo!("issue 4")
    }
    /// The peer closed its sending side (ends a close-delimited body).
    pub fn recv_eof(&mut self) {
        todo!("issue 4")
    }
    /// The next event.
    pub fn poll_event(&mut self) -> Result<ClientEvent<'_>, Error> {
        todo!("issue 4")
    }
    /// Whether the connection must close (or may not be reused) once the
    /// current exchange is over.
    pub fn should_close(&self) -> bool {
        todo!("issue 4")
    }
}

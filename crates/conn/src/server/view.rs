use http_net_framing::BodyKind;
use http_net_head::{Field, Method, RequestHead, TargetForm, Version};

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

/// Where the answer to the current request stands
/// ([`ServerConn::answer_state`](crate::ServerConn::answer_state)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerState {
    /// No final answer has been queued (an informational one may have been).
    NotStarted,
    /// A final head is queued and its body is not complete. If the
    /// connection is closed in this state, the answer was cut short.
    Started,
    /// The response is complete (written by the application, or an error
    /// response written by the connection).
    Complete,
    /// A 101, or a 2xx to CONNECT, was queued: the connection is handed over.
    Switched,
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
    expects_continue: bool,
}

impl<'a> RequestView<'a> {
    pub(crate) fn new(
        buf: &'a [u8],
        head: &'a RequestHead,
        fields: &'a [Field],
        body: BodyKind,
        expects_continue: bool,
    ) -> RequestView<'a> {
        let fields = fields.get(..head.field_count).unwrap_or(fields);
        RequestView {
            buf,
            head,
            fields,
            body,
            expects_continue,
        }
    }
    /// Whether the request expects `100 Continue` (HTTP/1.1 and every
    /// member of every `Expect` line is `100-continue`, RFC 9110 §10.1.1;
    /// the connection answered any other expectation `417` before
    /// surfacing the request). Decided once, by the connection: an adapter
    /// never parses `Expect` again.
    pub fn expects_continue(&self) -> bool {
        self.expects_continue
    }
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
        field_pairs(self.buf, self.fields)
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &[u8]) -> Option<&'a [u8]> {
        find_field(self.buf, self.fields, name)
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

impl Trailers<'static> {
    /// No trailer fields.
    pub const EMPTY: Trailers<'static> = Trailers {
        buf: &[],
        fields: &[],
    };
}

impl<'a> Trailers<'a> {
    pub(crate) fn new(buf: &'a [u8], fields: &'a [Field]) -> Trailers<'a> {
        Trailers { buf, fields }
    }
    /// The value of the first trailer named `name` (ASCII case-insensitive).
    pub fn get(&self, name: &[u8]) -> Option<&'a [u8]> {
        find_field(self.buf, self.fields, name)
    }
    /// How many trailer fields there were.
    pub fn len(&self) -> usize {
        self.fields.len()
    }
    /// The trailer fields as (name, value) bytes, in received order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + 'a {
        field_pairs(self.buf, self.fields)
    }
    /// Whether there were no trailer fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
}

/// The fields as (name, value) bytes, in received order: shared by the
/// request and response views and the trailers.
pub(crate) fn field_pairs<'a>(
    buf: &'a [u8],
    fields: &'a [Field],
) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + 'a {
    fields
        .iter()
        .map(move |f| (f.name.get(buf), f.value.get(buf)))
}

/// The value of the first field named `name` (ASCII case-insensitive).
pub(crate) fn find_field<'a>(buf: &'a [u8], fields: &'a [Field], name: &[u8]) -> Option<&'a [u8]> {
    field_pairs(buf, fields)
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

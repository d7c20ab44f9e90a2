use http_net_framing::BodyKind;
use http_net_head::{Field, ResponseHead, Version};

use crate::server::{field_pairs, find_field};
use crate::Trailers;

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
    /// After the `Response` event of a 101 to a request that offered an
    /// upgrade, or of a 2xx to CONNECT: HTTP is over, and these bytes arrived
    /// after the head and belong to the new protocol.
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
    pub(crate) fn new(
        buf: &'a [u8],
        head: &'a ResponseHead,
        fields: &'a [Field],
        body: BodyKind,
    ) -> ResponseView<'a> {
        let fields = fields.get(..head.field_count).unwrap_or(fields);
        ResponseView {
            buf,
            head,
            fields,
            body,
        }
    }
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
        field_pairs(self.buf, self.fields)
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &[u8]) -> Option<&'a [u8]> {
        find_field(self.buf, self.fields, name)
    }
    /// How the response body is delimited.
    pub fn body_kind(&self) -> BodyKind {
        self.body
    }
}

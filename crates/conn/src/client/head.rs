//! The response head both adapters' `ClientResponse` hold and expose (by
//! `Deref`), copied out of the connection's buffer, with the trailers once
//! the body ended.

use alloc::vec::Vec;

use http_net_head::Version;

use super::view::ResponseView;
use crate::owned_fields::OwnedFields;

/// A response's head as a client hands it out: status, version, reason,
/// fields, the transfer codings its body still carries, whether it came
/// over a reused connection, and the trailers once its body ended. The
/// adapters' `ClientResponse` dereferences to it, so these are the
/// response's methods.
///
/// ```
/// use http_net_conn::{BodyLength, ClientConn, ClientEvent, ClientHead, Config};
///
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// conn.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty).unwrap();
/// let _ = conn.recv(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
/// let mut head = ClientHead::default();
/// if let Ok(ClientEvent::Response(view)) = conn.poll_event() {
///     head.fill(&view);
/// }
/// assert_eq!((head.status(), head.reason()), (404, &b"Not Found"[..]));
/// assert_eq!(head.field(b"content-length"), Some(&b"0"[..]));
/// assert!(!head.reused());
/// ```
#[derive(Clone, Debug)]
pub struct ClientHead {
    status: u16,
    version: Version,
    reason: Vec<u8>,
    fields: OwnedFields,
    codings: Vec<Vec<u8>>,
    reused: bool,
    trailers: OwnedFields,
}

impl Default for ClientHead {
    fn default() -> ClientHead {
        ClientHead {
            status: 0,
            version: Version::Http11,
            reason: Vec::new(),
            fields: OwnedFields::new(),
            codings: Vec::new(),
            reused: false,
            trailers: OwnedFields::new(),
        }
    }
}

impl ClientHead {
    /// Copies `view` in, reusing the memory this head holds (no allocation
    /// when the head is no larger than the one before it); the trailers
    /// are cleared and `reused` is false until [`set_reused`](ClientHead::set_reused).
    pub fn fill(&mut self, view: &ResponseView<'_>) {
        self.status = view.status();
        self.version = view.version();
        self.reason.clear();
        self.reason.extend_from_slice(view.reason());
        self.fields.refill(view.fields());
        self.codings.clear();
        self.codings
            .extend(view.transfer_codings().map(<[u8]>::to_vec));
        self.reused = false;
        self.trailers.clear();
    }

    /// Records whether the response came over a connection that had
    /// carried an earlier one ([`ClientConn::reused`](crate::ClientConn::reused),
    /// read when the head was).
    pub fn set_reused(&mut self, reused: bool) {
        self.reused = reused;
    }

    /// Keeps the trailers of the body that ended.
    pub fn set_trailers<'a>(&mut self, trailers: impl IntoIterator<Item = (&'a [u8], &'a [u8])>) {
        self.trailers.refill(trailers);
    }

    /// The transfer codings, taken out, when the client refuses them (it
    /// does unless `accept` them): the codings for the adapter's
    /// `Error::UnsupportedTransferCoding`.
    pub fn refused_codings(&mut self, accept: bool) -> Option<Vec<Vec<u8>>> {
        (!accept && !self.codings.is_empty()).then(|| core::mem::take(&mut self.codings))
    }

    /// The status code.
    pub fn status(&self) -> u16 {
        self.status
    }
    /// The HTTP version of the response.
    pub fn version(&self) -> Version {
        self.version
    }
    /// The reason phrase.
    pub fn reason(&self) -> &[u8] {
        &self.reason
    }
    /// The fields as (name, value), in received order.
    pub fn fields(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.fields.iter()
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &[u8]) -> Option<&[u8]> {
        self.fields.get(name)
    }
    /// The transfer codings the body bytes still carry, in the order
    /// applied (RFC 9112 §6.1): empty unless the client's
    /// `ClientBuilder::accept_transfer_codings` is on and the response's
    /// `Transfer-Encoding` does not end in `chunked`; the body is then the
    /// coded bytes, for the caller to decode.
    pub fn transfer_codings(&self) -> impl Iterator<Item = &[u8]> {
        self.codings.iter().map(|c| &c[..])
    }
    /// Whether this response came over a connection that had already
    /// carried an earlier response: one taken from the client's pool of
    /// idle connections (as Go's `httptrace.GotConnInfo.Reused`). False
    /// on a connection opened for the request: the first request to an
    /// origin, one after the server closed the last connection
    /// (`Connection: close`, a body read until close) or after an idle
    /// one expired or was closed by the server, and a request sent again
    /// after its pooled connection failed (the retry always goes out on
    /// a new connection). After redirects, it is the last hop's: each
    /// hop takes its own connection, a pooled one (the one the redirect
    /// came on, when it may be reused) or a new one.
    /// ([`ClientConn::reused`](crate::ClientConn::reused), read when the
    /// head was.)
    pub fn reused(&self) -> bool {
        self.reused
    }
    /// The trailer fields of a chunked body (RFC 9112 §7.1.2), in received
    /// order: empty until the body has been read to its end.
    pub fn trailers(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.trailers.iter()
    }
    /// The value of the first trailer field named `name`.
    pub fn trailer(&self, name: &[u8]) -> Option<&[u8]> {
        self.trailers.get(name)
    }
}

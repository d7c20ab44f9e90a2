//! The response-head accessors both adapters' `ClientResponse` offer,
//! written once: a macro each adapter invokes inside its
//! `impl ClientResponse`.

/// Writes, inside an adapter's `impl ClientResponse`, the accessors that
/// read the response head the adapter kept: `status`, `version`, `reason`,
/// `fields`, `field`, `transfer_codings` and `reused`. The adapter names
/// its head field, whose own fields are `status: u16`, `version: Version`,
/// `reason: Vec<u8>`, `fields: OwnedFields`, `codings: Vec<Vec<u8>>` and
/// `reused: bool` (the connection's `ClientConn::reused` when the head was
/// read).
/// The docs link to `ClientBuilder::accept_transfer_codings`, which the
/// adapter defines.
///
/// Not API: an adapter's implementation detail, hidden from the docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __client_response_accessors {
    (head: $head:ident) => {
        /// The status code.
        pub fn status(&self) -> u16 {
            self.$head.status
        }
        /// The HTTP version of the response.
        pub fn version(&self) -> $crate::Version {
            self.$head.version
        }
        /// The reason phrase.
        pub fn reason(&self) -> &[u8] {
            &self.$head.reason
        }
        /// The fields as (name, value), in received order.
        pub fn fields(&self) -> impl ::core::iter::Iterator<Item = (&[u8], &[u8])> {
            self.$head.fields.iter()
        }
        /// The value of the first field named `name` (ASCII case-insensitive).
        pub fn field(&self, name: &[u8]) -> ::core::option::Option<&[u8]> {
            self.$head.fields.get(name)
        }
        /// The transfer codings the body bytes still carry, in the order
        /// applied (RFC 9112 §6.1): empty unless
        /// [`ClientBuilder::accept_transfer_codings`] is on and the response's
        /// `Transfer-Encoding` does not end in `chunked`; the body is then the
        /// coded bytes, for the caller to decode.
        pub fn transfer_codings(&self) -> impl ::core::iter::Iterator<Item = &[u8]> {
            self.$head.codings.iter().map(|c| &c[..])
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
        /// ([`http_net_conn::ClientConn::reused`], read when the head was.)
        pub fn reused(&self) -> bool {
            self.$head.reused
        }
    };
}

//! What both adapters' `Exchange` share, written once: a macro each adapter
//! invokes beside its `Exchange`. The accessors only read the request view
//! of the connection ([`ServerConn::request`](crate::ServerConn::request))
//! and the trailers the adapter kept, so they are the same code, with the
//! same docs, whether the handler is a thread or a task.

/// Writes, beside an adapter's `Exchange` (a struct with a lifetime), an
/// `impl Exchange` with the accessors that read the request: `request`,
/// `method`, `method_str`, `is_head`, `target`, `path`, `query`,
/// `query_pairs`, `field`, `peer_addr`, `conn`, `trailers` and `trailer`;
/// its `Debug` (what the connection says about the exchange, not the
/// stream or the shared state behind it) and `Upgraded`'s (how many bytes
/// it holds); and the conversion of a
/// [`BodyFail`](crate::driver::BodyFail) into the adapter's `Error` (which
/// has the variants `OverLimit`, `BodyUnavailable` and `Protocol`). The
/// adapter names its fields (the `&mut ServerConn`, the peer address, the
/// [`HandlerBody`](crate::driver::HandlerBody)) and gives `query_pairs`'s
/// example, which is written in its own style (blocking or async). The docs
/// link to `Exchange::respond`, `Exchange::respond_with`,
/// `Exchange::send_data`, `Exchange::flush` and `Exchange::send_placed`,
/// which the adapter defines.
///
/// Not API: an adapter's implementation detail, hidden from the docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __exchange_accessors {
    (
        conn: $conn:ident,
        peer: $($peer:ident).+,
        body: $($body:ident).+,
        $(#[$query_pairs_doc:meta])*
    ) => {
        impl Exchange<'_> {
            /// The request head (until the response is complete).
            pub fn request(&self) -> ::core::option::Option<$crate::RequestView<'_>> {
                self.$conn.request()
            }
            /// The method (`Method::Other` for an extension method, whose name is
            /// [`method_str`](Exchange::method_str); `Method::Other` too once the
            /// response is complete).
            pub fn method(&self) -> $crate::Method {
                self.$conn.request().map_or($crate::Method::Other, |r| r.method())
            }
            /// The method's name as received, extension methods included (`""`
            /// once the response is complete).
            pub fn method_str(&self) -> &str {
                self.$conn.request().map_or("", |r| r.method_str())
            }
            /// Whether the request is `HEAD`: the response has no body (RFC 9110
            /// §9.3.2), so a handler may skip making one. Whatever body it gives
            /// anyway ([`respond`](Exchange::respond), [`respond_with`](Exchange::respond_with),
            /// [`send_data`](Exchange::send_data)) is counted against the length its
            /// head declared and discarded: the head is sent (with the
            /// `Content-Length` a `GET` would get, RFC 9110 §8.6) and no body byte.
            /// Sending `BodyLength::Known(n)` and no data answers `HEAD` with the
            /// length of a body never made.
            pub fn is_head(&self) -> bool {
                self.method() == $crate::Method::Head
            }
            /// The request target as received (empty once the response is complete).
            pub fn target(&self) -> &[u8] {
                self.$conn.request().map_or(&[][..], |r| r.target())
            }
            /// The path part of the target, still percent-encoded: before `?`, and
            /// for an absolute-form target (`http://host/p?q`) after the authority
            /// (`/` when empty). Decode a segment with
            /// [`percent_decode`](http_net_conn::percent_decode).
            pub fn path(&self) -> &[u8] {
                $crate::target_path(self.target())
            }
            /// The query part of the target (after `?`), still percent-encoded;
            /// `None` without a `?`.
            pub fn query(&self) -> ::core::option::Option<&[u8]> {
                self.$conn.request().and_then(|r| r.query())
            }
            /// The query's `key=value` pairs as received, split at `&`
            /// ([`query_pairs`](http_net_conn::query_pairs), the one splitter both
            /// adapters use); decode each with
            /// [`form_decode`](http_net_conn::form_decode).
            ///
            $(#[$query_pairs_doc])*
            pub fn query_pairs(&self) -> $crate::QueryPairs<'_> {
                $crate::query_pairs(self.query().unwrap_or(&[]))
            }
            /// The value of the first field named `name` (ASCII case-insensitive).
            pub fn field(&self, name: &[u8]) -> ::core::option::Option<&[u8]> {
                self.$conn.request().and_then(|r| r.field(name))
            }
            /// The peer's address, when the listener knows it.
            pub fn peer_addr(&self) -> ::core::option::Option<::core::net::SocketAddr> {
                self.$($peer).+
            }
            /// The connection, for what the shortcuts do not cover (e.g.
            /// [`Responder::respond_head_only`](http_net_conn::Responder::respond_head_only)).
            /// What is queued through it is sent like the shortcuts' answers: with
            /// [`flush`](Exchange::flush), or when the handler returns. A body the
            /// connection leaves to the caller ([`Placement::AfterOutput`](http_net_conn::Placement::AfterOutput))
            /// is written with [`send_placed`](Exchange::send_placed).
            pub fn conn(&mut self) -> &mut $crate::ServerConn {
                self.$conn
            }
            /// The request's trailer fields (RFC 9112 §7.1.2), in received order:
            /// empty until the body has been read to its end (and for a body that
            /// is not chunked).
            pub fn trailers(&self) -> impl ::core::iter::Iterator<Item = (&[u8], &[u8])> {
                self.$($body).+.trailers().iter()
            }
            /// The value of the first trailer field named `name` (ASCII
            /// case-insensitive), once the body has been read to its end.
            pub fn trailer(&self, name: &[u8]) -> ::core::option::Option<&[u8]> {
                self.$($body).+.trailers().get(name)
            }
        }

        impl ::core::fmt::Debug for Exchange<'_> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("Exchange")
                    .field("phase", &self.$conn.phase())
                    .field("answer_state", &self.$conn.answer_state())
                    .finish_non_exhaustive()
            }
        }

        impl ::core::fmt::Debug for Upgraded<'_> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("Upgraded")
                    .field("buffered", &self.buffered().len())
                    .finish_non_exhaustive()
            }
        }

        impl ::core::convert::From<$crate::driver::BodyFail> for Error {
            fn from(e: $crate::driver::BodyFail) -> Error {
                match e {
                    $crate::driver::BodyFail::OverLimit(limit) => Error::OverLimit(limit),
                    $crate::driver::BodyFail::BodyUnavailable => Error::BodyUnavailable,
                    $crate::driver::BodyFail::Protocol(e) => Error::Protocol(e),
                }
            }
        }
    };
}

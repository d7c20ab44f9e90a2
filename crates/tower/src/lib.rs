//! Serve any tower `Service` over `http` types (an axum `Router`) on
//! [`http_net_tokio`]: the server's strict parser, smuggling defences,
//! limits, deadlines and eviction in front of an application written for
//! hyper, unchanged.
//!
//! ```no_run
//! # async fn app() -> Result<(), Box<dyn std::error::Error>> {
//! # #[derive(Clone)] struct App;
//! # impl tower_service::Service<http::Request<http_net_tower::Body>> for App {
//! #     type Response = http::Response<String>;
//! #     type Error = std::convert::Infallible;
//! #     type Future = std::future::Ready<Result<Self::Response, Self::Error>>;
//! #     fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Self::Error>> { std::task::Poll::Ready(Ok(())) }
//! #     fn call(&mut self, _: http::Request<http_net_tower::Body>) -> Self::Future { std::future::ready(Ok(http::Response::new(String::new()))) }
//! # }
//! # let app = App;
//! let server = http_net_tokio::Server::bind("127.0.0.1:3000").await?;
//! server.serve(http_net_tower::ServiceHandler::new(app)).await?;
//! # Ok(()) }
//! ```
//!
//! # The service
//!
//! [`ServiceHandler`] takes any `S: Service<http::Request<Body>, Response =
//! http::Response<B>> + Clone + Send + 'static` whose future is `Send` and
//! whose error converts into a [`BoxError`], with `B: http_body::Body +
//! Send + 'static`, `B::Data: Buf + Send` and `B::Error` boxed likewise.
//! It is cloned for each request, as `axum::serve` on hyper does (a
//! `Router` clone is a reference count).
//!
//! # The request
//!
//! - The head becomes an `http::Request`: the method, the URI from the
//!   target (origin, absolute, authority and asterisk forms), the version,
//!   and the fields in received order, duplicates kept. The target and the
//!   field values share one copy of the head's bytes.
//! - Its extensions hold the peer's address as [`PeerAddr`] (with the
//!   `connect-info` feature also as axum's `ConnectInfo<SocketAddr>`, so
//!   `ConnectInfo` extractors work unchanged); a [`BodyLimit`] when it has
//!   a body; an [`OnUpgrade`] when it may switch protocols; and, when
//!   asked for ([`ServiceHandler::received_head`]), the head as received
//!   ([`ReceivedHead`]: the target's bytes, the field names' case and the
//!   fields' order across names, which `HeaderMap` does not keep).
//! - The body is a [`Body`] that streams from the connection: data
//!   frames, then the trailers. It reads only when polled, one frame at a
//!   time, under the server's body timeout and minimum body rate. Body
//!   size limits are the service's, as on hyper (axum's
//!   `DefaultBodyLimit`): the server applies no body budget of its own
//!   unless one was chosen with
//!   [`max_body_bytes`](http_net_tokio::ServerOptions::max_body_bytes)
//!   ([`Handler::limits_request_bodies`](http_net_tokio::Handler::limits_request_bodies)).
//!   When a server limit or deadline trips and the service has sent
//!   nothing yet, the server answers (`413`, `408`, with its error body)
//!   and drops the service's response; otherwise the body ends with an
//!   error the service sees and the connection closes after the response.
//!
//! # The response
//!
//! It streams out frame by frame, through the same writer (and the same
//! checks) as a native handler's answer:
//! - the length is the service's `Content-Length` field, or the body's
//!   `size_hint` when it is exact; otherwise the body is chunked, or
//!   close-delimited to an HTTP/1.0 client. A `Content-Length` that
//!   contradicts an exact hint is refused ([`Error::LengthMismatch`]);
//! - trailers are sent on a chunked response when the request carried
//!   `TE: trailers` (RFC 9110 §10.1.4), and dropped otherwise (and on a
//!   response with a length);
//! - a `HEAD` response carries no body, whatever the service returns (its
//!   `Content-Length` is the one a `GET` would get);
//! - a 1xx the service returns is refused: the server sends its own
//!   `100 Continue` when a body is read (RFC 9110 §15.2);
//! - a field the writer refuses (CR or LF in a value, a name that is not a
//!   token, a length that contradicts the body) becomes a `500` and a
//!   reported application error, never a split response;
//! - while the body waits for its next frame, what is queued is written
//!   out, so a stream of small events is not held back.
//!
//! # Errors and readiness
//!
//! `poll_ready` is awaited before each call. A service error, or a panic
//! in the service or its body, becomes a `500` when nothing was sent
//! (reported as the application's error), and closes the connection
//! otherwise.
//!
//! # Upgrades
//!
//! axum's `WebSocketUpgrade` extractor does not work here: it looks for
//! hyper's `OnUpgrade` in the request's extensions, a type only hyper can
//! make. This crate's [`OnUpgrade`] is the equivalent: answer `101` and
//! await it for the connection's stream (with the bytes that arrived after
//! the head first). See its documentation.
//!
//! # Graceful shutdown
//!
//! [`serve_with_graceful_shutdown`] serves until a future resolves, then
//! stops as [`ServerHandle::shutdown`](http_net_tokio::ServerHandle::shutdown)
//! does (in-flight requests finish, new connections are refused): axum's
//! `serve(..).with_graceful_shutdown(signal)`.
//!
//! # The defences stay the server's
//!
//! Strict parsing, the front-line profile, the limits, the deadlines and
//! eviction apply before the service sees anything, as for any handler of
//! [`http_net_tokio::Server`].
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod body;
mod error;
mod request;
mod serve;
mod shutdown;
mod upgrade;

pub use body::{Body, BodyLimit};
pub use error::{BoxError, Error};
pub use request::{PeerAddr, ReceivedHead};
pub use serve::ServiceHandler;
pub use shutdown::serve_with_graceful_shutdown;
pub use upgrade::{OnUpgrade, Upgraded};

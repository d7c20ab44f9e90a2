//! An async HTTP/1.1 server on tokio, running the Sans-IO state machines of
//! [`http_net_conn`] over any `AsyncRead + AsyncWrite` stream.
//!
//! # Server
//!
//! [`Server`] accepts connections and serves each as a task of its own,
//! driving a [`http_net_conn::ServerConn`]: the connection owns the protocol
//! (parsing, framing, keep-alive, pipelining, `Expect`, upgrades, the error
//! responses); this crate moves bytes, keeps time and runs the
//! [`Handler`]. Every phase of a connection has its deadline: idle
//! keep-alive, a whole-head deadline (`408`, then close: slowloris), body
//! reads and writes, each with a minimum data rate after a grace period.
//! After an error response the server half-closes and drains the peer's
//! input for a bounded time, so the peer reads the response. A handler that
//! panics gets `500` sent for it (if nothing was sent yet); its connection
//! closes and the server goes on. At the connection limit the connection
//! making least progress is evicted (idle keep-alive first), and when none
//! can be, the new one is answered `503`. [`ServerHandle::shutdown`] stops
//! the server gracefully; [`ServerHandle::counters`] tells what it did.
//!
//! It runs on the current-thread and on the multi-thread runtime (handler
//! futures are `Send`).
//!
//! ```
//! use http_net_tokio::{Exchange, Handler, HandlerError, Server};
//! use http_net_tokio::http_net_conn::PreparedResponse;
//!
//! struct Hello(PreparedResponse);
//!
//! impl Handler for Hello {
//!     async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
//!         match ex.path() {
//!             b"/" => ex.respond(&self.0, b"Hello, World!").await?,
//!             _ => ex.respond_with(404, &[], b"").await?,
//!         }
//!         Ok(())
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let hello = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
//! let server = Server::bind("127.0.0.1:0").await?;
//! let addr = server.local_addr()?;
//! let stop = server.handle();
//! let task = tokio::spawn(server.serve(Hello(hello)));
//!
//! use tokio::io::{AsyncReadExt, AsyncWriteExt};
//! let mut peer = tokio::net::TcpStream::connect(addr).await?;
//! peer.write_all(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").await?;
//! let mut answer = Vec::new();
//! peer.read_to_end(&mut answer).await?;
//! assert!(answer.starts_with(b"HTTP/1.1 200 OK\r\n"));
//! assert!(answer.ends_with(b"\r\n\r\nHello, World!"));
//! drop(peer);
//!
//! stop.shutdown();
//! task.await.unwrap()?;
//! # Ok::<(), std::io::Error>(())
//! # }).unwrap();
//! ```
//!
//! # Client
//!
//! [`Client`] sends requests to `http://` URLs ([`Client::get`],
//! [`Client::request`]; `https://` ones through a [`Connector`] that opens
//! TLS) or to a host and port ([`Client::send_to`]), keeps idle connections per
//! origin for reuse (bounded; [`ClientResponse::reused`](http_net_conn::ClientHead::reused) says whether a
//! response came over one), streams request bodies ([`RequestBody::Reader`],
//! or [`Client::start`] and [`RequestWriter`]) and response bodies
//! ([`ClientResponse::read_body`], or the response as an `AsyncRead` that
//! `tokio::io::copy` takes, with its trailers after it), sends `Expect: 100-continue` above a
//! threshold, returns a final response that arrives while the request body
//! is still being written, follows redirects when asked (the core's
//! [`Redirects`](http_net_conn::Redirects) policy), and bounds connecting, each read and write, and (optionally)
//! the whole request with deadlines. A malformed or unsafe response is an
//! [`Error::Protocol`] naming the rule it broke. By default a response body
//! has no size budget ([`CLIENT_CONFIG`], as the blocking client's); a body
//! over a limit the caller set is [`Error::OverLimit`], never the peer's
//! fault.
//!
//! # Other streams (TLS)
//!
//! The server runs over any [`Listener`] whose streams are a [`Transport`]
//! (`AsyncRead + AsyncWrite + Unpin + Send`). A stream that needs a setup
//! step before its first HTTP byte (a TLS handshake) is served with
//! [`ServerBuilder::listener_with_setup`]: the [`Setup`] step runs on the
//! connection's own task once it holds a slot, under the server's
//! [`setup_timeout`](crate::ServerOptions::setup_timeout). The client opens its
//! connections through a [`Connector`]. The `http-net-rustls` crate
//! (feature `tokio`) gives both for HTTPS, with its `tls_tokio` example;
//! this crate depends on no TLS library.
//!
//! # Types that grow, threads
//!
//! [`Error`], [`Limit`] and [`Stage`] are `#[non_exhaustive]` (match them with a
//! wildcard arm), and so is [`Counters`] (read its fields; the server builds
//! it). [`Progress`] stays exhaustive: a write either went out or met the
//! server's final answer. The builders are `#[must_use]`; their methods are
//! named for the setting, as in `http-net-std`.
//!
//! [`Server`], [`ServerHandle`], [`Client`], the builders, [`Counters`] and
//! [`Error`] are `Send` and `Sync`, so a server can be spawned on a
//! multi-threaded runtime and a client shared between tasks.
//! [`ClientResponse`], [`RequestWriter`], [`Exchange`] and [`Upgraded`] own
//! or borrow a connection's [`Transport`], which need only be `Send`: they are
//! `Send` (and `Sync` only when the stream is).
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod client;
mod client_wait;
mod connection;
mod date;
mod error;
mod exchange;
mod handler;
mod hooks;
mod lend;
mod server;
mod setup;
mod shared;
mod slot;
mod timer;
mod wire;

pub use client::{
    Client, ClientBuilder, ClientResponse, Connector, Progress, RequestBody, RequestWriter,
    TcpConnector, CLIENT_CONFIG,
};
pub use error::{Error, Limit, Stage};
pub use exchange::{Body, BodyWriter, Exchange, Upgraded};
pub use handler::Handler;
pub use http_net_conn::{
    AccessRecord, ClientOptions, Counters, ErrorBody, ErrorCause, ErrorResponse, HandlerError,
    Mistake, ServerOptions, StageCounts, WithStatus,
};
pub use server::{Listener, Server, ServerBuilder, ServerHandle};
pub use setup::{NoSetup, Setup};
pub use wire::Transport;

pub use http_net_conn;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

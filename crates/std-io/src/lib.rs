//! A blocking HTTP/1.1 server and client over `std::net`, running the
//! Sans-IO state machines of [`http_net_conn`] over real sockets.
//!
//! # Server
//!
//! [`Server`] accepts connections and serves each on a thread of its own,
//! taken from a pool that grows up to the connection limit and keeps idle
//! threads for reuse (`std` has no readiness API; an idle keep-alive
//! connection holds its thread but never stops another from being served).
//! At the limit the connection making least progress (idle keep-alive
//! first) is closed to admit a newcomer; otherwise the newcomer is answered
//! `503` and closed: it does not wait in the backlog. Every phase of a
//! connection has its bound: idle keep-alive, a whole-head deadline (`408`,
//! then close: slowloris), and for request bodies and responses a stall
//! timeout and a minimum data rate (see [`Server`], "Defences"). After an
//! error response the server half-closes and drains
//! the peer's input for a bounded time, so the peer reads the response. A
//! handler that panics gets `500` sent for it (if nothing was sent yet); its
//! connection closes and the server goes on. [`ServerHandle::shutdown`]
//! stops it gracefully.
//!
//! ```
//! # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
//! use http_net::blocking::{Error, Exchange, Server};
//! use http_net::conn::PreparedResponse;
//!
//! let hello = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
//! let server = Server::bind("127.0.0.1:0")?;
//! let addr = server.local_addr()?;
//! let stop = server.handle();
//! let thread = std::thread::spawn(move || {
//!     server.serve(move |ex: &mut Exchange<'_>| -> Result<(), Error> {
//!         match ex.path() {
//!             b"/" => ex.respond(&hello, b"Hello, World!"),
//!             _ => ex.respond_with(404, &[], b""),
//!         }
//!     })
//! });
//!
//! let mut resp = http_net::blocking::get(&format!("http://{addr}/"))?;
//! assert_eq!(resp.status(), 200);
//! assert_eq!(resp.body_to_vec(1024)?, b"Hello, World!");
//!
//! stop.shutdown();
//! thread.join().unwrap()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Client
//!
//! [`Client`] sends requests to `http://` URLs (and `https://` ones through
//! a [connector](ClientBuilder::connector) that returns a TLS stream), keeps
//! idle connections per origin for reuse (bounded;
//! [`ClientResponse::reused`](http_net_conn::ClientHead::reused) says whether a response came over one), and
//! streams both ways:
//! a request body from any `Read` ([`RequestBody`]: `Content-Length` when
//! the length is known, chunked when not) and the response body as a
//! `Read`, with its trailers after it. It has no body budget of its own
//! (the 8 MiB default is the server's); [`ClientResponse::body_to_vec`]'s limit is
//! a local limit ([`Error::OverLimit`]), never the peer's fault.
//!
//! While it sends a body the client watches for a response, so a server's
//! early `413` (or a `200` from a server that did not read the body) is
//! returned rather than lost in a failed write; above 1 MiB it sends
//! `Expect: 100-continue` and waits up to 1 s for `100` (RFC 9110
//! §10.1.1). Connecting, each read and each write have timeouts, and
//! [`ClientOptions::request_timeout`] bounds the whole request. Redirects are
//! followed only when asked ([`Redirects`], RFC 9110 §15.4). A malformed
//! or unsafe response is an [`Error::Protocol`] naming the rule it broke.
//!
//! ```
//! # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
//! use http_net::blocking::{Client, Error, Exchange, RequestBody, Server};
//!
//! let server = Server::bind("127.0.0.1:0")?;
//! let addr = server.local_addr()?;
//! let stop = server.handle();
//! let thread = std::thread::spawn(move || {
//!     server.serve(|ex: &mut Exchange<'_>| -> Result<(), Error> {
//!         let n = std::io::copy(&mut ex.body(), &mut std::io::sink())?;
//!         ex.respond_with(200, &[], n.to_string().as_bytes())
//!     })
//! });
//!
//! // A body of unknown length, read while it is sent: chunked.
//! let mut body = std::io::Read::take(std::io::repeat(b'x'), 100_000);
//! let client = Client::new();
//! let body = RequestBody::Reader { reader: &mut body, len: None };
//! let mut resp = client.send(b"POST", &format!("http://{addr}/"), &[], body)?;
//! assert_eq!(resp.body_to_vec(64)?, b"100000");
//!
//! stop.shutdown();
//! thread.join().unwrap()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Other streams (TLS)
//!
//! The server runs over any [`Listener`] whose streams implement
//! [`Transport`] (`Read + Write` and the timeout controls). A stream that
//! needs a setup step before its first HTTP byte (a TLS handshake) is
//! served with [`ServerBuilder::listener_with_setup`] and a [`Setup`]: the
//! step runs on the connection's thread once it holds a slot, under the
//! server's [`setup_timeout`](crate::ServerOptions::setup_timeout). The
//! `http-net-rustls` crate gives HTTPS so, for the server and the client. A single connection over any stream
//! can also be driven directly with [`http_net_conn::ServerConn`] and the
//! same read → `poll_event` → write loop this crate runs.
//!
//! # Types that grow, threads
//!
//! [`Error`], [`Stage`], [`Limit`], [`UrlError`], [`RedirectError`] and
//! [`RequestBody`] are `#[non_exhaustive]` (match them with a wildcard arm),
//! and so are [`Counters`] and [`StageCounts`] (read their fields; they are
//! built by the server only). The builders ([`ServerBuilder`],
//! [`ClientBuilder`]) are `#[must_use]`; their methods take and return the
//! builder and are named for the setting (`max_connections`,
//! `request_timeout`), while a `Copy` settings value has `with_*` setters
//! ([`Redirects::with_https_to_http`], as `Config::with_*` in
//! `http-net-conn`).
//!
//! [`Server`], [`ServerHandle`], [`Client`] (a shared pool of idle
//! connections), the builders, [`Counters`], [`Url`], [`Redirects`] and
//! [`Error`] are `Send` and `Sync`: a handle stops a server from any thread,
//! a client is shared by reference or cloned. [`ClientResponse`] is `Send`
//! but not `Sync` (it owns a connection's stream, and a [`Transport`] is only
//! `Send`); so are the handler's [`Exchange`], [`Body`] and [`Upgraded`],
//! which borrow that connection. [`RequestBody::Reader`] borrows any
//! `Read` and is neither.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod client;
mod connection;
mod date;
mod descriptors;
mod error;
mod exchange;
mod handler;
mod hooks;
mod lock;
mod pool;
mod reject;
mod server;
mod settings;
mod setup;
mod shared;
mod slot;
mod transport;
mod url;
mod wire;

pub use client::{
    get, Client, ClientBuilder, ClientResponse, Connector, RequestBody, CLIENT_CONFIG,
};
pub use error::{Error, Limit, Stage};
pub use exchange::{Body, BodyWriter, Exchange, PairedBody, PairedWriter, Upgraded};
pub use handler::Handler;
pub use hooks::{AccessRecord, ErrorBody, ErrorCause, ErrorResponse};
pub use http_net_conn::imf_fixdate;
pub use http_net_conn::{ClientOptions, RedirectError, Redirects, ServerOptions};
pub use http_net_conn::{Counters, HandlerError, StageCounts, WithStatus};
pub use server::{Server, ServerBuilder, ServerHandle};
pub use setup::{NoSetup, Setup};
pub use transport::{Interrupter, Listener, Transport};
pub use url::{Url, UrlError};

pub use http_net_conn;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

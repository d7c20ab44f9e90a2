//! http-net: a strict, fast HTTP/1.1 server and client, Sans-IO at its core.
//!
//! This facade puts the layers under one name:
//!
//! | module | crate | what it does |
//! |---|---|---|
//! | [`scan`] | `http-net-scan` | byte classes and word-at-a-time scanning |
//! | [`head`] | `http-net-head` | request, status and field lines: strict, resumable, zero-copy |
//! | [`framing`] | `http-net-framing` | body length rules, chunked coding, trailers |
//! | [`conn`] | `http-net-conn` | Sans-IO server and client connections |
//! | [`blocking`] | `http-net-std` | a blocking server and client over `std::net` |
//!
//! Each item has one path: a head or framing type used by `conn`'s API is
//! reached through [`head`] or [`framing`], an item the blocking adapter
//! shares with the core through [`conn`], and the blocking adapter's error
//! is [`blocking::Error`]. (The async adapter, `http-net-tokio`, is its
//! own crate: the facade depends on no third-party crate.)
//!
//! # A tour
//!
//! ## 1. The parser alone
//!
//! Parse a request head from bytes you hold; nothing is allocated and the
//! parsed head refers to your buffer by offsets.
//!
//! ```
//! use http_net::head::{Field, HeadLimits, Method, RequestParser, Parsed};
//!
//! let buf = b"GET /hello?x=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n";
//! let mut fields = [Field::default(); 16];
//! let mut parser = RequestParser::new(HeadLimits::DEFAULT);
//! let Ok(Parsed::Complete(head)) = parser.parse(buf, &mut fields) else { panic!() };
//! assert_eq!(head.method, Method::Get);
//! assert_eq!(head.target.get(buf), b"/hello?x=1");
//! assert_eq!(fields[0].name.get(buf), b"Host");
//! assert_eq!(head.len, buf.len());
//!
//! // Malformed input is an error that names the rule and its status.
//! let mut parser = RequestParser::new(HeadLimits::DEFAULT);
//! let bad = b"GET / HTTP/1.1\r\nHost : a\r\n\r\n";
//! let err = parser.parse(bad, &mut fields).unwrap_err();
//! assert_eq!(err.status(), 400);
//! ```
//!
//! ## 2. A server
//!
//! [`blocking::Server`] serves each connection on a pooled thread, with a connection
//! limit, per-phase timeouts (the whole head has a deadline: slowloris gets
//! `408`) and graceful shutdown. A handler reads the head and the body (a
//! `std::io::Read`) and answers; a prebuilt [`conn::PreparedResponse`] is the fastest
//! answer.
//!
//! ```
//! use std::io::Read;
//! use http_net::blocking::{Error, Exchange, Server};
//! use http_net::conn::{PreparedResponse, ServerOptions};
//!
//! let ok = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
//! let server = Server::builder().max_connections(64).bind("127.0.0.1:0")?;
//! let addr = server.local_addr()?;
//! let stop = server.handle();
//! let serving = std::thread::spawn(move || {
//!     server.serve(move |ex: &mut Exchange<'_>| -> Result<(), Error> {
//!         match ex.path() {
//!             b"/plaintext" => ex.respond(&ok, b"Hello, World!"),
//!             b"/upload" => {
//!                 let mut body = Vec::new();
//!                 ex.body().read_to_end(&mut body)?; // sends 100 Continue if asked
//!                 let len = body.len().to_string();
//!                 ex.respond_with(200, &[(b"Content-Type", b"text/plain")], len.as_bytes())
//!             }
//!             _ => ex.respond_with(404, &[], b""),
//!         }
//!     })
//! });
//!
//! let client = http_net::blocking::Client::new();
//! let mut resp = client.get(&format!("http://{addr}/plaintext"))?;
//! assert_eq!(resp.status(), 200);
//! assert_eq!(resp.body_to_vec(1 << 20)?, b"Hello, World!");
//! let mut resp = client.request(b"POST", &format!("http://{addr}/upload"), &[], b"12345")?;
//! assert_eq!(resp.body_to_vec(1 << 20)?, b"5");
//!
//! stop.shutdown(); // stop accepting, finish requests in flight, close idle connections
//! serving.join().unwrap()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 3. A client
//!
//! [`blocking::Client`] fetches `http://` URLs, reusing idle connections per host and
//! port; every malformed or unsafe response is an error naming the rule.
//!
//! ```no_run
//! use std::io::Read;
//!
//! let mut resp = http_net::blocking::get("http://127.0.0.1:8080/json")?;
//! println!("{} {:?}", resp.status(), resp.field(b"content-type"));
//! let mut body = String::new();
//! resp.read_to_string(&mut body)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 4. Sans-IO over your own I/O
//!
//! [`conn::ServerConn`] does no I/O at all: put in the bytes you received,
//! poll for events, answer, and send what [`conn::ServerConn::output`]
//! holds, over whatever transport and event loop you have.
//!
//! ```
//! use http_net::conn::{Config, PreparedResponse, ServerConn, ServerEvent};
//!
//! let hello = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
//! let mut conn = ServerConn::new(Config::DEFAULT);
//! conn.set_date(b"Sun, 06 Nov 1994 08:49:37 GMT");
//! let received = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
//! assert_eq!(conn.recv(received), received.len());
//! loop {
//!     match conn.poll_event().unwrap() {
//!         ServerEvent::Request(req) => assert_eq!(req.target(), b"/"),
//!         ServerEvent::End(_) => {
//!             conn.responder().respond(&hello, b"Hello").unwrap();
//!         }
//!         ServerEvent::NeedInput | ServerEvent::Paused => break,
//!         _ => {}
//!     }
//! }
//! let out = conn.output().to_vec(); // write these bytes to your transport
//! conn.consume_output(out.len());
//! assert!(out.starts_with(b"HTTP/1.1 200 OK\r\n"));
//! assert!(out.ends_with(b"\r\n\r\nHello"));
//! ```
//!
//! ## 5. What a handler reads
//!
//! Beyond the raw head ([`Exchange::request`](blocking::Exchange::request)): the path and query
//! ([`Exchange::path`](blocking::Exchange::path), [`Exchange::query_pairs`](blocking::Exchange::query_pairs); decode them with
//! [`conn::percent_decode`] and [`conn::form_decode`], which report a
//! malformed escape as [`conn::PercentError`]), the method's name even for an
//! extension method ([`Exchange::method_str`](blocking::Exchange::method_str)), whether the request is
//! `HEAD` ([`Exchange::is_head`](blocking::Exchange::is_head): its body is never sent, so skip making
//! it), the trailers after the body ([`Exchange::trailers`](blocking::Exchange::trailers)), and an owned
//! copy of the head that outlives the answer ([`Exchange::request_head`](blocking::Exchange::request_head)).
//!
//! ```
//! use http_net::conn::form_decode;
//! use http_net::blocking::{Error, Exchange};
//!
//! fn hello(ex: &mut Exchange<'_>) -> Result<(), Error> {
//!     let head = ex.request_head().expect("until the answer is complete");
//!     let name = head
//!         .query_pairs()
//!         .find(|(k, _)| *k == b"name")
//!         .and_then(|(_, v)| form_decode(v).ok())
//!         .map_or_else(|| "world".into(), |v| String::from_utf8_lossy(&v).into_owned());
//!     let body = format!("{} {}: hello, {name}", head.method_str(), head.version());
//!     // `head` is owned: it is still there after `respond_with` borrowed `ex`.
//!     ex.respond_with(200, &[(b"Content-Type", b"text/plain")], body.as_bytes())?;
//!     assert_eq!(head.path(), b"/greet");
//!     Ok(())
//! }
//! # let server = http_net::blocking::Server::bind("127.0.0.1:0")?;
//! # let addr = server.local_addr()?;
//! # let stop = server.handle();
//! # let t = std::thread::spawn(move || server.serve(hello));
//! # let mut r = http_net::blocking::get(&format!("http://{addr}/greet?name=J+Doe"))?;
//! # assert_eq!(r.body_to_vec(100)?, b"GET HTTP/1.1: hello, J Doe");
//! # stop.shutdown();
//! # t.join().unwrap()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 6. Limits and the server's own errors
//!
//! [`blocking::ServerBuilder::max_body_bytes`](conn::ServerOptions::max_body_bytes) caps every request body (a
//! declared `Content-Length` over it is answered `413` before the handler
//! runs); [`Exchange::limit_body`](blocking::Exchange::limit_body) lowers it for one request. The
//! responses the server writes itself (`400`, `408`, `413`, `500`...) get
//! the body [`blocking::ServerBuilder::error_body`](conn::ServerOptions::error_body) supplies, and
//! [`blocking::ServerBuilder::access_log`](conn::ServerOptions::access_log) sees each request with its status,
//! bytes, duration and the error a handler returned. Which status each
//! failure gives is in [`blocking::Handler`].
//!
//! ```
//! use std::io::Read;
//! use http_net::conn::{ErrorBody, ServerOptions};
//! use http_net::blocking::{Client, Error, Exchange, Server};
//!
//! let server = Server::builder()
//!     .max_body_bytes(64 * 1024)
//!     .error_body(|e| {
//!         let body = format!(r#"{{"error":{}}}"#, e.status()).into_bytes();
//!         Some(ErrorBody { content_type: b"application/json".to_vec(), body })
//!     })
//!     .access_log(|r| eprintln!("{} {:?} {:?}", r.method(), r.status(), r.error()))
//!     .bind("127.0.0.1:0")?;
//! let addr = server.local_addr()?;
//! let stop = server.handle();
//! let t = std::thread::spawn(move || {
//!     server.serve(|ex: &mut Exchange<'_>| -> Result<(), Error> {
//!         ex.limit_body(16)?; // a 413 for more
//!         let mut body = Vec::new();
//!         ex.body().read_to_end(&mut body)?;
//!         ex.respond_with(200, &[], &body)
//!     })
//! });
//!
//! let client = Client::new();
//! let mut r = client.request(b"POST", &format!("http://{addr}/"), &[], &[b'x'; 100])?;
//! assert_eq!(r.status(), 413);
//! assert_eq!(r.field(b"content-type"), Some(&b"application/json"[..]));
//! assert_eq!(r.body_to_vec(100)?, br#"{"error":413}"#);
//! stop.shutdown();
//! t.join().unwrap()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## 7. Streamed responses, files, downloads, a proxy
//!
//! A body of unknown length is sent with [`conn::BodyLength::Streamed`]
//! (chunked to HTTP/1.1 peers), piece by piece, each piece leaving at once
//! after [`Exchange::flush`](blocking::Exchange::flush):
//!
//! ```
//! use http_net::conn::BodyLength;
//! use http_net::blocking::{Error, Exchange};
//!
//! fn countdown(ex: &mut Exchange<'_>) -> Result<(), Error> {
//!     ex.send_head(200, &[(b"Content-Type", b"text/plain")], BodyLength::Streamed)?;
//!     for i in (1..=3).rev() {
//!         ex.send_data(format!("{i}\n").as_bytes())?;
//!         ex.flush()?;
//!     }
//!     ex.send_end(&[(b"X-Done", b"yes")]) // trailers end a chunked body
//! }
//! # let server = http_net::blocking::Server::bind("127.0.0.1:0")?;
//! # let addr = server.local_addr()?;
//! # let stop = server.handle();
//! # let t = std::thread::spawn(move || server.serve(countdown));
//! # let mut r = http_net::blocking::get(&format!("http://{addr}/"))?;
//! # assert_eq!(r.body_to_vec(100)?, b"3\n2\n1\n");
//! # assert_eq!(r.trailer(b"x-done"), Some(&b"yes"[..]));
//! # stop.shutdown();
//! # t.join().unwrap()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate's examples are whole programs, each tested end to end:
//! `rest` (a JSON API: routes with path parameters and a query, a JSON
//! `413`), `stream` (a streamed response; files with `HEAD` and a single
//! `Range`), `download` (a large download to a file in flat memory),
//! `proxy` (a reverse proxy streaming both ways), `hello`, `echo` and
//! `get`. Run one with `cargo run -p http-net --example rest`. HTTPS is the
//! `http-net-rustls` crate's (not re-exported here: this crate stays free
//! of third-party crates): TLS listeners for the servers, with the
//! handshake inside an admitted connection slot, and connectors for the
//! clients; its examples are `tls_server`, `tls_get` and `tls_tokio`.
//!
//! # Versions and threads
//!
//! Each layer's documentation says which of its types are
//! `#[non_exhaustive]` (events, phases, errors, parsed heads: match them
//! with a wildcard arm and read their fields) and which are `Send` and
//! `Sync`. In [`blocking`], `Server`, `Client` and `Error` are `Send` and
//! `Sync`; an `Exchange` is `Send`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

#[doc(inline)]
pub use http_net_framing as framing;
#[doc(inline)]
pub use http_net_head as head;
#[doc(inline)]
pub use http_net_scan as scan;

/// Sans-IO server and client connections (`http-net-conn`), and the
/// policy both adapters share: the items `http-net-conn` defines, except
/// its `driver` module (the plumbing for someone writing an I/O adapter,
/// used from `http-net-conn` directly). The head
/// and framing types its API uses are in [`head`] and [`framing`], each by
/// that one path.
pub mod conn {
    #[cfg(target_has_atomic = "64")]
    #[doc(inline)]
    pub use http_net_conn::StageCounts;
    #[doc(inline)]
    pub use http_net_conn::{
        expects_continue, form_decode, imf_fixdate, location, percent_decode, query_pairs,
        request_fields, request_fields_into, request_length, target_path, target_query,
        AccessRecord, AnswerState, BodyLength, Buffers, ClientConn, ClientEvent, ClientHead,
        ClientOptions, ClientSettings, ClientTimeout, Config, ConfigOverrides, Counters, Error,
        ErrorBody, ErrorCause, ErrorResponse, ExpectState, Failure, FieldPair, HandlerError, Hop,
        Limit, LocalError, Mistake, MistakeReport, Origin, OwnedFields, OwnedRequestHead,
        PercentError, Phase, Placement, PreparedResponse, QueryPairs, Rate, Redirect,
        RedirectError, Redirects, RemoteError, RequestBody, RequestDeadline, RequestView,
        Responder, ResponseView, Retry, ServerConn, ServerEvent, ServerOptions, ServerSettings,
        Stage, Timestamp, Trailers, UnsupportedCodings, Url, UrlError, WithStatus, COPY_LIMIT,
        MAX_PIPELINED,
    };
    #[doc(inline)]
    pub use http_net_conn::{AccessLogFn, ErrorBodyFn, ErrorStatusFn, MistakeLogFn};
}

/// A blocking server and client over `std::net` (`http-net-std`): the
/// items `http-net-std` defines, its error as `blocking::Error`. What it
/// shares with the core (`HandlerError`, `Stage`, `Limit`, the hook
/// records, `Url`, `Redirects`) is in [`conn`].
pub mod blocking {
    #[doc(inline)]
    pub use http_net_std::{
        get, Body, BodyWriter, Client, ClientBuilder, ClientResponse, Connector, Error, Exchange,
        Handler, Interrupter, Listener, NoSetup, PairedBody, PairedWriter, RequestBody, Server,
        ServerBuilder, ServerHandle, Setup, Transport, Upgraded, CLIENT_CONFIG,
    };
}

/// The crate README's Rust examples (the workspace README's among them),
/// compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

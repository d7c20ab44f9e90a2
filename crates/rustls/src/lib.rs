//! HTTPS for http-net: TLS (rustls, with its default provider aws-lc-rs)
//! for the blocking server and client of `http-net-std` and, with the
//! `tokio` feature, the async ones of `http-net-tokio`.
//!
//! - **Servers**: [`ServerTls`] is the setup step both servers run before
//!   a connection's first HTTP byte (`ServerBuilder::listener_with_setup`
//!   in either adapter): the handshake runs on the connection's thread or
//!   task, inside an admitted connection slot, under the server's
//!   `setup_timeout`, ranked for eviction like a partial request head; a
//!   failed handshake closes that connection only and is counted. ALPN is
//!   `http/1.1`, and `close_notify` is sent before a connection closes.
//! - **Clients**: [`ClientTls`] opens `https://` connections: SNI is the
//!   URL's host, the certificate is checked against it, and a failure is a
//!   [`TlsFailure`] the caller can get back from the I/O error; the two a
//!   home-made certificate meets say how to make one that works
//!   ([below](#a-certificate-for-testing)).
//! - **Early answers**: the blocking [`TlsStream`] answers the client's
//!   `input_ready` from rustls' own state, so that a server's early `413`
//!   reaches the caller while it is still uploading, as it does over plain
//!   TCP.
//!
//! A server from PEM files and a client of it, with the blocking types as
//! the `http-net` facade names them (`http_net::blocking`; with
//! `http-net-std` alone, `http_net_std::…`, the same items; the tokio
//! adapter, which the facade does not re-export, is `http_net_tokio::…`):
//!
//! ```no_run
//! use http_net::blocking::{Client, Error, Exchange, Server};
//! use http_net_rustls::{ClientTls, ServerTls};
//!
//! let tls = ServerTls::from_pem_files("cert.pem", "key.pem")?;
//! let server = Server::builder()
//!     .listener_with_setup(std::net::TcpListener::bind("127.0.0.1:8443")?, tls);
//! let stop = server.handle();
//! let t = std::thread::spawn(move || {
//!     server.serve(|ex: &mut Exchange<'_>| -> Result<(), Error> { ex.respond_with(200, &[], b"hi") })
//! });
//!
//! let tls = ClientTls::from_pem_file("cert.pem")?;
//! let client = Client::builder().connector(move |h: &str, p: u16| tls.connect(h, p)).build();
//! assert_eq!(client.get("https://localhost:8443/")?.body_to_vec(64)?, b"hi");
//! stop.shutdown();
//! t.join().unwrap()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # A certificate for testing
//!
//! A self-signed certificate for `localhost` and `127.0.0.1` that the
//! client accepts (`cert.pem` for the server and for the client's trust,
//! `key.pem` for the server), made with OpenSSL 3:
//!
//! ```sh
//! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
//!   -keyout key.pem -out cert.pem -days 30 -subj /CN=localhost \
//!   -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
//!   -addext "basicConstraints=critical,CA:FALSE"
//! ```
//!
//! Without the first `-addext` the host is only in the subject's CN, which
//! rustls' verifier (webpki) does not read (RFC 9110 §4.3.4: a client must
//! not use a CN-ID): [`TlsFailure::NameMismatch`]. Without the second,
//! `openssl req -x509` makes a CA certificate, which webpki refuses as a
//! server's: [`TlsFailure::CaUsedAsEndEntity`]. Each error's text says
//! which option to add.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod client;
mod config;
mod failure;
mod server;
mod stream;
#[cfg(feature = "tokio")]
pub mod tokio;

pub use client::{ClientTls, InvalidHost};
pub use config::{ConfigError, HTTP_1_1};
pub use failure::TlsFailure;
pub use server::ServerTls;
pub use stream::TlsStream;

/// rustls, whose configurations and errors this crate's API takes.
pub use rustls;

/// The README's Rust examples, compiled as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

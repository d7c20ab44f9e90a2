//! Sans-IO HTTP/1.1 connection state machines: a server connection and a
//! client connection that take bytes in, give events out, take answers and
//! give bytes to send. No socket, no clock, no thread, and after the buffers
//! are allocated when the connection is made, no allocation per message.
//!
//! Call order, server side (the client mirrors it):
//! 1. input: read into [`ServerConn::spare_mut`] and [`ServerConn::commit`]
//!    the count (or hand bytes to [`ServerConn::recv`]); [`ServerConn::recv_eof`]
//!    when the peer closed;
//! 2. events: [`ServerConn::poll_event`] until it says
//!    [`ServerEvent::NeedInput`] or [`ServerEvent::Paused`];
//! 3. answers: the `send_*` / `respond` commands (on the connection, or on the
//!    [`Responder`] half of [`ServerConn::parts`] while the request is borrowed);
//! 4. output: write [`ServerConn::output`] to the peer and report it with
//!    [`ServerConn::consume_output`]; when a command returned
//!    [`Placement::AfterOutput`], the caller's body bytes go right after it;
//! 5. [`ServerConn::should_close`] and [`ServerConn::phase`] tell the adapter
//!    when to close and which timeout applies.
//!
//! Both connections are explicit state machines: a read half and a write
//! half each, every move taken from one table (one exhaustive `match` per
//! half over a state without data and an event); a command the table does
//! not list for the current state is [`LocalError::WrongState`].
//!
//! # Types that grow, threads
//! [`ServerEvent`], [`ClientEvent`], [`Phase`], [`AnswerState`], [`Stage`]
//! and the errors [`RemoteError`] and [`LocalError`] are `#[non_exhaustive]`: match
//! them with a wildcard arm (an adapter that meets an event or a phase it
//! does not know closes the connection), since later versions may add
//! members. [`Error`] (the peer's fault or the caller's), [`BodyLength`]
//! (none, known, streamed) and [`Placement`] (copied or not) are complete
//! as they are and stay exhaustive. [`Config`], [`ConfigOverrides`] and
//! [`PreparedResponse`] have private fields: build them with
//! [`Config::DEFAULT`] and [`ConfigOverrides::NONE`] and their `with_*`
//! setters, and [`PreparedResponse::new`].
//! [`ServerConn::recv`] and [`ClientConn::recv`] are `#[must_use]`: what
//! did not fit in the input buffer was not taken.
//!
//! ```compile_fail
//! #![deny(unused_must_use)]
//! let mut conn = http_net_conn::ServerConn::new(http_net_conn::Config::DEFAULT);
//! conn.recv(b"GET / HTTP/1.1\r\n"); // bytes that did not fit would be lost
//! ```
//!
//! [`Placement`] is `#[must_use]` too: a dropped
//! [`Placement::AfterOutput`] loses the body bytes the caller had to write
//! right after the output.
//!
//! ```compile_fail
//! #![deny(unused_must_use)]
//! use http_net_conn::{Config, PreparedResponse, ServerConn};
//! let mut conn = ServerConn::new(Config::DEFAULT);
//! let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
//! let _ = conn.poll_event();
//! let ok = PreparedResponse::new(200, &[]).unwrap();
//! conn.responder().respond(&ok, &[b'x'; 8192]).unwrap(); // not copied: lost
//! ```
//!
//! Every public type is `Send` and `Sync`: a connection, its [`Buffers`],
//! [`Config`] and [`PreparedResponse`] own plain bytes and state (no `Rc`,
//! no interior mutability), so a connection can move between threads or
//! tasks and a prepared response can be shared by reference; the borrowed
//! events and views are `Send` and `Sync` as the bytes they borrow are.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

extern crate alloc;

mod blame;
mod body;
mod buffers;
mod client;
mod client_settings;
mod codings_text;
mod config;
#[cfg(target_has_atomic = "64")]
mod counters;
mod date;
pub mod driver;
#[cfg(target_has_atomic = "64")]
mod endpoint;
mod error;
mod error_impls;
mod evict;
mod exchange_accessors;
mod fields;
mod handler_end;
mod hooks;
mod inbuf;
mod io_buffers;
mod leftover;
mod mistake;
mod outgoing;
mod owned_fields;
mod pace;
mod read_step;
mod redirect;
mod request_body;
mod response;
mod server;
#[cfg(target_has_atomic = "ptr")]
mod server_options;
mod settings;
mod setup_rate;
mod stage;
mod state;
mod status;
mod target;
mod time;
mod url;
mod validate;
mod writer;

pub use buffers::Buffers;
pub use client::{
    ClientConn, ClientEvent, ClientHead, ClientTimeout, ExpectState, Failure, ResponseView, Retry,
    MAX_PIPELINED,
};
pub use client_settings::{ClientOptions, ClientSettings};
pub use codings_text::UnsupportedCodings;
pub use config::{Config, ConfigOverrides};
#[cfg(target_has_atomic = "64")]
pub use counters::{Counters, StageCounts};
pub use date::imf_fixdate;
pub use error::{Error, LocalError, RemoteError};
pub use fields::Trailers;
pub use hooks::{
    AccessLogFn, AccessRecord, ErrorBody, ErrorBodyFn, ErrorCause, ErrorResponse, ErrorStatusFn,
    Limit, MistakeLogFn, MistakeReport,
};
pub use mistake::{HandlerError, Mistake, WithStatus};
pub use outgoing::{expects_continue, request_fields, request_fields_into, request_length};
pub use owned_fields::OwnedFields;
pub use redirect::{location, Hop, Origin, Redirect, RedirectError, Redirects};
pub use request_body::RequestBody;
pub use response::{BodyLength, PreparedResponse};
pub use server::{
    AnswerState, OwnedRequestHead, Phase, RequestView, Responder, ServerConn, ServerEvent,
};
#[cfg(target_has_atomic = "ptr")]
pub use server_options::ServerOptions;
pub use settings::{Rate, ServerSettings};
pub use stage::Stage;
pub use target::{
    form_decode, percent_decode, query_pairs, target_path, target_query, PercentError, QueryPairs,
};
pub use time::{RequestDeadline, Timestamp};
pub use url::{Url, UrlError};
pub use writer::{FieldPair, Placement, COPY_LIMIT};

/// The framing layer (`http-net-framing`) this crate's API exposes: body
/// kinds, body limits, framing errors.
pub use http_net_framing as framing;
/// The head layer (`http-net-head`) this crate's API exposes: request and
/// status lines, fields, limits. Re-exported so that a crate built on `conn`
/// (the std adapter, an async adapter) depends on `conn` alone.
pub use http_net_head as head;

/// The head and framing types that appear in this crate's API, at its root.
pub use http_net_framing::BodyKind;
/// The body limits ([`Config::body_limits`]): `http_net_framing::BodyLimits`.
pub use http_net_framing::BodyLimits;
/// The head limits ([`Config::head_limits`]): `http_net_head::HeadLimits`.
pub use http_net_head::HeadLimits;
pub use http_net_head::{Field, Method, RequestHead, ResponseHead, Span, TargetForm, Version};

/// The state tables as Markdown, in the order `docs/ARCHITECTURE.md` prints
/// them (server read, server write, client write, client read): what
/// `cargo xtask docs-check` compares the document with. Not part of the API.
#[cfg(feature = "doc-tables")]
#[doc(hidden)]
pub fn state_tables_markdown() -> [alloc::string::String; 4] {
    state::render::all()
}

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

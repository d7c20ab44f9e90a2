//! Message-body framing for HTTP/1.1 (RFC 9112 §6–§7): the body-length
//! decision, Content-Length and Transfer-Encoding checks that defeat request
//! smuggling, the chunked decoder and encoder, trailers and the body budget.
//!
//! - [`request_body`] and [`response_body`] decide how a message's body is
//!   delimited, RFC 9112 §6.3 step by step, rejecting every ambiguous framing
//!   with an [`Error`] that names the rule, its RFC section and the status.
//! - [`LengthDecoder`] counts a `Content-Length` body; [`ChunkedDecoder`]
//!   decodes a chunked one, strictly, handing data out as ranges of its input
//!   or compacting it in place.
//! - [`BodyDecoder`] reads any body (`Content-Length`, chunked,
//!   close-delimited) for both directions; [`BodyEncoder`] checks that a
//!   body sent matches its declared length.
//! - [`ChunkedEncoder`] writes chunk framing beside the caller's data.
//! - Errors: [`Error`] is the peer's fault (with the status to answer),
//!   [`EncodeError`] our own caller's.
//!
//! The step records ([`Step`], [`BodyStep`], [`ChunkedStep`],
//! [`InPlaceStep`]) and the errors are `#[non_exhaustive]` (read their
//! fields, match with a wildcard: later versions may add members) and
//! `#[must_use]` (a step dropped loses how much input it consumed):
//!
//! ```compile_fail,E0639
//! // Outside this crate a step cannot be built by a struct literal...
//! let step = http_net_framing::Step { consumed: 0, data: 0..0, done: true };
//! ```
//!
//! ```compile_fail
//! #![deny(unused_must_use)]
//! // ...and dropping one is a warning (an error here).
//! http_net_framing::LengthDecoder::new(1).decode(b"x");
//! ```
//!
//! [`BodyKind`], [`BodyDecoder`] and [`BodyEncoder`] are exhaustive: their
//! variants are the closed list of RFC 9112 §6.3 (no body, a length,
//! chunked, until close, a tunnel) and of the framings of RFC 9112 §6, so a
//! match on them needs no wildcard that could hide a framing case.
//!
//! Every public type of this crate is `Send` and `Sync` (plain data, no
//! interior mutability).
//!
//! The crate is `no_std` (with `alloc` for the encoder's trailer writer) and
//! has no `unsafe` code.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

extern crate alloc;

mod body;
mod chunked;
mod class;
mod content_length;
mod encode;
mod error;
mod length;
mod limits;
pub mod syntax;
mod transfer_coding;

pub use body::{BodyDecoder, BodyEncoder, BodyStep};
pub use chunked::{ChunkedDecoder, ChunkedStep, InPlaceStep};
pub use encode::{ChunkHeader, ChunkedEncoder};
pub use error::{EncodeError, Error};
pub use length::{request_body, response_body, BodyKind, LengthDecoder, Step};
pub use limits::BodyLimits;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

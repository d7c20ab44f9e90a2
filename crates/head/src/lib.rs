//! Strict, resumable, zero-copy parsing of HTTP/1.1 heads (RFC 9112 §2–§5):
//! request lines, status lines and field lines.
//!
//! Parsed heads refer to the input by [`Span`]s (offsets), so a connection can
//! keep a head beside the buffer it owns; fields go into caller-owned
//! [`Field`] storage, so parsing allocates nothing. Three parsers share one
//! field-line engine: [`RequestParser`], [`ResponseParser`] and
//! [`FieldBlockParser`] (trailers). Each is resumable: after
//! [`Parsed::Partial`] call again with the buffer extended, and the scan goes
//! on where it stopped, so feeding a head one byte at a time costs linear
//! time. While the fields are parsed, the [`KnownFields`] the framing and
//! connection layers need are gathered in the same pass.
//!
//! ```
//! use http_net_head::{Field, HeadLimits, RequestParser, Parsed};
//!
//! let buf = b"GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n";
//! let mut fields = [Field::default(); 32];
//! let mut parser = RequestParser::new(HeadLimits::DEFAULT);
//! let Ok(Parsed::Complete(head)) = parser.parse(buf, &mut fields) else { panic!() };
//! assert!(head.known.connection.close());
//! assert_eq!(head.known.host.first(), Some(0));
//! ```
//!
//! # What is accepted
//! - Requests: up to [`MAX_LEADING_EMPTY_LINES`] empty lines (CR LF) before
//!   the request line (RFC 9112 §2.2), counted in the head size; a method
//!   token (extension methods too), one SP, a target, one SP, `HTTP/1.0` or
//!   `HTTP/1.1` (another `HTTP/1.x` is read as 1.1, RFC 9110 §2.5), CR LF.
//! - Targets (RFC 9112 §3.2): origin-form `/path?query` with any method but
//!   CONNECT; absolute-form `scheme://host[:port][/path][?query]` with any
//!   method but CONNECT; authority-form `host:port` with CONNECT only;
//!   asterisk-form `*` with OPTIONS only. Bytes: unreserved, sub-delims,
//!   `:` `@` `/` `?`, and `%` HEXDIG HEXDIG; `[` `]` only in the host of an
//!   authority.
//! - Responses: `HTTP/1.x SP 3DIGIT SP reason CR LF`, status 100–999, the
//!   reason possibly empty but the SP before it required; reason bytes HTAB,
//!   SP, VCHAR, obs-text.
//! - Field lines: `token ":" OWS value OWS CR LF`; the value keeps every
//!   HTAB, SP, VCHAR and obs-text (0x80–0xFF) byte between its first and
//!   last non-OWS byte.
//! - `Host` (requests): exactly one line in HTTP/1.1, at most one in
//!   HTTP/1.0, its value `uri-host [":" port]` with a non-empty host and a
//!   port of 1–5 digits up to 65535.
//! - Responses may carry obs-fold, kept in the value span and reported
//!   ([`ObsFold::Replace`], the default), or rejected ([`ObsFold::Reject`]).
//! - Responses only, each off by default ([`ResponseOptions`], for a client
//!   talking to a broken server; the risk each accepts is in its doc): a
//!   bare LF as a line end, whitespace between a field name and its colon,
//!   a status line without the SP before an empty reason. Requests and
//!   field blocks (trailers) have no leniency.
//!
//! # What is rejected, and with which [`Error`]
//! | input | error | status |
//! |---|---|---|
//! | a line ending in LF alone | [`Error::BareLf`] | 400 |
//! | a CR not followed by LF | [`Error::BareCr`] | 400 |
//! | a fifth empty line before the request line | [`Error::TooManyLeadingEmptyLines`] | 400 |
//! | a method byte that is not a tchar | [`Error::InvalidMethod`] | 400 |
//! | no part, or more than one SP, between start-line parts; SP after the version; no SP after a status code | [`Error::InvalidStartLineSpacing`] | 400 |
//! | a target byte outside the RFC 3986 set (CTL, SP in place of the version, `#`, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, non-ASCII), or a bad `%` escape | [`Error::InvalidTargetByte`] | 400 |
//! | a target form that is not one of the four, or does not fit the method; userinfo in an absolute-form | [`Error::InvalidTargetForm`] | 400 |
//! | a version that is not `HTTP/DIGIT.DIGIT` (or is `HTTP/0.x`) | [`Error::InvalidVersion`] | 400 |
//! | `HTTP/2.0` and above | [`Error::UnsupportedVersion`] | 505 |
//! | a status code that is not three digits from 100 | [`Error::InvalidStatusCode`] | 400 |
//! | a CTL or DEL in the reason | [`Error::InvalidReasonByte`] | 400 |
//! | a response starting with a TLS record header (`0x15` or `0x16`, then `0x03`): a TLS server answered | [`Error::TlsRecord`] | 400 |
//! | a field line without a colon, or a name byte that is not a tchar | [`Error::InvalidFieldName`] | 400 |
//! | an empty field name | [`Error::EmptyFieldName`] | 400 |
//! | SP or HTAB between the name and the colon | [`Error::WhitespaceBeforeColon`] | 400 |
//! | a line starting with SP or HTAB (obs-fold, or whitespace before the first field) | [`Error::ObsFold`] | 400 |
//! | NUL, another CTL but HTAB, or DEL in a value | [`Error::InvalidFieldValue`] | 400 |
//! | HTTP/1.1 without `Host` | [`Error::MissingHost`] | 400 |
//! | a second `Host` line | [`Error::DuplicateHost`] | 400 |
//! | a `Host` value that is not `uri-host [":" port]` (empty included) | [`Error::InvalidHost`] | 400 |
//! | more than `max_head_bytes` without the end of the head | [`Error::HeadTooLarge`] | 431 |
//! | more field lines than `max_fields` (or than the storage given) | [`Error::TooManyFields`] | 431 |
//! | a target longer than `max_target_bytes` | [`Error::TargetTooLong`] | 414 |
//! | a method longer than `max_method_bytes` (32 by default: longer than any registered method) | [`Error::MethodTooLong`] | 501 |
//!
//! With the front-line profile on ([`HeadLimits::with_front_line`], off by
//! default; the reason for each form is in its doc) requests are also
//! rejected for: a method outside the IANA registry
//! ([`Error::UnregisteredMethod`], 501); `%00`, `%0D` or `%0A` in the target
//! ([`Error::EncodedControlInTarget`]); an absolute-form target whose
//! authority is not the `Host` value ([`Error::HostMismatch`]); an
//! `Upgrade` that is not a list of protocols ([`Error::InvalidUpgrade`]).
//! Requests and responses are rejected for a `Content-Length` other than
//! one line of `[SP] 1*DIGIT` without leading zeros, never folded
//! ([`Error::NonCanonicalContentLength`]), and trailer sections of either
//! for a framing, routing, credential or content-handling field
//! ([`Error::ForbiddenTrailer`]); a 101 response is rejected when its
//! `Upgrade` is missing or not a list of protocols
//! ([`Error::InvalidUpgrade`]). All are 400 but the first.
//!
//! When several rules are broken, the error reported is the one whose
//! offending byte comes first, however the input is split; incomplete
//! input is `Partial`, never an error, unless a limit is already exceeded.
//! Whole-value rules are met at the end of their value: the `Host` grammar
//! at the end of the `Host` line, the target's form at the end of the
//! version (so the HTTP/2 preface `PRI * HTTP/2.0` is answered 505), and
//! `MissingHost` at the empty line that ends the head.
//!
//! # What is recorded, and what is interpreted
//! Of the `Content-Length`, `Transfer-Encoding`, `Host`, `Upgrade` and
//! `Expect` lines this crate records where they are ([`FieldRefs`] in
//! [`KnownFields`]); what their values mean is for `http-net-framing` and
//! `http-net-conn` (beyond the `Host` grammar, checked here). `Connection`
//! values it does interpret: each line's list is read as tokens (RFC 9110
//! §7.6.1) and the `close`, `keep-alive` and `upgrade` options are kept as
//! [`ConnectionOptions`]; other options are not recorded.
//!
//! # Types that grow, threads
//! The parsed heads ([`RequestHead`], [`ResponseHead`], [`FieldBlock`]),
//! [`KnownFields`], [`ResponseOptions`], [`Method`] and [`Error`] are
//! `#[non_exhaustive]`: read their fields and match them with a wildcard,
//! since later versions may add members. The parsers build the heads;
//! [`ResponseOptions::DEFAULT`] and its `with_*` setters build options.
//!
//! ```compile_fail,E0639
//! // A struct literal of a head does not compile outside this crate.
//! let known = http_net_head::KnownFields { ..http_net_head::KnownFields::EMPTY };
//! ```
//!
//! Every public type of this crate is `Send` and `Sync`: all are plain data
//! (spans, counts, flags; no interior mutability, no pointers), so a parser
//! or a parsed head can move to or be shared with another thread.
//!
//! # Checking what is sent
//! [`valid_token`], [`valid_field_value`], [`valid_reason`], [`valid_host`]
//! and [`check_target`] are the rules above on whole values, for a writer:
//! what they accept, the parsers read back unchanged, and what they refuse,
//! the parsers reject or change (a field value with whitespace first or
//! last is refused, since the parsers strip it).
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod block;
mod error;
mod field;
mod front;
mod grammar;
mod host;
mod known;
mod limits;
mod method;
mod parsed;
mod request;
mod response;
mod section;
mod span;
mod target;
mod version;
mod work;

pub use block::{FieldBlock, FieldBlockParser};
pub use error::Error;
pub use field::{unfold_in_place, Field};
pub use grammar::{
    check_target, forbidden_in_trailers, valid_field_value, valid_host, valid_reason, valid_token,
};
pub use known::{ConnectionOptions, FieldRefs, KnownFields};
pub use limits::HeadLimits;
pub use method::Method;
pub use parsed::Parsed;
pub use request::{RequestHead, RequestParser, MAX_LEADING_EMPTY_LINES};
pub use response::{ObsFold, ResponseHead, ResponseOptions, ResponseParser};
pub use span::Span;
pub use target::TargetForm;
pub use version::Version;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

//! Strict, resumable, zero-copy parsing of HTTP/1.1 heads (RFC 9112 §2–§5):
//! request lines, status lines and field lines.
//!
//! Parsed heads refer to the input by [`Span`]s (offsets), so a connection can
//! keep a head beside the buffer it owns; fields go into caller-owned
//! [`Field`] storage, so parsing allocates nothing.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod block;
mod error;
mod facts;
mod field;
mod host;
mod limits;
mod method;
mod request;
mod response;
mod section;
mod span;
mod target;
mod version;
mod work;

pub use block::{FieldBlock, FieldBlockParser};
pub use error::Error;
pub use facts::{ConnectionOptions, FieldFacts, FieldRefs};
pub use field::{unfold_in_place, Field};
pub use limits::Limits;
pub use method::Method;
pub use request::{RequestHead, RequestParser, MAX_LEADING_EMPTY_LINES};
pub use response::{ObsFold, ResponseHead, ResponseOptions, ResponseParser};
pub use span::Span;
pub use target::TargetForm;
pub use version::Version;

/// The outcome of a parse step that did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status<T> {
    /// The whole item was parsed.
    Complete(T),
    /// More input is needed; call again with the same buffer extended.
    Partial,
}

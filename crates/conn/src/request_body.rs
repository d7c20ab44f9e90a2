//! A client's request body, generic over the reader an adapter streams from.

use alloc::vec::Vec;
use core::fmt;

use crate::outgoing::request_length;
use crate::response::BodyLength;

/// A request body: no body, borrowed bytes, or a reader of type `R` (a
/// `dyn Read` for the blocking client, a `dyn AsyncRead` for the async one).
///
/// Each adapter names it with its reader as `RequestBody<'a>`; what the
/// variants mean, how the body is framed ([`RequestBody::length`]) and
/// whether a redirect may send it again ([`RequestBody::replayable`]) are the
/// same for both.
///
/// ```
/// use http_net_conn::{BodyLength, RequestBody};
/// // `()` stands for the adapter's reader here.
/// let bytes: RequestBody<'_, ()> = b"abc".into();
/// assert!(bytes.replayable());
/// assert_eq!(bytes.length(b"PUT"), BodyLength::Known(3));
/// let mut reader = ();
/// let streamed = RequestBody::Reader { reader: &mut reader, len: None };
/// assert!(!streamed.replayable());
/// assert_eq!(streamed.length(b"POST"), BodyLength::Streamed);
/// assert_eq!(format!("{streamed:?}"), "Reader { len: None }");
/// ```
#[non_exhaustive]
pub enum RequestBody<'a, R: ?Sized> {
    /// No body (`Content-Length: 0` for methods that define content).
    Empty,
    /// These bytes (replayable: a `307`/`308` redirect may send them again).
    Bytes(&'a [u8]),
    /// Bytes read from `reader` while they are sent: exactly `len` of them
    /// with `Content-Length`, or to the reader's end, chunked, when `len` is
    /// `None`. Not replayable.
    Reader {
        /// Where the body comes from.
        reader: &'a mut R,
        /// Its length, when known.
        len: Option<u64>,
    },
}

impl<R: ?Sized> fmt::Debug for RequestBody<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestBody::Empty => f.write_str("Empty"),
            RequestBody::Bytes(b) => write!(f, "Bytes({} bytes)", b.len()),
            RequestBody::Reader { len, .. } => write!(f, "Reader {{ len: {len:?} }}"),
        }
    }
}

impl<R: ?Sized> RequestBody<'_, R> {
    /// How this body is framed in a `method` request: [`request_length`] of
    /// its length (none for [`RequestBody::Empty`], the bytes' count, or the
    /// reader's `len`).
    pub fn length(&self, method: &[u8]) -> BodyLength {
        request_length(
            method,
            match self {
                RequestBody::Empty => Some(0),
                RequestBody::Bytes(b) => Some(b.len() as u64),
                RequestBody::Reader { len, .. } => *len,
            },
        )
    }
    /// Whether the body can be sent again (bytes, not a reader), as a
    /// `307`/`308` redirect needs.
    pub fn replayable(&self) -> bool {
        !matches!(self, RequestBody::Reader { .. })
    }
}

impl<'a, R: ?Sized> From<&'a [u8]> for RequestBody<'a, R> {
    fn from(b: &'a [u8]) -> Self {
        RequestBody::Bytes(b)
    }
}

impl<'a, R: ?Sized, const N: usize> From<&'a [u8; N]> for RequestBody<'a, R> {
    fn from(b: &'a [u8; N]) -> Self {
        RequestBody::Bytes(b)
    }
}

impl<'a, R: ?Sized> From<&'a Vec<u8>> for RequestBody<'a, R> {
    fn from(b: &'a Vec<u8>) -> Self {
        RequestBody::Bytes(b)
    }
}

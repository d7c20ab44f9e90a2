//! The adapter's error type: an enum, no strings.

use core::fmt;
use std::io;

use http_net_conn::{Error as ConnError, RedirectError};

use crate::url::UrlError;

/// What the adapter was waiting for when a timeout expired (one type with
/// the async adapter's, defined in `conn`).
pub use http_net_conn::Stage;

/// A limit the local side set, which a message went over (one type with
/// the async adapter's, defined in `conn`).
pub use http_net_conn::Limit;

/// An error of the blocking server or client.
#[non_exhaustive]
#[derive(Debug)]
pub enum Error {
    /// The operating system reported an I/O error.
    Io(io::Error),
    /// The peer broke a protocol rule, or the connection was used wrongly
    /// (the `conn` error says which rule, with its RFC section).
    Protocol(ConnError),
    /// A timeout expired while waiting for the given stage.
    Timeout(Stage),
    /// After its grace, the peer moved fewer bytes per second than the
    /// configured minimum data rate at the given stage (a request body, a
    /// response).
    TooSlow(Stage),
    /// The URL given to the client cannot be used.
    Url(UrlError),
    /// The peer closed the connection before sending any byte of a response.
    ConnectionClosed,
    /// [`Exchange::upgrade`](crate::Exchange::upgrade) was called but the
    /// connection was not switched (no 101 response, or no 2xx to CONNECT).
    NotSwitched,
    /// A body read was attempted after the connection failed or was handed over.
    BodyUnavailable,
    /// The server evicted the connection at its connection limit, to admit
    /// a newcomer, while the handler read the request body (the peer is
    /// answered `408`) or wrote a response the peer did not read (the
    /// response is cut). The same error in both adapters.
    Evicted,
    /// A body is larger than a limit the local side set (not the peer's
    /// fault: the message may be well-formed).
    OverLimit(Limit),
    /// A redirect was not followed (the client's redirect policy says why).
    Redirect(RedirectError),
    /// The response body still carries these transfer codings (a
    /// `Transfer-Encoding` that does not end in `chunked`, RFC 9112 §6.1),
    /// which the client does not decode. `ClientBuilder::accept_transfer_codings`
    /// hands such a body out.
    UnsupportedTransferCoding(Vec<Vec<u8>>),
}

impl Error {
    /// Wraps this error in an [`io::Error`] (for `Read` / `Write` impls),
    /// keeping the kind that fits: `TimedOut`, `InvalidData`, `UnexpectedEof`...
    /// [`Error::from_io`] gets it back.
    pub fn into_io(self) -> io::Error {
        match self {
            Error::Io(e) => e,
            Error::Timeout(_) | Error::TooSlow(_) | Error::Evicted => {
                io::Error::new(io::ErrorKind::TimedOut, self)
            }
            Error::Protocol(ConnError::Remote(http_net_conn::RemoteError::UnexpectedEof))
            | Error::ConnectionClosed => io::Error::new(io::ErrorKind::UnexpectedEof, self),
            Error::Protocol(_) | Error::Url(_) | Error::UnsupportedTransferCoding(_) => {
                io::Error::new(io::ErrorKind::InvalidData, self)
            }
            Error::NotSwitched
            | Error::BodyUnavailable
            | Error::OverLimit(_)
            | Error::Redirect(_) => io::Error::other(self),
        }
    }

    /// Gets an adapter error back out of an [`io::Error`] made by
    /// [`Error::into_io`]; any other I/O error becomes [`Error::Io`].
    pub fn from_io(e: io::Error) -> Error {
        if e.get_ref().is_some_and(|inner| inner.is::<Error>()) {
            match e.into_inner().map(|b| b.downcast::<Error>()) {
                Some(Ok(inner)) => *inner,
                // Unreachable in practice: `is::<Error>()` was checked above.
                _ => Error::BodyUnavailable,
            }
        } else {
            Error::Io(e)
        }
    }

    /// Whether the peer (not the local side, the network or a timeout) is to
    /// blame: a malformed, unsafe or truncated message.
    pub fn is_peer_fault(&self) -> bool {
        matches!(self, Error::Protocol(ConnError::Remote(_)))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "i/o error: {e}"),
            Error::Protocol(e) => fmt::Display::fmt(e, f),
            Error::Timeout(stage) => write!(f, "timed out {stage}"),
            Error::TooSlow(stage) => write!(f, "below the minimum data rate {stage}"),
            Error::Url(e) => write!(f, "unusable URL: {e}"),
            Error::ConnectionClosed => {
                f.write_str("the peer closed the connection before sending a response")
            }
            Error::NotSwitched => {
                f.write_str("the connection was not switched to another protocol")
            }
            Error::BodyUnavailable => f.write_str("the body can no longer be read"),
            Error::Evicted => f.write_str("evicted at the connection limit to admit a newcomer"),
            Error::OverLimit(limit) => write!(f, "the body is larger than {limit}"),
            Error::Redirect(e) => write!(f, "redirect not followed: {e}"),
            Error::UnsupportedTransferCoding(codings) => {
                fmt::Display::fmt(&http_net_conn::UnsupportedCodings(codings), f)
            }
        }
    }
}

http_net_conn::__adapter_error_impls!(Error);

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::from_io(e)
    }
}

impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        e.into_io()
    }
}

/// Whether an I/O error is a socket timeout (`WouldBlock` on Unix, `TimedOut`
/// on Windows).
pub(crate) fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_io_error() {
        let e = Error::Timeout(Stage::Body).into_io();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert!(matches!(Error::from_io(e), Error::Timeout(Stage::Body)));
        let plain = io::Error::new(io::ErrorKind::BrokenPipe, "x");
        assert!(matches!(Error::from_io(plain), Error::Io(_)));
    }

    #[test]
    fn too_slow_round_trips_through_io_error() {
        let e = Error::TooSlow(Stage::Write).into_io();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert!(matches!(Error::from_io(e), Error::TooSlow(Stage::Write)));
    }
}

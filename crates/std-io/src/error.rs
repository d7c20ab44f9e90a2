//! The adapter's error type: an enum, no strings.

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
        self.into()
    }

    /// Gets an adapter error back out of an [`io::Error`] made by
    /// [`Error::into_io`]; any other I/O error becomes [`Error::Io`].
    pub fn from_io(e: io::Error) -> Error {
        e.into()
    }

    /// Whether the peer (not the local side, the network or a timeout) is to
    /// blame: a malformed, unsafe or truncated message.
    pub fn is_peer_fault(&self) -> bool {
        matches!(self, Error::Protocol(ConnError::Remote(_)))
    }
}

http_net_conn::__adapter_error_impls!(Error);

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

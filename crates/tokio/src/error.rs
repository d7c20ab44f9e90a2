//! The adapter's error: an I/O failure, a protocol error from `conn`, a
//! deadline or a data rate that was not met, a limit the local side set,
//! or a misuse.

use std::io;

use http_net_conn::Error as ConnError;

/// Which wait a deadline or a minimum data rate bounded (one type with the
/// blocking adapter's, defined in `conn`).
pub use http_net_conn::Stage;

/// A limit the local side set, which a message went over (one type with
/// the blocking adapter's, defined in `conn`): a client's
/// [`ClientResponse::body_to_vec`](crate::ClientResponse::body_to_vec)
/// limit ([`Limit::BodyToVec`]), or the body budget in force
/// ([`Limit::BodyBudget`]: a client's
/// [`ClientBuilder::conn_config`](crate::ClientOptions::conn_config), a
/// server's [`ServerBuilder::max_body_bytes`](crate::ServerOptions::max_body_bytes)).
pub use http_net_conn::Limit;

/// What went wrong in the adapter.
#[non_exhaustive]
#[derive(Debug)]
pub enum Error {
    /// The stream failed.
    Io(io::Error),
    /// The peer broke a protocol rule, or the caller misused the connection
    /// (the `conn` error names the rule and its RFC section).
    Protocol(ConnError),
    /// The stage's deadline passed with no progress.
    Timeout(Stage),
    /// After the grace period the peer moved fewer bytes per second than the
    /// configured minimum data rate.
    TooSlow(Stage),
    /// [`upgrade`](crate::Exchange::upgrade) was called on a connection that
    /// did not switch (no `101`, no `2xx` to `CONNECT`).
    NotSwitched,
    /// The request body can no longer be read (the connection failed, was
    /// switched, or the stream broke).
    BodyUnavailable,
    /// The peer closed the connection before a response arrived.
    ConnectionClosed,
    /// The server evicted the connection at its connection limit, to admit
    /// a newcomer, while the handler read the request body (the peer is
    /// answered `408`) or wrote a response the peer did not read (the
    /// response is cut). The same error in both adapters.
    Evicted,
    /// The response body still carries these transfer codings (a
    /// `Transfer-Encoding` that does not end in `chunked`, RFC 9112 §6.1),
    /// which the client does not decode.
    /// [`ClientBuilder::accept_transfer_codings`](crate::ClientOptions::accept_transfer_codings)
    /// hands such a body out.
    UnsupportedTransferCoding(Vec<Vec<u8>>),
    /// A body is larger than a limit the local side set (not the peer's
    /// fault: the message may be well-formed).
    OverLimit(Limit),
    /// The client cannot use the URL (the rule it breaks; the blocking
    /// adapter's `Error::Url`).
    Url(http_net_conn::UrlError),
    /// A redirect the policy follows could not be (the blocking adapter's
    /// `Error::Redirect`).
    Redirect(http_net_conn::RedirectError),
}

impl Error {
    /// Wraps this error in an [`io::Error`] (for the `AsyncRead` and
    /// `AsyncWrite` impls: a [`ClientResponse`](crate::ClientResponse), a
    /// request's [`Body`](crate::Body), a response's
    /// [`BodyWriter`](crate::BodyWriter)), keeping the kind a copy loop
    /// expects: `TimedOut` for a timeout, a data rate not met or an
    /// eviction; `UnexpectedEof` for a body cut short or a connection closed
    /// before a response; `InvalidData` for a protocol error, an unusable
    /// URL or a transfer coding the client does not decode; `Other` for the
    /// rest. An [`Error::Io`] is its own I/O error; any other error is kept
    /// inside (`get_ref`, `into_inner`), and [`Error::from_io`] gets it
    /// back. The blocking adapter's `Error::into_io`, with the same kinds.
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use http_net_tokio::http_net_conn::{Error as ConnError, RemoteError};
    /// use http_net_tokio::{Error, Stage};
    ///
    /// let cut = Error::Protocol(ConnError::Remote(RemoteError::UnexpectedEof));
    /// let e = cut.into_io();
    /// assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    /// assert!(e.get_ref().is_some_and(|inner| inner.is::<Error>()));
    /// assert!(matches!(Error::from_io(e), Error::Protocol(ConnError::Remote(RemoteError::UnexpectedEof))));
    /// assert_eq!(Error::Timeout(Stage::Body).into_io().kind(), ErrorKind::TimedOut);
    /// ```
    pub fn into_io(self) -> io::Error {
        self.into()
    }

    /// Gets an adapter error back out of an [`io::Error`] made by
    /// [`Error::into_io`] (what a `tokio::io::copy` from a
    /// [`ClientResponse`](crate::ClientResponse) returns, say); any other
    /// I/O error becomes [`Error::Io`]. The blocking adapter's
    /// `Error::from_io`.
    pub fn from_io(e: io::Error) -> Error {
        e.into()
    }

    /// Whether the peer is at fault (a malformed message): the `Remote`
    /// errors of `conn`.
    pub fn is_peer_fault(&self) -> bool {
        matches!(self, Error::Protocol(ConnError::Remote(_)))
    }
}

http_net_conn::__adapter_error_impls!(Error);

impl From<http_net_conn::LocalError> for Error {
    fn from(e: http_net_conn::LocalError) -> Error {
        Error::Protocol(ConnError::Local(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_keep_their_kind_and_come_back() {
        let e = Error::Timeout(Stage::Body).into_io();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert!(e.get_ref().is_some_and(|i| i.is::<Error>()));
        assert!(matches!(Error::from_io(e), Error::Timeout(Stage::Body)));
        let e = Error::Evicted.into_io();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        let e = Error::Io(io::ErrorKind::BrokenPipe.into()).into_io();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
        assert!(matches!(Error::from_io(e), Error::Io(_)));
        let e = Error::OverLimit(Limit::BodyBudget(1)).into_io();
        assert_eq!(e.kind(), io::ErrorKind::Other);
        // A body cut short is the kind `read_exact` and `copy` give for it.
        let cut = ConnError::Remote(http_net_conn::RemoteError::UnexpectedEof);
        let e = Error::Protocol(cut).into_io();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        assert!(Error::from_io(e).is_peer_fault());
        let e = Error::ConnectionClosed.into_io();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        // Another protocol error is invalid data.
        let e = Error::Protocol(ConnError::Remote(
            http_net_conn::RemoteError::UnsolicitedResponse,
        ));
        assert_eq!(e.into_io().kind(), io::ErrorKind::InvalidData);
        // `?` on an I/O error that carries an adapter error gives it back.
        let e: Error = io::Error::from(Error::NotSwitched).into();
        assert!(matches!(e, Error::NotSwitched));
    }
}

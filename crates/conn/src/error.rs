use core::fmt;

/// An error of a connection: the peer broke a rule ([`RemoteError`]), or the
/// caller used the connection wrongly ([`LocalError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The peer broke a rule; the connection answers (server side) and closes.
    Remote(RemoteError),
    /// The caller broke the connection's contract; nothing was sent.
    Local(LocalError),
}

/// A rule the peer broke.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemoteError {
    /// A malformed head.
    Head(http_net_head::Error),
    /// Malformed or unacceptable framing.
    Framing(http_net_framing::Error),
    /// An `Expect` other than `100-continue` (RFC 9110 §10.1.1): 417.
    UnsupportedExpectation,
    /// The peer closed before the message was complete (RFC 9112 §8).
    UnexpectedEof,
}

impl RemoteError {
    /// The status a server answers with.
    pub const fn status(self) -> u16 {
        match self {
            RemoteError::Head(e) => e.status(),
            RemoteError::Framing(e) => e.status(),
            RemoteError::UnsupportedExpectation => 417,
            RemoteError::UnexpectedEof => 400,
        }
    }
    /// The section of the RFC that states the rule.
    pub const fn rfc(self) -> &'static str {
        match self {
            RemoteError::Head(e) => e.rfc(),
            RemoteError::Framing(e) => e.rfc(),
            RemoteError::UnsupportedExpectation => "RFC 9110 §10.1.1",
            RemoteError::UnexpectedEof => "RFC 9112 §8",
        }
    }
}

/// A misuse of the connection by the caller.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalError {
    /// The command does not fit the connection's state (e.g. answering when no
    /// request is waiting).
    WrongState,
    /// A field name that is not a token (RFC 9110 §5.1).
    InvalidFieldName,
    /// CR, LF, NUL or another CTL in a field value (RFC 9110 §5.5): response
    /// splitting refused.
    InvalidFieldValue,
    /// CR, LF or a CTL in a reason phrase (RFC 9112 §4).
    InvalidReason,
    /// A status code outside 100..=999.
    InvalidStatus,
    /// A caller's `Content-Length` or `Transfer-Encoding` contradicts the body
    /// it passes (RFC 9112 §6).
    ConflictingFraming,
    /// More body bytes than the declared length.
    BodyOverrun,
    /// Fewer body bytes than the declared length when the body was ended.
    BodyUnderrun,
    /// A method that is not a token, or a target that is not a valid
    /// request-target (RFC 9112 §3).
    InvalidRequestLine,
    /// The output buffer cannot hold what was asked.
    OutputFull,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Remote(RemoteError::Head(e)) => write!(f, "peer sent a malformed head: {e}"),
            Error::Remote(RemoteError::Framing(e)) => write!(f, "peer sent bad framing: {e}"),
            Error::Remote(RemoteError::UnsupportedExpectation) => {
                f.write_str("peer asked for an expectation other than 100-continue (RFC 9110 §10.1.1)")
            }
            Error::Remote(RemoteError::UnexpectedEof) => {
                f.write_str("peer closed the connection before the message was complete (RFC 9112 §8)")
            }
            Error::Local(e) => write!(f, "the connection was used wrongly: {e:?}"),
        }
    }
}

impl core::error::Error for Error {}

impl From<RemoteError> for Error {
    fn from(e: RemoteError) -> Error {
        Error::Remote(e)
    }
}

impl From<LocalError> for Error {
    fn from(e: LocalError) -> Error {
        Error::Local(e)
    }
}

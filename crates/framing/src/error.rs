use core::fmt;

/// Why a message's framing was rejected: the rule, its RFC section
/// ([`Error::rfc`]) and the status a server answers ([`Error::status`]).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A trailer section broke a field rule (RFC 9112 §7.1.2).
    Trailer(http_net_head::Error),
}

impl Error {
    /// The status a server answers with before it closes.
    pub const fn status(self) -> u16 {
        match self {
            Error::Trailer(e) => e.status(),
        }
    }
    /// The section of the RFC that states the rule.
    pub const fn rfc(self) -> &'static str {
        match self {
            Error::Trailer(e) => e.rfc(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Trailer(e) => write!(f, "in the trailer section: {e}"),
        }
    }
}

impl core::error::Error for Error {}

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

/// A rule the peer broke. After one, the connection reads nothing more.
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
    /// A CONNECT request with content (RFC 9110 §9.3.6): 400.
    ConnectWithContent,
    /// Response bytes arrived while no request was outstanding (RFC 9112
    /// §9.2, §6.3 last paragraph): client side.
    UnsolicitedResponse,
    /// A `101 Switching Protocols` to a request that offered no upgrade
    /// (RFC 9110 §7.8, §15.2.2): client side.
    UnofferedUpgrade,
    /// More informational (1xx) responses to one request than
    /// [`Config::max_informational`](crate::Config::max_informational)
    /// (RFC 9110 §15.2; CPython's bound): client side.
    TooManyInformational,
}

impl RemoteError {
    /// The status a server answers with (502 for the client-side errors: what
    /// a gateway answers when its upstream misbehaves).
    pub const fn status(self) -> u16 {
        match self {
            RemoteError::Head(e) => e.status(),
            RemoteError::Framing(e) => e.status(),
            RemoteError::UnsupportedExpectation => 417,
            RemoteError::UnexpectedEof | RemoteError::ConnectWithContent => 400,
            RemoteError::UnsolicitedResponse
            | RemoteError::UnofferedUpgrade
            | RemoteError::TooManyInformational => 502,
        }
    }
    /// The section of the RFC that states the rule.
    pub const fn rfc(self) -> &'static str {
        match self {
            RemoteError::Head(e) => e.rfc(),
            RemoteError::Framing(e) => e.rfc(),
            RemoteError::UnsupportedExpectation => "RFC 9110 §10.1.1",
            RemoteError::UnexpectedEof => "RFC 9112 §8",
            RemoteError::ConnectWithContent => "RFC 9110 §9.3.6",
            RemoteError::UnsolicitedResponse => "RFC 9112 §9.2",
            RemoteError::UnofferedUpgrade => "RFC 9110 §7.8",
            RemoteError::TooManyInformational => "RFC 9110 §15.2",
        }
    }
}

/// A misuse of the connection by the caller. Nothing of the refused command
/// was queued.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalError {
    /// The command does not fit the connection's state (e.g. answering when no
    /// request is waiting).
    WrongState,
    /// A field name that is not a token (RFC 9110 §5.1).
    InvalidFieldName,
    /// CR, LF, NUL or another CTL in a field value, or whitespace around it
    /// (RFC 9110 §5.5): response splitting refused.
    InvalidFieldValue,
    /// CR, LF or a CTL in a reason phrase (RFC 9112 §4).
    InvalidReason,
    /// A status code outside 100..=999.
    InvalidStatus,
    /// A caller's `Content-Length` or `Transfer-Encoding` contradicts the body
    /// it passes, or is not allowed with the status (RFC 9112 §6, RFC 9110
    /// §8.6).
    ConflictingFraming,
    /// More body bytes than the declared length.
    BodyOverrun,
    /// Fewer body bytes than the declared length when the body was ended
    /// (RFC 9112 §6.2): the connection closes rather than be reused.
    BodyUnderrun,
    /// A method that is not a token, or a target that is not a valid
    /// request-target for the method (RFC 9112 §3).
    InvalidRequestLine,
    /// The output buffer cannot hold what was asked.
    OutputFull,
    /// A `101` to a request that offered no upgrade, or to an HTTP/1.0 peer
    /// (RFC 9110 §7.8).
    UpgradeNotOffered,
    /// A 1xx other than `101` given as the final answer (RFC 9110 §15.2).
    InformationalAsFinal,
    /// An informational response with a status outside 100..=199, or `101`
    /// (which is a final answer: use `send_head`).
    NotInformational,
    /// A request without exactly one `Host` field, or with an invalid value
    /// (RFC 9112 §3.2, RFC 9110 §7.2).
    InvalidHost,
    /// A field that must not be sent as a trailer, given as one: a field
    /// that frames, routes or authenticates the message or describes its
    /// content ([`forbidden_in_trailers`](http_net_head::forbidden_in_trailers);
    /// RFC 9110 §6.5.1).
    ForbiddenTrailerField,
    /// Trailers on a body that is not chunked.
    TrailersNotChunked,
    /// Too many requests outstanding on a client connection (the bound is
    /// [`MAX_PIPELINED`](crate::MAX_PIPELINED)), or a request after one that
    /// switches protocols.
    PipelineFull,
}

impl LocalError {
    fn describe(self) -> &'static str {
        match self {
            LocalError::WrongState => "the command does not fit the connection's state",
            LocalError::InvalidFieldName => "a field name is not a token (RFC 9110 §5.1)",
            LocalError::InvalidFieldValue => {
                "a field value contains a control byte or surrounding whitespace (RFC 9110 §5.5)"
            }
            LocalError::InvalidReason => "the reason phrase contains a control byte (RFC 9112 §4)",
            LocalError::InvalidStatus => "the status code is outside 100..=999",
            LocalError::ConflictingFraming => {
                "a Content-Length or Transfer-Encoding field contradicts the body (RFC 9112 §6)"
            }
            LocalError::BodyOverrun => "more body bytes than the declared length",
            LocalError::BodyUnderrun => "fewer body bytes than the declared length (RFC 9112 §6.2)",
            LocalError::InvalidRequestLine => "the method or the target is not valid (RFC 9112 §3)",
            LocalError::OutputFull => "the output buffer cannot hold the command",
            LocalError::UpgradeNotOffered => {
                "101 to a request that offered no upgrade (RFC 9110 §7.8)"
            }
            LocalError::InformationalAsFinal => "a 1xx status as the final answer (RFC 9110 §15.2)",
            LocalError::NotInformational => {
                "an informational response needs a 1xx status other than 101"
            }
            LocalError::InvalidHost => {
                "a request needs exactly one valid Host field (RFC 9112 §3.2)"
            }
            LocalError::ForbiddenTrailerField => {
                "a field that must not be sent as a trailer (RFC 9110 §6.5.1)"
            }
            LocalError::TrailersNotChunked => "trailers on a body that is not chunked",
            LocalError::PipelineFull => "no more requests can be sent on this connection now",
        }
    }
}

impl fmt::Display for LocalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Not a malformed head but no HTTP at all: the error says so.
            RemoteError::Head(e @ http_net_head::Error::TlsRecord) => fmt::Display::fmt(e, f),
            RemoteError::Head(e) => write!(f, "malformed head: {e}"),
            // A limit of the local side's, not a framing rule.
            RemoteError::Framing(http_net_framing::Error::BodyTooLarge) => {
                f.write_str("the body is over the body limit (RFC 9110 §15.5.14)")
            }
            RemoteError::Framing(e) => write!(f, "bad framing: {e}"),
            RemoteError::UnsupportedExpectation => {
                f.write_str("an expectation other than 100-continue (RFC 9110 §10.1.1)")
            }
            RemoteError::UnexpectedEof => {
                f.write_str("the peer closed before the message was complete (RFC 9112 §8)")
            }
            RemoteError::ConnectWithContent => {
                f.write_str("a CONNECT request with content (RFC 9110 §9.3.6)")
            }
            RemoteError::UnsolicitedResponse => {
                f.write_str("a response arrived with no request outstanding (RFC 9112 §9.2)")
            }
            RemoteError::UnofferedUpgrade => f.write_str(
                "101 Switching Protocols to a request that offered no upgrade (RFC 9110 §7.8)",
            ),
            RemoteError::TooManyInformational => {
                f.write_str("too many informational responses (RFC 9110 §15.2)")
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Remote(e) => write!(f, "peer error: {e}"),
            Error::Local(e) => write!(f, "the connection was used wrongly: {e}"),
        }
    }
}

impl core::error::Error for Error {}

impl From<RemoteError> for Error {
    fn from(e: RemoteError) -> Error {
        Error::Remote(e)
    }
}

/// Framing's sending errors, as the connection's caller sees them.
impl From<http_net_framing::EncodeError> for LocalError {
    fn from(e: http_net_framing::EncodeError) -> LocalError {
        use http_net_framing::EncodeError as E;
        match e {
            E::BodyOverrun => LocalError::BodyOverrun,
            E::BodyUnderrun => LocalError::BodyUnderrun,
            E::TrailersNotChunked => LocalError::TrailersNotChunked,
            E::InvalidTrailerName => LocalError::InvalidFieldName,
            E::InvalidTrailerValue => LocalError::InvalidFieldValue,
            E::ForbiddenTrailerField => LocalError::ForbiddenTrailerField,
            // A later variant: the nearest general refusal.
            _ => LocalError::WrongState,
        }
    }
}

impl From<LocalError> for Error {
    fn from(e: LocalError) -> Error {
        Error::Local(e)
    }
}

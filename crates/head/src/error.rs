use core::fmt;

/// Why a head was rejected. One variant per rule; each names its RFC section
/// ([`Error::rfc`]) and the status a server answers ([`Error::status`]).
///
/// When several rules are broken, the one met first in byte order is reported.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A line ended in LF without CR (RFC 9112 §2.2).
    BareLf,
    /// A CR not followed by LF (RFC 9112 §2.2).
    BareCr,
    /// Too many empty lines before the request line (RFC 9112 §2.2).
    TooManyLeadingEmptyLines,
    /// The method is not a token, or is empty (RFC 9112 §3, RFC 9110 §9.1).
    InvalidMethod,
    /// Not exactly one SP between the parts of the start line (RFC 9112 §3, §4).
    InvalidStartLineSpacing,
    /// A target byte RFC 3986 does not allow, or a `%` not followed by two hex
    /// digits (RFC 9112 §3.2).
    InvalidTargetByte,
    /// The target does not match any of the four forms, or its form does not
    /// fit the method (RFC 9112 §3.2).
    InvalidTargetForm,
    /// The version is not `HTTP/DIGIT.DIGIT` (RFC 9112 §2.3).
    InvalidVersion,
    /// A major version other than 1 (RFC 9110 §15.6.6): 505.
    UnsupportedVersion,
    /// The status code is not exactly three digits (RFC 9112 §4).
    InvalidStatusCode,
    /// The response starts with a TLS record header (RFC 8446 §5.1: a
    /// content type of 21, an alert, or 22, a handshake, then the version
    /// byte 3) where the status line (RFC 9112 §4) is due: the server
    /// speaks TLS on this port, and a plain `http://` request was sent to
    /// it. Use an `https://` URL.
    TlsRecord,
    /// A byte in the reason phrase outside HTAB / SP / VCHAR / obs-text (RFC 9112 §4).
    InvalidReasonByte,
    /// A field line without a colon, or a name byte that is not a tchar
    /// (RFC 9112 §5, RFC 9110 §5.1).
    InvalidFieldName,
    /// A field line whose name is empty (RFC 9110 §5.1).
    EmptyFieldName,
    /// Whitespace between the field name and the colon (RFC 9112 §5.1).
    WhitespaceBeforeColon,
    /// A line folded onto the previous field, or whitespace before the first
    /// field line (RFC 9112 §5.2, §2.2).
    ObsFold,
    /// A CTL or DEL in a field value (RFC 9110 §5.5).
    InvalidFieldValue,
    /// HTTP/1.1 request without a `Host` field (RFC 9112 §3.2).
    MissingHost,
    /// More than one `Host` field line (RFC 9112 §3.2).
    DuplicateHost,
    /// A `Host` value that is not `uri-host [":" port]` (RFC 9110 §7.2).
    InvalidHost,
    /// The head is larger than the head limit (RFC 6585 §5): 431.
    HeadTooLarge,
    /// More field lines than the limit (RFC 6585 §5): 431.
    TooManyFields,
    /// The request target is longer than the limit (RFC 9110 §15.5.15): 414.
    TargetTooLong,
    /// The method is longer than the method limit, so longer than any the
    /// server implements (RFC 9112 §3): 501.
    MethodTooLong,
    /// Front-line profile: a method outside the IANA HTTP Method Registry
    /// (RFC 9110 §16.1): 501.
    UnregisteredMethod,
    /// Front-line profile: `%00`, `%0D` or `%0A` in the target (RFC 3986 §7.3).
    EncodedControlInTarget,
    /// Front-line profile: a `Content-Length` line (of a request or a
    /// response) other than one plain number without leading zeros
    /// (RFC 9112 §6.3).
    NonCanonicalContentLength,
    /// Front-line profile: an absolute-form target whose authority is not
    /// the `Host` value (RFC 9112 §3.2.2).
    HostMismatch,
    /// Front-line profile: a framing, routing, credential or
    /// content-handling field in a trailer section (RFC 9110 §6.5.1).
    ForbiddenTrailer,
    /// Front-line profile: an `Upgrade` value that is not a list of
    /// protocols, or a 101 response without `Upgrade` (RFC 9110 §7.8).
    InvalidUpgrade,
}

impl Error {
    /// The status a server answers with before it closes.
    pub const fn status(self) -> u16 {
        match self {
            Error::UnsupportedVersion => 505,
            Error::HeadTooLarge | Error::TooManyFields => 431,
            Error::TargetTooLong => 414,
            Error::MethodTooLong | Error::UnregisteredMethod => 501,
            _ => 400,
        }
    }

    /// The section of the RFC that states the rule, e.g. `"RFC 9112 §5.1"`.
    pub const fn rfc(self) -> &'static str {
        match self {
            Error::BareLf | Error::BareCr | Error::TooManyLeadingEmptyLines => "RFC 9112 §2.2",
            Error::InvalidMethod => "RFC 9110 §9.1",
            Error::InvalidStartLineSpacing => "RFC 9112 §3",
            Error::InvalidTargetByte | Error::InvalidTargetForm => "RFC 9112 §3.2",
            Error::InvalidVersion => "RFC 9112 §2.3",
            Error::UnsupportedVersion => "RFC 9110 §15.6.6",
            Error::InvalidStatusCode | Error::InvalidReasonByte => "RFC 9112 §4",
            Error::TlsRecord => "RFC 8446 §5.1",
            Error::InvalidFieldName | Error::EmptyFieldName => "RFC 9110 §5.1",
            Error::WhitespaceBeforeColon => "RFC 9112 §5.1",
            Error::ObsFold => "RFC 9112 §5.2",
            Error::InvalidFieldValue => "RFC 9110 §5.5",
            Error::MissingHost | Error::DuplicateHost => "RFC 9112 §3.2",
            Error::InvalidHost => "RFC 9110 §7.2",
            Error::HeadTooLarge | Error::TooManyFields => "RFC 6585 §5",
            Error::TargetTooLong => "RFC 9110 §15.5.15",
            Error::MethodTooLong => "RFC 9112 §3",
            Error::UnregisteredMethod => "RFC 9110 §16.1",
            Error::EncodedControlInTarget => "RFC 3986 §7.3",
            Error::NonCanonicalContentLength => "RFC 9112 §6.3",
            Error::HostMismatch => "RFC 9112 §3.2.2",
            Error::ForbiddenTrailer => "RFC 9110 §6.5.1",
            Error::InvalidUpgrade => "RFC 9110 §7.8",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            Error::BareLf => "a line ends in LF without CR",
            Error::BareCr => "a CR is not followed by LF",
            Error::TooManyLeadingEmptyLines => "too many empty lines before the request line",
            Error::InvalidMethod => "the method is not a token",
            Error::InvalidStartLineSpacing => {
                "the start line does not have exactly one space between its parts"
            }
            Error::InvalidTargetByte => "the request target contains a byte that is not allowed",
            Error::InvalidTargetForm => "the request target's form does not fit the method",
            Error::InvalidVersion => "the HTTP version is malformed",
            Error::UnsupportedVersion => "the HTTP major version is not 1",
            Error::InvalidStatusCode => "the status code is not three digits",
            Error::TlsRecord => {
                "the server answered with a TLS record, not a status line: \
                 it speaks HTTPS on this port; use an https:// URL"
            }
            Error::InvalidReasonByte => "the reason phrase contains a control byte",
            Error::InvalidFieldName => "a field name is not a token or has no colon after it",
            Error::EmptyFieldName => "a field name is empty",
            Error::WhitespaceBeforeColon => "whitespace between a field name and its colon",
            Error::ObsFold => "a field line is folded (starts with whitespace)",
            Error::InvalidFieldValue => "a field value contains a control byte",
            Error::MissingHost => "an HTTP/1.1 request has no Host field",
            Error::DuplicateHost => "a request has more than one Host field",
            Error::InvalidHost => "the Host value is not a valid host and port",
            Error::HeadTooLarge => "the head is larger than the limit",
            Error::TooManyFields => "the head has more fields than the limit",
            Error::TargetTooLong => "the request target is longer than the limit",
            Error::MethodTooLong => "the method is longer than any the server implements",
            Error::UnregisteredMethod => "the method is not in the IANA method registry",
            Error::EncodedControlInTarget => "the request target encodes a NUL, CR or LF",
            Error::NonCanonicalContentLength => {
                "the Content-Length is not one plain number without leading zeros"
            }
            Error::HostMismatch => "the absolute-form target's authority is not the Host value",
            Error::ForbiddenTrailer => {
                "a framing, routing, credential or content-handling field in a trailer"
            }
            Error::InvalidUpgrade => "the Upgrade value is missing or not a list of protocols",
        };
        write!(f, "{what} ({})", self.rfc())
    }
}

impl core::error::Error for Error {}

use core::fmt;

/// Why a message's framing was rejected: the rule, its RFC section
/// ([`Error::rfc`]) and the status a server answers ([`Error::status`]).
///
/// One variant per rule, each the peer's fault (a "remote" error): the
/// connection answers with [`Error::status`] and closes. What our own caller
/// gets wrong when sending is an [`EncodeError`] instead.
///
/// ```
/// use http_net_framing::{ChunkedDecoder, Error, BodyLimits};
///
/// let mut decoder = ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT);
/// let e = decoder.decode(b"5\nhello\r\n", &mut []).unwrap_err();
/// assert_eq!(e, Error::ChunkBareLf);
/// assert_eq!((e.status(), e.rfc()), (400, "RFC 9112 §7.1"));
/// assert_eq!(e.to_string(), "a chunked framing line ends in LF without CR (RFC 9112 §7.1)");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A `Content-Length` value that is not `1*DIGIT`, is empty, or does not
    /// fit a `u64` (RFC 9110 §8.6, RFC 9112 §6.3 item 5).
    InvalidContentLength,
    /// Several `Content-Length` values that differ, as field lines or as a
    /// list (RFC 9112 §6.3 item 5).
    ConflictingContentLength,
    /// `Transfer-Encoding` together with `Content-Length`: handled as an
    /// error, the connection closes (RFC 9112 §6.3 item 3).
    ContentLengthWithTransferEncoding,
    /// A request whose final transfer coding is not `chunked`, a lone
    /// `gzip` included, or an empty coding list (RFC 9112 §6.3 item 4).
    ChunkedNotFinal,
    /// `chunked` applied more than once (RFC 9112 §6.1).
    ChunkedTwice,
    /// `chunked` is final but another coding comes before it, which
    /// http-net does not decode (RFC 9112 §6.1): 501.
    UnsupportedTransferCoding,
    /// `Transfer-Encoding` in an HTTP/1.0 message: faulty framing
    /// (RFC 9112 §6.1).
    TransferEncodingInHttp10,
    /// The body is larger than the configured budget (RFC 9110 §15.5.14): 413.
    BodyTooLarge,
    /// A chunk-size that is not `1*HEXDIG`, or is followed by something other
    /// than BWS `;` or CR LF (RFC 9112 §7.1).
    InvalidChunkSize,
    /// A chunk-size that does not fit a `u64` (RFC 9112 §7.1).
    ChunkSizeOverflow,
    /// A chunk extension outside `;name[=token/quoted-string]` with BWS around
    /// `;` and `=`, e.g. a control byte or an unbalanced quote
    /// (RFC 9112 §7.1.1).
    InvalidChunkExtension,
    /// The extensions of one chunk line are longer than the limit
    /// (RFC 9112 §7.1.1).
    ChunkExtensionTooLong,
    /// A LF without CR in chunked framing (RFC 9112 §7.1; the bare-LF leniency
    /// of §2.2 does not extend to chunked lines).
    ChunkBareLf,
    /// A CR not followed by LF in chunked framing (RFC 9112 §2.2, §7.1).
    ChunkBareCr,
    /// Chunk data not followed by CR LF (RFC 9112 §7.1).
    MissingChunkCrlf,
    /// Framing overhead passed the guard threshold while data made up less
    /// than a quarter of the bytes read (the "one-byte chunks" attack;
    /// picohttpparser's guard, RFC 9112 §7.1).
    ExcessiveFramingOverhead,
    /// A trailer section broke a field rule or a head limit (RFC 9112 §7.1.2).
    Trailer(http_net_head::Error),
}

impl Error {
    /// The status a server answers with before it closes.
    pub const fn status(self) -> u16 {
        match self {
            Error::UnsupportedTransferCoding => 501,
            Error::BodyTooLarge => 413,
            Error::Trailer(e) => e.status(),
            _ => 400,
        }
    }

    /// The section of the RFC that states the rule, e.g. `"RFC 9112 §7.1"`.
    pub const fn rfc(self) -> &'static str {
        match self {
            Error::InvalidContentLength => "RFC 9110 §8.6",
            Error::ConflictingContentLength => "RFC 9112 §6.3",
            Error::ContentLengthWithTransferEncoding => "RFC 9112 §6.3",
            Error::ChunkedNotFinal => "RFC 9112 §6.3",
            Error::ChunkedTwice | Error::UnsupportedTransferCoding => "RFC 9112 §6.1",
            Error::TransferEncodingInHttp10 => "RFC 9112 §6.1",
            Error::BodyTooLarge => "RFC 9110 §15.5.14",
            Error::InvalidChunkSize | Error::ChunkSizeOverflow => "RFC 9112 §7.1",
            Error::InvalidChunkExtension | Error::ChunkExtensionTooLong => "RFC 9112 §7.1.1",
            Error::ChunkBareLf | Error::MissingChunkCrlf => "RFC 9112 §7.1",
            Error::ChunkBareCr => "RFC 9112 §2.2",
            Error::ExcessiveFramingOverhead => "RFC 9112 §7.1",
            Error::Trailer(e) => e.rfc(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            Error::Trailer(e) => return write!(f, "in the trailer section: {e}"),
            Error::InvalidContentLength => {
                "the Content-Length value is not a decimal number that fits 64 bits"
            }
            Error::ConflictingContentLength => "the Content-Length values differ",
            Error::ContentLengthWithTransferEncoding => {
                "the message has both Transfer-Encoding and Content-Length"
            }
            Error::ChunkedNotFinal => "the final transfer coding of a request is not chunked",
            Error::ChunkedTwice => "the chunked transfer coding is applied more than once",
            Error::UnsupportedTransferCoding => {
                "a transfer coding other than chunked is applied, which is not implemented"
            }
            Error::TransferEncodingInHttp10 => "an HTTP/1.0 message has a Transfer-Encoding field",
            Error::BodyTooLarge => "the body is larger than the configured budget",
            Error::InvalidChunkSize => "a chunk size is not made of hex digits only",
            Error::ChunkSizeOverflow => "a chunk size does not fit 64 bits",
            Error::InvalidChunkExtension => "a chunk extension is malformed",
            Error::ChunkExtensionTooLong => "the extensions of a chunk are longer than the limit",
            Error::ChunkBareLf => "a chunked framing line ends in LF without CR",
            Error::ChunkBareCr => "a CR in chunked framing is not followed by LF",
            Error::MissingChunkCrlf => "chunk data is not followed by CR LF",
            Error::ExcessiveFramingOverhead => {
                "the chunked framing overhead is too large for the data it carries"
            }
        };
        write!(f, "{what} ({})", self.rfc())
    }
}

impl core::error::Error for Error {}

/// What our own caller asked the encoder ([`BodyEncoder`](crate::BodyEncoder),
/// [`ChunkedEncoder`](crate::ChunkedEncoder)) to send against the rules: a
/// "local" error. Nothing of the refused piece is written.
///
/// ```
/// use http_net_framing::{BodyEncoder, EncodeError};
///
/// let mut body = BodyEncoder::Length(3);
/// assert_eq!(body.count(4), Err(EncodeError::BodyOverrun));
/// body.count(2).unwrap();
/// assert_eq!(body.finish(false), Err(EncodeError::BodyUnderrun));
/// assert_eq!(EncodeError::BodyUnderrun.rfc(), "RFC 9112 §6.2");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeError {
    /// More body bytes than the declared `Content-Length` (RFC 9112 §6.2).
    BodyOverrun,
    /// The body ended with fewer bytes than the declared `Content-Length`
    /// (RFC 9112 §6.2): the message cannot be completed, the connection
    /// must not be reused.
    BodyUnderrun,
    /// Trailers on a body that is not chunked (RFC 9112 §7.1.2).
    TrailersNotChunked,
    /// A trailer name that is not a token (RFC 9110 §5.1).
    InvalidTrailerName,
    /// A trailer value with a CTL, DEL, or leading or trailing whitespace
    /// (RFC 9110 §5.5).
    InvalidTrailerValue,
    /// A field that must not be sent as a trailer: one that frames, routes
    /// or authenticates the message or describes its content
    /// ([`forbidden_in_trailers`](http_net_head::forbidden_in_trailers);
    /// RFC 9110 §6.5.1).
    ForbiddenTrailerField,
}

impl EncodeError {
    /// The section of the RFC that states the rule.
    pub const fn rfc(self) -> &'static str {
        match self {
            EncodeError::BodyOverrun | EncodeError::BodyUnderrun => "RFC 9112 §6.2",
            EncodeError::TrailersNotChunked => "RFC 9112 §7.1.2",
            EncodeError::InvalidTrailerName => "RFC 9110 §5.1",
            EncodeError::InvalidTrailerValue => "RFC 9110 §5.5",
            EncodeError::ForbiddenTrailerField => "RFC 9110 §6.5.1",
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            EncodeError::BodyOverrun => "more body bytes than the declared length",
            EncodeError::BodyUnderrun => "fewer body bytes than the declared length",
            EncodeError::TrailersNotChunked => "trailers on a body that is not chunked",
            EncodeError::InvalidTrailerName => "a trailer name to send is not a token",
            EncodeError::InvalidTrailerValue => {
                "a trailer value to send contains a control byte or surrounding whitespace"
            }
            EncodeError::ForbiddenTrailerField => {
                "a field that frames, routes or authenticates the message, or describes its content, cannot be sent as a trailer"
            }
        };
        write!(f, "{what} ({})", self.rfc())
    }
}

impl core::error::Error for EncodeError {}

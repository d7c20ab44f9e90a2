use core::ops::Range;

use http_net_head::{Field, KnownFields, Method, Version};

use crate::content_length::content_length;
use crate::transfer_coding::codings;
use crate::{BodyLimits, Error};

/// How the body of a message is delimited (RFC 9112 §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// No body.
    None,
    /// Exactly this many bytes (Content-Length; `Length(0)` for
    /// `Content-Length: 0`).
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
    /// Everything until the peer closes (responses only).
    CloseDelimited,
    /// A 2xx answer to CONNECT: the connection becomes a tunnel after the head.
    Tunnel,
}

/// Decides the body of a request from its head (RFC 9112 §6.3; where the
/// section leaves the recipient a choice, the stricter one, as listed
/// below).
/// `fields` and `buf` are the storage and buffer the head was parsed with.
///
/// The checks run in the order of RFC 9112 §6.3 (numbered in the code):
/// `Transfer-Encoding` in HTTP/1.0 (400), with `Content-Length` (400),
/// `chunked` not final (400), `chunked` twice (400), another coding before a
/// final `chunked` (501); then `Content-Length`: invalid (400), differing
/// (400), over the body budget (413). A request with neither field has no
/// body.
///
/// ```
/// use http_net_framing::{request_body, BodyKind, Error, BodyLimits};
/// use http_net_head::{Field, KnownFields, Span, Version};
///
/// let buf = b"Transfer-Encoding: gzip, chunked";
/// let fields = [Field { name: Span::new(0, 17), value: Span::new(19, buf.len()) }];
/// let mut known = KnownFields::default();
/// known.transfer_encoding.push(0);
/// let limits = BodyLimits::DEFAULT;
/// let kind = request_body(Version::Http11, &known, &fields, buf, &limits);
/// assert_eq!(kind, Err(Error::UnsupportedTransferCoding));
/// assert_eq!(kind.unwrap_err().status(), 501);
/// ```
pub fn request_body(
    version: Version,
    known: &KnownFields,
    fields: &[Field],
    buf: &[u8],
    limits: &BodyLimits,
) -> Result<BodyKind, Error> {
    // Steps 1 and 2 (HEAD, 1xx, 204, 304, CONNECT) concern responses only.
    if !known.transfer_encoding.is_empty() {
        // §6.1: TE in an HTTP/1.0 message is faulty framing, even with CL.
        if version == Version::Http10 {
            return Err(Error::TransferEncodingInHttp10);
        }
        // Step 3: TE and CL together "ought to be handled as an error";
        // http-net rejects rather than letting TE override (the project's
        // strictness policy: TE with CL is 400 and close).
        if !known.content_length.is_empty() {
            return Err(Error::ContentLengthWithTransferEncoding);
        }
        // Step 4: the final coding of a request must be chunked, else the
        // length cannot be determined: 400 and close (MUST).
        let c = codings(known.transfer_encoding, fields, buf);
        if !c.chunked_final {
            return Err(Error::ChunkedNotFinal);
        }
        // §6.1: a sender MUST NOT apply chunked more than once.
        if c.chunked > 1 {
            return Err(Error::ChunkedTwice);
        }
        // §6.1: a coding we do not decode before chunked: 501.
        if c.others > 0 {
            return Err(Error::UnsupportedTransferCoding);
        }
        return Ok(BodyKind::Chunked);
    }
    // Steps 5 and 6: Content-Length, invalid or differing values are an
    // unrecoverable error; a valid one is the length.
    match content_length(known.content_length, fields, buf)? {
        Some(n) if limits.over_budget(n) => Err(Error::BodyTooLarge),
        Some(n) => Ok(BodyKind::Length(n)),
        // Step 7: a request with neither field has no body.
        None => Ok(BodyKind::None),
    }
}

/// Decides the body of a response to a request with `request_method`
/// (RFC 9112 §6.3; where the section leaves the recipient a choice, the
/// stricter one, as listed below).
///
/// No body for HEAD, 1xx, 204 and 304; a tunnel for 2xx to CONNECT;
/// `Transfer-Encoding` in HTTP/1.0 or with `Content-Length` is an error, as is
/// `chunked` twice or another coding before a final `chunked`; a list whose
/// final coding is not `chunked` is read until close, and so is a response
/// with neither field.
///
/// ```
/// use http_net_framing::{response_body, BodyKind, BodyLimits};
/// use http_net_head::{KnownFields, Method, Version};
///
/// let known = KnownFields::default();
/// let limits = BodyLimits::DEFAULT;
/// let kind = |method, status| response_body(method, status, Version::Http11, &known, &[], b"", &limits);
/// assert_eq!(kind(Method::Get, 200), Ok(BodyKind::CloseDelimited));
/// assert_eq!(kind(Method::Head, 200), Ok(BodyKind::None));
/// assert_eq!(kind(Method::Connect, 200), Ok(BodyKind::Tunnel));
/// ```
pub fn response_body(
    request_method: Method,
    status: u16,
    version: Version,
    known: &KnownFields,
    fields: &[Field],
    buf: &[u8],
    limits: &BodyLimits,
) -> Result<BodyKind, Error> {
    // Step 1: HEAD responses, 1xx, 204 and 304 end at the empty line,
    // whatever their fields say.
    if request_method == Method::Head
        || (100..200).contains(&status)
        || status == 204
        || status == 304
    {
        return Ok(BodyKind::None);
    }
    // Step 2: a 2xx answer to CONNECT turns the connection into a tunnel.
    if request_method == Method::Connect && (200..300).contains(&status) {
        return Ok(BodyKind::Tunnel);
    }
    if !known.transfer_encoding.is_empty() {
        // §6.1: TE in an HTTP/1.0 message is faulty framing.
        if version == Version::Http10 {
            return Err(Error::TransferEncodingInHttp10);
        }
        // Step 3: TE with CL is an error (strictness policy), never "TE wins".
        if !known.content_length.is_empty() {
            return Err(Error::ContentLengthWithTransferEncoding);
        }
        let c = codings(known.transfer_encoding, fields, buf);
        // §6.1: chunked applied twice.
        if c.chunked > 1 {
            return Err(Error::ChunkedTwice);
        }
        // Step 4: final chunked → chunked, but a coding before it is one we
        // do not decode; otherwise read until the server closes.
        if !c.chunked_final {
            return Ok(BodyKind::CloseDelimited);
        }
        if c.others > 0 {
            return Err(Error::UnsupportedTransferCoding);
        }
        return Ok(BodyKind::Chunked);
    }
    // Steps 5 and 6: Content-Length.
    match content_length(known.content_length, fields, buf)? {
        Some(n) if limits.over_budget(n) => Err(Error::BodyTooLarge),
        Some(n) => Ok(BodyKind::Length(n)),
        // Step 8: a response with neither field is read until close.
        None => Ok(BodyKind::CloseDelimited),
    }
}

/// What one decoding step did: bytes consumed from the input, the data in it
/// (a range of the input), and whether the body is complete.
#[non_exhaustive]
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Input bytes consumed.
    pub consumed: usize,
    /// Body data: a range of the input.
    pub data: Range<usize>,
    /// The body is complete.
    pub done: bool,
}

/// Decodes a Content-Length body: counts the remaining bytes with checked
/// arithmetic and never takes a byte past the end of the body, so what
/// follows stays for the next pipelined message.
///
/// ```
/// use http_net_framing::LengthDecoder;
///
/// let mut body = LengthDecoder::new(5);
/// let step = body.decode(b"helloGET / HTTP/1.1\r\n");
/// assert_eq!((step.consumed, step.data, step.done), (5, 0..5, true));
/// assert_eq!(body.remaining(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthDecoder {
    remaining: u64,
}

impl LengthDecoder {
    /// A decoder for a body of `len` bytes.
    pub const fn new(len: u64) -> LengthDecoder {
        LengthDecoder { remaining: len }
    }
    /// Bytes still expected.
    pub const fn remaining(self) -> u64 {
        self.remaining
    }
    /// Takes as much of `input` as belongs to the body.
    #[inline]
    pub fn decode(&mut self, input: &[u8]) -> Step {
        let take = if (input.len() as u64) < self.remaining {
            input.len()
        } else {
            // remaining <= input.len(), so it fits a usize.
            self.remaining as usize
        };
        self.remaining -= take as u64;
        Step {
            consumed: take,
            data: 0..take,
            done: self.remaining == 0,
        }
    }
}

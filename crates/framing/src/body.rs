//! One body decoder and one body encoder for both directions: what a server
//! reading a request body and a client reading a response body share, and
//! what both sending sides share (the exact-length checks).

use core::ops::Range;

use http_net_head::Field;

use crate::{BodyKind, BodyLimits, ChunkedDecoder, EncodeError, Error, LengthDecoder};

/// How a message body is being read (RFC 9112 §6.3): by its
/// `Content-Length`, chunked, or until the peer closes.
///
/// The chunked decoder (about 220 bytes) is not inside the enum: the caller
/// keeps one [`ChunkedDecoder`] per connection and passes it to each step,
/// so that moving this value copies a few words.
///
/// ```
/// use http_net_framing::{BodyDecoder, BodyKind, ChunkedDecoder, BodyLimits};
///
/// let head = http_net_head::HeadLimits::DEFAULT;
/// let mut chunked = ChunkedDecoder::new(BodyLimits::DEFAULT, head);
/// let mut body = BodyDecoder::start(BodyKind::Chunked, &mut chunked, BodyLimits::DEFAULT, head, 40);
/// let input = b"2\r\nok\r\n0\r\n\r\n";
/// let step = body.decode(input, false, &mut chunked, &mut []).unwrap();
/// assert_eq!(&input[step.data], b"ok");
/// let rest = &input[step.consumed..];
/// let step = body.decode(rest, false, &mut chunked, &mut []).unwrap();
/// assert!(step.done && body == BodyDecoder::Done);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyDecoder {
    /// `Content-Length`: counts the bytes left.
    Length(LengthDecoder),
    /// Chunked: the state is the caller's [`ChunkedDecoder`].
    Chunked,
    /// Everything until the peer closes (responses only, RFC 9112 §6.3
    /// item 8).
    CloseDelimited,
    /// The body is read to its end (or there is none).
    Done,
}

/// One step of a [`BodyDecoder`]: as [`ChunkedStep`](crate::ChunkedStep),
/// with the trailer fields counted.
#[non_exhaustive]
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyStep {
    /// Input bytes consumed.
    pub consumed: usize,
    /// Body data: a range of the input (empty if none).
    pub data: Range<usize>,
    /// The body is complete.
    pub done: bool,
    /// Trailer fields read with the end of a chunked body: the first
    /// `trailers` entries of the storage given to the step, with spans
    /// relative to this step's input.
    pub trailers: usize,
}

impl BodyDecoder {
    /// Starts reading a body of `kind` after a head of `head_len` bytes. For
    /// a chunked body `chunked` is made ready, with the trailer policy:
    /// trailers count in the head limits together with the head itself
    /// (RFC 9112 §7.1.2: a trailer section is a field section like the
    /// head's), so the trailer section may use what the head left of
    /// `head_limits.max_head_bytes()`. `BodyKind::None`, `Length(0)` and
    /// `Tunnel` have no body to read: `Done`.
    pub fn start(
        kind: BodyKind,
        chunked: &mut ChunkedDecoder,
        limits: BodyLimits,
        head_limits: http_net_head::HeadLimits,
        head_len: usize,
    ) -> BodyDecoder {
        match kind {
            BodyKind::Length(n) if n > 0 => BodyDecoder::Length(LengthDecoder::new(n)),
            BodyKind::Chunked => {
                let room = head_limits.max_head_bytes().saturating_sub(head_len);
                *chunked = ChunkedDecoder::new(limits, head_limits.with_max_head_bytes(room));
                BodyDecoder::Chunked
            }
            BodyKind::CloseDelimited => BodyDecoder::CloseDelimited,
            _ => BodyDecoder::Done,
        }
    }

    /// Body bytes still expected, when known (`None`: chunked or
    /// close-delimited).
    pub const fn remaining(&self) -> Option<u64> {
        match self {
            BodyDecoder::Length(d) => Some(d.remaining()),
            BodyDecoder::Chunked | BodyDecoder::CloseDelimited => None,
            BodyDecoder::Done => Some(0),
        }
    }

    /// Decodes from `input` (`eof`: the peer closed, which ends a
    /// close-delimited body); never consumes a byte past the end of the
    /// body. Once the body is complete the decoder is `Done`. `chunked` and
    /// `trailers` are as for [`ChunkedDecoder::decode`]. A body cut short by
    /// the peer's close is not an error here: the step consumes nothing and
    /// is not done, and the caller knows `eof`.
    #[inline]
    pub fn decode(
        &mut self,
        input: &[u8],
        eof: bool,
        chunked: &mut ChunkedDecoder,
        trailers: &mut [Field],
    ) -> Result<BodyStep, Error> {
        let step = match self {
            BodyDecoder::Length(d) => {
                let step = d.decode(input);
                BodyStep {
                    consumed: step.consumed,
                    data: step.data,
                    done: step.done,
                    trailers: 0,
                }
            }
            BodyDecoder::Chunked => {
                let step = chunked.decode(input, trailers)?;
                BodyStep {
                    consumed: step.consumed,
                    data: step.data,
                    done: step.done,
                    trailers: step.trailers.map_or(0, |t| t.field_count),
                }
            }
            BodyDecoder::CloseDelimited => {
                let n = input.len();
                BodyStep {
                    consumed: n,
                    data: 0..n,
                    done: n == 0 && eof,
                    trailers: 0,
                }
            }
            BodyDecoder::Done => BodyStep {
                consumed: 0,
                data: 0..0,
                done: true,
                trailers: 0,
            },
        };
        if step.done {
            *self = BodyDecoder::Done;
        }
        Ok(step)
    }
}

/// How the body of a message being sent is delimited, with the exact-length
/// checks (RFC 9112 §6.2: a sender must send exactly the `Content-Length`
/// it declared). The bytes themselves are the caller's to place; chunk
/// framing comes from [`ChunkedEncoder`](crate::ChunkedEncoder).
///
/// ```
/// use http_net_framing::{BodyEncoder, EncodeError};
///
/// let mut body = BodyEncoder::Length(5);
/// body.count(2).unwrap();
/// body.count(3).unwrap();
/// assert_eq!(body, BodyEncoder::Length(0));
/// body.finish(false).unwrap();
/// assert_eq!(body.finish(true), Err(EncodeError::TrailersNotChunked));
/// // HEAD: nothing leaves, but the declared length still bounds the body.
/// let mut head = BodyEncoder::Discard(Some(1));
/// assert_eq!(head.count(2), Err(EncodeError::BodyOverrun));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyEncoder {
    /// `Content-Length`: this many bytes still to send.
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
    /// Close-delimited (a response of unknown length to HTTP/1.0).
    CloseDelimited,
    /// No body may leave (HEAD, 1xx, 204, 304, 2xx to CONNECT): bytes are
    /// dropped, counted against the declared length if there is one.
    Discard(Option<u64>),
}

impl BodyEncoder {
    /// Counts `n` body bytes about to be sent (or dropped). More than a
    /// declared length is [`EncodeError::BodyOverrun`], and nothing is counted.
    #[inline]
    pub fn count(&mut self, n: u64) -> Result<(), EncodeError> {
        match self {
            BodyEncoder::Length(left) | BodyEncoder::Discard(Some(left)) => {
                if n > *left {
                    return Err(EncodeError::BodyOverrun);
                }
                *left -= n;
                Ok(())
            }
            BodyEncoder::Chunked | BodyEncoder::CloseDelimited | BodyEncoder::Discard(None) => {
                Ok(())
            }
        }
    }

    /// Whether the body may end now, with trailers when `trailers`: a
    /// declared length must be met ([`EncodeError::BodyUnderrun`]); trailers
    /// go with a chunked body only, and are dropped where no body leaves
    /// or the body is close-delimited.
    pub const fn finish(&self, trailers: bool) -> Result<(), EncodeError> {
        match self {
            BodyEncoder::Length(1..) | BodyEncoder::Discard(Some(1..)) => {
                Err(EncodeError::BodyUnderrun)
            }
            BodyEncoder::Length(0) if trailers => Err(EncodeError::TrailersNotChunked),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunked() -> ChunkedDecoder {
        ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT)
    }

    #[test]
    fn kinds_without_a_body_start_done() {
        let head = http_net_head::HeadLimits::DEFAULT;
        for kind in [BodyKind::None, BodyKind::Length(0), BodyKind::Tunnel] {
            let dec = BodyDecoder::start(kind, &mut chunked(), BodyLimits::DEFAULT, head, 10);
            assert_eq!(dec, BodyDecoder::Done, "{kind:?}");
            assert_eq!(dec.remaining(), Some(0));
        }
    }

    #[test]
    fn a_length_body_stops_at_its_end_and_stays_done() {
        let mut c = chunked();
        let mut dec = BodyDecoder::Length(LengthDecoder::new(3));
        let step = dec.decode(b"abcGET", false, &mut c, &mut []).unwrap();
        assert_eq!((step.consumed, step.data, step.done), (3, 0..3, true));
        assert_eq!(dec, BodyDecoder::Done);
        let again = dec.decode(b"GET", false, &mut c, &mut []).unwrap();
        assert_eq!((again.consumed, again.done), (0, true));
    }

    #[test]
    fn a_close_delimited_body_ends_only_at_the_close() {
        let mut c = chunked();
        let mut dec = BodyDecoder::CloseDelimited;
        let step = dec.decode(b"abc", true, &mut c, &mut []).unwrap();
        assert_eq!((step.consumed, step.done), (3, false));
        let step = dec.decode(b"", false, &mut c, &mut []).unwrap();
        assert!(!step.done, "no input is not the end without the close");
        let step = dec.decode(b"", true, &mut c, &mut []).unwrap();
        assert!(step.done);
        assert_eq!(dec, BodyDecoder::Done);
    }

    #[test]
    fn trailers_share_the_room_the_head_left() {
        // The head used all but 10 bytes of the head budget: a trailer
        // section of more than that is refused.
        let head = http_net_head::HeadLimits::DEFAULT;
        let head_len = head.max_head_bytes() - 10;
        let input = b"0\r\nX-Long-Trailer: 0123456789\r\n\r\n";
        let mut fields = [Field::default(); 4];
        let mut c = chunked();
        let mut dec = BodyDecoder::start(
            BodyKind::Chunked,
            &mut c,
            BodyLimits::DEFAULT,
            head,
            head_len,
        );
        assert!(matches!(
            dec.decode(input, false, &mut c, &mut fields),
            Err(Error::Trailer(_))
        ));
        // With a short head the same trailers fit.
        let mut dec = BodyDecoder::start(BodyKind::Chunked, &mut c, BodyLimits::DEFAULT, head, 40);
        let step = dec.decode(input, false, &mut c, &mut fields).unwrap();
        assert!(step.done);
        assert_eq!(step.trailers, 1);
    }

    #[test]
    fn the_encoder_checks_exact_lengths() {
        let mut len = BodyEncoder::Length(2);
        assert_eq!(len.count(3), Err(EncodeError::BodyOverrun));
        assert_eq!(
            len,
            BodyEncoder::Length(2),
            "a refused piece counts nothing"
        );
        assert_eq!(len.finish(false), Err(EncodeError::BodyUnderrun));
        len.count(2).unwrap();
        assert_eq!(len.finish(false), Ok(()));
        assert_eq!(len.finish(true), Err(EncodeError::TrailersNotChunked));
        let mut chunked = BodyEncoder::Chunked;
        chunked.count(u64::MAX).unwrap();
        assert_eq!(chunked.finish(true), Ok(()));
        assert_eq!(BodyEncoder::Discard(None).finish(true), Ok(()));
        assert_eq!(BodyEncoder::CloseDelimited.finish(true), Ok(()));
        assert_eq!(
            BodyEncoder::Discard(Some(1)).finish(false),
            Err(EncodeError::BodyUnderrun)
        );
    }
}

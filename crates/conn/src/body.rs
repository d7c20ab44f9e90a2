//! The body being read, shared by both connections: framing's
//! [`BodyDecoder`] while the body lasts, then the `End` event due with where
//! its trailers are. One step reads as much as the input holds and says what
//! the connection surfaces.

use core::ops::Range;

use http_net_framing::{BodyDecoder, BodyKind, ChunkedDecoder};
use http_net_head::Field;

use crate::inbuf::{Held, InBuf};
use crate::{Config, RemoteError};

/// A message body being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyIn {
    /// The body is being decoded (the chunked state is the connection's
    /// [`ChunkedDecoder`], kept out of this enum so that a state move copies
    /// a few words, not the decoder).
    Reading(BodyDecoder),
    /// The body is read; `End` is due, with `count` trailer fields whose
    /// spans are relative to input offset `base`.
    EndDue { base: usize, count: usize },
}

/// What one body step found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BodyRead {
    /// Body bytes: a range of the input buffer.
    Data(Range<usize>),
    /// Framing was consumed, or the body ended (`EndDue` now): step again.
    Moved,
    /// More input is needed.
    NeedInput,
}

impl BodyIn {
    /// No body: `End` at once, without trailers.
    pub(crate) const EMPTY: BodyIn = BodyIn::EndDue { base: 0, count: 0 };

    /// Starts reading a body of `kind` after a head of `head_len` bytes
    /// (framing's trailer policy: trailers share the head's limits).
    #[inline(always)]
    pub(crate) fn start(
        kind: BodyKind,
        chunked: &mut ChunkedDecoder,
        config: &Config,
        head_len: usize,
    ) -> BodyIn {
        // Fast path for most requests (a GET), general twin
        // `BodyDecoder::start`: part of D-11's -29 instructions per request
        // (docs/DECISIONS.md).
        if matches!(kind, BodyKind::None | BodyKind::Length(0)) && cfg!(not(http_net_general_path))
        {
            return BodyIn::EMPTY;
        }
        match BodyDecoder::start(
            kind,
            chunked,
            config.body_limits(),
            config.head_limits(),
            head_len,
        ) {
            BodyDecoder::Done => BodyIn::EMPTY,
            dec => BodyIn::Reading(dec),
        }
    }

    /// Body bytes still expected: `Some(0)` once read, `None` when unknown.
    pub(crate) fn remaining(&self) -> Option<u64> {
        match self {
            BodyIn::Reading(dec) => dec.remaining(),
            BodyIn::EndDue { .. } => Some(0),
        }
    }

    /// Whether body bytes are still expected.
    pub(crate) fn pending(&self) -> bool {
        matches!(self, BodyIn::Reading(_))
    }

    /// Whether an `End` with trailers is due (its spans point into the
    /// input buffer: it must not be compacted).
    pub(crate) fn trailers_due(&self) -> bool {
        matches!(self, BodyIn::EndDue { count: 1.., .. })
    }

    /// One step of reading from `buf` (`held`: the region compaction keeps,
    /// for the stuck check). A body cut short by the peer's close is
    /// [`RemoteError::UnexpectedEof`] (RFC 9112 §8); a buffer full of
    /// framing that cannot complete is `HeadTooLarge`.
    #[inline]
    pub(crate) fn step(
        &mut self,
        buf: &mut InBuf,
        chunked: &mut ChunkedDecoder,
        trailers: &mut [Field],
        held: Held,
    ) -> Result<BodyRead, RemoteError> {
        let BodyIn::Reading(dec) = self else {
            return Ok(BodyRead::Moved);
        };
        let start = buf.pos;
        let step = dec
            .decode(buf.unread(), buf.eof, chunked, trailers)
            .map_err(RemoteError::Framing)?;
        buf.pos += step.consumed;
        if step.done {
            *self = BodyIn::EndDue {
                base: start,
                count: step.trailers,
            };
        }
        if !step.data.is_empty() {
            Ok(BodyRead::Data(
                start + step.data.start..start + step.data.end,
            ))
        } else if step.done || step.consumed > 0 {
            Ok(BodyRead::Moved)
        } else if buf.eof {
            Err(RemoteError::UnexpectedEof)
        } else if !buf.has_unread() && cfg!(not(http_net_general_path)) {
            // Fast path, general twin the `is_stuck` test below (everything
            // read was consumed: the buffer cannot be stuck, since a held
            // head is shorter than the buffer): -9 instructions per read
            // (docs/PERFORMANCE.md, "The instruction-count pass", 18).
            Ok(BodyRead::NeedInput)
        } else if buf.is_stuck(held) {
            Err(RemoteError::Head(http_net_head::Error::HeadTooLarge))
        } else {
            Ok(BodyRead::NeedInput)
        }
    }
}

use core::ops::Range;

use http_net_head::{Field, FieldBlock, FieldBlockParser, Parsed};

pub use self::state::ChunkedDecoder;
use self::state::State;
use crate::class::{HEX, NOT_HEX};
use crate::{BodyLimits, Error};

/// One step of the chunked decoder over a borrowed input.
#[non_exhaustive]
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkedStep {
    /// Input bytes consumed.
    pub consumed: usize,
    /// Chunk data found in this step: a range of the input (empty if none).
    pub data: Range<usize>,
    /// The trailer section, once complete and if it holds at least one field
    /// line: its field spans are relative to the input of this step, its
    /// fields are the first `field_count` entries of the storage given to the
    /// step, and its bytes are `consumed - len .. consumed` of the input.
    /// An empty trailer section gives `None`.
    pub trailers: Option<FieldBlock>,
    /// The message is complete (last chunk and trailer section read).
    pub done: bool,
}

/// One step of the in-place decoder.
#[non_exhaustive]
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InPlaceStep {
    /// Input bytes consumed (the buffer from this offset on is untouched).
    pub consumed: usize,
    /// Data bytes now at the front of the buffer.
    pub data_len: usize,
    /// As in [`ChunkedStep::trailers`], with spans relative to the buffer:
    /// the trailer bytes are not moved.
    pub trailers: Option<FieldBlock>,
    /// The message is complete.
    pub done: bool,
}

impl ChunkedDecoder {
    /// A decoder with these body limits; trailers use `head_limits`.
    pub const fn new(limits: BodyLimits, head_limits: http_net_head::HeadLimits) -> ChunkedDecoder {
        ChunkedDecoder {
            limits,
            trailer_parser: FieldBlockParser::new(head_limits),
            state: State::LineStart,
            size: 0,
            ext_bytes: 0,
            data_total: 0,
            overhead: 0,
        }
    }

    /// Makes the decoder ready for the next message, keeping its limits.
    pub fn reset(&mut self) {
        self.trailer_parser.reset();
        self.state = State::LineStart;
        self.size = 0;
        self.ext_bytes = 0;
        self.data_total = 0;
        self.overhead = 0;
    }

    /// Whether the whole message has been decoded.
    pub const fn is_done(&self) -> bool {
        matches!(self.state, State::Done)
    }

    /// Data bytes announced by the chunk sizes read so far.
    pub const fn data_declared(&self) -> u64 {
        self.data_total
    }

    /// Decodes from `input`; never consumes a byte past the end of the message.
    ///
    /// Returns at most one run of chunk data per step. `trailers` is where a
    /// trailer section's fields go; pass the same storage to every step of a
    /// message (the trailer parser resumes in it). More trailer lines than
    /// `trailers.len()` or the head's `max_fields` is an error.
    #[inline]
    pub fn decode(&mut self, input: &[u8], trailers: &mut [Field]) -> Result<ChunkedStep, Error> {
        // Fast path, general twin `decode_general`: 3.43 -> 2.23-2.34 µs per
        // 1 MiB in 4 KiB chunks (docs/PERFORMANCE.md, "Framing performance",
        // "Optimisations tried").
        #[cfg(not(http_net_general_path))]
        if let Some((data_start, size)) = self.fast_header(input) {
            let avail = input.len().saturating_sub(data_start);
            let take = if (avail as u64) < size {
                avail
            } else {
                size as usize
            };
            self.size = size - take as u64;
            self.state = if self.size == 0 {
                State::DataCr
            } else {
                State::Data
            };
            let end = data_start + take;
            return Ok(ChunkedStep {
                consumed: end,
                data: data_start..end,
                trailers: None,
                done: false,
            });
        }
        self.decode_general(input, trailers)
    }

    /// The common chunk line in one pass: (CR LF after the previous data,
    /// unless at the first chunk) `HEXDIG{1,16} CR LF` with a non-zero size.
    /// Returns where the data starts and its size, with the line accounted
    /// for; changes nothing and returns `None` for any other shape, or when a
    /// limit would trip, so the general path decides (and reports) exactly as
    /// it would have.
    #[cfg_attr(http_net_general_path, allow(dead_code))]
    #[inline]
    fn fast_header(&mut self, input: &[u8]) -> Option<(usize, u64)> {
        let start = match (self.state, input) {
            (State::DataCr, [b'\r', b'\n', ..]) => 2,
            (State::LineStart, _) => 0,
            _ => return None,
        };
        let (size, len) = fast_line(input.get(start..)?)?;
        if size == 0 {
            return None;
        }
        let data_total = self.data_total.checked_add(size)?;
        let data_start = start + len;
        let overhead = self.overhead.checked_add(data_start as u64)?;
        let guard = self.limits.overhead_guard_bytes();
        if self.limits.over_budget(data_total)
            || (guard != 0 && overhead >= guard && data_total.saturating_mul(3) < overhead)
        {
            return None;
        }
        self.data_total = data_total;
        self.overhead = overhead;
        self.ext_bytes = 0;
        Some((data_start, size))
    }

    /// Every other step: the state machine, byte by byte where needed.
    #[inline(never)]
    fn decode_general(
        &mut self,
        input: &[u8],
        trailers: &mut [Field],
    ) -> Result<ChunkedStep, Error> {
        let mut pos = 0;
        loop {
            match self.state {
                State::Data => {
                    let avail = input.len().saturating_sub(pos);
                    let take = if (avail as u64) < self.size {
                        avail
                    } else {
                        self.size as usize
                    };
                    self.size -= take as u64;
                    if self.size == 0 {
                        self.state = State::DataCr;
                    }
                    let end = pos + take;
                    return Ok(ChunkedStep {
                        consumed: end,
                        data: pos..end,
                        trailers: None,
                        done: false,
                    });
                }
                State::Trailers => return self.trailers(input, pos, trailers),
                State::Done => {
                    return Ok(ChunkedStep {
                        consumed: 0,
                        data: 0..0,
                        trailers: None,
                        done: true,
                    })
                }
                State::Failed(e) => return Err(e),
                _ => {
                    let start = pos;
                    let framed = self.framing(input, &mut pos);
                    self.overhead = self.overhead.saturating_add((pos - start) as u64);
                    let guard = self.limits.overhead_guard_bytes();
                    let framed = match framed {
                        Ok(())
                            if guard != 0
                                && self.overhead >= guard
                                && self.data_total.saturating_mul(3) < self.overhead =>
                        {
                            Err(Error::ExcessiveFramingOverhead)
                        }
                        other => other,
                    };
                    if let Err(e) = framed {
                        self.state = State::Failed(e);
                        return Err(e);
                    }
                    if !matches!(self.state, State::Data | State::Trailers) {
                        // The input ends inside framing.
                        return Ok(ChunkedStep {
                            consumed: pos,
                            data: pos..pos,
                            trailers: None,
                            done: false,
                        });
                    }
                }
            }
        }
    }

    /// Decodes the chunked body at the front of `buf` in place: chunk data is
    /// moved to the front of the buffer (one move of each byte, as
    /// picohttpparser's `phr_decode_chunked` does), framing is dropped.
    ///
    /// After the step, `buf[..data_len]` is the data and `buf[consumed..]` is
    /// untouched input: the rest of the message or the next one. Trailers, as
    /// in [`decode`](ChunkedDecoder::decode), are not moved.
    ///
    /// ```
    /// use http_net_framing::{ChunkedDecoder, BodyLimits};
    ///
    /// let mut buf = *b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\nnext";
    /// let mut decoder = ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT);
    /// let step = decoder.decode_in_place(&mut buf, &mut []).unwrap();
    /// assert!(step.done);
    /// assert_eq!(&buf[..step.data_len], b"abcde");
    /// assert_eq!(&buf[step.consumed..], b"next");
    /// ```
    pub fn decode_in_place(
        &mut self,
        buf: &mut [u8],
        trailers: &mut [Field],
    ) -> Result<InPlaceStep, Error> {
        let mut read = 0;
        let mut write = 0;
        loop {
            let step = self.decode(buf.get(read..).unwrap_or(&[]), trailers)?;
            let data = (read + step.data.start)..(read + step.data.end);
            // `data` is a range of `buf[read..]` and `write <= read`, so the
            // move stays inside the buffer (checked, never a panic).
            if !data.is_empty() && data.end <= buf.len() {
                let len = data.len();
                buf.copy_within(data, write);
                write += len;
            }
            let base = read;
            read += step.consumed;
            if step.done {
                let block = step.trailers;
                if let Some(block) = block {
                    shift(trailers, block.field_count, base);
                }
                return Ok(InPlaceStep {
                    consumed: read,
                    data_len: write,
                    trailers: block,
                    done: true,
                });
            }
            if step.consumed == 0 || read >= buf.len() {
                return Ok(InPlaceStep {
                    consumed: read,
                    data_len: write,
                    trailers: None,
                    done: false,
                });
            }
        }
    }

    /// Reads framing from `input[*pos..]` until chunk data or the trailer
    /// section starts, or the input ends.
    fn framing(&mut self, input: &[u8], pos: &mut usize) -> Result<(), Error> {
        loop {
            // Fast path for the common shape: CR LF after data, then
            // `HEXDIG{1,16} CR LF`, checked in one pass; general twin
            // `byte` (`chunked/grammar.rs`). Figure: part of the 3.43 µs
            // baseline of docs/PERFORMANCE.md, "Optimisations tried" (no run
            // without it was recorded).
            let fast = cfg!(not(http_net_general_path));
            if fast
                && self.state == State::DataCr
                && matches!(input.get(*pos..), Some([b'\r', b'\n', ..]))
            {
                *pos += 2;
                self.state = State::LineStart;
            }
            if fast && self.state == State::LineStart {
                if let Some((size, len)) = fast_line(input.get(*pos..).unwrap_or(&[])) {
                    *pos += len;
                    self.size = size;
                    return self.line_done();
                }
            }
            let Some(&b) = input.get(*pos) else {
                return Ok(());
            };
            *pos += 1;
            self.byte(b)?;
            if matches!(self.state, State::Data | State::Trailers) {
                return Ok(());
            }
        }
    }

    /// The trailer section at `input[pos..]`, parsed with the head's field
    /// rules and limits; consumed only once complete.
    fn trailers(
        &mut self,
        input: &[u8],
        pos: usize,
        fields: &mut [Field],
    ) -> Result<ChunkedStep, Error> {
        let rest = input.get(pos..).unwrap_or(&[]);
        let partial = ChunkedStep {
            consumed: pos,
            data: pos..pos,
            trailers: None,
            done: false,
        };
        // Fast path: the common case, an empty trailer section, needs no
        // field parser; general twin the parser below (no figure recorded).
        match rest {
            _ if cfg!(http_net_general_path) => {}
            [] | [b'\r'] => return Ok(partial),
            [b'\r', b'\n', ..] => {
                self.state = State::Done;
                let end = pos + 2;
                return Ok(ChunkedStep {
                    consumed: end,
                    data: end..end,
                    trailers: None,
                    done: true,
                });
            }
            _ => {}
        }
        match self.trailer_parser.parse(rest, fields) {
            Ok(Parsed::Complete(block)) => {
                shift(fields, block.field_count, pos);
                self.state = State::Done;
                let end = pos + block.len;
                Ok(ChunkedStep {
                    consumed: end,
                    data: end..end,
                    // An empty trailer section gives `None`.
                    trailers: (block.field_count > 0).then_some(block),
                    done: true,
                })
            }
            Ok(Parsed::Partial) => Ok(partial),
            Err(e) => {
                let e = Error::Trailer(e);
                self.state = State::Failed(e);
                Err(e)
            }
        }
    }
}

/// Moves the spans of the first `count` fields `by` bytes towards the end.
fn shift(fields: &mut [Field], count: usize, by: usize) {
    if by == 0 {
        return;
    }
    for f in fields.iter_mut().take(count) {
        f.name = f.name.shifted(by);
        f.value = f.value.shifted(by);
    }
}

/// The common chunk line, `HEXDIG{1,16} CR LF`, in one pass: its size and
/// length. Any other shape (extensions, more digits, a short input) is left
/// to the byte-at-a-time path, which accepts or rejects it.
#[inline]
fn fast_line(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut size: u64 = 0;
    let mut i = 0;
    loop {
        let b = *bytes.get(i)?;
        let d = HEX[b as usize];
        if d == NOT_HEX {
            break;
        }
        if i == 16 {
            return None;
        }
        // At most 16 digits: no overflow.
        size = (size << 4) | u64::from(d);
        i += 1;
    }
    match bytes.get(i..)? {
        [b'\r', b'\n', ..] if i > 0 => Some((size, i + 2)),
        _ => None,
    }
}

mod grammar;
mod state;
#[cfg(test)]
mod tests;

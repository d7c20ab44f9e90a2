use core::ops::Range;

use http_net_head::{Field, FieldBlock};

use crate::{Error, Limits};

/// One step of the chunked decoder over a borrowed input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkedStep {
    /// Input bytes consumed.
    pub consumed: usize,
    /// Chunk data found in this step: a range of the input.
    pub data: Range<usize>,
    /// The trailer section, once complete: its field spans are relative to
    /// the input of this step, its fields in the storage given to the step.
    pub trailers: Option<FieldBlock>,
    /// The message is complete (last chunk and trailer section read).
    pub done: bool,
}

/// One step of the in-place decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InPlaceStep {
    /// Input bytes consumed.
    pub consumed: usize,
    /// Data bytes now at the front of the buffer.
    pub data_len: usize,
    /// The message is complete.
    pub done: bool,
}

/// A streaming chunked-body decoder (RFC 9112 §7.1), resumable at any byte.
#[derive(Clone, Debug)]
pub struct ChunkedDecoder {
    limits: Limits,
    head_limits: http_net_head::Limits,
}

impl ChunkedDecoder {
    /// A decoder with these body limits; trailers use `head_limits`.
    pub const fn new(limits: Limits, head_limits: http_net_head::Limits) -> ChunkedDecoder {
        ChunkedDecoder { limits, head_limits }
    }

    /// Decodes from `input`; never consumes a byte past the end of the message.
    pub fn decode(&mut self, input: &[u8], trailers: &mut [Field]) -> Result<ChunkedStep, Error> {
        let _ = (input, trailers, self.limits, self.head_limits);
        todo!("issue 3")
    }
}

use core::ops::Range;

use http_net_head::{Field, FieldFacts, Method, Version};

use crate::{Error, Limits};

/// How the body of a message is delimited (RFC 9112 §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// No body.
    None,
    /// Exactly this many bytes (Content-Length).
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
    /// Everything until the peer closes (responses only).
    CloseDelimited,
    /// A 2xx answer to CONNECT: the connection becomes a tunnel after the head.
    Tunnel,
}

/// Decides the body of a request from its head (RFC 9112 §6.3, SPEC §3).
/// `fields` and `buf` are the storage and buffer the head was parsed with.
pub fn request_body(
    version: Version,
    facts: &FieldFacts,
    fields: &[Field],
    buf: &[u8],
    limits: &Limits,
) -> Result<BodyKind, Error> {
    let _ = (version, facts, fields, buf, limits);
    todo!("issue 3")
}

/// Decides the body of a response to a request with `request_method`
/// (RFC 9112 §6.3, SPEC §3).
pub fn response_body(
    request_method: Method,
    status: u16,
    version: Version,
    facts: &FieldFacts,
    fields: &[Field],
    buf: &[u8],
    limits: &Limits,
) -> Result<BodyKind, Error> {
    let _ = (request_method, status, version, facts, fields, buf, limits);
    todo!("issue 3")
}

/// What one decoding step did: bytes consumed from the input, the data in it
/// (a range of the input), and whether the body is complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Input bytes consumed.
    pub consumed: usize,
    /// Body data: a range of the input.
    pub data: Range<usize>,
    /// The body is complete.
    pub done: bool,
}

/// Decodes a Content-Length body.
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
    pub fn decode(&mut self, input: &[u8]) -> Step {
        let take = (input.len() as u64).min(self.remaining) as usize;
        self.remaining -= take as u64;
        Step { consumed: take, data: 0..take, done: self.remaining == 0 }
    }
}

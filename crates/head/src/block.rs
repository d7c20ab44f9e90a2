use crate::{Error, Field, FieldFacts, Limits, Status};

/// A parsed field block: field lines up to and including the empty line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldBlock {
    /// How many field lines were stored.
    pub field_count: usize,
    /// Bytes of the block, the final empty line included.
    pub len: usize,
    /// Framing-relevant facts about the fields.
    pub facts: FieldFacts,
}

/// A resumable parser for a bare block of field lines ending in an empty line,
/// with the head's field rules: what `framing` uses for trailers
/// (RFC 9112 §7.1.2). Same contract as [`RequestParser`](crate::RequestParser).
#[derive(Clone, Debug)]
pub struct FieldBlockParser {
    limits: Limits,
}

impl FieldBlockParser {
    /// A parser with these limits (`max_head_bytes` bounds the block).
    pub const fn new(limits: Limits) -> FieldBlockParser {
        FieldBlockParser { limits }
    }

    /// Forgets any partial progress.
    pub fn reset(&mut self) {}

    /// Parses (or resumes parsing) a field block at the start of `buf`.
    pub fn parse(&mut self, buf: &[u8], fields: &mut [Field]) -> Result<Status<FieldBlock>, Error> {
        let _ = (buf, fields, self.limits);
        todo!("issue 2: field block parser")
    }
}

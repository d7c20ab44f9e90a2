use crate::{Error, Field, FieldFacts, Limits, Method, Span, Status, TargetForm, Version};

/// A parsed request head. Spans refer to the buffer given to
/// [`RequestParser::parse`]; fields are the first `field_count` entries of the
/// field storage given to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestHead {
    /// The method, classified.
    pub method: Method,
    /// The method's bytes.
    pub method_span: Span,
    /// The request target, as received.
    pub target: Span,
    /// The form of the target.
    pub target_form: TargetForm,
    /// The version.
    pub version: Version,
    /// How many field lines were stored.
    pub field_count: usize,
    /// Bytes of the head, leading empty lines and the final empty line included.
    pub len: usize,
    /// Framing-relevant facts about the fields.
    pub facts: FieldFacts,
}

/// A resumable request-head parser.
///
/// Call [`parse`](RequestParser::parse) with the bytes received so far; after
/// `Partial`, call it again with the same buffer extended (same prefix, same
/// field storage): the scan resumes where it stopped, so feeding a head one
/// byte at a time costs time linear in its size. After `Complete` or an error,
/// call [`reset`](RequestParser::reset) before the next head.
#[derive(Clone, Debug)]
pub struct RequestParser {
    limits: Limits,
}

impl RequestParser {
    /// A parser with these limits.
    pub const fn new(limits: Limits) -> RequestParser {
        RequestParser { limits }
    }

    /// The limits in force.
    pub const fn limits(&self) -> Limits {
        self.limits
    }

    /// Forgets any partial progress.
    pub fn reset(&mut self) {}

    /// Parses (or resumes parsing) a request head at the start of `buf`.
    /// Fields are stored in `fields`; more field lines than
    /// `min(limits.max_fields(), fields.len())` is [`Error::TooManyFields`].
    pub fn parse(
        &mut self,
        buf: &[u8],
        fields: &mut [Field],
    ) -> Result<Status<RequestHead>, Error> {
        let _ = (buf, fields);
        todo!("issue 2: request head parser")
    }
}

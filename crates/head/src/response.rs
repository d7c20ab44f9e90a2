use crate::{Error, Field, FieldFacts, Limits, Span, Status, Version};

/// What a response parser does with an obs-fold (RFC 9112 §5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ObsFold {
    /// Keep the fold inside the value span and report it in
    /// [`ResponseHead::obs_fold`]; the caller applies
    /// [`unfold_in_place`](crate::unfold_in_place) (a user agent's duty).
    #[default]
    Replace,
    /// Reject it with [`Error::ObsFold`] (for proxies).
    Reject,
}

/// Options of the response parser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResponseOptions {
    /// Obs-fold handling.
    pub obs_fold: ObsFold,
}

/// A parsed response head; spans refer to the parsed buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResponseHead {
    /// The version.
    pub version: Version,
    /// The status code, 100 to 999.
    pub status: u16,
    /// The reason phrase (possibly empty).
    pub reason: Span,
    /// How many field lines were stored.
    pub field_count: usize,
    /// Bytes of the head, the final empty line included.
    pub len: usize,
    /// Whether some field value holds an obs-fold still to be unfolded.
    pub obs_fold: bool,
    /// Framing-relevant facts about the fields.
    pub facts: FieldFacts,
}

/// A resumable response-head parser, with the same contract as
/// [`RequestParser`](crate::RequestParser).
#[derive(Clone, Debug)]
pub struct ResponseParser {
    limits: Limits,
    options: ResponseOptions,
}

impl ResponseParser {
    /// A parser with these limits and options.
    pub const fn new(limits: Limits, options: ResponseOptions) -> ResponseParser {
        ResponseParser { limits, options }
    }

    /// Forgets any partial progress.
    pub fn reset(&mut self) {}

    /// Parses (or resumes parsing) a response head at the start of `buf`.
    pub fn parse(
        &mut self,
        buf: &[u8],
        fields: &mut [Field],
    ) -> Result<Status<ResponseHead>, Error> {
        let _ = (buf, fields, self.limits, self.options);
        todo!("issue 2: response head parser")
    }
}

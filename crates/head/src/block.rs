use crate::section::{Rules, Section};
use crate::{Error, Field, HeadLimits, KnownFields, Parsed};

/// A parsed field block: field lines up to and including the empty line.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldBlock {
    /// How many field lines were stored.
    pub field_count: usize,
    /// Bytes of the block, the final empty line included.
    pub len: usize,
    /// What the fields say about framing and the connection (the known fields).
    pub known: KnownFields,
}

/// A resumable parser for a bare block of field lines ending in an empty line,
/// with the head's field rules: what `framing` uses for trailers
/// (RFC 9112 §7.1.2). Same contract as [`RequestParser`](crate::RequestParser);
/// obs-fold is rejected and `Host` gets no special rule.
#[derive(Clone, Debug)]
pub struct FieldBlockParser {
    limits: HeadLimits,
    section: Section,
    outcome: Option<Result<FieldBlock, Error>>,
}

impl FieldBlockParser {
    /// A parser with these limits (`max_head_bytes` bounds the block).
    pub const fn new(limits: HeadLimits) -> FieldBlockParser {
        FieldBlockParser {
            limits,
            section: Section::new(0),
            outcome: None,
        }
    }

    /// Forgets any partial progress.
    pub fn reset(&mut self) {
        *self = FieldBlockParser::new(self.limits);
    }

    /// Bytes examined since the last reset (only with the `count-work`
    /// feature, for the linearity test).
    #[cfg(feature = "count-work")]
    #[doc(hidden)]
    pub fn work(&self) -> u64 {
        self.section.work.total()
    }

    /// Parses (or resumes parsing) a field block at the start of `buf`.
    ///
    /// ```
    /// use http_net_head::{Field, FieldBlockParser, HeadLimits, Parsed};
    ///
    /// let buf = b"Expires: never\r\n\r\n";
    /// let mut parser = FieldBlockParser::new(HeadLimits::DEFAULT);
    /// let mut fields = [Field::default(); 4];
    /// let Ok(Parsed::Complete(block)) = parser.parse(buf, &mut fields) else { panic!() };
    /// assert_eq!((block.field_count, block.len), (1, buf.len()));
    /// ```
    pub fn parse(&mut self, buf: &[u8], fields: &mut [Field]) -> Result<Parsed<FieldBlock>, Error> {
        if let Some(outcome) = self.outcome {
            return outcome.map(Parsed::Complete);
        }
        let max = self.limits.max_head_bytes();
        let view = buf.get(..max).unwrap_or(buf);
        let cap = self.limits.max_fields().min(fields.len());
        let rules = Rules {
            forbid_trailers: self.limits.front_line(),
            ..Rules::STRICT
        };
        let outcome = match self.section.run(view, fields, cap, rules) {
            Ok(None) if buf.len() > max => Err(Error::HeadTooLarge),
            Ok(None) => return Ok(Parsed::Partial),
            Ok(Some(len)) => Ok(FieldBlock {
                field_count: self.section.count,
                len,
                known: self.section.known,
            }),
            Err(e) => Err(e),
        };
        self.outcome = Some(outcome);
        outcome.map(Parsed::Complete)
    }
}

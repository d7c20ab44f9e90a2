/// Bounds on message bodies. Trailer sections are bounded by the head limits
/// (`http_net_head::HeadLimits`: bytes by `max_head_bytes`, field lines by
/// `max_fields`): a trailer line follows the same field rules as the head
/// (RFC 9112 §7.1.2) and counts in the same limits.
///
/// ```
/// use http_net_framing::BodyLimits;
/// const BODY: BodyLimits = BodyLimits::DEFAULT.with_body_budget(1 << 20).with_max_chunk_ext_bytes(256);
/// assert_eq!(BODY.body_budget(), 1 << 20);
/// assert_eq!(BODY.overhead_guard_bytes(), 100 * 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyLimits {
    max_chunk_ext_bytes: u32,
    overhead_guard_bytes: u32,
    body_budget: u64,
}

impl BodyLimits {
    /// 1 KiB of chunk extensions per chunk (hyper allows 16 KiB per
    /// body, Twisted 4 KiB per line); a body budget of 8 MiB; the
    /// framing-overhead guard armed at 100 KiB (picohttpparser's threshold).
    pub const DEFAULT: BodyLimits = BodyLimits {
        max_chunk_ext_bytes: 1024,
        overhead_guard_bytes: 100 * 1024,
        body_budget: 8 * 1024 * 1024,
    };

    /// Bytes of extensions allowed on one chunk line (from the first BWS or
    /// `;` after the size to the CR).
    pub const fn max_chunk_ext_bytes(self) -> usize {
        self.max_chunk_ext_bytes as usize
    }
    /// Body bytes allowed in one message; 0 means no budget.
    pub const fn body_budget(self) -> u64 {
        self.body_budget
    }
    /// Framing bytes (size lines, extensions, CR LFs) after which the chunked
    /// decoder requires data to be at least a quarter of the bytes read;
    /// 0 disarms the guard.
    pub const fn overhead_guard_bytes(self) -> u64 {
        self.overhead_guard_bytes as u64
    }
    /// Sets the chunk-extension bound (saturates at `u32::MAX`).
    #[must_use]
    pub const fn with_max_chunk_ext_bytes(mut self, n: usize) -> BodyLimits {
        self.max_chunk_ext_bytes = saturate_u32(n as u64);
        self
    }
    /// Sets the body budget (0: none).
    #[must_use]
    pub const fn with_body_budget(mut self, n: u64) -> BodyLimits {
        self.body_budget = n;
        self
    }
    /// Sets the framing-overhead guard threshold (0: off; saturates at
    /// `u32::MAX`).
    #[must_use]
    pub const fn with_overhead_guard_bytes(mut self, n: u64) -> BodyLimits {
        self.overhead_guard_bytes = saturate_u32(n);
        self
    }
    /// Whether `len` body bytes are over the budget.
    pub(crate) const fn over_budget(self, len: u64) -> bool {
        self.body_budget != 0 && len > self.body_budget
    }
}

/// `n`, or `u32::MAX` where `n` does not fit.
const fn saturate_u32(n: u64) -> u32 {
    if n > u32::MAX as u64 {
        u32::MAX
    } else {
        n as u32
    }
}

impl Default for BodyLimits {
    fn default() -> BodyLimits {
        BodyLimits::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::BodyLimits;

    #[test]
    fn setters_keep_what_fits_and_saturate_what_does_not() {
        let l = BodyLimits::DEFAULT
            .with_max_chunk_ext_bytes(5)
            .with_overhead_guard_bytes(u32::MAX as u64);
        assert_eq!(l.max_chunk_ext_bytes(), 5);
        assert_eq!(l.overhead_guard_bytes(), u32::MAX as u64);
        let l = BodyLimits::DEFAULT.with_overhead_guard_bytes(u64::MAX);
        assert_eq!(l.overhead_guard_bytes(), u32::MAX as u64);
        #[cfg(target_pointer_width = "64")]
        {
            let l = BodyLimits::DEFAULT.with_max_chunk_ext_bytes(u32::MAX as usize + 1);
            assert_eq!(l.max_chunk_ext_bytes(), u32::MAX as usize);
        }
    }
}

/// Bounds on message bodies. Trailer sections are bounded by the head limits
/// (`http_net_head::Limits`), as SPEC §3 asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    max_chunk_ext_bytes: u32,
    body_budget: u64,
}

impl Limits {
    /// 1 KiB of chunk extensions per chunk; a body budget of 8 MiB.
    pub const DEFAULT: Limits = Limits { max_chunk_ext_bytes: 1024, body_budget: 8 * 1024 * 1024 };

    /// Bytes of extensions allowed on one chunk line.
    pub const fn max_chunk_ext_bytes(self) -> usize {
        self.max_chunk_ext_bytes as usize
    }
    /// Body bytes allowed in one message; 0 means no budget.
    pub const fn body_budget(self) -> u64 {
        self.body_budget
    }
    /// Sets the chunk-extension bound (saturates at `u32::MAX`).
    pub const fn with_max_chunk_ext_bytes(mut self, n: usize) -> Limits {
        self.max_chunk_ext_bytes = if n > u32::MAX as usize { u32::MAX } else { n as u32 };
        self
    }
    /// Sets the body budget (0: none).
    pub const fn with_body_budget(mut self, n: u64) -> Limits {
        self.body_budget = n;
        self
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

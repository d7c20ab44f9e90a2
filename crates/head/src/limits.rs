/// Bounds on a head, applied the same way however the input is split.
///
/// A plain `Copy` struct with `const fn` setters, so a whole configuration can
/// be a `const`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    max_head_bytes: u32,
    max_fields: u16,
    max_target_bytes: u32,
}

impl Limits {
    /// The SPEC §3 defaults: head 16 KiB (h11's default; IIS also uses 16 KiB),
    /// 100 fields (hyper's default), target 8 KiB (RFC 9112 §3 asks for at
    /// least 8000 octets of request line).
    pub const DEFAULT: Limits = Limits {
        max_head_bytes: 16 * 1024,
        max_fields: 100,
        max_target_bytes: 8 * 1024,
    };

    /// Bytes of a whole head, start line to the empty line included
    /// (above it: [`Error::HeadTooLarge`](crate::Error), 431).
    pub const fn max_head_bytes(self) -> usize {
        self.max_head_bytes as usize
    }

    /// Field lines in one head or trailer section (above it: 431).
    pub const fn max_fields(self) -> usize {
        self.max_fields as usize
    }

    /// Bytes of a request target (above it: 414).
    pub const fn max_target_bytes(self) -> usize {
        self.max_target_bytes as usize
    }

    /// Sets the head byte limit (saturates at `u32::MAX`).
    pub const fn with_max_head_bytes(mut self, n: usize) -> Limits {
        self.max_head_bytes = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
    }

    /// Sets the field count limit (saturates at `u16::MAX`).
    pub const fn with_max_fields(mut self, n: usize) -> Limits {
        self.max_fields = if n > u16::MAX as usize {
            u16::MAX
        } else {
            n as u16
        };
        self
    }

    /// Sets the target length limit (saturates at `u32::MAX`).
    pub const fn with_max_target_bytes(mut self, n: usize) -> Limits {
        self.max_target_bytes = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

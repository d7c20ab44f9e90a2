/// Bounds on a head, applied the same way however the input is split.
///
/// A plain `Copy` struct with `const fn` setters, so a whole configuration can
/// be a `const`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    max_head_bytes: u32,
    max_fields: u16,
    max_target_bytes: u32,
    max_method_bytes: u32,
}

impl Limits {
    /// The SPEC §3 defaults: head 16 KiB (h11's default; IIS also uses 16 KiB),
    /// 100 fields (hyper's default), target 8 KiB (RFC 9112 §3 asks for at
    /// least 8000 octets of request line), method 32 bytes (the longest
    /// registered method, `UPDATEREDIRECTREF`, has 17).
    pub const DEFAULT: Limits = Limits {
        max_head_bytes: 16 * 1024,
        max_fields: 100,
        max_target_bytes: 8 * 1024,
        max_method_bytes: 32,
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

    /// Bytes of a method (above it: [`Error::MethodTooLong`](crate::Error),
    /// 501, RFC 9112 §3: a server that receives a method longer than any it
    /// implements SHOULD answer 501). Reported at the first method byte over
    /// the limit, so a long method is not read on to the head limit.
    pub const fn max_method_bytes(self) -> usize {
        self.max_method_bytes as usize
    }

    /// Sets the method length limit (saturates at `u32::MAX`; 0 rejects
    /// every method).
    ///
    /// ```
    /// use http_net_head::{Error, Field, Limits, RequestParser};
    ///
    /// let limits = Limits::DEFAULT.with_max_method_bytes(4);
    /// let mut fields = [Field::default(); 4];
    /// let mut parser = RequestParser::new(limits);
    /// let got = parser.parse(b"PATCH / HTTP/1.1\r\nHost: a\r\n\r\n", &mut fields);
    /// assert_eq!(got, Err(Error::MethodTooLong));
    /// assert_eq!(Error::MethodTooLong.status(), 501);
    /// ```
    pub const fn with_max_method_bytes(mut self, n: usize) -> Limits {
        self.max_method_bytes = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
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

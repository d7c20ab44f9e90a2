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
    front_line: bool,
}

impl Limits {
    /// The defaults: head 16 KiB (h11's default; IIS also uses 16 KiB),
    /// 100 fields (hyper's default), target 8 KiB (RFC 9112 §3 asks for at
    /// least 8000 octets of request line), method 32 bytes (the longest
    /// registered method, `UPDATEREDIRECTREF`, has 17).
    pub const DEFAULT: Limits = Limits {
        max_head_bytes: 16 * 1024,
        max_fields: 100,
        max_target_bytes: 8 * 1024,
        max_method_bytes: 32,
        front_line: false,
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
    #[must_use]
    pub const fn with_max_method_bytes(mut self, n: usize) -> Limits {
        self.max_method_bytes = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
    }

    /// Whether the front-line profile is on (off by default): see
    /// [`with_front_line`](Limits::with_front_line).
    pub const fn front_line(self) -> bool {
        self.front_line
    }

    /// Turns the front-line profile on or off. It is for a server that sits
    /// in front of or behind other parsers (a proxy, a cache, a load
    /// balancer), where a request that is valid but that some parser reads
    /// differently is itself the risk. On top of the rules that always
    /// hold, it rejects, each with its own [`Error`](crate::Error):
    ///
    /// | form | error | status | why |
    /// |---|---|---|---|
    /// | a method outside the IANA HTTP Method Registry (RFC 9110 §16.1) | `UnregisteredMethod` | 501 | an extension method is routed and cached by rules each hop makes up |
    /// | `%00`, `%0D` or `%0A` (any case) in the target | `EncodedControlInTarget` | 400 | a hop that decodes the target gets a NUL or a line end, which ends strings or splits lines (RFC 3986 §7.3) |
    /// | `Content-Length` other than `:` `[SP]` `1*DIGIT` CR LF: leading zeros, other whitespace around the digits, a list, or a second line | `NonCanonicalContentLength` | 400 | parsers disagree on `05`, `5 `, `5, 5`: the body length is where smuggling starts (RFC 9112 §6.3) |
    /// | an absolute-form target whose authority is not the `Host` value (ASCII case aside) | `HostMismatch` | 400 | RFC 9112 §3.2.2 has a server use the target, but a hop that routes by `Host` sends the request elsewhere |
    /// | `Content-Length`, `Transfer-Encoding`, `Host`, `Authorization`, `Content-Type` or `Trailer` in a trailer section | `ForbiddenTrailer` | 400 | framing, routing and credentials must not change after the content (RFC 9110 §6.5.1); a hop that merges trailers into the header would act on them |
    /// | an `Upgrade` whose list is empty or has a member that is not `token ["/" token]` | `InvalidUpgrade` | 400 | hops that read the protocol list differently disagree on whether the connection switches (RFC 9110 §7.8) |
    ///
    /// The profile only ever rejects more: what it accepts is parsed exactly
    /// as without it. The trailer rule holds wherever these limits parse a
    /// trailer section, a client's included; the other response-side
    /// equivalents (for a proxy) are not built yet.
    ///
    /// ```
    /// use http_net_head::{Error, Field, Limits, RequestParser, Status};
    ///
    /// let buf = b"GET /a%00b HTTP/1.1\r\nHost: a\r\n\r\n";
    /// let mut fields = [Field::default(); 4];
    /// let off = RequestParser::new(Limits::DEFAULT).parse(buf, &mut fields);
    /// assert!(matches!(off, Ok(Status::Complete(_))));
    /// let on = Limits::DEFAULT.with_front_line(true);
    /// let got = RequestParser::new(on).parse(buf, &mut fields);
    /// assert_eq!(got, Err(Error::EncodedControlInTarget));
    /// ```
    #[must_use]
    pub const fn with_front_line(mut self, on: bool) -> Limits {
        self.front_line = on;
        self
    }

    /// Sets the head byte limit (saturates at `u32::MAX`).
    #[must_use]
    pub const fn with_max_head_bytes(mut self, n: usize) -> Limits {
        self.max_head_bytes = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
    }

    /// Sets the field count limit (saturates at `u16::MAX`).
    #[must_use]
    pub const fn with_max_fields(mut self, n: usize) -> Limits {
        self.max_fields = if n > u16::MAX as usize {
            u16::MAX
        } else {
            n as u16
        };
        self
    }

    /// Sets the target length limit (saturates at `u32::MAX`).
    #[must_use]
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

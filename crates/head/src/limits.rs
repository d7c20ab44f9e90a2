/// Bounds on a head, applied the same way however the input is split.
///
/// A plain `Copy` struct with `const fn` setters, so a whole configuration can
/// be a `const`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadLimits {
    max_head_bytes: u32,
    max_fields: u16,
    max_target_bytes: u32,
    max_method_bytes: u32,
    front_line: bool,
}

impl HeadLimits {
    /// The defaults: head 16 KiB (h11's default; IIS also uses 16 KiB),
    /// 100 fields (hyper's default), target 8 KiB (RFC 9112 §3 asks for at
    /// least 8000 octets of request line), method 32 bytes (the longest
    /// registered method, `UPDATEREDIRECTREF`, has 17).
    pub const DEFAULT: HeadLimits = HeadLimits {
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
    /// use http_net_head::{Error, Field, HeadLimits, RequestParser};
    ///
    /// let limits = HeadLimits::DEFAULT.with_max_method_bytes(4);
    /// let mut fields = [Field::default(); 4];
    /// let mut parser = RequestParser::new(limits);
    /// let got = parser.parse(b"PATCH / HTTP/1.1\r\nHost: a\r\n\r\n", &mut fields);
    /// assert_eq!(got, Err(Error::MethodTooLong));
    /// assert_eq!(Error::MethodTooLong.status(), 501);
    /// ```
    #[must_use]
    pub const fn with_max_method_bytes(mut self, n: usize) -> HeadLimits {
        self.max_method_bytes = saturate_u32(n);
        self
    }

    /// Whether the front-line profile is on (off by default): see
    /// [`with_front_line`](HeadLimits::with_front_line).
    pub const fn front_line(self) -> bool {
        self.front_line
    }

    /// Turns the front-line profile on or off. It is for a server that sits
    /// in front of or behind other parsers (a proxy, a cache, a load
    /// balancer), and for a client that forwards what it receives (a
    /// proxy's client side), where a message that is valid but that some
    /// parser reads differently is itself the risk. On top of the rules
    /// that always hold, it rejects, each with its own
    /// [`Error`](crate::Error):
    ///
    /// | form | side | error | status | why |
    /// |---|---|---|---|---|
    /// | a method outside the IANA HTTP Method Registry (RFC 9110 §16.1) | request | `UnregisteredMethod` | 501 | an extension method is routed and cached by rules each hop makes up |
    /// | `%00`, `%0D` or `%0A` (any case) in the target | request | `EncodedControlInTarget` | 400 | a hop that decodes the target gets a NUL or a line end, which ends strings or splits lines (RFC 3986 §7.3) |
    /// | `Content-Length` other than `:` `[SP]` `1*DIGIT` CR LF: leading zeros, other whitespace around the digits (the raw line is checked: the field parser trims OWS), a list, a second line, or an obs-fold | request and response | `NonCanonicalContentLength` | 400 | parsers disagree on `05`, `5 `, `5, 5`: the body length is where smuggling starts (RFC 9112 §6.3) |
    /// | an absolute-form target whose authority is not the `Host` value (ASCII case aside) | request | `HostMismatch` | 400 | RFC 9112 §3.2.2 has a server use the target, but a hop that routes by `Host` sends the request elsewhere |
    /// | in a trailer section: `Content-Length`, `Transfer-Encoding`, `Trailer` (framing), `Host` (routing), `Authorization`, `Proxy-Authorization`, `Set-Cookie` (credentials), `WWW-Authenticate`, `Proxy-Authenticate` (challenges), `Content-Type`, `Content-Encoding` (content handling) | request and response (one list) | `ForbiddenTrailer` | 400 | framing, routing, credentials and the reading of the content must not change after the content (RFC 9110 §6.5.1); a hop that merges trailers into the header would act on them |
    /// | an `Upgrade` whose list is empty or has a member that is not `token ["/" token]` | request | `InvalidUpgrade` | 400 | hops that read the protocol list differently disagree on whether the connection switches (RFC 9110 §7.8) |
    /// | a 101 (Switching Protocols) with no `Upgrade`, or one that is not such a list | response | `InvalidUpgrade` | 400 | a 101 must name the protocol switched to (RFC 9110 §7.8); a proxy relaying the bytes after it must know what they are |
    ///
    /// The profile only ever rejects more: what it accepts is parsed exactly
    /// as without it. On the response side it applies to
    /// [`ResponseParser`](crate::ResponseParser) and, for trailers, to
    /// [`FieldBlockParser`](crate::FieldBlockParser) (which side's trailers
    /// it reads makes no difference). An obs-fold in a response is not one
    /// of its forms: RFC 9112 §5.2 has a user agent replace it with SP, and
    /// a proxy either do that or reject the message;
    /// [`ObsFold::Reject`](crate::ObsFold::Reject) is the option that
    /// rejects it.
    ///
    /// ```
    /// use http_net_head::{Error, Field, HeadLimits, RequestParser, ResponseOptions, ResponseParser, Parsed};
    ///
    /// let buf = b"GET /a%00b HTTP/1.1\r\nHost: a\r\n\r\n";
    /// let mut fields = [Field::default(); 4];
    /// let off = RequestParser::new(HeadLimits::DEFAULT).parse(buf, &mut fields);
    /// assert!(matches!(off, Ok(Parsed::Complete(_))));
    /// let on = HeadLimits::DEFAULT.with_front_line(true);
    /// let got = RequestParser::new(on).parse(buf, &mut fields);
    /// assert_eq!(got, Err(Error::EncodedControlInTarget));
    ///
    /// // The response side: the same switch.
    /// let buf = b"HTTP/1.1 200 OK\r\nContent-Length: 007\r\n\r\n";
    /// let off = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::DEFAULT).parse(buf, &mut fields);
    /// assert!(matches!(off, Ok(Parsed::Complete(_))));
    /// let got = ResponseParser::new(on, ResponseOptions::DEFAULT).parse(buf, &mut fields);
    /// assert_eq!(got, Err(Error::NonCanonicalContentLength));
    /// ```
    #[must_use]
    pub const fn with_front_line(mut self, on: bool) -> HeadLimits {
        self.front_line = on;
        self
    }

    /// Sets the head byte limit (saturates at `u32::MAX`).
    #[must_use]
    pub const fn with_max_head_bytes(mut self, n: usize) -> HeadLimits {
        self.max_head_bytes = saturate_u32(n);
        self
    }

    /// Sets the field count limit (saturates at `u16::MAX`).
    #[must_use]
    pub const fn with_max_fields(mut self, n: usize) -> HeadLimits {
        self.max_fields = saturate_u16(n);
        self
    }

    /// Sets the target length limit (saturates at `u32::MAX`).
    #[must_use]
    pub const fn with_max_target_bytes(mut self, n: usize) -> HeadLimits {
        self.max_target_bytes = saturate_u32(n);
        self
    }
}

/// `n`, or `u32::MAX` where `n` does not fit.
const fn saturate_u32(n: usize) -> u32 {
    if n > u32::MAX as usize {
        u32::MAX
    } else {
        n as u32
    }
}

/// `n`, or `u16::MAX` where `n` does not fit.
const fn saturate_u16(n: usize) -> u16 {
    if n > u16::MAX as usize {
        u16::MAX
    } else {
        n as u16
    }
}

impl Default for HeadLimits {
    fn default() -> HeadLimits {
        HeadLimits::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::HeadLimits;

    #[test]
    fn setters_keep_what_fits_and_saturate_what_does_not() {
        let l = HeadLimits::DEFAULT
            .with_max_method_bytes(7)
            .with_max_head_bytes(u32::MAX as usize)
            .with_max_fields(u16::MAX as usize)
            .with_max_target_bytes(9);
        assert_eq!(l.max_method_bytes(), 7);
        assert_eq!(l.max_head_bytes(), u32::MAX as usize);
        assert_eq!(l.max_fields(), u16::MAX as usize);
        assert_eq!(l.max_target_bytes(), 9);
        let l = HeadLimits::DEFAULT.with_max_fields(u16::MAX as usize + 1);
        assert_eq!(l.max_fields(), u16::MAX as usize);
        #[cfg(target_pointer_width = "64")]
        {
            let big = u32::MAX as usize + 1;
            let l = HeadLimits::DEFAULT
                .with_max_method_bytes(big)
                .with_max_head_bytes(big)
                .with_max_target_bytes(usize::MAX);
            assert_eq!(l.max_method_bytes(), u32::MAX as usize);
            assert_eq!(l.max_head_bytes(), u32::MAX as usize);
            assert_eq!(l.max_target_bytes(), u32::MAX as usize);
        }
    }
}

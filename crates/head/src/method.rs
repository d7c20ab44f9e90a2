/// A request method (RFC 9110 §9). Extension methods are accepted as
/// [`Method::Other`]; their bytes are in the head's method span.
/// `#[non_exhaustive]`: a method registered later (or one of the
/// registry's others) may get a variant of its own and stop being `Other`.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// GET
    Get,
    /// HEAD
    Head,
    /// POST
    Post,
    /// PUT
    Put,
    /// DELETE
    Delete,
    /// CONNECT
    Connect,
    /// OPTIONS
    Options,
    /// TRACE
    Trace,
    /// PATCH
    Patch,
    /// Any other token.
    Other,
}

impl Method {
    /// Classifies method bytes (case-sensitive, RFC 9110 §9.1). The caller
    /// has checked that `bytes` is a token.
    pub fn from_bytes(bytes: &[u8]) -> Method {
        // Fast path, general twin the match below (which answers the same):
        // the commonest method by one compare (H5 by callgrind,
        // docs/DECISIONS.md, D-31).
        #[cfg(not(http_net_general_path))]
        if bytes == b"GET" {
            return Method::Get;
        }
        match bytes {
            b"GET" => Method::Get,
            b"HEAD" => Method::Head,
            b"POST" => Method::Post,
            b"PUT" => Method::Put,
            b"DELETE" => Method::Delete,
            b"CONNECT" => Method::Connect,
            b"OPTIONS" => Method::Options,
            b"TRACE" => Method::Trace,
            b"PATCH" => Method::Patch,
            _ => Method::Other,
        }
    }

    /// Whether the method is idempotent (RFC 9110 §9.2.2: `GET`, `HEAD`,
    /// `PUT`, `DELETE`, `OPTIONS`, `TRACE`): a request a client may send
    /// again after a connection failed before its response arrived.
    /// Extension methods are not known to be.
    ///
    /// ```
    /// use http_net_head::Method;
    /// assert!(Method::from_bytes(b"PUT").is_idempotent());
    /// assert!(!Method::from_bytes(b"POST").is_idempotent());
    /// ```
    pub const fn is_idempotent(self) -> bool {
        matches!(
            self,
            Method::Get
                | Method::Head
                | Method::Put
                | Method::Delete
                | Method::Options
                | Method::Trace
        )
    }

    /// Whether a request of this method with no content says so with
    /// `Content-Length: 0` (RFC 9110 §8.6): a client SHOULD send a length
    /// when the method defines a meaning for enclosed content (`POST`,
    /// `PUT`, `PATCH`), and SHOULD NOT when its semantics do not anticipate
    /// any (`GET`, `HEAD`, `DELETE`, `OPTIONS`, `TRACE`, `CONNECT`). An
    /// extension method's semantics are unknown here, so it gets the
    /// explicit zero: the server then knows there is no content to wait for.
    /// Both clients frame an empty request body by this rule, through
    /// `ClientConn`.
    ///
    /// ```
    /// use http_net_head::Method;
    /// assert!(Method::from_bytes(b"POST").defines_content());
    /// assert!(Method::from_bytes(b"PROPFIND").defines_content());
    /// assert!(!Method::from_bytes(b"GET").defines_content());
    /// assert!(!Method::from_bytes(b"DELETE").defines_content());
    /// ```
    pub const fn defines_content(self) -> bool {
        !matches!(
            self,
            Method::Get
                | Method::Head
                | Method::Delete
                | Method::Options
                | Method::Trace
                | Method::Connect
        )
    }

    /// The method's name, or `None` for [`Method::Other`], which holds no
    /// bytes (they stay in the head's method span). That is also why
    /// `Method` has no `Display`: the text of any method, extension methods
    /// included, is the span's (`RequestHead::method_span`, or the
    /// connection's request view's `method_str`).
    pub const fn as_str(self) -> Option<&'static str> {
        Some(match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
            Method::Connect => "CONNECT",
            Method::Options => "OPTIONS",
            Method::Trace => "TRACE",
            Method::Patch => "PATCH",
            Method::Other => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Method;

    #[test]
    fn idempotent_methods_and_methods_that_define_content() {
        // (bytes, idempotent, defines content)
        for (name, idempotent, content) in [
            (&b"GET"[..], true, false),
            (b"HEAD", true, false),
            (b"PUT", true, true),
            (b"DELETE", true, false),
            (b"OPTIONS", true, false),
            (b"TRACE", true, false),
            (b"POST", false, true),
            (b"PATCH", false, true),
            (b"CONNECT", false, false),
            // Extension methods (case matters: `get` is one) get the
            // explicit zero, as the client's framing has always sent it.
            (b"get", false, true),
            (b"post", false, true),
            (b"PROPFIND", false, true),
        ] {
            let m = Method::from_bytes(name);
            let got = (m.is_idempotent(), m.defines_content());
            assert_eq!(got, (idempotent, content), "{m:?}");
        }
    }
}

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

    /// The method's name, or `None` for [`Method::Other`].
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

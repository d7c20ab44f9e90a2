//! The redirect policy (RFC 9110 §15.4), Sans-IO: which responses are
//! followed, with which method and body, which of the caller's fields go
//! along, and when following stops. A client adapter parses URLs and
//! resolves a relative `Location` (that needs its URL type), sends the
//! hops and reads the responses; every decision is here.

use alloc::borrow::Cow;
use core::fmt;

/// Which redirects a client follows: none by default.
///
/// With [`Redirects::follow`], a `301`, `302`, `303`, `307` or `308` with a
/// `Location` is followed (RFC 9110 §15.4): `303` turns any method but
/// `HEAD` into `GET` without a body (§15.4.4); `301` and `302` turn `POST`
/// into `GET` without a body, as user agents do (§15.4.2, §15.4.3); `307`
/// and `308` keep the method and the body (§15.4.8, §15.4.9), which must
/// then be one the client can send again. `Authorization`, `Cookie` and
/// `Proxy-Authorization` (and a caller's `Host`) are dropped once a hop
/// leaves the first request's [`Origin`] (scheme, host, port; RFC 9110
/// §4.3.1, §15.4); an `https` → `http` hop is refused unless allowed.
///
/// ```
/// use http_net_conn::{Origin, Redirect, RedirectError, Redirects};
///
/// let policy = Redirects::follow(5);
/// assert!(policy.follows(302) && !policy.follows(304));
/// let here = Origin::new(true, "a.example", 443);
/// let hop = policy
///     .decide(&Redirect {
///         status: 302,
///         method: b"POST",
///         followed: 0,
///         first: here,
///         from: here,
///         to: Origin::new(true, "b.example", 443),
///         replayable: true,
///     })
///     .unwrap();
/// assert_eq!(hop.method(b"POST"), b"GET"); // 302: POST becomes GET ...
/// assert!(!hop.keeps_body()); // ... without a body
/// assert!(!hop.keeps_field(b"Authorization")); // another origin
/// let plain = Origin::new(false, "a.example", 80);
/// let down = Redirect { status: 307, method: b"GET", followed: 0, first: here, from: here, to: plain, replayable: true };
/// assert_eq!(policy.decide(&down), Err(RedirectError::Downgrade));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Redirects {
    max_hops: usize,
    allow_downgrade: bool,
}

impl Default for Redirects {
    fn default() -> Self {
        Redirects::none()
    }
}

/// A redirect's body a client reads (and drops) so that its connection can
/// carry the next hop; a longer one is left unread and its connection
/// closed.
pub const REDIRECT_BODY_DRAIN: usize = 64 * 1024;

impl Redirects {
    /// Redirects are not followed: a `3xx` is returned as any response.
    pub const fn none() -> Redirects {
        Redirects {
            max_hops: 0,
            allow_downgrade: false,
        }
    }
    /// Follows up to `max_hops` redirects per request; one more is
    /// [`RedirectError::TooMany`].
    pub const fn follow(max_hops: usize) -> Redirects {
        Redirects {
            max_hops,
            allow_downgrade: false,
        }
    }
    /// Whether an `https://` URL may redirect to an `http://` one (default
    /// `false`: such a hop is [`RedirectError::Downgrade`]).
    #[must_use]
    pub const fn with_https_to_http(mut self, allow: bool) -> Redirects {
        self.allow_downgrade = allow;
        self
    }
    /// The hop limit (0: redirects are not followed).
    pub const fn max_hops(&self) -> usize {
        self.max_hops
    }
    /// Whether a response with `status` is a redirect this policy follows
    /// (one of `301`, `302`, `303`, `307`, `308`, and following is on);
    /// another response is the answer.
    pub const fn follows(&self, status: u16) -> bool {
        self.max_hops > 0 && matches!(status, 301 | 302 | 303 | 307 | 308)
    }
    /// The decision for one hop the policy [`follows`](Redirects::follows):
    /// refused past the hop limit, on a downgrade, or when the method and
    /// body are kept and the body cannot be sent again; otherwise the
    /// [`Hop`] says which method, body and fields go.
    pub fn decide(&self, r: &Redirect<'_>) -> Result<Hop, RedirectError> {
        if r.followed >= self.max_hops {
            return Err(RedirectError::TooMany);
        }
        if r.from.https && !r.to.https && !self.allow_downgrade {
            return Err(RedirectError::Downgrade);
        }
        let to_get = match r.status {
            303 => r.method != b"HEAD",
            301 | 302 => r.method == b"POST",
            _ => false,
        };
        if !to_get && !r.replayable {
            return Err(RedirectError::BodyNotReplayable);
        }
        Ok(Hop {
            to_get,
            cross_origin: !r.first.same(&r.to),
        })
    }
}

/// The value of a redirect's `Location` field as a URL reference for the
/// adapter to resolve against the current URL: present, UTF-8, without
/// the whitespace around it (RFC 9110 §10.2.2). Missing or not text:
/// [`RedirectError::BadLocation`], as is a reference the adapter then
/// cannot resolve to an `http` or `https` URL.
///
/// ```
/// assert_eq!(http_net_conn::location(Some(&b" /next "[..])), Ok("/next"));
/// assert!(http_net_conn::location(None).is_err());
/// ```
pub fn location(value: Option<&[u8]>) -> Result<&str, RedirectError> {
    value
        .and_then(|v| core::str::from_utf8(v).ok())
        .map(str::trim)
        .ok_or(RedirectError::BadLocation)
}

/// An origin (RFC 9110 §4.3.1): scheme, host and port. Two are the same
/// when all three are, the host compared ASCII case-insensitively (an IPv6
/// literal written the same way, brackets or none on both sides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Origin<'a> {
    /// `https` (else `http`).
    pub https: bool,
    /// The host, as the URL names it.
    pub host: &'a str,
    /// The port (the scheme's default when the URL names none).
    pub port: u16,
}

impl<'a> Origin<'a> {
    /// An origin.
    pub const fn new(https: bool, host: &'a str, port: u16) -> Origin<'a> {
        Origin { https, host, port }
    }
    /// Whether `other` is the same origin.
    pub fn same(&self, other: &Origin<'_>) -> bool {
        // Fast path: the same bytes (a pooled origin keeps the caller's
        // spelling); general twin: `eq_ignore_ascii_case`.
        self.https == other.https
            && self.port == other.port
            && (self.host == other.host || self.host.eq_ignore_ascii_case(other.host))
    }
    /// `host:port` for a `Host` field (an IPv6 literal in brackets). Fast
    /// path: written in `buf` when it fits; general twin: the parts joined
    /// in a `Vec`.
    ///
    /// ```
    /// let mut buf = [0; 64];
    /// let v = http_net_conn::Origin::new(false, "::1", 8080).authority(&mut buf);
    /// assert_eq!(&*v, b"[::1]:8080");
    /// ```
    pub fn authority<'b>(&self, buf: &'b mut [u8]) -> Cow<'b, [u8]> {
        let v6 = self.host.contains(':');
        let mut digits = [0u8; 20];
        let port = crate::writer::decimal(u64::from(self.port), &mut digits);
        let (open, close): (&[u8], &[u8]) = if v6 { (b"[", b"]:") } else { (b"", b":") };
        let parts = [open, self.host.as_bytes(), close, port];
        let len = parts.iter().map(|p| p.len()).sum();
        let Some(out) = buf.get_mut(..len) else {
            return Cow::Owned(parts.concat());
        };
        let mut rest = &mut *out;
        for p in parts {
            let (head, tail) = rest.split_at_mut(p.len());
            head.copy_from_slice(p);
            rest = tail;
        }
        Cow::Borrowed(out)
    }
}

/// The facts of one redirect, for [`Redirects::decide`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redirect<'a> {
    /// The redirect's status.
    pub status: u16,
    /// The method of the request it answers.
    pub method: &'a [u8],
    /// The hops followed so far for this request.
    pub followed: usize,
    /// The first request's origin (credentials stay with it).
    pub first: Origin<'a>,
    /// The origin of the URL that answered with the redirect.
    pub from: Origin<'a>,
    /// The origin of the resolved `Location`.
    pub to: Origin<'a>,
    /// The caller can send the request body again (bytes it holds, not a
    /// stream already read).
    pub replayable: bool,
}

/// How the next hop is sent: [`Redirects::decide`]'s answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hop {
    to_get: bool,
    cross_origin: bool,
}

/// The caller's fields that carry credentials: never sent to another
/// origin (RFC 9110 §15.4, §11.6.2, RFC 6265 §5.4).
const CREDENTIALS: [&[u8]; 4] = [b"authorization", b"cookie", b"proxy-authorization", b"host"];
/// The fields that describe a body: dropped with the body.
const CONTENT: [&[u8]; 5] = [
    b"content-length",
    b"content-type",
    b"content-encoding",
    b"transfer-encoding",
    b"expect",
];

fn named(n: &[u8], list: &[&[u8]]) -> bool {
    list.iter().any(|l| n.eq_ignore_ascii_case(l))
}

impl Hop {
    /// The method of the next request: `GET` where the hop rewrites it,
    /// else `method`.
    pub fn method<'m>(&self, method: &'m [u8]) -> &'m [u8] {
        if self.to_get {
            b"GET"
        } else {
            method
        }
    }
    /// Whether the next request carries the body again (`307`, `308`, and
    /// the other codes when the method is kept).
    pub const fn keeps_body(&self) -> bool {
        !self.to_get
    }
    /// Whether the next request goes to another origin than the first.
    pub const fn crosses_origin(&self) -> bool {
        self.cross_origin
    }
    /// Whether the caller's field `name` goes along with the next request:
    /// not a field describing a dropped body (`Content-Length`,
    /// `Content-Type`, `Content-Encoding`, `Transfer-Encoding`, `Expect`),
    /// and not, to another origin, `Authorization`, `Cookie`,
    /// `Proxy-Authorization` or the caller's `Host`.
    pub fn keeps_field(&self, name: &[u8]) -> bool {
        !((self.to_get && named(name, &CONTENT))
            || (self.cross_origin && named(name, &CREDENTIALS)))
    }
}

/// Why a redirect was not followed.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedirectError {
    /// More redirects than the policy's hop limit (RFC 9110 §15.4: a
    /// client detects cycles).
    TooMany,
    /// An `https` URL redirected to `http` (not allowed by the policy).
    Downgrade,
    /// A redirect that keeps the method and body (a `307` or `308`,
    /// RFC 9110 §15.4.8, §15.4.9) needs the body again, and it was a stream
    /// already read: it cannot be sent twice.
    BodyNotReplayable,
    /// The `Location` field is missing from a `3xx` that needs one, or is
    /// not a usable `http` or `https` URL (RFC 9110 §10.2.2).
    BadLocation,
}

impl RedirectError {
    /// The RFC section of the rule.
    pub const fn rfc(self) -> &'static str {
        match self {
            RedirectError::TooMany | RedirectError::Downgrade => "RFC 9110 §15.4",
            RedirectError::BodyNotReplayable => "RFC 9110 §15.4.8, §15.4.9",
            RedirectError::BadLocation => "RFC 9110 §10.2.2",
        }
    }
}

impl fmt::Display for RedirectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RedirectError::TooMany => "more redirects than the hop limit",
            RedirectError::Downgrade => "a redirect from https to http was refused",
            RedirectError::BodyNotReplayable => {
                "a 307/308 redirect needs the request body again, which was streamed"
            }
            RedirectError::BadLocation => "the redirect's Location is missing or unusable",
        })?;
        write!(f, " ({})", self.rfc())
    }
}

impl core::error::Error for RedirectError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_authority_is_host_colon_port_in_the_buffer_when_it_fits() {
        let mut buf = [0; 64];
        let all = [("a.example", 8080, "a.example:8080"), ("::1", 0, "[::1]:0")];
        for (host, port, want) in all.into_iter().chain([("1.2.3.4", 65535, "1.2.3.4:65535")]) {
            let v = Origin::new(false, host, port).authority(&mut buf);
            assert_eq!(*v, *want.as_bytes());
            assert!(matches!(v, Cow::Borrowed(_)));
        }
        let long = "h".repeat(64);
        let v = Origin::new(false, &long, 80).authority(&mut buf);
        assert_eq!(*v, *alloc::format!("{long}:80").as_bytes());
        assert!(matches!(v, Cow::Owned(_)));
        let fits = "h".repeat(64 - 3);
        let v = Origin::new(false, &fits, 80).authority(&mut buf);
        assert_eq!(*v, *alloc::format!("{fits}:80").as_bytes());
        assert!(matches!(v, Cow::Borrowed(_)));
    }
}

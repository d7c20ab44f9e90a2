//! Following redirects (RFC 9110 §15.4), off unless a [`Redirects`] policy
//! asks for it.

use core::fmt;
use std::io::Read;
use std::time::Instant;

use http_net_conn::FieldPair;

use crate::client::{Client, ClientResponse, RequestBody};
use crate::error::Error;
use crate::url::Url;

/// Which redirects a [`Client`] follows: none by default.
///
/// With [`Redirects::follow`], a `301`, `302`, `303`, `307` or `308` with a
/// `Location` is followed (RFC 9110 §15.4): `303` turns any method but
/// `HEAD` into `GET` without a body; `301` and `302` turn `POST` into
/// `GET` without a body (as user agents do, §15.4.2, §15.4.3); `307` and
/// `308` keep the method and the body, which must then be replayable
/// ([`RequestBody::Bytes`]). `Authorization`, `Cookie` and
/// `Proxy-Authorization` (and a caller's `Host`) are dropped once a hop
/// leaves the original origin (scheme, host, port); an `https` → `http`
/// hop is refused unless allowed.
///
/// ```
/// # mod http_net { pub mod io { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::io::{Client, Redirects};
/// let client = Client::builder().redirects(Redirects::follow(5)).build();
/// # let _ = client;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redirects {
    max_hops: usize,
    allow_downgrade: bool,
}

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
}

/// Why a redirect was not followed.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedirectError {
    /// More redirects than the policy's hop limit.
    TooMany,
    /// An `https` URL redirected to `http` (not allowed by the policy).
    Downgrade,
    /// A `307` or `308` asks for the body again, and it was read from a
    /// `Read` (RFC 9110 §15.4.8, §15.4.9): it cannot be sent twice.
    BodyNotReplayable,
    /// The `Location` field is missing from a `3xx` that needs one, or is
    /// not a usable `http` or `https` URL (RFC 9110 §10.2.2).
    BadLocation,
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
        })
    }
}

impl std::error::Error for RedirectError {}

/// Fields never carried to another origin.
const CREDENTIALS: [&[u8]; 3] = [b"authorization", b"cookie", b"proxy-authorization"];
/// Fields that describe a body, dropped when a hop drops the body.
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

/// Sends the request and follows redirects by `policy`.
pub(crate) fn follow(
    client: &Client,
    policy: &Redirects,
    method: &[u8],
    url: &str,
    fields: &[FieldPair<'_>],
    mut body: RequestBody<'_>,
    deadline: Option<Instant>,
) -> Result<ClientResponse, Error> {
    let first = Url::parse(url)?;
    let mut resp = client.send_once(method, &first, fields, &mut body, deadline)?;
    if policy.max_hops == 0 {
        return Ok(resp);
    }
    let origin = (
        first.is_https(),
        first.host().to_ascii_lowercase(),
        first.port(),
    );
    let mut method = method.to_vec();
    let mut url = url.to_owned();
    let mut own: Vec<FieldPair<'_>> = fields.to_vec();
    let mut hops = 0;
    loop {
        let status = resp.status();
        if !matches!(status, 301 | 302 | 303 | 307 | 308) {
            return Ok(resp);
        }
        let here = Url::parse(&url)?;
        let next = match resp
            .field(b"location")
            .and_then(|l| std::str::from_utf8(l).ok())
        {
            Some(loc) => here.resolve(loc.trim()),
            None => return Err(Error::Redirect(RedirectError::BadLocation)),
        };
        let there = Url::parse(&next).map_err(|_| Error::Redirect(RedirectError::BadLocation))?;
        if hops == policy.max_hops {
            return Err(Error::Redirect(RedirectError::TooMany));
        }
        if here.is_https() && !there.is_https() && !policy.allow_downgrade {
            return Err(Error::Redirect(RedirectError::Downgrade));
        }
        let to_get = match status {
            303 => method != b"HEAD",
            301 | 302 => method == b"POST",
            _ => false,
        };
        if to_get {
            method = b"GET".to_vec();
            body = RequestBody::Empty;
            own.retain(|(n, _)| !named(n, &CONTENT));
        } else if !body.replayable() {
            return Err(Error::Redirect(RedirectError::BodyNotReplayable));
        }
        let there_origin = (
            there.is_https(),
            there.host().to_ascii_lowercase(),
            there.port(),
        );
        if there_origin != origin {
            own.retain(|(n, _)| !named(n, &CREDENTIALS) && !n.eq_ignore_ascii_case(b"host"));
        }
        // Read a small redirect body so that its connection can be reused.
        let mut sink = [0u8; 4096];
        let mut left = 64 * 1024usize;
        while left > 0 {
            match resp.read(&mut sink) {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
        drop(resp);
        hops += 1;
        resp = client.send_once(&method, &there, &own, &mut body, deadline)?;
        url = next;
    }
}

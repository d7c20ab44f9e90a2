//! What a client sends for a URL, Sans-IO, for both client adapters: the
//! length rule of a request body, the fields that go with the caller's
//! (`Host`, `Expect: 100-continue`), and a redirect chase: the URL and
//! method of each hop, as the [`Redirects`] policy decides them.

use alloc::string::String;
use alloc::vec::Vec;

use http_net_head::Method;

use crate::redirect::{location, Hop, Origin, Redirect, RedirectError, Redirects};
use crate::response::BodyLength;
use crate::url::{Url, UrlError};
use crate::FieldPair;

/// How a client request's body is framed (RFC 9112 §6.2, §6.3): `len` is
/// the body's length when the caller knows it (`Some(0)` for no body),
/// `None` for a body of unknown length (chunked). An empty body is
/// `Content-Length: 0` for a method that defines content (anything but
/// `GET`, `HEAD`, `DELETE`, `OPTIONS`, `TRACE`, `CONNECT`; RFC 9110 §8.6)
/// and no field at all otherwise.
///
/// ```
/// use http_net_conn::{request_length, BodyLength};
/// assert_eq!(request_length(b"POST", Some(0)), BodyLength::Known(0));
/// assert_eq!(request_length(b"GET", Some(0)), BodyLength::Empty);
/// assert_eq!(request_length(b"PUT", Some(5)), BodyLength::Known(5));
/// assert_eq!(request_length(b"PUT", None), BodyLength::Streamed);
/// ```
pub fn request_length(method: &[u8], len: Option<u64>) -> BodyLength {
    match len {
        None => BodyLength::Streamed,
        Some(0) if !Method::from_bytes(method).defines_content() => BodyLength::Empty,
        Some(n) => BodyLength::Known(n),
    }
}

/// Whether a request with a body of `len` asks for `100 Continue` first
/// (RFC 9110 §10.1.1): a body longer than `threshold` bytes, or of unknown
/// length, when a threshold is set, and the caller did not set `Expect`
/// itself.
///
/// ```
/// use http_net_conn::{expects_continue, BodyLength};
/// assert!(expects_continue(Some(10), BodyLength::Known(11), &[]));
/// assert!(!expects_continue(Some(10), BodyLength::Known(10), &[]));
/// assert!(expects_continue(Some(10), BodyLength::Streamed, &[]));
/// assert!(!expects_continue(None, BodyLength::Streamed, &[]));
/// ```
pub fn expects_continue(threshold: Option<u64>, len: BodyLength, fields: &[FieldPair<'_>]) -> bool {
    let big = match len {
        BodyLength::Known(n) => threshold.is_some_and(|t| n > t),
        BodyLength::Streamed => threshold.is_some(),
        BodyLength::Empty => false,
    };
    big && !fields
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(b"expect"))
}

/// The fields of a request to `authority`: `Host` first unless the caller
/// gave one (RFC 9112 §3.2), the caller's `fields`, and
/// `Expect: 100-continue` when `expect`.
///
/// ```
/// let f = http_net_conn::request_fields(b"a:81", &[(b"X", b"1")], true);
/// assert_eq!(f, [(&b"Host"[..], &b"a:81"[..]), (b"X", b"1"), (b"Expect", b"100-continue")]);
/// ```
pub fn request_fields<'a>(
    authority: &'a [u8],
    fields: &[FieldPair<'a>],
    expect: bool,
) -> Vec<FieldPair<'a>> {
    let mut all: Vec<FieldPair<'a>> = alloc::vec![(b"", b""); fields.len() + 2];
    let n = request_fields_into(authority, fields, expect, &mut all).map_or(0, <[_]>::len);
    all.truncate(n);
    all
}

/// [`request_fields`] written into `out`, without allocating: the fields,
/// or `None` when `out` is shorter than `fields.len() + 2` (a client keeps
/// a small array on its stack for the common request with few fields of
/// the caller's, and takes `request_fields`'s `Vec` for the others).
///
/// ```
/// let mut out = [(&b""[..], &b""[..]); 4];
/// let f = http_net_conn::request_fields_into(b"a:81", &[(b"X", b"1")], false, &mut out);
/// assert_eq!(f, Some(&[(&b"Host"[..], &b"a:81"[..]), (b"X", b"1")][..]));
/// ```
pub fn request_fields_into<'a, 'o>(
    authority: &'a [u8],
    fields: &[FieldPair<'a>],
    expect: bool,
    out: &'o mut [FieldPair<'a>],
) -> Option<&'o [FieldPair<'a>]> {
    if out.len() < fields.len() + 2 {
        return None;
    }
    let mut n = 0;
    if !fields
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case(b"host"))
    {
        out[n] = (b"Host", authority);
        n += 1;
    }
    out[n..n + fields.len()].copy_from_slice(fields);
    n += fields.len();
    if expect {
        out[n] = (b"Expect", b"100-continue");
        n += 1;
    }
    out.get(..n)
}

/// One request's redirect chase: the URL and method of the request to send
/// now, and after each response whether it is followed and how
/// ([`Redirects::decide`] with the origins this chase keeps). The adapter
/// sends, reads, drains a followed redirect's body (at most
/// [`REDIRECT_BODY_DRAIN`](crate::driver::REDIRECT_BODY_DRAIN)), and applies the
/// [`Hop`] to its body and fields.
///
/// ```
/// use http_net_conn::{RedirectError, Redirects};
/// use http_net_conn::driver::{RedirectChase};
/// let mut chase = RedirectChase::new(Redirects::follow(1), b"POST", "http://a/form")?;
/// assert_eq!(chase.url()?.target(), "/form");
/// // A 303 to another origin: followed with GET, credentials left behind.
/// let hop = chase.next(303, Some(&b"http://b/done"[..]), true)?.unwrap();
/// assert_eq!((chase.method(), chase.url()?.host()), (&b"GET"[..], "b"));
/// assert!(!hop.keeps_body() && !hop.keeps_field(b"Authorization"));
/// // A 200 is the answer; a second redirect is past the hop limit.
/// assert_eq!(chase.next(200, None, true)?, None);
/// assert_eq!(chase.next(302, Some(&b"/x"[..]), true), Err(RedirectError::TooMany));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedirectChase {
    policy: Redirects,
    method: Vec<u8>,
    url: String,
    first_https: bool,
    first_host: String,
    first_port: u16,
    followed: usize,
}

impl RedirectChase {
    /// A chase that starts with `method url`; an unusable `url` is the
    /// [`UrlError`] naming the rule.
    pub fn new(policy: Redirects, method: &[u8], url: &str) -> Result<RedirectChase, UrlError> {
        let first = Url::parse(url)?;
        Ok(RedirectChase {
            policy,
            method: method.to_vec(),
            url: String::from(url),
            first_https: first.is_https(),
            first_host: String::from(first.host()),
            first_port: first.port(),
            followed: 0,
        })
    }
    /// The URL of the request to send now.
    pub fn url(&self) -> Result<Url<'_>, UrlError> {
        Url::parse(&self.url)
    }
    /// The method of the request to send now.
    pub fn method(&self) -> &[u8] {
        &self.method
    }
    /// The redirects followed so far.
    pub fn followed(&self) -> usize {
        self.followed
    }
    /// The decision after a response with `status` and `Location` value
    /// `location`, to a request whose body could be sent again or not
    /// (`replayable`): `None` when the response is the answer (not a
    /// redirect the policy follows); the [`Hop`] when it is followed, the
    /// chase then at the next URL and method; the [`RedirectError`] when
    /// it may not be (past the hop limit, a downgrade to `http`, a body that
    /// cannot be sent again, a `Location` that is missing or no `http` or
    /// `https` URL).
    pub fn next(
        &mut self,
        status: u16,
        location_value: Option<&[u8]>,
        replayable: bool,
    ) -> Result<Option<Hop>, RedirectError> {
        if !self.policy.follows(status) {
            return Ok(None);
        }
        let here = Url::parse(&self.url).map_err(|_| RedirectError::BadLocation)?;
        let next = here.resolve(location(location_value)?);
        let there = Url::parse(&next).map_err(|_| RedirectError::BadLocation)?;
        let hop = self.policy.decide(&Redirect {
            status,
            method: &self.method,
            followed: self.followed,
            first: Origin::new(self.first_https, &self.first_host, self.first_port),
            from: here.origin(),
            to: there.origin(),
            replayable,
        })?;
        self.method = hop.method(&self.method).to_vec();
        self.followed += 1;
        self.url = next;
        Ok(Some(hop))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chase_keeps_the_first_origin_for_credentials() {
        let mut c = RedirectChase::new(Redirects::follow(5), b"GET", "http://a/1").unwrap();
        // Away and back: on the first origin again, credentials go along.
        let away = c
            .next(302, Some(&b"http://b/2"[..]), true)
            .unwrap()
            .unwrap();
        assert!(!away.keeps_field(b"authorization"));
        let back = c
            .next(307, Some(&b"http://A:80/3"[..]), true)
            .unwrap()
            .unwrap();
        assert!(back.keeps_field(b"authorization"));
        assert_eq!(c.url().unwrap().target(), "/3");
        assert_eq!(c.followed(), 2);
    }

    #[test]
    fn a_chase_refuses_what_the_policy_refuses() {
        let mut c = RedirectChase::new(Redirects::follow(5), b"PUT", "https://a/").unwrap();
        assert_eq!(
            c.next(307, Some(&b"/again"[..]), false),
            Err(RedirectError::BodyNotReplayable)
        );
        assert_eq!(
            c.next(301, Some(&b"http://a/"[..]), true),
            Err(RedirectError::Downgrade)
        );
        assert_eq!(c.next(301, None, true), Err(RedirectError::BadLocation));
        assert_eq!(
            c.next(301, Some(&b"ftp://a/"[..]), true),
            Err(RedirectError::BadLocation)
        );
        // Off: a redirect is the answer.
        let mut off = RedirectChase::new(Redirects::none(), b"GET", "http://a/").unwrap();
        assert_eq!(off.next(302, Some(&b"/x"[..]), true), Ok(None));
        assert_eq!(
            RedirectChase::new(Redirects::none(), b"GET", "ftp://a/"),
            Err(UrlError::UnsupportedScheme)
        );
    }
}

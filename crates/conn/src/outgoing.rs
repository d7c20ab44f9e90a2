//! What a client sends for a URL, Sans-IO, for both client adapters: the
//! length rule of a request body, and the fields that go with the caller's
//! (`Host`, `Expect: 100-continue`). The redirect chase is the request
//! plan's (`client/plan.rs`).

use alloc::borrow::Cow;
use alloc::vec::Vec;

use http_net_head::Method;

use crate::response::BodyLength;
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

/// The fields [`head_fields`] writes on the stack: the `Host` field, the
/// caller's and `Expect`; more take a `Vec`.
pub const INLINE_FIELDS: usize = 8;

/// A request's fields ([`request_fields`]: `Host` from `authority`, the
/// caller's `fields`, `Expect` when `expect`), as both clients write a
/// head from. Fast path: on the stack, in `inline`
/// ([`request_fields_into`]); general twin: [`request_fields`]' `Vec`.
///
/// ```
/// use http_net_conn::driver::{head_fields, INLINE_FIELDS};
/// let mut inline = [(&b""[..], &b""[..]); INLINE_FIELDS];
/// let f = head_fields(b"a", &[(b"X", b"1")], false, &mut inline);
/// assert_eq!(*f, [(&b"Host"[..], &b"a"[..]), (b"X", b"1")]);
/// ```
pub fn head_fields<'a, 'o>(
    authority: &'a [u8],
    fields: &[FieldPair<'a>],
    expect: bool,
    inline: &'o mut [FieldPair<'a>; INLINE_FIELDS],
) -> Cow<'o, [FieldPair<'a>]> {
    match request_fields_into(authority, fields, expect, inline) {
        Some(all) => Cow::Borrowed(all),
        None => Cow::Owned(request_fields(authority, fields, expect)),
    }
}

//! Pure functions of a request target (RFC 9112 §3.2, RFC 3986 §3.3–§3.4):
//! its path, its query, the query's `key=value` pairs, and percent-decoding
//! (RFC 3986 §2.1). Nothing here allocates unless decoding changes bytes.

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt;

/// The path part of a request target: before `?`, and for an absolute-form
/// target (`http://host/p?q`) after the authority (`/` when empty). An
/// authority-form (`host:port`) or asterisk-form (`*`) target is its own
/// path. The bytes are as received: still percent-encoded.
///
/// ```
/// use http_net_conn::target_path;
/// assert_eq!(target_path(b"/a/b?c=d"), b"/a/b");
/// assert_eq!(target_path(b"http://h:80/x?z"), b"/x");
/// assert_eq!(target_path(b"http://h"), b"/");
/// ```
pub fn target_path(target: &[u8]) -> &[u8] {
    let t = target.split(|&b| b == b'?').next().unwrap_or(target);
    match t.windows(3).position(|w| w == b"://") {
        Some(i) if !t.starts_with(b"/") => {
            let rest = &t[i + 3..];
            match rest.iter().position(|&b| b == b'/') {
                Some(j) => &rest[j..],
                None => b"/",
            }
        }
        _ => t,
    }
}

/// The query part of a request target: the bytes after the first `?`
/// (RFC 3986 §3.4), `None` when there is no `?`. As received: still
/// percent-encoded. (A request target has no fragment, RFC 9112 §3.2.)
///
/// ```
/// use http_net_conn::target_query;
/// assert_eq!(target_query(b"/search?q=a+b&page=2"), Some(&b"q=a+b&page=2"[..]));
/// assert_eq!(target_query(b"/search?"), Some(&b""[..]));
/// assert_eq!(target_query(b"/search"), None);
/// ```
pub fn target_query(target: &[u8]) -> Option<&[u8]> {
    let at = target.iter().position(|&b| b == b'?')?;
    Some(&target[at + 1..])
}

/// The `key=value` pairs of a query, split at `&` (the
/// `application/x-www-form-urlencoded` convention, which RFC 3986 §3.4
/// leaves to the application): a pair without `=` has an empty value, and
/// empty pieces (`a=1&&b=2`) are skipped. The bytes are as received; decode
/// them with [`form_decode`] (or [`percent_decode`] when `+` is not a space).
///
/// ```
/// use http_net_conn::{form_decode, query_pairs};
/// let pairs: Vec<_> = query_pairs(b"q=a+b%21&flag&&page=2").collect();
/// assert_eq!(pairs, [(&b"q"[..], &b"a+b%21"[..]), (b"flag", b""), (b"page", b"2")]);
/// assert_eq!(form_decode(pairs[0].1).unwrap(), &b"a b!"[..]);
/// ```
pub fn query_pairs(query: &[u8]) -> QueryPairs<'_> {
    QueryPairs { rest: query }
}

/// The iterator of [`query_pairs`]: `(key, value)` bytes, as received.
#[derive(Clone, Debug)]
pub struct QueryPairs<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for QueryPairs<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.rest.is_empty() {
                return None;
            }
            let end = self
                .rest
                .iter()
                .position(|&b| b == b'&')
                .unwrap_or(self.rest.len());
            let piece = &self.rest[..end];
            self.rest = self.rest.get(end + 1..).unwrap_or(&[]);
            if piece.is_empty() {
                continue;
            }
            return Some(match piece.iter().position(|&b| b == b'=') {
                Some(eq) => (&piece[..eq], &piece[eq + 1..]),
                None => (piece, &[][..]),
            });
        }
    }
}

/// A malformed percent-encoding (RFC 3986 §2.1: `pct-encoded = "%" HEXDIG
/// HEXDIG`). `at` is the offset of the `%` in the input.
///
/// A target the server accepted never has one (the head parser refuses a
/// bad escape with `InvalidTargetByte`); bytes from elsewhere (a body, a
/// target built by hand) may.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PercentError {
    /// A `%` with fewer than two bytes after it.
    Truncated {
        /// The offset of the `%`.
        at: usize,
    },
    /// A `%` not followed by two hexadecimal digits.
    NotHex {
        /// The offset of the `%`.
        at: usize,
    },
}

impl PercentError {
    /// The section of the RFC that states the rule.
    pub const fn rfc(self) -> &'static str {
        "RFC 3986 §2.1"
    }
}

impl fmt::Display for PercentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PercentError::Truncated { at } => write!(
                f,
                "a percent-encoding cut short at byte {at} ({})",
                self.rfc()
            ),
            PercentError::NotHex { at } => write!(
                f,
                "a percent-encoding without two hex digits at byte {at} ({})",
                self.rfc()
            ),
        }
    }
}

impl core::error::Error for PercentError {}

/// Decodes `%XX` escapes (RFC 3986 §2.1): borrowed when there is none,
/// owned otherwise. `+` stays `+` (use [`form_decode`] for query values).
/// The result is bytes: an escape may make any byte, invalid UTF-8 and `/`
/// (`%2F`) included, so decode a path segment by segment after splitting
/// it at `/`.
///
/// ```
/// use http_net_conn::{percent_decode, PercentError};
/// assert_eq!(percent_decode(b"/a%20b").unwrap(), &b"/a b"[..]);
/// assert!(matches!(percent_decode(b"plain").unwrap(), std::borrow::Cow::Borrowed(_)));
/// assert_eq!(percent_decode(b"%4"), Err(PercentError::Truncated { at: 0 }));
/// assert_eq!(percent_decode(b"a%zz"), Err(PercentError::NotHex { at: 1 }));
/// ```
pub fn percent_decode(bytes: &[u8]) -> Result<Cow<'_, [u8]>, PercentError> {
    decode(bytes, false)
}

/// [`percent_decode`] with `+` read as a space: the
/// `application/x-www-form-urlencoded` rule for query keys and values (an
/// encoded plus is `%2B`).
///
/// ```
/// use http_net_conn::form_decode;
/// assert_eq!(form_decode(b"a+b%2Bc").unwrap(), &b"a b+c"[..]);
/// ```
pub fn form_decode(bytes: &[u8]) -> Result<Cow<'_, [u8]>, PercentError> {
    decode(bytes, true)
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

fn decode(bytes: &[u8], plus: bool) -> Result<Cow<'_, [u8]>, PercentError> {
    let special = |b: u8| b == b'%' || (plus && b == b'+');
    let Some(first) = bytes.iter().position(|&b| special(b)) else {
        return Ok(Cow::Borrowed(bytes));
    };
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..first]);
    let mut i = first;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'%' => {
                let (Some(&h), Some(&l)) = (bytes.get(i + 1), bytes.get(i + 2)) else {
                    return Err(PercentError::Truncated { at: i });
                };
                let (Some(h), Some(l)) = (hex(h), hex(l)) else {
                    return Err(PercentError::NotHex { at: i });
                };
                out.push(h << 4 | l);
                i += 3;
            }
            b'+' if plus => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn paths() {
        for (target, path) in [
            (&b"/a/b?c=d"[..], &b"/a/b"[..]),
            (b"/", b"/"),
            (b"*", b"*"),
            (b"http://h:80/x/y?z", b"/x/y"),
            (b"http://h", b"/"),
            (b"http://h?q", b"/"),
            (b"/p?http://x/y", b"/p"),
            (b"example.com:443", b"example.com:443"),
            (b"", b""),
        ] {
            assert_eq!(
                target_path(target),
                path,
                "{:?}",
                core::str::from_utf8(target)
            );
        }
    }

    #[test]
    fn queries() {
        assert_eq!(target_query(b"http://h/p?a=1?b"), Some(&b"a=1?b"[..]));
        assert_eq!(target_query(b"*"), None);
        let pairs: Vec<_> = query_pairs(b"&a=1=2&=v&").collect();
        assert_eq!(pairs, [(&b"a"[..], &b"1=2"[..]), (b"", b"v")]);
        assert_eq!(query_pairs(b"").count(), 0);
    }

    #[test]
    fn decoding() {
        assert_eq!(percent_decode(b"%41%62%2f%2F").unwrap(), &b"Ab//"[..]);
        assert_eq!(percent_decode(b"%FF%00").unwrap(), &[0xFF, 0][..]);
        assert_eq!(percent_decode(b"a+b").unwrap(), &b"a+b"[..]);
        assert_eq!(form_decode(b"a+b").unwrap(), &b"a b"[..]);
        assert!(matches!(form_decode(b"ab").unwrap(), Cow::Borrowed(_)));
        assert_eq!(
            percent_decode(b"ab%"),
            Err(PercentError::Truncated { at: 2 })
        );
        assert_eq!(
            percent_decode(b"%0"),
            Err(PercentError::Truncated { at: 0 })
        );
        assert_eq!(percent_decode(b"%g0"), Err(PercentError::NotHex { at: 0 }));
        assert_eq!(form_decode(b"+%0g"), Err(PercentError::NotHex { at: 1 }));
        assert_eq!(
            PercentError::NotHex { at: 3 }.to_string(),
            "a percent-encoding without two hex digits at byte 3 (RFC 3986 §2.1)"
        );
    }
}

//! The common field-value rules the framing decisions read, exported so that
//! a writer checks what it sends with the same code (RFC 9110 §5.6):
//! decimal digits, optional whitespace, comma-separated lists.
//!
//! ```
//! use http_net_framing::syntax::{decimal, list_has, trim_ows};
//! assert_eq!(decimal(b"0042"), Some(42));
//! assert_eq!(decimal(b"+5"), None);
//! assert_eq!(trim_ows(b" \tchunked\t"), b"chunked");
//! assert!(list_has(b"keep-alive, Close", b"close"));
//! ```

/// `1*DIGIT` (RFC 5234 B.1) as a `u64`, with checked arithmetic: leading
/// zeros allowed; empty, any other byte (a sign, whitespace, a non-ASCII
/// digit) or a value above `u64::MAX` is `None`. Never through `str::parse`,
/// which accepts a leading `+`. This is the `Content-Length` grammar
/// (RFC 9110 §8.6).
///
/// ```
/// use http_net_framing::syntax::decimal;
/// assert_eq!(decimal(b"18446744073709551615"), Some(u64::MAX));
/// assert_eq!(decimal(b"18446744073709551616"), None);
/// assert_eq!(decimal(b""), None);
/// ```
pub fn decimal(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &b in bytes {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(d))?;
    }
    Some(n)
}

/// Strips `OWS = *( SP / HTAB )` (RFC 9110 §5.6.3) from both ends; nothing
/// else counts as whitespace (not VT, FF or `\xa0`).
///
/// ```
/// use http_net_framing::syntax::trim_ows;
/// assert_eq!(trim_ows(b" \t5\t "), b"5");
/// assert_eq!(trim_ows(b"\x0b5"), b"\x0b5");
/// ```
pub fn trim_ows(mut bytes: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = bytes {
        bytes = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = bytes {
        bytes = rest;
    }
    bytes
}

/// The members of a comma-separated list value, `#element` (RFC 9110
/// §5.6.1), each with the OWS around it trimmed. Empty members are given
/// too: a caller that ignores them (as RFC 9110 §5.6.1 asks of a
/// recipient) skips them.
///
/// ```
/// use http_net_framing::syntax::list_members;
/// let m: Vec<&[u8]> = list_members(b"gzip , chunked,,").collect();
/// assert_eq!(m, [&b"gzip"[..], b"chunked", b"", b""]);
/// ```
pub fn list_members(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    value.split(|&b| b == b',').map(trim_ows)
}

/// Whether a list value has a member equal to `token`, compared ASCII
/// case-insensitively and whole (`closed` is not `close`).
///
/// ```
/// use http_net_framing::syntax::list_has;
/// assert!(list_has(b"Upgrade,\tclose", b"close"));
/// assert!(!list_has(b"closed", b"close"));
/// ```
pub fn list_has(value: &[u8], token: &[u8]) -> bool {
    list_members(value).any(|m| m.eq_ignore_ascii_case(token))
}

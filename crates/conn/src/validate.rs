//! Checks on what the caller asks the connection to send: field names, field
//! values, reason phrases, methods, request targets and `Host` values. The
//! connection refuses to serialise anything a strict parser would reject, so
//! no message it writes can be split (SPEC §3, security cases C113–C117).

use http_net_scan::class::REG_NAME;
use http_net_scan::{field_value_run, target_run, token_run};

/// A non-empty token (field names, methods; RFC 9110 §5.1, §9.1).
pub(crate) fn is_token(bytes: &[u8]) -> bool {
    !bytes.is_empty() && token_run(bytes) == bytes.len()
}

/// A field value the connection may send: no CTL (HTAB allowed), no DEL, and
/// no leading or trailing SP / HTAB, which a receiver would strip (RFC 9110
/// §5.5). Empty is allowed. Checked eight bytes at a time.
pub(crate) fn is_field_value(bytes: &[u8]) -> bool {
    if let (Some(first), Some(last)) = (bytes.first(), bytes.last()) {
        if matches!(first, b' ' | b'\t') || matches!(last, b' ' | b'\t') {
            return false;
        }
    }
    field_value_run(bytes) == bytes.len()
}

/// `reason-phrase = 1*( HTAB / SP / VCHAR / obs-text )` (RFC 9112 §4); empty
/// is allowed too (the status line then ends in SP CR LF).
pub(crate) fn is_reason(bytes: &[u8]) -> bool {
    field_value_run(bytes) == bytes.len()
}

/// Every byte is a target byte (`scan::class::TARGET`) and every `%` starts
/// `%HH`.
fn target_bytes_ok(mut bytes: &[u8]) -> bool {
    loop {
        bytes = &bytes[target_run(bytes)..];
        match bytes {
            [] => return true,
            [b'%', h, l, rest @ ..] if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => {
                bytes = rest
            }
            _ => return false,
        }
    }
}

/// A request target that fits the method (RFC 9112 §3.2): authority-form
/// only and always for CONNECT, `*` only for OPTIONS, otherwise origin-form
/// (`/…`) or absolute-form (`scheme://…`).
pub(crate) fn is_target(method: &[u8], target: &[u8]) -> bool {
    if !target_bytes_ok(target) {
        return false;
    }
    if method == b"CONNECT" {
        // authority = host ":" port, no path, no userinfo.
        return !target.is_empty()
            && !target.contains(&b'/')
            && !target.contains(&b'?')
            && !target.contains(&b'@');
    }
    match target {
        [] => false,
        [b'*'] => method == b"OPTIONS",
        [b'/', ..] => true,
        _ => is_absolute(target),
    }
}

/// `scheme ":" "//" authority …`, scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
fn is_absolute(target: &[u8]) -> bool {
    let Some(colon) = target.iter().position(|&b| b == b':') else {
        return false;
    };
    let scheme = &target[..colon];
    let scheme_ok = scheme.first().is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    scheme_ok && target[colon + 1..].starts_with(b"//") && target.len() > colon + 3
}

/// A `Host` value: non-empty `uri-host [":" port]` bytes (RFC 9110 §7.2):
/// reg-name bytes, pct-encoded, `:` and the brackets of an IP-literal.
pub(crate) fn is_host(bytes: &[u8]) -> bool {
    !bytes.is_empty()
        && bytes
            .iter()
            .all(|&b| REG_NAME[b as usize] || matches!(b, b':' | b'[' | b']' | b'%'))
}

/// `1*DIGIT` within a `u64` (RFC 9110 §8.6), never through `FromStr`.
pub(crate) fn content_length(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &b in bytes {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(n)
}

/// Whether a comma-separated list value holds `token` (ASCII
/// case-insensitive, OWS around members; RFC 9110 §5.6.1).
pub(crate) fn list_has(value: &[u8], token: &[u8]) -> bool {
    value
        .split(|&b| b == b',')
        .any(|m| trim_ows(m).eq_ignore_ascii_case(token))
}

/// Strips SP and HTAB from both ends.
pub(crate) fn trim_ows(mut bytes: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = bytes {
        bytes = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = bytes {
        bytes = rest;
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert!(is_token(b"Content-Type"));
        assert!(is_token(b"x!#$%&'*+-.^_`|~9"));
        for bad in [&b""[..], b"a b", b"a:b", b"a\r", b"\x80", b"a\"", b"(a)"] {
            assert!(!is_token(bad), "{bad:?}");
        }
    }

    #[test]
    fn values_refuse_ctl_and_surrounding_whitespace() {
        assert!(is_field_value(b""));
        assert!(is_field_value(b"a\tb c\x80\xff"));
        for bad in [
            &b"x\r\nSet-Cookie: evil=1"[..],
            b"a\nb",
            b"a\0b",
            b"a\x7fb",
            b"a\x0bb",
            b" a",
            b"a\t",
        ] {
            assert!(!is_field_value(bad), "{bad:?}");
        }
        assert!(is_reason(b"Not Found"));
        assert!(is_reason(b""));
        assert!(!is_reason(b"OK\r\nSet-Cookie: x=y"));
    }

    #[test]
    fn targets_fit_the_method() {
        assert!(is_target(b"GET", b"/a/b?c=d%20e"));
        assert!(is_target(b"GET", b"http://a.example/x"));
        assert!(is_target(b"OPTIONS", b"*"));
        assert!(is_target(b"CONNECT", b"a.example:443"));
        for (m, t) in [
            (&b"GET"[..], &b"/a HTTP/1.1\r\nX-Injected: 1\r\nY: "[..]),
            (b"GET", b""),
            (b"GET", b"*"),
            (b"GET", b"a.example:443"),
            (b"GET", b"/a#frag"),
            (b"GET", b"/%zz"),
            (b"GET", b"/%2"),
            (b"GET", b"/\xc3\xa9"),
            (b"CONNECT", b"/"),
            (b"GET", b"1http://a/"),
            (b"GET", b"http:/a"),
        ] {
            assert!(!is_target(m, t), "{t:?}");
        }
    }

    #[test]
    fn hosts_and_lengths() {
        assert!(is_host(b"a.example:8080"));
        assert!(is_host(b"[::1]:80"));
        assert!(!is_host(b""));
        assert!(!is_host(b"a b"));
        assert!(!is_host(b"a/b"));
        assert_eq!(content_length(b"010"), Some(10));
        assert_eq!(content_length(b"18446744073709551615"), Some(u64::MAX));
        for bad in [
            &b""[..],
            b"+5",
            b"-1",
            b"1 2",
            b"18446744073709551616",
            b"0x1",
        ] {
            assert_eq!(content_length(bad), None, "{bad:?}");
        }
        assert!(list_has(b"keep-alive, Close", b"close"));
        assert!(!list_has(b"closed", b"close"));
    }
}

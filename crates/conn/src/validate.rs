//! Checks on what the caller asks the connection to send: field names, field
//! values, reason phrases, methods, request targets and `Host` values. Each
//! is a call into the rules the parsers read with (`http-net-head`'s
//! whole-value checks, `http-net-framing`'s [`syntax`](http_net_framing::syntax)),
//! so the connection refuses to serialise anything its own parsers would
//! reject or read back changed, and no message it writes can be split
//! (RFC 9112 §2.2, §5; RFC 9110 §5.5).

use http_net_head::{
    check_target, valid_field_value, valid_host, valid_reason, valid_token, Method,
};

pub(crate) use http_net_framing::syntax::{list_has, trim_ows};

/// A non-empty token (field names, methods; RFC 9110 §5.1, §9.1).
pub(crate) fn is_token(bytes: &[u8]) -> bool {
    valid_token(bytes)
}

/// A field value the connection may send: no CTL (HTAB allowed), no DEL, and
/// no leading or trailing SP / HTAB, which a receiver would strip (RFC 9110
/// §5.5). Empty is allowed.
pub(crate) fn is_field_value(bytes: &[u8]) -> bool {
    valid_field_value(bytes)
}

/// `reason-phrase = 1*( HTAB / SP / VCHAR / obs-text )` (RFC 9112 §4); empty
/// is allowed too (the status line then ends in SP CR LF).
pub(crate) fn is_reason(bytes: &[u8]) -> bool {
    valid_reason(bytes)
}

/// A request target that fits the method (RFC 9112 §3.2) as the request
/// parser reads it: authority-form only and always for CONNECT, `*` only for
/// OPTIONS, otherwise origin-form (`/…`) or absolute-form (`scheme://…`,
/// without userinfo). `method` is read from a token.
pub(crate) fn is_target(method: Method, target: &[u8]) -> bool {
    check_target(method, target).is_ok()
}

/// A `Host` value the request parser accepts: `uri-host [":" port]`
/// (RFC 9110 §7.2).
pub(crate) fn is_host(bytes: &[u8]) -> bool {
    valid_host(bytes)
}

/// `1*DIGIT` within a `u64` (RFC 9110 §8.6), never through `FromStr`.
pub(crate) fn content_length(bytes: &[u8]) -> Option<u64> {
    http_net_framing::syntax::decimal(bytes)
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
        assert!(is_target(Method::Get, b"/a/b?c=d%20e"));
        assert!(is_target(Method::Get, b"http://a.example/x"));
        assert!(is_target(Method::Options, b"*"));
        assert!(is_target(Method::Connect, b"a.example:443"));
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
            assert!(!is_target(Method::from_bytes(m), t), "{t:?}");
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

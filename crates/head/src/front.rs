//! The checks of the front-line profile ([`HeadLimits::with_front_line`](crate::HeadLimits::with_front_line)):
//! whole-value rules the parsers apply on top of the grammar when the
//! profile is on. Each returns whether the value passes.

use crate::grammar::valid_token;

/// The methods of the IANA HTTP Method Registry (RFC 9110 §16.1; the
/// registry as of RFC 9110 and RFC 9113, `*` excluded: it is reserved, not
/// a method).
const REGISTERED: &[&[u8]] = &[
    b"ACL",
    b"BASELINE-CONTROL",
    b"BIND",
    b"CHECKIN",
    b"CHECKOUT",
    b"CONNECT",
    b"COPY",
    b"DELETE",
    b"GET",
    b"HEAD",
    b"LABEL",
    b"LINK",
    b"LOCK",
    b"MERGE",
    b"MKACTIVITY",
    b"MKCALENDAR",
    b"MKCOL",
    b"MKREDIRECTREF",
    b"MKWORKSPACE",
    b"MOVE",
    b"OPTIONS",
    b"ORDERPATCH",
    b"PATCH",
    b"POST",
    b"PRI",
    b"PROPFIND",
    b"PROPPATCH",
    b"PUT",
    b"REBIND",
    b"REPORT",
    b"SEARCH",
    b"TRACE",
    b"UNBIND",
    b"UNCHECKOUT",
    b"UNLINK",
    b"UNLOCK",
    b"UPDATE",
    b"UPDATEREDIRECTREF",
    b"VERSION-CONTROL",
];

/// Whether `method` is in the IANA HTTP Method Registry (case-sensitive,
/// RFC 9110 §9.1).
pub(crate) fn registered_method(method: &[u8]) -> bool {
    REGISTERED.contains(&method)
}

/// Whether the two hex digits of a `%` escape encode NUL, CR or LF.
pub(crate) const fn encoded_control(h: u8, l: u8) -> bool {
    h == b'0' && matches!(l, b'0' | b'a' | b'A' | b'd' | b'D')
}

/// Whether a target holds `%00`, `%0A` or `%0D` (any case). The target's
/// escapes are already known to be `%` HEXDIG HEXDIG. Only the one-pass
/// request line uses it; its general twin is the target stage's test of each
/// escape with [`encoded_control`].
#[cfg(not(http_net_general_path))]
pub(crate) fn has_encoded_control(target: &[u8]) -> bool {
    target
        .windows(3)
        .any(|w| w[0] == b'%' && encoded_control(w[1], w[2]))
}

/// Whether the bytes after a `Content-Length` colon, up to the CR, are
/// `[SP] 1*DIGIT` with no leading zero (but `0` itself).
pub(crate) fn canonical_content_length(raw: &[u8]) -> bool {
    let digits = raw.strip_prefix(b" ").unwrap_or(raw);
    !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
        && (digits.len() == 1 || digits[0] != b'0')
}

/// Whether an `Upgrade` value is a non-empty list of
/// `protocol = protocol-name ["/" protocol-version]` (RFC 9110 §7.8), each
/// part a token, members separated by commas with OWS around them; empty
/// members (RFC 9110 §5.6.1) are not allowed here.
pub(crate) fn valid_upgrade(value: &[u8]) -> bool {
    value.split(|&b| b == b',').all(|member| {
        let m = trim(member);
        let (name, version) = match m.iter().position(|&b| b == b'/') {
            Some(i) => (&m[..i], Some(&m[i + 1..])),
            None => (m, None),
        };
        valid_token(name) && version.is_none_or(valid_token)
    })
}

/// Whether an absolute-form target's authority equals the `Host` value,
/// ASCII case aside (reg-name and scheme are case-insensitive, RFC 3986
/// §3.2.2); ports are compared as written.
pub(crate) fn same_authority(target: &[u8], host: &[u8]) -> bool {
    let Some(i) = target.windows(3).position(|w| w == b"://") else {
        return false;
    };
    let rest = &target[i + 3..];
    let end = rest
        .iter()
        .position(|&b| b == b'/' || b == b'?')
        .unwrap_or(rest.len());
    rest[..end].eq_ignore_ascii_case(host)
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', r @ ..] = s {
        s = r;
    }
    while let [r @ .., b' ' | b'\t'] = s {
        s = r;
    }
    s
}

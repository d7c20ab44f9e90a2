//! The `uri-host [":" port]` grammar of the `Host` field and of the
//! authority in absolute-form and authority-form targets.
//!
//! ```text
//! Host      = uri-host [ ":" port ]                  ; RFC 9110 §7.2
//! uri-host  = IP-literal / IPv4address / reg-name    ; RFC 3986 §3.2.2
//! IP-literal = "[" ( IPv6address / IPvFuture ) "]"
//! IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
//! reg-name  = *( unreserved / pct-encoded / sub-delims )
//! port      = *DIGIT                                  ; RFC 3986 §3.2.3
//! ```
//! Stricter than the ABNF: the host may not be empty (RFC 9110 §4.2.1: an
//! `http` URI with an empty host is invalid, and every target form http-net
//! accepts names or borrows an `http`-style authority), and a port, when its
//! colon is present, is one to five digits with a value up to 65535.

use http_net_scan::class::{DIGIT, HEXDIG, REG_NAME, SUB_DELIMS, UNRESERVED};
use http_net_scan::scalar_run;

/// Whether `v` is `uri-host [":" port]` (`port_required`: `uri-host ":" port`,
/// the authority-form of CONNECT, RFC 9112 §3.2.3).
pub(crate) fn valid_host_port(v: &[u8], port_required: bool) -> bool {
    if let Some(inner) = v.strip_prefix(b"[") {
        let Some(close) = inner.iter().position(|&b| b == b']') else {
            return false;
        };
        let (literal, after) = inner.split_at(close);
        // `after` starts with the `]`.
        return ip_literal(literal) && port_after(after.get(1..).unwrap_or(&[]), port_required);
    }
    // reg-name (IPv4 addresses are reg-names too), `%` escapes included, in
    // one pass.
    let mut i = 0;
    loop {
        i += scalar_run(v.get(i..).unwrap_or(&[]), &REG_NAME);
        match v.get(i) {
            None => return i > 0 && !port_required,
            Some(b':') => return i > 0 && valid_port(v.get(i + 1..).unwrap_or(&[])),
            Some(b'%') => {
                let ok = matches!(
                    (v.get(i + 1), v.get(i + 2)),
                    (Some(&h), Some(&l)) if HEXDIG[h as usize] && HEXDIG[l as usize]
                );
                if !ok {
                    return false;
                }
                i += 3;
            }
            Some(_) => return false,
        }
    }
}

/// What may follow an IP-literal: nothing, or `:` and a port.
fn port_after(rest: &[u8], port_required: bool) -> bool {
    match rest.split_first() {
        None => !port_required,
        Some((b':', digits)) => valid_port(digits),
        Some(_) => false,
    }
}

/// One to five digits, at most 65535.
fn valid_port(d: &[u8]) -> bool {
    (1..=5).contains(&d.len())
        && d.iter().all(|&b| DIGIT[b as usize])
        && d.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0')) <= 65535
}

/// The inside of `[...]`: an IPv6 address or an IPvFuture.
fn ip_literal(s: &[u8]) -> bool {
    match s.split_first() {
        Some((b'v' | b'V', rest)) => {
            let Some(dot) = rest.iter().position(|&b| b == b'.') else {
                return false;
            };
            let (ver, tail) = rest.split_at(dot);
            let tail = tail.get(1..).unwrap_or(&[]);
            !ver.is_empty()
                && ver.iter().all(|&b| HEXDIG[b as usize])
                && !tail.is_empty()
                && tail
                    .iter()
                    .all(|&b| UNRESERVED[b as usize] || SUB_DELIMS[b as usize] || b == b':')
        }
        _ => ipv6(s),
    }
}

/// `IPv6address` (RFC 3986 §3.2.2): eight groups of one to four hex digits,
/// at most one `::` standing for one or more zero groups, and an IPv4
/// address allowed as the last two groups.
fn ipv6(s: &[u8]) -> bool {
    let split = s.windows(2).position(|w| w == b"::");
    match split {
        Some(at) => {
            let (head, tail) = (s.get(..at).unwrap_or(&[]), s.get(at + 2..).unwrap_or(&[]));
            if tail.windows(2).any(|w| w == b"::") {
                return false;
            }
            match (groups(head, false), groups(tail, true)) {
                (Some(h), Some(t)) => h + t <= 7,
                _ => false,
            }
        }
        None => groups(s, true) == Some(8),
    }
}

/// The number of 16-bit groups in a `:`-separated list (an IPv4 address
/// last counts two when `v4_last`), or `None` if malformed.
fn groups(s: &[u8], v4_last: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    let mut n = 0;
    let mut parts = s.split(|&b| b == b':').peekable();
    while let Some(g) = parts.next() {
        let last = parts.peek().is_none();
        if last && v4_last && g.contains(&b'.') {
            if !ipv4(g) {
                return None;
            }
            n += 2;
        } else if (1..=4).contains(&g.len()) && g.iter().all(|&b| HEXDIG[b as usize]) {
            n += 1;
        } else {
            return None;
        }
    }
    Some(n)
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`,
/// `dec-octet` without leading zeros (RFC 3986 §3.2.2).
fn ipv4(s: &[u8]) -> bool {
    let mut count = 0;
    for o in s.split(|&b| b == b'.') {
        count += 1;
        let ok = (1..=3).contains(&o.len())
            && o.iter().all(|&b| DIGIT[b as usize])
            && !(o.len() > 1 && o.first() == Some(&b'0'))
            && o.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0')) <= 255;
        if !ok {
            return false;
        }
    }
    count == 4
}

#[cfg(test)]
mod tests {
    use super::valid_host_port as v;

    #[test]
    fn hosts() {
        for ok in [
            &b"example.com"[..],
            b"example.com:8080",
            b"a",
            b"127.0.0.1:80",
            b"[::1]",
            b"[::1]:443",
            b"[2001:db8::8:800:200c:417a]",
            b"[1:2:3:4:5:6:7:8]",
            b"[::ffff:192.0.2.1]",
            b"[v1.fe80::a+en1]",
            b"xn--bcher-kva.example",
            b"a%2Db",
            b"a!$&'()*+,;=b",
            b"h:65535",
        ] {
            assert!(v(ok, false), "{ok:?}");
        }
        for bad in [
            &b""[..],
            b":80",
            b"a:",
            b"a:b",
            b"a:65536",
            b"a:123456",
            b"a b",
            b"a/b",
            b"a@b",
            b"user@a",
            b"[::1",
            b"[::1]x",
            b"[1:2:3:4:5:6:7]",
            b"[1:2:3:4:5:6:7:8:9]",
            b"[1::2::3]",
            b"[12345::]",
            b"[::ffff:192.0.2.256]",
            b"[::ffff:01.0.2.1]",
            b"[v.x]",
            b"[]",
            b"a%zz",
            b"a%2",
            b"a\xff",
        ] {
            assert!(!v(bad, false), "{bad:?}");
        }
        assert!(!v(b"example.com", true));
        assert!(v(b"example.com:443", true));
    }
}

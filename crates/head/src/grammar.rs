//! The parsers' rules on whole values, for a writer: a value these functions
//! accept is read back by the parsers of this crate byte for byte, and a
//! value they refuse is rejected or changed by them. `http-net-conn` checks
//! every method, target, field and reason it sends with them, so what it
//! writes and what it reads are one grammar.
//!
//! The parsers read the same rules byte by byte, resumably (and on their fast
//! paths several bytes at a time); these functions are their whole-value
//! form, built on the same byte classes and the same `Host` and target-form
//! checks.

use http_net_scan::{field_value_run, target_run, token_run};

use crate::host::valid_host_port;
use crate::target::escaped_target_run;
use crate::{target, Error, Method, TargetForm};

/// Whether `bytes` is a `token` (RFC 9110 §5.6.2): a method (RFC 9110 §9.1)
/// or a field name (RFC 9110 §5.1). Empty is not.
///
/// ```
/// use http_net_head::valid_token;
/// assert!(valid_token(b"Content-Type") && valid_token(b"M-SEARCH"));
/// assert!(!valid_token(b"") && !valid_token(b"a b") && !valid_token(b"a:"));
/// ```
pub fn valid_token(bytes: &[u8]) -> bool {
    !bytes.is_empty() && token_run(bytes) == bytes.len()
}

/// Whether `bytes` is a field value the parsers read back unchanged:
/// ```text
/// field-value   = *field-content                           ; RFC 9110 §5.5
/// field-content = field-vchar [ 1*( SP / HTAB / field-vchar ) field-vchar ]
/// field-vchar   = VCHAR / obs-text
/// ```
/// So no CTL but HTAB, no DEL, and no SP or HTAB first or last: the parsers
/// accept surrounding whitespace but strip it (RFC 9112 §5), so a value
/// holding some would not arrive as sent. Empty is allowed.
///
/// ```
/// use http_net_head::valid_field_value;
/// assert!(valid_field_value(b"text/plain; q=0.5") && valid_field_value(b""));
/// assert!(valid_field_value(b"caf\xc3\xa9\tau lait"));
/// assert!(!valid_field_value(b"a\r\nSet-Cookie: x=y"));
/// assert!(!valid_field_value(b" a") && !valid_field_value(b"a\t"));
/// ```
pub fn valid_field_value(bytes: &[u8]) -> bool {
    let edge = |b: Option<&u8>| b.is_none_or(|&b| b != b' ' && b != b'\t');
    edge(bytes.first()) && edge(bytes.last()) && field_value_run(bytes) == bytes.len()
}

/// Whether a field named `name` (any case) must not be sent in a trailer
/// section (RFC 9110 §6.5.1: a sender must not generate a trailer field
/// whose definition does not permit it, and fields that frame, route,
/// authenticate or describe the content are needed before the content):
/// framing (`Content-Length`, `Transfer-Encoding`, `Trailer`), routing
/// (`Host`), credentials (`Authorization`, `Proxy-Authorization`,
/// `Set-Cookie`), authentication challenges (`WWW-Authenticate`,
/// `Proxy-Authenticate`) and content handling (`Content-Type`,
/// `Content-Encoding`). One list for requests and responses: a name of one
/// side has no meaning in the other side's trailers either.
///
/// The writers of `http-net-framing` refuse these names in the trailers
/// they send; the parsers reject them in trailers they read under the
/// front-line profile ([`HeadLimits::front_line`](crate::HeadLimits::front_line)).
///
/// ```
/// use http_net_head::forbidden_in_trailers;
/// assert!(forbidden_in_trailers(b"Content-Length") && forbidden_in_trailers(b"set-cookie"));
/// assert!(!forbidden_in_trailers(b"X-Checksum") && !forbidden_in_trailers(b"Server-Timing"));
/// ```
pub fn forbidden_in_trailers(name: &[u8]) -> bool {
    const NAMES: [&[u8]; 11] = [
        b"content-length",
        b"transfer-encoding",
        b"trailer",
        b"host",
        b"authorization",
        b"proxy-authorization",
        b"set-cookie",
        b"www-authenticate",
        b"proxy-authenticate",
        b"content-type",
        b"content-encoding",
    ];
    NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// Whether `bytes` is a reason phrase the response parser reads back
/// unchanged: `reason-phrase = 1*( HTAB / SP / VCHAR / obs-text )` (RFC 9112
/// §4), or empty (the status line then ends in SP CR LF). Whitespace is kept
/// as it is, first and last too.
///
/// ```
/// use http_net_head::valid_reason;
/// assert!(valid_reason(b"Not Found") && valid_reason(b"") && valid_reason(b" odd "));
/// assert!(!valid_reason(b"OK\r\nSet-Cookie: x=y") && !valid_reason(b"\x7f"));
/// ```
pub fn valid_reason(bytes: &[u8]) -> bool {
    field_value_run(bytes) == bytes.len()
}

/// Whether `value` is a `Host` field value the request parser accepts:
/// `uri-host [":" port]` (RFC 9110 §7.2, RFC 3986 §3.2.2): an IP-literal
/// (IPv6 or IPvFuture in brackets), or a reg-name (an IPv4 address is one)
/// with `%` escapes, and when the colon is there, a port of one to five
/// digits up to 65535. The host may not be empty (RFC 9110 §4.2.1).
///
/// ```
/// use http_net_head::valid_host;
/// assert!(valid_host(b"example.com:8080") && valid_host(b"[::1]") && valid_host(b"a%41"));
/// for bad in [&b""[..], b"a:99999", b"a:", b"[[::", b"[::1", b"a%zz", b"u@a", b"[1::2::3]"] {
///     assert!(!valid_host(bad), "{bad:?}");
/// }
/// ```
pub fn valid_host(value: &[u8]) -> bool {
    valid_host_port(value, false)
}

/// Checks a whole request target against `method` as the request parser
/// does (RFC 9112 §3.2), and gives its form:
///
/// - bytes: unreserved, sub-delims, `:` `@` `/` `?`, and `%` HEXDIG HEXDIG
///   (RFC 3986 §3.3–§3.4); `[` and `]` only in the host of an authority;
///   anything else is [`Error::InvalidTargetByte`];
/// - form ([`Error::InvalidTargetForm`] otherwise): origin-form `/…` and
///   absolute-form `scheme://authority…` (no userinfo, RFC 9110 §4.2.4) with
///   any method but CONNECT, authority-form `uri-host ":" port` with CONNECT
///   only, asterisk-form `*` with OPTIONS only. Empty is no form.
///
/// The target-length limit ([`HeadLimits`](crate::HeadLimits)) is the reader's own
/// and is not checked here.
///
/// ```
/// use http_net_head::{check_target, Error, Method, TargetForm};
/// assert_eq!(check_target(Method::Get, b"/a?b=%20"), Ok(TargetForm::Origin));
/// assert_eq!(check_target(Method::Get, b"http://[::1]:80/"), Ok(TargetForm::Absolute));
/// assert_eq!(check_target(Method::Connect, b"a.example:443"), Ok(TargetForm::Authority));
/// assert_eq!(check_target(Method::Options, b"*"), Ok(TargetForm::Asterisk));
/// assert_eq!(check_target(Method::Get, b"/a b"), Err(Error::InvalidTargetByte));
/// assert_eq!(check_target(Method::Get, b"http://u@a/"), Err(Error::InvalidTargetForm));
/// assert_eq!(check_target(Method::Connect, b"a.example"), Err(Error::InvalidTargetForm));
/// ```
pub fn check_target(method: Method, target: &[u8]) -> Result<TargetForm, Error> {
    // Brackets are target bytes outside an origin-form, as on the staged
    // path of the parser; `target::classify` checks that they frame a host.
    let brackets = target.first() != Some(&b'/');
    let mut n = 0;
    loop {
        n += target_run(target.get(n..).unwrap_or(&[]));
        n = escaped_target_run(target, n);
        match target.get(n) {
            None => break,
            Some(b'[' | b']') if brackets => n += 1,
            Some(_) => return Err(Error::InvalidTargetByte),
        }
    }
    if target.is_empty() {
        return Err(Error::InvalidTargetForm);
    }
    target::classify(method, target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_bytes_and_forms() {
        use Method::*;
        for (m, t, want) in [
            (Get, &b"/"[..], Ok(TargetForm::Origin)),
            (Get, b"/%41%4a/b%2F?c", Ok(TargetForm::Origin)),
            (Get, b"http://a%41/", Ok(TargetForm::Absolute)),
            (Get, b"http://[v1.x]/", Ok(TargetForm::Absolute)),
            (Connect, b"[::1]:443", Ok(TargetForm::Authority)),
            (Get, b"", Err(Error::InvalidTargetForm)),
            (Get, b"/%", Err(Error::InvalidTargetByte)),
            (Get, b"/%4", Err(Error::InvalidTargetByte)),
            (Get, b"/%4g", Err(Error::InvalidTargetByte)),
            (Get, b"/[", Err(Error::InvalidTargetByte)),
            (Get, b"/#f", Err(Error::InvalidTargetByte)),
            (Get, b"/\xc3\xa9", Err(Error::InvalidTargetByte)),
            (Get, b"http://a/[x]", Err(Error::InvalidTargetByte)),
            (Get, b"http://u@a/", Err(Error::InvalidTargetForm)),
            (Get, b"http://a:99999/", Err(Error::InvalidTargetForm)),
            (Get, b"*", Err(Error::InvalidTargetForm)),
            (Connect, b"a.example", Err(Error::InvalidTargetForm)),
            (Connect, b"a:b:c", Err(Error::InvalidTargetForm)),
            (Connect, b"[[::]:1", Err(Error::InvalidTargetForm)),
        ] {
            assert_eq!(check_target(m, t), want, "{t:?}");
        }
    }

    #[test]
    fn values_and_reasons() {
        for ok in [&b""[..], b"a", b"a b", b"\x80\xff", b"a\tb"] {
            assert!(valid_field_value(ok), "{ok:?}");
            assert!(valid_reason(ok), "{ok:?}");
        }
        for bad in [&b" "[..], b"\t", b" a", b"a ", b"a\t"] {
            assert!(!valid_field_value(bad), "{bad:?}");
            assert!(valid_reason(bad), "{bad:?}");
        }
        for bad in [&b"\0"[..], b"a\rb", b"a\nb", b"\x7f", b"\x1b"] {
            assert!(!valid_field_value(bad), "{bad:?}");
            assert!(!valid_reason(bad), "{bad:?}");
        }
    }
}

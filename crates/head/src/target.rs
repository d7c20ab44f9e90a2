/// The form of a request target (RFC 9112 §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetForm {
    /// `/path?query` (RFC 9112 §3.2.1)
    Origin,
    /// `scheme://authority/path?query` (RFC 9112 §3.2.2)
    Absolute,
    /// `host:port`, only with CONNECT (RFC 9112 §3.2.3)
    Authority,
    /// `*`, only with OPTIONS (RFC 9112 §3.2.4)
    Asterisk,
}

use crate::host::valid_host_port;
use crate::{Error, Method};
use http_net_scan::class::{ALPHA, HEXDIG, SCHEME};
use http_net_scan::target_run;

/// Decides the form of a complete target whose bytes have passed the byte
/// rules, and whether it fits the method (RFC 9112 §3.2):
///
/// - `/...`: origin-form, any method but CONNECT;
/// - `*`: asterisk-form, OPTIONS only;
/// - `scheme "://" authority [path-abempty] ["?" query]`: absolute-form, any
///   method but CONNECT. The authority is `uri-host [":" port]`; userinfo is
///   refused (RFC 9110 §4.2.4: a recipient treats it as an error);
/// - `uri-host ":" port`: authority-form, CONNECT only (which takes nothing
///   else).
///
/// `[` and `]` may appear only in the host of an authority
/// ([`Error::InvalidTargetByte`] elsewhere).
#[inline(always)]
pub(crate) fn classify(method: Method, t: &[u8]) -> Result<TargetForm, Error> {
    // Fast path, general twin `classify_form` (which answers the same for
    // these: origin-form, any method but CONNECT), inline where nearly
    // every request line stops: H5 by callgrind, docs/DECISIONS.md, D-31.
    #[cfg(not(http_net_general_path))]
    if method != Method::Connect && t.first() == Some(&b'/') {
        return Ok(TargetForm::Origin);
    }
    classify_form(method, t)
}

/// [`classify`] whole, out of line.
fn classify_form(method: Method, t: &[u8]) -> Result<TargetForm, Error> {
    if method == Method::Connect {
        return if valid_host_port(t, true) {
            Ok(TargetForm::Authority)
        } else {
            Err(Error::InvalidTargetForm)
        };
    }
    match t.first() {
        Some(b'/') => return Ok(TargetForm::Origin),
        Some(b'*') if t.len() == 1 => {
            return if method == Method::Options {
                Ok(TargetForm::Asterisk)
            } else {
                Err(Error::InvalidTargetForm)
            }
        }
        _ => {}
    }
    // absolute-form: scheme "://" authority path-abempty [ "?" query ].
    let Some(colon) = t.iter().position(|&b| b == b':') else {
        return Err(Error::InvalidTargetForm);
    };
    let (scheme, rest) = t.split_at(colon);
    let scheme_ok = matches!(scheme.split_first(), Some((&f, more))
        if ALPHA[f as usize] && more.iter().all(|&b| SCHEME[b as usize]));
    let Some(after) = rest.strip_prefix(b"://") else {
        return Err(Error::InvalidTargetForm);
    };
    if !scheme_ok {
        return Err(Error::InvalidTargetForm);
    }
    let end = after
        .iter()
        .position(|&b| b == b'/' || b == b'?')
        .unwrap_or(after.len());
    let (authority, path) = after.split_at(end);
    if path.iter().any(|&b| b == b'[' || b == b']') {
        return Err(Error::InvalidTargetByte);
    }
    if authority.contains(&b'@') || !valid_host_port(authority, false) {
        return Err(Error::InvalidTargetForm);
    }
    Ok(TargetForm::Absolute)
}

/// The length of the leading run of target bytes and `%` escapes in `window`,
/// whose first `n` bytes are target bytes followed by a `%`:
/// `pct-encoded = "%" HEXDIG HEXDIG` (RFC 3986 §2.1). An escape that is
/// malformed or cut by the window's end stops the run (the staged path then
/// reports it, or waits for more bytes).
#[inline(never)]
pub(crate) fn escaped_target_run(window: &[u8], mut n: usize) -> usize {
    while let Some(&[b'%', h, l]) = window.get(n..n + 3) {
        if !(HEXDIG[h as usize] && HEXDIG[l as usize]) {
            break;
        }
        n += 3;
        n += target_run(window.get(n..).unwrap_or(&[]));
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Method::*;

    /// The inline origin-form answer and the whole classification agree
    /// for every method on targets of every form (CONNECT with `/` too).
    #[test]
    fn fast_path_agrees_with_its_twin() {
        let methods = [
            Get, Head, Post, Put, Delete, Connect, Options, Trace, Patch, Other,
        ];
        let targets: [&[u8]; 9] = [
            b"/",
            b"//a",
            b"/a?b",
            b"*",
            b"http://a/",
            b"a.b:443",
            b"",
            b"x",
            b"/[x]",
        ];
        for m in methods {
            for t in targets {
                assert_eq!(classify(m, t), classify_form(m, t), "{m:?} {t:?}");
            }
        }
    }

    #[test]
    fn forms() {
        assert_eq!(classify(Get, b"/"), Ok(TargetForm::Origin));
        assert_eq!(classify(Get, b"//a"), Ok(TargetForm::Origin));
        assert_eq!(classify(Options, b"*"), Ok(TargetForm::Asterisk));
        assert_eq!(classify(Get, b"*"), Err(Error::InvalidTargetForm));
        assert_eq!(classify(Options, b"*/"), Err(Error::InvalidTargetForm));
        assert_eq!(classify(Get, b"http://a.b/c?d"), Ok(TargetForm::Absolute));
        assert_eq!(classify(Get, b"http://[::1]:80"), Ok(TargetForm::Absolute));
        assert_eq!(classify(Get, b"http://a?q"), Ok(TargetForm::Absolute));
        assert_eq!(classify(Get, b"http://u@a/"), Err(Error::InvalidTargetForm));
        assert_eq!(classify(Get, b"http:///"), Err(Error::InvalidTargetForm));
        assert_eq!(classify(Get, b"1http://a/"), Err(Error::InvalidTargetForm));
        assert_eq!(classify(Get, b"http:/a"), Err(Error::InvalidTargetForm));
        assert_eq!(
            classify(Get, b"http://a/[x]"),
            Err(Error::InvalidTargetByte)
        );
        assert_eq!(classify(Get, b"a.b:80"), Err(Error::InvalidTargetForm));
        assert_eq!(classify(Connect, b"a.b:443"), Ok(TargetForm::Authority));
        assert_eq!(classify(Connect, b"[::1]:443"), Ok(TargetForm::Authority));
        assert_eq!(classify(Connect, b"a.b"), Err(Error::InvalidTargetForm));
        assert_eq!(classify(Connect, b"/"), Err(Error::InvalidTargetForm));
        assert_eq!(
            classify(Connect, b"http://a/"),
            Err(Error::InvalidTargetForm)
        );
    }
}

//! `http://` URLs for the client: scheme, host, port and request target,
//! checked strictly (RFC 3986 §3, RFC 9110 §4.2.1).

use core::fmt;

/// Why a URL cannot be used by the client.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UrlError {
    /// The scheme is not `http` (`https` needs a TLS stream: see the crate docs).
    UnsupportedScheme,
    /// The URL has no host.
    MissingHost,
    /// The host is neither a registered name nor an IP literal (RFC 3986 §3.2.2).
    InvalidHost,
    /// The port is not a decimal number in 1..=65535.
    InvalidPort,
    /// The URL carries user information (`user:pass@`), which is not sent.
    UserInfo,
    /// The path or query holds a byte RFC 3986 does not allow unencoded.
    InvalidTarget,
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UrlError::UnsupportedScheme => "only http:// URLs are supported",
            UrlError::MissingHost => "the URL has no host",
            UrlError::InvalidHost => "the host is not a valid name or IP literal",
            UrlError::InvalidPort => "the port is not a number in 1..=65535",
            UrlError::UserInfo => "user information in the URL is not supported",
            UrlError::InvalidTarget => {
                "the path or query contains a byte that must be percent-encoded"
            }
        })
    }
}

impl std::error::Error for UrlError {}

/// A parsed `http://` URL, borrowing the input.
///
/// ```
/// let u = http_net_std::Url::parse("http://[::1]:8080/a?b=c#frag").unwrap();
/// assert_eq!((u.host(), u.port(), u.target()), ("::1", 8080, "/a?b=c"));
/// assert_eq!(u.authority(), "[::1]:8080");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Url<'a> {
    authority: &'a str,
    host: &'a str,
    port: u16,
    target: &'a str,
    target_needs_slash: bool,
}

impl<'a> Url<'a> {
    /// Parses and checks an `http://` URL. A fragment is dropped (it is never
    /// sent); an empty path becomes `/`.
    pub fn parse(url: &'a str) -> Result<Url<'a>, UrlError> {
        let rest = match url.get(..7) {
            Some(s) if s.eq_ignore_ascii_case("http://") => &url[7..],
            _ => return Err(UrlError::UnsupportedScheme),
        };
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        if authority.contains('@') {
            return Err(UrlError::UserInfo);
        }
        let (host, port_str) = if let Some(inner) = authority.strip_prefix('[') {
            let close = inner.find(']').ok_or(UrlError::InvalidHost)?;
            let host = &inner[..close];
            let after = &inner[close + 1..];
            if host.is_empty()
                || !host
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
            {
                return Err(UrlError::InvalidHost);
            }
            match after.strip_prefix(':') {
                Some(p) => (host, Some(p)),
                None if after.is_empty() => (host, None),
                None => return Err(UrlError::InvalidHost),
            }
        } else {
            match authority.rfind(':') {
                Some(i) => (&authority[..i], Some(&authority[i + 1..])),
                None => (authority, None),
            }
        };
        if host.is_empty() {
            return Err(UrlError::MissingHost);
        }
        if !authority.starts_with('[')
            && !host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
        {
            return Err(UrlError::InvalidHost);
        }
        let port = match port_str {
            None | Some("") => 80,
            Some(p) => parse_port(p)?,
        };
        let target = tail.split('#').next().unwrap_or("");
        if !target.is_empty() && !valid_target(target.as_bytes()) {
            return Err(UrlError::InvalidTarget);
        }
        Ok(Url {
            authority,
            host,
            port,
            target,
            target_needs_slash: !target.starts_with('/'),
        })
    }

    /// The host as used to connect (an IPv6 literal without its brackets).
    pub fn host(&self) -> &'a str {
        self.host
    }
    /// The port (80 when the URL names none).
    pub fn port(&self) -> u16 {
        self.port
    }
    /// The authority as written in the URL, for the `Host` field.
    pub fn authority(&self) -> &'a str {
        self.authority
    }
    /// The path and query (without the `/` that [`Url::write_target`] adds
    /// when the URL's path is empty).
    pub fn target(&self) -> &'a str {
        self.target
    }
    /// The origin-form request target: the path and query, `/` first.
    pub fn write_target(&self, out: &mut Vec<u8>) {
        if self.target_needs_slash {
            out.push(b'/');
        }
        out.extend_from_slice(self.target.as_bytes());
    }
}

fn parse_port(p: &str) -> Result<u16, UrlError> {
    if p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) {
        return Err(UrlError::InvalidPort);
    }
    let mut v: u32 = 0;
    for b in p.bytes() {
        v = v * 10 + u32::from(b - b'0');
    }
    match u16::try_from(v) {
        Ok(0) | Err(_) => Err(UrlError::InvalidPort),
        Ok(port) => Ok(port),
    }
}

/// Path and query bytes RFC 3986 allows: unreserved, sub-delims, `:`, `@`,
/// `/`, `?`, and `%` followed by two hex digits.
fn valid_target(t: &[u8]) -> bool {
    let mut i = 0;
    while i < t.len() {
        let b = t[i];
        let ok = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'?'
            );
        if b == b'%' {
            match (t.get(i + 1), t.get(i + 2)) {
                (Some(h), Some(l)) if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => i += 3,
                _ => return false,
            }
            continue;
        }
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target_of(u: &str) -> String {
        let mut v = Vec::new();
        Url::parse(u).unwrap().write_target(&mut v);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn good_urls() {
        let u = Url::parse("http://example.com").unwrap();
        assert_eq!(
            (u.host(), u.port(), u.authority()),
            ("example.com", 80, "example.com")
        );
        assert_eq!(target_of("http://example.com"), "/");
        assert_eq!(target_of("http://a:81?x=1"), "/?x=1");
        assert_eq!(target_of("HTTP://a/p/q%20r?s#t"), "/p/q%20r?s");
        assert_eq!(Url::parse("http://127.0.0.1:65535/").unwrap().port(), 65535);
        assert_eq!(Url::parse("http://h:/").unwrap().port(), 80);
        let v6 = Url::parse("http://[::1]/").unwrap();
        assert_eq!((v6.host(), v6.port(), v6.authority()), ("::1", 80, "[::1]"));
    }

    #[test]
    fn bad_urls() {
        use UrlError::*;
        for (url, err) in [
            ("https://a/", UnsupportedScheme),
            ("ftp://a/", UnsupportedScheme),
            ("http:/a", UnsupportedScheme),
            ("", UnsupportedScheme),
            ("http:///x", MissingHost),
            ("http://:80/", MissingHost),
            ("http://u:p@a/", UserInfo),
            ("http://a b/", InvalidHost),
            ("http://a%41/", InvalidHost),
            ("http://[::1/", InvalidHost),
            ("http://[zz]/", InvalidHost),
            ("http://[::1]x/", InvalidHost),
            ("http://a:0/", InvalidPort),
            ("http://a:65536/", InvalidPort),
            ("http://a:+80/", InvalidPort),
            ("http://a:8o/", InvalidPort),
            ("http://a/ b", InvalidTarget),
            ("http://a/\r\nX: y", InvalidTarget),
            ("http://a/%zz", InvalidTarget),
            ("http://a/%4", InvalidTarget),
            ("http://a/\u{e9}", InvalidTarget),
            ("http://a/\"", InvalidTarget),
        ] {
            assert_eq!(Url::parse(url), Err(err), "{url:?}");
        }
    }
}

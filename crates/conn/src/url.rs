//! `http://` and `https://` URLs for a client: scheme, host, port and
//! request target, checked strictly (RFC 3986 §3, RFC 9110 §4.2), and a
//! `Location` reference resolved against them (RFC 3986 §5.2). Both client
//! adapters parse with this one type.

use alloc::borrow::{Cow, ToOwned};
use alloc::format;
use alloc::string::String;
use core::fmt;

use http_net_framing::syntax::decimal;
use http_net_head::{check_target, valid_host, Method, TargetForm};

use crate::redirect::Origin;

/// Why a URL cannot be used by the client, each variant naming the rule
/// (RFC 3986 §3, RFC 9110 §4.2).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UrlError {
    /// The scheme is neither `http` nor `https` (RFC 9110 §4.2.1, §4.2.2).
    UnsupportedScheme,
    /// An `https://` URL given to a client whose connector opens plain TCP
    /// only (TLS is composed in: see each adapter's
    /// `ClientBuilder::connector`); it is never sent in plain text
    /// (RFC 9110 §4.2.2).
    HttpsWithoutConnector,
    /// The URL has no host (RFC 9110 §4.2.1: an empty host is invalid).
    MissingHost,
    /// The host is neither a registered name nor an IP literal (RFC 3986 §3.2.2).
    InvalidHost,
    /// The port is not a decimal number in 1..=65535 (RFC 3986 §3.2.3).
    InvalidPort,
    /// The URL carries user information (`user:pass@`), which is not sent
    /// (RFC 9110 §4.2.4).
    UserInfo,
    /// The path or query holds a byte RFC 3986 does not allow unencoded
    /// (RFC 3986 §3.3, §3.4).
    InvalidTarget,
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UrlError::UnsupportedScheme => {
                "only http:// and https:// URLs are supported (RFC 9110 §4.2)"
            }
            UrlError::HttpsWithoutConnector => {
                "the https scheme needs a TLS connector (ClientBuilder::connector); \
                 the client's connector opens plain TCP (RFC 9110 §4.2.2)"
            }
            UrlError::MissingHost => "the URL has no host (RFC 9110 §4.2.1)",
            UrlError::InvalidHost => "the host is not a valid name or IP literal (RFC 3986 §3.2.2)",
            UrlError::InvalidPort => "the port is not a number in 1..=65535 (RFC 3986 §3.2.3)",
            UrlError::UserInfo => "user information in the URL is not supported (RFC 9110 §4.2.4)",
            UrlError::InvalidTarget => {
                "the path or query contains a byte that must be percent-encoded \
                 (RFC 3986 §3.3, §3.4)"
            }
        })
    }
}

impl core::error::Error for UrlError {}

/// A parsed `http://` or `https://` URL, borrowing the input.
///
/// ```
/// let u = http_net_conn::Url::parse("http://[::1]:8080/a?b=c#frag").unwrap();
/// assert_eq!((u.host(), u.port(), u.target()), ("::1", 8080, "/a?b=c"));
/// assert_eq!(u.authority(), "[::1]:8080");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Url<'a> {
    https: bool,
    authority: &'a str,
    host: &'a str,
    port: u16,
    target: &'a str,
    target_needs_slash: bool,
}

impl<'a> Url<'a> {
    /// Parses and checks an `http://` or `https://` URL. A fragment is
    /// dropped (it is never sent); an empty path becomes `/`; an empty port
    /// is the scheme's default (80 or 443) and is left out of
    /// [`authority`](Url::authority) (RFC 3986 §6.2.3).
    ///
    /// The host, the port and the path and query are checked with the
    /// request parser's own rules (`http-net-head`'s [`valid_host`] and
    /// [`check_target`]), so the `Host` value and the target the client
    /// sends from a URL it accepts are accepted by the server: a reg-name may
    /// hold `%` escapes and sub-delims (RFC 3986 §3.2.2), an IP literal must
    /// be a whole IPv6 address. Beyond that grammar, port 0 and an IPvFuture
    /// literal are refused: neither names something to connect to.
    pub fn parse(url: &'a str) -> Result<Url<'a>, UrlError> {
        let (https, rest) = match (url.get(..7), url.get(..8)) {
            (Some(s), _) if s.eq_ignore_ascii_case("http://") => (false, &url[7..]),
            (_, Some(s)) if s.eq_ignore_ascii_case("https://") => (true, &url[8..]),
            _ => return Err(UrlError::UnsupportedScheme),
        };
        let default_port = if https { 443 } else { 80 };
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (written, tail) = rest.split_at(end);
        if written.contains('@') {
            return Err(UrlError::UserInfo);
        }
        // `uri-host [":" port]`: an IP literal ends at its `]`, a reg-name
        // at the first colon (it holds none).
        let host_end = match written.strip_prefix('[') {
            Some(inner) => inner.find(']').map_or(written.len(), |i| i + 2),
            None => written.find(':').unwrap_or(written.len()),
        };
        let (bracketed, after) = written.split_at(host_end);
        let port_str = match after.strip_prefix(':') {
            Some(p) => Some(p),
            None if after.is_empty() => None,
            None => return Err(UrlError::InvalidHost),
        };
        if bracketed.is_empty() {
            return Err(UrlError::MissingHost);
        }
        let future = bracketed.starts_with("[v") || bracketed.starts_with("[V");
        if future || !valid_host(bracketed.as_bytes()) {
            return Err(UrlError::InvalidHost);
        }
        let (port, authority) = match port_str {
            None => (default_port, written),
            Some("") => (default_port, bracketed),
            Some(p) => (parse_port(p)?, written),
        };
        // What goes into `Host`, whole (the port's own rule included).
        if !valid_host(authority.as_bytes()) {
            return Err(UrlError::InvalidPort);
        }
        let host = bracketed
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(bracketed);
        let target = tail.split('#').next().unwrap_or("");
        if !target.is_empty() && !valid_target(target) {
            return Err(UrlError::InvalidTarget);
        }
        Ok(Url {
            https,
            authority,
            host,
            port,
            target,
            target_needs_slash: !target.starts_with('/'),
        })
    }

    /// Whether the scheme is `https`.
    pub fn is_https(&self) -> bool {
        self.https
    }
    /// The scheme, lowercase: `"http"` or `"https"`.
    pub fn scheme(&self) -> &'static str {
        if self.https {
            "https"
        } else {
            "http"
        }
    }
    /// The host as used to connect (an IPv6 literal without its brackets).
    pub fn host(&self) -> &'a str {
        self.host
    }
    /// The port (80 or 443 when the URL names none).
    pub fn port(&self) -> u16 {
        self.port
    }
    /// The origin (scheme, host, port) the redirect policy compares
    /// ([`Origin`], RFC 9110 §4.3.1).
    pub fn origin(&self) -> Origin<'a> {
        Origin::new(self.https, self.host, self.port)
    }
    /// The authority as written in the URL, for the `Host` field.
    pub fn authority(&self) -> &'a str {
        self.authority
    }
    /// The path and query (without the `/` that [`Url::origin_target`] adds
    /// when the URL's path is empty).
    pub fn target(&self) -> &'a str {
        self.target
    }
    /// The origin-form request target: the path and query, `/` first.
    /// Fast path: borrowed from the URL (a path present, or none and no
    /// query: `/`); general twin: a `/` and a bare query, copied.
    ///
    /// ```
    /// let t = |u| http_net_conn::Url::parse(u).unwrap().origin_target().into_owned();
    /// assert_eq!(t("http://a/p?q"), b"/p?q");
    /// assert_eq!(t("http://a"), b"/");
    /// assert_eq!(t("http://a?q"), b"/?q");
    /// ```
    pub fn origin_target(&self) -> Cow<'a, [u8]> {
        match (self.target_needs_slash, self.target) {
            (false, t) => Cow::Borrowed(t.as_bytes()),
            (true, "") => Cow::Borrowed(b"/"),
            (true, t) => Cow::Owned([b"/", t.as_bytes()].concat()),
        }
    }
}

impl Url<'_> {
    /// Resolves a `Location` value against this URL (RFC 9110 §10.2.2,
    /// RFC 3986 §5.2): an absolute URL, a network-path (`//host/p`), an
    /// absolute path or a relative path. The result still has to pass
    /// [`Url::parse`]. Dot segments are left as sent.
    ///
    /// ```
    /// let base = http_net_conn::Url::parse("http://a:81/p/q?x").unwrap();
    /// assert_eq!(base.resolve("rel"), "http://a:81/p/rel");
    /// assert_eq!(base.resolve("//c/d"), "http://c/d");
    /// ```
    pub fn resolve(&self, location: &str) -> String {
        let loc = location.split('#').next().unwrap_or("");
        // A reference with a scheme is absolute (RFC 3986 §4.3, §5.2.2),
        // whichever the scheme: `Url::parse` then takes or refuses it.
        if has_scheme(loc) {
            return loc.to_owned();
        }
        let scheme = self.scheme();
        if let Some(rest) = loc.strip_prefix("//") {
            return format!("{scheme}://{rest}");
        }
        let origin = format!("{scheme}://{}", self.authority);
        if loc.starts_with('/') {
            return format!("{origin}{loc}");
        }
        let path = self.target.split('?').next().unwrap_or("");
        if loc.is_empty() {
            return format!("{origin}{}", if self.target_needs_slash { "/" } else { "" })
                + self.target;
        }
        if loc.starts_with('?') {
            return format!("{origin}/{}{loc}", path.trim_start_matches('/'));
        }
        let dir = path.rfind('/').map_or("/", |i| &path[..=i]);
        format!("{origin}{dir}{loc}")
    }
}

/// Whether `reference` starts with `scheme ":"`, `scheme = ALPHA *( ALPHA /
/// DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1), before any `/`, `?` or `#`.
fn has_scheme(reference: &str) -> bool {
    let Some(colon) = reference.find(':') else {
        return false;
    };
    let scheme = reference.as_bytes().get(..colon).unwrap_or(&[]);
    match scheme.split_first() {
        Some((first, rest)) => {
            first.is_ascii_alphabetic()
                && rest
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        }
        None => false,
    }
}

/// `port = *DIGIT` (RFC 3986 §3.2.3), here one to five digits naming a port
/// in 1..=65535.
fn parse_port(p: &str) -> Result<u16, UrlError> {
    match decimal(p.as_bytes()).map(u16::try_from) {
        Some(Ok(port)) if port != 0 && p.len() <= 5 => Ok(port),
        _ => Err(UrlError::InvalidPort),
    }
}

/// Whether the path and query (non-empty, starting with `/` or `?`) make an
/// origin-form target as the request parser reads it (RFC 9112 §3.2.1):
/// RFC 3986 path and query bytes and `%` HEXDIG HEXDIG escapes.
fn valid_target(target: &str) -> bool {
    let form = if target.starts_with('/') {
        check_target(Method::Get, target.as_bytes())
    } else {
        // A query with an empty path: the target sent is `/` and the query.
        let mut slashed = String::with_capacity(target.len() + 1);
        slashed.push('/');
        slashed.push_str(target);
        check_target(Method::Get, slashed.as_bytes())
    };
    form == Ok(TargetForm::Origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target_of(u: &str) -> String {
        let t = Url::parse(u).unwrap().origin_target().into_owned();
        String::from_utf8(t).unwrap()
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
        let s = Url::parse("HTTPS://a/x").unwrap();
        assert_eq!((s.is_https(), s.port(), s.authority()), (true, 443, "a"));
        assert_eq!(Url::parse("https://a:8443/").unwrap().port(), 8443);
        assert!(!Url::parse("http://a/").unwrap().is_https());
        let v6 = Url::parse("http://[::1]/").unwrap();
        assert_eq!((v6.host(), v6.port(), v6.authority()), ("::1", 80, "[::1]"));
    }

    /// Every URL the client accepts gives a `Host` value and a target that
    /// `http-net-head`'s request parser accepts, and the other way round for
    /// the host (one grammar: RFC 9110 §7.2, RFC 3986 §3.2.2).
    #[test]
    fn host_and_target_follow_the_parser() {
        use http_net_head::{check_target, valid_host, Method};
        for (url, host, authority) in [
            ("http://a%41/", "a%41", "a%41"),
            ("http://a!$&'()*+,;=b/", "a!$&'()*+,;=b", "a!$&'()*+,;=b"),
            (
                "http://[2001:db8::8:800:200c:417a]/",
                "2001:db8::8:800:200c:417a",
                "[2001:db8::8:800:200c:417a]",
            ),
            (
                "http://[::ffff:192.0.2.1]:8080/",
                "::ffff:192.0.2.1",
                "[::ffff:192.0.2.1]:8080",
            ),
            ("http://h:/", "h", "h"),
            ("http://[::1]:/x", "::1", "[::1]"),
        ] {
            let u = Url::parse(url).unwrap();
            assert_eq!((u.host(), u.authority()), (host, authority), "{url:?}");
            assert!(valid_host(u.authority().as_bytes()), "{url:?}");
            let t = u.origin_target();
            assert!(check_target(Method::Get, &t).is_ok(), "{url:?}");
        }
        // IPvFuture is a valid host, but names no address to connect to.
        assert_eq!(Url::parse("http://[v1.x]/"), Err(UrlError::InvalidHost));
        assert!(valid_host(b"[v1.x]"));
    }

    #[test]
    fn locations_resolve_against_the_request_url() {
        let base = Url::parse("http://a:81/p/q?x").unwrap();
        for (loc, want) in [
            ("https://b/z", "https://b/z"),
            ("//c/d", "http://c/d"),
            ("/abs?k", "http://a:81/abs?k"),
            ("rel", "http://a:81/p/rel"),
            ("?y", "http://a:81/p/q?y"),
            ("/f#frag", "http://a:81/f"),
            ("HTTPS://b", "HTTPS://b"),
            ("ftp://b/", "ftp://b/"),
            ("mailto:x@y", "mailto:x@y"),
            ("a:b/c", "a:b/c"),
            ("./a:b", "http://a:81/p/./a:b"),
            ("1a:b", "http://a:81/p/1a:b"),
        ] {
            assert_eq!(base.resolve(loc), want, "{loc:?}");
        }
    }

    #[test]
    fn bad_urls() {
        use UrlError::*;
        for (url, err) in [
            ("ftp://a/", UnsupportedScheme),
            ("http:/a", UnsupportedScheme),
            ("https:/a", UnsupportedScheme),
            ("httpss://a/", UnsupportedScheme),
            ("", UnsupportedScheme),
            ("http:///x", MissingHost),
            ("http://:80/", MissingHost),
            ("http://u:p@a/", UserInfo),
            ("http://a b/", InvalidHost),
            ("http://a%zz/", InvalidHost),
            ("http://a%4/", InvalidHost),
            ("http://[.]/", InvalidHost),
            ("http://[:::]/", InvalidHost),
            ("http://[::1::2]/", InvalidHost),
            ("http://[12345::]/", InvalidHost),
            ("http://[1:2:3:4:5:6:7]/", InvalidHost),
            ("http://[1:2:3:4:5:6:7:8:9]/", InvalidHost),
            ("http://[1.2.3.4]/", InvalidHost),
            ("http://[::ffff:1.2.3.256]/", InvalidHost),
            ("http://[::ffff:01.2.3.4]/", InvalidHost),
            ("http://[[::1]]/", InvalidHost),
            ("http://a:b:c/", InvalidPort),
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

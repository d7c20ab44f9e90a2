// The head conformance table: raw heads and their expected outcome, each
// with the RFC section of the rule it exercises. Plain data (no test
// logic), so that a fuzz or xtask build can `include!` this file and export
// the inputs as a seed corpus; it needs only `http_net_head` in scope.
//
// Every input is exactly one head (or one field block): the runner also
// feeds it split at every position, one byte at a time, and followed by
// trailing bytes that must be left unconsumed.
//
// Rows named `Cnn` carry the payload of a known attack or bug;
// `Cnn` is only a label, the row's name says what it is.

use http_net_head::{Error, TargetForm, Version};

/// Which parser a row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `RequestParser`.
    Request,
    /// `ResponseParser` with the default options (obs-fold kept).
    Response,
    /// `ResponseParser` with `ObsFold::Reject`.
    ResponseRejectFold,
    /// `FieldBlockParser` (trailers).
    Block,
}

/// Limits for a row: head bytes, fields, target bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lim {
    /// `max_head_bytes`.
    pub head: usize,
    /// `max_fields`.
    pub fields: usize,
    /// `max_target_bytes`.
    pub target: usize,
}

/// The default head limits (head 16 KiB, 100 fields, target 8 KiB).
pub const DEFAULT: Lim = Lim {
    head: 16 * 1024,
    fields: 100,
    target: 8 * 1024,
};

/// A field as expected: name and (trimmed) value bytes.
pub type F = (&'static [u8], &'static [u8]);

/// What a row must produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A request head.
    Request {
        /// Method bytes.
        method: &'static [u8],
        /// Target bytes.
        target: &'static [u8],
        /// Target form.
        form: TargetForm,
        /// Version.
        version: Version,
        /// Fields in order.
        fields: &'static [F],
    },
    /// A response head.
    Response {
        /// Version.
        version: Version,
        /// Status code.
        status: u16,
        /// Reason bytes.
        reason: &'static [u8],
        /// Fields in order (values as stored: a kept fold is still in them).
        fields: &'static [F],
        /// Whether an obs-fold was kept.
        obs_fold: bool,
    },
    /// A field block.
    Block {
        /// Fields in order.
        fields: &'static [F],
    },
    /// This error.
    Err(Error),
}

/// One row.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// A short unique name.
    pub name: &'static str,
    /// The parser.
    pub mode: Mode,
    /// The raw bytes: exactly one head.
    pub input: &'static [u8],
    /// The outcome.
    pub expect: Expect,
    /// The rule's RFC section.
    pub rfc: &'static str,
    /// The limits in force.
    pub limits: Lim,
}

macro_rules! fields {
    ($(($n:expr, $v:expr)),* $(,)?) => { &[$(($n as &[u8], $v as &[u8])),*] };
}

/// An accepted request.
macro_rules! req {
    ($name:expr, $rfc:expr, $input:expr, $m:expr, $t:expr, $form:ident, $v:ident, [$($f:tt)*]) => {
        req!($name, $rfc, $input, $m, $t, $form, $v, [$($f)*], DEFAULT)
    };
    ($name:expr, $rfc:expr, $input:expr, $m:expr, $t:expr, $form:ident, $v:ident, [$($f:tt)*], $lim:expr) => {
        Case {
            name: $name,
            mode: Mode::Request,
            input: $input,
            expect: Expect::Request {
                method: $m,
                target: $t,
                form: TargetForm::$form,
                version: Version::$v,
                fields: fields!($($f)*),
            },
            rfc: $rfc,
            limits: $lim,
        }
    };
}

/// A rejected input.
macro_rules! bad {
    ($mode:ident, $name:expr, $rfc:expr, $input:expr, $e:ident) => {
        bad!($mode, $name, $rfc, $input, $e, DEFAULT)
    };
    ($mode:ident, $name:expr, $rfc:expr, $input:expr, $e:ident, $lim:expr) => {
        Case {
            name: $name,
            mode: Mode::$mode,
            input: $input,
            expect: Expect::Err(Error::$e),
            rfc: $rfc,
            limits: $lim,
        }
    };
}

/// An accepted response.
macro_rules! res {
    ($name:expr, $rfc:expr, $input:expr, $v:ident, $status:expr, $reason:expr, [$($f:tt)*]) => {
        res!($name, $rfc, $input, $v, $status, $reason, [$($f)*], false)
    };
    ($name:expr, $rfc:expr, $input:expr, $v:ident, $status:expr, $reason:expr, [$($f:tt)*], $fold:expr) => {
        Case {
            name: $name,
            mode: Mode::Response,
            input: $input,
            expect: Expect::Response {
                version: Version::$v,
                status: $status,
                reason: $reason,
                fields: fields!($($f)*),
                obs_fold: $fold,
            },
            rfc: $rfc,
            limits: DEFAULT,
        }
    };
}

/// An accepted field block.
macro_rules! block {
    ($name:expr, $rfc:expr, $input:expr, [$($f:tt)*]) => {
        Case {
            name: $name,
            mode: Mode::Block,
            input: $input,
            expect: Expect::Block { fields: fields!($($f)*) },
            rfc: $rfc,
            limits: DEFAULT,
        }
    };
}

#[allow(dead_code)]
const fn lim(head: usize, fields: usize, target: usize) -> Lim {
    Lim {
        head,
        fields,
        target,
    }
}

/// The table.
#[rustfmt::skip]
pub const CASES: &[Case] = &[
    // ---- Request line (RFC 9112 §3) ----
    req!("get", "RFC 9112 §3", b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a")]),
    req!("http10-no-host", "RFC 9112 §3.2", b"GET / HTTP/1.0\r\n\r\n", b"GET", b"/", Origin, Http10, []),
    req!("http10-host", "RFC 9112 §3.2", b"GET /x HTTP/1.0\r\nHost: a.b\r\n\r\n", b"GET", b"/x", Origin, Http10, [(b"Host", b"a.b")]),
    req!("extension-method", "RFC 9110 §9.1", b"PROPFIND /d HTTP/1.1\r\nHost: a\r\n\r\n", b"PROPFIND", b"/d", Origin, Http11, [(b"Host", b"a")]),
    req!("method-all-tchars", "RFC 9110 §5.6.2", b"!#$%&'*+-.^_`|~09aZ / HTTP/1.1\r\nHost: a\r\n\r\n", b"!#$%&'*+-.^_`|~09aZ", b"/", Origin, Http11, [(b"Host", b"a")]),
    req!("method-case-sensitive", "RFC 9110 §9.1", b"get / HTTP/1.1\r\nHost: a\r\n\r\n", b"get", b"/", Origin, Http11, [(b"Host", b"a")]),
    bad!(Request, "C37-method-not-token", "RFC 9110 §9.1", b"G=\":<>(e),[T];?\" /get HTTP/1.1\r\n\r\n", InvalidMethod),
    bad!(Request, "method-slash", "RFC 9110 §9.1", b"GET/ / HTTP/1.1\r\nHost: a\r\n\r\n", InvalidMethod),
    bad!(Request, "C38-leading-space", "RFC 9112 §2.2", b" GET / HTTP/1.1\r\nfoo:bar\r\n\r\n", InvalidStartLineSpacing),
    bad!(Request, "leading-htab", "RFC 9112 §2.2", b"\tGET / HTTP/1.1\r\nHost: a\r\n\r\n", InvalidMethod),
    bad!(Request, "method-htab", "RFC 9112 §3", b"GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", InvalidMethod),
    bad!(Request, "method-non-ascii", "RFC 9110 §9.1", b"G\xc9T / HTTP/1.1\r\nHost: a\r\n\r\n", InvalidMethod),
    // proves: 9112-3.2-4a, 9112-3.2-4b
    bad!(Request, "C41-double-space", "RFC 9112 §3", b"GET  /  HTTP/1.1\r\nHost: a\r\n\r\n", InvalidStartLineSpacing),
    bad!(Request, "space-before-version", "RFC 9112 §3", b"GET /  HTTP/1.1\r\nHost: a\r\n\r\n", InvalidStartLineSpacing),
    bad!(Request, "space-after-version", "RFC 9112 §3", b"GET / HTTP/1.1 \r\nHost: a\r\n\r\n", InvalidStartLineSpacing),
    bad!(Request, "C43-http09", "RFC 9112 §3", b"GET /\r\n\r\n", InvalidTargetByte),
    bad!(Request, "C40-lf-separator", "RFC 9112 §3", b"GET /\nHTTP/1.1\r\n\r\n", InvalidTargetByte),
    bad!(Request, "request-line-bare-lf", "RFC 9112 §2.2", b"GET / HTTP/1.1\nHost: a\n\n", BareLf),
    // proves: 9112-2.2-4b
    bad!(Request, "request-line-bare-cr", "RFC 9112 §2.2", b"GET / HTTP/1.1\rHost: a\r\n\r\n", BareCr),
    bad!(Request, "method-only", "RFC 9112 §3", b"GET\r\n\r\n", InvalidMethod),
    // ---- Method length (RFC 9112 §3: longer than any implemented, 501) ----
    req!("method-longest-registered", "RFC 9112 §3", b"UPDATEREDIRECTREF / HTTP/1.1\r\nHost: a\r\n\r\n", b"UPDATEREDIRECTREF", b"/", Origin, Http11, [(b"Host", b"a")]),
    req!("method-at-limit", "RFC 9112 §3", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 / HTTP/1.1\r\nHost: a\r\n\r\n", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", b"/", Origin, Http11, [(b"Host", b"a")]),
    // proves: 9112-3-4a
    bad!(Request, "method-over-limit", "RFC 9112 §3", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456 / HTTP/1.1\r\nHost: a\r\n\r\n", MethodTooLong),
    bad!(Request, "method-twice-the-limit", "RFC 9112 §3", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123 / HTTP/1.1\r\nHost: a\r\n\r\n", MethodTooLong),
    bad!(Request, "bad-byte-before-method-limit", "RFC 9110 §9.1", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ01234( / HTTP/1.1\r\nHost: a\r\n\r\n", InvalidMethod),
    // ---- Leading empty lines (RFC 9112 §2.2) ----
    // proves: 9112-2.2-6
    req!("one-leading-crlf", "RFC 9112 §2.2", b"\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a")]),
    // proves: 9112-2.2-6
    req!("four-leading-crlf", "RFC 9112 §2.2", b"\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a")]),
    bad!(Request, "C80-five-leading-crlf", "RFC 9112 §2.2", b"\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", TooManyLeadingEmptyLines),
    bad!(Request, "C80-empty-lines-only", "RFC 9112 §2.2", b"\r\n\r\n\r\n\r\n\r\n\r\n", TooManyLeadingEmptyLines),
    bad!(Request, "leading-bare-lf", "RFC 9112 §2.2", b"\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", BareLf),
    bad!(Request, "leading-bare-cr", "RFC 9112 §2.2", b"\rGET / HTTP/1.1\r\nHost: a\r\n\r\n", BareCr),
    // ---- Version (RFC 9112 §2.3, RFC 9110 §2.5, §15.6.6) ----
    // proves: 9110-6.2-8
    req!("http19-is-11", "RFC 9110 §2.5", b"GET / HTTP/1.9\r\nHost: a\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a")]),
    bad!(Request, "http12-needs-host", "RFC 9110 §2.5", b"GET / HTTP/1.2\r\n\r\n", MissingHost),
    bad!(Request, "http20", "RFC 9110 §15.6.6", b"GET / HTTP/2.0\r\nHost: a\r\n\r\n", UnsupportedVersion),
    bad!(Request, "http30", "RFC 9110 §15.6.6", b"GET / HTTP/3.0\r\n\r\n", UnsupportedVersion),
    bad!(Request, "C44-h2-preface", "RFC 9110 §15.6.6", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", UnsupportedVersion),
    bad!(Request, "http09-version", "RFC 9112 §2.3", b"GET / HTTP/0.9\r\n\r\n", InvalidVersion),
    bad!(Request, "C39-two-digit-minor", "RFC 9112 §2.3", b"GET /test HTTP/1.32\r\n\r\n", InvalidVersion),
    bad!(Request, "C39-cr-in-version", "RFC 9112 §2.3", b"GET / HTTP/\r\r1.1\r\n\r\n", InvalidVersion),
    bad!(Request, "C39-overflow", "RFC 9112 §2.3", b"GET / HTTP/4294967295.255\r\n\r\n", InvalidVersion),
    bad!(Request, "version-lowercase", "RFC 9112 §2.3", b"GET / http/1.1\r\nHost: a\r\n\r\n", InvalidVersion),
    bad!(Request, "version-no-dot", "RFC 9112 §2.3", b"GET / HTTP/11\r\nHost: a\r\n\r\n", InvalidVersion),
    bad!(Request, "version-suffix", "RFC 9112 §2.3", b"GET / HTTP/1.1x\r\nHost: a\r\n\r\n", InvalidVersion),
    // proves: 9112-3.2-4a, 9112-3.2-4b
    bad!(Request, "C42-space-in-target", "RFC 9112 §3.2", b"GET /foo bar HTTP/1.1\r\nHost: a\r\n\r\n", InvalidVersion),
    // ---- Target bytes (RFC 9112 §3.2, RFC 3986) ----
    req!("target-query", "RFC 9112 §3.2.1", b"GET /a/b?c=d&e HTTP/1.1\r\nHost: a\r\n\r\n", b"GET", b"/a/b?c=d&e", Origin, Http11, [(b"Host", b"a")]),
    req!("target-all-pchars", "RFC 3986 §3.3", b"GET /-._~!$&'()*+,;=:@/?/? HTTP/1.1\r\nHost: a\r\n\r\n", b"GET", b"/-._~!$&'()*+,;=:@/?/?", Origin, Http11, [(b"Host", b"a")]),
    req!("target-pct", "RFC 3986 §2.1", b"GET /a%20b%C3%a9 HTTP/1.1\r\nHost: a\r\n\r\n", b"GET", b"/a%20b%C3%a9", Origin, Http11, [(b"Host", b"a")]),
    req!("target-double-slash", "RFC 9112 §3.2.1", b"GET //x HTTP/1.1\r\nHost: a\r\n\r\n", b"GET", b"//x", Origin, Http11, [(b"Host", b"a")]),
    bad!(Request, "pct-not-hex", "RFC 3986 §2.1", b"GET /%zz HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "pct-one-digit", "RFC 3986 §2.1", b"GET /%2 HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "pct-at-end", "RFC 3986 §2.1", b"GET /% HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-fragment", "RFC 9112 §3.2", b"GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-lt", "RFC 3986 §3.3", b"GET /< HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-gt", "RFC 3986 §3.3", b"GET /> HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-dquote", "RFC 3986 §3.3", b"GET /\" HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-lbrace", "RFC 3986 §3.3", b"GET /{ HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-rbrace", "RFC 3986 §3.3", b"GET /} HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-pipe", "RFC 3986 §3.3", b"GET /| HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-backslash", "RFC 3986 §3.3", b"GET /\\ HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-caret", "RFC 3986 §3.3", b"GET /^ HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-backtick", "RFC 3986 §3.3", b"GET /` HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-bracket-origin", "RFC 3986 §3.3", b"GET /[x] HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-obs-text", "RFC 9112 §3.2", b"GET /\x80 HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    // proves: 9112-2.2-2
    bad!(Request, "target-utf8", "RFC 9112 §3.2", b"GET /caf\xc3\xa9 HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-ctl", "RFC 9112 §3.2", b"GET /\x01 HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-del", "RFC 9112 §3.2", b"GET /\x7f HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-htab", "RFC 9112 §3.2", b"GET /\t HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "target-nul", "RFC 9112 §3.2", b"GET /\x00 HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    bad!(Request, "empty-target", "RFC 9112 §3", b"GET  HTTP/1.1\r\nHost: a\r\n\r\n", InvalidStartLineSpacing),
    req!("target-at-limit", "RFC 9110 §15.5.15", b"GET /123456789abcdef HTTP/1.1\r\nHost: a\r\n\r\n", b"GET", b"/123456789abcdef", Origin, Http11, [(b"Host", b"a")], lim(1024, 100, 16)),
    // proves: 9112-3-4b
    bad!(Request, "C79-target-over-limit", "RFC 9110 §15.5.15", b"GET /123456789abcdefg HTTP/1.1\r\nHost: a\r\n\r\n", TargetTooLong, lim(1024, 100, 16)),
    bad!(Request, "absolute-target-over-limit", "RFC 9110 §15.5.15", b"GET http://example.com/x HTTP/1.1\r\nHost: a\r\n\r\n", TargetTooLong, lim(1024, 100, 16)),
    bad!(Request, "target-limit-before-bad-byte", "RFC 9110 §15.5.15", b"GET /123456789abcdefg<> HTTP/1.1\r\nHost: a\r\n\r\n", TargetTooLong, lim(1024, 100, 16)),
    bad!(Request, "bad-byte-before-target-limit", "RFC 9112 §3.2", b"GET /123456789abcde<> HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte, lim(1024, 100, 16)),
    // ---- Target forms (RFC 9112 §3.2.1–§3.2.4) ----
    // proves: 9112-3.2.2-9
    req!("absolute-form", "RFC 9112 §3.2.2", b"GET http://example.com/p?q HTTP/1.1\r\nHost: example.com\r\n\r\n", b"GET", b"http://example.com/p?q", Absolute, Http11, [(b"Host", b"example.com")]),
    req!("absolute-ipv6-port", "RFC 9112 §3.2.2", b"GET http://[::1]:8080/ HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", b"GET", b"http://[::1]:8080/", Absolute, Http11, [(b"Host", b"[::1]:8080")]),
    // proves: 9112-3.2.2-9
    req!("absolute-no-path", "RFC 9112 §3.2.2", b"GET https://a HTTP/1.1\r\nHost: other\r\n\r\n", b"GET", b"https://a", Absolute, Http11, [(b"Host", b"other")]),
    bad!(Request, "absolute-userinfo", "RFC 9110 §4.2.4", b"GET http://u@a/ HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetForm),
    bad!(Request, "absolute-empty-host", "RFC 9110 §4.2.1", b"GET http:///x HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetForm),
    bad!(Request, "absolute-bad-scheme", "RFC 3986 §3.1", b"GET 1ttp://a/ HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetForm),
    bad!(Request, "absolute-bracket-in-path", "RFC 3986 §3.3", b"GET http://a/[ HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetByte),
    req!("connect-authority", "RFC 9112 §3.2.3", b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", b"CONNECT", b"example.com:443", Authority, Http11, [(b"Host", b"example.com:443")]),
    req!("connect-ipv6", "RFC 9112 §3.2.3", b"CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\n", b"CONNECT", b"[::1]:443", Authority, Http11, [(b"Host", b"[::1]:443")]),
    // proves: 9110-9.3.6-4
    bad!(Request, "connect-no-port", "RFC 9112 §3.2.3", b"CONNECT example.com HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetForm),
    // proves: 9110-9.3.6-4
    bad!(Request, "connect-origin-form", "RFC 9112 §3.2.3", b"CONNECT / HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetForm),
    // proves: 9110-7.1-6
    bad!(Request, "authority-form-with-get", "RFC 9112 §3.2.3", b"GET example.com:443 HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetForm),
    req!("options-asterisk", "RFC 9112 §3.2.4", b"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", b"OPTIONS", b"*", Asterisk, Http11, [(b"Host", b"a")]),
    req!("options-origin", "RFC 9112 §3.2.4", b"OPTIONS /x HTTP/1.1\r\nHost: a\r\n\r\n", b"OPTIONS", b"/x", Origin, Http11, [(b"Host", b"a")]),
    // proves: 9110-7.1-6
    bad!(Request, "asterisk-with-get", "RFC 9112 §3.2.4", b"GET * HTTP/1.1\r\nHost: a\r\n\r\n", InvalidTargetForm),
    bad!(Request, "C42-bang-target", "RFC 9112 §3.2", b"GET ! HTTP/1.1\r\n\r\n", InvalidTargetForm),
    // ---- Host (RFC 9112 §3.2, RFC 9110 §7.2) ----
    // proves: 9112-3.2-6
    bad!(Request, "C36-missing-host", "RFC 9112 §3.2", b"GET / HTTP/1.1\r\n\r\n", MissingHost),
    // proves: 9112-3.2-6
    bad!(Request, "C36-duplicate-host", "RFC 9112 §3.2", b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", DuplicateHost),
    bad!(Request, "duplicate-host-case", "RFC 9112 §3.2", b"GET / HTTP/1.1\r\nHost: a\r\nhOST: a\r\n\r\n", DuplicateHost),
    bad!(Request, "duplicate-host-before-bad-value", "RFC 9112 §3.2", b"GET / HTTP/1.1\r\nHost: a\r\nHost: \x00\r\n\r\n", DuplicateHost),
    bad!(Request, "host-empty", "RFC 9110 §4.2.1", b"GET / HTTP/1.1\r\nHost:\r\n\r\n", InvalidHost),
    // proves: 9112-3.2-6
    bad!(Request, "host-path", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", InvalidHost),
    bad!(Request, "host-userinfo", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: u@a\r\n\r\n", InvalidHost),
    bad!(Request, "host-space", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n", InvalidHost),
    bad!(Request, "host-port-letter", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: a:x\r\n\r\n", InvalidHost),
    bad!(Request, "host-port-too-big", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: a:65536\r\n\r\n", InvalidHost),
    bad!(Request, "host-empty-port", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: a:\r\n\r\n", InvalidHost),
    bad!(Request, "host-comma-list", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: a, b\r\n\r\n", InvalidHost),
    bad!(Request, "http10-invalid-host", "RFC 9110 §7.2", b"GET / HTTP/1.0\r\nHost: a b\r\n\r\n", InvalidHost),
    bad!(Request, "http10-duplicate-host", "RFC 9112 §3.2", b"GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", DuplicateHost),
    bad!(Request, "C31-host-nul", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: google.com\x00.kallus.org\r\n\r\n", InvalidFieldValue),
    bad!(Request, "hostx-is-not-host", "RFC 9112 §3.2", b"GET / HTTP/1.1\r\nHostx: a\r\n\r\n", MissingHost),
    req!("host-port", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: a.example:8080\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a.example:8080")]),
    req!("host-ipv6", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: [2001:db8::1]:80\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"[2001:db8::1]:80")]),
    req!("host-ipv4", "RFC 9110 §7.2", b"GET / HTTP/1.1\r\nHost: 192.0.2.1\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"192.0.2.1")]),
    // proves: 9110-5.5-3
    req!("host-ows", "RFC 9112 §5", b"GET / HTTP/1.1\r\nhost: \t a \t\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"host", b"a")]),
    req!("host-pct-sub-delims", "RFC 3986 §3.2.2", b"GET / HTTP/1.1\r\nHost: a%2Db!$&'()*+,;=c\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a%2Db!$&'()*+,;=c")]),
    req!("host-after-fields", "RFC 9112 §3.2", b"GET / HTTP/1.1\r\nA: 1\r\nHost: h\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"A", b"1"), (b"Host", b"h")]),
    // ---- Field lines (RFC 9112 §5, RFC 9110 §5) ----
    req!("empty-value", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: a\r\nX:\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a"), (b"X", b"")]),
    req!("ows-only-value", "RFC 9112 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX: \t \r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a"), (b"X", b"")]),
    // proves: 9110-5.5-3
    req!("ows-trimmed", "RFC 9112 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX:\t a \t b \t\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a"), (b"X", b"a \t b")]),
    // proves: 9112-2.2-2, 9110-5.5-4b
    req!("C34-obs-text-kept", "RFC 9110 §5.5", b"GET /login HTTP/1.1\r\nHost: a\r\nUser: \x85admin\xa0\r\n\r\n", b"GET", b"/login", Origin, Http11, [(b"Host", b"a"), (b"User", b"\x85admin\xa0")]),
    req!("value-vchars", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: a\r\nX: !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a"), (b"X", b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")]),
    req!("value-colons", "RFC 9112 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX::a:b:\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a"), (b"X", b":a:b:")]),
    // proves: 9110-5.1-6b
    req!("name-all-tchars", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\n!#$%&'*+-.^_`|~09azAZ: v\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a"), (b"!#$%&'*+-.^_`|~09azAZ", b"v")]),
    req!("fields-in-order", "RFC 9110 §5.3", b"GET / HTTP/1.1\r\nB: 2\r\nHost: a\r\nA: 1\r\nB: 3\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"B", b"2"), (b"Host", b"a"), (b"A", b"1"), (b"B", b"3")]),
    req!("framing-values-not-judged", "RFC 9112 §6", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\nTransfer-Encoding: chunked\r\n\r\n", b"POST", b"/", Origin, Http11, [(b"Host", b"a"), (b"Content-Length", b"+5"), (b"Transfer-Encoding", b"chunked")]),
    // proves: 9110-5.5-5
    bad!(Request, "C31-nul-in-value", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: whatever\r\nTest: test\x00THESE BYTES GET DROPPED\r\nConnection: close\r\n\r\n", InvalidFieldValue),
    bad!(Request, "ctl-in-value", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x01b\r\n\r\n", InvalidFieldValue),
    bad!(Request, "del-in-value", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x7fb\r\n\r\n", InvalidFieldValue),
    bad!(Request, "us-in-value", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: a\r\nX: \x1f\r\n\r\n", InvalidFieldValue),
    bad!(Request, "vt-in-value", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x0bb\r\n\r\n", InvalidFieldValue),
    bad!(Request, "ff-in-value", "RFC 9110 §5.5", b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x0cb\r\n\r\n", InvalidFieldValue),
    // proves: 9112-2.2-4b, 9110-5.5-5
    bad!(Request, "C29-bare-cr-in-value", "RFC 9112 §2.2", b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Abc: \rxTransfer-Encoding: chunked\r\n\r\n1\r\nA\r\n0\r\n\r\n", BareCr),
    bad!(Request, "C30-cr-cr-ends-head", "RFC 9112 §2.2", b"GET / HTTP/1.1\r\nHost: a\r\n\rZGET /evil: HTTP/1.1\r\nHost: a\r\n\r\n", BareCr),
    bad!(Request, "C32-bare-lf-value", "RFC 9112 §2.2", b"GET / HTTP/1.1\r\nHost: a\r\nUseless:\n\nGET / HTTP/1.1\r\n\r\n", BareLf),
    bad!(Request, "C90-lf-crlf", "RFC 9112 §2.2", b"GET / HTTP/1.1\r\na: b\n\r\n", BareLf),
    bad!(Request, "bare-lf-head-end", "RFC 9112 §2.2", b"GET / HTTP/1.1\r\nHost: a\r\n\n", BareLf),
    // proves: 9110-5.5-5
    bad!(Request, "bare-lf-mid-value", "RFC 9112 §2.2", b"GET / HTTP/1.1\r\nHost: a\r\nX: a\nb\r\n\r\n", BareLf),
    // proves: 9112-5.1-2a
    bad!(Request, "C23-space-before-colon", "RFC 9112 §5.1", b"GET / HTTP/1.1\r\nHost: whatever\r\nContent-Length : 34\r\n\r\nGET / HTTP/1.1\r\nHost: whatever\r\n\r\n", WhitespaceBeforeColon),
    bad!(Request, "htab-before-colon", "RFC 9112 §5.1", b"GET / HTTP/1.1\r\nHost: a\r\nX\t: 1\r\n\r\n", WhitespaceBeforeColon),
    bad!(Request, "C26-no-colon", "RFC 9112 §5", b"GET / HTTP/1.1\r\nContent-Length 10\r\n\r\n0123456789", InvalidFieldName),
    bad!(Request, "C27-name-across-lines", "RFC 9112 §5", b"POST / HTTP/1.1\r\nHost: whatever\r\nTransfer-\r\nEncoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", InvalidFieldName),
    bad!(Request, "C28-empty-name", "RFC 9110 §5.1", b"GET / HTTP/1.1\r\n: ignored\r\nHost: whatever\r\n\r\n", EmptyFieldName),
    bad!(Request, "C33-obs-text-in-name", "RFC 9110 §5.1", b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length\x85: 10\r\n\r\n0123456789", InvalidFieldName),
    bad!(Request, "name-nul", "RFC 9110 §5.1", b"GET / HTTP/1.1\r\nHost: a\r\nX\x00: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-cr", "RFC 9110 §5.1", b"GET / HTTP/1.1\r\nHost: a\r\nX\r: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-lf", "RFC 9110 §5.1", b"GET / HTTP/1.1\r\nHost: a\r\nX\n\r\n", InvalidFieldName),
    bad!(Request, "name-dquote", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX\"Y: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-lparen", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX(: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-rparen", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX): 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-comma", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX,Y: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-slash", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX/Y: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-semicolon", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX;Y: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-lt", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX<: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-eq", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX=Y: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-gt", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX>: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-question", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX?: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-at", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\n@X: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-lbracket", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX[: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-backslash", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX\\: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-rbracket", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX]: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-lbrace", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX{: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-rbrace", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX}: 1\r\n\r\n", InvalidFieldName),
    bad!(Request, "name-del", "RFC 9110 §5.6.2", b"GET / HTTP/1.1\r\nHost: a\r\nX\x7f: 1\r\n\r\n", InvalidFieldName),
    // ---- obs-fold (RFC 9112 §5.2, §2.2) ----
    // proves: 9112-5.2-4
    bad!(Request, "C24-obs-fold", "RFC 9112 §5.2", b"POST / HTTP/1.1\r\nHost: a\r\nX: y\r\n Content-Length: 5\r\n\r\nhello", ObsFold),
    // proves: 9112-2.2-8
    bad!(Request, "C25-space-before-first-field", "RFC 9112 §2.2", b"GET / HTTP/1.1\r\n\tContent-Length: 1\r\n\r\nX", ObsFold),
    bad!(Request, "obs-fold-htab", "RFC 9112 §5.2", b"GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n\tb\r\n\r\n", ObsFold),
    bad!(Request, "obs-fold-after-te", "RFC 9112 §5.2", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n , identity\r\n\r\n", ObsFold),
    bad!(Request, "C35-fold-host", "RFC 9112 §5.2", b"GET /hoge HTTP/1.1\r\nHost: ex\r\n\tample.com\r\nCookie: \r\n\r\n", ObsFold),
    // ---- Limits (RFC 6585 §5) ----
    req!("fields-at-limit", "RFC 6585 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a"), (b"X", b"1")], lim(1024, 2, 64)),
    req!("head-at-limit", "RFC 6585 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX: 012\r\n\r\n", b"GET", b"/", Origin, Http11, [(b"Host", b"a"), (b"X", b"012")], lim(38, 100, 64)),
    // proves: 9110-5.4-2
    bad!(Request, "C78-too-many-fields", "RFC 6585 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\nY: 2\r\n\r\n", TooManyFields, lim(1024, 2, 64)),
    bad!(Request, "too-many-fields-first-error", "RFC 6585 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n\x00: 2\r\n\r\n", TooManyFields, lim(1024, 2, 64)),
    // proves: 9110-5.4-2
    bad!(Request, "C77-head-over-limit", "RFC 6585 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX: 0123456789\r\n\r\n", HeadTooLarge, lim(32, 100, 64)),
    bad!(Request, "leading-lines-count-in-head", "RFC 6585 §5", b"\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", HeadTooLarge, lim(30, 100, 64)),
    bad!(Request, "error-before-limit", "RFC 6585 §5", b"GET / HTTP/1.1\r\nHost: a\r\nX\x01: 0123456789\r\n\r\n", InvalidFieldName, lim(32, 100, 64)),
    // ---- Responses: status line (RFC 9112 §4) ----
    res!("status-ok", "RFC 9112 §4", b"HTTP/1.1 200 OK\r\n\r\n", Http11, 200, b"OK", []),
    res!("status-empty-reason", "RFC 9112 §4", b"HTTP/1.1 204 \r\n\r\n", Http11, 204, b"", []),
    res!("status-http10", "RFC 9112 §4", b"HTTP/1.0 404 Not Found\r\nServer: x\r\n\r\n", Http10, 404, b"Not Found", [(b"Server", b"x")]),
    res!("status-reason-obs-text", "RFC 9112 §4", b"HTTP/1.1 200 O\tK \xe9\r\n\r\n", Http11, 200, b"O\tK \xe9", []),
    res!("status-100", "RFC 9110 §15", b"HTTP/1.1 100 Continue\r\n\r\n", Http11, 100, b"Continue", []),
    res!("status-999", "RFC 9110 §15", b"HTTP/1.1 999 x\r\n\r\n", Http11, 999, b"x", []),
    // proves: 9110-6.2-8
    res!("status-http11-minor", "RFC 9110 §2.5", b"HTTP/1.7 200 \r\n\r\n", Http11, 200, b"", []),
    res!("response-no-host-rule", "RFC 9112 §3.2", b"HTTP/1.1 200 OK\r\nHost: a\r\nHost: b c\r\n\r\n", Http11, 200, b"OK", [(b"Host", b"a"), (b"Host", b"b c")]),
    bad!(Response, "status-missing-sp", "RFC 9112 §4", b"HTTP/1.1 200\r\n\r\n", InvalidStartLineSpacing),
    bad!(Response, "status-no-code", "RFC 9112 §4", b"HTTP/1.1\r\n\r\n", InvalidStartLineSpacing),
    bad!(Response, "status-double-space", "RFC 9112 §4", b"HTTP/1.1  200 OK\r\n\r\n", InvalidStartLineSpacing),
    bad!(Response, "status-two-digits", "RFC 9112 §4", b"HTTP/1.1 20 OK\r\n\r\n", InvalidStatusCode),
    bad!(Response, "status-four-digits", "RFC 9112 §4", b"HTTP/1.1 2000 OK\r\n\r\n", InvalidStatusCode),
    bad!(Response, "status-leading-zero", "RFC 9110 §15", b"HTTP/1.1 099 OK\r\n\r\n", InvalidStatusCode),
    bad!(Response, "status-letter", "RFC 9112 §4", b"HTTP/1.1 2x0 OK\r\n\r\n", InvalidStatusCode),
    bad!(Response, "status-sign", "RFC 9112 §4", b"HTTP/1.1 +20 OK\r\n\r\n", InvalidStatusCode),
    bad!(Response, "reason-ctl", "RFC 9112 §4", b"HTTP/1.1 200 O\x01K\r\n\r\n", InvalidReasonByte),
    bad!(Response, "reason-del", "RFC 9112 §4", b"HTTP/1.1 200 O\x7fK\r\n\r\n", InvalidReasonByte),
    bad!(Response, "reason-nul", "RFC 9112 §4", b"HTTP/1.1 200 \x00\r\n\r\n", InvalidReasonByte),
    bad!(Response, "status-line-bare-lf", "RFC 9112 §2.2", b"HTTP/1.1 200 OK\n\r\n", BareLf),
    bad!(Response, "reason-bare-cr", "RFC 9112 §2.2", b"HTTP/1.1 200 O\rK\r\n\r\n", BareCr),
    bad!(Response, "response-http2", "RFC 9110 §15.6.6", b"HTTP/2.0 200 OK\r\n\r\n", UnsupportedVersion),
    bad!(Response, "response-version-lowercase", "RFC 9112 §2.3", b"http/1.1 200 OK\r\n\r\n", InvalidVersion),
    bad!(Response, "response-version-tab", "RFC 9112 §4", b"HTTP/1.1\t200 OK\r\n\r\n", InvalidVersion),
    bad!(Response, "C43-status-less-response", "RFC 9112 §4", b"<html>\r\n\r\n", InvalidVersion),
    // A TLS server's answer to a plain request: a record header (RFC 8446
    // §5.1: type 21 alert or 22 handshake, then major version 3).
    bad!(Response, "tls-alert-answer", "RFC 8446 §5.1", b"\x15\x03\x03\x00\x02\x02\x46", TlsRecord),
    bad!(Response, "tls-handshake-answer", "RFC 8446 §5.1", b"\x16\x03\x01\x00\x04\x0e\x00\x00\x00", TlsRecord),
    bad!(Response, "tls-type-not-version-3", "RFC 9112 §4", b"\x16\x04\x03\x00\x00", InvalidVersion),
    bad!(Response, "tls-application-data", "RFC 9112 §4", b"\x17\x03\x03\x00\x01x", InvalidVersion),
    bad!(Response, "response-leading-crlf", "RFC 9112 §4", b"\r\nHTTP/1.1 200 OK\r\n\r\n", InvalidVersion),
    // ---- Responses: field lines and obs-fold kept (RFC 9112 §5.2) ----
    res!("response-fold-kept", "RFC 9112 §5.2", b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\nY: c\r\n\r\n", Http11, 200, b"OK", [(b"X", b"a\r\n b"), (b"Y", b"c")], true),
    res!("response-fold-twice", "RFC 9112 §5.2", b"HTTP/1.1 200 OK\r\nX: a\r\n\tb\r\n c \r\n\r\n", Http11, 200, b"OK", [(b"X", b"a\r\n\tb\r\n c")], true),
    res!("response-fold-blank", "RFC 9112 §5.2", b"HTTP/1.1 200 OK\r\nX: a\r\n  \r\n\r\n", Http11, 200, b"OK", [(b"X", b"a")], true),
    res!("response-fold-empty-first", "RFC 9112 §5.2", b"HTTP/1.1 200 OK\r\nX:\r\n b\r\n\r\n", Http11, 200, b"OK", [(b"X", b"b")], true),
    res!("response-fields", "RFC 9112 §5", b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\n", Http11, 200, b"OK", [(b"Content-Length", b"5"), (b"Content-Type", b"text/plain")]),
    bad!(ResponseRejectFold, "response-fold-rejected", "RFC 9112 §5.2", b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", ObsFold),
    // proves: 9112-2.2-8
    bad!(Response, "response-fold-first-line", "RFC 9112 §2.2", b"HTTP/1.1 200 OK\r\n X: a\r\n\r\n", ObsFold),
    bad!(Response, "response-space-before-colon", "RFC 9112 §5.1", b"HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n", WhitespaceBeforeColon),
    bad!(Response, "response-bare-lf", "RFC 9112 §2.2", b"HTTP/1.1 200 OK\r\nX: a\n\r\n", BareLf),
    bad!(Response, "response-nul", "RFC 9110 §5.5", b"HTTP/1.1 200 OK\r\nX: a\x00\r\n\r\n", InvalidFieldValue),
    bad!(Response, "response-empty-name", "RFC 9110 §5.1", b"HTTP/1.1 200 OK\r\n: a\r\n\r\n", EmptyFieldName),
    bad!(Response, "response-fold-bare-cr", "RFC 9112 §2.2", b"HTTP/1.1 200 OK\r\nX: a\r\n b\rc\r\n\r\n", BareCr),
    // ---- Field blocks / trailers (RFC 9112 §7.1.2) ----
    block!("block-empty", "RFC 9112 §7.1.2", b"\r\n", []),
    block!("block-fields", "RFC 9112 §7.1.2", b"Expires: never\r\nX-Sum: abc \r\n\r\n", [(b"Expires", b"never"), (b"X-Sum", b"abc")]),
    block!("block-no-host-rule", "RFC 9112 §7.1.2", b"Host: a\r\nHost: b c\r\n\r\n", [(b"Host", b"a"), (b"Host", b"b c")]),
    bad!(Block, "block-obs-fold", "RFC 9112 §5.2", b"X: a\r\n b\r\n\r\n", ObsFold),
    bad!(Block, "block-leading-space", "RFC 9112 §5.2", b" X: a\r\n\r\n", ObsFold),
    bad!(Block, "block-bare-lf", "RFC 9112 §2.2", b"X: a\n\r\n", BareLf),
    bad!(Block, "block-bare-lf-end", "RFC 9112 §2.2", b"\n", BareLf),
    bad!(Block, "block-empty-name", "RFC 9110 §5.1", b": a\r\n\r\n", EmptyFieldName),
    bad!(Block, "block-space-before-colon", "RFC 9112 §5.1", b"X : a\r\n\r\n", WhitespaceBeforeColon),
    bad!(Block, "block-ctl", "RFC 9110 §5.5", b"X: \x01\r\n\r\n", InvalidFieldValue),
    bad!(Block, "block-too-many", "RFC 6585 §5", b"A: 1\r\nB: 2\r\n\r\n", TooManyFields, lim(1024, 1, 64)),
];

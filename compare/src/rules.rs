//! The framing pass: http-net's strictness rules for a head that a bare parser
//! (httparse, picohttpparser) has split into method, target, version and
//! fields. With it, the parsers do the work http-net does, so that H1, H3
//! and H5 compare equal work:
//!
//! - line ends: CR LF only (both parsers take a bare LF as a line end);
//!   at most [`MAX_LEADING_EMPTY_LINES`] empty lines before a request line;
//! - method a token of at most 32 bytes (501); request target at most 8 KiB (414), of the bytes
//!   RFC 3986 allows (`%` followed by two hex digits), in a form that fits
//!   the method (origin, absolute without userinfo, authority for CONNECT
//!   only, `*` for OPTIONS only);
//! - no obs-fold in requests (picohttpparser accepts one);
//! - `Host`: exactly one in HTTP/1.1, at most one in HTTP/1.0, its value
//!   `uri-host [":" port]`;
//! - head at most 16 KiB, at most 100 fields (431);
//! - the body length (RFC 9112 §6.3, in http-net's order): `Transfer-Encoding`
//!   in 1.0, with `Content-Length`, `chunked` not final, twice, or after
//!   another coding (501); `Content-Length` digits only, equal duplicates and
//!   list members; over the 8 MiB budget (413);
//! - CONNECT with content (400); keep-alive (1.1 unless `close`, 1.0 only
//!   with `keep-alive`), upgrade (1.1, `Connection: upgrade` with an
//!   `Upgrade` field), `Expect` (1.1: every member of every line
//!   `100-continue`, else 417; ignored in 1.0): the decisions
//!   `http-net-conn` takes when it surfaces a request.
//!
//! Responses get the same line, field, length and keep-alive rules with the
//! response-side length decision (HEAD, 1xx, 204, 304: no body; 2xx to
//! CONNECT: tunnel; `chunked` not final or no length: read to close).
//!
//! The byte classes are written here, independently of `http-net-scan`.

/// Empty lines (CR LF) skipped before a request line (http-net's limit).
pub const MAX_LEADING_EMPTY_LINES: usize = 4;
/// Head limit (http-net's default): 16 KiB.
pub const MAX_HEAD: usize = 16 * 1024;
/// Field limit (http-net's default).
pub const MAX_FIELDS: usize = 100;
/// Target limit (RFC 9112 §3 asks for at least 8000 octets): 8 KiB.
pub const MAX_TARGET: usize = 8 * 1024;
/// Method length limit (RFC 9112 §3: a longer method is 501).
pub const MAX_METHOD: usize = 32;
/// Body budget (http-net's default): 8 MiB.
pub const BODY_BUDGET: u64 = 8 * 1024 * 1024;

/// How a message body is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    /// No body.
    None,
    /// `Content-Length`.
    Length(u64),
    /// Chunked.
    Chunked,
    /// Until the peer closes (responses).
    CloseDelimited,
    /// A 2xx answer to CONNECT.
    Tunnel,
}

/// What the framing pass decided about a complete head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framing {
    /// Bytes of the head, leading empty lines and final empty line included.
    pub head_len: usize,
    /// `true` for HTTP/1.1 (and other 1.x), `false` for 1.0.
    pub http11: bool,
    /// The body.
    pub body: Body,
    /// The connection persists after this message.
    pub keep_alive: bool,
    /// The request asks for a protocol upgrade (`Connection: upgrade` and an
    /// `Upgrade` field).
    pub upgrade: bool,
    /// `Expect: 100-continue` in an HTTP/1.1 request.
    pub expect_continue: bool,
}

/// The outcome of head + framing on one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A whole, valid head.
    Complete(Framing),
    /// More bytes are needed.
    Partial,
    /// Rejected; the status a server answers (responses: 502 stands for
    /// "error").
    Reject(u16),
}

/// Field lines as a parser stored them.
pub trait Fields {
    /// How many.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The name of field `i`, or `None` for a continuation line (obs-fold).
    fn name(&self, i: usize) -> Option<&[u8]>;
    /// The value of field `i`.
    fn value(&self, i: usize) -> &[u8];
    /// The offset in the head of the first byte after the value of field `i`.
    fn value_end(&self, i: usize) -> usize;
}

/// A 256-entry byte class built at compile time from a predicate on `b`.
macro_rules! table {
    (|$b:ident| $e:expr) => {{
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            let $b = i as u8;
            t[i] = $e;
            i += 1;
        }
        t
    }};
}

const fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}
const fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// `tchar` (RFC 9110 §5.6.2).
static TOKEN: [bool; 256] = table!(|b| {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
});
/// Target bytes other than `%`, `[` and `]`: pchar / "/" / "?" (RFC 3986).
static TARGET: [bool; 256] =
    table!(|b| is_unreserved(b) || is_sub_delim(b) || matches!(b, b':' | b'@' | b'/' | b'?'));
/// reg-name bytes other than `%`.
static REG_NAME: [bool; 256] = table!(|b| is_unreserved(b) || is_sub_delim(b));

/// The length of the prefix of `s` whose bytes are all in `class`: eight
/// bytes a step with one branch (the lookups ANDed), then byte by byte in
/// the step that holds the first other byte. The same answer as
/// `s.iter().position(|&b| !class[b as usize]).unwrap_or(s.len())`, its
/// general twin.
#[inline]
fn plain_prefix(s: &[u8], class: &[bool; 256]) -> usize {
    let mut done = 0;
    for step in s.chunks_exact(8) {
        if !step.iter().fold(true, |all, &b| all & class[b as usize]) {
            break;
        }
        done += 8;
    }
    done + s[done..]
        .iter()
        .position(|&b| !class[b as usize])
        .unwrap_or(s.len() - done)
}

fn is_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&b| TOKEN[b as usize])
}

/// Which framing-relevant field a name is, by length first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    Other,
    Host,
    ContentLength,
    TransferEncoding,
    Connection,
    Upgrade,
    Expect,
}

/// The name lengths [`classify`] looks at, one bit each: every other length
/// is [`Known::Other`] after one shift and test.
const KNOWN_LENGTHS: u32 = 1 << 4 | 1 << 6 | 1 << 7 | 1 << 10 | 1 << 14 | 1 << 17;

/// By length (one bitmask test), then the first letter (case folded), then
/// the rest once: most names are ruled out before any compare, and a name
/// is compared with at most one candidate.
#[inline]
fn classify(name: &[u8]) -> Known {
    let len = name.len();
    if len >= 32 || (KNOWN_LENGTHS >> len) & 1 == 0 {
        return Known::Other;
    }
    let (k, want): (Known, &[u8]) = match len {
        4 => (Known::Host, b"host"),
        6 => (Known::Expect, b"expect"),
        7 => (Known::Upgrade, b"upgrade"),
        10 => (Known::Connection, b"connection"),
        14 => (Known::ContentLength, b"content-length"),
        _ => (Known::TransferEncoding, b"transfer-encoding"),
    };
    // `want[0]` is a lowercase letter: folding the case bit of the first
    // byte cannot make a non-letter equal to it.
    if name[0] | 0x20 == want[0] && fold_eq(&name[1..], &want[1..]) {
        k
    } else {
        Known::Other
    }
}

/// SP and HTAB only.
fn trim_ows(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// `a` equals `lower` ignoring ASCII case, where `lower` is a constant of
/// lowercase letters and other bytes: eight bytes at a time, the case bit
/// folded only where `lower` has a letter (so no other byte can match by
/// folding). The same answer as `a.eq_ignore_ascii_case(lower)` for such a
/// `lower` (its general twin), in a fraction of the instructions.
#[inline(always)]
fn fold_eq(a: &[u8], lower: &[u8]) -> bool {
    if a.len() != lower.len() {
        return false;
    }
    let (mut a, mut l) = (a, lower);
    while let (Some(x), Some(y)) = (a.first_chunk::<8>(), l.first_chunk::<8>()) {
        let mut mask = [0u8; 8];
        for (m, &c) in mask.iter_mut().zip(y) {
            *m = if c.is_ascii_lowercase() { 0x20 } else { 0 };
        }
        let (x, y, mask) = (
            u64::from_le_bytes(*x),
            u64::from_le_bytes(*y),
            u64::from_le_bytes(mask),
        );
        if x | mask != y {
            return false;
        }
        a = &a[8..];
        l = &l[8..];
    }
    a.iter().zip(l).all(|(&x, &c)| {
        let m = if c.is_ascii_lowercase() { 0x20 } else { 0 };
        x | m == c
    })
}

/// Whether the line whose content ends at `at` ends in CR LF (after
/// optional trailing whitespace a parser trimmed from a value).
#[inline]
fn crlf_at(head: &[u8], mut at: usize) -> bool {
    while let Some(b' ' | b'\t') = head.get(at) {
        at += 1;
    }
    head.get(at) == Some(&b'\r')
}

/// What the fields say, gathered in one pass.
#[derive(Default)]
struct Facts {
    hosts: u32,
    /// Content-Length: `Some(Ok(n))`, `Some(Err(status))`, or `None` if absent.
    content_length: Option<Result<u64, Conflict>>,
    te_lines: u32,
    te_chunked: u32,
    te_others: u32,
    te_chunked_final: bool,
    close: bool,
    keep_alive: bool,
    upgrade_token: bool,
    upgrade_field: bool,
    expect_lines: u32,
    expect_other: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Conflict {
    Invalid,
    Differ,
}

fn content_length_members(v: &[u8], found: &mut Option<Result<u64, Conflict>>) {
    for member in v.split(|&b| b == b',') {
        if let Some(Err(_)) = found {
            return;
        }
        let m = trim_ows(member);
        let n = digits(m);
        *found = match (*found, n) {
            (_, None) => Some(Err(Conflict::Invalid)),
            (None, Some(n)) => Some(Ok(n)),
            (Some(Ok(a)), Some(n)) if a == n => Some(Ok(a)),
            (Some(Ok(_)), Some(_)) => Some(Err(Conflict::Differ)),
            (e @ Some(Err(_)), _) => e,
        };
    }
}

/// `1*DIGIT` fitting a u64.
fn digits(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &b in s {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(d))?;
    }
    Some(n)
}

fn connection_tokens(v: &[u8], f: &mut Facts) {
    for e in v.split(|&b| b == b',') {
        let e = e.trim_ascii();
        // One compare per element, chosen by its length.
        match e.len() {
            5 if fold_eq(e, b"close") => f.close = true,
            10 if fold_eq(e, b"keep-alive") => f.keep_alive = true,
            7 if fold_eq(e, b"upgrade") => f.upgrade_token = true,
            _ => {}
        }
    }
}

fn te_members(v: &[u8], f: &mut Facts) {
    for m in v.split(|&b| b == b',') {
        let m = trim_ows(m);
        if m.is_empty() {
            continue;
        }
        let chunked = fold_eq(m, b"chunked");
        if chunked {
            f.te_chunked += 1;
        } else {
            f.te_others += 1;
        }
        f.te_chunked_final = chunked;
    }
}

/// Reads every field once. `request`: Host rules and no obs-fold.
/// Returns the first status in byte order for a field-level error.
fn known<F: Fields + ?Sized>(head: &[u8], fields: &F, request: bool) -> Result<Facts, u16> {
    let bad = if request { 400 } else { 502 };
    let mut f = Facts::default();
    let mut last = Known::Other;
    for i in 0..fields.len() {
        if !crlf_at(head, fields.value_end(i)) {
            return Err(bad); // bare LF
        }
        let v = fields.value(i);
        let kind = match fields.name(i) {
            // obs-fold: an error in a request; in a response (replaced by SP)
            // it continues the previous field's value.
            None if request => return Err(400),
            None => {
                match last {
                    Known::Connection => connection_tokens(v, &mut f),
                    Known::ContentLength => {}
                    _ => {}
                }
                continue;
            }
            Some(name) => classify(name),
        };
        last = kind;
        match kind {
            Known::Other => {}
            Known::Host if request => {
                f.hosts += 1;
                if f.hosts > 1 {
                    return Err(400);
                }
                if !valid_host_port(trim_ows(v), false) {
                    return Err(400);
                }
            }
            Known::Host => {}
            Known::ContentLength => content_length_members(v, &mut f.content_length),
            Known::TransferEncoding => {
                f.te_lines += 1;
                te_members(v, &mut f);
            }
            Known::Connection => connection_tokens(v, &mut f),
            Known::Upgrade => f.upgrade_field = true,
            Known::Expect => {
                // Every member of every line must be 100-continue.
                f.expect_lines += 1;
                if trim_ows(v).is_empty()
                    || !v
                        .split(|&b| b == b',')
                        .all(|m| fold_eq(trim_ows(m), b"100-continue"))
                {
                    f.expect_other = true;
                }
            }
        }
    }
    Ok(f)
}

/// The request pass. `head` is the buffer the parser read (starting at the
/// first byte received), `head_len` the length it reported, `line_start`
/// the offset of the method (after skipped empty lines), `minor` the minor
/// version (0 for HTTP/1.0; anything else reads as 1.1).
pub fn request<F: Fields + ?Sized>(
    head: &[u8],
    head_len: usize,
    method: &[u8],
    target: &[u8],
    minor: u8,
    fields: &F,
) -> Result<Framing, u16> {
    // Request line: method, one SP, target, one SP, version, CR LF.
    // A method over the limit is 501 at its first byte over it.
    if method.len() > MAX_METHOD && is_token(&method[..=MAX_METHOD]) {
        return Err(501);
    }
    if !is_token(method) {
        return Err(400);
    }
    check_target(method, target)?;
    let line_start = method.as_ptr() as usize - head.as_ptr() as usize;
    if !leading_ok(&head[..line_start]) {
        return Err(400);
    }
    let version_end = line_start + method.len() + 1 + target.len() + 1 + 8;
    if head.get(version_end) != Some(&b'\r') {
        return Err(400);
    }
    let http11 = minor != 0;
    let f = known(head, fields, true)?;
    if head.get(head_len.wrapping_sub(2)) != Some(&b'\r') {
        return Err(400);
    }
    if http11 && f.hosts == 0 {
        return Err(400);
    }
    if head_len > MAX_HEAD {
        return Err(431);
    }
    if fields.len() > MAX_FIELDS {
        return Err(431);
    }
    let body = if f.te_lines > 0 {
        if !http11 {
            return Err(400);
        }
        if f.content_length.is_some() {
            return Err(400);
        }
        if !f.te_chunked_final {
            return Err(400);
        }
        if f.te_chunked > 1 {
            return Err(400);
        }
        if f.te_others > 0 {
            return Err(501);
        }
        Body::Chunked
    } else {
        match f.content_length {
            None => Body::None,
            Some(Err(_)) => return Err(400),
            Some(Ok(n)) if n > BODY_BUDGET => return Err(413),
            Some(Ok(n)) => Body::Length(n),
        }
    };
    // CONNECT carries no content (RFC 9110 §9.3.6).
    if method == b"CONNECT" && !matches!(body, Body::None | Body::Length(0)) {
        return Err(400);
    }
    if http11 && f.expect_other {
        return Err(417);
    }
    let keep_alive = if http11 {
        !f.close
    } else {
        f.keep_alive && !f.close
    };
    Ok(Framing {
        head_len,
        http11,
        body,
        keep_alive,
        upgrade: http11 && f.upgrade_token && f.upgrade_field,
        expect_continue: http11 && f.expect_lines > 0,
    })
}

/// The response pass (the client side): `request_method` is the method of
/// the request answered; `status_line_end` the offset just after the reason
/// phrase. Errors are reported as 502.
pub fn response<F: Fields + ?Sized>(
    head: &[u8],
    head_len: usize,
    request_method: &[u8],
    status: u16,
    minor: u8,
    reason_end: usize,
    fields: &F,
) -> Result<Framing, u16> {
    // `HTTP/1.1 200 ` : the second SP is required even with no reason.
    if head.get(12) != Some(&b' ') || !crlf_at(head, reason_end) || status < 100 {
        return Err(502);
    }
    let http11 = minor != 0;
    let f = known(head, fields, false)?;
    if head.get(head_len.wrapping_sub(2)) != Some(&b'\r') {
        return Err(502);
    }
    if head_len > MAX_HEAD || fields.len() > MAX_FIELDS {
        return Err(502);
    }
    let head_request = request_method == b"HEAD";
    let body = if head_request || (100..200).contains(&status) || status == 204 || status == 304 {
        Body::None
    } else if request_method == b"CONNECT" && (200..300).contains(&status) {
        Body::Tunnel
    } else if f.te_lines > 0 {
        if !http11 || f.content_length.is_some() || f.te_chunked > 1 {
            return Err(502);
        }
        if !f.te_chunked_final {
            Body::CloseDelimited
        } else if f.te_others > 0 {
            return Err(502);
        } else {
            Body::Chunked
        }
    } else {
        match f.content_length {
            None => Body::CloseDelimited,
            Some(Err(_)) => return Err(502),
            Some(Ok(n)) if n > BODY_BUDGET => return Err(502),
            Some(Ok(n)) => Body::Length(n),
        }
    };
    let keep_alive = body != Body::CloseDelimited
        && if http11 {
            !f.close
        } else {
            f.keep_alive && !f.close
        };
    Ok(Framing {
        head_len,
        http11,
        body,
        keep_alive,
        upgrade: false,
        expect_continue: false,
    })
}

/// At most [`MAX_LEADING_EMPTY_LINES`] CR LF pairs, and nothing else.
fn leading_ok(lead: &[u8]) -> bool {
    lead.len() <= 2 * MAX_LEADING_EMPTY_LINES && lead.chunks(2).all(|p| p == b"\r\n")
}

/// The request-target: length, bytes, form (RFC 9112 §3.2).
fn check_target(method: &[u8], t: &[u8]) -> Result<(), u16> {
    if t.len() > MAX_TARGET {
        return Err(414);
    }
    let origin = t.first() == Some(&b'/');
    // The common target is all plain bytes: one tight scan to the first
    // byte that is not (the loop below, from there, is its general twin).
    let mut i = plain_prefix(t, &TARGET);
    while let Some(&b) = t.get(i) {
        if TARGET[b as usize] {
            i += 1;
        } else if b == b'%' {
            let hex = |j: usize| t.get(j).is_some_and(|h| h.is_ascii_hexdigit());
            if !(hex(i + 1) && hex(i + 2)) {
                return Err(400);
            }
            i += 3;
        } else if (b == b'[' || b == b']') && !origin {
            i += 1;
        } else {
            return Err(400);
        }
    }
    if t.is_empty() {
        return Err(400);
    }
    if method == b"CONNECT" {
        return if valid_host_port(t, true) {
            Ok(())
        } else {
            Err(400)
        };
    }
    if origin {
        return Ok(());
    }
    if t == b"*" {
        return if method == b"OPTIONS" {
            Ok(())
        } else {
            Err(400)
        };
    }
    // absolute-form: scheme "://" authority [path] ["?" query]
    let colon = t.iter().position(|&b| b == b':').ok_or(400u16)?;
    let (scheme, rest) = t.split_at(colon);
    let scheme_ok = matches!(scheme.split_first(), Some((f, more))
        if f.is_ascii_alphabetic()
            && more.iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')));
    let after = rest.strip_prefix(b"://").ok_or(400u16)?;
    if !scheme_ok {
        return Err(400);
    }
    let end = after
        .iter()
        .position(|&b| b == b'/' || b == b'?')
        .unwrap_or(after.len());
    let (authority, path) = after.split_at(end);
    if path.iter().any(|&b| b == b'[' || b == b']') {
        return Err(400);
    }
    if authority.contains(&b'@') || !valid_host_port(authority, false) {
        return Err(400);
    }
    Ok(())
}

/// `uri-host [":" port]` (RFC 9110 §7.2, RFC 3986 §3.2.2) with a non-empty
/// host and, when the colon is there, a port of 1 to 5 digits up to 65535.
pub fn valid_host_port(v: &[u8], port_required: bool) -> bool {
    let port = if let Some(inner) = v.strip_prefix(b"[") {
        let Some(close) = inner.iter().position(|&b| b == b']') else {
            return false;
        };
        if !ip_literal(&inner[..close]) {
            return false;
        }
        &inner[close + 1..]
    } else {
        // The common host is plain reg-name bytes up to the colon or the
        // end: one scan decides it (`:` is not a reg-name byte, so the
        // first other byte being `:` makes it the first colon). Anything
        // else takes the general twin: the first colon, then `reg_name`.
        let at = plain_prefix(v, &REG_NAME);
        let colon = if matches!(v.get(at), None | Some(b':')) {
            at
        } else {
            let colon = v.iter().position(|&b| b == b':').unwrap_or(v.len());
            if !reg_name(&v[..colon]) {
                return false;
            }
            colon
        };
        if colon == 0 {
            return false;
        }
        &v[colon..]
    };
    match port.split_first() {
        None => !port_required,
        Some((b':', d)) => {
            (1..=5).contains(&d.len())
                && d.iter().all(u8::is_ascii_digit)
                && d.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0')) <= 65535
        }
        Some(_) => false,
    }
}

fn reg_name(s: &[u8]) -> bool {
    // One tight scan over the plain bytes first (the loop is its twin).
    let mut i = plain_prefix(s, &REG_NAME);
    while let Some(&b) = s.get(i) {
        if REG_NAME[b as usize] {
            i += 1;
        } else if b == b'%'
            && s.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            i += 3;
        } else {
            return false;
        }
    }
    true
}

fn ip_literal(s: &[u8]) -> bool {
    if let Some(rest) = s.strip_prefix(b"v").or_else(|| s.strip_prefix(b"V")) {
        let Some(dot) = rest.iter().position(|&b| b == b'.') else {
            return false;
        };
        let (ver, tail) = (&rest[..dot], &rest[dot + 1..]);
        return !ver.is_empty()
            && ver.iter().all(u8::is_ascii_hexdigit)
            && !tail.is_empty()
            && tail
                .iter()
                .all(|&b| is_unreserved(b) || is_sub_delim(b) || b == b':');
    }
    ipv6(s)
}

fn ipv6(s: &[u8]) -> bool {
    match s.windows(2).position(|w| w == b"::") {
        Some(at) => {
            let (head, tail) = (&s[..at], &s[at + 2..]);
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

fn groups(s: &[u8], v4_last: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    let parts: Vec<&[u8]> = s.split(|&b| b == b':').collect();
    let mut n = 0;
    for (i, g) in parts.iter().enumerate() {
        if i + 1 == parts.len() && v4_last && g.contains(&b'.') {
            if !ipv4(g) {
                return None;
            }
            n += 2;
        } else if (1..=4).contains(&g.len()) && g.iter().all(u8::is_ascii_hexdigit) {
            n += 1;
        } else {
            return None;
        }
    }
    Some(n)
}

fn ipv4(s: &[u8]) -> bool {
    let mut count = 0;
    for o in s.split(|&b| b == b'.') {
        count += 1;
        let ok = (1..=3).contains(&o.len())
            && o.iter().all(u8::is_ascii_digit)
            && !(o.len() > 1 && o[0] == b'0')
            && o.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0')) <= 255;
        if !ok {
            return false;
        }
    }
    count == 4
}

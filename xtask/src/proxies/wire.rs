//! Reading what crossed the wire: a reference request framer for what a
//! proxy sent upstream, a response reader for what came back, and the
//! `echo --format garden` JSON. These read well-formed traffic (what a
//! proxy is expected to emit) and say `Invalid` for anything else; they are
//! the judge's eyes, not a second HTTP implementation.

/// One request as the reference framer read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Method bytes.
    pub method: Vec<u8>,
    /// Target bytes.
    pub target: Vec<u8>,
    /// Version digits (`1.1`).
    pub version: Vec<u8>,
    /// Field lines: name as sent, value with SP/HTAB trimmed.
    pub fields: Vec<(Vec<u8>, Vec<u8>)>,
    /// The body after de-chunking.
    pub body: Vec<u8>,
}

/// The outcome of reading one message from the front of a buffer.
#[derive(Debug)]
pub enum Read<T> {
    /// A whole message and the bytes it took.
    Done(T, usize),
    /// A valid prefix: more bytes are needed.
    More,
    /// Not a message the reference reader frames.
    Invalid(&'static str),
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn trim(v: &[u8]) -> &[u8] {
    let start = v
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(v.len());
    let end = v
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |e| e + 1);
    &v[start..end]
}

type Fields = Vec<(Vec<u8>, Vec<u8>)>;

/// The start line and fields of a head (`head` stops before its final
/// `\r\n\r\n`).
fn head_lines(head: &[u8]) -> Result<(&[u8], Fields), &'static str> {
    if head
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\n' && (i == 0 || head[i - 1] != b'\r'))
    {
        return Err("bare LF");
    }
    let mut lines = Vec::new();
    let mut start = 0;
    while let Some(i) = find(&head[start..], b"\r\n") {
        lines.push(&head[start..start + i]);
        start += i + 2;
    }
    lines.push(&head[start..]);
    let first = lines[0];
    let mut fields = Vec::new();
    for line in &lines[1..] {
        if line.is_empty() {
            return Err("empty line inside the head");
        }
        if line[0] == b' ' || line[0] == b'\t' {
            return Err("obs-fold");
        }
        if line.contains(&b'\r') {
            return Err("bare CR");
        }
        let colon = line.iter().position(|&b| b == b':').ok_or("no colon")?;
        let name = &line[..colon];
        if name.is_empty() || name.iter().any(|b| !is_tchar(*b)) {
            return Err("invalid field name");
        }
        fields.push((name.to_vec(), trim(&line[colon + 1..]).to_vec()));
    }
    if first.contains(&b'\r') {
        return Err("bare CR");
    }
    Ok((first, fields))
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn values<'a>(fields: &'a Fields, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
    fields
        .iter()
        .filter(move |(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
        .map(|(_, v)| v.as_slice())
}

/// How a message's body is framed.
enum Framing {
    Length(usize),
    Chunked,
}

fn framing(fields: &Fields) -> Result<Framing, &'static str> {
    let te: Vec<&[u8]> = values(fields, "transfer-encoding")
        .flat_map(|v| v.split(|&b| b == b','))
        .map(trim)
        .filter(|c| !c.is_empty())
        .collect();
    let cls: Vec<&[u8]> = values(fields, "content-length")
        .flat_map(|v| v.split(|&b| b == b','))
        .map(trim)
        .collect();
    if values(fields, "transfer-encoding").next().is_some() {
        if !cls.is_empty() {
            return Err("both Content-Length and Transfer-Encoding");
        }
        return match te.as_slice() {
            [c] if c.eq_ignore_ascii_case(b"chunked") => Ok(Framing::Chunked),
            _ => Err("Transfer-Encoding other than chunked"),
        };
    }
    let mut length = None;
    for v in cls {
        if v.is_empty() || !v.iter().all(u8::is_ascii_digit) {
            return Err("invalid Content-Length");
        }
        // Leading zeros are digits too (RFC 9110 §8.6).
        let v = &v[v.iter().position(|&b| b != b'0').unwrap_or(v.len() - 1)..];
        if v.len() > 18 {
            return Err("Content-Length too large");
        }
        let n: usize = std::str::from_utf8(v)
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or("invalid Content-Length")?;
        if length.is_some_and(|l| l != n) {
            return Err("differing Content-Length values");
        }
        length = Some(n);
    }
    Ok(Framing::Length(length.unwrap_or(0)))
}

/// Decodes a chunked body at the front of `buf`: data and bytes taken.
fn dechunk(buf: &[u8]) -> Read<Vec<u8>> {
    let mut at = 0;
    let mut data = Vec::new();
    loop {
        let Some(eol) = find(&buf[at..], b"\r\n") else {
            return Read::More;
        };
        let line = &buf[at..at + eol];
        let size_part = line.split(|&b| b == b';').next().unwrap_or(b"");
        let size_part = trim(size_part);
        if size_part.is_empty()
            || size_part.len() > 15
            || !size_part.iter().all(u8::is_ascii_hexdigit)
        {
            return Read::Invalid("invalid chunk size");
        }
        let size = usize::from_str_radix(std::str::from_utf8(size_part).unwrap_or("x"), 16)
            .unwrap_or(usize::MAX);
        at += eol + 2;
        if size == 0 {
            // Trailer section: field lines until an empty line.
            loop {
                let Some(eol) = find(&buf[at..], b"\r\n") else {
                    return Read::More;
                };
                at += eol + 2;
                if eol == 0 {
                    return Read::Done(data, at);
                }
            }
        }
        if buf.len() < at + size + 2 {
            return Read::More;
        }
        data.extend_from_slice(&buf[at..at + size]);
        at += size;
        if &buf[at..at + 2] != b"\r\n" {
            return Read::Invalid("no CR LF after chunk data");
        }
        at += 2;
    }
}

/// Reads one request from the front of `buf`, as a proxy should emit it.
pub fn request(whole: &[u8]) -> Read<Request> {
    // Empty lines before a request line are ignored (RFC 9112 §2.2); they
    // count as this request's bytes.
    let mut skip = 0;
    while whole[skip..].starts_with(b"\r\n") {
        skip += 2;
    }
    match request_at(&whole[skip..]) {
        Read::Done(r, used) => Read::Done(r, skip + used),
        other => other,
    }
}

fn request_at(buf: &[u8]) -> Read<Request> {
    let Some(end) = find(buf, b"\r\n\r\n") else {
        return if buf.len() > 1 << 20 {
            Read::Invalid("head over 1 MiB")
        } else {
            Read::More
        };
    };
    let (line, fields) = match head_lines(&buf[..end]) {
        Ok(x) => x,
        Err(e) => return Read::Invalid(e),
    };
    let parts: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    let [method, target, version] = parts.as_slice() else {
        return Read::Invalid("request line is not three parts");
    };
    let Some(version) = version.strip_prefix(b"HTTP/") else {
        return Read::Invalid("no HTTP/ version");
    };
    let body_start = end + 4;
    let (body, len) = match framing(&fields) {
        Err(e) => return Read::Invalid(e),
        Ok(Framing::Length(n)) => {
            if buf.len() < body_start + n {
                return Read::More;
            }
            (buf[body_start..body_start + n].to_vec(), body_start + n)
        }
        Ok(Framing::Chunked) => match dechunk(&buf[body_start..]) {
            Read::Done(d, used) => (d, body_start + used),
            Read::More => return Read::More,
            Read::Invalid(e) => return Read::Invalid(e),
        },
    };
    Read::Done(
        Request {
            method: method.to_vec(),
            target: target.to_vec(),
            version: version.to_vec(),
            fields,
            body,
        },
        len,
    )
}

/// One response as read.
#[derive(Clone, Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Body (de-chunked).
    pub body: Vec<u8>,
}

/// Reads one response from the front of `buf`; `bodiless` for the answer
/// to a HEAD. A response framed by the close reads to the end of `buf` when
/// `eof`.
pub fn response(buf: &[u8], bodiless: bool, eof: bool) -> Read<Response> {
    let Some(end) = find(buf, b"\r\n\r\n") else {
        return Read::More;
    };
    let (line, fields) = match head_lines(&buf[..end]) {
        Ok(x) => x,
        Err(e) => return Read::Invalid(e),
    };
    if !line.starts_with(b"HTTP/1.") || line.len() < 12 {
        return Read::Invalid("not a status line");
    }
    let status = std::str::from_utf8(&line[9..12])
        .ok()
        .and_then(|s| s.parse::<u16>().ok());
    let Some(status) = status else {
        return Read::Invalid("no status code");
    };
    let body_start = end + 4;
    let nobody = bodiless || (100..200).contains(&status) || status == 204 || status == 304;
    if nobody {
        return Read::Done(
            Response {
                status,
                body: Vec::new(),
            },
            body_start,
        );
    }
    let has_framing = values(&fields, "content-length").next().is_some()
        || values(&fields, "transfer-encoding").next().is_some();
    let (body, len) = if !has_framing {
        if !eof {
            return Read::More;
        }
        (buf[body_start..].to_vec(), buf.len())
    } else {
        match framing(&fields) {
            Err(e) => return Read::Invalid(e),
            Ok(Framing::Length(n)) => {
                if buf.len() < body_start + n {
                    return Read::More;
                }
                (buf[body_start..body_start + n].to_vec(), body_start + n)
            }
            Ok(Framing::Chunked) => match dechunk(&buf[body_start..]) {
                Read::Done(d, used) => (d, body_start + used),
                Read::More => return Read::More,
                Read::Invalid(e) => return Read::Invalid(e),
            },
        }
    };
    Read::Done(Response { status, body }, len)
}

/// What `echo --format garden` saw, decoded from its JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Echo {
    /// Method bytes.
    pub method: Vec<u8>,
    /// Version digits.
    pub version: Vec<u8>,
    /// Target bytes.
    pub uri: Vec<u8>,
    /// Fields (name, trimmed value) in received order.
    pub headers: Vec<(Vec<u8>, Vec<u8>)>,
    /// De-chunked body.
    pub body: Vec<u8>,
}

impl Echo {
    /// Decodes the JSON body of an echo answer; `None` if it is not one.
    pub fn parse(json: &[u8]) -> Option<Echo> {
        let s = std::str::from_utf8(json).ok()?;
        let get = |key: &str| -> Option<Vec<u8>> {
            let pat = format!("\"{key}\":\"");
            let at = s.find(&pat)? + pat.len();
            let end = s[at..].find('"')?;
            base64(&s[at..at + end])
        };
        let hstart = s.find("\"headers\":[")? + 11;
        let hend = s[hstart..].find("],\"body\"")? + hstart;
        let strings: Vec<&str> = s[hstart..hend]
            .split('"')
            .enumerate()
            .filter(|(i, _)| i % 2 == 1)
            .map(|(_, v)| v)
            .collect();
        if strings.len() % 2 != 0 {
            return None;
        }
        let mut headers = Vec::new();
        for pair in strings.chunks(2) {
            headers.push((base64(pair[0])?, base64(pair[1])?));
        }
        Some(Echo {
            method: get("method")?,
            version: get("version")?,
            uri: get("uri")?,
            headers,
            body: get("body")?,
        })
    }

    /// Whether this is what the origin should have seen for `req`.
    pub fn matches(&self, req: &Request) -> bool {
        self.method == req.method
            && self.uri == req.target
            && self.body == req.body
            && self.headers == req.fields
    }

    /// The values of the fields named `name`.
    pub fn values(&self, name: &str) -> Vec<&[u8]> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, v)| v.as_slice())
            .collect()
    }
}

/// Standard base64 with padding (RFC 4648 §4).
pub fn base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let bytes = s.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    for q in bytes.chunks(4) {
        let pad = q.iter().rev().take_while(|&&c| c == b'=').count();
        let mut n = 0u32;
        for (i, &c) in q.iter().enumerate() {
            let v = if i >= 4 - pad { 0 } else { val(c)? };
            n = (n << 6) | v;
        }
        let b = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&b[..3 - pad]);
    }
    Some(out)
}

/// Reads every response in `buf` (answers to `heads`: for each, whether
/// it answers a HEAD), interim ones included. The second value is whether
/// bytes were left that are not a whole response.
pub fn responses(buf: &[u8], heads: &[bool], eof: bool) -> (Vec<Response>, bool) {
    let mut at = 0;
    let mut out = Vec::new();
    let mut finals = 0;
    while at < buf.len() {
        let bodiless = heads.get(finals).copied().unwrap_or(false);
        match response(&buf[at..], bodiless, eof) {
            Read::Done(r, used) => {
                if r.status >= 200 {
                    finals += 1;
                }
                out.push(r);
                at += used;
            }
            Read::More | Read::Invalid(_) => return (out, true),
        }
    }
    (out, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trip() {
        assert_eq!(base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64("aGk=").unwrap(), b"hi");
        assert_eq!(base64("YWJj").unwrap(), b"abc");
        assert_eq!(base64("").unwrap(), b"");
        assert!(base64("a").is_none());
    }

    #[test]
    fn requests_are_framed_by_cl_or_chunked() {
        let buf = b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET";
        let Read::Done(r, used) = request(buf) else {
            panic!()
        };
        assert_eq!((r.body.as_slice(), used), (&b"abc"[..], buf.len() - 3));
        let buf =
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\n";
        let Read::Done(r, used) = request(buf) else {
            panic!()
        };
        assert_eq!((r.body.as_slice(), used), (&b"abc"[..], buf.len()));
        assert!(matches!(
            request(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Read::Invalid(_)
        ));
        assert!(matches!(
            request(b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc"),
            Read::More
        ));
        let buf = b"POST / HTTP/1.1\r\nContent-Length: 0000000000000000000000000002, 2\r\n\r\nab";
        assert!(matches!(request(buf), Read::Done(_, n) if n == buf.len()));
    }

    #[test]
    fn echo_json_decodes() {
        let json = br#"{"method":"R0VU","version":"MS4x","uri":"Lw==","headers":[["SG9zdA==","YQ=="]],"body":""}"#;
        let e = Echo::parse(json).unwrap();
        assert_eq!(e.method, b"GET");
        assert_eq!(e.uri, b"/");
        assert_eq!(e.headers, vec![(b"Host".to_vec(), b"a".to_vec())]);
        let Read::Done(req, _) = request(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n") else {
            panic!()
        };
        assert!(e.matches(&req));
    }

    #[test]
    fn responses_count_interim_and_heads() {
        let buf = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        let (rs, left) = responses(buf, &[true, false], false);
        assert_eq!(
            rs.iter().map(|r| r.status).collect::<Vec<_>>(),
            [100, 200, 200]
        );
        assert!(!left);
    }
}

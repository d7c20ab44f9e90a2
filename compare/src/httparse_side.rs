//! httparse 1.x with the [`rules`](crate::rules) framing pass.
//!
//! The default build uses httparse's SIMD path (runtime-detected SSE4.2 /
//! AVX2); `RUSTFLAGS='--cfg httparse_disable_simd="1"'` builds its scalar
//! path. Responses are parsed with obs-fold allowed (a user agent replaces
//! it, RFC 9112 §5.2, as http-net's client does).

use std::mem::MaybeUninit;

use httparse::{Header, ParserConfig, Status};

use crate::rules::{self, Fields, Framing, Verdict, MAX_FIELDS, MAX_HEAD};

/// httparse's headers seen through [`Fields`].
struct Hs<'h, 'b> {
    head: &'b [u8],
    headers: &'h [Header<'b>],
}

fn offset(head: &[u8], s: &[u8]) -> Option<usize> {
    let off = (s.as_ptr() as usize).checked_sub(head.as_ptr() as usize)?;
    (off + s.len() <= head.len()).then_some(off)
}

impl Fields for Hs<'_, '_> {
    fn len(&self) -> usize {
        self.headers.len()
    }
    fn name(&self, i: usize) -> Option<&[u8]> {
        Some(self.headers[i].name.as_bytes())
    }
    fn value(&self, i: usize) -> &[u8] {
        self.headers[i].value
    }
    #[inline]
    fn value_end(&self, i: usize) -> usize {
        let h = &self.headers[i];
        if !h.value.is_empty() {
            // A non-empty value is a slice of the head: its end offset, by
            // pointer difference (`crlf_at` bounds-checks the result).
            return (h.value.as_ptr() as usize)
                .wrapping_sub(self.head.as_ptr() as usize)
                .wrapping_add(h.value.len());
        }
        // An empty value: look from just after the colon.
        offset(self.head, h.name.as_bytes()).map_or(0, |o| o + h.name.len() + 1)
    }
}

/// Field storage for [`request`] and [`response`]: reused across calls,
/// as a server reuses its storage across requests.
pub type Storage<'b> = [MaybeUninit<Header<'b>>; MAX_FIELDS];

/// Fresh field storage.
pub fn storage<'b>() -> Storage<'b> {
    [const { MaybeUninit::uninit() }; MAX_FIELDS]
}

/// Request head + framing of the head at the start of `buf`.
#[inline]
pub fn request<'b>(buf: &'b [u8], storage: &mut Storage<'b>) -> Verdict {
    let view = &buf[..buf.len().min(MAX_HEAD)];
    let mut req = httparse::Request::new(&mut []);
    match req.parse_with_uninit_headers(view, storage) {
        Ok(Status::Complete(len)) => {
            let (Some(method), Some(target), Some(minor)) = (req.method, req.path, req.version)
            else {
                return Verdict::Reject(400);
            };
            let fields = Hs {
                head: buf,
                headers: req.headers,
            };
            verdict(rules::request(
                buf,
                len,
                method.as_bytes(),
                target.as_bytes(),
                minor,
                &fields,
            ))
        }
        Ok(Status::Partial) if buf.len() > MAX_HEAD => Verdict::Reject(431),
        Ok(Status::Partial) => partial_request(buf),
        Err(httparse::Error::TooManyHeaders) => Verdict::Reject(431),
        Err(httparse::Error::Version) => request_version(buf),
        Err(_) => Verdict::Reject(400),
    }
}

/// httparse skips any number of empty lines (CR LF or LF) before a request
/// line and waits for more; http-net allows four CR LF: decide it when
/// httparse says `Partial` (the rest of the head is checked once complete).
fn partial_request(buf: &[u8]) -> Verdict {
    let mut i = 0;
    let mut lines = 0;
    loop {
        match (buf.get(i), buf.get(i + 1)) {
            (Some(b'\r'), Some(b'\n')) => {
                lines += 1;
                i += 2;
            }
            (Some(b'\n'), _) => return Verdict::Reject(400),
            _ => break,
        }
        if lines > rules::MAX_LEADING_EMPTY_LINES {
            return Verdict::Reject(400);
        }
    }
    Verdict::Partial
}

/// httparse reads only `HTTP/1.0` and `HTTP/1.1`; http-net reads another
/// `HTTP/1.x` as 1.1 and answers 505 to `HTTP/2.0` and above. On httparse's
/// version error, look at the version: the error path only, never the
/// measured one.
#[cold]
fn request_version(buf: &[u8]) -> Verdict {
    let lead = buf.chunks(2).take_while(|p| *p == b"\r\n").count() * 2;
    let line = &buf[lead..];
    let Some(sp1) = line.iter().position(|&b| b == b' ') else {
        return Verdict::Reject(400);
    };
    let Some(sp2) = line[sp1 + 1..].iter().position(|&b| b == b' ') else {
        return Verdict::Reject(400);
    };
    let at = lead + sp1 + 1 + sp2 + 1;
    let v = &buf[at..buf.len().min(at + 8)];
    match v {
        // (A version error on `HTTP/1.1` itself has another cause: 400.)
        [b'H', b'T', b'T', b'P', b'/', b'1', b'.', d]
            if d.is_ascii_digit() && *d != b'1' && *d != b'0' =>
        {
            let mut copy = buf.to_vec();
            copy[at + 7] = b'1';
            let mut s = storage();
            match request(&copy, &mut s) {
                Verdict::Complete(f) => Verdict::Complete(Framing { http11: true, ..f }),
                other => other,
            }
        }
        [b'H', b'T', b'T', b'P', b'/', m, b'.', d]
            if (b'2'..=b'9').contains(m) && d.is_ascii_digit() =>
        {
            Verdict::Reject(505)
        }
        _ => Verdict::Reject(400),
    }
}

/// Response head + framing of the head at the start of `buf`, answering a
/// request with `method`.
#[inline]
pub fn response<'b>(buf: &'b [u8], method: &[u8], storage: &mut Storage<'b>) -> Verdict {
    let view = &buf[..buf.len().min(MAX_HEAD)];
    let mut res = httparse::Response::new(&mut []);
    let mut config = ParserConfig::default();
    config.allow_obsolete_multiline_headers_in_responses(true);
    match config.parse_response_with_uninit_headers(&mut res, view, storage) {
        Ok(Status::Complete(len)) => {
            let (Some(code), Some(minor), Some(reason)) = (res.code, res.version, res.reason)
            else {
                return Verdict::Reject(502);
            };
            // httparse gives an empty reason when it holds obs-text: find
            // its end in the buffer then.
            let reason_end = match offset(buf, reason.as_bytes()) {
                Some(o) if !reason.is_empty() => o + reason.len(),
                _ => buf
                    .iter()
                    .skip(13)
                    .position(|&b| b == b'\r' || b == b'\n')
                    .map_or(13, |p| 13 + p),
            };
            let fields = Hs {
                head: buf,
                headers: res.headers,
            };
            verdict(rules::response(
                buf, len, method, code, minor, reason_end, &fields,
            ))
        }
        Ok(Status::Partial) if buf.len() > MAX_HEAD => Verdict::Reject(502),
        Ok(Status::Partial) => Verdict::Partial,
        Err(httparse::Error::Version) => response_version(buf, method),
        Err(_) => Verdict::Reject(502),
    }
}

#[cold]
fn response_version(buf: &[u8], method: &[u8]) -> Verdict {
    match buf.get(..8) {
        Some([b'H', b'T', b'T', b'P', b'/', b'1', b'.', d])
            if d.is_ascii_digit() && *d != b'1' && *d != b'0' =>
        {
            let mut copy = buf.to_vec();
            copy[7] = b'1';
            let mut s = storage();
            match response(&copy, method, &mut s) {
                Verdict::Complete(f) => Verdict::Complete(Framing { http11: true, ..f }),
                other => other,
            }
        }
        _ => Verdict::Reject(502),
    }
}

fn verdict(r: Result<Framing, u16>) -> Verdict {
    match r {
        Ok(f) => Verdict::Complete(f),
        Err(s) => Verdict::Reject(s),
    }
}

/// The head as httparse split it, for the equivalence test: method, target,
/// minor version, fields (name, value).
pub type Parts = (Vec<u8>, Vec<u8>, u8, Vec<(Vec<u8>, Vec<u8>)>);

/// httparse's view of a request head (for the equivalence and differential
/// tests: compared with http-net's wherever both accept).
pub fn request_parts(buf: &[u8]) -> Option<Parts> {
    let mut s = storage();
    let mut req = httparse::Request::new(&mut []);
    match req.parse_with_uninit_headers(buf, &mut s) {
        Ok(Status::Complete(_)) => Some((
            req.method?.as_bytes().to_vec(),
            req.path?.as_bytes().to_vec(),
            req.version?,
            req.headers
                .iter()
                .map(|h| (h.name.as_bytes().to_vec(), h.value.to_vec()))
                .collect(),
        )),
        _ => None,
    }
}

/// The chunked framing of H4 with httparse's `parse_chunk_size`: every data
/// byte copied into `out`. Returns the data length, or `None` on an error.
/// (httparse has no chunk-extension bound, no CR LF check after the data and
/// no trailer parser: this loop checks the CR LF and expects no trailers.)
#[inline]
pub fn chunked_copy_out(mut input: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    out.clear();
    loop {
        let (used, size) = match httparse::parse_chunk_size(input).ok()? {
            Status::Complete(x) => x,
            Status::Partial => return None,
        };
        input = &input[used..];
        let size = usize::try_from(size).ok()?;
        if size == 0 {
            return (input.get(..2) == Some(b"\r\n")).then_some(out.len());
        }
        let data = input.get(..size)?;
        out.extend_from_slice(data);
        if input.get(size..size + 2) != Some(b"\r\n") {
            return None;
        }
        input = &input[size + 2..];
    }
}

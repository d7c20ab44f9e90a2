//! The lean H5 loop over httparse (SPEC §4, H5; issue 26): what a
//! competent httparse user writes to answer pipelined requests, and no
//! more. Per request:
//!
//! - httparse parses into 32 uninitialised header slots
//!   (`parse_with_uninit_headers`);
//! - one pass over the fields for `Content-Length`, `Transfer-Encoding`
//!   (`chunked` last) and `Connection`, with ASCII case-insensitive
//!   compares: the length parsed and keep-alive decided;
//! - the body length checked against what is buffered;
//! - the canned answer ([`ANSWER`], 52 bytes) appended to an output `Vec`.
//!
//! Reads are `memcpy`s of 16 KiB pieces into a 32 KiB buffer, and the
//! output is handed on and cleared after each read. `ServerConn` emits the
//! same bytes for the same input (`tests/conn_sides.rs`,
//! `lean_loop_and_serverconn_answer_the_100k_requests_alike`); the heavier
//! loop with http-net's whole rule set is [`crate::pipeline`].

use std::mem::MaybeUninit;

use httparse::{Header, Status};

use crate::inputs::READ;

/// The answer: status line, `Content-Length`, the 13-byte body; no `Date`
/// (`ServerConn` writes one only when given one), 52 bytes.
pub const ANSWER: &[u8; 52] = b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!";

/// Header slots per request.
pub const SLOTS: usize = 32;

/// The receive buffer: two reads.
const BUF: usize = 2 * READ;

/// Why the lean loop stopped before the end of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// httparse rejected a head (or more than [`SLOTS`] fields).
    Parse,
    /// A `Content-Length` that is not digits, or two that differ
    /// (RFC 9112 §6.3, item 5).
    BadLength,
    /// `Transfer-Encoding` whose last coding is not `chunked`, or with
    /// `Content-Length` (RFC 9112 §6.1, §6.3 item 3): a 400.
    BadTransferEncoding,
    /// A chunked body: this loop answers requests without one (none in the
    /// H5 input), so it stops instead of decoding.
    Chunked,
    /// A head that does not fit in the receive buffer.
    TooLarge,
}

/// The framing one pass over the fields decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The body's length.
    pub body: u64,
    /// The connection persists after this request.
    pub keep_alive: bool,
}

/// One pass over `headers`: `Content-Length`, `Transfer-Encoding` and
/// `Connection` (ASCII case-insensitive), for a request of HTTP/1.`minor`.
#[inline]
pub fn decide(headers: &[Header<'_>], minor: u8) -> Result<Decided, Stop> {
    let mut length: Option<u64> = None;
    let mut te = false;
    let mut chunked = false;
    let (mut close, mut keep) = (false, false);
    for h in headers {
        let name = h.name.as_bytes();
        if name.eq_ignore_ascii_case(b"content-length") {
            let n = digits(h.value).ok_or(Stop::BadLength)?;
            if length.is_some_and(|l| l != n) {
                return Err(Stop::BadLength);
            }
            length = Some(n);
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            te = true;
            // `chunked` must be the last coding of the last line.
            let last = h.value.rsplit(|&b| b == b',').next().unwrap_or(b"");
            chunked = trim(last).eq_ignore_ascii_case(b"chunked");
        } else if name.eq_ignore_ascii_case(b"connection") {
            for token in h.value.split(|&b| b == b',') {
                let t = trim(token);
                close |= t.eq_ignore_ascii_case(b"close");
                keep |= t.eq_ignore_ascii_case(b"keep-alive");
            }
        }
    }
    let keep_alive = if minor == 1 { !close } else { keep && !close };
    if te {
        if length.is_some() || !chunked {
            return Err(Stop::BadTransferEncoding);
        }
        return Err(Stop::Chunked);
    }
    Ok(Decided {
        body: length.unwrap_or(0),
        keep_alive,
    })
}

/// A `Content-Length` value: one to 19 digits.
#[inline]
fn digits(v: &[u8]) -> Option<u64> {
    if v.is_empty() || v.len() > 19 {
        return None;
    }
    let mut n = 0u64;
    for &b in v {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u64::from(b - b'0');
    }
    Some(n)
}

#[inline]
fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// The loop's buffers, reused across runs as a connection reuses its own.
pub struct LeanLoop {
    buf: Box<[u8; BUF]>,
    out: Vec<u8>,
}

impl Default for LeanLoop {
    fn default() -> Self {
        LeanLoop::new()
    }
}

impl LeanLoop {
    /// Buffers for one connection.
    pub fn new() -> LeanLoop {
        LeanLoop {
            buf: Box::new([0; BUF]),
            out: Vec::with_capacity(2 * READ),
        }
    }

    /// Serves every request of `input`, received in 16 KiB reads; after each
    /// read the answers go to `send` and the output is cleared. Returns the
    /// number of answers, or why it stopped early.
    #[inline]
    pub fn run(&mut self, input: &[u8], mut send: impl FnMut(&[u8])) -> Result<usize, Stop> {
        let buf = &mut self.buf[..];
        let mut filled = 0;
        let mut answered = 0;
        for piece in input.chunks(READ) {
            if filled + piece.len() > BUF {
                return Err(Stop::TooLarge);
            }
            buf[filled..filled + piece.len()].copy_from_slice(piece);
            filled += piece.len();
            let mut pos = 0;
            let mut open = true;
            while open {
                // Uninitialised: making them costs nothing.
                let mut slots: [MaybeUninit<Header<'_>>; SLOTS] =
                    [const { MaybeUninit::uninit() }; SLOTS];
                let mut req = httparse::Request::new(&mut []);
                let len = match req.parse_with_uninit_headers(&buf[pos..filled], &mut slots) {
                    Ok(Status::Complete(len)) => len,
                    Ok(Status::Partial) => break,
                    Err(_) => return Err(Stop::Parse),
                };
                let d = decide(req.headers, req.version.unwrap_or(1))?;
                // The body must be buffered whole before it is answered.
                let end = (pos + len) as u64 + d.body;
                if end > filled as u64 {
                    break;
                }
                pos = end as usize;
                self.out.extend_from_slice(ANSWER);
                answered += 1;
                open = d.keep_alive;
            }
            buf.copy_within(pos..filled, 0);
            filled -= pos;
            send(&self.out);
            self.out.clear();
            if !open {
                break;
            }
        }
        Ok(answered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_and_decide(head: &[u8]) -> Result<Decided, Stop> {
        let mut slots: [MaybeUninit<Header<'_>>; SLOTS] = [const { MaybeUninit::uninit() }; SLOTS];
        let mut req = httparse::Request::new(&mut []);
        match req.parse_with_uninit_headers(head, &mut slots) {
            Ok(Status::Complete(_)) => decide(req.headers, req.version.unwrap_or(1)),
            _ => Err(Stop::Parse),
        }
    }

    #[test]
    fn the_one_pass_decides_length_and_keep_alive() {
        let d = parse_and_decide(
            b"POST / HTTP/1.1\r\nHost: a\r\ncontent-LENGTH: 12\r\nConnection: foo, Close\r\n\r\n",
        );
        assert_eq!(
            d,
            Ok(Decided {
                body: 12,
                keep_alive: false
            })
        );
        let d = parse_and_decide(b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        assert_eq!(
            d,
            Ok(Decided {
                body: 0,
                keep_alive: true
            })
        );
        let d = parse_and_decide(b"GET / HTTP/1.0\r\n\r\n");
        assert_eq!(d.map(|d| d.keep_alive), Ok(false));
        let d =
            parse_and_decide(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
        assert_eq!(d, Err(Stop::BadLength));
        let d = parse_and_decide(b"POST / HTTP/1.1\r\nContent-Length: +1\r\n\r\n");
        assert_eq!(d, Err(Stop::BadLength));
        let d = parse_and_decide(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n");
        assert_eq!(d, Err(Stop::BadTransferEncoding));
        let d = parse_and_decide(
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
        );
        assert_eq!(d, Err(Stop::BadTransferEncoding));
        let d = parse_and_decide(b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n");
        assert_eq!(d, Err(Stop::Chunked));
    }

    #[test]
    fn a_body_is_answered_once_buffered_and_skipped() {
        let mut lp = LeanLoop::new();
        let mut out = Vec::new();
        let input = b"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n\r\n";
        let n = lp.run(input, |o| out.extend_from_slice(o));
        // The third request follows a `close`: not answered.
        assert_eq!(n, Ok(2));
        assert_eq!(out, [&ANSWER[..], &ANSWER[..]].concat());
        // A body cut short is not answered.
        let n = lp.run(b"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nab", |_| {});
        assert_eq!(n, Ok(0));
    }
}

//! picohttpparser (the `picohttpparser-sys` bindings, built with `-msse4`:
//! its SSE4.2 path) with the [`rules`](crate::rules) framing pass, and its
//! in-place chunked decoder `phr_decode_chunked`.
//!
//! The FFI calls are the only `unsafe` code of this crate. The parser
//! returns pointers into the buffer it was given; they are turned back into
//! offsets and slices of that buffer without `unsafe`.

use std::os::raw::{c_char, c_int};
use std::ptr;

use picohttpparser_sys::{
    phr_chunked_decoder, phr_decode_chunked, phr_header, phr_parse_request, phr_parse_response,
};

use crate::rules::{self, Fields, Framing, Verdict, MAX_HEAD, MAX_LEADING_EMPTY_LINES};

/// Header slots: more than a 16 KiB head can hold, so that the field limit
/// is the framing pass's (431), not the parser's.
pub const SLOTS: usize = MAX_HEAD / 4 + 1;

/// Field storage, reused across calls.
pub type Storage = Vec<phr_header>;

/// Fresh field storage.
pub fn storage() -> Storage {
    vec![
        phr_header {
            name: ptr::null(),
            name_len: 0,
            value: ptr::null(),
            value_len: 0,
        };
        SLOTS
    ]
}

/// A slice of `buf` from a pointer the parser returned into it.
fn slice(buf: &[u8], p: *const c_char, len: usize) -> &[u8] {
    let off = (p as usize).wrapping_sub(buf.as_ptr() as usize);
    buf.get(off..off.wrapping_add(len)).unwrap_or(&[])
}

struct Ps<'a> {
    buf: &'a [u8],
    headers: &'a [phr_header],
}

impl Fields for Ps<'_> {
    fn len(&self) -> usize {
        self.headers.len()
    }
    fn name(&self, i: usize) -> Option<&[u8]> {
        let h = &self.headers[i];
        (!h.name.is_null()).then(|| slice(self.buf, h.name, h.name_len))
    }
    fn value(&self, i: usize) -> &[u8] {
        let h = &self.headers[i];
        slice(self.buf, h.value, h.value_len)
    }
    fn value_end(&self, i: usize) -> usize {
        let h = &self.headers[i];
        (h.value as usize).wrapping_sub(self.buf.as_ptr() as usize) + h.value_len
    }
}

/// Request head + framing of the head at the start of `buf`.
#[inline]
pub fn request(buf: &[u8], storage: &mut Storage) -> Verdict {
    // picohttpparser skips one empty line; http-net up to four.
    let mut lead = 0;
    while buf.get(lead..lead + 2) == Some(b"\r\n") && lead < 2 * MAX_LEADING_EMPTY_LINES {
        lead += 2;
    }
    match buf.get(lead) {
        Some(b'\r' | b'\n') if lead == 2 * MAX_LEADING_EMPTY_LINES => return Verdict::Reject(400),
        Some(b'\n') => return Verdict::Reject(400),
        _ => {}
    }
    let view = &buf[..buf.len().min(MAX_HEAD)];
    let rest = &view[lead.min(view.len())..];
    let mut method: *const c_char = ptr::null();
    let mut method_len = 0;
    let mut path: *const c_char = ptr::null();
    let mut path_len = 0;
    let mut minor: c_int = 0;
    let mut count = storage.len();
    // SAFETY: every pointer is valid for the length given with it; the
    // parser writes at most `count` headers into `storage`.
    let r = unsafe {
        phr_parse_request(
            rest.as_ptr().cast(),
            rest.len(),
            &mut method,
            &mut method_len,
            &mut path,
            &mut path_len,
            &mut minor,
            storage.as_mut_ptr(),
            &mut count,
            0,
        )
    };
    match r {
        -2 if buf.len() > MAX_HEAD => Verdict::Reject(431),
        -2 => Verdict::Partial,
        n if n > 0 => {
            let fields = Ps {
                buf,
                headers: &storage[..count],
            };
            let method = slice(buf, method, method_len);
            let target = slice(buf, path, path_len);
            match rules::request(buf, lead + n as usize, method, target, minor as u8, &fields) {
                Ok(f) => Verdict::Complete(f),
                Err(s) => Verdict::Reject(s),
            }
        }
        _ => Verdict::Reject(version_status(rest)),
    }
}

/// 505 for a request line that is fine up to an `HTTP/2.0`-or-above
/// version, as http-net answers; 400 otherwise (the error path only).
#[cold]
fn version_status(line: &[u8]) -> u16 {
    let mut parts = line.splitn(3, |&b| b == b' ');
    let (Some(m), Some(t), Some(v)) = (parts.next(), parts.next(), parts.next()) else {
        return 400;
    };
    let ok_so_far = !m.is_empty()
        && !t.is_empty()
        && rules::request(
            line,
            0,
            m,
            t,
            1,
            &Ps {
                buf: line,
                headers: &[],
            },
        ) != Err(414);
    match v.get(..8) {
        Some([b'H', b'T', b'T', b'P', b'/', maj, b'.', min])
            if ok_so_far && (b'2'..=b'9').contains(maj) && min.is_ascii_digit() =>
        {
            505
        }
        _ => 400,
    }
}

/// Response head + framing of the head at the start of `buf`, answering a
/// request with `method`.
#[inline]
pub fn response(buf: &[u8], method: &[u8], storage: &mut Storage) -> Verdict {
    let view = &buf[..buf.len().min(MAX_HEAD)];
    let mut minor: c_int = 0;
    let mut status: c_int = 0;
    let mut msg: *const c_char = ptr::null();
    let mut msg_len = 0;
    let mut count = storage.len();
    // SAFETY: as in `request`.
    let r = unsafe {
        phr_parse_response(
            view.as_ptr().cast(),
            view.len(),
            &mut minor,
            &mut status,
            &mut msg,
            &mut msg_len,
            storage.as_mut_ptr(),
            &mut count,
            0,
        )
    };
    match r {
        -2 if buf.len() > MAX_HEAD => Verdict::Reject(502),
        -2 => Verdict::Partial,
        n if n > 0 => {
            let fields = Ps {
                buf,
                headers: &storage[..count],
            };
            let reason_end = (msg as usize).wrapping_sub(buf.as_ptr() as usize) + msg_len;
            match rules::response(
                buf,
                n as usize,
                method,
                status as u16,
                minor as u8,
                reason_end,
                &fields,
            ) {
                Ok(f) => Verdict::Complete(Framing { ..f }),
                Err(s) => Verdict::Reject(s),
            }
        }
        _ => Verdict::Reject(502),
    }
}

/// A zeroed decoder that consumes the trailer section.
fn decoder() -> phr_chunked_decoder {
    // SAFETY: the C code documents that the decoder must be zero-filled
    // before first use; all its fields are integers.
    let mut d: phr_chunked_decoder = unsafe { std::mem::zeroed() };
    d.consume_trailer = 1;
    d
}

/// `phr_decode_chunked` over `buf` in place: returns the decoded data
/// length (the data is then at the front of `buf`), or `None` on an error
/// or an incomplete body.
#[inline]
pub fn decode_chunked_in_place(buf: &mut [u8]) -> Option<usize> {
    let mut d = decoder();
    let mut size = buf.len();
    // SAFETY: `buf` is valid for `size` bytes, read and written in place.
    let r = unsafe { phr_decode_chunked(&mut d, buf.as_mut_ptr().cast(), &mut size) };
    (r >= 0).then_some(size)
}

/// picohttpparser's request parse alone (no framing pass): the H1 stretch
/// reference. Returns the head length (or -1 / -2).
#[inline]
pub fn parse_request_only(buf: &[u8], storage: &mut Storage) -> i32 {
    let mut method: *const c_char = ptr::null();
    let mut method_len = 0;
    let mut path: *const c_char = ptr::null();
    let mut path_len = 0;
    let mut minor: c_int = 0;
    let mut count = storage.len();
    // SAFETY: as in `request`.
    unsafe {
        phr_parse_request(
            buf.as_ptr().cast(),
            buf.len(),
            &mut method,
            &mut method_len,
            &mut path,
            &mut path_len,
            &mut minor,
            storage.as_mut_ptr(),
            &mut count,
            0,
        )
    }
}

/// picohttpparser's response parse alone (no framing pass). Returns the
/// head length (or -1 / -2).
#[inline]
pub fn parse_response_only(buf: &[u8], storage: &mut Storage) -> i32 {
    let mut minor: c_int = 0;
    let mut status: c_int = 0;
    let mut msg: *const c_char = ptr::null();
    let mut msg_len = 0;
    let mut count = storage.len();
    // SAFETY: as in `request`.
    unsafe {
        phr_parse_response(
            buf.as_ptr().cast(),
            buf.len(),
            &mut minor,
            &mut status,
            &mut msg,
            &mut msg_len,
            storage.as_mut_ptr(),
            &mut count,
            0,
        )
    }
}

use alloc::vec::Vec;

use crate::EncodeError as Error;
use http_net_head::{forbidden_in_trailers, valid_field_value, valid_token};

/// The size line of one chunk, `HEX CR LF`, in a small inline buffer.
#[derive(Clone, Copy, Debug)]
pub struct ChunkHeader {
    bytes: [u8; 18],
    len: u8,
}

impl ChunkHeader {
    /// The bytes to send before the chunk data.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len as usize).unwrap_or(&[])
    }
}

/// Writes chunk framing around caller data without copying the data: the
/// size line and the closing CR LF are small buffers to send beside the
/// caller's slice (vectored writes), and the last chunk is written with its
/// optional trailers, validated like any field.
///
/// ```
/// use http_net_framing::ChunkedEncoder;
///
/// let data = b"hello world";
/// let header = ChunkedEncoder::header(data.len());
/// let parts: [&[u8]; 3] = [header.as_bytes(), data, ChunkedEncoder::CHUNK_END];
/// assert_eq!(parts.concat(), b"b\r\nhello world\r\n");
///
/// let mut end = Vec::new();
/// ChunkedEncoder::write_last(&mut end, &[(b"Digest", b"sha-256=:abc=:")]).unwrap();
/// assert_eq!(end, b"0\r\nDigest: sha-256=:abc=:\r\n\r\n");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ChunkedEncoder;

impl ChunkedEncoder {
    /// The bytes that end every chunk's data.
    pub const CHUNK_END: &'static [u8] = b"\r\n";

    /// The last chunk with an empty trailer section: the end of the body.
    pub const LAST_CHUNK: &'static [u8] = b"0\r\n\r\n";

    /// The size line for a chunk of `len` bytes (`len` > 0: a size of 0 is
    /// the last chunk, written by [`write_last`](ChunkedEncoder::write_last)
    /// or [`LAST_CHUNK`](ChunkedEncoder::LAST_CHUNK)).
    #[must_use]
    pub fn header(len: usize) -> ChunkHeader {
        let mut bytes = [0u8; 18];
        let len64 = len as u64;
        let digits = if len64 == 0 {
            1
        } else {
            (u64::BITS - len64.leading_zeros()).div_ceil(4) as usize
        };
        for (i, slot) in bytes.iter_mut().take(digits).enumerate() {
            let nibble = (len64 >> (4 * (digits - 1 - i))) & 0xf;
            *slot = b"0123456789abcdef"[nibble as usize];
        }
        bytes[digits] = b'\r';
        bytes[digits + 1] = b'\n';
        ChunkHeader {
            bytes,
            len: (digits + 2) as u8,
        }
    }

    /// Appends the last chunk and the trailer section to `out`. Each trailer
    /// name must be a token and not a framing or routing field
    /// (`Content-Length`, `Transfer-Encoding`, `Host`, `Trailer`); each value
    /// field-vchar / SP / HTAB without surrounding whitespace. On an error
    /// nothing is appended.
    pub fn write_last(out: &mut Vec<u8>, trailers: &[(&[u8], &[u8])]) -> Result<(), Error> {
        let mut len = Self::LAST_CHUNK.len();
        for (name, value) in trailers {
            check_trailer(name, value)?;
            len += name.len() + value.len() + 4;
        }
        out.reserve(len);
        out.extend_from_slice(b"0\r\n");
        for (name, value) in trailers {
            out.extend_from_slice(name);
            out.extend_from_slice(b": ");
            out.extend_from_slice(value);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        Ok(())
    }
}

/// A trailer to send: `field-name = token`, `field-value = *field-content`
/// (RFC 9110 §5.1, §5.5), and not a field that must not be sent in
/// trailers (RFC 9110 §6.5.1: [`forbidden_in_trailers`], the list the
/// strictest reader, head's front-line profile, rejects).
fn check_trailer(name: &[u8], value: &[u8]) -> Result<(), Error> {
    if !valid_token(name) {
        return Err(Error::InvalidTrailerName);
    }
    if forbidden_in_trailers(name) {
        return Err(Error::ForbiddenTrailerField);
    }
    if !valid_field_value(value) {
        return Err(Error::InvalidTrailerValue);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_lowercase_hex_without_padding() {
        assert_eq!(ChunkedEncoder::header(1).as_bytes(), b"1\r\n");
        assert_eq!(ChunkedEncoder::header(0x1000).as_bytes(), b"1000\r\n");
        assert_eq!(ChunkedEncoder::header(0xabc).as_bytes(), b"abc\r\n");
        assert_eq!(
            ChunkedEncoder::header(usize::MAX).as_bytes().len(),
            usize::BITS as usize / 4 + 2
        );
    }

    #[test]
    fn write_last_refuses_bad_trailers_and_appends_nothing() {
        let mut out = b"x".to_vec();
        let bad: [(&[u8], &[u8], Error); 7] = [
            (b"", b"v", Error::InvalidTrailerName),
            (b"a b", b"v", Error::InvalidTrailerName),
            (b"Content-Length", b"5", Error::ForbiddenTrailerField),
            (
                b"TRANSFER-ENCODING",
                b"chunked",
                Error::ForbiddenTrailerField,
            ),
            (b"x", b"a\r\nSet-Cookie: y", Error::InvalidTrailerValue),
            (b"x", b"a\0", Error::InvalidTrailerValue),
            (b"x", b" a", Error::InvalidTrailerValue),
        ];
        for (name, value, e) in bad {
            assert_eq!(
                ChunkedEncoder::write_last(&mut out, &[(b"ok", b"1"), (name, value)]),
                Err(e)
            );
            assert_eq!(out, b"x");
        }
        ChunkedEncoder::write_last(&mut out, &[]).unwrap();
        assert_eq!(out, b"x0\r\n\r\n");
        out.clear();
        // What the strictest reader (the front-line profile) rejects in a
        // trailer section, the writer does not send (RFC 9110 §6.5.1).
        for name in [
            &b"Content-Length"[..],
            b"Transfer-Encoding",
            b"Trailer",
            b"Host",
            b"Authorization",
            b"Proxy-Authorization",
            b"set-cookie",
            b"WWW-Authenticate",
            b"Proxy-Authenticate",
            b"Content-Type",
            b"CONTENT-ENCODING",
        ] {
            assert_eq!(
                ChunkedEncoder::write_last(&mut out, &[(name, b"v")]),
                Err(Error::ForbiddenTrailerField),
                "{}",
                alloc::string::String::from_utf8_lossy(name)
            );
            assert!(out.is_empty());
        }
        out.clear();
        ChunkedEncoder::write_last(&mut out, &[(b"a", b""), (b"b", b"x\ty\xff")]).unwrap();
        assert_eq!(out, b"0\r\na: \r\nb: x\ty\xff\r\n\r\n");
    }
}

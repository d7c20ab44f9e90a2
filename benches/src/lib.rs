//! Shared inputs of the http-net benchmarks: the exact bytes of
//! `benches/inputs/` (copied from the project's shared bench inputs) and the
//! generated 1 MiB bodies of H4 / H4b.

/// A browser's GET with 12 fields (H1, "parsed and answered with 204").
pub const BROWSER_GET: &[u8] = include_bytes!("../inputs/browser_get.http");
/// A minimal GET with Host (H5, pipelined).
pub const SMALL_GET: &[u8] = include_bytes!("../inputs/small_get.http");
/// A GET with 5 fields (H2, full server exchange).
pub const EXCHANGE_REQUEST: &[u8] = include_bytes!("../inputs/exchange_request.http");
/// A response with 5 fields and a 1 KiB body (H3; its fields and body are the H2 answer).
pub const RESPONSE_1K: &[u8] = include_bytes!("../inputs/response_1k.http");

/// One mebibyte.
pub const MIB: usize = 1024 * 1024;

/// `len` bytes of `a..z` repeating: the H4 / H4b body.
pub fn body_bytes(len: usize) -> Vec<u8> {
    (0..len).map(|i| b'a' + (i % 26) as u8).collect()
}

/// `body` framed as a chunked body in chunks of `chunk` bytes, last chunk and
/// empty trailer section included (hex sizes, no extensions).
pub fn chunked(body: &[u8], chunk: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + body.len() / chunk.max(1) * 8 + 5);
    for piece in body.chunks(chunk.max(1)) {
        out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_the_documented_sizes() {
        assert_eq!(BROWSER_GET.len(), 452);
        assert_eq!(SMALL_GET.len(), 44);
        assert_eq!(EXCHANGE_REQUEST.len(), 141);
        assert_eq!(RESPONSE_1K.len(), 1183);
    }

    #[test]
    fn chunked_frames_every_byte() {
        let body = body_bytes(10_000);
        let framed = chunked(&body, 4096);
        assert!(framed.starts_with(b"1000\r\nabcd"));
        assert!(framed.ends_with(b"\r\n0\r\n\r\n"));
        // 4096 + 4096 + 1808 bytes: size lines "1000", "1000", "710".
        assert_eq!(framed.len(), 10_000 + (4 + 2 + 2) * 2 + (3 + 2 + 2) + 5);
    }
}

//! The benchmark inputs: the exact bytes of `benches/inputs/` (copies of the
//! project's shared bench inputs) and the generated bodies of H4, H4b, H5.

/// A browser's GET with 12 fields (H1).
pub const BROWSER_GET: &[u8] = include_bytes!("../../benches/inputs/browser_get.http");
/// A minimal GET with Host (H5).
pub const SMALL_GET: &[u8] = include_bytes!("../../benches/inputs/small_get.http");
/// A GET with 5 fields (H2).
pub const EXCHANGE_REQUEST: &[u8] = include_bytes!("../../benches/inputs/exchange_request.http");
/// A response with 5 fields and a 1 KiB body (H3; its fields and body are the H2 answer).
pub const RESPONSE_1K: &[u8] = include_bytes!("../../benches/inputs/response_1k.http");

/// One mebibyte.
pub const MIB: usize = 1024 * 1024;
/// The size of one read in H4b and H5.
pub const READ: usize = 16 * 1024;
/// The chunk size of H4.
pub const CHUNK: usize = 4 * 1024;
/// Requests in H5.
pub const PIPELINED: usize = 100_000;

/// The H2 answer's fields other than `Content-Length` (the fields of
/// `response_1k.http`; `Date` is set by the server, as hyper does).
pub const ANSWER_FIELDS: [(&str, &str); 3] = [
    ("Server", "bench"),
    ("Content-Type", "text/plain; charset=utf-8"),
    ("Cache-Control", "no-cache"),
];
/// The `Date` value of `response_1k.http`.
pub const ANSWER_DATE: &[u8; 29] = b"Mon, 30 Nov 2026 12:00:00 GMT";

/// The 1 KiB body of `response_1k.http`.
pub fn answer_body() -> &'static [u8] {
    let head = RESPONSE_1K
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("response_1k.http has a head")
        + 4;
    &RESPONSE_1K[head..]
}

/// The H5 answer: a small plaintext response, the same bytes on every side.
pub const SMALL_ANSWER_BODY: &[u8] = b"Hello, World!";

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

/// H4b: a request head with `Content-Length: 1048576` followed by the body.
pub fn length_message() -> Vec<u8> {
    let mut m =
        format!("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: {MIB}\r\n\r\n")
            .into_bytes();
    m.extend_from_slice(&body_bytes(MIB));
    m
}

/// H4: a request head with `Transfer-Encoding: chunked` followed by the
/// 1 MiB body in 4 KiB chunks.
pub fn chunked_message() -> Vec<u8> {
    let mut m =
        b"POST /upload HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    m.extend_from_slice(&chunked(&body_bytes(MIB), CHUNK));
    m
}

/// H5: `small_get.http` repeated [`PIPELINED`] times.
pub fn pipelined() -> Vec<u8> {
    SMALL_GET.repeat(PIPELINED)
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
        assert_eq!(answer_body().len(), 1024);
    }
}

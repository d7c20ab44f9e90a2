/// The size line of one chunk, `HEX CR LF`, in a small inline buffer.
#[derive(Clone, Copy, Debug)]
pub struct ChunkHeader {
    bytes: [u8; 18],
    len: u8,
}

impl ChunkHeader {
    /// The bytes to send before the chunk data.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

/// Writes chunk framing around caller data without copying the data.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChunkedEncoder;

impl ChunkedEncoder {
    /// The bytes that end every chunk's data.
    pub const CHUNK_END: &'static [u8] = b"\r\n";

    /// The size line for a chunk of `len` bytes (`len` > 0).
    pub fn header(len: usize) -> ChunkHeader {
        let mut bytes = [0u8; 18];
        let digits = if len == 0 { 1 } else { (usize::BITS - len.leading_zeros()).div_ceil(4) as usize };
        for i in 0..digits {
            let nibble = (len >> (4 * (digits - 1 - i))) & 0xf;
            bytes[i] = b"0123456789abcdef"[nibble];
        }
        bytes[digits] = b'\r';
        bytes[digits + 1] = b'\n';
        ChunkHeader { bytes, len: (digits + 2) as u8 }
    }
}

//! Body bytes an adapter took from a connection event and could not hand
//! out yet, kept for the caller's next read: the one buffered-body step
//! every adapter (blocking or async, server or client) shares.

use alloc::vec::Vec;

/// Bytes a `Data` event surfaced that did not fit the caller's buffer,
/// handed out first on the next read. An adapter keeps one per body reader
/// (its allocation is reused from body to body).
///
/// ```
/// use http_net_conn::driver::Leftover;
///
/// let mut kept = Leftover::new();
/// let mut buf = [0u8; 4];
/// // A `Data` event of 6 bytes into a 4-byte buffer: 4 now, 2 kept.
/// assert_eq!(kept.hand_out(b"abcdef", &mut buf), 4);
/// assert_eq!(&buf, b"abcd");
/// assert_eq!(kept.take(&mut buf), 2);
/// assert_eq!(&buf[..2], b"ef");
/// assert_eq!(kept.take(&mut buf), 0); // nothing kept: poll the connection
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leftover {
    bytes: Vec<u8>,
    pos: usize,
}

impl Leftover {
    /// Nothing kept (allocates nothing).
    pub const fn new() -> Leftover {
        Leftover {
            bytes: Vec::new(),
            pos: 0,
        }
    }

    /// Copies kept bytes into `buf`: how many (0 when none are kept, or
    /// `buf` is empty).
    pub fn take(&mut self, buf: &mut [u8]) -> usize {
        let rest = self.bytes.get(self.pos..).unwrap_or(&[]);
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        n
    }

    /// Copies what fits of `data` into `buf` and keeps the rest (in place
    /// of anything kept before: call it once [`take`](Leftover::take) gave
    /// 0); how many bytes were copied.
    pub fn hand_out(&mut self, data: &[u8], buf: &mut [u8]) -> usize {
        let n = data.len().min(buf.len());
        buf[..n].copy_from_slice(&data[..n]);
        if n < data.len() {
            self.bytes.clear();
            self.bytes.extend_from_slice(&data[n..]);
            self.pos = 0;
        }
        n
    }

    /// The kept bytes not handed out yet.
    pub fn rest(&self) -> &[u8] {
        self.bytes.get(self.pos..).unwrap_or(&[])
    }

    /// Forgets the kept bytes (keeping the allocation).
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.pos = 0;
    }
}

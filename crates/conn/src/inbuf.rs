//! The bounded input buffer: allocated once (a whole head plus one read), read
//! into through [`InBuf::spare`] and [`InBuf::commit`], and compacted only
//! when the free room at its end falls below one read. A region can be held
//! in place across compaction (the server keeps the current request's head
//! until its response is complete).

use alloc::vec;
use alloc::vec::Vec;

/// A region kept across compaction: start offset and length.
pub(crate) type Held = Option<(usize, usize)>;

#[derive(Debug)]
pub(crate) struct InBuf {
    buf: Vec<u8>,
    /// First unread byte.
    pub(crate) pos: usize,
    /// End of the received bytes.
    pub(crate) filled: usize,
    /// The peer closed its sending side.
    pub(crate) eof: bool,
    read_chunk: usize,
    wipe: bool,
    wiped_to: usize,
}

impl InBuf {
    /// The buffer's length for a whole head plus one read.
    pub(crate) fn len_for(head_bytes: usize, read_chunk: usize) -> usize {
        head_bytes.saturating_add(read_chunk.max(1))
    }

    pub(crate) fn new(head_bytes: usize, read_chunk: usize) -> InBuf {
        let read_chunk = read_chunk.max(1);
        InBuf {
            buf: vec![0; InBuf::len_for(head_bytes, read_chunk)],
            pos: 0,
            filled: 0,
            eof: false,
            read_chunk,
            wipe: false,
            wiped_to: 0,
        }
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf
    }

    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.buf
    }

    /// The unread bytes.
    pub(crate) fn unread(&self) -> &[u8] {
        &self.buf[self.pos..self.filled]
    }

    pub(crate) fn has_unread(&self) -> bool {
        self.pos < self.filled
    }

    pub(crate) fn wiping(&self) -> bool {
        self.wipe
    }

    pub(crate) fn set_wipe(&mut self, wipe: bool) {
        self.wipe = wipe;
        self.wiped_to = self.pos;
    }

    /// Makes room at the end if less than one read is free, keeping `held`
    /// (moved to offset 0) and the unread bytes. Returns whether bytes moved:
    /// then the held region starts at 0 and every consumed byte is gone (and
    /// zeroed when wiping).
    #[inline]
    pub(crate) fn make_room(&mut self, held: Held) -> bool {
        // Fast path, general twin `compact` (the two common answers inline,
        // the copying out of line): H2 -31, H3 client -24 instructions per
        // exchange (docs/DECISIONS.md, D-18).
        #[cfg(not(http_net_general_path))]
        {
            if self.pos == self.filled && held.is_none() {
                if self.wipe {
                    return self.compact(held); // zeroes what it forgets
                }
                // Nothing to keep: start over without copying.
                let moved = self.filled != 0;
                self.pos = 0;
                self.filled = 0;
                self.wiped_to = 0;
                return moved;
            }
            if self.buf.len() - self.filled >= self.read_chunk {
                return false;
            }
        }
        self.compact(held)
    }

    /// [`make_room`](InBuf::make_room) in full (out of line: the part that
    /// moves bytes).
    #[inline(never)]
    fn compact(&mut self, held: Held) -> bool {
        if self.pos == self.filled && held.is_none() {
            // Nothing to keep: start over without copying.
            if self.filled == 0 {
                return false;
            }
            if self.wipe {
                self.buf[..self.filled].fill(0);
            }
            self.pos = 0;
            self.filled = 0;
            self.wiped_to = 0;
            return true;
        }
        if self.buf.len() - self.filled >= self.read_chunk {
            return false;
        }
        let (keep_len, src_start) = match held {
            Some((start, len)) => (len, start),
            None => (0, self.pos),
        };
        let reclaimable = src_start + (self.pos - (src_start + keep_len));
        if reclaimable == 0 {
            return false;
        }
        let old_filled = self.filled;
        if keep_len > 0 && src_start > 0 {
            self.buf.copy_within(src_start..src_start + keep_len, 0);
        }
        let unread = self.filled - self.pos;
        // Fast path, general twin the copy of zero bytes: nothing unread (a
        // body read that ended at the read's end), no copy call: -26
        // instructions per read (docs/PERFORMANCE.md, "The instruction-count
        // pass", 16).
        if unread > 0 || cfg!(http_net_general_path) {
            self.buf.copy_within(self.pos..self.filled, keep_len);
        }
        self.pos = keep_len;
        self.filled = keep_len + unread;
        if self.wipe {
            self.buf[self.filled..old_filled].fill(0);
        }
        self.wiped_to = self.pos;
        true
    }

    /// Forgets every byte (zeroed first when wiping), keeping the
    /// allocation and the wipe setting: as [`new`](InBuf::new) left it.
    pub(crate) fn reset(&mut self) {
        if self.wipe {
            self.buf[..self.filled].fill(0);
        }
        self.pos = 0;
        self.filled = 0;
        self.eof = false;
        self.wiped_to = 0;
    }

    /// Whether the buffer is lent (see [`lend`](InBuf::lend)): it is empty
    /// then, so there is no room to read into and nothing unread.
    pub(crate) fn is_lent(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes the buffer holds allocated (none while lent).
    pub(crate) fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Hands the allocation out (zeroed whole first when wiping), leaving an
    /// empty buffer; only with nothing unread (the caller checks).
    pub(crate) fn lend(&mut self) -> Vec<u8> {
        if self.wipe {
            self.buf.fill(0);
        }
        self.pos = 0;
        self.filled = 0;
        self.wiped_to = 0;
        core::mem::take(&mut self.buf)
    }

    /// Takes an allocation back, resized to `len` bytes (the length
    /// [`len_for`](InBuf::len_for) gives for the configuration). Resizing a
    /// buffer of the right length does nothing; a shorter one grows
    /// (reallocating if its capacity is short), a longer one is cut.
    pub(crate) fn restore(&mut self, mut buf: Vec<u8>, len: usize) {
        buf.resize(len, 0);
        self.buf = buf;
        self.pos = 0;
        self.filled = 0;
        self.wiped_to = 0;
    }

    /// Free room at the end.
    pub(crate) fn spare(&mut self) -> &mut [u8] {
        &mut self.buf[self.filled..]
    }

    /// `n` bytes were written into [`spare`](InBuf::spare).
    pub(crate) fn commit(&mut self, n: usize) {
        self.filled = (self.filled + n).min(self.buf.len());
    }

    /// Copies what fits of `bytes`.
    #[cfg(test)]
    pub(crate) fn recv(&mut self, bytes: &[u8]) -> usize {
        let n = copy_what_fits(self.spare(), bytes);
        self.commit(n);
        n
    }

    /// No room at the end and nothing that compaction could reclaim.
    pub(crate) fn is_stuck(&self, held: Held) -> bool {
        let keep_start = held.map_or(self.pos, |h| h.0);
        let keep_len = held.map_or(0, |h| h.1);
        self.filled == self.buf.len() && keep_start == 0 && self.pos == keep_len
    }

    /// With wiping on, zeroes the consumed bytes not yet zeroed, except the
    /// `held` region.
    pub(crate) fn wipe_consumed(&mut self, held: Held) {
        if !self.wipe || self.wiped_to >= self.pos {
            return;
        }
        let (from, to) = (self.wiped_to, self.pos);
        match held {
            Some((s, l)) if s < to && s + l > from => {
                self.buf[from..s.max(from)].fill(0);
                self.buf[(s + l).min(to)..to].fill(0);
            }
            _ => self.buf[from..to].fill(0),
        }
        self.wiped_to = to;
    }

    /// With wiping on, zeroes a released region.
    pub(crate) fn wipe_region(&mut self, start: usize, len: usize) {
        if self.wipe {
            let end = (start + len).min(self.pos);
            if start < end {
                self.buf[start..end].fill(0);
            }
        }
    }
}

/// Copies as much of `bytes` as fits into `spare`; returns how many.
pub(crate) fn copy_what_fits(spare: &mut [u8], bytes: &[u8]) -> usize {
    let n = spare.len().min(bytes.len());
    spare[..n].copy_from_slice(&bytes[..n]);
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compacts_only_when_room_runs_out() {
        let mut b = InBuf::new(8, 8);
        assert_eq!(b.recv(b"012345"), 6);
        b.pos = 4;
        b.make_room(None);
        assert_eq!((b.pos, b.filled), (4, 6), "10 of 16 free: no copy");
        let mut b = InBuf::new(8, 8);
        b.recv(b"0123456789ab");
        b.pos = 6;
        b.make_room(None);
        assert_eq!(b.unread(), b"6789ab");
        assert_eq!((b.pos, b.filled), (0, 6));
    }

    #[test]
    fn starts_over_when_everything_is_consumed() {
        // Room for a read left or not, a fully consumed buffer starts over
        // at 0 (zeroed first when wiping); an empty one reports no move.
        for wipe in [false, true] {
            let mut b = InBuf::new(8, 8);
            b.set_wipe(wipe);
            assert!(!b.make_room(None));
            b.recv(b"abc");
            b.pos = 3;
            assert!(b.make_room(None), "wipe {wipe}");
            assert_eq!((b.pos, b.filled), (0, 0));
            if wipe {
                assert_eq!(&b.bytes()[..3], b"\0\0\0");
            }
            b.recv(b"0123456789ab");
            b.pos = 12;
            assert!(b.make_room(None), "wipe {wipe}");
            assert_eq!((b.pos, b.filled), (0, 0));
        }
    }

    #[test]
    fn keeps_the_held_region() {
        let mut b = InBuf::new(8, 8);
        b.recv(b"xxHEADbbbbNEXT");
        b.pos = 10;
        assert!(b.make_room(Some((2, 4))));
        assert_eq!(&b.bytes()[..4], b"HEAD");
        assert_eq!(b.unread(), b"NEXT");
        assert!(!b.is_stuck(Some((0, 4))));
    }

    #[test]
    fn wipes_consumed_bytes_but_not_the_held_region() {
        let mut b = InBuf::new(8, 8);
        b.set_wipe(true);
        b.recv(b"aaHEADbbcc");
        b.pos = 8;
        b.wipe_consumed(Some((2, 4)));
        assert_eq!(&b.bytes()[..10], b"\0\0HEAD\0\0cc");
        b.wipe_region(2, 4);
        assert_eq!(&b.bytes()[..10], b"\0\0\0\0\0\0\0\0cc");
    }
}

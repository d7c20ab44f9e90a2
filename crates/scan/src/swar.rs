//! Word-at-a-time kernels: eight bytes per `u64`, read safely with
//! `split_first_chunk` and `u64::from_le_bytes`, with scalar tails.
//!
//! SWAR is used where a class is a *range* (field values: everything from SP
//! up except DEL, plus HTAB); the word test is a filter, and the first
//! flagged byte is then checked against the class table. Classes that are
//! *sets* (token, target) use the tables: one look-up per byte, four per
//! step ([`scalar_run`]), which measured faster than eight ANDed look-ups
//! per step on names and paths.

use crate::class::{FIELD_VALUE, TARGET, TCHAR};

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The eight bytes at `buf[i..i + 8]` as a little-endian word, if there are
/// eight.
#[inline(always)]
fn word(buf: &[u8], i: usize) -> Option<u64> {
    let (w, _) = buf.get(i..)?.split_first_chunk::<8>()?;
    Some(u64::from_le_bytes(*w))
}

/// High bit set in the lanes of `x` that are zero. Lanes above the first
/// zero lane may be flagged falsely (borrow), the lowest flagged lane is
/// exact.
#[inline(always)]
const fn zero_lanes(x: u64) -> u64 {
    x.wrapping_sub(LO) & !x & HI
}

/// High bit set in the lanes of `x` below `n` (`n <= 0x80`); the lowest
/// flagged lane is exact.
#[inline(always)]
const fn lanes_below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(LO * n as u64) & !x & HI
}

/// The index of the lowest flagged lane of a non-zero mask.
#[inline(always)]
const fn first_lane(mask: u64) -> usize {
    (mask.trailing_zeros() / 8) as usize
}

/// The length of the leading run of field-value bytes
/// ([`FIELD_VALUE`]: HTAB, SP, VCHAR, obs-text): the index of the first
/// byte that is not one, or `buf.len()`.
#[inline(always)]
pub fn field_value_run(buf: &[u8]) -> usize {
    let mut i = 0;
    loop {
        match word(buf, i) {
            Some(x) => {
                // Below SP (CTLs, HTAB among them) or DEL.
                let m = lanes_below(x, 0x20) | zero_lanes(x ^ (LO * 0x7f));
                if m == 0 {
                    i += 8;
                    continue;
                }
                i += first_lane(m);
            }
            None => {
                return match buf.get(i..) {
                    Some(tail) => i + run_of(tail, &FIELD_VALUE),
                    None => buf.len(),
                }
            }
        }
        // A flagged byte (below SP, or DEL): of those, only HTAB is in the
        // class (`FIELD_VALUE`).
        match buf.get(i) {
            Some(b'\t') => i += 1,
            _ => return i,
        }
    }
}

/// The length of the leading run of token bytes ([`TCHAR`], RFC 9110 §5.6.2).
#[inline]
pub fn token_run(buf: &[u8]) -> usize {
    scalar_run(buf, &TCHAR)
}

/// The length of the leading run of bytes in `class`, one look-up per byte,
/// four per step.
#[inline]
pub fn scalar_run(buf: &[u8], class: &[bool; 256]) -> usize {
    let mut i = 0;
    let mut rest = buf;
    while let Some((w, tail)) = rest.split_first_chunk::<4>() {
        if !class[w[0] as usize] {
            return i;
        }
        if !class[w[1] as usize] {
            return i + 1;
        }
        if !class[w[2] as usize] {
            return i + 2;
        }
        if !class[w[3] as usize] {
            return i + 3;
        }
        i += 4;
        rest = tail;
    }
    i + run_of(rest, class)
}

/// The length of the leading run of request-target bytes ([`TARGET`]: the
/// RFC 3986 bytes of a path and query, without `%`, `[` and `]`).
#[inline]
pub fn target_run(buf: &[u8]) -> usize {
    scalar_run(buf, &TARGET)
}

/// Scalar: the length of the leading run of bytes in `class`.
#[inline(always)]
fn run_of(buf: &[u8], class: &[bool; 256]) -> usize {
    buf.iter()
        .position(|&b| !class[b as usize])
        .unwrap_or(buf.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_helpers() {
        assert_eq!(first_lane(zero_lanes(u64::from_le_bytes(*b"abc\0defg"))), 3);
        assert_eq!(
            first_lane(lanes_below(u64::from_le_bytes(*b"abcdefg\x1f"), 0x20)),
            7
        );
        assert_eq!(zero_lanes(u64::from_le_bytes(*b"abcdefgh")), 0);
        assert_eq!(lanes_below(u64::from_le_bytes(*b"  \x7f\xff    "), 0x20), 0);
    }

    #[test]
    fn short_and_empty_inputs() {
        assert_eq!(field_value_run(b""), 0);
        assert_eq!(field_value_run(b"a\tb\x7f"), 3);
        assert_eq!(token_run(b"Content-Length:"), 14);
        assert_eq!(target_run(b"/a/b?c=d%20"), 8);
    }
}

//! Every SWAR / table run against a naive scalar version: every byte value
//! at every lane and alignment, and proptest over random lengths and offsets.

use http_net_scan::class::{FIELD_VALUE, REG_NAME, TARGET, TCHAR};
use http_net_scan::{field_value_run, scalar_run, target_run, token_run};
use proptest::prelude::*;

fn naive_run(buf: &[u8], class: &[bool; 256]) -> usize {
    buf.iter()
        .position(|&b| !class[b as usize])
        .unwrap_or(buf.len())
}

/// Checks every kernel on `buf` against the naive versions.
fn check_all(buf: &[u8]) {
    assert_eq!(
        field_value_run(buf),
        naive_run(buf, &FIELD_VALUE),
        "{buf:?}"
    );
    assert_eq!(token_run(buf), naive_run(buf, &TCHAR), "{buf:?}");
    assert_eq!(target_run(buf), naive_run(buf, &TARGET), "{buf:?}");
    assert_eq!(scalar_run(buf, &REG_NAME), naive_run(buf, &REG_NAME));
    assert_eq!(scalar_run(buf, &FIELD_VALUE), naive_run(buf, &FIELD_VALUE));
}

/// Each of the 256 byte values at each position of backgrounds of every
/// length up to 24 (three words and a tail), at every alignment of the
/// backing array: the lane and carry logic sees every byte in every lane.
#[test]
fn every_byte_in_every_lane() {
    let backgrounds: [u8; 4] = [b'a', b' ', b'\t', 0xff];
    let mut storage = [0u8; 40];
    for &bg in &backgrounds {
        for len in 0..=24 {
            for offset in [0, 1, 3, 7] {
                for pos in 0..len {
                    for v in 0..=255u8 {
                        let buf = &mut storage[offset..offset + len];
                        buf.fill(bg);
                        buf[pos] = v;
                        check_all(buf);
                    }
                }
            }
        }
    }
}

/// Two flagged bytes in one word: the lowest one must win even when a
/// borrow from it would flag the lanes above.
#[test]
fn lowest_lane_wins_over_borrows() {
    for a in 0..=255u8 {
        for b in [0u8, 1, 9, 10, 13, 0x1f, 0x20, 0x7f, 0x80, 0xff] {
            for pa in 0..8 {
                for pb in 0..8 {
                    let mut buf = [b'x'; 8];
                    buf[pa] = a;
                    buf[pb] = b;
                    check_all(&buf);
                }
            }
        }
    }
}

fn bytes_near_http() -> impl Strategy<Value = Vec<u8>> {
    // Mostly ordinary bytes, with the interesting ones frequent.
    let byte = prop_oneof![
        8 => 0x21u8..0x7f,
        1 => Just(b'\r'),
        1 => Just(b'\n'),
        1 => Just(b' '),
        1 => Just(b'\t'),
        1 => any::<u8>(),
    ];
    proptest::collection::vec(byte, 0..200)
}

proptest! {
    #[test]
    fn kernels_equal_naive(buf in bytes_near_http(), offset in 0usize..16) {
        let start = offset.min(buf.len());
        check_all(&buf[start..]);
    }
}

//! Every SWAR / table kernel against a naive scalar version: every byte value
//! at every lane and alignment, and proptest over random lengths and offsets.

use http_net_scan::class::{FIELD_VALUE, REG_NAME, TARGET, TCHAR};
use http_net_scan::{
    field_value_run, find_byte, find_head_end, find_lf, find_line_end, scalar_run, table_run,
    target_run, token_run, HeadEnd,
};
use proptest::prelude::*;

fn naive_run(buf: &[u8], class: &[bool; 256]) -> usize {
    buf.iter()
        .position(|&b| !class[b as usize])
        .unwrap_or(buf.len())
}

fn naive_find(buf: &[u8], f: impl Fn(u8) -> bool) -> Option<usize> {
    buf.iter().position(|&b| f(b))
}

fn naive_head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4)
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
    assert_eq!(
        table_run(buf, &REG_NAME),
        naive_run(buf, &REG_NAME),
        "{buf:?}"
    );
    assert_eq!(scalar_run(buf, &REG_NAME), naive_run(buf, &REG_NAME));
    assert_eq!(table_run(buf, &TCHAR), naive_run(buf, &TCHAR));
    assert_eq!(scalar_run(buf, &FIELD_VALUE), naive_run(buf, &FIELD_VALUE));
    assert_eq!(find_lf(buf), naive_find(buf, |b| b == b'\n'));
    assert_eq!(
        find_line_end(buf),
        naive_find(buf, |b| b == b'\r' || b == b'\n')
    );
    for needle in [0u8, b'\r', b':', 0x80, 0xff] {
        assert_eq!(find_byte(buf, needle), naive_find(buf, |b| b == needle));
    }
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

#[test]
fn head_end_every_split() {
    let head = b"GET / HTTP/1.1\r\nHost: a\r\nX: \r\n\r\n\r\nrest";
    let end = naive_head_end(head).unwrap();
    for cut in 0..=head.len() {
        let mut resume = 0;
        let first = find_head_end(&head[..cut], resume);
        if let HeadEnd::NeedMore { resume_from } = first {
            resume = resume_from;
        }
        match first {
            HeadEnd::Found(e) => assert_eq!(e, end),
            HeadEnd::NeedMore { .. } => {
                assert_eq!(find_head_end(head, resume), HeadEnd::Found(end))
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
        prop_assert_eq!(
            matches!(find_head_end(&buf[start..], 0), HeadEnd::Found(e) if Some(e) == naive_head_end(&buf[start..])),
            naive_head_end(&buf[start..]).is_some()
        );
    }

    #[test]
    fn head_end_resumes(buf in bytes_near_http(), cut in 0usize..200) {
        let cut = cut.min(buf.len());
        let expect = naive_head_end(&buf);
        match find_head_end(&buf[..cut], 0) {
            HeadEnd::Found(e) => prop_assert_eq!(Some(e), expect),
            HeadEnd::NeedMore { resume_from } => match find_head_end(&buf, resume_from) {
                HeadEnd::Found(e) => prop_assert_eq!(Some(e), expect),
                HeadEnd::NeedMore { .. } => prop_assert_eq!(None, expect),
            },
        }
    }
}

//! `Content-Length = 1*DIGIT` (RFC 9110 §8.6), parsed by hand: never with
//! `str::parse`, which accepts a leading `+`, and never as a longest valid
//! prefix.

use http_net_head::{Field, FieldRefs};

use crate::syntax::{decimal, trim_ows};
use crate::Error;

/// The value of every `Content-Length` field line, read as one list: each
/// member `1*DIGIT` with optional whitespace around it, all members equal
/// (RFC 9112 §6.3 item 5). `Ok(None)` when there is no such field line.
///
/// Members are checked in received order, so the first broken rule in byte
/// order is the one reported.
#[inline]
pub(crate) fn content_length(
    refs: FieldRefs,
    fields: &[Field],
    buf: &[u8],
) -> Result<Option<u64>, Error> {
    // No field line (most requests): what the general path gives, without
    // calling it.
    if refs.is_empty() {
        return Ok(None);
    }
    // Fast path, general twin `general`: 311 -> 140 instructions per
    // `request_body` with `Content-Length: 1024` (docs/PERFORMANCE.md,
    // "Framing performance", decision 1).
    #[cfg(not(http_net_general_path))]
    if let Some(n) = plain(refs, fields, buf) {
        return Ok(Some(n));
    }
    general(refs, fields, buf)
}

/// The common case in one pass: a single field line whose value is a plain
/// run of 1 to 19 ASCII digits (19 digits always fit a `u64`). `None` for
/// anything else, which [`general`] then reads; where this returns
/// `Some(n)`, `general` returns `Ok(Some(n))` (the proptest below).
#[cfg_attr(http_net_general_path, allow(dead_code))]
#[inline]
fn plain(refs: FieldRefs, fields: &[Field], buf: &[u8]) -> Option<u64> {
    if refs.count() != 1 {
        return None;
    }
    let field = fields.get(refs.first()?)?;
    if !is_content_length(field.name.get(buf)) {
        return None;
    }
    let value = field.value.get(buf);
    if value.is_empty() || value.len() > 19 {
        return None;
    }
    let mut n: u64 = 0;
    for &b in value {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = n * 10 + u64::from(d);
    }
    Some(n)
}

/// `name.eq_ignore_ascii_case(b"content-length")` in two word compares: a
/// byte ORed with 0x20 equals a lowercase letter only when it is that letter
/// in either case; the `-` is compared exactly (0x20 not set in its mask).
#[inline]
fn is_content_length(name: &[u8]) -> bool {
    const LOW: u64 = u64::from_le_bytes(*b"content-");
    const HIGH: u64 = u64::from_le_bytes(*b"t-length");
    const LOW_MASK: u64 = u64::from_le_bytes([0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0]);
    const HIGH_MASK: u64 = u64::from_le_bytes([0x20, 0, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20]);
    let Ok(n) = <&[u8; 14]>::try_from(name) else {
        return false;
    };
    // Two eight-byte loads (bytes 0..8 and 6..14), not sixteen byte moves.
    let (Some(low), Some(high)) = (n.first_chunk::<8>(), n.last_chunk::<8>()) else {
        return false;
    };
    let (low, high) = (u64::from_le_bytes(*low), u64::from_le_bytes(*high));
    low | LOW_MASK == LOW && high | HIGH_MASK == HIGH
}

/// Every case: lists, repeated field lines, OWS, and the errors in byte
/// order.
#[inline(never)]
fn general(refs: FieldRefs, fields: &[Field], buf: &[u8]) -> Result<Option<u64>, Error> {
    let mut found: Option<u64> = None;
    for span in refs.values(b"content-length", fields, buf) {
        for member in span.get(buf).split(|&b| b == b',') {
            let n = digits(trim_ows(member))?;
            match found {
                None => found = Some(n),
                Some(m) if m == n => {}
                Some(_) => return Err(Error::ConflictingContentLength),
            }
        }
    }
    Ok(found)
}

/// `1*DIGIT` within a `u64` ([`decimal`]), as this crate's error.
pub(crate) fn digits(bytes: &[u8]) -> Result<u64, Error> {
    decimal(bytes).ok_or(Error::InvalidContentLength)
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use http_net_head::Span;
    use proptest::prelude::*;
    use std::vec;
    use std::vec::Vec;

    /// Field storage, known and buffer for `Content-Length` lines with these
    /// values (and a `Host` line before them).
    fn head_of(values: &[Vec<u8>]) -> (Vec<u8>, Vec<Field>, FieldRefs) {
        let mut buf = b"Host: a\r\n".to_vec();
        let mut fields = vec![Field {
            name: Span::new(0, 4),
            value: Span::new(6, 7),
        }];
        let mut refs = FieldRefs::EMPTY;
        for v in values {
            let n = buf.len();
            buf.extend_from_slice(b"Content-Length: ");
            let at = buf.len();
            buf.extend_from_slice(v);
            refs.push(fields.len());
            fields.push(Field {
                name: Span::new(n, n + 14),
                value: Span::new(at, buf.len()),
            });
            buf.extend_from_slice(b"\r\n");
        }
        (buf, fields, refs)
    }

    fn value() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![
            8 => b'0'..=b'9',
            1 => Just(b','),
            1 => Just(b' '),
            1 => Just(b'\t'),
            1 => Just(b'+'),
            1 => Just(b'-'),
            1 => Just(b'x'),
            1 => any::<u8>(),
        ];
        prop_oneof![
            // Plain digit runs around the u64 bound (18 to 21 digits).
            3 => proptest::collection::vec(b'0'..=b'9', 0..=22),
            1 => proptest::collection::vec(b'0'..=b'9', 18..=21),
            1 => Just(b"18446744073709551615".to_vec()),
            1 => Just(b"18446744073709551616".to_vec()),
            1 => Just(b"9999999999999999999".to_vec()),
            3 => proptest::collection::vec(byte, 0..=30),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

        /// The fast path gives the general path's answer whenever it gives
        /// one, and `content_length` always gives the general path's answer.
        #[test]
        fn fast_path_agrees_with_general(values in proptest::collection::vec(value(), 0..=3)) {
            let (buf, fields, refs) = head_of(&values);
            let general = general(refs, &fields, &buf);
            if let Some(n) = plain(refs, &fields, &buf) {
                prop_assert_eq!(general, Ok(Some(n)));
            }
            prop_assert_eq!(content_length(refs, &fields, &buf), general);
        }
    }

    #[test]
    fn name_compare_is_eq_ignore_ascii_case() {
        let base = *b"content-length";
        for upper in [false, true] {
            let mut name = base;
            if upper {
                name.make_ascii_uppercase();
            }
            assert!(is_content_length(&name));
            for i in 0..name.len() {
                for v in 0..=255u8 {
                    let mut n = name;
                    n[i] = v;
                    assert_eq!(
                        is_content_length(&n),
                        n.eq_ignore_ascii_case(b"content-length"),
                        "{n:?}"
                    );
                }
            }
        }
        assert!(!is_content_length(b"content-lengt"));
        assert!(!is_content_length(b"content-lengths"));
        assert!(!is_content_length(b""));
    }

    #[test]
    fn fast_path_takes_plain_runs_only() {
        let take = |v: &[u8]| {
            let (buf, fields, refs) = head_of(&[v.to_vec()]);
            plain(refs, &fields, &buf)
        };
        assert_eq!(take(b"1024"), Some(1024));
        assert_eq!(take(b"0"), Some(0));
        assert_eq!(
            take(b"9999999999999999999"),
            Some(9_999_999_999_999_999_999)
        );
        for other in [
            &b""[..],
            b"18446744073709551615",
            b" 5",
            b"5,5",
            b"+5",
            b"5 ",
        ] {
            assert_eq!(take(other), None, "{other:?}");
        }
        let (buf, fields, refs) = head_of(&[b"5".to_vec(), b"5".to_vec()]);
        assert_eq!(plain(refs, &fields, &buf), None);
        assert_eq!(content_length(refs, &fields, &buf), Ok(Some(5)));
    }

    #[test]
    fn digits_accepts_only_decimal_within_u64() {
        assert_eq!(digits(b"0"), Ok(0));
        assert_eq!(digits(b"010"), Ok(10));
        assert_eq!(digits(b"18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            digits(b"000000000000000000000000018446744073709551615"),
            Ok(u64::MAX)
        );
        for bad in [
            &b""[..],
            b"18446744073709551616",
            b"+5",
            b"-1",
            b"0x10",
            b"5 5",
            b"1Z",
            b"\xd9\xa0",
        ] {
            assert_eq!(digits(bad), Err(Error::InvalidContentLength), "{bad:?}");
        }
    }

    #[test]
    fn trim_ows_strips_only_sp_and_htab() {
        assert_eq!(trim_ows(b" \t5\t "), b"5");
        assert_eq!(trim_ows(b"\x0b5\x0c"), b"\x0b5\x0c");
        assert_eq!(trim_ows(b"  "), b"");
    }
}

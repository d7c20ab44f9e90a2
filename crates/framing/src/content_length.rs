//! `Content-Length = 1*DIGIT` (RFC 9110 §8.6), parsed by hand: never with
//! `str::parse`, which accepts a leading `+`, and never as a longest valid
//! prefix.

use http_net_head::{Field, FieldRefs};

use crate::Error;

/// The value of every `Content-Length` field line, read as one list: each
/// member `1*DIGIT` with optional whitespace around it, all members equal
/// (RFC 9112 §6.3 item 5). `Ok(None)` when there is no such field line.
///
/// Members are checked in received order, so the first broken rule in byte
/// order is the one reported.
pub(crate) fn content_length(
    refs: FieldRefs,
    fields: &[Field],
    buf: &[u8],
) -> Result<Option<u64>, Error> {
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

/// `1*DIGIT` with checked arithmetic: leading zeros allowed, anything that
/// does not fit a `u64` rejected.
pub(crate) fn digits(bytes: &[u8]) -> Result<u64, Error> {
    if bytes.is_empty() {
        return Err(Error::InvalidContentLength);
    }
    let mut n: u64 = 0;
    for &b in bytes {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return Err(Error::InvalidContentLength);
        }
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(d)))
            .ok_or(Error::InvalidContentLength)?;
    }
    Ok(n)
}

/// Strips SP and HTAB (OWS, RFC 9110 §5.6.3) from both ends; nothing else
/// counts as whitespace.
pub(crate) fn trim_ows(mut bytes: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = bytes {
        bytes = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = bytes {
        bytes = rest;
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

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

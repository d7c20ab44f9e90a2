//! The byte classes of the chunked grammar, with the ABNF beside them:
//! `tchar` and field values come from `http-net-scan`; the hex-digit value
//! table and the quoted-string classes, which only chunk extensions use, are
//! here.

/// `HEXDIG` (RFC 5234 §B.1, case-insensitive): the digit's value, or
/// [`NOT_HEX`].
pub(crate) const HEX: [u8; 256] = {
    let mut t = [NOT_HEX; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// Marks a byte that is not a hex digit in [`HEX`].
pub(crate) const NOT_HEX: u8 = 0xff;

/// `tchar` (RFC 9110 §5.6.2), from `http-net-scan`, the one place the head's
/// classes are defined.
pub(crate) use http_net_scan::class::TCHAR;

/// ```text
/// qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text   ; RFC 9110 §5.6.4
/// ```
pub(crate) const fn is_qdtext(b: u8) -> bool {
    matches!(b, b'\t' | b' ' | 0x21 | 0x23..=0x5b | 0x5d..=0x7e | 0x80..=0xff)
}

/// The byte after a backslash in a quoted-pair:
/// ```text
/// quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )          ; RFC 9110 §5.6.4
/// ```
pub(crate) const fn is_quoted_pair_byte(b: u8) -> bool {
    matches!(b, b'\t' | b' ' | 0x21..=0x7e | 0x80..=0xff)
}

/// A byte of a field value (RFC 9110 §5.5): field-vchar, SP or HTAB, from
/// `http-net-scan`'s `FIELD_VALUE` table.
/// ```text
/// field-vchar = VCHAR / obs-text
/// ```
pub(crate) const fn is_field_value_byte(b: u8) -> bool {
    http_net_scan::class::FIELD_VALUE[b as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_the_abnf() {
        for b in 0..=255u8 {
            let hex = (b as char).to_digit(16).map(|d| d as u8).unwrap_or(NOT_HEX);
            assert_eq!(HEX[b as usize], hex, "{b:#x}");
            let tchar = b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
            assert_eq!(TCHAR[b as usize], tchar, "{b:#x}");
            assert_eq!(
                is_qdtext(b),
                is_field_value_byte(b) && b != b'"' && b != b'\\',
                "{b:#x}"
            );
            assert_eq!(is_quoted_pair_byte(b), is_field_value_byte(b), "{b:#x}");
            assert_eq!(
                is_field_value_byte(b),
                b == b'\t' || (b >= 0x20 && b != 0x7f),
                "{b:#x}"
            );
        }
    }
}

//! The byte classes of the chunked grammar under the names its parser uses.
//! Every class is defined once, in `http-net-scan` (`class`), with its ABNF
//! beside it; this module only names the ones the chunk line and the chunk
//! extensions read.

/// `HEXDIG` (RFC 5234 §B.1, case-insensitive): the digit's value, or
/// [`NOT_HEX`].
pub(crate) use http_net_scan::class::HEX_VALUE as HEX;
/// Marks a byte that is not a hex digit in [`HEX`].
pub(crate) use http_net_scan::class::NOT_HEX;
/// `tchar` (RFC 9110 §5.6.2).
pub(crate) use http_net_scan::class::TCHAR;

/// ```text
/// qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text   ; RFC 9110 §5.6.4
/// ```
pub(crate) const fn is_qdtext(b: u8) -> bool {
    http_net_scan::class::QDTEXT[b as usize]
}

/// The byte after a backslash in a quoted-pair:
/// ```text
/// quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )          ; RFC 9110 §5.6.4
/// ```
/// which is a field-value byte (`FIELD_VALUE`).
pub(crate) const fn is_quoted_pair_byte(b: u8) -> bool {
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
            let vchar_or_ws = b == b'\t' || (b >= 0x20 && b != 0x7f);
            assert_eq!(is_quoted_pair_byte(b), vchar_or_ws, "{b:#x}");
            assert_eq!(
                is_qdtext(b),
                vchar_or_ws && b != b'"' && b != b'\\',
                "{b:#x}"
            );
        }
    }
}

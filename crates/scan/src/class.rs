//! Byte classes of the HTTP/1.1 grammar as `const` 256-entry tables: the one
//! place where a character class is defined. Each table's documentation
//! quotes the ABNF it encodes.

/// Builds a 256-entry table from a `const` predicate written inline.
macro_rules! byte_table {
    (|$b:ident| $pred:expr) => {{
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            let $b = i as u8;
            t[i] = $pred;
            i += 1;
        }
        t
    }};
}

/// `DIGIT = %x30-39` (RFC 5234 Appendix B.1).
pub const DIGIT: [bool; 256] = byte_table!(|b| b.is_ascii_digit());

/// `HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"` (RFC 5234 B.1),
/// case-insensitive as ABNF strings are (RFC 5234 §2.3), so `a`–`f` too.
pub const HEXDIG: [bool; 256] = byte_table!(|b| b.is_ascii_hexdigit());

/// The value of each `HEXDIG` byte (`0`–`9`, `a`–`f`, `A`–`F`), [`NOT_HEX`]
/// for every other byte: the chunk-size digits (RFC 9112 §7.1) read in one
/// look-up each.
pub const HEX_VALUE: [u8; 256] = {
    let mut t = [NOT_HEX; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => NOT_HEX,
        };
        i += 1;
    }
    t
};

/// Marks a byte that is not a hex digit in [`HEX_VALUE`].
pub const NOT_HEX: u8 = 0xff;

/// `ALPHA = %x41-5A / %x61-7A` (RFC 5234 B.1).
pub const ALPHA: [bool; 256] = byte_table!(|b| b.is_ascii_alphabetic());

/// ```text
/// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
///         "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA   ; RFC 9110 §5.6.2
/// ```
pub const TCHAR: [bool; 256] = byte_table!(|b| b.is_ascii_alphanumeric()
    || matches!(
        b,
        b'!' | b'#'
            | b'$'
            | b'%'
            | b'&'
            | b'\''
            | b'*'
            | b'+'
            | b'-'
            | b'.'
            | b'^'
            | b'_'
            | b'`'
            | b'|'
            | b'~'
    ));

/// A byte of a field value, a reason phrase, or the whitespace inside them:
/// ```text
/// field-value    = *field-content                       ; RFC 9110 §5.5
/// field-content  = field-vchar [ 1*( SP / HTAB / field-vchar ) field-vchar ]
/// field-vchar    = VCHAR / obs-text
/// obs-text       = %x80-FF
/// reason-phrase  = 1*( HTAB / SP / VCHAR / obs-text )    ; RFC 9112 §4
/// ```
/// So: HTAB, SP, `%x21-7E`, `%x80-FF`. Not NUL, CR, LF, other CTLs or DEL.
pub const FIELD_VALUE: [bool; 256] = byte_table!(|b| b == b'\t' || (b >= 0x20 && b != 0x7f));

/// A byte of a quoted string other than `"` and the backslash of a
/// quoted-pair:
/// ```text
/// qdtext      = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text  ; RFC 9110 §5.6.4
/// quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
/// ```
/// (The byte after the backslash of a quoted-pair is a [`FIELD_VALUE`] byte.)
pub const QDTEXT: [bool; 256] = byte_table!(|b| FIELD_VALUE[b as usize] && b != b'"' && b != b'\\');

/// `OWS = *( SP / HTAB )` (RFC 9110 §5.6.3): the bytes trimmed around a
/// field value.
pub const OWS: [bool; 256] = byte_table!(|b| b == b' ' || b == b'\t');

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3).
pub const UNRESERVED: [bool; 256] =
    byte_table!(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));

/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`
/// (RFC 3986 §2.2).
pub const SUB_DELIMS: [bool; 256] = byte_table!(|b| matches!(
    b,
    b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
));

/// A byte of a request target other than the `%` of a pct-encoding
/// (RFC 9112 §3.2, RFC 3986 §3.3–§3.4):
/// ```text
/// pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
/// query = *( pchar / "/" / "?" )
/// ```
/// `%` is deliberately left out: a run of these bytes stops at it so that
/// the caller can check the two `HEXDIG` of `pct-encoded`. `[` and `]`
/// (IP-literal hosts of the absolute and authority forms) are left out too;
/// the caller allows them only inside an authority.
pub const TARGET: [bool; 256] = byte_table!(|b| UNRESERVED[b as usize]
    || SUB_DELIMS[b as usize]
    || matches!(b, b':' | b'@' | b'/' | b'?'));

/// `reg-name = *( unreserved / pct-encoded / sub-delims )` (RFC 3986 §3.2.2),
/// again without the `%` that starts `pct-encoded`.
pub const REG_NAME: [bool; 256] = byte_table!(|b| UNRESERVED[b as usize] || SUB_DELIMS[b as usize]);

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1):
/// the bytes after the first.
pub const SCHEME: [bool; 256] =
    byte_table!(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));

#[cfg(test)]
mod tests {
    use super::*;

    /// Each table against a hand-written list, over all 256 byte values.
    #[test]
    fn tables_match_their_abnf() {
        for i in 0..=255u8 {
            let c = i as char;
            let alnum = c.is_ascii_alphanumeric();
            assert_eq!(DIGIT[i as usize], "0123456789".contains(c) && i < 128);
            assert_eq!(ALPHA[i as usize], c.is_ascii_alphabetic());
            assert_eq!(
                HEXDIG[i as usize],
                "0123456789abcdefABCDEF".contains(c) && i < 128
            );
            assert_eq!(
                TCHAR[i as usize],
                alnum || (i < 128 && "!#$%&'*+-.^_`|~".contains(c))
            );
            assert_eq!(
                FIELD_VALUE[i as usize],
                i == 9 || (32..=126).contains(&i) || i >= 128
            );
            assert_eq!(OWS[i as usize], i == 9 || i == 32);
            let hex = c
                .to_digit(16)
                .filter(|_| i < 128)
                .map_or(NOT_HEX, |d| d as u8);
            assert_eq!(HEX_VALUE[i as usize], hex);
            let qdtext = matches!(i, 9 | 32 | 0x21 | 0x23..=0x5b | 0x5d..=0x7e | 0x80..=0xff);
            assert_eq!(QDTEXT[i as usize], qdtext);
            let unres = alnum || (i < 128 && "-._~".contains(c));
            let sub = i < 128 && "!$&'()*+,;=".contains(c);
            assert_eq!(UNRESERVED[i as usize], unres);
            assert_eq!(SUB_DELIMS[i as usize], sub);
            assert_eq!(
                TARGET[i as usize],
                unres || sub || (i < 128 && ":@/?".contains(c))
            );
            assert_eq!(REG_NAME[i as usize], unres || sub);
            assert_eq!(SCHEME[i as usize], alnum || (i < 128 && "+-.".contains(c)));
        }
    }

    #[test]
    fn stray_ascii_is_not_a_target_byte() {
        for &b in b"\"#<>[\\]^`{|} %\x7f\x00\r\n\t" {
            assert!(!TARGET[b as usize], "{b:#x}");
        }
        assert_eq!(TARGET.iter().filter(|&&t| t).count(), 66 + 11 + 4);
        assert_eq!(TCHAR.iter().filter(|&&t| t).count(), 62 + 15);
    }
}

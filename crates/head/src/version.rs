/// The HTTP version of a message (RFC 9112 §2.3).
///
/// Another `HTTP/1.x` minor version is read as [`Version::Http11`]
/// (RFC 9110 §2.5); `HTTP/2.0` and above are rejected with 505.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    /// HTTP/1.0
    Http10,
    /// HTTP/1.1 (and any later 1.x)
    Http11,
}

impl Version {
    /// The version as it is written on the wire.
    pub const fn as_bytes(self) -> &'static [u8; 8] {
        match self {
            Version::Http10 => b"HTTP/1.0",
            Version::Http11 => b"HTTP/1.1",
        }
    }

    /// The version as text: `"HTTP/1.0"` or `"HTTP/1.1"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Version::Http10 => "HTTP/1.0",
            Version::Http11 => "HTTP/1.1",
        }
    }
}

/// Writes the version as on the wire (`HTTP/1.1`).
impl core::fmt::Display for Version {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `HTTP-version = HTTP-name "/" DIGIT "." DIGIT`, `HTTP-name = %s"HTTP"`
/// (RFC 9112 §2.3), checked incrementally: `v` holds the bytes received so
/// far of the eight (possibly fewer, possibly more). Returns `Ok(None)` while
/// the bytes seen are a valid prefix, the version once all eight are there.
/// A major version other than 1 is 505 if it is 2 or more (RFC 9110
/// §15.6.6), and malformed otherwise (`HTTP/0.9` has no such line).
pub(crate) fn check(v: &[u8]) -> Result<Option<Version>, crate::Error> {
    use crate::Error;
    const PATTERN: &[u8; 8] = b"HTTP/0.0";
    for (&b, &p) in v.iter().zip(PATTERN) {
        let ok = if p == b'0' {
            b.is_ascii_digit()
        } else {
            b == p
        };
        if !ok {
            return Err(Error::InvalidVersion);
        }
    }
    let Some(&[major, _, minor]) = v.get(5..8) else {
        return Ok(None);
    };
    match major {
        b'1' if minor == b'0' => Ok(Some(Version::Http10)),
        b'1' => Ok(Some(Version::Http11)),
        b'0' => Err(Error::InvalidVersion),
        _ => Err(Error::UnsupportedVersion),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    #[test]
    fn versions() {
        assert_eq!(check(b"HTTP/1.1"), Ok(Some(Version::Http11)));
        assert_eq!(check(b"HTTP/1.0\r\n"), Ok(Some(Version::Http10)));
        assert_eq!(check(b"HTTP/1.9"), Ok(Some(Version::Http11)));
        assert_eq!(check(b"HTTP/1."), Ok(None));
        assert_eq!(check(b""), Ok(None));
        assert_eq!(check(b"HTTP/2.0"), Err(Error::UnsupportedVersion));
        assert_eq!(check(b"HTTP/0.9"), Err(Error::InvalidVersion));
        assert_eq!(check(b"http/"), Err(Error::InvalidVersion));
        assert_eq!(check(b"HTTP/1,"), Err(Error::InvalidVersion));
        assert_eq!(check(b"HTTP/a"), Err(Error::InvalidVersion));
    }

    #[test]
    fn display_is_the_wire_form() {
        extern crate alloc;
        use alloc::format;
        assert_eq!(format!("{}", Version::Http10), "HTTP/1.0");
        assert_eq!(format!("{}", Version::Http11), "HTTP/1.1");
        assert_eq!(
            Version::Http11.as_str().as_bytes(),
            Version::Http11.as_bytes()
        );
    }
}

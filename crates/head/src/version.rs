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
}

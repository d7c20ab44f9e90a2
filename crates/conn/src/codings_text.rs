//! The words both adapters' errors use for a response body whose transfer
//! codings the client does not decode.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Displays the transfer codings a response body still carries (a
/// `Transfer-Encoding` that does not end in `chunked`, RFC 9112 §6.1) as the
/// sentence both adapters' `Error::UnsupportedTransferCoding` shows.
///
/// ```
/// use http_net_conn::UnsupportedCodings;
/// let codings = [b"gzip".to_vec(), b"br".to_vec()];
/// assert_eq!(
///     UnsupportedCodings(&codings).to_string(),
///     "the response body carries the transfer coding gzip, br, \
///      which the client does not decode (RFC 9112 §6.1)"
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct UnsupportedCodings<'a>(pub &'a [Vec<u8>]);

impl fmt::Display for UnsupportedCodings<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the response body carries the transfer coding")?;
        for (i, c) in self.0.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{}", String::from_utf8_lossy(c))?;
        }
        f.write_str(", which the client does not decode (RFC 9112 §6.1)")
    }
}

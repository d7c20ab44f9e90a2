//! Finding the end of a head with a resumable scan.

use crate::swar::find_lf;

/// The result of [`find_head_end`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadEnd {
    /// `CR LF CR LF` found; the head is `buf[..end]`, the empty line
    /// included.
    Found(usize),
    /// Not found yet: call again with more bytes and this offset, so that no
    /// byte is examined twice (the scan backs up three bytes to catch a
    /// terminator split across reads).
    NeedMore {
        /// The offset to pass as `resume_from` next time.
        resume_from: usize,
    },
}

/// Finds the first `CR LF CR LF` in `buf` at or after `resume_from` (less
/// three bytes). This only frames: it validates nothing, and a head with a
/// bare LF is not found. The parsers of `http-net-head` do not need it; it is
/// for callers that want to know where a head ends before parsing it.
///
/// ```
/// use http_net_scan::{find_head_end, HeadEnd};
/// let buf = b"GET / HTTP/1.1\r\nHost: a\r\n\r\nrest";
/// assert_eq!(find_head_end(&buf[..20], 0), HeadEnd::NeedMore { resume_from: 17 });
/// assert_eq!(find_head_end(buf, 17), HeadEnd::Found(27));
/// ```
pub fn find_head_end(buf: &[u8], resume_from: usize) -> HeadEnd {
    let mut from = resume_from.saturating_sub(3);
    while let Some(rest) = buf.get(from..) {
        let Some(lf) = find_lf(rest) else { break };
        let at = from + lf;
        if at >= 3 && buf.get(at - 3..at) == Some(b"\r\n\r".as_slice()) {
            return HeadEnd::Found(at + 1);
        }
        from = at + 1;
    }
    HeadEnd::NeedMore {
        resume_from: buf
            .len()
            .saturating_sub(3)
            .max(resume_from.saturating_sub(3)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_empty_line() {
        assert_eq!(find_head_end(b"\r\n\r\n", 0), HeadEnd::Found(4));
        assert_eq!(find_head_end(b"a\n\r\n\r\n", 0), HeadEnd::Found(6));
        assert_eq!(
            find_head_end(b"a\r\n\n", 0),
            HeadEnd::NeedMore { resume_from: 1 }
        );
        assert_eq!(find_head_end(b"", 0), HeadEnd::NeedMore { resume_from: 0 });
    }
}

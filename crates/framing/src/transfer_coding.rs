//! `Transfer-Encoding = #transfer-coding` (RFC 9112 §6.1), every field line
//! read as one list (RFC 9110 §5.3): codings compared case-insensitively,
//! OWS around members allowed, empty members ignored (RFC 9110 §5.6.1).
//! Anything that is not exactly `chunked` (`chunked;x`, `xchunked`, a VT or
//! `\xa0` around it) is another coding.

use http_net_head::{Field, FieldRefs};

use crate::syntax::trim_ows;

/// What a `Transfer-Encoding` list says, gathered in one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Codings {
    /// Non-empty members.
    pub members: usize,
    /// Members equal to `chunked`.
    pub chunked: usize,
    /// Members other than `chunked`.
    pub others: usize,
    /// The last member is `chunked`.
    pub chunked_final: bool,
}

/// Reads every `Transfer-Encoding` field line of a section as one list.
pub(crate) fn codings(refs: FieldRefs, fields: &[Field], buf: &[u8]) -> Codings {
    let mut c = Codings::default();
    for span in refs.values(b"transfer-encoding", fields, buf) {
        for member in span.get(buf).split(|&b| b == b',') {
            let member = trim_ows(member);
            if member.is_empty() {
                continue;
            }
            c.members += 1;
            let is_chunked = member.eq_ignore_ascii_case(b"chunked");
            if is_chunked {
                c.chunked += 1;
            } else {
                c.others += 1;
            }
            c.chunked_final = is_chunked;
        }
    }
    c
}

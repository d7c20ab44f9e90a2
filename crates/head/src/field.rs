use crate::Span;

/// One field line: the name as received and the value with surrounding
/// optional whitespace removed (RFC 9112 §5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Field {
    /// The field name, as received (case preserved).
    pub name: Span,
    /// The field value, OWS trimmed. For a response parsed with
    /// [`ObsFold::Replace`](crate::ObsFold::Replace) it may still contain the
    /// CR LF of an obs-fold until [`unfold_in_place`] is applied.
    pub value: Span,
}

/// Replaces every CR and LF inside `span` of `buf` with SP, turning an
/// obs-fold into spaces as RFC 9112 §5.2 asks of a user agent.
pub fn unfold_in_place(buf: &mut [u8], span: Span) {
    if let Some(bytes) = buf.get_mut(span.start()..span.end()) {
        for b in bytes {
            if *b == b'\r' || *b == b'\n' {
                *b = b' ';
            }
        }
    }
}

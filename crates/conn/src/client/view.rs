use http_net_head::ResponseHead;

use crate::fields::{connection_event, head_view_accessors, Received};

connection_event! {
    /// An event of a client connection.
    #[non_exhaustive]
    #[derive(Debug)]
    pub enum ClientEvent {
        /// An informational (1xx, not 101) response to the current request.
        Informational(ResponseView<'a>),
        /// The final response head; its body follows as `Data` events. A 101
        /// to a request that offered an upgrade, or a 2xx to CONNECT, is
        /// followed by `Switched`.
        Response(ResponseView<'a>),
    }
    msg: "response",
    /// No request is outstanding.
    Idle,
    /// The connection is finished.
    Closed
}

/// A received response head, borrowed from the connection's input buffer.
#[derive(Clone, Copy, Debug)]
pub struct ResponseView<'a> {
    msg: Received<'a, ResponseHead>,
}

impl<'a> ResponseView<'a> {
    pub(crate) fn new(msg: Received<'a, ResponseHead>) -> ResponseView<'a> {
        ResponseView { msg }
    }
    /// The parsed head.
    pub fn head(&self) -> &'a ResponseHead {
        self.msg.head
    }
    /// The status code.
    pub fn status(&self) -> u16 {
        self.msg.head.status
    }
    /// The reason phrase.
    pub fn reason(&self) -> &'a [u8] {
        self.msg.head.reason.get(self.msg.list.buf)
    }
    head_view_accessors!("response");
    /// The transfer codings the body bytes still carry (RFC 9112 §6.1), in
    /// the order applied: the coding names (as sent, without
    /// parameters; compare them case-insensitively, RFC 9112 §7) of every
    /// `Transfer-Encoding` field when the list does not
    /// end in `chunked`, so that the body is read until close
    /// ([`BodyKind::CloseDelimited`](http_net_framing::BodyKind)) with the
    /// codings left on. Empty otherwise: conn removes a final `chunked`
    /// itself, and any other list is a framing error.
    ///
    /// conn decodes no coding but `chunked`; a caller that reads such a
    /// body must decode it or refuse it.
    pub fn transfer_codings(&self) -> impl Iterator<Item = &'a [u8]> + 'a {
        let coded = self.msg.body == http_net_framing::BodyKind::CloseDelimited;
        self.msg
            .list
            .iter()
            .filter(move |(name, _)| coded && name.eq_ignore_ascii_case(b"transfer-encoding"))
            .flat_map(|(_, value)| value.split(|&b| b == b','))
            .map(|member| trim_ows(member.split(|&b| b == b';').next().unwrap_or(member)))
            .filter(|name| !name.is_empty())
    }
}

/// `bytes` without leading and trailing spaces and tabs (OWS, RFC 9110 §5.6.3).
fn trim_ows(bytes: &[u8]) -> &[u8] {
    let ows = |b: &u8| *b == b' ' || *b == b'\t';
    let start = bytes.iter().position(|b| !ows(b)).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|b| !ows(b)).map_or(start, |i| i + 1);
    bytes.get(start..end).unwrap_or(&[])
}

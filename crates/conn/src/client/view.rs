use http_net_head::ResponseHead;

use crate::fields::{connection_event, head_view_accessors, Received};

connection_event! {
    /// An event of a client connection.
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
}

use http_net_head::{Field, Method, RequestHead, TargetForm};

use crate::fields::{connection_event, head_view_accessors, Received};

/// What a server connection is waiting for: the adapter picks its timeout
/// from this (idle keep-alive, head deadline, body read, write, drain).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Between requests: no byte of the next request yet.
    Idle,
    /// Part of a request head has arrived.
    Head,
    /// Reading (or draining) a request body.
    Body,
    /// The request is read; the application has not finished its answer.
    Responding,
    /// An error response is queued: send it, half-close, drain the peer's
    /// input for a bounded time, then close.
    Draining,
    /// The connection was handed over after a 101 or a 2xx to CONNECT.
    Switched,
    /// Done: close the socket once the output is sent.
    Closed,
}

/// Where the answer to the current request stands
/// ([`ServerConn::answer_state`](crate::ServerConn::answer_state)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerState {
    /// No final answer has been queued (an informational one may have been).
    NotStarted,
    /// A final head is queued and its body is not complete. If the
    /// connection is closed in this state, the answer was cut short.
    Started,
    /// The response is complete (written by the application, or an error
    /// response written by the connection).
    Complete,
    /// A 101, or a 2xx to CONNECT, was queued: the connection is handed over.
    Switched,
}

connection_event! {
    /// An event of a server connection.
    #[non_exhaustive]
    #[derive(Debug)]
    pub enum ServerEvent {
        /// A request head was read; the body (if any) follows as `Data` events.
        Request(RequestView<'a>),
    }
    msg: "request",
    /// The application must finish the current response (and the output be
    /// sent) before the next request is surfaced.
    Paused,
    /// The connection is finished; close it once the output is sent.
    Closed
}

/// A received request head, borrowed from the connection's input buffer.
#[derive(Clone, Copy, Debug)]
pub struct RequestView<'a> {
    msg: Received<'a, RequestHead>,
    expects_continue: bool,
}

impl<'a> RequestView<'a> {
    pub(crate) fn new(msg: Received<'a, RequestHead>, expects_continue: bool) -> RequestView<'a> {
        RequestView {
            msg,
            expects_continue,
        }
    }
    /// Whether the request expects `100 Continue` (HTTP/1.1 and every
    /// member of every `Expect` line is `100-continue`, RFC 9110 §10.1.1;
    /// the connection answered any other expectation `417` before
    /// surfacing the request). Decided once, by the connection: an adapter
    /// never parses `Expect` again.
    pub fn expects_continue(&self) -> bool {
        self.expects_continue
    }
    /// The parsed head (spans into [`RequestView::buf`]).
    pub fn head(&self) -> &'a RequestHead {
        self.msg.head
    }
    /// The buffer the spans refer to.
    pub fn buf(&self) -> &'a [u8] {
        self.msg.list.buf
    }
    /// The field storage, `head().field_count` entries.
    pub fn field_spans(&self) -> &'a [Field] {
        self.msg.list.fields
    }
    /// The method.
    pub fn method(&self) -> Method {
        self.msg.head.method
    }
    /// The method's bytes.
    pub fn method_bytes(&self) -> &'a [u8] {
        self.msg.head.method_span.get(self.msg.list.buf)
    }
    /// The method's name as received, extension methods included (a method
    /// is a token, RFC 9110 §9.1: ASCII, so always text).
    pub fn method_str(&self) -> &'a str {
        // A parsed method is tchars only: never the empty fallback.
        core::str::from_utf8(self.method_bytes()).unwrap_or("")
    }
    /// The request target, as received.
    pub fn target(&self) -> &'a [u8] {
        self.msg.head.target.get(self.msg.list.buf)
    }
    /// The target's form.
    pub fn target_form(&self) -> TargetForm {
        self.msg.head.target_form
    }
    /// The path part of the target (RFC 9112 §3.2): before `?`, and for an
    /// absolute-form target (`http://host/p?q`) after the authority (`/`
    /// when empty); an authority-form (`CONNECT`) or asterisk-form target
    /// whole. Still percent-encoded ([`target_path`](crate::target_path)).
    ///
    /// ```
    /// use http_net_conn::{Config, ServerConn, ServerEvent};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// conn.recv(b"GET http://a.example/p/q?x=1 HTTP/1.1\r\nHost: a.example\r\n\r\n");
    /// let Ok(ServerEvent::Request(req)) = conn.poll_event() else { panic!() };
    /// assert_eq!(req.path(), b"/p/q");
    /// ```
    pub fn path(&self) -> &'a [u8] {
        crate::target::target_path(self.target())
    }
    /// The target's query, still percent-encoded, `None` without `?`
    /// ([`target_query`](crate::target_query)).
    pub fn query(&self) -> Option<&'a [u8]> {
        crate::target::target_query(self.target())
    }
    /// The query's `key=value` pairs, as received
    /// ([`query_pairs`](crate::query_pairs); empty without a query).
    pub fn query_pairs(&self) -> crate::QueryPairs<'a> {
        crate::target::query_pairs(self.query().unwrap_or(&[]))
    }
    head_view_accessors!("request");
}

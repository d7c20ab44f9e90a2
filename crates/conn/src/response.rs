use alloc::vec::Vec;

use crate::{FieldPair, LocalError};

/// A response head built once, validated once, and reused across requests
/// (the fastest way to answer). The connection adds `Content-Length`,
/// `Connection` and `Date` when it sends it.
///
/// ```
/// use http_net_conn::Response;
/// let ok = Response::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
/// assert_eq!(ok.status(), 200);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    status: u16,
    /// Status line and field lines, each ending in CR LF; no final empty line.
    head: Vec<u8>,
}

impl Response {
    /// Builds and validates a response head with the standard reason phrase.
    /// `Content-Length` and `Transfer-Encoding` may not be among `fields`:
    /// the connection frames the body it is given.
    pub fn new(status: u16, fields: &[FieldPair<'_>]) -> Result<Response, LocalError> {
        let _ = fields;
        let _ = status;
        todo!("issue 4")
    }

    /// The status code.
    pub const fn status(&self) -> u16 {
        self.status
    }

    /// The validated status line and field lines.
    pub fn head_bytes(&self) -> &[u8] {
        &self.head
    }
}

/// How the body of a message being sent is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyLength {
    /// No body (`Content-Length: 0` where a length is due).
    Empty,
    /// Exactly this many bytes, sent with `send_data` (`Content-Length`).
    Known(u64),
    /// Unknown length: chunked towards HTTP/1.1, close-delimited towards an
    /// HTTP/1.0 peer.
    Streamed,
}

/// Where the body bytes of a command went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Copied into the output buffer (or nothing to send).
    Queued,
    /// Not copied: the caller sends them right after the current output.
    AfterOutput,
}

//! The response head both adapters' `ClientResponse` hold and expose (by
//! `Deref`), copied out of the connection's buffer, with the trailers once
//! the body ended.

use alloc::vec::Vec;

use http_net_head::Version;

use super::attempt::ExpectState;
use super::conn::ClientConn;
use super::view::{ClientEvent, ResponseView};
use crate::leftover::Leftover;
use crate::owned_fields::OwnedFields;
use crate::Error;

/// What [`ClientConn::poll_head`] found on the way to a final response.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadStep {
    /// More input is needed.
    NeedInput,
    /// A `100` ended the wait for it ([`ClientConn::expect_state`] is now
    /// `Continue`): send the body (RFC 9110 §10.1.1). Other informational
    /// responses are skipped.
    Continue,
    /// The final response head, copied into the caller's [`ClientHead`].
    Final,
    /// Nothing more comes on the connection: it closed before a final
    /// response.
    Closed,
}

/// What [`ClientConn::poll_body`] found of a response body.
#[non_exhaustive]
#[derive(Debug, PartialEq, Eq)]
pub enum BodyStep<'a> {
    /// Body bytes.
    Data(&'a [u8]),
    /// More input is needed.
    NeedInput,
    /// An event that is no body's (a head of a pipelined response): ask
    /// again.
    Again,
    /// The body is over (its trailers copied into the caller's
    /// [`ClientHead`]); whether the connection carries another request is
    /// [`ClientConn::reusable`]'s to say.
    End,
}

impl ClientConn {
    /// Reads events toward the final response head, skipping
    /// informational ones: copied into `head` (with
    /// [`reused`](ClientConn::reused)) when it came.
    pub fn poll_head(&mut self, head: &mut ClientHead) -> Result<HeadStep, Error> {
        loop {
            let waiting = self.expect == ExpectState::Waiting;
            let step = match self.poll_event()? {
                ClientEvent::Informational(_) => HeadStep::Continue,
                ClientEvent::Response(view) => {
                    head.fill(&view);
                    // The connection's answer once this head is read.
                    head.reused = self.reused;
                    self.attempt.answered = true;
                    HeadStep::Final
                }
                ClientEvent::NeedInput => HeadStep::NeedInput,
                _ => HeadStep::Closed,
            };
            let ended_wait = waiting && self.expect == ExpectState::Continue;
            if step != HeadStep::Continue || ended_wait {
                return Ok(step);
            }
        }
    }

    /// Reads an event of the response body: bytes, a need for input, or
    /// its end (the trailers copied into `head`; a close, a protocol switch
    /// or an event this version does not know end it too).
    pub fn poll_body(&mut self, head: &mut ClientHead) -> Result<BodyStep<'_>, Error> {
        Ok(match self.poll_event()? {
            ClientEvent::Data(d) => BodyStep::Data(d),
            ClientEvent::NeedInput => BodyStep::NeedInput,
            ClientEvent::Informational(_) | ClientEvent::Response(_) => BodyStep::Again,
            ClientEvent::End(trailers) => {
                head.trailers.refill(trailers.iter());
                BodyStep::End
            }
            _ => BodyStep::End,
        })
    }

    /// Reads the response body into `buf` (not empty), `kept` holding what
    /// did not fit (call it once `kept` gave nothing,
    /// [`Leftover::take`]): `Some(n)` bytes, `Some(0)` at its end (as
    /// [`poll_body`](ClientConn::poll_body)'s `End`), `None` when more
    /// input is needed.
    pub fn body_into(
        &mut self,
        head: &mut ClientHead,
        kept: &mut Leftover,
        buf: &mut [u8],
    ) -> Result<Option<usize>, Error> {
        loop {
            match self.poll_body(head)? {
                BodyStep::Data(d) => match kept.hand_out(d, buf) {
                    0 => {}
                    n => return Ok(Some(n)),
                },
                BodyStep::NeedInput => return Ok(None),
                BodyStep::Again => {}
                BodyStep::End => return Ok(Some(0)),
            }
        }
    }
}

/// A response's head as a client hands it out: status, version, reason,
/// fields, the transfer codings its body still carries, whether it came
/// over a reused connection, and the trailers once its body ended. The
/// adapters' `ClientResponse` dereferences to it, so these are the
/// response's methods.
///
/// ```
/// use http_net_conn::driver::HeadStep;
/// use http_net_conn::{BodyLength, ClientConn, ClientHead, Config};
///
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// conn.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty).unwrap();
/// let _ = conn.recv(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
/// let mut head = ClientHead::default();
/// assert_eq!(conn.poll_head(&mut head), Ok(HeadStep::Final));
/// assert_eq!((head.status(), head.reason()), (404, &b"Not Found"[..]));
/// assert_eq!(head.field(b"content-length"), Some(&b"0"[..]));
/// assert!(!head.reused());
/// ```
#[derive(Clone, Debug)]
pub struct ClientHead {
    status: u16,
    version: Version,
    reason: Vec<u8>,
    fields: OwnedFields,
    codings: Vec<Vec<u8>>,
    reused: bool,
    trailers: OwnedFields,
}

impl Default for ClientHead {
    fn default() -> ClientHead {
        ClientHead {
            status: 0,
            version: Version::Http11,
            reason: Vec::new(),
            fields: OwnedFields::new(),
            codings: Vec::new(),
            reused: false,
            trailers: OwnedFields::new(),
        }
    }
}

impl ClientHead {
    /// Copies `view` in, reusing the memory this head holds (no allocation
    /// when the head is no larger than the one before it); the trailers
    /// are cleared, and `reused` is false ([`ClientConn::poll_head`] sets
    /// it).
    fn fill(&mut self, view: &ResponseView<'_>) {
        self.status = view.status();
        self.version = view.version();
        self.reason.clear();
        self.reason.extend_from_slice(view.reason());
        self.fields.refill(view.fields());
        self.codings.clear();
        self.codings
            .extend(view.transfer_codings().map(<[u8]>::to_vec));
        self.reused = false;
        self.trailers.clear();
    }

    /// The transfer codings, taken out, when the client refuses them (it
    /// does unless `accept` them): the codings for the adapter's
    /// `Error::UnsupportedTransferCoding`.
    pub fn refused_codings(&mut self, accept: bool) -> Option<Vec<Vec<u8>>> {
        (!accept && !self.codings.is_empty()).then(|| core::mem::take(&mut self.codings))
    }

    /// The status code.
    pub fn status(&self) -> u16 {
        self.status
    }
    /// The HTTP version of the response.
    pub fn version(&self) -> Version {
        self.version
    }
    /// The reason phrase.
    pub fn reason(&self) -> &[u8] {
        &self.reason
    }
    /// The fields as (name, value), in received order.
    pub fn fields(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.fields.iter()
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &[u8]) -> Option<&[u8]> {
        self.fields.get(name)
    }
    /// The transfer codings the body bytes still carry, in the order
    /// applied (RFC 9112 §6.1): empty unless the client's
    /// `ClientBuilder::accept_transfer_codings` is on and the response's
    /// `Transfer-Encoding` does not end in `chunked`; the body is then the
    /// coded bytes, for the caller to decode.
    pub fn transfer_codings(&self) -> impl Iterator<Item = &[u8]> {
        self.codings.iter().map(|c| &c[..])
    }
    /// Whether this response came over a connection that had already
    /// carried an earlier response: one taken from the client's pool of
    /// idle connections (as Go's `httptrace.GotConnInfo.Reused`). False
    /// on a connection opened for the request: the first request to an
    /// origin, one after the server closed the last connection
    /// (`Connection: close`, a body read until close) or after an idle
    /// one expired or was closed by the server, and a request sent again
    /// after its pooled connection failed (the retry always goes out on
    /// a new connection). After redirects, it is the last hop's: each
    /// hop takes its own connection, a pooled one (the one the redirect
    /// came on, when it may be reused) or a new one.
    /// ([`ClientConn::reused`](crate::ClientConn::reused), read when the
    /// head was.)
    pub fn reused(&self) -> bool {
        self.reused
    }
    /// The trailer fields of a chunked body (RFC 9112 §7.1.2), in received
    /// order: empty until the body has been read to its end.
    pub fn trailers(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.trailers.iter()
    }
    /// The value of the first trailer field named `name`.
    pub fn trailer(&self, name: &[u8]) -> Option<&[u8]> {
        self.trailers.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyLength, Config};

    fn exchange(conn: &mut ClientConn, response: &[u8], head: &mut ClientHead) -> Vec<u8> {
        conn.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
            .unwrap();
        let n = conn.output().len();
        conn.consume_output(n);
        let _ = conn.recv(response);
        while conn.poll_head(head).unwrap() == HeadStep::Continue {}
        let mut body = Vec::new();
        loop {
            match conn.poll_body(head).unwrap() {
                BodyStep::Data(d) => body.extend_from_slice(d),
                BodyStep::End | BodyStep::NeedInput => return body,
                BodyStep::Again => {}
            }
        }
    }

    #[test]
    fn the_head_says_reused_and_keeps_the_trailers() {
        let mut conn = ClientConn::new(Config::DEFAULT);
        let mut head = ClientHead::default();
        let chunked = b"HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\nDigest: x\r\n\r\n";
        assert_eq!(exchange(&mut conn, chunked, &mut head), b"hi");
        assert_eq!((head.status(), head.reused()), (200, false));
        assert_eq!(head.trailer(b"digest"), Some(&b"x"[..]));
        let again = b"HTTP/1.1 204 No Content\r\n\r\n";
        assert_eq!(exchange(&mut conn, again, &mut head), b"");
        assert_eq!((head.status(), head.reused()), (204, true));
        assert_eq!(head.trailers().count(), 0, "a new head clears them");
    }

    #[test]
    fn refused_codings_are_taken_out_unless_accepted() {
        let mut conn = ClientConn::new(Config::DEFAULT);
        let mut head = ClientHead::default();
        let gzip = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n";
        conn.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
            .unwrap();
        let _ = conn.recv(gzip);
        assert_eq!(conn.poll_head(&mut head), Ok(HeadStep::Final));
        assert_eq!(head.refused_codings(true), None);
        assert_eq!(
            head.refused_codings(false),
            Some(alloc::vec![b"gzip".to_vec()])
        );
        assert_eq!(head.transfer_codings().count(), 0);
    }
}

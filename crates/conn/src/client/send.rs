//! The sending half of the client: request heads with validated method,
//! target and fields, and the request body.

use http_net_head::Method;

use super::attempt::{Attempt, ExpectState};
use super::conn::{ClientConn, ReqMeta, MAX_PIPELINED};
use crate::state::{client_write, CRead, CWrite, CWriteEv, CloseWhy};
use crate::validate::{is_target, is_token, trim_ows};
use crate::writer::{write_content_length, write_fields, CallerFields, SendBody};
use crate::{BodyLength, Error, FieldPair, LocalError, Placement, RemoteError};
use http_net_framing::BodyEncoder;

impl ClientConn {
    /// Writes a request head (HTTP/1.1). The method must be a token and the
    /// target a valid request-target for it; `fields` must include exactly one
    /// valid `Host`. `Content-Length` or `Transfer-Encoding: chunked` is
    /// written from `body` (a caller's own must agree with it). The body
    /// follows with [`send_data`](ClientConn::send_data) and
    /// [`send_end`](ClientConn::send_end); with [`BodyLength::Empty`] the
    /// request is complete at once.
    pub fn send_request(
        &mut self,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        body: BodyLength,
    ) -> Result<(), Error> {
        if client_write(self.write, CWriteEv::Head).is_none() || !self.persist.keeps_alive() {
            return Err(LocalError::WrongState.into());
        }
        if self.queue.len() >= MAX_PIPELINED
            || self
                .queue
                .back()
                .is_some_and(|r| r.upgrade || r.close || r.method == Method::Connect)
        {
            return Err(LocalError::PipelineFull.into());
        }
        let kind = Method::from_bytes(method);
        if !is_token(method) || !is_target(kind, target) {
            return Err(LocalError::InvalidRequestLine.into());
        }
        if self.queue.is_empty() && self.input.buf.has_unread() && self.read == CRead::Head {
            // Bytes that arrived while nothing was outstanding are not the
            // response to this request (RFC 9112 §9.2, C73: a 408 on an
            // idle pooled connection): fail before sending anything.
            self.attempt = Attempt {
                refused_unsolicited: true,
                ..Attempt::default()
            };
            return Err(self.fail(RemoteError::UnsolicitedResponse));
        }
        let untouched = self.out.is_empty();
        let buf = self.out.buf();
        let start = buf.len();
        buf.extend_from_slice(method);
        buf.push(b' ');
        buf.extend_from_slice(target);
        buf.extend_from_slice(b" HTTP/1.1\r\n");
        let checked = write_fields(buf, fields)
            .and_then(|caller| framing(kind, body, &caller).map(|enc| (caller, enc)));
        let (caller, (enc, frame)) = match checked {
            Ok(ok) => ok,
            Err(e) => {
                buf.truncate(start);
                return Err(e.into());
            }
        };
        match frame {
            Some(n) => write_content_length(buf, n),
            None if enc == BodyEncoder::Chunked && caller.transfer_encoding == 0 => {
                buf.extend_from_slice(b"Transfer-Encoding: chunked\r\n");
            }
            None => {}
        }
        buf.extend_from_slice(b"\r\n");
        let upgrade = caller.upgrade && caller.connection_upgrade;
        self.queue.push_back(ReqMeta {
            method: kind,
            upgrade,
            close: caller.close,
        });
        self.enc = enc;
        self.attempt = Attempt {
            idempotent: kind.is_idempotent(),
            untouched,
            ended: body == BodyLength::Empty,
            refused_unsolicited: false,
            heard: false,
            body_taken: false,
            answered: false,
        };
        // RFC 9110 §10.1.1: the expectation means something with content only.
        let expects = body != BodyLength::Empty
            && fields.iter().any(|(n, v)| {
                n.eq_ignore_ascii_case(b"expect")
                    && trim_ows(v).eq_ignore_ascii_case(b"100-continue")
            });
        self.expect = if expects {
            ExpectState::Waiting
        } else {
            ExpectState::None
        };
        self.move_write(CWriteEv::Head);
        if body == BodyLength::Empty {
            self.move_write(CWriteEv::End);
        }
        Ok(())
    }

    /// Sends body bytes of the current request (copied up to
    /// [`COPY_LIMIT`](crate::COPY_LIMIT), otherwise left to the caller:
    /// [`Placement::AfterOutput`]).
    pub fn send_data(&mut self, data: &[u8]) -> Result<Placement, Error> {
        if client_write(self.write, CWriteEv::Data).is_none() {
            return Err(LocalError::WrongState.into());
        }
        if self.expect == ExpectState::Waiting {
            // The caller sends the body without a `100` (its wait is over).
            self.expect = ExpectState::Continue;
        }
        self.attempt.body_taken = true;
        Ok(self.enc.data(&mut self.out, data)?)
    }

    /// Ends the current request, with trailers if it is chunked. A no-op
    /// without trailers when no request body is in progress, and after the
    /// connection switched protocols (a 101 or a 2xx to CONNECT); trailers
    /// then are [`LocalError::WrongState`]. Ending a `Content-Length` body
    /// early is refused and the connection closes.
    pub fn send_end(&mut self, trailers: &[FieldPair<'_>]) -> Result<(), Error> {
        match self.write {
            CWrite::Idle if trailers.is_empty() => Ok(()),
            CWrite::Closed if trailers.is_empty() && self.read == CRead::Switched => Ok(()),
            CWrite::Body => match self.enc.end(&mut self.out, trailers) {
                Ok(()) => {
                    self.attempt.ended = true;
                    self.move_write(CWriteEv::End);
                    Ok(())
                }
                Err(LocalError::BodyUnderrun) => {
                    self.close(CloseWhy::Truncated);
                    Err(LocalError::BodyUnderrun.into())
                }
                Err(e) => Err(e.into()),
            },
            _ => Err(LocalError::WrongState.into()),
        }
    }
}

/// What an adapter does next for the latest request, until its response
/// head, as [`ClientConn::send_step`] says: the request's lifecycle on one
/// connection, decided here once for both clients (the adapter carries each
/// step out with its own I/O and asks again).
///
/// ```
/// use http_net_conn::driver::{HeadStep, SendStep};
/// use http_net_conn::{BodyLength, ClientConn, ClientHead, Config};
///
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// let fields: &[(&[u8], &[u8])] = &[(b"Host", b"a"), (b"Expect", b"100-continue")];
/// conn.send_request(b"PUT", b"/f", fields, BodyLength::Known(2)).unwrap();
/// assert_eq!(conn.send_step(), SendStep::Write);
/// let n = conn.output().len();
/// conn.consume_output(n);
/// assert_eq!(conn.send_step(), SendStep::Read); // the wait for `100`
/// let _ = conn.recv(b"HTTP/1.1 100 Continue\r\n\r\n");
/// let mut head = ClientHead::default();
/// assert_eq!(conn.poll_head(&mut head), Ok(HeadStep::Continue));
/// assert_eq!(conn.send_step(), SendStep::Body);
/// let _ = conn.send_data(b"hi").unwrap();
/// conn.send_end(&[]).unwrap();
/// assert_eq!(conn.send_step(), SendStep::Write);
/// let n = conn.output().len();
/// conn.consume_output(n);
/// assert_eq!(conn.send_step(), SendStep::Read); // the response head
/// let _ = conn.recv(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
/// assert_eq!(conn.poll_head(&mut head), Ok(HeadStep::Final));
/// assert_eq!(conn.send_step(), SendStep::Answered);
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendStep {
    /// Write [`output`](ClientConn::output) (and after it the bytes a
    /// [`send_data`](ClientConn::send_data) left to the caller), reading
    /// the response side and asking [`poll_head`](ClientConn::poll_head)
    /// whenever the write must wait: a final response may come early.
    Write,
    /// Read, until [`wait_until`](ClientConn::wait_until), and ask
    /// [`poll_head`](ClientConn::poll_head): the request waits for `100
    /// Continue` before its body (RFC 9110 §10.1.1), or for its response.
    Read,
    /// Hand the next body bytes to [`send_data`](ClientConn::send_data),
    /// or end the body with [`send_end`](ClientConn::send_end).
    Body,
    /// [`poll_head`](ClientConn::poll_head) handed out the final response
    /// head, early (the body not all sent: nothing more is) or after the
    /// whole request.
    Answered,
}

impl ClientConn {
    /// The next step of the latest request ([`SendStep`]).
    pub fn send_step(&self) -> SendStep {
        if self.attempt.answered {
            SendStep::Answered
        } else if !self.out.pending().is_empty() {
            // `output()`: a chunk's end still due is written with the next
            // bytes or the end, not on its own.
            SendStep::Write
        } else if self.write == CWrite::Body && self.expect != ExpectState::Waiting {
            SendStep::Body
        } else {
            SendStep::Read
        }
    }
}

/// The encoder and the `Content-Length` to write for a request body; checks
/// the caller's own framing fields and `Host`.
fn framing(
    method: Method,
    body: BodyLength,
    caller: &CallerFields,
) -> Result<(BodyEncoder, Option<u64>), LocalError> {
    if caller.host != 1 || caller.bad_host {
        return Err(LocalError::InvalidHost);
    }
    // A CONNECT request has no content (RFC 9110 §9.3.6).
    if method == Method::Connect && body != BodyLength::Empty {
        return Err(LocalError::ConflictingFraming);
    }
    if caller.transfer_encoding > 0 && !(caller.te_chunked && body == BodyLength::Streamed) {
        return Err(LocalError::ConflictingFraming);
    }
    if let Some(cl) = caller.content_length {
        let ok = match body {
            BodyLength::Empty => cl == 0,
            BodyLength::Known(n) => cl == n,
            BodyLength::Streamed => false,
        };
        if !ok {
            return Err(LocalError::ConflictingFraming);
        }
    }
    let own_length = caller.content_length.is_none();
    Ok(match body {
        // Methods that define content get an explicit zero (RFC 9110 §8.6).
        BodyLength::Empty => (
            BodyEncoder::Length(0),
            (own_length && method.defines_content()).then_some(0),
        ),
        BodyLength::Known(n) => (BodyEncoder::Length(n), own_length.then_some(n)),
        BodyLength::Streamed => (BodyEncoder::Chunked, None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClientHead, Config, COPY_LIMIT};

    #[test]
    fn a_chunk_end_still_due_is_no_write() {
        let mut c = ClientConn::new(Config::DEFAULT);
        c.send_request(b"PUT", b"/", &[(b"Host", b"a")], BodyLength::Streamed)
            .unwrap();
        let big = [b'x'; COPY_LIMIT + 1];
        assert_eq!(c.send_data(&big).unwrap(), Placement::AfterOutput);
        assert_eq!(c.send_step(), SendStep::Write);
        // The output, then the caller's bytes right after it.
        let n = c.output().len();
        c.consume_output(n);
        // The chunk's CRLF waits for the next bytes or the end: send them.
        assert_eq!(c.send_step(), SendStep::Body);
        c.send_end(&[]).unwrap();
        assert_eq!(c.send_step(), SendStep::Write);
        let n = c.output().len();
        c.consume_output(n);
        assert_eq!(c.send_step(), SendStep::Read);
        let _ = c.recv(b"HTTP/1.1 204 No Content\r\n\r\n");
        let mut head = ClientHead::default();
        assert_eq!(c.poll_head(&mut head), Ok(crate::client::HeadStep::Final));
        assert_eq!(c.send_step(), SendStep::Answered);
    }
}

//! The answering half of a server connection: informational responses, the
//! final head (prebuilt or with borrowed fields), the body and its end. Every
//! command is checked against the write-half table before anything is
//! queued, and a refused command leaves the output as it was.

use http_net_framing::BodyEncoder;
use http_net_head::{Method, Version};

use super::request_state::RequestState;
use crate::state::{CloseWhy, SWrite, SWriteEv};
use crate::status::write_status_line;
use crate::writer::{
    write_content_length, write_content_length_end, write_fields, write_server, CallerFields,
    Output, SendBody,
};
use crate::{BodyLength, Error, FieldPair, LocalError, Placement, PreparedResponse};

/// The answering half of a server connection, usable while the request is
/// borrowed (see [`ServerConn::parts`](crate::ServerConn::parts)).
#[derive(Debug)]
pub struct Responder<'a> {
    pub(super) ex: &'a mut RequestState,
    pub(super) out: &'a mut Output,
}

/// Where the final head comes from.
#[derive(Clone, Copy)]
enum HeadSrc<'r> {
    Prebuilt(&'r PreparedResponse),
    Borrowed(&'r [FieldPair<'r>]),
}

/// The framing field the connection writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    None,
    Length(u64),
    Chunked,
}

impl Responder<'_> {
    /// Queues `100 Continue` (never to an HTTP/1.0 peer: then a no-op; also
    /// a no-op when it was already sent).
    pub fn send_continue(&mut self) -> Result<(), Error> {
        self.ex.check_write(SWriteEv::Info)?;
        if self.ex.req.version == Version::Http10 || self.ex.req.continue_sent {
            return Ok(());
        }
        self.out
            .buf()
            .extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
        self.ex.req.continue_sent = true;
        Ok(())
    }

    /// Queues an informational (1xx) response with fields, e.g. `103 Early
    /// Hints` (never to an HTTP/1.0 peer: then a no-op once the fields are
    /// validated).
    pub fn send_informational(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
    ) -> Result<(), Error> {
        if !(100..=199).contains(&status) || status == 101 {
            return Err(LocalError::NotInformational.into());
        }
        self.ex.check_write(SWriteEv::Info)?;
        let buf = self.out.buf();
        let start = buf.len();
        write_status_line(buf, status, None);
        let caller = write_fields(buf, fields).inspect_err(|_| buf.truncate(start))?;
        if caller.has_framing() {
            buf.truncate(start);
            return Err(LocalError::ConflictingFraming.into());
        }
        if self.ex.req.version == Version::Http10 {
            buf.truncate(start);
            return Ok(());
        }
        buf.extend_from_slice(b"\r\n");
        self.ex.req.continue_sent |= status == 100;
        self.ex.move_write(SWriteEv::Info);
        Ok(())
    }

    /// Answers with a prebuilt response and a whole body. `Content-Length` is
    /// written for it; no body leaves for HEAD, 1xx, 204 or 304.
    pub fn respond(
        &mut self,
        response: &PreparedResponse,
        body: &[u8],
    ) -> Result<Placement, Error> {
        self.final_head(
            response.status(),
            HeadSrc::Prebuilt(response),
            BodyLength::Known(body.len() as u64),
        )?;
        // Fast path (the first two arms), general twin `send_data` then
        // `send_end` (the last arm): -42 instructions per request on the H5
        // loop (docs/PERFORMANCE.md, "The instruction-count pass", 1).
        let fast = cfg!(not(http_net_general_path));
        match (self.ex.write, self.ex.enc) {
            // The common answer: `send_data` then `send_end` on a
            // `Content-Length` body of exactly this length, without their
            // dispatch (the same placement, the same end).
            (SWrite::Body, BodyEncoder::Length(n)) if fast && n == body.len() as u64 => {
                let placement = self.out.place(body);
                self.ex.answered(SWriteEv::End);
                Ok(placement)
            }
            // No body may leave (HEAD, 204, 304): nothing is placed.
            (SWrite::Body, BodyEncoder::Discard(None)) if fast => {
                self.ex.answered(SWriteEv::End);
                Ok(Placement::Queued)
            }
            (SWrite::Body, _) => {
                let placement = self.send_data(body)?;
                self.send_end(&[])?;
                Ok(placement)
            }
            _ => Ok(Placement::Queued), // a switch: no body
        }
    }

    /// Answers with borrowed fields (validated on this call) and a whole
    /// body: `Content-Length` is written for it (`0` for an empty one), and
    /// the response is complete. The [`Placement`] is the body's, as
    /// [`respond`](Responder::respond) gives it; no body leaves for HEAD,
    /// 204 or 304, and a `101` (to a request that offered an upgrade) or a
    /// 2xx to CONNECT hands the connection over with no body.
    ///
    /// ```
    /// use http_net_conn::{Config, Placement, ServerConn, ServerEvent};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// let fields = [(&b"Content-Type"[..], &b"text/plain"[..])];
    /// let placement = conn.responder().respond_with(200, &fields, b"hi").unwrap();
    /// assert_eq!(placement, Placement::Queued);
    /// assert!(conn.output().ends_with(b"Content-Length: 2\r\n\r\nhi"));
    /// ```
    pub fn respond_with(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
        body: &[u8],
    ) -> Result<Placement, Error> {
        let len = if body.is_empty() {
            BodyLength::Empty
        } else {
            BodyLength::Known(body.len() as u64)
        };
        self.final_head(status, HeadSrc::Borrowed(fields), len)?;
        if self.ex.write != SWrite::Body {
            // Complete already (an empty body), or handed over.
            return Ok(Placement::Queued);
        }
        let placement = self.send_data(body)?;
        self.send_end(&[])?;
        Ok(placement)
    }

    /// Answers with a prebuilt response whose body of `len` bytes the caller
    /// sends itself (e.g. from a file): `Content-Length: len` is written and
    /// the response is complete. With [`Placement::AfterOutput`] the caller
    /// sends exactly `len` bytes right after the output; with
    /// [`Placement::Queued`] no body may leave (HEAD, 204, 304).
    pub fn respond_head_only(
        &mut self,
        response: &PreparedResponse,
        len: u64,
    ) -> Result<Placement, Error> {
        self.final_head(
            response.status(),
            HeadSrc::Prebuilt(response),
            BodyLength::Known(len),
        )?;
        if self.ex.write != SWrite::Body {
            return Ok(Placement::Queued);
        }
        let placement = self.send_data_direct(len)?;
        self.send_end(&[])?;
        Ok(placement)
    }

    /// Writes a response head with borrowed fields, validated on this call;
    /// the body follows with [`send_data`](Responder::send_data) and
    /// [`send_end`](Responder::send_end). With [`BodyLength::Empty`] the
    /// response is complete at once. A `101` (to a request that offered an
    /// upgrade) or a 2xx to CONNECT hands the connection over.
    pub fn send_head(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
        body: BodyLength,
    ) -> Result<(), Error> {
        self.final_head(status, HeadSrc::Borrowed(fields), body)
    }

    /// Sends body bytes of the current response (copied up to
    /// [`COPY_LIMIT`](crate::COPY_LIMIT), otherwise left to the caller).
    pub fn send_data(&mut self, data: &[u8]) -> Result<Placement, Error> {
        self.ex.check_write(SWriteEv::Data)?;
        Ok(self.ex.enc.data(self.out, data)?)
    }

    /// Counts `len` body bytes of a `Content-Length` response that the caller
    /// sends itself right after the output (a head-only answer).
    pub fn send_data_direct(&mut self, len: u64) -> Result<Placement, Error> {
        self.ex.check_write(SWriteEv::Data)?;
        let enc = &mut self.ex.enc;
        let drop = matches!(enc, BodyEncoder::Discard(_));
        enc.direct(self.out, len)?;
        Ok(if drop || len == 0 {
            Placement::Queued
        } else {
            Placement::AfterOutput
        })
    }

    /// Ends the current response, with trailers if it is chunked (trailers
    /// are dropped for a close-delimited or bodiless response). A no-op
    /// without trailers when the response is already complete, which
    /// includes a `101` or a 2xx to CONNECT (they have no body: the
    /// connection is handed over when they are queued); trailers then are
    /// [`LocalError::WrongState`]. Ending a `Content-Length` body early is
    /// refused and the connection closes.
    pub fn send_end(&mut self, trailers: &[FieldPair<'_>]) -> Result<(), Error> {
        match self.ex.write {
            SWrite::Done | SWrite::Switched if trailers.is_empty() => Ok(()),
            SWrite::Body => match self.ex.enc.end(self.out, trailers) {
                Ok(()) => {
                    let close_delimited = self.ex.enc == BodyEncoder::CloseDelimited;
                    self.ex.persist = self
                        .ex
                        .persist
                        .close_if(close_delimited, CloseWhy::CloseDelimited);
                    self.ex.answered(SWriteEv::End);
                    Ok(())
                }
                Err(LocalError::BodyUnderrun) => {
                    // The peer was promised more bytes: never reuse (C117).
                    self.ex.close(CloseWhy::Truncated);
                    Err(LocalError::BodyUnderrun.into())
                }
                Err(e) => Err(e.into()),
            },
            _ => Err(LocalError::WrongState.into()),
        }
    }

    /// Queues the final head. Inlined into each of its three callers, where
    /// the source of the fields and the body length are known (callgrind:
    /// -22 to -106 instructions per answer, `docs/PERFORMANCE.md`, "Connections").
    #[inline(always)]
    fn final_head(&mut self, status: u16, src: HeadSrc<'_>, body: BodyLength) -> Result<(), Error> {
        let to_body = self.ex.check_write(SWriteEv::Head)?;
        if !(100..=999).contains(&status) {
            return Err(LocalError::InvalidStatus.into());
        }
        // Read only once the answer has started (`response_status`), so a
        // head refused below leaves nothing wrong behind.
        self.ex.status = status;
        let req = self.ex.req;
        let switch = match status {
            101 if req.upgrade_offered => true,
            101 => return Err(LocalError::UpgradeNotOffered.into()),
            100..=199 => return Err(LocalError::InformationalAsFinal.into()),
            200..=299 => req.method == Method::Connect,
            _ => false,
        };
        let start = self.out.buf().len();
        let caller = match src {
            HeadSrc::Prebuilt(r) => {
                self.out.buf().extend_from_slice(r.head_bytes());
                *r.caller_fields()
            }
            HeadSrc::Borrowed(fields) => {
                let buf = self.out.buf();
                write_status_line(buf, status, None);
                write_fields(buf, fields).inspect_err(|_| buf.truncate(start))?
            }
        };
        let (enc, frame, close) = match self.plan(status, switch, body, &caller) {
            Ok(plan) => plan,
            Err(e) => {
                self.out.buf().truncate(start);
                return Err(e.into());
            }
        };
        let http10 = req.version == Version::Http10;
        let server = self.ex.config.server_name();
        let buf = self.out.buf();
        if !caller.server {
            write_server(buf, server);
        }
        if let (Some(line), false) = (&self.ex.date_line, caller.date) {
            buf.extend_from_slice(line);
        }
        let connection: &[u8] = if close.is_some() && !caller.close {
            b"Connection: close\r\n"
        } else if close.is_none() && http10 && !switch && !caller.keep_alive {
            b"Connection: keep-alive\r\n"
        } else {
            b""
        };
        match frame {
            // The length line is the head's last: it and the empty line in
            // one append.
            Frame::Length(n) if connection.is_empty() => write_content_length_end(buf, n),
            Frame::Length(n) => write_content_length(buf, n),
            Frame::Chunked => buf.extend_from_slice(b"Transfer-Encoding: chunked\r\n"),
            Frame::None => {}
        }
        if !(connection.is_empty() && matches!(frame, Frame::Length(_))) {
            buf.extend_from_slice(connection);
            buf.extend_from_slice(b"\r\n");
        }
        if let Some(why) = close {
            self.ex.persist = self.ex.persist.close(why);
        }
        if switch {
            self.ex.answered(SWriteEv::Switch);
        } else {
            self.ex.enc = enc;
            self.ex.write = to_body;
            if body == BodyLength::Empty {
                self.ex.answered(SWriteEv::End);
            }
        }
        Ok(())
    }

    /// Decides the encoder, the framing field and why the connection closes
    /// after this response, if it does (RFC 9112 §6, §9.3; RFC 9110 §8.6).
    fn plan(
        &self,
        status: u16,
        switch: bool,
        body: BodyLength,
        caller: &CallerFields,
    ) -> Result<(BodyEncoder, Frame, Option<CloseWhy>), LocalError> {
        let req = &self.ex.req;
        let http10 = req.version == Version::Http10;
        // No Content-Length may be sent with these (RFC 9110 §8.6).
        let no_length = status < 200 || status == 204 || switch;
        let not_modified = status == 304;
        let head_req = req.method == Method::Head;
        if caller.transfer_encoding > 0 {
            let ok = caller.te_chunked
                && body == BodyLength::Streamed
                && !http10
                && !no_length
                && !not_modified;
            if !ok {
                return Err(LocalError::ConflictingFraming);
            }
        }
        if let Some(cl) = caller.content_length {
            let ok = !no_length
                && match body {
                    BodyLength::Empty => cl == 0 || head_req || not_modified,
                    BodyLength::Known(n) => cl == n,
                    BodyLength::Streamed => false,
                };
            if !ok {
                return Err(LocalError::ConflictingFraming);
            }
        }
        let streamed_to_10 = body == BodyLength::Streamed && http10;
        let (enc, frame) = if no_length || not_modified {
            (BodyEncoder::Discard(None), Frame::None)
        } else {
            let frame = match body {
                _ if caller.has_framing() => Frame::None,
                BodyLength::Empty => Frame::Length(0),
                BodyLength::Known(n) => Frame::Length(n),
                BodyLength::Streamed if http10 => Frame::None,
                BodyLength::Streamed => Frame::Chunked,
            };
            let enc = match body {
                _ if head_req => BodyEncoder::Discard(None),
                BodyLength::Empty => BodyEncoder::Length(0),
                BodyLength::Known(n) => BodyEncoder::Length(n),
                BodyLength::Streamed if http10 => BodyEncoder::CloseDelimited,
                BodyLength::Streamed => BodyEncoder::Chunked,
            };
            (enc, frame)
        };
        // The joint decision: what was decided before (the request's
        // `Connection`, a graceful shutdown), then what this answer adds.
        let close = if switch {
            None
        } else if let Some(why) = self.ex.persist.why() {
            Some(why)
        } else if caller.close {
            Some(CloseWhy::LocalAsked)
        } else if enc == BodyEncoder::CloseDelimited || streamed_to_10 && !head_req {
            Some(CloseWhy::CloseDelimited)
        } else if self.ex.unread_closes() {
            Some(CloseWhy::UnreadBody)
        } else {
            None
        };
        Ok((enc, frame, close))
    }
}

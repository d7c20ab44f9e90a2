//! What a handler sees: one request and the means to answer it.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use http_net_conn::driver::{HandlerBody, Leftover, Transfer};
use http_net_conn::{
    BodyLength, FieldPair, OwnedRequestHead, Placement, PreparedResponse, Responder, ServerConn,
    Timestamp, COPY_LIMIT,
};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::Error;
use crate::lend::{Hold, Lent};
use crate::shared::Shared;
use crate::slot::Slot;

use crate::timer::Timer;
use crate::wire::{self, Filled, Transport};

/// Output is written as soon as this much is queued (smaller answers wait
/// until the connection next reads, so pipelined answers leave together).
const FLUSH_AT: usize = 16 * 1024;

/// I/O known about the current request, kept by the connection task between
/// handler calls (the protocol state is the `ServerConn`'s).
#[derive(Debug, Default)]
pub(crate) struct Cycle {
    /// What the handler's body reads keep (bytes, trailers).
    body: HandlerBody,
    /// Reading the body timed out or fell below the minimum rate.
    pub(crate) timed_out: bool,
    /// Writing to or reading from the stream failed: close without more.
    pub(crate) broken: bool,
    pub(crate) peer: Option<SocketAddr>,
    /// The connection's place in the server's registry (writes waiting on
    /// the peer mark it, and can be evicted).
    pub(crate) slot: Option<Arc<Slot>>,
    /// The connection's one runtime timer, for all its waits.
    pub(crate) timer: Timer,
}

impl Cycle {
    pub(crate) fn new(peer: Option<SocketAddr>, slot: Arc<Slot>) -> Cycle {
        Cycle {
            peer,
            slot: Some(slot),
            ..Cycle::default()
        }
    }

    /// The time of this wakeup of the connection's task (the clock, when
    /// the cycle has no slot).
    pub(crate) fn now(&self) -> Timestamp {
        match &self.slot {
            Some(slot) => slot.clock.stamp(),
            None => wire::stamp(crate::timer::read_clock()),
        }
    }

    pub(crate) fn reset(&mut self) {
        self.body.clear();
        self.timed_out = false;
    }
}

/// One request and its answer, handed to the [`Handler`](crate::Handler).
///
/// Read the head with [`request`](Exchange::request) (or the shortcuts
/// [`method`](Exchange::method), [`path`](Exchange::path),
/// [`field`](Exchange::field)), the body with
/// [`read_body`](Exchange::read_body) (`100 Continue` is sent on its first
/// read when the client asked for it and it is still due), then answer
/// with one of:
/// - [`respond`](Exchange::respond): a prebuilt [`PreparedResponse`] and a whole body
///   (bodies over 4 KiB are written with a vectored write, never copied);
/// - [`respond_with`](Exchange::respond_with): borrowed fields and a whole body;
/// - [`send_head`](Exchange::send_head), then [`send_data`](Exchange::send_data)
///   and [`send_end`](Exchange::send_end): a body of known length written
///   piece by piece, or a chunked one with [`BodyLength::Streamed`];
/// - [`conn`](Exchange::conn): the connection's own commands, for what the
///   shortcuts do not cover, with [`send_placed`](Exchange::send_placed) for
///   a body it leaves to the caller.
///
/// A handler that returns without a complete answer gets `500` sent for it
/// if nothing was sent yet (`408` if its body read timed out), and the
/// connection closes; one that panics likewise. One that began an answer
/// and did not send all of its body (a body the connection left to it and
/// not sent with `send_placed`, or an answer not ended) has its connection
/// closed after what was due before the missing bytes, never reused, and
/// is counted in [`Counters::unsent_bodies`](crate::Counters::unsent_bodies).
pub struct Exchange<'a> {
    conn: &'a mut ServerConn,
    stream: &'a mut (dyn Transport + 'a),
    st: &'a mut Cycle,
    shared: &'a Shared,
}

http_net_conn::__exchange_accessors! {
    conn: conn,
    peer: st.peer,
    body: st.body,
    /// ```
    /// use http_net_tokio::http_net_conn::form_decode;
    /// use http_net_tokio::{Error, Exchange};
    ///
    /// async fn search(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     let mut q = Vec::new();
    ///     for (key, value) in ex.query_pairs() {
    ///         if key == b"q" {
    ///             // `q=a+b%21` is `a b!`; a malformed escape is a 400.
    ///             match form_decode(value) {
    ///                 Ok(v) => q = v.into_owned(),
    ///                 Err(_) => return ex.respond_with(400, &[], b"bad escape").await,
    ///             }
    ///         }
    ///     }
    ///     ex.respond_with(200, &[], &q).await
    /// }
    /// ```
}

impl<'a> Exchange<'a> {
    pub(crate) fn new(
        conn: &'a mut ServerConn,
        stream: &'a mut (dyn Transport + 'a),
        st: &'a mut Cycle,
        shared: &'a Shared,
    ) -> Self {
        Exchange {
            conn,
            stream,
            st,
            shared,
        }
    }

    /// An owned copy of the request head, which borrows nothing: keep it
    /// across the answer, or move it to another task (`None` once the
    /// response is complete). It allocates; the borrowing accessors do not.
    ///
    /// A path borrowed from the exchange ([`path`](Exchange::path)) cannot
    /// be used after a call that answers (`&mut self`); the copy can:
    ///
    /// ```
    /// use http_net_tokio::{Error, Exchange};
    ///
    /// async fn echo_path(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     let Some(head) = ex.request_head() else { return Ok(()) };
    ///     ex.respond_with(200, &[], head.path()).await
    /// }
    /// ```
    pub fn request_head(&self) -> Option<OwnedRequestHead> {
        self.conn.request().map(|r| r.to_owned_head())
    }

    /// Lowers the body limit for this request to `max_bytes` (the server's
    /// [`max_body_bytes`](crate::ServerOptions::max_body_bytes) stays the
    /// ceiling: a declared `Content-Length` over it was answered `413`
    /// before the handler ran, so a limit can only be lowered here).
    /// Call it before reading the body. A declared length over the limit is
    /// refused at once, before `100 Continue`; a chunked body when its
    /// reads pass the limit. Either way the call or the read fails with
    /// [`Error::OverLimit`]`(`[`Limit::BodyBudget`](crate::Limit::BodyBudget)`(max_bytes))` and the
    /// server answers `413 Content Too Large` (if no answer has started) and
    /// closes the connection (RFC 9110 §15.5.14).
    ///
    /// ```
    /// use tokio::io::AsyncReadExt;
    /// use http_net_tokio::{Error, Exchange};
    ///
    /// async fn upload(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     let limit = if ex.path() == b"/avatar" { 64 * 1024 } else { 1 << 20 };
    ///     ex.limit_body(limit)?;
    ///     let mut body = Vec::new();
    ///     // Over the limit: `Error::OverLimit` inside the `io::Error`, and 413.
    ///     ex.body().read_to_end(&mut body).await?;
    ///     ex.respond_with(201, &[], b"").await
    /// }
    /// ```
    pub fn limit_body(&mut self, max_bytes: u64) -> Result<(), Error> {
        // The connection keeps the limit, counts the body against it and
        // queues the `413`.
        Ok(self.conn.limit_handler_body(max_bytes)?)
    }

    /// The request body as a `tokio::io::AsyncRead` (end of stream at the
    /// end of the body; then the trailers are in
    /// [`trailers`](Exchange::trailers)): [`read_body`](Exchange::read_body)
    /// behind the trait, with its `100 Continue`, deadlines, minimum rate
    /// and limits. Read it before the response is complete: afterwards it
    /// reads as empty and the connection discards it. An error is an
    /// `io::Error` holding the adapter's [`Error`] (`get_ref`, `downcast`).
    /// Each read that must wait for the peer boxes that wait (a read the
    /// connection's buffer serves does not).
    ///
    /// ```
    /// use tokio::io::AsyncReadExt;
    /// use http_net_tokio::{Error, Exchange};
    ///
    /// async fn count(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     let mut body = Vec::new();
    ///     ex.body().read_to_end(&mut body).await?;
    ///     ex.respond_with(200, &[], body.len().to_string().as_bytes()).await
    /// }
    /// ```
    pub fn body(&mut self) -> Body<'_, 'a> {
        Body {
            hold: Hold::Alone(Lent::Here(self)),
        }
    }

    /// The response body as a `tokio::io::AsyncWrite`, after
    /// [`send_head`](Exchange::send_head): writes are sent as
    /// [`send_data`](Exchange::send_data) sends them (as chunks for
    /// [`BodyLength::Streamed`], within the length for `Known`), copied into
    /// the connection's output up to 4 KiB at a time and written out once
    /// 16 KiB are queued, on `flush`, or when the handler returns.
    /// `shutdown` ends the body ([`send_end`](Exchange::send_end) without
    /// trailers) and writes it out.
    ///
    /// ```
    /// use tokio::io::AsyncWriteExt;
    /// use http_net_tokio::http_net_conn::BodyLength;
    /// use http_net_tokio::{Error, Exchange};
    ///
    /// async fn numbers(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     ex.send_head(200, &[(b"Content-Type", b"text/plain")], BodyLength::Streamed)?;
    ///     let mut w = ex.body_writer();
    ///     for i in 0..1000 {
    ///         w.write_all(format!("{i}\n").as_bytes()).await?;
    ///     }
    ///     w.shutdown().await?; // the last chunk
    ///     Ok(())
    /// }
    /// ```
    pub fn body_writer(&mut self) -> BodyWriter<'_, 'a> {
        BodyWriter {
            hold: Hold::Alone(Lent::Here(self)),
            ended: false,
        }
    }

    /// [`body`](Exchange::body) and [`body_writer`](Exchange::body_writer)
    /// at once, over this one exchange (each alone borrows it whole): to
    /// stream a response while the request body is still arriving, as
    /// `tokio::io::copy` from one to the other does. Poll both from one task
    /// (a wait either one began is finished by whichever is polled next);
    /// the pair takes one allocation.
    ///
    /// ```
    /// use http_net_tokio::http_net_conn::BodyLength;
    /// use http_net_tokio::{Error, Exchange};
    /// use tokio::io::AsyncWriteExt;
    ///
    /// async fn echo(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     ex.send_head(200, &[], BodyLength::Streamed)?;
    ///     let (mut body, mut out) = ex.body_and_writer();
    ///     tokio::io::copy(&mut body, &mut out).await?;
    ///     out.shutdown().await?;
    ///     Ok(())
    /// }
    /// ```
    pub fn body_and_writer(&mut self) -> (Body<'_, 'a>, BodyWriter<'_, 'a>) {
        let (r, w) = Hold::pair(self);
        (
            Body { hold: r },
            BodyWriter {
                hold: w,
                ended: false,
            },
        )
    }

    /// Reads request body bytes into `buf`; `Ok(0)` at the end of the body
    /// (then the trailers are in [`trailers`](Exchange::trailers)), and once
    /// the response is complete (the connection then discards the rest).
    /// The first read sends `100 Continue` when the request expects it and
    /// no answer has started (RFC 9110 §10.1.1). Each wait is bounded by the
    /// body timeout and the minimum body rate; a failure there is answered
    /// `408` if the handler has not answered. A body over its limit (the
    /// connection's body budget, or [`limit_body`](Exchange::limit_body))
    /// fails with [`Error::OverLimit`] (see there). [`body`](Exchange::body)
    /// is the same reader as an `AsyncRead`.
    pub async fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        loop {
            match self.body_step(buf)? {
                Some(n) => return Ok(n),
                None => self.body_wait().await?,
            }
        }
    }

    /// What the body has for `buf` without waiting: `Some(n)` bytes read
    /// (0 at its end), `None` when the connection needs input first
    /// ([`body_wait`](Exchange::body_wait)).
    fn body_step(&mut self, buf: &mut [u8]) -> Result<Option<usize>, Error> {
        Ok(self.st.body.read(self.conn, self.st.broken, buf)?)
    }

    /// Sends what is queued (a `100 Continue`), then waits for the next
    /// body bytes within the body timeout and the minimum body rate, or
    /// until the connection is evicted.
    async fn body_wait(&mut self) -> Result<(), Error> {
        self.write_out(&[]).await?;
        let st = &mut *self.st;
        let now = st.now();
        let (deadline, at_deadline) = self.conn.transfer_until(Transfer::Body, now, now);
        // The body's progress, shown to eviction; an eviction ends the wait.
        let slot = st.slot.as_deref();
        if let Some(slot) = slot {
            slot.body.begin(now);
        }
        let wake = slot.map(|s| &s.wake);
        let r = wire::fill(
            self.stream,
            self.conn,
            &mut st.timer,
            deadline,
            at_deadline,
            wake,
        );
        let r = r.await;
        // After a wait, the time of the wakeup that ended it.
        let n = match r {
            Ok(Filled::Bytes(n)) => n as u64,
            _ => 0,
        };
        let waited = st.now().saturating_duration_since(now);
        self.conn.transfer_moved(Transfer::Body, waited, n);
        if let Some(slot) = slot {
            let m = self.conn.transfer(Transfer::Body);
            slot.body.end(m.bytes(), m.time_waited());
            if slot.evicted() {
                // Made way for a newcomer: `408`, as a body that timed out
                // (the std server's answer).
                st.timed_out = true;
                return Err(Error::Evicted);
            }
        }
        match r {
            Ok(Filled::Bytes(_) | Filled::Eof | Filled::Woken) => Ok(()),
            Ok(Filled::Full) => Err(Error::BodyUnavailable),
            Err(Error::Timeout(_) | Error::TooSlow(_)) => {
                st.timed_out = true;
                Err(wire::spent(self.conn.transfer_spent(at_deadline)))
            }
            Err(e) => {
                st.broken = true;
                Err(e)
            }
        }
    }

    /// Sends `100 Continue` now, if it is still due
    /// ([`ServerConn::continue_due`](http_net_conn::ServerConn::continue_due):
    /// an HTTP/1.1 request that expects it, body bytes still to come, no
    /// `100` or answer sent yet); otherwise does nothing. The body reader
    /// does it on its first read.
    pub async fn send_continue(&mut self) -> Result<(), Error> {
        if self.conn.continue_due() {
            self.conn.responder().send_continue()?;
            self.flush().await?;
        }
        Ok(())
    }

    /// Sends an informational response, e.g. `103 Early Hints`, at once.
    pub async fn send_informational(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
    ) -> Result<(), Error> {
        self.conn.responder().send_informational(status, fields)?;
        self.flush().await
    }

    /// Answers with a prebuilt response and its whole body.
    pub async fn respond(&mut self, response: &PreparedResponse, body: &[u8]) -> Result<(), Error> {
        let placement = self.answer().respond(response, body)?;
        self.place(placement, body).await
    }

    /// Answers with borrowed fields and a whole body (`Content-Length` is added).
    pub async fn respond_with(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
        body: &[u8],
    ) -> Result<(), Error> {
        let placement = self.answer().respond_with(status, fields, body)?;
        self.place(placement, body).await
    }

    /// Queues a response head; the body follows with
    /// [`send_data`](Exchange::send_data) and [`send_end`](Exchange::send_end).
    /// `BodyLength::Known(n)` writes `Content-Length: n`;
    /// `BodyLength::Streamed` a chunked body (close-delimited to HTTP/1.0).
    /// A `101` (to a request that offered `Upgrade`) or a `2xx` to `CONNECT`
    /// hands the connection over: take it with [`upgrade`](Exchange::upgrade).
    pub fn send_head(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
        body: BodyLength,
    ) -> Result<(), Error> {
        Ok(self.answer().send_head(status, fields, body)?)
    }

    /// Sends body bytes. Large pieces go out at once with a vectored write
    /// (no copy); small ones are queued and leave with the next large one,
    /// [`flush`](Exchange::flush), or the end of the handler.
    pub async fn send_data(&mut self, data: &[u8]) -> Result<(), Error> {
        let placement = self.conn.responder().send_data(data)?;
        self.place(placement, data).await
    }

    /// Ends the response, with trailers if it is chunked (a no-op after a
    /// `101` or a `2xx` to `CONNECT`, which have no body).
    pub fn send_end(&mut self, trailers: &[FieldPair<'_>]) -> Result<(), Error> {
        Ok(self.conn.responder().send_end(trailers)?)
    }

    /// Sends a body as the connection placed it, after a command given
    /// through [`conn`](Exchange::conn) (`respond`, `respond_with`,
    /// `respond_head_only`, `send_data`) returned `placement` for it. With
    /// [`Placement::AfterOutput`] the connection left `body` to the caller:
    /// the queued output and then `body` are written now, with a vectored
    /// write (never copied), bounded as every response write is (the write
    /// timeout, the minimum response rate, the response deadline); this
    /// must come before the next command. With [`Placement::Queued`] the
    /// connection holds the bytes already (or none may leave, as for
    /// `HEAD`): `body` is not written again, and the output leaves with the
    /// rest. A handler that returns without sending a body left to it has
    /// its connection closed (see [`Exchange`]).
    ///
    /// ```
    /// use http_net_tokio::{Exchange, Handler, HandlerError, Server};
    /// use http_net_tokio::http_net_conn::PreparedResponse;
    ///
    /// struct Big(PreparedResponse, Vec<u8>);
    ///
    /// impl Handler for Big {
    ///     async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
    ///         // Over `COPY_LIMIT`: the connection leaves the body to us.
    ///         let placement = ex.conn().responder().respond(&self.0, &self.1)?;
    ///         Ok(ex.send_placed(placement, &self.1).await?)
    ///     }
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let ok = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    /// let server = Server::bind("127.0.0.1:0").await?;
    /// let addr = server.local_addr()?;
    /// let stop = server.handle();
    /// let task = tokio::spawn(server.serve(Big(ok, vec![b'x'; 64 * 1024])));
    ///
    /// let client = http_net_tokio::Client::new();
    /// let mut resp = client.send_to("127.0.0.1", addr.port(), b"GET", b"/", &[], b"").await?;
    /// assert_eq!(resp.body_to_vec(1 << 20).await?.len(), 64 * 1024);
    /// drop(resp);
    /// drop(client);
    ///
    /// stop.shutdown();
    /// task.await.unwrap()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub async fn send_placed(&mut self, placement: Placement, body: &[u8]) -> Result<(), Error> {
        self.place(placement, body).await
    }

    /// Writes everything queued to the peer now.
    pub async fn flush(&mut self) -> Result<(), Error> {
        self.write_out(&[]).await
    }

    /// Closes the connection after this response (`Connection: close` is added).
    pub fn close_after_response(&mut self) {
        self.conn.close_after_response();
    }

    /// After answering `101 Switching Protocols` (to a request that offered
    /// `Upgrade`) or `2xx` to `CONNECT` with [`send_head`](Exchange::send_head):
    /// the stream, which reads first the bytes that arrived after the
    /// request, for the new protocol. The connection closes when the handler
    /// returns; no deadline of the server applies to the stream any more.
    pub async fn upgrade(&mut self) -> Result<Upgraded<'_>, Error> {
        self.flush().await?;
        let buffered = self.conn.switched_input()?.ok_or(Error::NotSwitched)?;
        Ok(Upgraded {
            stream: &mut *self.stream,
            buffered,
        })
    }

    /// The responder for a final answer (during a graceful shutdown, the
    /// answer closes the connection).
    fn answer(&mut self) -> Responder<'_> {
        if self.shared.stopping() {
            self.conn.close_after_response();
        }
        self.conn.responder()
    }

    async fn place(&mut self, placement: Placement, body: &[u8]) -> Result<(), Error> {
        match placement {
            Placement::AfterOutput => self.write_out(body).await,
            Placement::Queued if self.conn.output().len() >= FLUSH_AT => self.write_out(&[]).await,
            Placement::Queued => Ok(()),
        }
    }

    async fn write_out(&mut self, body: &[u8]) -> Result<(), Error> {
        let st = &mut *self.st;
        let r = wire::flush_with(
            self.stream,
            self.conn,
            body,
            &mut st.timer,
            st.slot.as_deref(),
        );
        let r = r.await;
        self.st.broken |= r.is_err();
        r
    }
}

/// A connection handed over after `101` or a `2xx` to `CONNECT`: reads give
/// the bytes that were already buffered first, then the stream's; writes go
/// to the stream.
pub struct Upgraded<'a> {
    stream: &'a mut (dyn Transport + 'a),
    buffered: Leftover,
}

impl Upgraded<'_> {
    /// The bytes that arrived after the request head, not yet read.
    pub fn buffered(&self) -> &[u8] {
        self.buffered.rest()
    }
}

impl AsyncRead for Upgraded<'_> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.buffered.rest().is_empty() {
            let n = this.buffered.take(buf.initialize_unfilled());
            buf.advance(n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut *this.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Upgraded<'_> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut *self.get_mut().stream).poll_write(cx, buf)
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.get_mut().stream).poll_flush(cx)
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.get_mut().stream).poll_shutdown(cx)
    }
}

/// The request body as a `tokio::io::AsyncRead` (see [`Exchange::body`]).
pub struct Body<'b, 'a> {
    hold: Hold<'b, Exchange<'a>>,
}

impl AsyncRead for Body<'_, '_> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.get_mut().hold.with(|lent| loop {
            let ex = ready!(lent.poll_back(cx)).map_err(Error::into_io)?;
            let step = ex.body_step(buf.initialize_unfilled());
            match step.map_err(Error::into_io)? {
                Some(n) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                // Lent to the wait, polled at the top of the loop.
                None => lent.start(|ex| async move {
                    let r = ex.body_wait().await;
                    (ex, r)
                }),
            }
        })
    }
}

/// The response body as a `tokio::io::AsyncWrite` (see
/// [`Exchange::body_writer`]).
pub struct BodyWriter<'b, 'a> {
    hold: Hold<'b, Exchange<'a>>,
    /// `shutdown` ended the body.
    ended: bool,
}

/// Finishes the step in flight, then writes out what is queued.
fn poll_out(lent: &mut Lent<'_, Exchange<'_>>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
    let ex = ready!(lent.poll_back(cx)).map_err(Error::into_io)?;
    if ex.conn.output().is_empty() {
        return Poll::Ready(Ok(()));
    }
    lent.start(|ex| async move {
        let r = ex.flush().await;
        (ex, r)
    });
    lent.poll_back(cx)
        .map(|r| r.map(|_| ()).map_err(Error::into_io))
}

impl AsyncWrite for BodyWriter<'_, '_> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let mut flushed = false;
        self.get_mut().hold.with(|lent| loop {
            let ex = ready!(lent.poll_back(cx)).map_err(Error::into_io)?;
            if buf.is_empty() {
                return Poll::Ready(Ok(0));
            }
            if !flushed && ex.conn.output().len() >= FLUSH_AT {
                // Written out before more is queued, polled at the top.
                flushed = true;
                lent.start(|ex| async move {
                    let r = ex.flush().await;
                    (ex, r)
                });
                continue;
            }
            // Up to `COPY_LIMIT` the connection copies the piece: the
            // caller's buffer is not needed after this call.
            let piece = buf.get(..COPY_LIMIT).unwrap_or(buf);
            return match ex.conn.responder().send_data(piece) {
                Ok(Placement::Queued) => Poll::Ready(Ok(piece.len())),
                Ok(Placement::AfterOutput) => {
                    // Not made by this connection for so small a piece;
                    // if it were, the piece is owed: it leaves with the
                    // next call.
                    let owed = piece.to_vec();
                    lent.start(move |ex| async move {
                        let r = ex.send_placed(Placement::AfterOutput, &owed).await;
                        (ex, r)
                    });
                    Poll::Ready(Ok(piece.len()))
                }
                Err(e) => Poll::Ready(Err(Error::Protocol(e).into_io())),
            };
        })
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().hold.with(|lent| poll_out(lent, cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let ended = &mut this.ended;
        this.hold.with(|lent| {
            if !*ended {
                let ex = ready!(lent.poll_back(cx)).map_err(Error::into_io)?;
                *ended = true;
                ex.send_end(&[]).map_err(Error::into_io)?;
            }
            poll_out(lent, cx)
        })
    }
}

// Debug for the borrowed handles (the exchange's and `Upgraded`'s are
// `conn`'s): what the connection says about them, not the stream or the
// shared state behind it.
impl std::fmt::Debug for Body<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Body").finish_non_exhaustive()
    }
}

impl std::fmt::Debug for BodyWriter<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyWriter")
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

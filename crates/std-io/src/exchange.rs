//! What a handler sees: one request and the means to answer it.

use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_net_conn::driver::{HandlerBody, KeptRequest, Leftover, Transfer};
use http_net_conn::{
    BodyLength, FieldPair, OwnedRequestHead, Placement, PreparedResponse, Responder, ServerConn,
};

use crate::error::Error;
use crate::lock::lock;
use crate::shared::Shared;
use crate::slot::Slot;
use crate::transport::Transport;
use crate::wire::{self, Filled, Paced, WriteSlices};

/// Output is written as soon as this much is queued (smaller answers wait
/// until the connection next reads, so pipelined answers leave together).
const FLUSH_AT: usize = 16 * 1024;

/// What the connection loop keeps between handler calls: I/O known only
/// (the protocol state — the expectation, whether `100` was sent, where the
/// answer stands, failure — is the connection's: see
/// [`ServerConn::answer_state`]).
#[derive(Debug)]
pub(crate) struct Cycle {
    /// What the handler's body reads keep (bytes, trailers).
    body: HandlerBody,
    /// The request's method and target, kept for the hooks (only when a
    /// hook is set), and when it started.
    pub(crate) kept: KeptRequest,
    /// Reading the body timed out.
    pub(crate) timed_out: bool,
    /// Writing to or reading from the stream failed: close without more.
    pub(crate) broken: bool,
    pub(crate) read_timeout: Option<Option<Duration>>,
    /// The responses' write slices (their pace is the connection's).
    pub(crate) write: WriteSlices,
    pub(crate) peer: Option<SocketAddr>,
}

impl Cycle {
    pub(crate) fn new(peer: Option<SocketAddr>) -> Cycle {
        Cycle {
            body: HandlerBody::default(),
            kept: KeptRequest::new(peer),
            timed_out: false,
            broken: false,
            read_timeout: None,
            write: WriteSlices::default(),
            peer,
        }
    }

    /// A new request, begun at `now`: its body and responses are paced
    /// afresh, by the connection.
    pub(crate) fn reset(&mut self, conn: &mut ServerConn, now: Instant) {
        self.body.clear();
        self.timed_out = false;
        conn.start_transfers(|| wire::stamp(now));
    }

    /// Writes the connection's output within the responses' pace.
    pub(crate) fn flush(
        &mut self,
        stream: &mut dyn Transport,
        conn: &mut ServerConn,
        slot: &Slot,
    ) -> Result<(), Error> {
        wire::flush_paced(stream, conn, &[], &mut self.paced(slot))
    }

    /// Writes the output due before the connection closes: up to a body
    /// the handler owes, nothing past it (see [`wire::flush_until_owed`]).
    pub(crate) fn flush_due(
        &mut self,
        stream: &mut dyn Transport,
        conn: &mut ServerConn,
        slot: &Slot,
    ) -> Result<(), Error> {
        wire::flush_until_owed(stream, conn, &mut self.paced(slot))
    }

    /// The responses' write slices, shown on the slot's write gauge.
    fn paced<'s>(&'s mut self, slot: &'s Slot) -> Paced<'s> {
        Paced {
            slices: &mut self.write,
            gauge: Some(slot.write_gauge()),
        }
    }
}

/// One request and its answer, handed to the [`Handler`](crate::Handler).
///
/// Read the head with [`request`](Exchange::request) (or the shortcuts
/// [`method`](Exchange::method), [`target`](Exchange::target),
/// [`field`](Exchange::field)), the body with [`body`](Exchange::body)
/// (a `std::io::Read`; `100 Continue` is sent on its first read when the
/// client asked for it), then answer with one of:
/// - [`respond`](Exchange::respond): a prebuilt [`PreparedResponse`] and a whole body
///   (the fastest; bodies over 4 KiB are written with a vectored write,
///   never copied);
/// - [`respond_with`](Exchange::respond_with): borrowed fields and a whole body;
/// - [`send_head`](Exchange::send_head) then [`send_data`](Exchange::send_data)
///   / [`body_writer`](Exchange::body_writer) and [`send_end`](Exchange::send_end):
///   a body of known length written piece by piece, or a streamed (chunked)
///   body with [`BodyLength::Streamed`];
/// - [`conn`](Exchange::conn): the connection's own commands, for what the
///   shortcuts do not cover, with [`send_placed`](Exchange::send_placed) for
///   a body it leaves to the caller.
///
/// A handler that returns without answering gets `500` sent for it (and the
/// connection closes); one that panics likewise.
///
/// # Time and stack
///
/// Body reads wait at most the body stall timeout for the next bytes and
/// fail below the minimum body rate; writes fail when the peer takes no byte
/// for the write stall timeout or reads below the minimum response rate
/// (see [`ServerBuilder`](crate::ServerBuilder)). The handler runs on a
/// connection thread whose stack is 2 MiB by default
/// ([`ServerBuilder::thread_stack_size`](crate::ServerBuilder::thread_stack_size)),
/// Rust's own default for spawned threads: an ordinary handler, even one
/// with a 512 KiB buffer on its stack, does not overflow it.
pub struct Exchange<'a> {
    conn: &'a mut ServerConn,
    stream: &'a mut dyn Transport,
    st: &'a mut Cycle,
    shared: &'a Shared,
    slot: &'a Slot,
}

http_net_conn::__exchange_accessors! {
    conn: conn,
    peer: st.peer,
    body: st.body,
    /// ```
    /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
    /// use http_net::conn::form_decode;
    /// use http_net::blocking::{Error, Exchange};
    ///
    /// fn search(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     let mut q = Vec::new();
    ///     for (key, value) in ex.query_pairs() {
    ///         if key == b"q" {
    ///             // `q=a+b%21` is `a b!`; a malformed escape is a 400.
    ///             match form_decode(value) {
    ///                 Ok(v) => q = v.into_owned(),
    ///                 Err(_) => return ex.respond_with(400, &[], b"bad escape"),
    ///             }
    ///         }
    ///     }
    ///     ex.respond_with(200, &[], &q)
    /// }
    /// ```
}

impl<'a> Exchange<'a> {
    pub(crate) fn new(
        conn: &'a mut ServerConn,
        stream: &'a mut dyn Transport,
        st: &'a mut Cycle,
        shared: &'a Shared,
        slot: &'a Slot,
    ) -> Self {
        Exchange {
            conn,
            stream,
            st,
            shared,
            slot,
        }
    }

    /// The responder for a final answer (during a graceful shutdown, the
    /// answer closes the connection).
    fn answer(&mut self) -> Responder<'_> {
        if self.shared.stopping.load(Ordering::Relaxed) {
            self.conn.close_after_response();
        }
        self.conn.responder()
    }

    /// An owned copy of the request head, which borrows nothing: keep it
    /// across the answer, or move it to another thread (`None` once the
    /// response is complete). It allocates; the borrowing accessors do not.
    ///
    /// A path borrowed from the exchange ([`path`](Exchange::path)) cannot
    /// be used after a call that answers (`&mut self`); the copy can:
    ///
    /// ```
    /// # mod http_net { pub mod blocking { pub use http_net_std::*; } }
    /// use http_net::blocking::{Error, Exchange};
    ///
    /// fn echo_path(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     let Some(head) = ex.request_head() else { return Ok(()) };
    ///     ex.respond_with(200, &[], head.path())
    /// }
    /// ```
    pub fn request_head(&self) -> Option<OwnedRequestHead> {
        self.conn.request().map(|r| r.to_owned_head())
    }

    /// The request body as a `std::io::Read` (end of stream at the end of the
    /// body; then the trailers are in [`trailers`](Exchange::trailers)).
    /// Read it before the response is
    /// complete: afterwards it reads as empty and the connection discards it.
    pub fn body(&mut self) -> Body<'_> {
        Body(self.reborrow())
    }

    /// This exchange, reborrowed for a handle that lends it.
    fn reborrow(&mut self) -> Exchange<'_> {
        Exchange::new(self.conn, self.stream, self.st, self.shared, self.slot)
    }

    /// [`body`](Exchange::body) and [`body_writer`](Exchange::body_writer)
    /// at once, over this one exchange (each alone borrows it whole): to
    /// stream a response while the request body is still arriving, as
    /// `std::io::copy` from one to the other does (the async adapter's
    /// method of the same name, blocking). Each read and write takes its
    /// turn on the one connection; the pair takes one allocation and holds
    /// the exchange until both are dropped (which [`Body`] and
    /// [`BodyWriter`], lending it alone, need not be).
    ///
    /// ```
    /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
    /// use http_net::conn::BodyLength;
    /// use http_net::blocking::{Error, Exchange};
    ///
    /// fn echo(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     ex.send_head(200, &[], BodyLength::Streamed)?;
    ///     let (mut body, mut out) = ex.body_and_writer();
    ///     std::io::copy(&mut body, &mut out)?;
    ///     drop((body, out));
    ///     ex.send_end(&[])
    /// }
    /// ```
    pub fn body_and_writer(&mut self) -> (PairedBody<'_>, PairedWriter<'_>) {
        let lent = Arc::new(Mutex::new(self.reborrow()));
        (PairedBody(Arc::clone(&lent)), PairedWriter(lent))
    }

    /// Lowers the body limit for this request to `max_bytes` (the server's
    /// [`max_body_bytes`](crate::ServerOptions::max_body_bytes) stays the
    /// ceiling: a declared `Content-Length` over it was answered `413`
    /// before the handler ran, so a limit can only be lowered here). Call
    /// it before reading the body. A declared length over the limit is
    /// refused at once, before `100 Continue`; a chunked body when its
    /// reads pass the limit. Either way the call or the read fails with
    /// [`Error::OverLimit`]`(`[`Limit::BodyBudget`](crate::Limit::BodyBudget)`(max_bytes))` and the
    /// server answers `413 Content Too Large` (if no answer has started) and
    /// closes the connection (RFC 9110 §15.5.14).
    ///
    /// ```
    /// # mod http_net { pub mod blocking { pub use http_net_std::*; } }
    /// use std::io::Read;
    /// use http_net::blocking::{Error, Exchange};
    ///
    /// fn upload(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ///     let limit = if ex.path() == b"/avatar" { 64 * 1024 } else { 1 << 20 };
    ///     ex.limit_body(limit)?;
    ///     let mut body = Vec::new();
    ///     ex.body().read_to_end(&mut body)?; // over the limit: 413
    ///     ex.respond_with(201, &[], b"")
    /// }
    /// ```
    pub fn limit_body(&mut self, max_bytes: u64) -> Result<(), Error> {
        // The connection keeps the limit, counts the body against it and
        // queues the `413`.
        Ok(self.conn.limit_handler_body(max_bytes)?)
    }

    /// Sends `100 Continue` now, if it is still due
    /// ([`ServerConn::continue_due`](http_net_conn::ServerConn::continue_due):
    /// an HTTP/1.1 request that expects it, body bytes still to come, no
    /// `100` or answer sent yet); otherwise does nothing. The body reader
    /// does it on its first read.
    pub fn send_continue(&mut self) -> Result<(), Error> {
        if self.conn.continue_due() {
            self.conn.responder().send_continue()?;
            self.flush()?;
        }
        Ok(())
    }

    /// Sends an informational response, e.g. `103 Early Hints`, at once.
    pub fn send_informational(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
    ) -> Result<(), Error> {
        self.conn.responder().send_informational(status, fields)?;
        self.flush()
    }

    /// Answers with a prebuilt response and its whole body.
    pub fn respond(&mut self, response: &PreparedResponse, body: &[u8]) -> Result<(), Error> {
        let placement = self.answer().respond(response, body)?;
        self.place(placement, body)
    }

    /// Answers with borrowed fields and a whole body (`Content-Length` is added).
    pub fn respond_with(
        &mut self,
        status: u16,
        fields: &[FieldPair<'_>],
        body: &[u8],
    ) -> Result<(), Error> {
        let placement = self.answer().respond_with(status, fields, body)?;
        self.place(placement, body)
    }

    /// Queues a response head; the body follows with
    /// [`send_data`](Exchange::send_data) and [`send_end`](Exchange::send_end).
    /// `BodyLength::Known(n)` writes `Content-Length: n`;
    /// `BodyLength::Streamed` a chunked body (close-delimited to HTTP/1.0).
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
    pub fn send_data(&mut self, data: &[u8]) -> Result<(), Error> {
        let placement = self.conn.responder().send_data(data)?;
        self.place(placement, data)
    }

    /// Ends the response, with trailers if it is chunked.
    /// (A no-op after a `101` or a `2xx` to `CONNECT`, which have no body:
    /// `conn` treats it so.)
    pub fn send_end(&mut self, trailers: &[FieldPair<'_>]) -> Result<(), Error> {
        Ok(self.conn.responder().send_end(trailers)?)
    }

    /// A `std::io::Write` over [`send_data`](Exchange::send_data), after
    /// [`send_head`](Exchange::send_head).
    pub fn body_writer(&mut self) -> BodyWriter<'_, 'a> {
        BodyWriter { exchange: self }
    }

    /// Writes everything queued to the peer now.
    pub fn flush(&mut self) -> Result<(), Error> {
        self.place(Placement::AfterOutput, &[])
    }

    /// Closes the connection after this response (`Connection: close` is added).
    pub fn close_after_response(&mut self) {
        self.conn.close_after_response();
    }

    /// After answering `101 Switching Protocols` (to a request that offered
    /// `Upgrade`) or `2xx` to `CONNECT` (which reaches a handler only with
    /// [`ServerBuilder::tunnels`](crate::ServerOptions::tunnels) on) with
    /// [`send_head`](Exchange::send_head)
    /// (no `send_end`: such answers have no body): the stream and the bytes that arrived
    /// after the request, for the new protocol. The connection closes when
    /// the handler returns. The stream keeps the body read timeout; change it
    /// with [`Upgraded::stream`].
    pub fn upgrade(&mut self) -> Result<Upgraded<'_>, Error> {
        self.flush()?;
        // The new protocol's writes wait up to the write stall timeout each.
        let stall = self.conn.transfer_stall(Transfer::Response);
        self.stream
            .set_write_timeout(Some(stall))
            .map_err(Error::Io)?;
        self.st.write.timeout_was_set(Some(stall));
        let buffered = self.conn.switched_input()?.ok_or(Error::NotSwitched)?;
        Ok(Upgraded {
            stream: self.stream,
            buffered,
        })
    }

    /// Sends a body as the connection placed it, after a command given
    /// through [`conn`](Exchange::conn) (`respond`, `respond_head_only`,
    /// `send_data`) returned `placement` for it. With
    /// [`Placement::AfterOutput`] the connection left `body` to the caller:
    /// the queued output and then `body` are written now, with a vectored
    /// write (never copied); this must come before the next command. With
    /// [`Placement::Queued`] the connection holds the bytes already (or none
    /// may leave, as for `HEAD`): `body` is not written again, and the
    /// output leaves with the rest.
    ///
    /// ```
    /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
    /// use http_net::blocking::{Error, Exchange, Server};
    /// use http_net::conn::PreparedResponse;
    ///
    /// let ok = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    /// let big = vec![b'x'; 64 * 1024];
    /// let server = Server::bind("127.0.0.1:0")?;
    /// let addr = server.local_addr()?;
    /// let stop = server.handle();
    /// let thread = std::thread::spawn(move || {
    ///     server.serve(move |ex: &mut Exchange<'_>| -> Result<(), Error> {
    ///         // Over `COPY_LIMIT`: the connection leaves the body to us.
    ///         let placement = ex.conn().responder().respond(&ok, &big)?;
    ///         ex.send_placed(placement, &big)
    ///     })
    /// });
    ///
    /// let mut resp = http_net::blocking::get(&format!("http://{addr}/"))?;
    /// assert_eq!(resp.body_to_vec(1 << 20)?.len(), 64 * 1024);
    ///
    /// stop.shutdown();
    /// thread.join().unwrap()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn send_placed(&mut self, placement: Placement, body: &[u8]) -> Result<(), Error> {
        self.place(placement, body)
    }

    /// Writes the output, then `body` (which the connection left to the
    /// caller), or with a queued body the output once `FLUSH_AT` is queued;
    /// a failed write breaks the connection.
    fn place(&mut self, placement: Placement, body: &[u8]) -> Result<(), Error> {
        let body = match placement {
            Placement::AfterOutput => body,
            Placement::Queued if self.conn.output().len() >= FLUSH_AT => &[],
            Placement::Queued => return Ok(()),
        };
        let r = wire::flush_paced(self.stream, self.conn, body, &mut self.st.paced(self.slot));
        self.st.broken |= r.is_err();
        r
    }
}

/// The request body as a `std::io::Read` (see [`Exchange::body`]).
pub struct Body<'a>(Exchange<'a>);

impl Exchange<'_> {
    /// Reads the request body (see [`Exchange::body`]).
    fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        loop {
            match self.st.body.read(self.conn, self.st.broken, buf)? {
                Some(n) => return Ok(n),
                None => self.fill_body()?,
            }
        }
    }

    /// Sends what is queued (a `100 Continue`), then reads more of the
    /// body, noting the I/O known (timed out, broken stream) in the
    /// connection loop's [`Cycle`].
    fn fill_body(&mut self) -> Result<(), Error> {
        let st = &mut *self.st;
        let mut write = Paced {
            slices: &mut st.write,
            gauge: None,
        };
        let r = wire::flush_paced(self.stream, self.conn, &[], &mut write).and_then(|()| {
            wire::fill_paced(
                self.stream,
                self.conn,
                Some(self.slot.body_gauge()),
                &mut st.read_timeout,
            )
        });
        match r {
            Ok(Filled::Bytes(_) | Filled::Eof) => Ok(()),
            Ok(Filled::Full) => Err(Error::BodyUnavailable),
            // Evicted: answered as a body that timed out (`408`).
            Err(e @ (Error::Timeout(_) | Error::TooSlow(_) | Error::Evicted)) => {
                st.timed_out = true;
                Err(e)
            }
            Err(e) => {
                st.broken = true;
                Err(e)
            }
        }
    }
}

impl Read for Body<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read_body(buf).map_err(Error::into_io)
    }
}

/// A `std::io::Write` over [`Exchange::send_data`].
#[derive(Debug)]
pub struct BodyWriter<'b, 'a> {
    exchange: &'b mut Exchange<'a>,
}

impl Write for BodyWriter<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.exchange.send_data(buf).map_err(Error::into_io)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.exchange.flush().map_err(Error::into_io)
    }
}

/// The request body of [`Exchange::body_and_writer`]: a [`Body`] that
/// shares the exchange with a [`PairedWriter`] (a `std::io::Read`, read as
/// [`Body`] reads). Unlike [`Body`] it holds the exchange until dropped.
pub struct PairedBody<'b>(Arc<Mutex<Exchange<'b>>>);

/// The response body writer of [`Exchange::body_and_writer`]: a
/// [`BodyWriter`] that shares the exchange with a [`PairedBody`] (a
/// `std::io::Write` over [`Exchange::send_data`]). Unlike [`BodyWriter`] it
/// holds the exchange until dropped.
pub struct PairedWriter<'b>(Arc<Mutex<Exchange<'b>>>);

impl Read for PairedBody<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        lock(&self.0).read_body(buf).map_err(Error::into_io)
    }
}

impl Write for PairedWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        lock(&self.0).send_data(buf).map_err(Error::into_io)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        lock(&self.0).flush().map_err(Error::into_io)
    }
}

/// A connection handed over after `101` or a `2xx` to `CONNECT`: reads give
/// the bytes that were already buffered first, then the stream's.
pub struct Upgraded<'a> {
    stream: &'a mut dyn Transport,
    buffered: Leftover,
}

impl Upgraded<'_> {
    /// The bytes that arrived after the request head, not yet read.
    pub fn buffered(&self) -> &[u8] {
        self.buffered.rest()
    }
    /// The stream itself (e.g. to change its timeouts).
    pub fn stream(&mut self) -> &mut dyn Transport {
        self.stream
    }
}

impl Read for Upgraded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.buffered.take(buf) {
            0 => self.stream.read(buf),
            n => Ok(n),
        }
    }
}

impl Write for Upgraded<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

// Debug for the borrowed handles (the exchange's and `Upgraded`'s are
// `conn`'s): what the connection says about them, not the stream or the
// shared state behind it.
impl std::fmt::Debug for Body<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Body")
            .field("phase", &self.0.conn.phase())
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for PairedBody<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PairedBody").finish_non_exhaustive()
    }
}

impl std::fmt::Debug for PairedWriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PairedWriter").finish_non_exhaustive()
    }
}

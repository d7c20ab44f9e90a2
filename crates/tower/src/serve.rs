//! The handler that runs a tower service for each request: the service's
//! future, the request body it reads and the response body it returns
//! are all polled on the connection's task, with one read or write of the
//! connection in flight at a time.

use std::future::{poll_fn, Future};
use std::pin::{pin, Pin};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::{Buf, Bytes};
use http::header::{CONTENT_LENGTH, TRANSFER_ENCODING};
use http::{HeaderMap, Request, Response};
use http_body::{Body as HttpBody, Frame};
use http_net_tokio::http_net_conn::{AnswerState, BodyLength, FieldPair};
use http_net_tokio::{Exchange, Handler, HandlerError};
use tower_service::Service;

use crate::body::{Body, Chan};
use crate::error::{BoxError, Error};
use crate::request::{self, Built, Facts};
use crate::upgrade;

/// The most a request body frame holds: one read of the connection.
const FRAME: usize = 16 * 1024;

/// The room of the first read of a request body; each read that fills the
/// room doubles it, up to [`FRAME`]. A body that trickles in (a slow or
/// hostile peer, thousands at once) holds this much, not [`FRAME`]; one
/// that streams fast reaches [`FRAME`] by its fourth read.
const FIRST_FRAME: usize = 2 * 1024;

/// Fields written from the stack; a response with more takes a `Vec`.
const STACK_FIELDS: usize = 8;

/// Serves a tower [`Service`](tower_service::Service) (an axum `Router`, or any service over
/// `http::Request`) as the [`Handler`] of an [`http_net_tokio::Server`].
///
/// The service is cloned for each request (as `axum::serve` on hyper does),
/// from the one given here: the clone's `poll_ready` is awaited, then it is
/// called with the request, and its response is sent. See the crate's
/// documentation for how requests and responses are mapped.
///
/// ```
/// use std::convert::Infallible;
/// use http::{Request, Response};
/// use http_net_tower::{Body, ServiceHandler};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// // Any `Service<Request<Body>>`: here a closure through a small adapter.
/// #[derive(Clone)]
/// struct Hello;
/// impl tower_service::Service<Request<Body>> for Hello {
///     type Response = Response<String>;
///     type Error = Infallible;
///     type Future = std::future::Ready<Result<Response<String>, Infallible>>;
///     fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Infallible>> {
///         std::task::Poll::Ready(Ok(()))
///     }
///     fn call(&mut self, req: Request<Body>) -> Self::Future {
///         std::future::ready(Ok(Response::new(format!("hello {}", req.uri().path()))))
///     }
/// }
///
/// let server = http_net_tokio::Server::bind("127.0.0.1:0").await?;
/// let port = server.local_addr()?.port();
/// let stop = server.handle();
/// let task = tokio::spawn(server.serve(ServiceHandler::new(Hello)));
///
/// let client = http_net_tokio::Client::new();
/// let mut r = client.send_to("127.0.0.1", port, b"GET", b"/you", &[], b"").await?;
/// assert_eq!(r.body_to_vec(64).await?, b"hello /you");
/// drop(r);
/// drop(client);
/// stop.shutdown();
/// task.await??;
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct ServiceHandler<S> {
    /// Cloned for each request; the lock makes a service that is `Send`
    /// but not `Sync` shareable between connections (held only to clone).
    service: Mutex<S>,
    /// Put a [`ReceivedHead`](crate::ReceivedHead) in each request.
    received_head: bool,
}

impl<S: Clone> ServiceHandler<S> {
    /// A handler that runs `service` (cloned for each request).
    pub fn new(service: S) -> Self {
        ServiceHandler {
            service: Mutex::new(service),
            received_head: false,
        }
    }

    /// Puts the head as received, a [`ReceivedHead`](crate::ReceivedHead),
    /// in each request's extensions (default off: it costs an allocation
    /// a request).
    #[must_use]
    pub fn received_head(mut self, on: bool) -> Self {
        self.received_head = on;
        self
    }

    /// A clone of the service, for one request.
    fn service(&self) -> S {
        self.service
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl<S, B> Handler for ServiceHandler<S>
where
    S: Service<Request<Body>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send,
    S::Error: Into<BoxError>,
    B: HttpBody + Send + 'static,
    B::Data: Buf + Send,
    B::Error: Into<BoxError>,
{
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        serve(self.service(), ex, self.received_head).await
    }

    /// `true`: the service limits request bodies itself (axum's
    /// `DefaultBodyLimit`, tower-http's `RequestBodyLimitLayer`), as on
    /// hyper, which has no limit of its own. The server applies a body
    /// budget only when one was chosen
    /// ([`max_body_bytes`](http_net_tokio::ServerOptions::max_body_bytes));
    /// its deadlines and minimum rates apply to every body.
    fn limits_request_bodies(&self) -> bool {
        true
    }
}

/// Serves one request with `svc`.
async fn serve<S, B>(mut svc: S, ex: &mut Exchange<'_>, keep_head: bool) -> Result<(), HandlerError>
where
    S: Service<Request<Body>, Response = Response<B>>,
    S::Error: Into<BoxError>,
    B: HttpBody,
    B::Error: Into<BoxError>,
{
    let Some(view) = ex.request() else {
        return Ok(());
    };
    let built = request::build(&view, ex.peer_addr(), keep_head);
    let Built {
        mut request,
        chan,
        facts,
    } = match built {
        Ok(b) => b,
        // A head the server took and the `http` crate does not: the
        // service never sees it.
        Err(_) => {
            ex.close_after_response();
            return Ok(ex.respond_with(400, &[], b"").await?);
        }
    };
    let pending = facts.may_switch.then(|| {
        let (p, on) = upgrade::pending();
        request.extensions_mut().insert(on);
        p
    });
    poll_fn(|cx| svc.poll_ready(cx))
        .await
        .map_err(|e| Error::Service(e.into()))?;
    let call = svc.call(request);
    let mut rd = Reading::default();
    // The service's error is boxed as soon as its future ends: it need not
    // be `Send`, so it is never held across an await.
    let response = match &chan {
        // The usual GET: nothing to read while the service runs.
        None => call.await.map_err(|e| Error::Service(e.into()))?,
        Some(_) => {
            let mut call = pin!(call);
            let app = |cx: &mut Context<'_>| call.as_mut().poll(cx).map(|r| r.map_err(Into::into));
            drive(ex, chan.as_ref(), &mut rd, false, app)
                .await?
                .map_err(Error::Service)?
        }
    };
    respond(ex, chan.as_ref(), &mut rd, facts, pending, response).await
}

/// Polls `app` (the service's future, or the response body for its next
/// frame) to its end; while it waits, reads a frame of the request body
/// from the connection each time the body asks for one and, with `flush`,
/// writes out what is queued (a stream of small events is not held back
/// until 16 KiB have gathered).
async fn drive<T>(
    ex: &mut Exchange<'_>,
    chan: Option<&Arc<Chan>>,
    rd: &mut Reading,
    flush: bool,
    mut app: impl FnMut(&mut Context<'_>) -> Poll<T>,
) -> Result<T, http_net_tokio::Error> {
    let mut out = None;
    loop {
        let (mut wanted, mut flushing) = (false, false);
        poll_fn(|cx| {
            if let Poll::Ready(v) = app(cx) {
                out = Some(v);
            } else if chan.is_some_and(|c| c.poll_wanted(cx).is_ready()) {
                wanted = true;
            } else if flush && !ex.conn().output().is_empty() {
                flushing = true;
            } else {
                return Poll::Pending;
            }
            Poll::Ready(())
        })
        .await;
        // `app` runs on while the frame is read or the output written.
        let step = |cx: &mut Context<'_>| {
            if out.is_none() {
                if let Poll::Ready(v) = app(cx) {
                    out = Some(v);
                }
            }
        };
        match chan {
            Some(chan) if wanted => feed(ex, chan, rd, step).await,
            _ if flushing => flush_while(ex, step).await?,
            _ => {}
        }
        if let Some(v) = out.take() {
            return Ok(v);
        }
    }
}

/// Reads one frame of the request body from the connection for the body
/// (or its end, with the trailers; or its failure), polling `app` (the
/// service's future or its response body) meanwhile.
async fn feed(
    ex: &mut Exchange<'_>,
    chan: &Chan,
    rd: &mut Reading,
    mut app: impl FnMut(&mut Context<'_>),
) {
    if let Some(n) = chan.take_limit() {
        if let Err(e) = ex.limit_body(n) {
            chan.fail(Error::RequestBody(e));
            return;
        }
    }
    if rd.frame.is_empty() {
        rd.frame.resize(FIRST_FRAME, 0);
    }
    let r = {
        let mut read = pin!(ex.read_body(&mut rd.frame));
        poll_fn(|cx| {
            app(cx);
            read.as_mut().poll(cx)
        })
        .await
    };
    match r {
        Ok(0) => {
            let mut trailers = HeaderMap::new();
            for (name, value) in ex.trailers() {
                // The server parsed them strictly: the `http` crate takes
                // every one (one it would not is left out).
                if let (Ok(n), Ok(v)) = (
                    http::HeaderName::from_bytes(name),
                    http::HeaderValue::from_bytes(value),
                ) {
                    trailers.append(n, v);
                }
            }
            chan.end(trailers);
        }
        Ok(n) => {
            chan.data(Bytes::copy_from_slice(rd.frame.get(..n).unwrap_or(&[])));
            rd.read(n);
        }
        Err(e) => {
            if let Some(stop) = stopped(&e) {
                // Set before the answer ends, so that the connection
                // closes after it rather than drain the rest of the body
                // (an evicted one outside the connection limit).
                ex.close_after_response();
                rd.stopped.get_or_insert(stop);
            }
            chan.fail(Error::RequestBody(e));
        }
    }
}

/// The request body as the handler reads it for the service.
#[derive(Debug, Default)]
struct Reading {
    /// The buffer a frame is read into: [`FIRST_FRAME`] at the first
    /// read, grown by reads that fill it ([`Reading::read`]).
    frame: Vec<u8>,
    /// How the server stopped the body, when it did: its deadline, its
    /// minimum rate, or an eviction at the connection limit (the service
    /// saw it as an error in the body). The server answers these `408`
    /// itself when nothing was sent, as for any handler; either way the
    /// connection closes after the answer.
    stopped: Option<http_net_tokio::Error>,
}

impl Reading {
    /// After a read of `n` bytes: a read that filled the room doubles it
    /// (up to [`FRAME`]), so that a fast body is read in large frames and
    /// a trickle holds [`FIRST_FRAME`].
    fn read(&mut self, n: usize) {
        let room = self.frame.len();
        if n == room && room < FRAME {
            self.frame.resize((room * 2).min(FRAME), 0);
        }
    }
}

/// A copy of `e` when it is the server stopping the body
/// ([`Reading::stopped`]).
fn stopped(e: &http_net_tokio::Error) -> Option<http_net_tokio::Error> {
    use http_net_tokio::Error as E;
    match e {
        E::Timeout(stage) => Some(E::Timeout(*stage)),
        E::TooSlow(stage) => Some(E::TooSlow(*stage)),
        E::Evicted => Some(E::Evicted),
        _ => None,
    }
}

/// A `Content-Length` value as the writer would take it: one decimal
/// number (the framing crate's `decimal`, RFC 9110 §8.6), else `Err` (the
/// writer refuses it).
fn length_value(v: &[u8]) -> Result<u64, ()> {
    http_net_tokio::http_net_conn::framing::syntax::decimal(v).ok_or(())
}

/// What the response's fields say about its framing, found in the one
/// pass that gathers them for the writer (the general twin: a lookup in
/// the `HeaderMap` for each question, a hash each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Framing {
    /// How many `Content-Length` fields.
    lengths: usize,
    /// The first one's value.
    length: Option<Result<u64, ()>>,
    /// Whether a `Transfer-Encoding` field is set.
    transfer_encoding: bool,
}

impl Framing {
    fn note(&mut self, name: &http::HeaderName, value: &http::HeaderValue) {
        if *name == CONTENT_LENGTH {
            if self.lengths == 0 {
                self.length = Some(length_value(value.as_bytes()));
            }
            self.lengths += 1;
        } else if *name == TRANSFER_ENCODING {
            self.transfer_encoding = true;
        }
    }
}

/// How the body is sent: `Content-Length` from the service's field, or
/// from an exact size hint; otherwise streamed (chunked, or close-delimited
/// to HTTP/1.0). A field that contradicts an exact hint is refused before
/// anything is sent.
fn body_length(
    framing: Framing,
    hint: Option<u64>,
    status: u16,
    facts: Facts,
) -> Result<BodyLength, Error> {
    let bodiless = facts.head || status == 204 || status == 304 || status < 200;
    Ok(match (framing.length, hint) {
        (Some(Ok(declared)), Some(body)) if declared != body && !bodiless => {
            return Err(Error::LengthMismatch { declared, body })
        }
        (Some(Ok(n)), _) => BodyLength::Known(n),
        // The writer refuses the field as it stands.
        (Some(Err(())), _) => BodyLength::Streamed,
        (None, _) if framing.transfer_encoding => BodyLength::Streamed,
        (None, Some(n)) => BodyLength::Known(n),
        (None, None) => BodyLength::Streamed,
    })
}

/// The response's fields as the writer takes them, gathered in one pass
/// over the map (on the stack up to [`STACK_FIELDS`]; the general twin
/// collects a `Vec`), with what they say about the framing.
struct Gathered<'h> {
    small: [FieldPair<'h>; STACK_FIELDS],
    count: usize,
    /// Every field, when there are more than [`STACK_FIELDS`].
    more: Vec<FieldPair<'h>>,
    framing: Framing,
}

impl<'h> Gathered<'h> {
    // Inlined: built where it is kept, not built and then copied.
    #[inline(always)]
    fn of(map: &'h HeaderMap) -> Gathered<'h> {
        #[inline(always)]
        fn pair<'h>(n: &'h http::HeaderName, v: &'h http::HeaderValue) -> FieldPair<'h> {
            (n.as_str().as_bytes(), v.as_bytes())
        }
        let mut g = Gathered {
            small: [(&[], &[]); STACK_FIELDS],
            count: 0,
            more: Vec::new(),
            framing: Framing::default(),
        };
        if map.len() <= STACK_FIELDS {
            for (slot, (n, v)) in g.small.iter_mut().zip(map.iter()) {
                g.framing.note(n, v);
                *slot = pair(n, v);
                g.count += 1;
            }
        } else {
            g.more.reserve_exact(map.len());
            for (n, v) in map {
                g.framing.note(n, v);
                g.more.push(pair(n, v));
            }
        }
        g
    }

    /// The fields, in the map's order.
    fn fields(&mut self) -> &mut [FieldPair<'h>] {
        if self.more.is_empty() {
            self.small.get_mut(..self.count).unwrap_or(&mut [])
        } else {
            &mut self.more
        }
    }
}

/// `fields` without its `Content-Length` fields (kept in order).
fn without_lengths<'a, 'h>(fields: &'a mut [FieldPair<'h>]) -> &'a [FieldPair<'h>] {
    let mut kept = 0;
    for i in 0..fields.len() {
        if fields[i].0 != CONTENT_LENGTH.as_str().as_bytes() {
            fields.swap(kept, i);
            kept += 1;
        }
    }
    fields.get(..kept).unwrap_or(&[])
}

/// The head of the service's response, decided: the body's length from the
/// fields and the body's size hint, and the fields as the writer takes
/// them.
fn decide<'a, 'h>(
    g: &'a mut Gathered<'h>,
    hint: Option<u64>,
    status: u16,
    facts: Facts,
) -> Result<(BodyLength, &'a [FieldPair<'h>]), Error> {
    let mut framing = g.framing;
    // A 1xx or 204 has no body and carries no `Content-Length` (RFC 9110
    // §8.6); a `0` says as much (axum sets one from the empty body's size
    // hint) and is left out. Any other length is refused.
    let zero = (status < 200 || status == 204) && framing.length == Some(Ok(0));
    if zero {
        (framing.lengths, framing.length) = (0, None);
    }
    let length = body_length(framing, hint, status, facts)?;
    // A sole, well-formed `Content-Length` on a response that carries one
    // is what `Known` writes: the writer writes it, rather than parse and
    // check the service's copy (a 304 keeps the service's: the writer
    // writes none for it; a 1xx or 204 keeps it, to be refused).
    let skip = zero
        || (matches!(length, BodyLength::Known(_))
            && status >= 200
            && status != 204
            && status != 304
            && framing.lengths == 1);
    let fields = g.fields();
    let fields = if skip {
        without_lengths(fields)
    } else {
        fields
    };
    Ok((length, fields))
}

/// The response body's first frame, when the fast path of [`respond`]
/// polled it and did not send it whole.
enum First<D> {
    /// Not polled: the body starts from its first frame.
    Nothing,
    /// Polled: this frame comes first.
    Frame(Frame<D>),
    /// Polled: the body had ended.
    End,
}

/// Sends the service's response: the head through the connection's
/// writer (its checks apply), then the body frame by frame, then the
/// trailers when the client takes them; or, after a `101` or a `2xx` to
/// `CONNECT`, hands the connection to the service's [`OnUpgrade`](crate::OnUpgrade).
async fn respond<B>(
    ex: &mut Exchange<'_>,
    chan: Option<&Arc<Chan>>,
    rd: &mut Reading,
    facts: Facts,
    pending: Option<upgrade::Pending>,
    response: Response<B>,
) -> Result<(), HandlerError>
where
    B: HttpBody,
    B::Error: Into<BoxError>,
{
    if ex.conn().answer_state() != AnswerState::NotStarted {
        // The connection answered already: its own error response (a body
        // over the limit, malformed), which stands.
        return Ok(());
    }
    if let Some(e) = rd.stopped.take() {
        // The server stopped the body (a deadline, the minimum rate, an
        // eviction): the service's answer is dropped, and the server
        // answers `408` and closes, as for a native handler's `?`.
        return Err(Error::RequestBody(e).into());
    }
    let (parts, body) = response.into_parts();
    let status = parts.status.as_u16();
    let hint = body.size_hint().exact();
    // Pinned in an `Option`, so that it can still be dropped in place
    // before an upgrade's tunnel runs.
    let mut slot = pin!(Some(body));
    let Some(mut body) = slot.as_mut().as_pin_mut() else {
        return Ok(());
    };
    let mut gathered = Gathered::of(&parts.headers);
    let (length, fields) = decide(&mut gathered, hint, status, facts)?;
    let mut first = First::Nothing;
    let carries_body =
        !facts.head && !facts.may_switch && status >= 200 && status != 204 && status != 304;
    if let (BodyLength::Known(n), true) = (length, carries_body) {
        // Fast path (the general twin: the head, then the body frame by
        // frame, below): a body of a known length that is ready whole in
        // its first frame and ends there leaves with its head in one
        // command (a 200 of axum's `Full` body, the usual answer). Polled
        // once; a body not ready takes the general path, its waker set.
        // The error boxed at once (it need not be `Send`).
        let polled = poll_fn(|cx| Poll::Ready(poll_boxed(body.as_mut(), cx))).await;
        match polled {
            Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                Ok(data)
                    if data.chunk().len() as u64 == n
                        && data.remaining() as u64 == n
                        && body.is_end_stream() =>
                {
                    let r = ex.respond_with(status, fields, data.chunk()).await;
                    return sent(ex, r.map_err(Into::into));
                }
                Ok(data) => first = First::Frame(Frame::data(data)),
                Err(frame) => first = First::Frame(frame),
            },
            Poll::Ready(Some(Err(e))) => return Err(Error::ResponseBody(e).into()),
            Poll::Ready(None) if n == 0 => {
                let r = ex.respond_with(status, fields, b"").await;
                return sent(ex, r.map_err(Into::into));
            }
            Poll::Ready(None) => first = First::End,
            Poll::Pending => {}
        }
    }
    ex.send_head(status, fields, length)?;
    match ex.conn().answer_state() {
        AnswerState::Switched => {
            // No body goes out after a switch: it is dropped now, not
            // kept for as long as the tunnel runs.
            slot.set(None);
            return switch(ex, pending).await;
        }
        AnswerState::Complete => return Ok(()),
        _ => {}
    }
    // Whoever waits for an upgrade learns now that there is none.
    drop(pending);
    if facts.head || status == 204 || status == 304 {
        ex.send_end(&[])?;
        return Ok(());
    }
    let chunked = length == BodyLength::Streamed && !facts.http10;
    let r = stream_body(ex, chan, rd, facts, chunked, first, body.as_mut()).await;
    sent(ex, r)
}

/// How sending the response ended, for the server: a failure after the
/// request body failed (over its limit, malformed) is not the
/// application's: the connection takes no more of the answer and closes,
/// and the service saw the failure in its body.
fn sent(ex: &mut Exchange<'_>, r: Result<(), HandlerError>) -> Result<(), HandlerError> {
    match r {
        Err(_) if ex.conn().failed() => Ok(()),
        r => r,
    }
}

/// Sends the response body frame by frame, then its end (with the
/// trailers when `chunked` and the client takes them).
async fn stream_body<B>(
    ex: &mut Exchange<'_>,
    chan: Option<&Arc<Chan>>,
    rd: &mut Reading,
    facts: Facts,
    chunked: bool,
    mut first: First<B::Data>,
    mut body: Pin<&mut B>,
) -> Result<(), HandlerError>
where
    B: HttpBody,
    B::Error: Into<BoxError>,
{
    loop {
        let polled = match std::mem::replace(&mut first, First::Nothing) {
            First::Nothing => drive(ex, chan, rd, true, |cx| poll_boxed(body.as_mut(), cx)).await?,
            First::Frame(frame) => Some(Ok(frame)),
            First::End => None,
        };
        let frame = match polled {
            None => {
                ex.send_end(&[])?;
                return Ok(());
            }
            Some(Err(e)) => return Err(Error::ResponseBody(e).into()),
            Some(Ok(frame)) => frame,
        };
        match frame.into_data() {
            Ok(mut data) => {
                while data.has_remaining() {
                    let chunk = data.chunk();
                    let n = chunk.len();
                    ex.send_data(chunk).await?;
                    data.advance(n);
                }
            }
            Err(frame) => {
                if let Ok(trailers) = frame.into_trailers() {
                    if chunked && facts.te_trailers {
                        ex.send_end(Gathered::of(&trailers).fields())?;
                    } else {
                        // A client that did not ask for trailers
                        // (`TE: trailers`, RFC 9110 §10.1.4), or a body
                        // with a length: they are dropped.
                        ex.send_end(&[])?;
                    }
                    return Ok(());
                }
            }
        }
    }
}

/// The response body's next frame, its error boxed (it need not be `Send`).
fn poll_boxed<B>(
    body: Pin<&mut B>,
    cx: &mut Context<'_>,
) -> Poll<Option<Result<Frame<B::Data>, BoxError>>>
where
    B: HttpBody,
    B::Error: Into<BoxError>,
{
    body.poll_frame(cx)
        .map(|f| f.map(|r| r.map_err(Into::into)))
}

/// Writes out what is queued, polling `app` meanwhile.
async fn flush_while(
    ex: &mut Exchange<'_>,
    mut app: impl FnMut(&mut Context<'_>),
) -> Result<(), http_net_tokio::Error> {
    let mut flush = pin!(ex.flush());
    poll_fn(|cx| {
        app(cx);
        flush.as_mut().poll(cx)
    })
    .await
}

/// After a `101` or a `2xx` to `CONNECT`: hands the service its end of a
/// pipe and carries bytes between the pipe and the connection until both
/// sides have closed.
async fn switch(
    ex: &mut Exchange<'_>,
    pending: Option<upgrade::Pending>,
) -> Result<(), HandlerError> {
    let mut up = ex.upgrade().await?;
    if let Some(mut pipe) = pending.and_then(upgrade::Pending::fulfil) {
        // Either side closing, or failing, ends the connection.
        let _ = tokio::io::copy_bidirectional(&mut up, &mut pipe).await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What one pass over `h` finds.
    fn framing(h: &HeaderMap) -> Framing {
        Gathered::of(h).framing
    }

    fn facts() -> Facts {
        Facts {
            head: false,
            te_trailers: false,
            may_switch: false,
            http10: false,
        }
    }

    #[test]
    fn the_length_comes_from_the_field_then_the_hint_else_it_streams() {
        let mut h = HeaderMap::new();
        let f = facts();
        assert_eq!(
            body_length(framing(&h), Some(5), 200, f).unwrap(),
            BodyLength::Known(5)
        );
        assert_eq!(
            body_length(framing(&h), None, 200, f).unwrap(),
            BodyLength::Streamed
        );
        h.insert(CONTENT_LENGTH, "5".parse().unwrap());
        assert_eq!(
            body_length(framing(&h), None, 200, f).unwrap(),
            BodyLength::Known(5)
        );
        assert!(matches!(
            body_length(framing(&h), Some(3), 200, f),
            Err(Error::LengthMismatch {
                declared: 5,
                body: 3
            })
        ));
        // HEAD keeps the length of the body a GET would get.
        let head = Facts { head: true, ..f };
        assert_eq!(
            body_length(framing(&h), Some(0), 200, head).unwrap(),
            BodyLength::Known(5)
        );
        h.insert(CONTENT_LENGTH, "five".parse().unwrap());
        assert_eq!(
            body_length(framing(&h), Some(5), 200, f).unwrap(),
            BodyLength::Streamed
        );
        let mut h = HeaderMap::new();
        h.insert(TRANSFER_ENCODING, "chunked".parse().unwrap());
        assert_eq!(
            body_length(framing(&h), Some(5), 200, f).unwrap(),
            BodyLength::Streamed
        );
    }

    #[test]
    fn a_declared_length_is_one_decimal_number() {
        let mut h = HeaderMap::new();
        assert_eq!(framing(&h).length, None);
        for (v, want) in [
            ("0", Ok(0)),
            ("1234", Ok(1234)),
            ("18446744073709551615", Ok(u64::MAX)),
            ("18446744073709551616", Err(())),
            ("", Err(())),
            ("+5", Err(())),
            ("5, 5", Err(())),
            ("0x10", Err(())),
        ] {
            h.insert(CONTENT_LENGTH, v.parse().unwrap());
            assert_eq!(framing(&h).length, Some(want), "{v:?}");
        }
    }

    #[test]
    fn length_fields_are_left_out_in_order_and_counted() {
        let mut h = HeaderMap::new();
        h.insert("x-a", "1".parse().unwrap());
        h.append(CONTENT_LENGTH, "5".parse().unwrap());
        h.append(CONTENT_LENGTH, "6".parse().unwrap());
        h.insert("x-b", "2".parse().unwrap());
        let mut g = Gathered::of(&h);
        let found = g.framing;
        let kept: Vec<_> = without_lengths(g.fields())
            .iter()
            .map(|(n, _)| n.to_vec())
            .collect();
        assert_eq!(kept, [b"x-a".to_vec(), b"x-b".to_vec()]);
        assert_eq!(
            found,
            Framing {
                lengths: 2,
                length: Some(Ok(5)),
                transfer_encoding: false
            }
        );
        h.insert(TRANSFER_ENCODING, "chunked".parse().unwrap());
        assert!(framing(&h).transfer_encoding);
    }

    #[test]
    fn the_frame_room_grows_only_with_reads_that_fill_it() {
        let mut rd = Reading::default();
        rd.frame.resize(FIRST_FRAME, 0);
        // A trickle keeps the first room.
        for _ in 0..100 {
            rd.read(1);
        }
        assert_eq!(rd.frame.len(), FIRST_FRAME);
        // Full reads double it, up to one frame.
        let mut rooms = Vec::new();
        for _ in 0..6 {
            let room = rd.frame.len();
            rd.read(room);
            rooms.push(rd.frame.len());
        }
        assert_eq!(rooms, [4096, 8192, FRAME, FRAME, FRAME, FRAME]);
    }

    #[test]
    fn fields_past_the_stack_are_all_passed() {
        for n in [0, 3, STACK_FIELDS, STACK_FIELDS + 5] {
            let mut h = HeaderMap::new();
            for i in 0..n {
                h.append("x-n", i.to_string().parse().unwrap());
            }
            let seen: Vec<_> = Gathered::of(&h)
                .fields()
                .iter()
                .map(|(k, v)| (k.to_vec(), v.to_vec()))
                .collect();
            assert_eq!(seen.len(), n);
            assert!(seen
                .iter()
                .enumerate()
                .all(|(i, (k, v))| k == b"x-n" && *v == i.to_string().into_bytes()));
        }
    }
}

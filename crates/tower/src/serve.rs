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

/// Fields written from the stack; a response with more takes a `Vec`.
const STACK_FIELDS: usize = 16;

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
}

/// Serves one request with `svc`.
async fn serve<S, B>(mut svc: S, ex: &mut Exchange<'_>, keep_head: bool) -> Result<(), HandlerError>
where
    S: Service<Request<Body>, Response = Response<B>>,
    S::Error: Into<BoxError>,
    B: HttpBody,
    B::Error: Into<BoxError>,
{
    let built = match ex.request() {
        Some(view) => request::build(&view, ex.peer_addr(), keep_head),
        None => return Ok(()),
    };
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
    let pending = if facts.may_switch {
        let (p, on) = upgrade::pending();
        request.extensions_mut().insert(on);
        Some(p)
    } else {
        None
    };
    poll_fn(|cx| svc.poll_ready(cx))
        .await
        .map_err(|e| Error::Service(e.into()))?;
    let call = svc.call(request);
    // Its error boxed as soon as it is made (it need not be `Send`).
    let call = async move { call.await.map_err(Into::<BoxError>::into) };
    let mut scratch = Vec::new();
    let response = match &chan {
        // The usual GET: nothing to read while the service runs.
        None => call.await,
        Some(chan) => until_done(ex, chan, &mut scratch, call).await,
    };
    let response = response.map_err(Error::Service)?;
    respond(ex, chan.as_ref(), &mut scratch, facts, pending, response).await
}

/// Runs the service's future to its end, reading a frame of the request
/// body from the connection each time the body asks for one.
async fn until_done<F: Future>(
    ex: &mut Exchange<'_>,
    chan: &Chan,
    scratch: &mut Vec<u8>,
    fut: F,
) -> F::Output {
    let mut fut = pin!(fut);
    let mut out = None;
    loop {
        if out.is_none() {
            poll_fn(|cx| {
                if let Poll::Ready(v) = fut.as_mut().poll(cx) {
                    out = Some(v);
                    return Poll::Ready(());
                }
                chan.poll_wanted(cx)
            })
            .await;
        }
        if let Some(v) = out.take() {
            return v;
        }
        // The service runs on while the frame is read.
        let app = |cx: &mut Context<'_>| {
            if out.is_none() {
                if let Poll::Ready(v) = fut.as_mut().poll(cx) {
                    out = Some(v);
                }
            }
        };
        feed(ex, chan, scratch, app).await;
    }
}

/// Reads one frame of the request body from the connection for the body
/// (or its end, with the trailers; or its failure), polling `app` (the
/// service's future or its response body) meanwhile.
async fn feed(
    ex: &mut Exchange<'_>,
    chan: &Chan,
    scratch: &mut Vec<u8>,
    mut app: impl FnMut(&mut Context<'_>),
) {
    if let Some(n) = chan.take_limit() {
        if let Err(e) = ex.limit_body(n) {
            chan.fail(Error::RequestBody(e));
            return;
        }
    }
    if scratch.len() < FRAME {
        scratch.resize(FRAME, 0);
    }
    let r = {
        let mut read = pin!(ex.read_body(scratch));
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
        Ok(n) => chan.data(Bytes::copy_from_slice(scratch.get(..n).unwrap_or(&[]))),
        Err(e) => chan.fail(Error::RequestBody(e)),
    }
}

/// The response's `Content-Length`, when it sets one: `Err` when it is not
/// one decimal number (the writer refuses it). The digits are read here
/// (the general twin: `str::parse` after `from_utf8`, twice the
/// instructions on the per-request path).
fn declared_length(headers: &HeaderMap) -> Option<Result<u64, ()>> {
    let v = headers.get(CONTENT_LENGTH)?.as_bytes();
    if v.is_empty() {
        return Some(Err(()));
    }
    let mut n = 0u64;
    for &b in v {
        if !b.is_ascii_digit() {
            return Some(Err(()));
        }
        n = match n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
        {
            Some(n) => n,
            None => return Some(Err(())),
        };
    }
    Some(Ok(n))
}

/// How the body is sent: `Content-Length` from the service's field, or
/// from an exact size hint; otherwise streamed (chunked, or close-delimited
/// to HTTP/1.0). A field that contradicts an exact hint is refused before
/// anything is sent.
fn body_length(
    headers: &HeaderMap,
    hint: Option<u64>,
    status: u16,
    facts: Facts,
) -> Result<BodyLength, Error> {
    let bodiless = facts.head || status == 204 || status == 304 || status < 200;
    Ok(match (declared_length(headers), hint) {
        (Some(Ok(declared)), Some(body)) if declared != body && !bodiless => {
            return Err(Error::LengthMismatch { declared, body })
        }
        (Some(Ok(n)), _) => BodyLength::Known(n),
        // The writer refuses the field as it stands.
        (Some(Err(())), _) => BodyLength::Streamed,
        (None, _) if headers.contains_key(TRANSFER_ENCODING) => BodyLength::Streamed,
        (None, Some(n)) => BodyLength::Known(n),
        (None, None) => BodyLength::Streamed,
    })
}

/// Calls `f` with `fields` as the writer takes them (from the stack up to
/// [`STACK_FIELDS`]; the general twin collects a `Vec`).
/// `skip_length`: the `Content-Length` field is left out (the writer then
/// writes the same length itself, without parsing it again).
fn with_fields<R>(
    fields: &HeaderMap,
    skip_length: bool,
    f: impl FnOnce(&[FieldPair<'_>]) -> R,
) -> R {
    fn pair<'h>((n, v): (&'h http::HeaderName, &'h http::HeaderValue)) -> FieldPair<'h> {
        (n.as_str().as_bytes(), v.as_bytes())
    }
    let kept = fields
        .iter()
        .filter(|(n, _)| !(skip_length && *n == CONTENT_LENGTH));
    if fields.len() <= STACK_FIELDS {
        let mut small: [FieldPair<'_>; STACK_FIELDS] = [(&[], &[]); STACK_FIELDS];
        let mut count = 0;
        for (slot, field) in small.iter_mut().zip(kept) {
            *slot = pair(field);
            count += 1;
        }
        f(small.get(..count).unwrap_or(&[]))
    } else {
        let all: Vec<FieldPair<'_>> = kept.map(pair).collect();
        f(&all)
    }
}

/// Sends the service's response: the head through the connection's
/// writer (its checks apply), then the body frame by frame, then the
/// trailers when the client takes them; or, after a `101` or a `2xx` to
/// `CONNECT`, hands the connection to the service's [`OnUpgrade`](crate::OnUpgrade).
async fn respond<B>(
    ex: &mut Exchange<'_>,
    chan: Option<&Arc<Chan>>,
    scratch: &mut Vec<u8>,
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
        // over the limit, too slow, malformed), which stands.
        return Ok(());
    }
    let (mut parts, body) = response.into_parts();
    let status = parts.status.as_u16();
    if (status < 200 || status == 204)
        && parts.headers.get(CONTENT_LENGTH).map(|v| v.as_bytes()) == Some(b"0")
    {
        // A 1xx or 204 has no body and carries no `Content-Length`
        // (RFC 9110 §8.6); a `0` says as much (axum sets one from the empty
        // body's size hint) and is left out. Any other length is refused.
        parts.headers.remove(CONTENT_LENGTH);
    }
    let length = body_length(&parts.headers, body.size_hint().exact(), status, facts)?;
    // A sole, well-formed `Content-Length` on a response that carries one
    // is what `Known` writes: the writer writes it, rather than parse and
    // check the service's copy (a 304 keeps the service's: the writer
    // writes none for it; a 1xx or 204 keeps it, to be refused).
    let skip_length = matches!(length, BodyLength::Known(_))
        && status >= 200
        && status != 204
        && status != 304
        && parts.headers.get_all(CONTENT_LENGTH).iter().count() == 1;
    with_fields(&parts.headers, skip_length, |fields| {
        ex.send_head(status, fields, length)
    })?;
    match ex.conn().answer_state() {
        AnswerState::Switched => {
            drop(body);
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
    let mut body = pin!(body);
    let r = stream_body(ex, chan, scratch, facts, chunked, body.as_mut()).await;
    match r {
        // The request body failed (over its limit, too slow, malformed):
        // the connection takes no more of the answer and closes; the
        // service saw the failure in its body.
        Err(_) if ex.conn().failed() => Ok(()),
        r => r,
    }
}

/// Sends the response body frame by frame, then its end (with the
/// trailers when `chunked` and the client takes them).
async fn stream_body<B>(
    ex: &mut Exchange<'_>,
    chan: Option<&Arc<Chan>>,
    scratch: &mut Vec<u8>,
    facts: Facts,
    chunked: bool,
    mut body: Pin<&mut B>,
) -> Result<(), HandlerError>
where
    B: HttpBody,
    B::Error: Into<BoxError>,
{
    loop {
        let frame = match next_frame(ex, chan, scratch, body.as_mut()).await? {
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
                        with_fields(&trailers, false, |t| ex.send_end(t))?;
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

/// The next frame of the response body, reading the request body for it
/// when it asks, and writing out what is queued before waiting on it.
async fn next_frame<B>(
    ex: &mut Exchange<'_>,
    chan: Option<&Arc<Chan>>,
    scratch: &mut Vec<u8>,
    mut body: Pin<&mut B>,
) -> Result<Option<Result<Frame<B::Data>, BoxError>>, http_net_tokio::Error>
where
    B: HttpBody,
    B::Error: Into<BoxError>,
{
    let mut out = None;
    loop {
        let mut wanted = false;
        let mut flush = false;
        poll_fn(|cx| {
            if let Poll::Ready(f) = body.as_mut().poll_frame(cx) {
                out = Some(f.map(|r| r.map_err(Into::into)));
                return Poll::Ready(());
            }
            if chan.is_some_and(|c| c.poll_wanted(cx).is_ready()) {
                wanted = true;
                return Poll::Ready(());
            }
            if !ex.conn().output().is_empty() {
                // The body waits: what is queued leaves now, not when 16
                // KiB have gathered (a stream of small events).
                flush = true;
                return Poll::Ready(());
            }
            Poll::Pending
        })
        .await;
        if let Some(f) = out.take() {
            return Ok(f);
        }
        let app = |cx: &mut Context<'_>| {
            if out.is_none() {
                if let Poll::Ready(f) = body.as_mut().poll_frame(cx) {
                    out = Some(f.map(|r| r.map_err(Into::into)));
                }
            }
        };
        if let (true, Some(chan)) = (wanted, chan) {
            feed(ex, chan, scratch, app).await;
        } else if flush {
            flush_while(ex, app).await?;
        }
        if let Some(f) = out.take() {
            return Ok(f);
        }
    }
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
            body_length(&h, Some(5), 200, f).unwrap(),
            BodyLength::Known(5)
        );
        assert_eq!(body_length(&h, None, 200, f).unwrap(), BodyLength::Streamed);
        h.insert(CONTENT_LENGTH, "5".parse().unwrap());
        assert_eq!(body_length(&h, None, 200, f).unwrap(), BodyLength::Known(5));
        assert!(matches!(
            body_length(&h, Some(3), 200, f),
            Err(Error::LengthMismatch {
                declared: 5,
                body: 3
            })
        ));
        // HEAD keeps the length of the body a GET would get.
        let head = Facts { head: true, ..f };
        assert_eq!(
            body_length(&h, Some(0), 200, head).unwrap(),
            BodyLength::Known(5)
        );
        h.insert(CONTENT_LENGTH, "five".parse().unwrap());
        assert_eq!(
            body_length(&h, Some(5), 200, f).unwrap(),
            BodyLength::Streamed
        );
        let mut h = HeaderMap::new();
        h.insert(TRANSFER_ENCODING, "chunked".parse().unwrap());
        assert_eq!(
            body_length(&h, Some(5), 200, f).unwrap(),
            BodyLength::Streamed
        );
    }

    #[test]
    fn a_declared_length_is_one_decimal_number() {
        let mut h = HeaderMap::new();
        assert_eq!(declared_length(&h), None);
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
            assert_eq!(declared_length(&h), Some(want), "{v:?}");
        }
    }

    #[test]
    fn the_length_field_is_left_out_only_when_asked() {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_LENGTH, "5".parse().unwrap());
        h.insert("x-a", "1".parse().unwrap());
        let names = |skip| {
            with_fields(&h, skip, |f| {
                f.iter().map(|(n, _)| n.to_vec()).collect::<Vec<_>>()
            })
        };
        assert_eq!(names(false), [b"content-length".to_vec(), b"x-a".to_vec()]);
        assert_eq!(names(true), [b"x-a".to_vec()]);
    }

    #[test]
    fn fields_past_the_stack_are_all_passed() {
        for n in [0, 3, STACK_FIELDS, STACK_FIELDS + 5] {
            let mut h = HeaderMap::new();
            for i in 0..n {
                h.append("x-n", i.to_string().parse().unwrap());
            }
            let seen = with_fields(&h, false, |f| {
                f.iter()
                    .map(|(k, v)| (k.to_vec(), v.to_vec()))
                    .collect::<Vec<_>>()
            });
            assert_eq!(seen.len(), n);
            assert!(seen
                .iter()
                .enumerate()
                .all(|(i, (k, v))| k == b"x-n" && *v == i.to_string().into_bytes()));
        }
    }
}

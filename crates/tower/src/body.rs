//! The request body the service reads: an `http_body::Body` fed from the
//! connection on demand, one frame at a time, through a [`Chan`] shared
//! with the handler that reads the connection.

use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http::HeaderMap;
use http_body::{Frame, SizeHint};

use crate::error::Error;

/// How the body ends, once it has.
#[derive(Debug, Default)]
enum End {
    /// Still arriving.
    #[default]
    Open,
    /// Ended with these trailers (not yet handed out).
    Trailers(HeaderMap),
    /// Ended with this error (not yet handed out).
    Failed(Error),
    /// Ended, and the end was handed out.
    Done,
}

/// What the body and the handler share.
#[derive(Debug, Default)]
struct Inner {
    /// The body was polled and had nothing: the handler should read.
    wanted: bool,
    /// A frame read for the body, not yet taken.
    ready: Option<Bytes>,
    end: End,
    /// The limit the service asked for ([`BodyLimit::lower_to`]), not yet
    /// passed to the connection.
    limit: Option<u64>,
    /// Wakes the body's reader when a frame arrives.
    body_waker: Option<Waker>,
    /// Wakes the handler when the body asks.
    driver_waker: Option<Waker>,
}

/// The channel between the [`Body`] and the handler reading the connection.
#[derive(Debug, Default)]
pub(crate) struct Chan {
    inner: Mutex<Inner>,
}

/// Stores `waker` in `slot` unless it would wake the same task.
fn keep(slot: &mut Option<Waker>, waker: &Waker) {
    match slot {
        Some(w) if w.will_wake(waker) => {}
        _ => *slot = Some(waker.clone()),
    }
}

impl Chan {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while the lock was held left the state as it was.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ready when the body asks for a frame (the handler then reads one);
    /// otherwise the handler is woken when it does.
    pub(crate) fn poll_wanted(&self, cx: &mut Context<'_>) -> Poll<()> {
        let mut g = self.lock();
        if g.wanted {
            return Poll::Ready(());
        }
        keep(&mut g.driver_waker, cx.waker());
        Poll::Pending
    }

    /// Whether the body asks for a frame now.
    #[cfg(test)]
    pub(crate) fn wanted(&self) -> bool {
        self.lock().wanted
    }

    /// The limit the service asked for since the last call.
    pub(crate) fn take_limit(&self) -> Option<u64> {
        self.lock().limit.take()
    }

    /// Hands the body a data frame.
    pub(crate) fn data(&self, bytes: Bytes) {
        self.answer(|g| g.ready = Some(bytes));
    }

    /// Ends the body with `trailers` (empty: none).
    pub(crate) fn end(&self, trailers: HeaderMap) {
        self.answer(|g| g.end = End::Trailers(trailers));
    }

    /// Ends the body with `error`.
    pub(crate) fn fail(&self, error: Error) {
        self.answer(|g| g.end = End::Failed(error));
    }

    /// Answers the body's ask with `set`, and wakes its reader after the
    /// lock is let go.
    fn answer(&self, set: impl FnOnce(&mut Inner)) {
        let mut g = self.lock();
        set(&mut g);
        g.wanted = false;
        let w = g.body_waker.take();
        drop(g);
        if let Some(w) = w {
            w.wake();
        }
    }
}

/// The request body a service gets: data frames as they arrive on the
/// connection, then the trailers (of a chunked body, when it has any).
///
/// Nothing is read from the connection until the body is polled, and one
/// frame at a time (at most 16 KiB): a service that does not read the body
/// holds none of it in memory, and one that streams it holds one frame.
/// The body limits are the service's, as on hyper (axum's
/// `DefaultBodyLimit`, tower-http's `RequestBodyLimitLayer`): the server
/// applies no body budget of its own to a [`ServiceHandler`](crate::ServiceHandler)
/// unless one was chosen with
/// [`ServerBuilder::max_body_bytes`](http_net_tokio::ServerOptions::max_body_bytes)
/// (then it applies, lowered for one request with [`BodyLimit`]). The
/// server's body timeout and minimum body rate apply to every body.
/// `100 Continue` is sent on the first poll when the request expects it.
///
/// A body that fails yields an [`Error::RequestBody`] naming the cause,
/// then ends. When the service has sent nothing yet, the server answers
/// for the failure itself (`413` over the limit, `408` after the body
/// deadline, below the minimum rate or evicted at the connection limit,
/// `400` for a malformed body, with its error body) and whatever the
/// service returns is dropped; otherwise the connection closes after the
/// response.
#[derive(Debug)]
pub struct Body {
    /// `None`: the request has no body.
    chan: Option<Arc<Chan>>,
    /// The length the request declared, when it did.
    hint: SizeHint,
}

impl Body {
    /// A body that is already over (a request without one).
    pub(crate) fn empty() -> Body {
        Body {
            chan: None,
            hint: SizeHint::with_exact(0),
        }
    }

    /// A body read through a new channel, of `length` bytes when
    /// declared; the channel is the handler's end.
    pub(crate) fn streamed(length: Option<u64>) -> (Body, Option<Arc<Chan>>) {
        let chan = Arc::new(Chan::default());
        let hint = length.map_or_else(SizeHint::default, SizeHint::with_exact);
        let body = Body {
            chan: Some(Arc::clone(&chan)),
            hint,
        };
        (body, Some(chan))
    }
}

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Error>>> {
        let Some(chan) = &self.chan else {
            return Poll::Ready(None);
        };
        let mut g = chan.lock();
        if let Some(data) = g.ready.take() {
            return Poll::Ready(Some(Ok(Frame::data(data))));
        }
        match std::mem::replace(&mut g.end, End::Done) {
            End::Open => g.end = End::Open,
            End::Done => return Poll::Ready(None),
            End::Trailers(t) if t.is_empty() => return Poll::Ready(None),
            End::Trailers(t) => return Poll::Ready(Some(Ok(Frame::trailers(t)))),
            End::Failed(e) => return Poll::Ready(Some(Err(e))),
        }
        g.wanted = true;
        keep(&mut g.body_waker, cx.waker());
        let w = g.driver_waker.take();
        drop(g);
        if let Some(w) = w {
            w.wake();
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        match &self.chan {
            None => true,
            Some(chan) => {
                let g = chan.lock();
                g.ready.is_none() && matches!(g.end, End::Done)
            }
        }
    }

    fn size_hint(&self) -> SizeHint {
        self.hint
    }
}

/// Lowers the body limit for one request, at the server, before the
/// service reads; every request with a body carries one in its extensions.
///
/// A service usually limits bodies with its own layers (axum's
/// `DefaultBodyLimit`), which answer as the application chooses. This
/// one is the server's: a declared `Content-Length` over it is refused
/// before the first byte is read (and before `100 Continue`), a chunked
/// body when its bytes pass it: the body fails with
/// [`Error::RequestBody`] holding [`http_net_tokio::Error::OverLimit`],
/// and the server answers `413` with its own error body if the service
/// has sent nothing (RFC 9110 §15.5.14). A budget set with
/// [`max_body_bytes`](http_net_tokio::ServerOptions::max_body_bytes) is
/// the ceiling (without one there is none: the server applies no default
/// budget to a [`ServiceHandler`](crate::ServiceHandler)).
///
/// ```
/// use http_net_tower::{Body, BodyLimit};
///
/// fn small_uploads(req: &http::Request<Body>) {
///     if let Some(limit) = req.extensions().get::<BodyLimit>() {
///         limit.lower_to(64 * 1024);
///     }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct BodyLimit(pub(crate) Arc<Chan>);

impl BodyLimit {
    /// Lowers the limit to `max_bytes` for this request (a limit above the
    /// server's leaves the server's in force). Takes effect at the body's
    /// next read from the connection.
    pub fn lower_to(&self, max_bytes: u64) {
        let mut g = self.0.lock();
        g.limit = Some(g.limit.map_or(max_bytes, |l| l.min(max_bytes)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;
    use std::future::poll_fn;

    fn run<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn a_body_asks_then_gets_its_frames_then_its_trailers() {
        run(async {
            let (mut body, chan) = Body::streamed(None);
            let chan = chan.unwrap();
            let mut body = Pin::new(&mut body);
            assert!(!chan.wanted());
            let first = poll_fn(|cx| Poll::Ready(body.as_mut().poll_frame(cx).is_pending())).await;
            assert!(first, "nothing is there before the handler reads");
            assert!(chan.wanted());
            chan.data(Bytes::from_static(b"abc"));
            assert!(!chan.wanted());
            let f = poll_fn(|cx| body.as_mut().poll_frame(cx)).await;
            assert_eq!(f.unwrap().unwrap().into_data().unwrap(), "abc");
            let mut t = HeaderMap::new();
            t.insert("x-sum", "7".parse().unwrap());
            chan.end(t);
            let f = poll_fn(|cx| body.as_mut().poll_frame(cx)).await;
            assert_eq!(f.unwrap().unwrap().into_trailers().unwrap()["x-sum"], "7");
            assert!(poll_fn(|cx| body.as_mut().poll_frame(cx)).await.is_none());
            assert!(body.is_end_stream());
        });
    }

    #[test]
    fn a_failed_body_yields_its_error_once_then_ends() {
        run(async {
            let (mut body, chan) = Body::streamed(Some(10));
            let chan = chan.unwrap();
            assert_eq!(body.size_hint().exact(), Some(10));
            chan.fail(Error::Target);
            let mut body = Pin::new(&mut body);
            let f = poll_fn(|cx| body.as_mut().poll_frame(cx)).await;
            assert!(matches!(f, Some(Err(Error::Target))));
            assert!(poll_fn(|cx| body.as_mut().poll_frame(cx)).await.is_none());
        });
    }

    #[test]
    fn the_lowest_limit_asked_is_kept_until_taken() {
        let chan = Arc::new(Chan::default());
        let limit = BodyLimit(Arc::clone(&chan));
        limit.lower_to(100);
        limit.lower_to(500);
        assert_eq!(chan.take_limit(), Some(100));
        assert_eq!(chan.take_limit(), None);
    }

    #[test]
    fn an_empty_body_is_over() {
        let body = Body::empty();
        assert!(body.is_end_stream());
        assert_eq!(body.size_hint().exact(), Some(0));
    }
}

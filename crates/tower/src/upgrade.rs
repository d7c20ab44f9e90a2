//! The upgrade handle: after a `101` (or a `2xx` to `CONNECT`) the service
//! gets the connection's stream through it, as hyper's `OnUpgrade` gives
//! it to a service on hyper.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, DuplexStream, ReadBuf};
use tokio::sync::oneshot;

use crate::error::Error;

/// The size of the pipe between the connection and an upgraded stream.
pub(crate) const PIPE: usize = 64 * 1024;

/// The connection after a `101 Switching Protocols` (or a `2xx` to
/// `CONNECT`): reads give first the bytes that arrived after the request
/// head, then the peer's; writes go to the peer.
///
/// It owns its end of the connection (`'static`, so a spawned task can
/// keep it): the server's connection task carries the bytes between it
/// and the socket until both sides have closed, and then closes the
/// connection. No deadline of the server applies any more.
#[derive(Debug)]
pub struct Upgraded {
    io: DuplexStream,
}

impl AsyncRead for Upgraded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Upgraded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// The promise of the upgraded connection, in the extensions of every
/// request that may switch protocols (one with `Upgrade`, or `CONNECT`).
/// Take it out (`extensions_mut().remove::<OnUpgrade>()`, or, with the
/// `axum` feature, as an extractor), answer `101` with the new protocol's
/// fields, and await it (in a task of its own: it resolves once the `101`
/// is sent, after the service's future has returned).
///
/// It resolves to [`Error::NotUpgraded`] when the response did not switch
/// (not `101`, or the writer refused it) or the connection ended first.
///
/// axum's own `WebSocketUpgrade` extractor does not work on this server:
/// it looks for hyper's `OnUpgrade` in the request's extensions, a type
/// only hyper can make, and answers `426 Upgrade Required` without it.
/// Answer the handshake with this handle and a WebSocket library instead
/// (the `axum_app` example does it with `tokio-tungstenite`).
///
/// ```
/// use http::{Request, Response, StatusCode};
/// use http_net_tower::{Body, OnUpgrade};
/// use tokio::io::{AsyncReadExt, AsyncWriteExt};
///
/// // Answers `101` and echoes the new protocol's bytes.
/// fn echo(mut req: Request<Body>) -> Response<String> {
///     let Some(on) = req.extensions_mut().remove::<OnUpgrade>() else {
///         let mut r = Response::new("upgrade required".to_string());
///         *r.status_mut() = StatusCode::UPGRADE_REQUIRED;
///         return r;
///     };
///     tokio::spawn(async move {
///         let Ok(mut io) = on.await else { return };
///         let mut buf = [0u8; 1024];
///         while let Ok(n @ 1..) = io.read(&mut buf).await {
///             if io.write_all(&buf[..n]).await.is_err() {
///                 break;
///             }
///         }
///     });
///     let mut r = Response::new(String::new());
///     *r.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
///     r.headers_mut().insert("upgrade", "echo".parse().unwrap());
///     r.headers_mut().insert("connection", "upgrade".parse().unwrap());
///     r
/// }
/// ```
///
/// It is `Clone` (the request's extensions ask it of what they hold): the
/// clones share the one stream, which the first to await it gets.
#[derive(Clone, Debug)]
pub struct OnUpgrade {
    rx: Arc<Mutex<Option<oneshot::Receiver<Upgraded>>>>,
}

/// The handler's side of an [`OnUpgrade`].
#[derive(Debug)]
pub(crate) struct Pending {
    tx: oneshot::Sender<Upgraded>,
}

/// A promise and the handler's side of it.
pub(crate) fn pending() -> (Pending, OnUpgrade) {
    let (tx, rx) = oneshot::channel();
    (
        Pending { tx },
        OnUpgrade {
            rx: Arc::new(Mutex::new(Some(rx))),
        },
    )
}

impl Pending {
    /// Hands the service its end of a pipe; the other end is returned for
    /// the connection to carry, or `None` when no one waits for it.
    pub(crate) fn fulfil(self) -> Option<DuplexStream> {
        if self.tx.is_closed() {
            return None;
        }
        let (ours, theirs) = tokio::io::duplex(PIPE);
        self.tx.send(Upgraded { io: theirs }).ok()?;
        Some(ours)
    }
}

impl Future for OnUpgrade {
    type Output = Result<Upgraded, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut slot = self.rx.lock().unwrap_or_else(|e| e.into_inner());
        let Some(rx) = slot.as_mut() else {
            // A clone took it.
            return Poll::Ready(Err(Error::NotUpgraded));
        };
        let r = std::task::ready!(Pin::new(rx).poll(cx));
        *slot = None;
        Poll::Ready(r.map_err(|_| Error::NotUpgraded))
    }
}

#[cfg(feature = "axum")]
impl<S: Send + Sync> axum::extract::FromRequestParts<S> for OnUpgrade {
    type Rejection = http::StatusCode;

    /// Takes the handle out of the request; `426 Upgrade Required` when the
    /// request cannot switch protocols (no `Upgrade`, RFC 9110 §7.8).
    async fn from_request_parts(
        parts: &mut http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .remove::<OnUpgrade>()
            .ok_or(http::StatusCode::UPGRADE_REQUIRED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[test]
    fn a_fulfilled_promise_gives_a_pipe_to_the_connection() {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(async {
                let (p, on) = pending();
                let twin = on.clone();
                let mut ours = p.fulfil().unwrap();
                let mut up = on.await.unwrap();
                // The clone shares the one stream, taken already.
                assert!(matches!(twin.await, Err(Error::NotUpgraded)));
                ours.write_all(b"ping").await.unwrap();
                let mut b = [0u8; 4];
                up.read_exact(&mut b).await.unwrap();
                assert_eq!(&b, b"ping");
                // Nobody waiting: no pipe; a dropped promise: NotUpgraded.
                let (p, on) = pending();
                drop(on);
                assert!(p.fulfil().is_none());
                let (p, on) = pending();
                drop(p);
                assert!(matches!(on.await, Err(Error::NotUpgraded)));
            });
    }
}

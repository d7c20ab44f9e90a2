//! Serving until a signal: axum's `with_graceful_shutdown` in one call, on
//! the server's own graceful stop ([`ServerHandle::shutdown`]).

use std::future::{poll_fn, Future};
use std::io;
use std::pin::pin;

use http_net_tokio::{Handler, Listener, Server, Setup};
#[cfg(doc)]
use http_net_tokio::{ServerBuilder, ServerHandle};

/// Serves `handler` on `server` until `signal` resolves, then stops
/// gracefully and returns: what `axum::serve(listener,
/// app).with_graceful_shutdown(signal)` does on hyper.
///
/// The stop is the server's ([`ServerHandle::shutdown`], [`Server::serve`]):
/// the listener is closed at once (new connections are refused), idle
/// connections are closed, requests in flight finish (their responses
/// carry `Connection: close`) for up to the
/// [`shutdown_timeout`](http_net_tokio::ServerOptions::shutdown_timeout) (30 s by
/// default), what remains is cut, and this returns. A
/// [`ServerHandle`] taken before still stops it too.
///
/// ```
/// use http_net_tower::{serve_with_graceful_shutdown, ServiceHandler};
/// # #[derive(Clone)] struct App;
/// # impl tower_service::Service<http::Request<http_net_tower::Body>> for App {
/// #     type Response = http::Response<String>;
/// #     type Error = std::convert::Infallible;
/// #     type Future = std::future::Ready<Result<Self::Response, Self::Error>>;
/// #     fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Self::Error>> { std::task::Poll::Ready(Ok(())) }
/// #     fn call(&mut self, _: http::Request<http_net_tower::Body>) -> Self::Future { std::future::ready(Ok(http::Response::new(String::new()))) }
/// # }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let app = App; // an axum `Router`, or any service
/// // The signal: here a channel; in a program, `tokio::signal::ctrl_c()`.
/// let (stop, signal) = tokio::sync::oneshot::channel::<()>();
/// let server = http_net_tokio::Server::bind("127.0.0.1:0").await?;
/// let task = tokio::spawn(serve_with_graceful_shutdown(
///     server,
///     ServiceHandler::new(app),
///     async move { let _ = signal.await; },
/// ));
/// stop.send(()).unwrap();
/// task.await??; // served, stopped, returned
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// # }).unwrap();
/// ```
pub async fn serve_with_graceful_shutdown<L, U, H>(
    server: Server<L, U>,
    handler: H,
    signal: impl Future<Output = ()>,
) -> io::Result<()>
where
    L: Listener,
    U: Setup<L::Stream>,
    H: Handler,
{
    let handle = server.handle();
    let mut serving = pin!(server.serve(handler));
    let mut signal = pin!(signal);
    let mut signalled = false;
    poll_fn(|cx| {
        if !signalled && signal.as_mut().poll(cx).is_ready() {
            signalled = true;
            handle.shutdown();
        }
        serving.as_mut().poll(cx)
    })
    .await
}

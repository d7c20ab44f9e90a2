//! What answers requests: the [`Handler`] trait, below the server and the
//! connection that call it.

use std::future::Future;

use http_net_conn::HandlerError;

use crate::exchange::Exchange;

/// Answers requests: called once per request on the connection's task.
///
/// Implement it with an `async fn`; the future must be `Send`, so that the
/// server runs on the multi-thread runtime as well as the current-thread one.
/// It returns a [`HandlerError`]: any `Error + Send + Sync + 'static`
/// converts into one with `?` (the server's own [`Error`](crate::Error) too), and it
/// boxes only when an error is made (a handler that returns `Ok` allocates
/// nothing for it).
///
/// ```
/// use http_net_tokio::{Exchange, Handler, HandlerError, Server, ServerOptions};
///
/// /// `/double/21` answers `42`; `/double/x` fails with the
/// /// `ParseIntError`, and the server answers `500` for it.
/// struct Double;
///
/// impl Handler for Double {
///     async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
///         let Some(n) = ex.path().strip_prefix(b"/double/") else {
///             return Ok(ex.respond_with(404, &[], b"").await?);
///         };
///         let n: u64 = std::str::from_utf8(n)?.parse()?; // `?` on any error
///         let twice = n.saturating_mul(2).to_string();
///         ex.respond_with(200, &[(b"Content-Type", b"text/plain")], twice.as_bytes())
///             .await?;
///         Ok(())
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let server = Server::builder().report_mistakes(false).bind("127.0.0.1:0").await?;
/// let port = server.local_addr()?.port();
/// let stop = server.handle();
/// let task = tokio::spawn(server.serve(Double));
///
/// let client = http_net_tokio::Client::new();
/// let mut ok = client.send_to("127.0.0.1", port, b"GET", b"/double/21", &[], b"").await?;
/// assert_eq!(ok.body_to_vec(64).await?, b"42");
/// drop(ok);
/// let failed = client.send_to("127.0.0.1", port, b"GET", b"/double/x", &[], b"").await?;
/// assert_eq!(failed.status(), 500);
/// drop(failed);
/// drop(client);
///
/// stop.shutdown();
/// task.await.unwrap()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
///
/// # What the server sends when a handler returns an error or does not answer
///
/// An error can stand for an answer (as in the blocking server): one that
/// carries a status ([`HandlerError::bad_request`](crate::HandlerError::bad_request),
/// `.with_status(400)` on an error or on a `Result`:
/// [`WithStatus`](crate::WithStatus)), or whose status the
/// [`ServerBuilder::error_status`](crate::ServerOptions::error_status) hook
/// chooses (an application's own error type). Otherwise the error's text
/// never reaches the peer, and what the connection is left in decides
/// what is sent:
///
/// | the handler... | the server |
/// |---|---|
/// | answered completely and returned `Ok` | keeps the connection (if the request allows) |
/// | returned, before answering, an error with a status in `400..=599` (its own, or the `error_status` hook's) | sends that status as an answer (the error's fields, the [`error_body`](crate::ServerOptions::error_body) hook's body or a short text), and keeps the connection as after any answer (a `408` closes it); not a mistake |
/// | returned such an error with a status outside `400..=599`, or a field the writer refuses | sends `500 Internal Server Error`, then closes ([`Mistake::Refused`](http_net_conn::Mistake::Refused)) |
/// | answered completely and returned `Err` | sends the answer, then closes |
/// | started an answer and did not finish it | sends what it queued, then closes: the peer sees a cut-short response ([`Mistake::Unfinished`](http_net_conn::Mistake::Unfinished)) |
/// | read a body the peer sent malformed (bad chunk framing, cut short) | sends the connection's `400`, then closes |
/// | read a body larger than the body limit ([`ServerBuilder::max_body_bytes`](crate::ServerOptions::max_body_bytes), or lower: [`Exchange::limit_body`](crate::Exchange::limit_body)) | sends `413 Content Too Large`, then closes |
/// | timed out reading the body (a stall, or below the minimum body rate) | sends `408 Request Timeout`, then closes; if the handler answered after the timeout, sends its answer, then closes (the rest of the body is not read) |
/// | returned anything else without answering (`Ok`, a plain `Err`, or a panic) | sends `500 Internal Server Error`, then closes, and reports the application's mistake |
///
/// The application's own mistakes ([`Mistake`](http_net_conn::Mistake): a command the connection
/// refused, such as a field name with a space; no answer; an
/// answer left unfinished; a panic) are reported on stderr, at most once a
/// second for each kind: see [`ServerBuilder::mistake_log`](crate::ServerOptions::mistake_log)
/// and [`ServerBuilder::report_mistakes`](crate::ServerOptions::report_mistakes).
pub trait Handler: Send + Sync + 'static {
    /// Answers one request. Returning a plain error, or returning without
    /// a complete answer, closes the connection (with `500` if nothing was
    /// sent); an error with a status is answered with it (see the table
    /// above).
    fn handle(
        &self,
        exchange: &mut Exchange<'_>,
    ) -> impl Future<Output = Result<(), HandlerError>> + Send;

    /// Whether this handler limits request bodies itself (default `false`).
    /// A handler that does (a tower service, which applies its own limits
    /// as it reads, as on hyper) gets no body budget from the server unless
    /// one was chosen: [`ServerBuilder::max_body_bytes`](crate::ServerOptions::max_body_bytes),
    /// or a [`conn_config`](crate::ServerOptions::conn_config) whose budget
    /// is not the default 8 MiB; so the server's default answers no `413`
    /// the handler did not decide. The body timeout and the minimum body
    /// rate still apply. Asked once, when the server starts serving.
    fn limits_request_bodies(&self) -> bool {
        false
    }
}

//! The [`Handler`] trait: what the server runs for each request.

use http_net_conn::HandlerError;

use crate::exchange::Exchange;

/// Answers requests: called once per request on the connection's thread.
///
/// Implemented for every `Fn(&mut Exchange<'_>) -> Result<(), E>` that is
/// `Send + Sync + 'static`, where `E` converts into [`HandlerError`]: the
/// server's [`Error`](crate::Error), any `std::error::Error + Send + Sync +
/// 'static` of the application's own (so that `?` works on it), or
/// `HandlerError` itself for a handler that mixes them. The error is boxed
/// only when one is returned: a handler that answers and returns `Ok`
/// allocates nothing for it.
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::blocking::{Exchange, Server};
/// use http_net::conn::HandlerError;
///
/// // `?` on the server's errors and on the application's own: a query
/// // value that is not a number (`std::num::ParseIntError`) ends the
/// // handler, and the server answers `500` for it.
/// fn double(ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
///     let n = ex.query_pairs().find(|(k, _)| *k == b"n").map_or(b"0".as_slice(), |(_, v)| v);
///     let n: u64 = std::str::from_utf8(n)?.parse()?;
///     ex.respond_with(200, &[], (2 * n).to_string().as_bytes())?;
///     Ok(())
/// }
///
/// let server = Server::bind("127.0.0.1:0")?;
/// let addr = server.local_addr()?;
/// let stop = server.handle();
/// let thread = std::thread::spawn(move || server.serve(double));
/// let mut ok = http_net::blocking::get(&format!("http://{addr}/?n=21"))?;
/// assert_eq!((ok.status(), ok.body_to_vec(64)?), (200, b"42".to_vec()));
/// let bad = http_net::blocking::get(&format!("http://{addr}/?n=x"))?;
/// assert_eq!(bad.status(), 500);
/// stop.shutdown();
/// thread.join().unwrap()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The connection's thread has a 2 MiB stack by default (Rust's own default
/// for spawned threads; see
/// [`ServerBuilder::thread_stack_size`](crate::ServerBuilder::thread_stack_size)):
/// an ordinary handler, even one with a 512 KiB array on its stack, runs
/// without overflowing it. A panic is caught: the connection answers `500`
/// (if nothing was sent) and closes, and the server goes on. The time a
/// handler spends computing is not bounded; its reads of the body and its
/// writes are (stall timeouts and minimum rates, see [`Exchange`]).
///
/// # What the server sends when a handler returns an error or does not answer
///
/// An error can stand for an answer: one that carries a status
/// ([`HandlerError::bad_request`](crate::HandlerError::bad_request),
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
/// | started an answer and did not finish it | sends what it queued, then closes: the peer sees a cut-short response |
/// | read a body the peer sent malformed (bad chunk framing, cut short) | sends the connection's `400`, then closes |
/// | read a body larger than the body limit ([`ServerBuilder::max_body_bytes`](crate::ServerOptions::max_body_bytes), or lower: [`Exchange::limit_body`]) | sends `413 Content Too Large`, then closes (the read fails with [`Error::OverLimit`](crate::Error::OverLimit)) |
/// | timed out reading the body (a stall, or below the minimum body rate) | sends `408 Request Timeout`, then closes; if the handler answered after the timeout, sends its answer, then closes (the rest of the body is not read) |
/// | returned anything else without answering (`Ok`, a plain `Err`, or a panic) | sends `500 Internal Server Error`, then closes, and reports the application's mistake |
///
/// These `4xx`/`5xx` responses, and those sent before a handler runs (a
/// malformed head `400`, a `Content-Length` over the body limit `413`, a
/// head deadline `408`, ...), have a short text body naming the status,
/// unless [`ServerBuilder::error_body`](crate::ServerOptions::error_body)
/// supplies one; [`ServerBuilder::access_log`](crate::ServerOptions::access_log)
/// sees each request with its status and the handler's error.
pub trait Handler: Send + Sync + 'static {
    /// Answers one request (see the table above for what a failure sends).
    fn handle(&self, exchange: &mut Exchange<'_>) -> Result<(), HandlerError>;

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

impl<F, E> Handler for F
where
    F: Fn(&mut Exchange<'_>) -> Result<(), E> + Send + Sync + 'static,
    E: Into<HandlerError>,
{
    fn handle(&self, exchange: &mut Exchange<'_>) -> Result<(), HandlerError> {
        self(exchange).map_err(Into::into)
    }
}

//! The [`Handler`] trait: what the server runs for each request.

use crate::error::Error;
use crate::exchange::Exchange;

/// Answers requests: called once per request on the connection's thread.
///
/// Implemented for every `Fn(&mut Exchange<'_>) -> Result<(), Error>` that is
/// `Send + Sync + 'static`.
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
/// # What the server sends when a handler does not answer
///
/// The handler's return value never reaches the peer; what the connection
/// is left in decides what is sent:
///
/// | the handler... | the server |
/// |---|---|
/// | answered completely and returned `Ok` | keeps the connection (if the request allows) |
/// | answered completely and returned `Err` | sends the answer, then closes |
/// | started an answer and did not finish it | sends what it queued, then closes: the peer sees a cut-short response |
/// | read a body the peer sent malformed (bad chunk framing, cut short) | sends the connection's `400`, then closes |
/// | read a body larger than the body limit ([`ServerBuilder::max_body_bytes`](crate::ServerBuilder::max_body_bytes), or lower: [`Exchange::limit_body`]) | sends `413 Content Too Large`, then closes (the read fails with [`Error::OverLimit`]) |
/// | timed out reading the body | sends `408 Request Timeout`, then closes |
/// | returned anything else without answering (`Ok`, `Err`, or a panic) | sends `500 Internal Server Error`, then closes |
///
/// These `4xx`/`5xx` responses, and those sent before a handler runs (a
/// malformed head `400`, a `Content-Length` over the body limit `413`, a
/// head deadline `408`, ...), have a short text body naming the status,
/// unless [`ServerBuilder::error_body`](crate::ServerBuilder::error_body)
/// supplies one; [`ServerBuilder::access_log`](crate::ServerBuilder::access_log)
/// sees each request with its status and the handler's error.
pub trait Handler: Send + Sync + 'static {
    /// Answers one request (see the table above for what a failure sends).
    fn handle(&self, exchange: &mut Exchange<'_>) -> Result<(), Error>;
}

impl<F> Handler for F
where
    F: Fn(&mut Exchange<'_>) -> Result<(), Error> + Send + Sync + 'static,
{
    fn handle(&self, exchange: &mut Exchange<'_>) -> Result<(), Error> {
        self(exchange)
    }
}

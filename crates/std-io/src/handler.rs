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
pub trait Handler: Send + Sync + 'static {
    /// Answers one request. Returning an error, or returning without a
    /// complete answer, closes the connection (with `500` if nothing was sent).
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

//! The [`Handler`] trait: what the server runs for each request.

use crate::error::Error;
use crate::exchange::Exchange;

/// Answers requests: called once per request on the connection's thread.
///
/// Implemented for every `Fn(&mut Exchange<'_>) -> Result<(), Error>` that is
/// `Send + Sync + 'static`.
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

//! The meters and bounds of a request's two transfers (the request body
//! and the responses), which a server connection holds; what they decide is
//! asked of the connection ([`ServerConn::transfer_until`](crate::ServerConn::transfer_until)).

use core::time::Duration;

use crate::driver::Meter;
use crate::{Rate, ServerSettings, Stage};

/// One of the two transfers of a request a server connection paces (in
/// this order, which indexes the connection's paces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transfer {
    /// The request body, read by the handler: bounded by the body timeout
    /// (no byte for that long) and the minimum body rate; spent in
    /// [`Stage::Body`].
    Body,
    /// The responses, written: bounded by the write timeout (no byte taken
    /// for that long), the minimum response rate and the whole-response
    /// deadline; spent in [`Stage::Write`].
    Response,
}

/// What a transfer's wait that reached its deadline
/// ([`ServerConn::transfer_until`](crate::ServerConn::transfer_until)) is: the stage it counts in (for the
/// server's counters and the adapter's error), and whether the minimum rate
/// ended it (`TooSlow`) rather than a stall or the whole deadline
/// (`Timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spent {
    /// [`Stage::Body`] or [`Stage::Write`].
    pub stage: Stage,
    /// The minimum rate ended the wait.
    pub too_slow: bool,
}

/// The paces of the current request's transfers (each one's meter, stall
/// timeout and minimum rate, by [`Transfer`]), and the whole-response
/// deadline's length (the bounds are kept across requests and peers).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Paces {
    pub(super) paces: [(Meter, Duration, Rate); 2],
    pub(super) whole: Option<Duration>,
    /// The stage whose deadline or rate ran out first on this connection.
    pub(super) timed_out: Option<Stage>,
}

impl Paces {
    /// The bounds `s` sets, nothing counted.
    pub(crate) fn of(s: &ServerSettings) -> Paces {
        Paces {
            paces: [
                (Meter::new(), s.body_timeout, s.min_body_rate),
                (Meter::new(), s.write_timeout, s.min_response_rate),
            ],
            whole: s.response_timeout,
            timed_out: None,
        }
    }

    /// A new peer: nothing counted, no timeout seen.
    pub(crate) fn new_peer(&mut self) {
        self.restart();
        self.timed_out = None;
    }

    /// A deadline or rate of `stage` ran out (the first one is kept).
    pub(crate) fn timed_out(&mut self, stage: Stage) {
        self.timed_out.get_or_insert(stage);
    }

    /// A new request (or peer): both meters afresh, with no whole deadline.
    pub(crate) fn restart(&mut self) {
        for (meter, ..) in &mut self.paces {
            meter.restart(None);
        }
    }
}

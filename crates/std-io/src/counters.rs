//! What the server counts: connections accepted, refused, evicted and
//! timed out, readable through [`ServerHandle::counters`](crate::ServerHandle::counters).

use std::sync::atomic::{AtomicU64, Ordering};

/// Counts per connection phase: waiting idle between requests (or before
/// the first byte), reading a request head, reading a request body,
/// writing a response, setting the connection up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PhaseCounts {
    /// Idle keep-alive connections (or connections that sent nothing yet).
    pub idle: u64,
    /// Connections in a request head.
    pub head: u64,
    /// Connections in a request body.
    pub body: u64,
    /// Connections writing a response.
    pub response: u64,
    /// Connections in their setup step before the first HTTP byte (a TLS
    /// handshake: [`Setup`](crate::Setup)).
    pub setup: u64,
}

/// A snapshot of the server's counters, from
/// [`ServerHandle::counters`](crate::ServerHandle::counters).
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// let server = http_net::blocking::Server::bind("127.0.0.1:0").unwrap();
/// let c = server.handle().counters();
/// assert_eq!((c.accepted, c.refused, c.current), (0, 0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counters {
    /// Connections accepted from the listener (served or refused).
    pub accepted: u64,
    /// Connections refused with `503`: beyond the connection limit with none
    /// to evict, beyond the per-peer cap, or with no descriptor or thread
    /// left; with a setup step (TLS), closed unanswered instead, and also
    /// when their peer is over its setup rate
    /// ([`ServerBuilder::setup_rate_per_peer`](crate::ServerBuilder::setup_rate_per_peer)).
    pub refused: u64,
    /// Connections closed to admit a newcomer at the connection limit, by
    /// the phase they were in.
    pub evicted: PhaseCounts,
    /// Connections closed by a timeout or a minimum rate, by phase (idle
    /// timeout; head deadline; body stall or rate; write stall, rate or
    /// response deadline).
    pub timed_out: PhaseCounts,
    /// Responses the handler promised and did not send in full: a body the
    /// connection left to it (`Placement::AfterOutput`) not sent with
    /// [`Exchange::send_placed`](crate::Exchange::send_placed), or an answer
    /// it began and did not end. The application's error: the connection
    /// closes after what was due before the missing bytes, never reused.
    pub unsent_bodies: u64,
    /// Connections whose [`Setup`](crate::Setup) step failed (a TLS
    /// handshake that failed: a bad record, a wrong version, plain HTTP
    /// sent to a TLS port, no protocol in common), each closed without a
    /// response. One past its deadline is counted in `timed_out.setup`,
    /// one evicted in `evicted.setup`.
    pub setup_failed: u64,
    /// Connections being served now (admitted, not yet closed; a connection
    /// draining its peer's input after its close no longer counts).
    pub current: u64,
}

/// The phase a count is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Idle = 0,
    Head = 1,
    Body = 2,
    Response = 3,
    Setup = 4,
}

impl Phase {
    pub(crate) fn from_u8(v: u8) -> Option<Phase> {
        Some(match v {
            0 => Phase::Idle,
            1 => Phase::Head,
            2 => Phase::Body,
            3 => Phase::Response,
            4 => Phase::Setup,
            _ => return None,
        })
    }
}

/// The live counters (atomics; `current` is the admission count kept by
/// the registry).
#[derive(Debug, Default)]
pub(crate) struct Live {
    pub(crate) accepted: AtomicU64,
    pub(crate) refused: AtomicU64,
    evicted: [AtomicU64; 5],
    timed_out: [AtomicU64; 5],
    pub(crate) unsent_bodies: AtomicU64,
    pub(crate) setup_failed: AtomicU64,
}

impl Live {
    pub(crate) fn evicted(&self, p: Phase) {
        self.evicted[p as usize].fetch_add(1, Ordering::Relaxed);
    }
    pub(crate) fn timed_out(&self, p: Phase) {
        self.timed_out[p as usize].fetch_add(1, Ordering::Relaxed);
    }
    pub(crate) fn snapshot(&self, current: u64) -> Counters {
        let phases = |a: &[AtomicU64; 5]| PhaseCounts {
            idle: a[0].load(Ordering::Relaxed),
            head: a[1].load(Ordering::Relaxed),
            body: a[2].load(Ordering::Relaxed),
            response: a[3].load(Ordering::Relaxed),
            setup: a[4].load(Ordering::Relaxed),
        };
        Counters {
            accepted: self.accepted.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
            evicted: phases(&self.evicted),
            timed_out: phases(&self.timed_out),
            unsent_bodies: self.unsent_bodies.load(Ordering::Relaxed),
            setup_failed: self.setup_failed.load(Ordering::Relaxed),
            current,
        }
    }
}

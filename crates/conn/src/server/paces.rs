//! The paces of a request's two transfers, owned by the server connection:
//! the request body the handler reads (the body timeout as a stall, the
//! minimum body rate) and the responses it writes (the write timeout, the
//! minimum response rate, the whole-response deadline). The adapter asks
//! [`ServerConn::transfer_until`] when a read or a write must wait, and
//! tells [`ServerConn::transfer_moved`] what the wait moved; what a spent
//! pace is (its stage, a timeout or a rate too slow) is decided here for
//! every adapter.

use core::time::Duration;

use super::meters::{Paces, Spent, Transfer};
use super::ServerConn;
use crate::driver::{Bound, Meter};
use crate::{ServerSettings, Stage, Timestamp};

impl ServerConn {
    /// Sets the bounds of the request body's and the responses' transfers
    /// from `s` (its `body_timeout`, `min_body_rate`, `write_timeout`,
    /// `min_response_rate` and `response_timeout`); kept across
    /// [`reset`](ServerConn::reset). The shared defaults until set.
    pub fn set_paces(&mut self, s: &ServerSettings) {
        self.paces = Paces::of(s);
    }

    /// Counts both transfers afresh, with no whole deadline (a response
    /// of the connection's own, before a request).
    pub fn restart_transfers(&mut self) {
        self.paces.restart();
    }

    /// A request's transfers begin: counted afresh, the whole-response
    /// deadline (if one is set) from `now`. `now` is asked only when a
    /// whole deadline is set, so a server without one reads no clock here.
    pub fn start_transfers(&mut self, now: impl FnOnce() -> Timestamp) {
        self.paces.restart();
        if let Some(whole) = self.paces.whole {
            self.paces.paces[1].0.start(now(), Some(whole));
        }
    }

    /// When a wait of transfer `t` that begins at `now` must end, with the
    /// transfer's last progress at `progress` (`now` for a wait that begins
    /// right after one; earlier for a retry within one write): the stall
    /// timeout after the progress, the minimum rate (the waiting its bytes
    /// earned, less what it waited), or the whole deadline, whichever is
    /// first; and what reaching it is ([`Spent`]). One rule for every
    /// adapter (the core's [`Meter::deadline`]).
    ///
    /// ```
    /// use core::time::Duration;
    /// use http_net_conn::{Config, ServerConn, Stage, Timestamp};
    /// use http_net_conn::driver::{Spent, Transfer};
    ///
    /// let conn = ServerConn::new(Config::DEFAULT);
    /// let t0 = Timestamp::from_nanos(0);
    /// // Nothing read: the minimum rate's grace (10 s) comes before the
    /// // body timeout (30 s).
    /// let (until, spent) = conn.transfer_until(Transfer::Body, t0, t0);
    /// assert_eq!(until, t0.saturating_add(Duration::from_secs(10)));
    /// assert_eq!(spent, Spent { stage: Stage::Body, too_slow: true });
    /// ```
    pub fn transfer_until(
        &self,
        t: Transfer,
        now: Timestamp,
        progress: Timestamp,
    ) -> (Timestamp, Spent) {
        let (meter, stall, rate) = self.paces.paces[t as usize];
        let (at, bound) = meter.deadline(now, progress, stall, rate);
        let stage = [Stage::Body, Stage::Write][t as usize];
        let too_slow = bound == Bound::Rate;
        (at, Spent { stage, too_slow })
    }

    /// Counts what one read or write of transfer `t` moved (`bytes`) and
    /// how long it waited on the peer for it (`waited`: zero for one that
    /// did not wait, or bytes sent past the output).
    pub fn transfer_moved(&mut self, t: Transfer, waited: Duration, bytes: u64) {
        let m = &mut self.paces.paces[t as usize].0;
        // A write that went at once waited for nothing (the per-request
        // path: no `Duration` sum for it).
        if !waited.is_zero() {
            m.waited(waited);
        }
        m.add(bytes);
    }

    /// A transfer's wait reached the deadline
    /// [`transfer_until`](ServerConn::transfer_until) gave it: notes its
    /// stage as one the connection timed out in
    /// ([`timed_out_in`](ServerConn::timed_out_in)), and gives `s` back
    /// for the adapter's error.
    pub fn transfer_spent(&mut self, s: Spent) -> Spent {
        self.paces.timed_out(s.stage);
        s
    }

    /// The stage whose deadline or minimum rate ran out first on this
    /// connection, for the server's counters (`Counters::ended`): a head,
    /// idle or drain deadline ([`handle_timeout`](ServerConn::handle_timeout)),
    /// a body read's or a response write's pace
    /// ([`transfer_spent`](ServerConn::transfer_spent)). One rule for every
    /// adapter: the first one counts.
    pub fn timed_out_in(&self) -> Option<Stage> {
        self.paces.timed_out
    }

    /// Transfer `t`'s meter: the bytes it moved, the time it waited, the
    /// whole deadline of the responses.
    pub fn transfer(&self, t: Transfer) -> &Meter {
        &self.paces.paces[t as usize].0
    }

    /// The stall timeout of transfer `t` (the body timeout, the write
    /// timeout).
    pub fn transfer_stall(&self, t: Transfer) -> Duration {
        self.paces.paces[t as usize].1
    }
}

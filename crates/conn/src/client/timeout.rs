//! The client connection's deadlines (issue 34, point 1): the whole
//! request's ([`RequestDeadline`]) and the wait for `100 Continue` (RFC
//! 9110 §10.1.1). The adapter asks [`ClientConn::poll_timeout`] when it is
//! about to wait, keeps one timer at that answer, and calls
//! [`ClientConn::handle_timeout`] when it fires; what an expiry does is
//! decided here and reported as a [`ClientTimeout`].

use core::time::Duration;

use super::attempt::{Deadlines, ExpectState};
use super::conn::ClientConn;
use crate::state::CloseWhy;
use crate::time::{RequestDeadline, Timestamp, Window};
use crate::Stage;

/// What a deadline of a client connection did when it passed, as
/// [`ClientConn::handle_timeout`] reports it.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{BodyLength, ClientConn, ClientTimeout, Config, ExpectState};
/// use http_net_conn::{RequestDeadline, Timestamp};
///
/// let t0 = Timestamp::from_nanos(0);
/// let at = |ms| t0.saturating_add(Duration::from_millis(ms));
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// conn.arm(RequestDeadline::new(t0, Some(Duration::from_secs(5))), Duration::from_secs(1));
/// let fields: &[(&[u8], &[u8])] = &[(b"Host", b"a"), (b"Expect", b"100-continue")];
/// conn.send_request(b"PUT", b"/f", fields, BodyLength::Known(3)).unwrap();
/// // About to wait for `100` at 100 ms: the wait ends a second later.
/// assert_eq!(conn.poll_timeout(at(100)), Some(at(1100)));
/// assert_eq!(conn.handle_timeout(at(1100)), Some(ClientTimeout::Continue));
/// assert_eq!(conn.expect_state(), ExpectState::Continue); // send the body
/// // Then only the whole request's deadline is left.
/// assert_eq!(conn.poll_timeout(at(1200)), Some(at(5000)));
/// assert_eq!(conn.handle_timeout(at(5000)), Some(ClientTimeout::Deadline));
/// assert!(!conn.reusable());
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientTimeout {
    /// The whole-request deadline passed: the request fails with
    /// [`Stage::Deadline`](crate::Stage::Deadline) and the connection is
    /// closed, never reused.
    Deadline,
    /// The wait for `100 Continue` is over: the body is sent anyway (RFC
    /// 9110 §10.1.1); [`ClientConn::expect_state`] is now
    /// [`ExpectState::Continue`]. Not an error.
    Continue,
}

impl ClientConn {
    /// Sets the deadlines of the request about to be sent on this
    /// connection: `request` (the whole request's, redirect hops and
    /// retries included) and `expect_wait`, the longest wait for `100
    /// Continue` when the request asks for it.
    pub fn arm(&mut self, request: RequestDeadline, expect_wait: Duration) {
        self.clock = Deadlines::new(request, expect_wait);
    }

    /// The earliest deadline of the latest request, asked when the adapter
    /// is about to wait: the whole request's, and the wait for `100` (which
    /// starts at the first `now` this is asked with while the request waits
    /// for it). `None`: no deadline.
    pub fn poll_timeout(&mut self, now: Timestamp) -> Option<Timestamp> {
        let d = &mut self.clock;
        let window = if self.expect == ExpectState::Waiting {
            let w = *d
                .continue_window
                .get_or_insert_with(|| Window::start(now, d.expect_wait));
            Some(w.until())
        } else {
            None
        };
        match (d.request.at(), window) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Handles the deadlines that have passed at `now` (the whole
    /// request's first): what it did, or `None` when none had passed.
    pub fn handle_timeout(&mut self, now: Timestamp) -> Option<ClientTimeout> {
        if self.clock.request.at().is_some_and(|at| at <= now) {
            self.close(CloseWhy::Ended);
            return Some(ClientTimeout::Deadline);
        }
        let waited = self.clock.continue_window.is_some_and(|w| w.passed(now));
        if self.expect == ExpectState::Waiting && waited {
            self.expect = ExpectState::Continue;
            return Some(ClientTimeout::Continue);
        }
        None
    }

    /// The end of a wait for the response (its head or body) the adapter
    /// begins at `now`, of at most `per` (its read timeout): no later than
    /// the connection's earliest deadline
    /// ([`poll_timeout`](ClientConn::poll_timeout)). The one bound both
    /// clients wait with; when it passes with no input, ask
    /// [`timed_out`](ClientConn::timed_out).
    pub fn wait_until(&mut self, now: Timestamp, per: Duration) -> Timestamp {
        let own = now.saturating_add(per);
        self.poll_timeout(now).map_or(own, |at| at.min(own))
    }

    /// After a wait at `stage` that passed at `now` with no input: `None`
    /// when it was the wait for `100` that ended (send the body, RFC 9110
    /// §10.1.1), else the stage of the timeout to report:
    /// [`Stage::Deadline`] once the whole request's deadline passed (the
    /// connection is then closed), `stage` otherwise.
    pub fn timed_out(&mut self, now: Timestamp, stage: Stage) -> Option<Stage> {
        match self.handle_timeout(now) {
            Some(ClientTimeout::Continue) => None,
            Some(ClientTimeout::Deadline) => Some(Stage::Deadline),
            None => Some(stage),
        }
    }

    /// The whole-request deadline [`arm`](ClientConn::arm) set.
    pub fn request_deadline(&self) -> RequestDeadline {
        self.clock.request
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyLength, Config};

    fn at(ms: u64) -> Timestamp {
        Timestamp::from_nanos(ms * 1_000_000)
    }

    #[test]
    fn no_deadline_without_a_request_timeout_or_an_expectation() {
        let mut c = ClientConn::new(Config::DEFAULT);
        c.arm(RequestDeadline::NONE, Duration::from_secs(1));
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
            .unwrap();
        assert_eq!(c.poll_timeout(at(5)), None);
        assert_eq!(c.handle_timeout(at(1_000_000)), None);
    }

    #[test]
    fn the_continue_wait_starts_at_the_first_wait_and_ends_once() {
        let mut c = ClientConn::new(Config::DEFAULT);
        c.arm(RequestDeadline::NONE, Duration::from_millis(300));
        let f: &[(&[u8], &[u8])] = &[(b"Host", b"a"), (b"Expect", b"100-continue")];
        c.send_request(b"PUT", b"/", f, BodyLength::Known(1))
            .unwrap();
        assert_eq!(c.poll_timeout(at(50)), Some(at(350)));
        // A later wait keeps the first one's start.
        assert_eq!(c.poll_timeout(at(200)), Some(at(350)));
        assert_eq!(c.handle_timeout(at(349)), None);
        assert_eq!(c.expect_state(), ExpectState::Waiting);
        assert_eq!(c.handle_timeout(at(350)), Some(ClientTimeout::Continue));
        assert_eq!(c.handle_timeout(at(400)), None);
        assert_eq!(c.poll_timeout(at(400)), None);
    }

    #[test]
    fn the_request_deadline_closes_the_connection() {
        let mut c = ClientConn::new(Config::DEFAULT);
        let d = RequestDeadline::new(at(0), Some(Duration::from_millis(100)));
        c.arm(d, Duration::from_secs(1));
        assert_eq!(c.request_deadline(), d);
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
            .unwrap();
        assert_eq!(c.poll_timeout(at(10)), Some(at(100)));
        assert_eq!(c.handle_timeout(at(100)), Some(ClientTimeout::Deadline));
        assert!(c.should_close());
    }

    #[test]
    fn one_wait_bound_and_one_answer_for_every_read() {
        let mut c = ClientConn::new(Config::DEFAULT);
        let d = RequestDeadline::new(at(0), Some(Duration::from_millis(1000)));
        c.arm(d, Duration::from_millis(300));
        let f: &[(&[u8], &[u8])] = &[(b"Host", b"a"), (b"Expect", b"100-continue")];
        c.send_request(b"PUT", b"/", f, BodyLength::Known(1))
            .unwrap();
        // The read timeout, the `100` window and the deadline: the earliest.
        assert_eq!(c.wait_until(at(0), Duration::from_millis(100)), at(100));
        assert_eq!(c.wait_until(at(0), Duration::from_secs(5)), at(300));
        assert_eq!(c.timed_out(at(100), Stage::Head), Some(Stage::Head));
        assert_eq!(c.timed_out(at(300), Stage::Head), None, "send the body");
        assert_eq!(c.wait_until(at(300), Duration::from_secs(5)), at(1000));
        assert_eq!(c.timed_out(at(1000), Stage::Body), Some(Stage::Deadline));
    }
}

//! Which [`Mistake`] of the application a handler's end shows, read from
//! where the connection says the answer stands: one rule for both
//! adapters, asked before [`ServerConn::after_handler`] (which answers for
//! the handler and so changes the answer's state).

use crate::driver::HandlerOutcome;
use crate::server::AnswerState;
use crate::{Error, HandlerError, LocalError, Mistake, ServerConn};

impl Mistake {
    /// The application's mistake, if any, once a handler ended with
    /// `outcome` on `conn` (asked before
    /// [`ServerConn::after_handler`]): `refused` is the connection's refusal
    /// of one of the handler's commands when that is the error it returned
    /// (see [`Mistake::refusal`]), `body_timed_out` whether one of its body
    /// reads timed out (the peer's doing).
    ///
    /// In this order:
    /// - a panic: [`Mistake::Panicked`];
    /// - a refused command: [`Mistake::Refused`];
    /// - the peer's fault (a malformed or over-budget body, a body read
    ///   that timed out: the connection answers for it): none;
    /// - a body owed, or an answer begun and not ended:
    ///   [`Mistake::Unfinished`];
    /// - no answer, whether it returned `Ok` or an error:
    ///   [`Mistake::Unanswered`] (the server answers `500` for it; an error
    ///   the handler returned is otherwise seen only by an access log);
    /// - otherwise none.
    ///
    /// ```
    /// use http_net_conn::{Config, Mistake, ServerConn, ServerEvent};
    /// use http_net_conn::driver::{HandlerOutcome};
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// // `Ok` without an answer.
    /// let m = Mistake::after_handler(&conn, HandlerOutcome::Ok, None, false);
    /// assert_eq!(m, Some(Mistake::Unanswered));
    /// ```
    pub fn after_handler(
        conn: &ServerConn,
        outcome: HandlerOutcome,
        refused: Option<LocalError>,
        body_timed_out: bool,
    ) -> Option<Mistake> {
        if outcome == HandlerOutcome::Panicked {
            return Some(Mistake::Panicked);
        }
        if let Some(l) = refused {
            return Some(Mistake::Refused(l));
        }
        if conn.failed() || body_timed_out {
            return None;
        }
        if conn.body_owed().is_some() {
            return Some(Mistake::Unfinished);
        }
        match conn.answer_state() {
            AnswerState::Started => Some(Mistake::Unfinished),
            AnswerState::NotStarted => Some(Mistake::Unanswered),
            _ => None,
        }
    }

    /// The connection's refusal of a command, when `e` is one: a
    /// [`LocalError`] as the core's [`Error::Local`]. An adapter looks for
    /// its own error type first (which wraps the core's) and passes what it
    /// finds to [`Mistake::after_handler`].
    pub fn refusal(e: &HandlerError) -> Option<LocalError> {
        match e.downcast_ref::<Error>() {
            Some(Error::Local(l)) => Some(*l),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyLength, Config, Placement, ServerEvent};

    fn requested(req: &[u8]) -> ServerConn {
        let mut conn = ServerConn::new(Config::DEFAULT);
        assert_eq!(conn.recv(req), req.len());
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
        conn
    }

    fn get() -> ServerConn {
        requested(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    }

    #[test]
    fn a_panic_is_a_mistake_whatever_was_sent() {
        let mut conn = get();
        assert_eq!(
            conn.responder().respond_with(204, &[], b"").unwrap(),
            Placement::Queued
        );
        let m = Mistake::after_handler(&conn, HandlerOutcome::Panicked, None, false);
        assert_eq!(m, Some(Mistake::Panicked));
    }

    #[test]
    fn a_refused_field_name_is_reported_as_refused() {
        let mut conn = get();
        let e = conn
            .responder()
            .respond_with(200, &[(b"Bad Name", b"x")], b"")
            .unwrap_err();
        let refused = Mistake::refusal(&HandlerError::new(e));
        assert_eq!(refused, Some(LocalError::InvalidFieldName));
        let m = Mistake::after_handler(&conn, HandlerOutcome::Failed, refused, false);
        assert_eq!(m, Some(Mistake::Refused(LocalError::InvalidFieldName)));
        // Another error is no refusal.
        let other = HandlerError::new(core::fmt::Error);
        assert_eq!(Mistake::refusal(&other), None);
    }

    #[test]
    fn no_answer_is_unanswered_whatever_the_handler_returned() {
        let conn = get();
        for outcome in [HandlerOutcome::Ok, HandlerOutcome::Failed] {
            let m = Mistake::after_handler(&conn, outcome, None, false);
            assert_eq!(m, Some(Mistake::Unanswered));
        }
    }

    #[test]
    fn an_answer_begun_and_not_ended_is_unfinished() {
        let mut conn = get();
        conn.responder()
            .send_head(200, &[], BodyLength::Known(10))
            .unwrap();
        assert_eq!(
            conn.responder().send_data(b"12345").unwrap(),
            Placement::Queued
        );
        for outcome in [HandlerOutcome::Ok, HandlerOutcome::Failed] {
            let m = Mistake::after_handler(&conn, outcome, None, false);
            assert_eq!(m, Some(Mistake::Unfinished));
        }
    }

    #[test]
    fn the_peers_doing_is_no_mistake() {
        // A body read that timed out.
        let conn = get();
        assert_eq!(
            Mistake::after_handler(&conn, HandlerOutcome::Ok, None, true),
            None
        );
        // A body over its budget: the connection failed (and queued 413).
        let mut conn = requested(
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n",
        );
        conn.limit_body(2).unwrap();
        assert!(conn.poll_event().is_err());
        assert!(conn.failed());
        let m = Mistake::after_handler(&conn, HandlerOutcome::Ok, None, false);
        assert_eq!(m, None);
    }

    #[test]
    fn a_whole_answer_is_no_mistake() {
        let mut conn = get();
        assert_eq!(
            conn.responder().respond_with(204, &[], b"").unwrap(),
            Placement::Queued
        );
        for outcome in [HandlerOutcome::Ok, HandlerOutcome::Failed] {
            assert_eq!(Mistake::after_handler(&conn, outcome, None, false), None);
        }
    }
}

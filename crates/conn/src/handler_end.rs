//! A handler's end as both adapters read it: what it is to the connection
//! ([`HandlerOutcome::of`]) and which mistake of the application it shows,
//! with the request it was made on ([`Mistake::of_handler`]). The adapters
//! keep only what differs: their own error type, and how they report.

use core::error::Error as StdError;

use crate::framing::Error as FramingError;
use crate::{
    ErrorCause, HandlerError, HandlerOutcome, Limit, LocalError, Mistake, RemoteError, ServerConn,
};

/// A request's method and target, as a mistake is reported with them.
type MethodTarget<'a> = (&'a str, &'a [u8]);

impl HandlerOutcome {
    /// What a handler's end is to the connection: `Some(Ok(()))` returned
    /// success, `Some(Err(_))` an error, `None` a panic (the adapter caught
    /// it).
    ///
    /// ```
    /// use http_net_conn::{HandlerError, HandlerOutcome};
    /// assert_eq!(HandlerOutcome::of(&Some(Ok(()))), HandlerOutcome::Ok);
    /// let e = HandlerError::new(core::fmt::Error);
    /// assert_eq!(HandlerOutcome::of(&Some(Err(e))), HandlerOutcome::Failed);
    /// assert_eq!(HandlerOutcome::of(&None), HandlerOutcome::Panicked);
    /// ```
    pub fn of(end: &Option<Result<(), HandlerError>>) -> HandlerOutcome {
        match end {
            Some(Ok(())) => HandlerOutcome::Ok,
            Some(Err(_)) => HandlerOutcome::Failed,
            None => HandlerOutcome::Panicked,
        }
    }
}

impl Mistake {
    /// The application's mistake, if the handler's `end` (as for
    /// [`HandlerOutcome::of`]) on `conn` shows one ([`Mistake::after_handler`]'s
    /// rule, so asked before [`ServerConn::after_handler`]), and the
    /// request's method and target to report it with.
    ///
    /// The connection's refusal of one of the handler's commands is looked
    /// for in the error it returned: in the adapter's own error type `E`
    /// with `local_of` (which finds the core's [`LocalError`] it wraps), or
    /// else as the core's error ([`Mistake::refusal`]). `body_timed_out`:
    /// one of the handler's body reads timed out (the peer's doing). The
    /// request is the one `conn` still holds, or else `kept`, the method and
    /// target the adapter copied (a request answered whole is gone from the
    /// connection).
    ///
    /// ```
    /// use http_net_conn::{
    ///     Config, Error, HandlerError, LocalError, Mistake, ServerConn, ServerEvent,
    /// };
    ///
    /// // An adapter's error, which wraps the core's.
    /// #[derive(Debug)]
    /// struct AdapterError(Error);
    /// impl core::fmt::Display for AdapterError {
    ///     fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
    ///         self.0.fmt(f)
    ///     }
    /// }
    /// impl std::error::Error for AdapterError {}
    /// fn local_of(e: &AdapterError) -> Option<LocalError> {
    ///     match e.0 {
    ///         Error::Local(l) => Some(l),
    ///         _ => None,
    ///     }
    /// }
    ///
    /// let mut conn = ServerConn::new(Config::DEFAULT);
    /// let _ = conn.recv(b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    /// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    /// // The handler returned the refusal, wrapped in the adapter's error.
    /// let refused = AdapterError(Error::Local(LocalError::InvalidFieldName));
    /// let end = Some(Err(HandlerError::new(refused)));
    /// let seen = Mistake::of_handler(&conn, &end, false, local_of, None);
    /// let request = Some(("GET", &b"/a"[..]));
    /// assert_eq!(seen, Some((Mistake::Refused(LocalError::InvalidFieldName), request)));
    /// // Any other error, and no answer: unanswered.
    /// let end = Some(Err(HandlerError::new(core::fmt::Error)));
    /// let seen = Mistake::of_handler(&conn, &end, false, local_of, None);
    /// assert_eq!(seen, Some((Mistake::Unanswered, request)));
    /// ```
    pub fn of_handler<'a, E: StdError + 'static>(
        conn: &'a ServerConn,
        end: &Option<Result<(), HandlerError>>,
        body_timed_out: bool,
        local_of: fn(&E) -> Option<LocalError>,
        kept: Option<MethodTarget<'a>>,
    ) -> Option<(Mistake, Option<MethodTarget<'a>>)> {
        let refused =
            end.as_ref()
                .and_then(|r| r.as_ref().err())
                .and_then(|e| match e.downcast_ref::<E>() {
                    Some(own) => local_of(own),
                    None => Mistake::refusal(e),
                });
        let m = Mistake::after_handler(conn, HandlerOutcome::of(end), refused, body_timed_out)?;
        let request = conn
            .request()
            .map(|r| (r.method_str(), r.target()))
            .or(kept);
        Some((m, request))
    }
}

impl ErrorCause<'_> {
    /// Why `conn` queued its error response for the peer error `e`, as
    /// both servers' `error_body` hooks see it: a body over the body limit
    /// is [`ErrorCause::OverLimit`] with the limit in force, whether its
    /// length was declared (refused before the handler runs) or met while
    /// it was read; any other is [`ErrorCause::Peer`].
    ///
    /// ```
    /// use http_net_conn::{Config, ErrorCause, Limit, ServerConn};
    ///
    /// let config = Config::DEFAULT.with_body_limits(
    ///     http_net_conn::BodyLimits::DEFAULT.with_body_budget(4),
    /// );
    /// let mut conn = ServerConn::new(config);
    /// conn.recv(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nabcde");
    /// let e = match conn.poll_event() {
    ///     Err(http_net_conn::Error::Remote(e)) => e,
    ///     other => panic!("{other:?}"),
    /// };
    /// let cause = ErrorCause::of_peer(&conn, e);
    /// assert!(matches!(cause, ErrorCause::OverLimit(Limit::BodyBudget(4))));
    /// assert!(conn.output().starts_with(b"HTTP/1.1 413 "));
    /// ```
    pub fn of_peer(conn: &ServerConn, e: RemoteError) -> ErrorCause<'static> {
        match e {
            RemoteError::Framing(FramingError::BodyTooLarge) => {
                ErrorCause::OverLimit(Limit::BodyBudget(conn.body_budget().unwrap_or(0)))
            }
            e => ErrorCause::Peer(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyLimits, Config, Error, ServerEvent};

    #[test]
    fn a_declared_body_over_the_budget_names_the_configured_limit_not_the_last_requests() {
        let config = Config::DEFAULT.with_body_limits(BodyLimits::DEFAULT.with_body_budget(16));
        let mut conn = ServerConn::new(config);
        conn.recv(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc");
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
        // The first request lowers its own limit, and is answered.
        conn.limit_body(10).unwrap();
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Data(b"abc"))));
        conn.responder().respond_with(204, &[], b"").unwrap();
        let n = conn.output().len();
        conn.consume_output(n);
        while let Ok(ServerEvent::End(_)) = conn.poll_event() {}
        conn.recv(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n");
        let e = match conn.poll_event() {
            Err(Error::Remote(e)) => e,
            other => panic!("{other:?}"),
        };
        let cause = ErrorCause::of_peer(&conn, e);
        assert!(
            matches!(cause, ErrorCause::OverLimit(Limit::BodyBudget(16))),
            "{cause:?}"
        );
        let out = conn.output();
        let text = b"the body is over the body limit of 16 bytes";
        assert!(out.windows(text.len()).any(|w| w == text));
    }
}

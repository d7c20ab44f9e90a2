//! The server's hooks: the body of the error responses it writes itself
//! ([`ServerBuilder::error_body`](crate::ServerBuilder::error_body)), a
//! record of each request
//! ([`ServerBuilder::access_log`](crate::ServerBuilder::access_log)), and
//! where the application's mistakes are reported
//! ([`ServerBuilder::mistake_log`](crate::ServerBuilder::mistake_log)). The
//! values they see are the core's ([`http_net_conn::ErrorResponse`],
//! [`http_net_conn::AccessRecord`], [`Mistake`]), the same in both adapters.

use std::fmt;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use http_net_conn::{
    write_error_response, write_error_response_with_body, AccessRecord, ErrorBody, ErrorCause,
    ErrorResponse, Mistake, MistakeGate, MistakeReport, ServerConn, Timestamp,
};

/// The error-body hook.
pub(crate) type ErrorBodyFn = dyn Fn(&ErrorResponse<'_>) -> Option<ErrorBody> + Send + Sync;
/// The access-log hook.
pub(crate) type AccessLogFn = dyn Fn(&AccessRecord<'_>) + Send + Sync;
/// The mistake-log hook.
pub(crate) type MistakeLogFn = dyn Fn(&Mistake) + Send + Sync;

/// The hooks a server was built with.
#[derive(Clone)]
pub(crate) struct Hooks {
    pub(crate) error_body: Option<Arc<ErrorBodyFn>>,
    pub(crate) access_log: Option<Arc<AccessLogFn>>,
    pub(crate) mistake_log: Option<Arc<MistakeLogFn>>,
    /// Whether mistakes are reported at all (default on).
    pub(crate) report_mistakes: bool,
}

impl Default for Hooks {
    fn default() -> Hooks {
        Hooks {
            error_body: None,
            access_log: None,
            mistake_log: None,
            report_mistakes: true,
        }
    }
}

impl Hooks {
    /// Whether a hook needs each request's method and target kept.
    pub(crate) fn any(&self) -> bool {
        self.error_body.is_some() || self.access_log.is_some()
    }

    /// Gives the error response `conn` queued the hook's body for `cause`,
    /// when a hook is set and supplies one (a hook that panics, or a body
    /// the connection refuses, leaves the server's own text).
    pub(crate) fn error_body(
        &self,
        conn: &mut ServerConn,
        cause: ErrorCause<'_>,
        method: &str,
        target: &[u8],
    ) {
        let (Some(status), Some(hook)) = (conn.error_status(), &self.error_body) else {
            return;
        };
        let response = ErrorResponse::new(status, cause, method, target);
        if let Ok(Some(body)) = catch_unwind(AssertUnwindSafe(|| hook(&response))) {
            let _ = conn.set_error_body(&body.content_type, &body.body);
        }
    }

    /// Tells the access-log hook (when set) of one request.
    pub(crate) fn access_log(&self, record: &AccessRecord<'_>) {
        if let Some(hook) = &self.access_log {
            let _ = catch_unwind(AssertUnwindSafe(|| hook(record)));
        }
    }

    /// Reports the application's mistake `m`, made at `now` on a request
    /// of `method` and `target` (`None` when they are no longer known):
    /// through the hook, or as one line on stderr, when reports are on and
    /// `gate` lets it through (once a second for each kind).
    pub(crate) fn mistake(
        &self,
        gate: &MistakeGate,
        m: Mistake,
        now: Timestamp,
        request: Option<(&str, &[u8])>,
    ) {
        if !self.report_mistakes || !gate.admit(m, now) {
            return;
        }
        match &self.mistake_log {
            Some(hook) => {
                let _ = catch_unwind(AssertUnwindSafe(|| hook(&m)));
            }
            None => {
                // One write of the whole line; a failed write is not the
                // server's concern (and must not panic, as `eprintln!` does).
                let line = mistake_line(&m, request);
                let _ = std::io::stderr().lock().write_all(line.as_bytes());
            }
        }
    }
}

/// The default report of a mistake, the std server's bytes: conn's
/// [`MistakeReport`] (`http-net: <mistake> (<METHOD> <target>)`, the
/// target's bytes outside printable ASCII escaped) and a line end, written
/// at once.
pub(crate) fn mistake_line(m: &Mistake, request: Option<(&str, &[u8])>) -> String {
    format!("{}\n", MistakeReport::new(*m, request))
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("error_body", &self.error_body.is_some())
            .field("access_log", &self.access_log.is_some())
            .field("mistake_log", &self.mistake_log.is_some())
            .field("report_mistakes", &self.report_mistakes)
            .finish()
    }
}

/// The `503` beyond the connection limit, made once per second (the `Date`
/// changes) and shared by the refusals of that second: the error-body
/// hook, when set, is asked once per second too.
#[derive(Default)]
pub(crate) struct BusyAnswer {
    /// The second it was made for, and its bytes.
    cached: Mutex<Option<(u64, Arc<[u8]>)>>,
}

/// `Retry-After` of the `503` beyond the connection limit, in seconds.
const RETRY_AFTER: u32 = 1;

impl BusyAnswer {
    /// The `503`'s bytes for the second `now` (seconds since the Unix
    /// epoch), with `date` (its IMF-fixdate) and `server`.
    pub(crate) fn get(
        &self,
        now: u64,
        date: impl FnOnce() -> [u8; 29],
        server: Option<&[u8]>,
        hooks: &Hooks,
    ) -> Arc<[u8]> {
        let mut cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((second, bytes)) = cached.as_ref() {
            if *second == now {
                return Arc::clone(bytes);
            }
        }
        let bytes: Arc<[u8]> = busy_response(&date(), server, hooks).into();
        *cached = Some((now, Arc::clone(&bytes)));
        bytes
    }
}

/// The `503` bytes: the connection's own error response, with the
/// error-body hook's body when it gives one the writer accepts.
fn busy_response(date: &[u8; 29], server: Option<&[u8]>, hooks: &Hooks) -> Vec<u8> {
    let mut msg = Vec::new();
    if let Some(hook) = &hooks.error_body {
        let busy = ErrorResponse::new(503, ErrorCause::Busy, "", b"");
        if let Ok(Some(b)) = catch_unwind(AssertUnwindSafe(|| hook(&busy))) {
            let (ct, body) = (&b.content_type[..], &b.body[..]);
            let date = Some(date);
            let r = write_error_response_with_body(
                &mut msg,
                503,
                Some(RETRY_AFTER),
                date,
                server,
                ct,
                body,
            );
            if r.is_ok() {
                return msg;
            }
            msg.clear();
        }
    }
    // 503 is an error status: this cannot fail.
    let _ = write_error_response(&mut msg, 503, Some(RETRY_AFTER), Some(date), server);
    msg
}

impl fmt::Debug for BusyAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BusyAnswer").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_net_conn::LocalError;

    #[test]
    fn the_default_line_names_the_mistake_and_the_request() {
        let m = Mistake::Refused(LocalError::InvalidFieldName);
        let line = mistake_line(&m, Some(("GET", b"/a?b")));
        assert!(
            line.starts_with("http-net: the connection refused"),
            "{line}"
        );
        assert!(line.ends_with(" (GET /a?b)\n"), "{line}");
        assert_eq!(
            mistake_line(&Mistake::Panicked, None),
            "http-net: the handler panicked\n"
        );
    }

    #[test]
    fn the_default_line_is_the_std_servers_with_the_target_escaped() {
        let m = Mistake::Unanswered;
        let line = mistake_line(&m, Some(("GET", b"/a\x01\xff b")));
        assert_eq!(
            line,
            "http-net: the handler returned without answering (sent 500) \
             (GET /a\\x01\\xff\\x20b)\n"
        );
        assert_eq!(
            line,
            format!(
                "{}\n",
                MistakeReport::new(m, Some(("GET", b"/a\x01\xff b")))
            )
        );
    }

    #[test]
    fn the_busy_answer_is_made_once_a_second_with_the_hooks_body() {
        let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen = Arc::clone(&calls);
        let hooks = Hooks {
            error_body: Some(Arc::new(move |r: &ErrorResponse<'_>| {
                seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                assert!(matches!(r.cause(), ErrorCause::Busy));
                Some(ErrorBody {
                    content_type: b"application/json".to_vec(),
                    body: br#"{"busy":true}"#.to_vec(),
                })
            })),
            ..Hooks::default()
        };
        let busy = BusyAnswer::default();
        let date = || *b"Sun, 06 Nov 1994 08:49:37 GMT";
        let a = busy.get(7, date, None, &hooks);
        let b = busy.get(7, date, None, &hooks);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert!(a.starts_with(b"HTTP/1.1 503 "));
        assert!(a.ends_with(br#"{"busy":true}"#));
        let _ = busy.get(8, date, None, &hooks);
        assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 2);
        // Without a hook: the server's own text.
        let own = BusyAnswer::default().get(7, date, None, &Hooks::default());
        assert!(own.starts_with(b"HTTP/1.1 503 ") && !own.ends_with(b"}"));
    }
}

//! The server's hooks: the body of the error responses it writes itself
//! ([`ServerBuilder::error_body`](crate::ServerOptions::error_body)), a
//! record of each request
//! ([`ServerBuilder::access_log`](crate::ServerOptions::access_log)), and
//! where the application's mistakes are reported
//! ([`ServerBuilder::mistake_log`](crate::ServerOptions::mistake_log)). The
//! values they see are the core's ([`http_net_conn::ErrorResponse`],
//! [`http_net_conn::AccessRecord`], [`Mistake`]), the same in both adapters.

use std::fmt;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use http_net_conn::driver::MistakeSink;
use http_net_conn::Mistake;

/// The hooks a server was built with: the core's, the same in both
/// adapters.
pub(crate) use http_net_conn::driver::ServerHooks as Hooks;

/// Delivers a mistake where the core says it goes, if it is reported
/// ([`ServerHooks::mistake_sink`](http_net_conn::driver::ServerHooks::mistake_sink)):
/// calls the hook (containing its panic) or writes the line to stderr at
/// once (a failed write is not the server's concern, and must not panic).
pub(crate) fn deliver(mistake: Option<(Mistake, MistakeSink<'_>)>) {
    match mistake {
        Some((m, MistakeSink::Hook(hook))) => drop(catch(&mut || hook(&m))),
        Some((_, MistakeSink::Line(line))) => {
            drop(std::io::stderr().lock().write_all(line.as_bytes()));
        }
        None => {}
    }
}

/// Runs a hook, containing its panic: `false` when it panicked (the
/// core's [`Catch`](http_net_conn::driver::Catch)).
pub(crate) fn catch(hook: &mut dyn FnMut()) -> bool {
    catch_unwind(AssertUnwindSafe(hook)).is_ok()
}

/// The `503` beyond the connection limit, made once per second (the `Date`
/// changes) and shared by the refusals of that second: the error-body
/// hook, when set, is asked once per second too.
#[derive(Default)]
pub(crate) struct BusyAnswer {
    /// The second it was made for, and its bytes.
    cached: Mutex<Option<(u64, Arc<[u8]>)>>,
}

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
        let mut msg = Vec::new();
        hooks.busy_response(&mut msg, &date(), server, catch);
        let bytes: Arc<[u8]> = msg.into();
        *cached = Some((now, Arc::clone(&bytes)));
        bytes
    }
}

impl fmt::Debug for BusyAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BusyAnswer").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_net_conn::{ErrorBody, ErrorCause, ErrorResponse, LocalError, MistakeReport};

    #[test]
    fn the_default_line_names_the_mistake_and_the_request() {
        let m = Mistake::Refused(LocalError::InvalidFieldName);
        let line = MistakeReport::new(m, Some(("GET", b"/a?b"))).line();
        assert!(
            line.starts_with("http-net: the connection refused"),
            "{line}"
        );
        assert!(line.ends_with(" (GET /a?b)\n"), "{line}");
        assert_eq!(
            MistakeReport::new(Mistake::Panicked, None).line(),
            "http-net: the handler panicked\n"
        );
    }

    #[test]
    fn the_default_line_is_the_std_servers_with_the_target_escaped() {
        let m = Mistake::Unanswered;
        let line = MistakeReport::new(m, Some(("GET", b"/a\x01\xff b"))).line();
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

//! The server's hooks: the body of the error responses it writes itself
//! ([`ServerBuilder::error_body`](crate::ServerOptions::error_body)) and a
//! record of each request ([`ServerBuilder::access_log`](crate::ServerOptions::access_log)),
//! and the report of the application's mistakes
//! ([`ServerBuilder::mistake_log`](crate::ServerOptions::mistake_log)).

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

use http_net_conn::driver::MistakeSink;
use http_net_conn::Mistake;

/// The hooks a server was built with: the core's, the same in both
/// adapters.
pub(crate) use http_net_conn::driver::ServerHooks as Hooks;
/// The data the hooks see, defined once in the core for both adapters.
pub use http_net_conn::{AccessRecord, ErrorBody, ErrorCause, ErrorResponse};

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

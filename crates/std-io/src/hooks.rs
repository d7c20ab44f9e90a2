//! The server's hooks: the body of the error responses it writes itself
//! ([`ServerBuilder::error_body`](crate::ServerBuilder::error_body)) and a
//! record of each request ([`ServerBuilder::access_log`](crate::ServerBuilder::access_log)),
//! and the report of the application's mistakes
//! ([`ServerBuilder::mistake_log`](crate::ServerBuilder::mistake_log)).

use std::fmt;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use http_net_conn::{Mistake, MistakeGate, MistakeReport, Timestamp};

/// The data the hooks see, defined once in the core for both adapters.
pub use http_net_conn::{AccessRecord, ErrorBody, ErrorCause, ErrorResponse};

/// The error-body hook.
pub(crate) type ErrorBodyFn = dyn Fn(&ErrorResponse<'_>) -> Option<ErrorBody> + Send + Sync;
/// The access-log hook.
pub(crate) type AccessLogFn = dyn Fn(&AccessRecord<'_>) + Send + Sync;
/// The mistake-log hook.
pub(crate) type MistakeLogFn = dyn Fn(&Mistake) + Send + Sync;

/// The hooks a server was built with, and its mistake reports' gate (one
/// per server: a clone starts a gate of its own).
pub(crate) struct Hooks {
    pub(crate) error_body: Option<Arc<ErrorBodyFn>>,
    pub(crate) access_log: Option<Arc<AccessLogFn>>,
    /// Where mistakes go instead of stderr.
    pub(crate) mistake_log: Option<Arc<MistakeLogFn>>,
    /// Whether mistakes are reported at all.
    pub(crate) report_mistakes: bool,
    gate: MistakeGate,
}

impl Default for Hooks {
    fn default() -> Hooks {
        Hooks {
            error_body: None,
            access_log: None,
            mistake_log: None,
            report_mistakes: true,
            gate: MistakeGate::new(),
        }
    }
}

impl Clone for Hooks {
    fn clone(&self) -> Hooks {
        Hooks {
            error_body: self.error_body.clone(),
            access_log: self.access_log.clone(),
            mistake_log: self.mistake_log.clone(),
            report_mistakes: self.report_mistakes,
            gate: MistakeGate::new(),
        }
    }
}

impl Hooks {
    /// Reports `mistake`, made at `now` answering `request` (method,
    /// target), unless reports are off or the gate holds it back (one per
    /// kind per second): to the mistake-log hook, or as one line on
    /// stderr. A hook that panics, or a stderr that cannot be written, is
    /// contained.
    pub(crate) fn report(
        &self,
        mistake: Mistake,
        now: impl FnOnce() -> Timestamp,
        request: Option<(&str, &[u8])>,
    ) {
        if !self.report_mistakes || !self.gate.admit(mistake, now()) {
            return;
        }
        match &self.mistake_log {
            Some(hook) => {
                let _ = catch_unwind(AssertUnwindSafe(|| hook(&mistake)));
            }
            None => {
                let line = MistakeReport::new(mistake, request);
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            }
        }
    }

    /// Whether a hook needs each request's method and target kept.
    pub(crate) fn any(&self) -> bool {
        self.error_body.is_some() || self.access_log.is_some()
    }
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

//! The server's hooks: the body of the error responses it writes itself
//! ([`ServerBuilder::error_body`](crate::ServerBuilder::error_body)) and a
//! record of each request ([`ServerBuilder::access_log`](crate::ServerBuilder::access_log)).

use std::fmt;
use std::sync::Arc;

/// The data the hooks see, defined once in the core for both adapters.
pub use http_net_conn::{AccessRecord, ErrorBody, ErrorCause, ErrorResponse};

/// The error-body hook.
pub(crate) type ErrorBodyFn = dyn Fn(&ErrorResponse<'_>) -> Option<ErrorBody> + Send + Sync;
/// The access-log hook.
pub(crate) type AccessLogFn = dyn Fn(&AccessRecord<'_>) + Send + Sync;

/// The hooks a server was built with.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub(crate) error_body: Option<Arc<ErrorBodyFn>>,
    pub(crate) access_log: Option<Arc<AccessLogFn>>,
}

impl Hooks {
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
            .finish()
    }
}

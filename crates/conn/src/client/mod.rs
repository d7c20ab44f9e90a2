//! The client connection: requests in, bytes out; bytes in, response events
//! out. Responses are matched to the outstanding requests in order. Around
//! it, for the adapters: one request's plan (`plan.rs`), the pool's rules
//! (`pool.rs`), the connection's deadlines (`timeout.rs`), and the head a
//! response hands out (`head.rs`).

mod attempt;
mod conn;
mod head;
mod plan;
mod pool;
mod reuse;
mod send;
mod timeout;
mod view;

pub use attempt::{ExpectState, Failure, Retry};
pub use conn::{ClientConn, MAX_PIPELINED};
pub use head::{BodyStep, ClientHead, HeadStep};
pub use plan::{Answered, RequestPlan};
pub use pool::{IdlePool, PoolEntry, MAX_IDLE_TOTAL};
pub use send::SendStep;
pub use timeout::ClientTimeout;
pub use view::{ClientEvent, ResponseView};

/// Writes, beside an adapter's client, the two mappings both clients make
/// of their adapter's `$error` (with the variants `Io`, `ConnectionClosed`,
/// `Protocol` and `OverLimit`): `local(e, config)`, a connection error as
/// the client reports it (a body over the budget the caller configured is
/// a local limit, [`Limit::BodyBudget`](crate::Limit::BodyBudget), not the
/// server's fault), and `failure(e)`, how a request failed as the
/// connection's retry rule asks ([`Failure`]: the connection ended under
/// it, an end of stream or an I/O error on it, or something else).
///
/// Not API: an adapter's implementation detail, hidden from the docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __client_error_fns {
    ($error:ident) => {
        fn local(e: $crate::Error, config: &$crate::Config) -> $error {
            use $crate::{framing::Error as F, Error as E, RemoteError as R};
            match e {
                E::Remote(R::Framing(F::BodyTooLarge)) => $error::OverLimit(
                    $crate::Limit::BodyBudget(config.body_limits().body_budget()),
                ),
                e => $error::Protocol(e),
            }
        }

        fn failure(e: &$error) -> $crate::Failure {
            match e {
                $error::ConnectionClosed | $error::Io(_) => $crate::Failure::Closed,
                _ => $crate::Failure::Other,
            }
        }
    };
}

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

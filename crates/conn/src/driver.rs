//! The core's plumbing for adapter authors: what an I/O adapter (the
//! blocking and tokio ones in this workspace, or a third) needs to drive
//! [`ServerConn`](crate::ServerConn) and [`ClientConn`](crate::ClientConn)
//! and to share one policy across a server's connections. An application
//! needs none of it, and the facade (`http_net::conn`) re-exports none of it.

pub use crate::client::{
    Answered, BodyStep, HeadStep, IdlePool, PoolEntry, RequestPlan, SendStep, MAX_IDLE_TOTAL,
};
#[cfg(target_has_atomic = "64")]
pub use crate::counters::LiveCounters;
#[cfg(target_has_atomic = "64")]
pub use crate::endpoint::{
    open_file_limit, Answer, Endpoint, Lowered, Published, Refusal, SlotCell, RESERVED_DESCRIPTORS,
};
#[cfg(target_has_atomic = "64")]
pub use crate::evict::FlowGauge;
pub use crate::evict::{
    pick_eviction, rank, EvictPolicy, Flow, Rank, SlotState, Summary, REFUSING_AT_ONCE,
    YOUNG_RESPONSE_STALL_MS,
};
#[cfg(target_has_atomic = "64")]
pub use crate::handler_end::KeptRequest;
pub use crate::handler_end::{Catch, ChosenAnswer, HandlerEnd, OwnError};
#[cfg(target_has_atomic = "ptr")]
pub use crate::hooks::{MistakeSink, ServerHooks};
pub use crate::io_buffers::IoBuffers;
pub use crate::leftover::Leftover;
#[cfg(target_has_atomic = "64")]
pub use crate::mistake::MistakeGate;
pub use crate::outgoing::{head_fields, INLINE_FIELDS};
pub use crate::pace::{Bound, Meter};
pub use crate::read_step::ReadStep;
pub use crate::redirect::REDIRECT_BODY_DRAIN;
pub use crate::server::{
    write_busy_response, write_error_response, write_error_response_with_body, AfterHandler, Begin,
    BodyFail, Expiry, HandlerBody, HandlerOutcome, NextRead, ReadTimeouts, RequestPolicy, Spent,
    Transfer, BUSY_RETRY_AFTER, IDLE_GRACE,
};
pub use crate::setup_rate::{SetupRate, SetupRates};
pub use crate::time::{Linger, Window};

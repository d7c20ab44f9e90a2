//! The client connection: requests in, bytes out; bytes in, response events
//! out. Responses are matched to the outstanding requests in order.

mod attempt;
mod conn;
mod reuse;
mod send;
mod view;

pub use attempt::{ExpectState, Failure, Retry};
pub use conn::{ClientConn, MAX_PIPELINED};
pub use view::{ClientEvent, ResponseView};

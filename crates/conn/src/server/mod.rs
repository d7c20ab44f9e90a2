//! The server connection: bytes in, request events out; answers in (through
//! the [`Responder`]), bytes out.

mod conn;
mod deadlines;
mod handler_body;
mod meters;
mod owned;
mod paces;
mod policy;
mod reject;
mod request_state;
mod responder;
mod view;
mod waits;

pub use conn::ServerConn;
pub use deadlines::{ReadTimeouts, IDLE_GRACE};
pub use handler_body::{BodyFail, HandlerBody};
pub use meters::{Spent, Transfer};
pub use owned::OwnedRequestHead;
pub use policy::{AfterHandler, Begin, HandlerOutcome, RequestPolicy};
pub use reject::{
    write_busy_response, write_error_response, write_error_response_with_body, BUSY_RETRY_AFTER,
};
pub use responder::Responder;
pub use view::{AnswerState, Phase, RequestView, ServerEvent};
pub use waits::{Expiry, NextRead};

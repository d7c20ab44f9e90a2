//! Message-body framing for HTTP/1.1 (RFC 9112 §6–§7): the body-length
//! decision, Content-Length and Transfer-Encoding checks that defeat request
//! smuggling, the chunked decoder and encoder, trailers and the body budget.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod chunked;
mod encode;
mod error;
mod length;
mod limits;

pub use chunked::{ChunkedDecoder, ChunkedStep, InPlaceStep};
pub use encode::{ChunkHeader, ChunkedEncoder};
pub use error::Error;
pub use length::{request_body, response_body, BodyKind, LengthDecoder, Step};
pub use limits::Limits;

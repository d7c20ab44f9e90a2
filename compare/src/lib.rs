//! The comparison crate of http-net (the goals H1-H6 of docs/PERFORMANCE.md):
//! the same bytes through
//! http-net and through the implementations people would pick instead.
//!
//! - [`inputs`]: the bytes of `benches/inputs/` and the generated bodies.
//! - [`rules`]: the framing pass that gives the bare parsers (httparse,
//!   picohttpparser) exactly http-net's strictness rules, so that the H1, H3
//!   and H5 comparisons measure equal work.
//! - [`lean`]: the lean H5 loop over httparse (one pass for the length and
//!   keep-alive, the 52-byte answer), the H5 goal's competitor.
//! - [`httpnet`], [`httparse_side`], [`pico`]: each side's head + framing,
//!   returning the same [`rules::Verdict`]; `tests/equivalence.rs` proves
//!   they accept and reject the same inputs and extract the same framing.
//! - `hyper_side` (feature `hyper`): hyper 1.x driven in memory over a
//!   `tokio::io::duplex` on a current-thread runtime, and the runtime alone
//!   moving the same bytes.
//! - `tokio_side` (feature `hyper`): http-net through `http-net-tokio` over
//!   the same duplex on the same runtime, so that H2, H3 client and H5
//!   compare the two libraries on equal footing.
//! - `conn_duplex` (feature `hyper`): the ceiling rows, `ServerConn` and
//!   `ClientConn` driven directly by a short loop over the same duplex and
//!   runtime (no deadlines, no slots).
//!
//! The C parser is called through `picohttpparser-sys`; those calls are the
//! only `unsafe` code here.

#[cfg(feature = "hyper")]
pub mod conn_duplex;
pub mod httparse_side;
pub mod httpnet;
#[cfg(feature = "hyper")]
pub mod hyper_side;
pub mod inputs;
pub mod lean;
pub mod pico;
pub mod pipeline;
pub mod rules;
#[cfg(feature = "hyper")]
pub mod tokio_side;

//! Byte-scanning primitives for HTTP/1.1 parsing: byte-class tables and
//! word-at-a-time (SWAR, eight bytes per `u64`) searches with scalar tails,
//! in safe Rust. No HTTP semantics live here; `http-net-head` and
//! `http-net-framing` build their grammars on these pieces.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

//! Byte-scanning primitives for HTTP/1.1 parsing: byte-class tables and
//! runs over them, word-at-a-time (SWAR, eight bytes per `u64`) where the
//! class is a range, with scalar tails, in safe Rust. No HTTP semantics live
//! here; `http-net-head` and `http-net-framing` build their grammars on these
//! pieces.
//!
//! - [`class`]: the grammar's character classes as `const` 256-entry tables,
//!   each with its ABNF quoted.
//! - [`token_run`], [`field_value_run`], [`target_run`], [`scalar_run`]: the
//!   length of the leading run of bytes of a class, i.e. the index of the
//!   first byte outside it. SWAR where the class is a range (field values);
//!   where it is a set (tokens, targets, reg-names) one table look-up per
//!   byte, four per step, which measured faster than eight ANDed look-ups
//!   per step on the short runs of names and paths.
//!
//! Every kernel is tested against a naive scalar version over every length,
//! alignment and byte value (`tests/oracle.rs`).
//!
//! ```
//! use http_net_scan::{field_value_run, token_run};
//! let line = b"Content-Type: text/plain\r\n";
//! assert_eq!(token_run(line), 12);
//! assert_eq!(field_value_run(&line[14..]), 10);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod class;
mod swar;

pub use swar::{field_value_run, scalar_run, target_run, token_run};

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

//! The support of the integration tests: the test support of the crates
//! whose servers they run, each included from its crate by path (one copy
//! of each helper serves the crate's own tests and these; this crate is
//! never packaged, so a path outside it is fine here). The counting
//! allocator of the allocation tests is `counting.rs` beside this file,
//! included only by those tests (it is their test binary's global
//! allocator); the cases and checks of the front-line tests of both
//! adapters are `front_line.rs`, included by those two.
#![allow(dead_code)]

/// The blocking server's: a server on loopback for one test (`serve`,
/// `stop`).
#[path = "../../../std-io/tests/support/mod.rs"]
pub mod std_io;

/// http-net's: its examples run as programs, external programs found and
/// run with a time bound (`have`, `run`, `HTTP_NET_REQUIRE_PEERS`), nginx,
/// temporary directories, raw sockets.
#[path = "../../../http-net/tests/support/mod.rs"]
pub mod examples;

/// The tokio server's: a server on a runtime of its own thread (`start`),
/// and a handler's read of a whole body.
#[path = "../../../tokio/tests/common/mod.rs"]
pub mod on_tokio;

//! The tests of http-net that span its crates live in `tests/`: the blocking
//! and the tokio servers against real peers (curl, Python, wrk, nginx,
//! Chromium) from one test body, the front-line switch of both adapters'
//! builders from one set of cases, and the allocation tests of every layer
//! with one counting global allocator. This library is empty; the crate is
//! never published.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

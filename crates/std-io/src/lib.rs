//! A blocking HTTP/1.1 server and client over `std::net`, running the
//! `http-net-conn` state machines over real sockets.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

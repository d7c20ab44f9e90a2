//! Sans-IO HTTP/1.1 connection state machines: a server connection and a
//! client connection that take bytes in, give events out, take answers and
//! give bytes to send. No socket, no clock, no thread.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

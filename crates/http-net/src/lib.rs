//! http-net: a strict, fast Sans-IO HTTP/1.1 server and client.
//!
//! This facade re-exports the layers under one name.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use http_net_conn as conn;
pub use http_net_framing as framing;
pub use http_net_head as head;
pub use http_net_scan as scan;
pub use http_net_std as io;

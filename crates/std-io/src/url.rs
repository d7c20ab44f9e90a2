//! `http://` and `https://` URLs: the core's one URL type
//! ([`http_net_conn::Url`], RFC 3986 §3, RFC 9110 §4.2), under the names
//! this crate has always exported.

pub use http_net_conn::{Url, UrlError};

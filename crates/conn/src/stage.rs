//! The waits an adapter bounds with a clock: the one vocabulary of both
//! adapters' timeout errors.

use core::fmt;

/// Which wait an adapter's deadline or minimum data rate bounded: what a
/// timeout error of an adapter (the blocking `http-net-std`, the async
/// `http-net-tokio`) names. The connection keeps no clock; it tells the
/// adapter which wait is due ([`Phase`](crate::Phase)), and the adapter
/// names the one that expired with a `Stage`.
///
/// Its `Display` completes "timed out ...":
///
/// ```
/// use http_net_conn::Stage;
/// assert_eq!(format!("timed out {}", Stage::Head), "timed out reading a message head");
/// assert_eq!(Stage::Deadline.to_string(), "within the whole-request deadline");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Opening a connection (client).
    Connect,
    /// Setting a server connection up before its first HTTP byte (a TLS
    /// handshake).
    Setup,
    /// An idle keep-alive connection between messages.
    Idle,
    /// A message head (the server's whole-head deadline, the client's wait
    /// for a response head).
    Head,
    /// The next bytes of a message body.
    Body,
    /// Sending bytes to the peer.
    Write,
    /// A client's whole-request deadline (the adapters'
    /// `ClientBuilder::request_timeout`): connecting, sending, and reading
    /// the response head and body.
    Deadline,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Connect => "connecting",
            Stage::Setup => "setting the connection up",
            Stage::Idle => "waiting on an idle connection",
            Stage::Head => "reading a message head",
            Stage::Body => "reading a message body",
            Stage::Write => "writing to the peer",
            Stage::Deadline => "within the whole-request deadline",
        })
    }
}

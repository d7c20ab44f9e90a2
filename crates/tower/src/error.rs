//! What can go wrong between the server and the service: each variant
//! names the rule it stands for.

use core::fmt;
use std::error::Error as StdError;

/// A boxed error of the service or of its response body (tower's and
/// axum's `BoxError`).
pub type BoxError = Box<dyn StdError + Send + Sync + 'static>;

/// What went wrong serving a request through the service.
///
/// A handler error ends the exchange: when nothing of the response was sent
/// the server answers `500 Internal Server Error` and reports it as the
/// application's error (its mistake log, its access log); otherwise the
/// connection closes after what was sent. A field the connection's writer
/// refuses is not one of these: it is the adapter's own
/// [`http_net_tokio::Error`], reported as the refused command it is.
#[non_exhaustive]
#[derive(Debug)]
pub enum Error {
    /// The service's `poll_ready` or its future failed.
    Service(BoxError),
    /// The response body failed while it was being sent.
    ResponseBody(BoxError),
    /// Reading the request body failed: over the body limit, a deadline or
    /// the minimum data rate, a malformed chunk, the peer gone (the
    /// adapter's error, which names the cause).
    RequestBody(http_net_tokio::Error),
    /// The response's `Content-Length` is not the exact length its body
    /// reports (`Body::size_hint`): sending it would end the body early or
    /// late (RFC 9110 §8.6).
    LengthMismatch {
        /// The length the `Content-Length` field declares.
        declared: u64,
        /// The exact length the body reports.
        body: u64,
    },
    /// The request target is not a URI the `http` crate takes
    /// (RFC 9112 §3.2); the server answers `400`.
    Target,
    /// A request field name or value the `http` crate refuses
    /// (RFC 9110 §5.1, §5.5); the server answers `400`.
    Field,
    /// The connection was not handed over: the response was not `101` (to a
    /// request that offered `Upgrade`) or a `2xx` to `CONNECT`
    /// (RFC 9110 §7.8, §9.3.6), or the connection ended first.
    NotUpgraded,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Service(e) => write!(f, "the service failed: {e}"),
            Error::ResponseBody(e) => write!(f, "the response body failed: {e}"),
            Error::RequestBody(e) => write!(f, "the request body failed: {e}"),
            Error::LengthMismatch { declared, body } => write!(
                f,
                "Content-Length {declared} contradicts the body's {body} bytes (RFC 9110 §8.6)"
            ),
            Error::Target => {
                f.write_str("the request target is not a URI the http crate takes (RFC 9112 §3.2)")
            }
            Error::Field => {
                f.write_str("a request field the http crate refuses (RFC 9110 §5.1, §5.5)")
            }
            Error::NotUpgraded => f.write_str(
                "the connection was not handed over: no 101 or 2xx to CONNECT (RFC 9110 §7.8)",
            ),
        }
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            Error::Service(e) | Error::ResponseBody(e) => Some(&**e),
            Error::RequestBody(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_names_its_rule_and_keeps_its_source() {
        let e = Error::LengthMismatch {
            declared: 5,
            body: 3,
        };
        assert!(e.to_string().contains("RFC 9110 §8.6"));
        assert!(e.source().is_none());
        let inner: BoxError = "boom".into();
        let e = Error::Service(inner);
        assert_eq!(e.source().map(|s| s.to_string()), Some("boom".into()));
        assert!(Error::Target.to_string().contains("RFC 9112 §3.2"));
        assert!(Error::NotUpgraded.to_string().contains("RFC 9110 §7.8"));
    }
}

//! The reject path: connections beyond the connection limit are answered
//! `503 Service Unavailable` with `Retry-After` (RFC 9110 §15.6.4, §10.2.3)
//! and closed, without a `ServerConn` and before any byte of their request
//! is read.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use http_net_conn::write_error_response;

use crate::date::now_secs;
use crate::registry::Shared;
use crate::transport::Transport;
use crate::wire;

/// The `Retry-After` of the `503`, in seconds.
const RETRY_AFTER: u32 = 1;

/// Answers connections over the limit with `503` and closes them, one at a
/// time, each bounded to a fraction of a second.
pub(crate) fn reject_loop<S: Transport>(rx: Receiver<S>, shared: &Shared, server: Option<&[u8]>) {
    let mut msg = Vec::new();
    for mut stream in rx {
        let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
        busy_response(&mut msg, &shared.date.get(now_secs()), server);
        if stream.write_all(&msg).is_ok() {
            wire::linger(&mut stream, Duration::from_millis(250), 64 * 1024);
        }
    }
}

/// The `503` beyond the connection limit, in `msg` (cleared first): the
/// connection's own error-response bytes.
fn busy_response(msg: &mut Vec<u8>, date: &[u8; 29], server: Option<&[u8]>) {
    msg.clear();
    // 503 is an error status: this cannot fail.
    let _ = write_error_response(msg, 503, Some(RETRY_AFTER), Some(date), server);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(msg: &[u8]) -> String {
        String::from_utf8_lossy(msg).into_owned()
    }

    #[test]
    fn busy_response_bytes() {
        let date = b"Sun, 06 Nov 1994 08:49:37 GMT";
        let mut msg = b"left over".to_vec();
        busy_response(&mut msg, date, Some(b"http-net"));
        let got = text(&msg);
        assert!(
            got.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
            "{got}"
        );
        for line in [
            "\r\nServer: http-net\r\n",
            "\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n",
            "\r\nRetry-After: 1\r\n",
            "\r\nConnection: close\r\n",
        ] {
            assert!(got.contains(line), "{line:?} in {got}");
        }
        let (head, body) = got.split_once("\r\n\r\n").unwrap();
        assert!(
            head.contains(&format!("\r\nContent-Length: {}\r\n", body.len())),
            "{got}"
        );
        busy_response(&mut msg, date, None);
        assert!(!text(&msg).contains("Server:"), "{}", text(&msg));
        assert!(text(&msg).starts_with("HTTP/1.1 503 Service Unavailable\r\n"));
    }
}

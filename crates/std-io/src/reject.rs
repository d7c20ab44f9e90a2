//! The refusals the core's endpoint answers with a linger: `503 Service
//! Unavailable` with `Retry-After` (RFC 9110 §15.6.4, §10.2.3), without a
//! `ServerConn` and before any byte of the request is read. One thread
//! answers them all with non-blocking writes and drains each one's input
//! until its linger ends (so that the peer reads the answer rather than a
//! reset), many at once: a peer that does not read or close holds up no
//! other. The endpoint bounds them ([`REFUSING_AT_ONCE`]), so the queue
//! never fills.

use std::io;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use http_net_conn::driver::{Linger, REFUSING_AT_ONCE};
use http_net_conn::Timestamp;

use crate::date::now_secs;
use crate::hooks::catch;
use crate::lock::lock;
use crate::shared::Shared;
use crate::transport::Transport;
use crate::wire::stamp;

/// Refused connections waiting for the reject thread: as many as the
/// endpoint lets be in flight.
pub(crate) const QUEUE: usize = REFUSING_AT_ONCE;
/// How often the draining connections are read.
const SWEEP: Duration = Duration::from_millis(5);

/// A refused connection, answered, draining its peer's input.
struct Refused<S> {
    stream: S,
    linger: Linger,
}

/// Tells the endpoint that `n` refusals ended.
fn ended(shared: &Shared, n: usize) {
    if n > 0 {
        let mut ep = lock(&shared.endpoint);
        (0..n).for_each(|_| ep.refusal_ended());
    }
}

/// Answers the connections of `rx` with `503` and closes them, each when
/// its linger ends, until the sender is gone and every answer is done.
pub(crate) fn reject_loop<S: Transport>(
    rx: Receiver<(S, Linger)>,
    shared: &Shared,
    server: Option<&[u8]>,
) {
    let mut msg = Vec::new();
    let mut second = u64::MAX;
    let mut draining: Vec<Refused<S>> = Vec::with_capacity(QUEUE);
    let mut scratch = [0u8; 4096];
    let mut open = true;
    while open || !draining.is_empty() {
        let mut next = match (draining.is_empty(), open) {
            (true, _) => rx.recv().ok(),
            (false, true) => match rx.recv_timeout(SWEEP) {
                Ok(s) => Some(s),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => {
                    open = false;
                    None
                }
            },
            (false, false) => {
                thread::sleep(SWEEP);
                None
            }
        };
        if next.is_none() && draining.is_empty() {
            // The sender is gone and nothing is left to drain.
            open = false;
        }
        while let Some((stream, linger)) = next {
            let now = now_secs();
            if now != second {
                (shared.hooks).busy_response(&mut msg, &shared.date.get(now), server, catch);
                second = now;
            }
            match answer(stream, &msg) {
                Some(stream) => draining.push(Refused { stream, linger }),
                None => ended(shared, 1),
            }
            next = if open { rx.try_recv().ok() } else { None };
        }
        let (now, before) = (stamp(Instant::now()), draining.len());
        draining.retain_mut(|r| drain(r, &mut scratch, now));
        ended(shared, before - draining.len());
    }
}

/// Writes `msg` to a new connection without waiting (its send buffer is
/// empty, so the answer fits), and half-closes it; `None` when that failed.
fn answer<S: Transport>(mut stream: S, msg: &[u8]) -> Option<S> {
    if stream.set_nonblocking(true).is_err() {
        // Streams without a non-blocking mode: short timeouts instead.
        stream
            .set_write_timeout(Some(Duration::from_millis(20)))
            .ok()?;
        stream
            .set_read_timeout(Some(Duration::from_millis(1)))
            .ok()?;
    }
    match stream.write(msg) {
        Ok(n) if n == msg.len() => {}
        _ => return None,
    }
    stream.shutdown_write().ok()?;
    Some(stream)
}

/// Answers one connection at once, reads what its peer sent so far
/// (without a wait), and closes it (`Refusal::AtOnce`).
pub(crate) fn answer_now<S: Transport>(stream: S, shared: &Shared, server: Option<&[u8]>) {
    let mut msg = Vec::new();
    (shared.hooks).busy_response(&mut msg, &shared.date.get(now_secs()), server, catch);
    if let Some(stream) = answer(stream, &msg) {
        let linger = Linger::after_refusal(stamp(Instant::now()));
        drain(
            &mut Refused { stream, linger },
            &mut [0u8; 4096],
            linger.until(),
        );
    }
}

/// Reads what the peer sent, without waiting; whether to keep draining
/// (its linger not over at `now`).
fn drain<S: Transport>(r: &mut Refused<S>, scratch: &mut [u8], now: Timestamp) -> bool {
    loop {
        match r.stream.read(scratch) {
            Ok(n) if r.linger.read(n) => {}
            Ok(_) => return false,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if crate::error::is_timeout(&e) => return r.linger.wait(now).is_some(),
            Err(_) => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::Hooks;

    /// The `503`'s bytes with no error-body hook.
    fn busy_response(msg: &mut Vec<u8>, date: &[u8; 29], server: Option<&[u8]>) {
        Hooks::default().busy_response(msg, date, server, catch);
    }

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

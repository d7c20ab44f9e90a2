//! The well-behaved client: one `GET /` every 100 ms, each on a new
//! connection, timed from `connect` to the response's last byte, with
//! blocking std sockets on a thread of its own; over TLS (`--tls`), each
//! request makes a new connection with a full handshake
//! ([`ClientTls::connect`], the certificate checked).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use http_net_rustls::ClientTls;

/// The gap between the starts of two requests.
pub const PERIOD: Duration = Duration::from_millis(100);
/// The most one request may take, connect included; then it failed.
pub const REQUEST_LIMIT: Duration = Duration::from_secs(5);

const REQUEST: &[u8] =
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: well-behaved\r\nConnection: close\r\n\r\n";

/// How one request ended.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// A complete `200` response.
    Ok,
    /// A complete response with another status.
    Status(u16),
    /// `connect` failed (refused, timed out, ...).
    Connect(String),
    /// No complete response within [`REQUEST_LIMIT`].
    Timeout,
    /// The connection ended (closed or reset) before the response did.
    Cut(String),
}

/// The client's results over one scenario.
#[derive(Clone, Debug, Default)]
pub struct Results {
    /// Latency of every request, successful or not.
    pub latencies: Vec<Duration>,
    /// Requests by outcome.
    pub outcomes: BTreeMap<Outcome, u64>,
}

impl Results {
    /// Requests made.
    pub fn total(&self) -> u64 {
        self.outcomes.values().sum()
    }
    /// Requests answered `200`.
    pub fn ok(&self) -> u64 {
        self.outcomes.get(&Outcome::Ok).copied().unwrap_or(0)
    }
    /// The `q` quantile (0..=1) of the latencies (nearest rank).
    pub fn quantile(&self, q: f64) -> Duration {
        let mut v = self.latencies.clone();
        v.sort_unstable();
        if v.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
        v[rank - 1]
    }
    /// The failures, as `outcome × count` (empty when every request passed).
    pub fn failures(&self) -> String {
        self.outcomes
            .iter()
            .filter(|(o, _)| **o != Outcome::Ok)
            .map(|(o, n)| format!("{o:?} ×{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Runs the client against `addr` (over TLS with `tls`) until `stop` is
/// set; returns its results.
pub fn spawn(
    addr: SocketAddr,
    tls: Option<ClientTls>,
    stop: Arc<AtomicBool>,
) -> thread::JoinHandle<Results> {
    thread::Builder::new()
        .name("well-behaved".into())
        .spawn(move || {
            let mut r = Results::default();
            let mut next = Instant::now();
            while !stop.load(Ordering::SeqCst) {
                let t0 = Instant::now();
                let outcome = match &tls {
                    None => request(addr),
                    Some(tls) => request_tls(addr, tls),
                };
                r.latencies.push(t0.elapsed());
                *r.outcomes.entry(outcome).or_insert(0) += 1;
                next += PERIOD;
                let now = Instant::now();
                if next > now {
                    thread::sleep(next - now);
                } else {
                    next = now;
                }
            }
            r
        })
        .expect("spawn the well-behaved client")
}

/// One request on a new connection.
fn request(addr: SocketAddr) -> Outcome {
    let deadline = Instant::now() + REQUEST_LIMIT;
    let mut s = match TcpStream::connect_timeout(&addr, REQUEST_LIMIT) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return Outcome::Timeout,
        Err(e) => return Outcome::Connect(format!("{:?}", e.kind())),
    };
    let _ = s.set_nodelay(true);
    match s.try_clone() {
        Ok(sock) => exchange(&mut s, &sock, deadline),
        Err(e) => Outcome::Connect(format!("{:?}", e.kind())),
    }
}

/// One request over TLS on a new connection (handshake included).
fn request_tls(addr: SocketAddr, tls: &ClientTls) -> Outcome {
    let deadline = Instant::now() + REQUEST_LIMIT;
    let mut s = match tls.connect(&addr.ip().to_string(), addr.port()) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return Outcome::Timeout,
        Err(e) => return Outcome::Connect(format!("{e}")),
    };
    match s.tcp().try_clone() {
        Ok(sock) => exchange(&mut s, &sock, deadline),
        Err(e) => Outcome::Connect(format!("{:?}", e.kind())),
    }
}

/// Sends the request on `s` and reads the response by `deadline`, each
/// read and write bounded on `sock` (the TCP socket under `s`).
fn exchange(s: &mut (impl Read + Write), sock: &TcpStream, deadline: Instant) -> Outcome {
    let timeouts = |t: Duration| {
        let _ = sock.set_read_timeout(Some(t));
        let _ = sock.set_write_timeout(Some(t));
    };
    let left = |d: Instant| {
        d.saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1))
    };
    timeouts(left(deadline));
    if let Err(e) = s.write_all(REQUEST).and_then(|()| s.flush()) {
        return cut(&e);
    }
    let mut got = Vec::with_capacity(1024);
    let mut buf = [0u8; 4096];
    loop {
        if let Some(outcome) = complete(&got) {
            return outcome;
        }
        timeouts(left(deadline));
        match s.read(&mut buf) {
            Ok(0) => return Outcome::Cut("closed".into()),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => return cut(&e),
        }
    }
}

fn cut(e: &std::io::Error) -> Outcome {
    match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => Outcome::Timeout,
        k => Outcome::Cut(format!("{k:?}")),
    }
}

/// The outcome once `got` holds a whole response with a `Content-Length`
/// body (or a bodiless one); `None` while more is needed.
fn complete(got: &[u8]) -> Option<Outcome> {
    let end = got.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = String::from_utf8_lossy(&got[..end]);
    let status: u16 = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let length = head
        .lines()
        .find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    if got.len() - end < length {
        return None;
    }
    Some(if status == 200 {
        Outcome::Ok
    } else {
        Outcome::Status(status)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_is_complete_at_its_content_length() {
        let r = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        assert_eq!(complete(&r[..r.len() - 1]), None);
        assert_eq!(complete(r), Some(Outcome::Ok));
        let busy = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n";
        assert_eq!(complete(busy), Some(Outcome::Status(503)));
        assert_eq!(complete(b"HTTP/1.1 200 OK\r\n"), None);
    }

    #[test]
    fn quantiles_use_the_nearest_rank() {
        let r = Results {
            latencies: (1..=100).map(Duration::from_millis).collect(),
            ..Results::default()
        };
        assert_eq!(r.quantile(0.5), Duration::from_millis(50));
        assert_eq!(r.quantile(0.99), Duration::from_millis(99));
        assert_eq!(r.quantile(1.0), Duration::from_millis(100));
        assert_eq!(Results::default().quantile(0.99), Duration::ZERO);
    }
}

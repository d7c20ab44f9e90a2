//! The transparent recording relay between a proxy and the origin, and the
//! deliberately naive relay of the positive control. Plain std threads and
//! sockets; every read is time-bound.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Every socket read waits at most this long before looking at the stop flag.
const TICK: Duration = Duration::from_millis(50);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The bytes of one upstream connection, both ways.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// What the proxy sent toward the origin.
    pub up: Vec<u8>,
    /// What the origin answered.
    pub down: Vec<u8>,
}

struct Pair {
    sockets: [TcpStream; 2],
    pumps: Vec<JoinHandle<()>>,
    record: Arc<Mutex<Record>>,
}

struct Shared {
    origin: SocketAddr,
    stop: AtomicBool,
    live: Mutex<Vec<Pair>>,
}

/// A relay on 127.0.0.1 that forwards every accepted connection to the
/// origin and records both directions.
pub struct Relay {
    addr: SocketAddr,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

impl Relay {
    /// Listens on an ephemeral port and relays to `origin`.
    pub fn start(origin: SocketAddr) -> std::io::Result<Relay> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            origin,
            stop: AtomicBool::new(false),
            live: Mutex::new(Vec::new()),
        });
        let s = shared.clone();
        let acceptor = std::thread::spawn(move || accept_loop(&listener, &s));
        Ok(Relay {
            addr,
            shared,
            acceptor: Some(acceptor),
        })
    }

    /// Where proxies connect.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Closes every relayed connection (both sides) and returns what each
    /// carried, in the order they were accepted.
    pub fn close_all(&self) -> Vec<Record> {
        let pairs = std::mem::take(&mut *lock(&self.shared.live));
        let mut out = Vec::with_capacity(pairs.len());
        for p in pairs {
            for s in &p.sockets {
                let _ = s.shutdown(Shutdown::Both);
            }
            for t in p.pumps {
                let _ = t.join();
            }
            out.push(lock(&p.record).clone());
        }
        out
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the acceptor.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(t) = self.acceptor.take() {
            let _ = t.join();
        }
        self.close_all();
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for conn in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(client) = conn else { continue };
        let Ok(upstream) = TcpStream::connect_timeout(&shared.origin, Duration::from_secs(2))
        else {
            let _ = client.shutdown(Shutdown::Both);
            continue;
        };
        let _ = client.set_nodelay(true);
        let _ = upstream.set_nodelay(true);
        let record = Arc::new(Mutex::new(Record::default()));
        let (Ok(c2), Ok(u2), Ok(c3), Ok(u3)) = (
            client.try_clone(),
            upstream.try_clone(),
            client.try_clone(),
            upstream.try_clone(),
        ) else {
            continue;
        };
        let r1 = record.clone();
        let r2 = record.clone();
        let up = std::thread::spawn(move || pump(c2, u2, &r1, true));
        let down = std::thread::spawn(move || pump(u3, c3, &r2, false));
        lock(&shared.live).push(Pair {
            sockets: [client, upstream],
            pumps: vec![up, down],
            record,
        });
    }
}

/// Copies `from` to `to`, recording first; ends at EOF, an error, or when
/// the sockets are shut down (a read never waits more than [`TICK`]).
fn pump(mut from: TcpStream, mut to: TcpStream, record: &Mutex<Record>, up: bool) {
    let _ = from.set_read_timeout(Some(TICK));
    let _ = to.set_write_timeout(Some(Duration::from_secs(5)));
    let mut buf = vec![0u8; 64 * 1024];
    let mut idle = Duration::ZERO;
    loop {
        match from.read(&mut buf) {
            Ok(0) => {
                let _ = to.shutdown(Shutdown::Write);
                return;
            }
            Ok(n) => {
                idle = Duration::ZERO;
                {
                    let mut r = lock(record);
                    if up {
                        r.up.extend_from_slice(&buf[..n]);
                    } else {
                        r.down.extend_from_slice(&buf[..n]);
                    }
                }
                if to.write_all(&buf[..n]).is_err() {
                    return;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                // A relayed connection idle for a minute is a leak: end it.
                idle += TICK;
                if idle > Duration::from_secs(60) {
                    return;
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => {
                let _ = to.shutdown(Shutdown::Write);
                return;
            }
        }
    }
}

/// How long the naive relay waits for the origin's answer to one request.
const NAIVE_WAIT: Duration = Duration::from_millis(200);

/// The positive control: a front that frames requests by `Content-Length`
/// only (no `Transfer-Encoding`, first CL wins) and sends every client's
/// requests over one shared upstream connection, one at a time, reading
/// one answer per request (by its `Content-Length`), and `504` when none
/// comes in time. Exactly the front a desync needs.
pub struct NaiveRelay {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    upstream: Arc<Mutex<Option<Upstream>>>,
    acceptor: Option<JoinHandle<()>>,
}

impl NaiveRelay {
    /// Listens on an ephemeral port; the shared connection goes to `upstream`.
    pub fn start(upstream_addr: SocketAddr) -> std::io::Result<NaiveRelay> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let upstream: Arc<Mutex<Option<Upstream>>> = Arc::new(Mutex::new(None));
        let (s, u) = (stop.clone(), upstream.clone());
        let acceptor = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(client) = conn else { continue };
                let (s, u) = (s.clone(), u.clone());
                std::thread::spawn(move || naive_client(client, upstream_addr, &u, &s));
            }
        });
        Ok(NaiveRelay {
            addr,
            stop,
            upstream,
            acceptor: Some(acceptor),
        })
    }

    /// Where clients connect.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Forgets the shared upstream connection (the recording relay closed it).
    pub fn reset(&self) {
        if let Some(u) = lock(&self.upstream).take() {
            let _ = u.stream.shutdown(Shutdown::Both);
        }
    }
}

impl Drop for NaiveRelay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(t) = self.acceptor.take() {
            let _ = t.join();
        }
        self.reset();
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The first `Content-Length` of a head, read leniently (leading digits).
fn naive_length(head: &[u8]) -> usize {
    for line in head.split(|&b| b == b'\n') {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        if line[..colon].eq_ignore_ascii_case(b"content-length") {
            let digits: Vec<u8> = line[colon + 1..]
                .iter()
                .copied()
                .skip_while(|b| *b == b' ')
                .take_while(u8::is_ascii_digit)
                .collect();
            return std::str::from_utf8(&digits)
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0)
                .min(1 << 20);
        }
    }
    0
}

/// The naive relay's shared connection and the bytes it read past the
/// last answer.
struct Upstream {
    stream: TcpStream,
    pending: Vec<u8>,
}

fn naive_client(
    mut client: TcpStream,
    upstream_addr: SocketAddr,
    upstream: &Mutex<Option<Upstream>>,
    stop: &AtomicBool,
) {
    let _ = client.set_read_timeout(Some(TICK));
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let started = Instant::now();
    loop {
        if stop.load(Ordering::SeqCst) || started.elapsed() > Duration::from_secs(60) {
            return;
        }
        // One whole message by the naive framing, if buffered.
        if let Some(end) = find(&buf, b"\r\n\r\n") {
            let total = end + 4 + naive_length(&buf[..end]);
            if buf.len() >= total {
                let msg: Vec<u8> = buf.drain(..total).collect();
                let answer = naive_exchange(&msg, upstream_addr, upstream);
                if client.write_all(&answer).is_err() {
                    return;
                }
                continue;
            }
        }
        match client.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return,
        }
    }
}

/// Whether the peer has closed `s` (a non-blocking peek sees EOF or an error).
fn closed(s: &TcpStream) -> bool {
    if s.set_nonblocking(true).is_err() {
        return true;
    }
    let mut b = [0u8; 1];
    let r = match s.peek(&mut b) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != ErrorKind::WouldBlock,
    };
    let _ = s.set_nonblocking(false);
    r
}

const NAIVE_504: &[u8] = b"HTTP/1.1 504 Gateway Timeout\r\nContent-Length: 0\r\n\r\n";
const NAIVE_502: &[u8] = b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n";

/// Sends `msg` on the shared connection and reads one answer.
fn naive_exchange(
    msg: &[u8],
    upstream_addr: SocketAddr,
    upstream: &Mutex<Option<Upstream>>,
) -> Vec<u8> {
    let mut guard = lock(upstream);
    // A connection the origin closed is replaced (nothing pending on it):
    // the control stays naive about framing only.
    if guard
        .as_ref()
        .is_some_and(|u| u.pending.is_empty() && closed(&u.stream))
    {
        *guard = None;
    }
    if guard.is_none() {
        match TcpStream::connect_timeout(&upstream_addr, Duration::from_secs(2)) {
            Ok(stream) => {
                let _ = stream.set_read_timeout(Some(TICK));
                let _ = stream.set_nodelay(true);
                *guard = Some(Upstream {
                    stream,
                    pending: Vec::new(),
                });
            }
            Err(_) => return NAIVE_502.to_vec(),
        }
    }
    let Some(up) = guard.as_mut() else {
        return NAIVE_502.to_vec();
    };
    if up.stream.write_all(msg).is_err() {
        *guard = None;
        return NAIVE_502.to_vec();
    }
    let mut answer = std::mem::take(&mut up.pending);
    let mut chunk = [0u8; 16 * 1024];
    let deadline = Instant::now() + NAIVE_WAIT;
    loop {
        if let Some(end) = find(&answer, b"\r\n\r\n") {
            let total = end + 4 + naive_length(&answer[..end]);
            if answer.len() >= total {
                // Bytes past one answer are kept for the next request:
                // naive, on purpose. An answer saying `Connection: close`
                // ends the shared connection (the control is naive about
                // framing, not about closing).
                up.pending = answer.split_off(total);
                let head = answer[..end].to_ascii_lowercase();
                if find(&head, b"\r\nconnection: close").is_some() {
                    *guard = None;
                }
                return answer;
            }
        }
        if Instant::now() > deadline {
            up.pending = answer;
            return NAIVE_504.to_vec();
        }
        match up.stream.read(&mut chunk) {
            Ok(0) => {
                *guard = None;
                return if answer.is_empty() {
                    NAIVE_502.to_vec()
                } else {
                    answer
                };
            }
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => {
                *guard = None;
                return NAIVE_502.to_vec();
            }
        }
    }
}

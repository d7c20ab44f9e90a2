//! Both servers run a setup step (what a TLS handshake is to them) inside
//! an admitted slot, under the core's setup deadline
//! (`ServerSettings::setup_wait`): `listener_with_setup` and `Setup` in
//! each adapter, under the same names. The test step reads a 4-byte
//! password one byte at a time before the connection speaks HTTP: the right
//! one is served, a wrong one closes that connection only and is counted
//! (`setup_failed`), a peer that stalls or trickles is closed at the whole
//! setup deadline (not one per read) and counted, and at the connection
//! limit a stalled setup is evicted for a newcomer, as a partial head is.

use http_net_std::ServerOptions;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The password the test step wants before HTTP.
const PASSWORD: &[u8; 4] = b"open";

/// A request after the password, answered and closed.
const REQUEST: &[u8] = b"openGET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";

/// What the servers count of their setups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    failed: u64,
    timed_out: u64,
    evicted: u64,
    refused: u64,
}

/// The std step: one byte a read, each read bounded by the time left.
struct StdPassword;

impl http_net_std::Setup<std::net::TcpStream> for StdPassword {
    type Stream = std::net::TcpStream;
    fn setup(&self, mut raw: TcpStream, until: Instant) -> std::io::Result<TcpStream> {
        let mut got = Vec::new();
        while got.len() < PASSWORD.len() {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(std::io::ErrorKind::TimedOut.into());
            }
            raw.set_read_timeout(Some(left))?;
            let mut b = [0u8; 1];
            if raw.read(&mut b)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            got.push(b[0]);
        }
        if got != PASSWORD {
            return Err(std::io::ErrorKind::PermissionDenied.into());
        }
        Ok(raw)
    }
}

/// The tokio step: the same, without a deadline of its own (the server
/// drops it at the deadline).
struct TokioPassword;

impl http_net_tokio::Setup<tokio::net::TcpStream> for TokioPassword {
    type Stream = tokio::net::TcpStream;
    async fn setup(&self, mut raw: tokio::net::TcpStream) -> std::io::Result<Self::Stream> {
        use tokio::io::AsyncReadExt;
        let mut got = [0u8; 4];
        for b in got.iter_mut() {
            *b = raw.read_u8().await?;
        }
        if &got != PASSWORD {
            return Err(std::io::ErrorKind::PermissionDenied.into());
        }
        Ok(raw)
    }
}

struct Hello;

impl http_net_tokio::Handler for Hello {
    async fn handle(
        &self,
        ex: &mut http_net_tokio::Exchange<'_>,
    ) -> Result<(), http_net_tokio::HandlerError> {
        Ok(ex.respond_with(200, &[], b"hello").await?)
    }
}

/// A server of either adapter with the test step.
struct Running {
    addr: SocketAddr,
    counts: Box<dyn Fn() -> Counts>,
    stop: Option<Box<dyn FnOnce()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            stop();
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Adapter {
    Std,
    Tokio,
}

fn start(adapter: Adapter, setup_timeout: Duration, max_connections: usize) -> Running {
    let d = http_net_conn::driver::SetupRate::DEFAULT;
    start_rated(
        adapter,
        setup_timeout,
        max_connections,
        (d.per_sec, d.burst),
    )
}

/// [`start`] with the setup rate per peer `(per_sec, burst)`.
fn start_rated(
    adapter: Adapter,
    setup_timeout: Duration,
    max_connections: usize,
    (per_sec, burst): (u32, u32),
) -> Running {
    match adapter {
        Adapter::Std => {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let server = http_net_std::Server::builder()
                .setup_timeout(setup_timeout)
                .setup_rate_per_peer(per_sec, burst)
                .max_connections(max_connections)
                .shutdown_timeout(Duration::from_secs(2))
                .listener_with_setup(listener, StdPassword);
            let addr = server.local_addr().unwrap();
            let handle = server.handle();
            let thread = std::thread::spawn(move || {
                server.serve(|ex: &mut http_net_std::Exchange<'_>| {
                    ex.respond_with(200, &[], b"hello")
                })
            });
            let h = handle.clone();
            Running {
                addr,
                counts: Box::new(move || {
                    let c = h.counters();
                    Counts {
                        failed: c.setup_failed,
                        timed_out: c.timed_out.setup,
                        evicted: c.evicted.setup,
                        refused: c.refused,
                    }
                }),
                stop: Some(Box::new(move || {
                    handle.shutdown();
                    thread.join().unwrap().unwrap();
                })),
            }
        }
        Adapter::Tokio => {
            let (tx, rx) = std::sync::mpsc::channel();
            let thread = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                rt.block_on(async move {
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                    let server = http_net_tokio::Server::builder()
                        .setup_timeout(setup_timeout)
                        .setup_rate_per_peer(per_sec, burst)
                        .max_connections(max_connections)
                        .shutdown_timeout(Duration::from_secs(2))
                        .listener_with_setup(listener, TokioPassword);
                    tx.send((server.local_addr()?, server.handle())).unwrap();
                    server.serve(Hello).await
                })
            });
            let (addr, handle) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
            let h = handle.clone();
            Running {
                addr,
                counts: Box::new(move || {
                    let c = h.counters();
                    Counts {
                        failed: c.setup_failed,
                        timed_out: c.timed_out.setup,
                        evicted: c.evicted.setup,
                        refused: c.refused,
                    }
                }),
                stop: Some(Box::new(move || {
                    handle.shutdown();
                    thread.join().unwrap().unwrap();
                })),
            }
        }
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Everything the server sends until it closes (a reset counts as a close).
fn read_all(s: &mut TcpStream) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
}

fn get(addr: SocketAddr) -> Vec<u8> {
    let mut s = connect(addr);
    s.write_all(REQUEST).unwrap();
    read_all(&mut s)
}

/// Waits (up to 5 s) until `f` holds.
fn eventually(f: impl Fn() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    f()
}

macro_rules! both {
    ($name:ident, $body:ident) => {
        mod $name {
            #[test]
            fn std() {
                super::$body(super::Adapter::Std)
            }
            #[test]
            fn tokio() {
                super::$body(super::Adapter::Tokio)
            }
        }
    };
}

fn served_after_its_setup(a: Adapter) {
    let r = start(a, Duration::from_secs(5), 16);
    let got = get(r.addr);
    assert!(
        got.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&got)
    );
    assert!(got.ends_with(b"hello"));
    assert_eq!((r.counts)(), Counts::default());
}
both!(
    a_connection_is_served_after_its_setup,
    served_after_its_setup
);

fn failed_setup(a: Adapter) {
    let r = start(a, Duration::from_secs(5), 16);
    let mut s = connect(r.addr);
    s.write_all(b"shutGET / HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    assert_eq!(read_all(&mut s), b"", "closed without a response");
    assert!(
        eventually(|| (r.counts)().failed == 1),
        "{:?}",
        (r.counts)()
    );
    // That connection only: the next is served.
    assert!(get(r.addr).starts_with(b"HTTP/1.1 200"));
    assert_eq!(
        (r.counts)(),
        Counts {
            failed: 1,
            ..Counts::default()
        }
    );
}
both!(
    a_failed_setup_closes_that_connection_only_and_is_counted,
    failed_setup
);

fn trickling_setup(a: Adapter) {
    let r = start(a, Duration::from_millis(600), 16);
    let mut s = connect(r.addr);
    let t0 = Instant::now();
    // One byte every 250 ms: each read is quick, the whole is too slow.
    for b in b"ope" {
        if s.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    assert_eq!(read_all(&mut s), b"");
    let took = t0.elapsed();
    assert!(
        took < Duration::from_millis(1_500),
        "closed at the whole setup deadline, not per read: {took:?}"
    );
    assert!(
        eventually(|| (r.counts)().timed_out == 1),
        "{:?}",
        (r.counts)()
    );
    assert_eq!((r.counts)().failed, 0);
}
both!(
    a_setup_is_bounded_by_one_deadline_however_the_peer_trickles,
    trickling_setup
);

fn evicted_setup(a: Adapter) {
    let r = start(a, Duration::from_secs(30), 1);
    // A peer that connects and stalls in its setup holds the only slot...
    let mut staller = connect(r.addr);
    staller.write_all(b"op").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // ... until a newcomer comes: the setup is evicted as a head would be.
    let got = get(r.addr);
    assert!(
        got.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&got)
    );
    assert_eq!(read_all(&mut staller), b"", "the staller is closed");
    assert!(
        eventually(|| (r.counts)().evicted == 1),
        "{:?}",
        (r.counts)()
    );
    assert_eq!((r.counts)().failed, 0);
}
both!(
    a_stalled_setup_is_evicted_at_the_connection_limit,
    evicted_setup
);

fn stop_closes_setup(a: Adapter) {
    let mut r = start(a, Duration::from_secs(30), 16);
    let mut staller = connect(r.addr);
    staller.write_all(b"o").unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let t0 = Instant::now();
    (r.stop.take().unwrap())();
    assert!(
        t0.elapsed() < Duration::from_millis(1_500),
        "a stop does not wait for a setup: {:?}",
        t0.elapsed()
    );
    assert_eq!(read_all(&mut staller), b"");
}
both!(
    a_graceful_stop_closes_a_connection_in_its_setup,
    stop_closes_setup
);

/// A connection from `from` (a loopback address of this machine) to
/// `addr`: another peer than 127.0.0.1.
fn connect_from(addr: SocketAddr, from: [u8; 4]) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let s = rt.block_on(async {
        let s = tokio::net::TcpSocket::new_v4().unwrap();
        s.bind(SocketAddr::from((from, 0))).unwrap();
        s.connect(addr).await.unwrap().into_std().unwrap()
    });
    s.set_nonblocking(false).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

fn setup_rate(a: Adapter) {
    // One setup a second per peer, two at once.
    let r = start_rated(a, Duration::from_secs(5), 16, (1, 2));
    let t0 = Instant::now();
    assert!(get(r.addr).starts_with(b"HTTP/1.1 200"));
    assert!(get(r.addr).starts_with(b"HTTP/1.1 200"));
    // The third at once: closed before its setup runs (its password would
    // pass), unanswered, counted as refused.
    let mut s = connect(r.addr);
    let _ = s.write_all(REQUEST);
    assert_eq!(read_all(&mut s), b"", "closed without a response");
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    assert!(
        eventually(|| (r.counts)().refused == 1),
        "{:?}",
        (r.counts)()
    );
    // Another peer has a budget of its own.
    let mut other = connect_from(r.addr, [127, 0, 0, 2]);
    other.write_all(REQUEST).unwrap();
    assert!(read_all(&mut other).starts_with(b"HTTP/1.1 200"));
    // A second later the first peer may start one more.
    std::thread::sleep(Duration::from_millis(1_100));
    assert!(get(r.addr).starts_with(b"HTTP/1.1 200"));
    assert_eq!(
        (r.counts)(),
        Counts {
            refused: 1,
            ..Counts::default()
        }
    );
}
both!(
    a_peer_over_its_setup_rate_is_closed_before_its_setup_and_others_are_served,
    setup_rate
);

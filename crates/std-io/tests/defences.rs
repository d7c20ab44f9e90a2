//! The server's defences against resource exhaustion, each with short
//! timeouts so that it runs in seconds: eviction at the connection limit,
//! minimum data rates and stall timeouts, the open-file limit, `503`s
//! beyond the cap, counters, the per-peer cap, handler stacks.

use http_net_std::ServerOptions;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use http_net_std::{Error, Exchange, Listener, Server, ServerBuilder};

mod support;
use support::Running;

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";

fn quick() -> ServerBuilder {
    Server::builder()
        .drain(Duration::from_millis(200), 64 * 1024)
        .shutdown_timeout(Duration::from_secs(2))
}

/// Starts `builder` on an ephemeral loopback port with `handler`.
fn start(
    builder: ServerBuilder,
    handler: impl Fn(&mut Exchange<'_>) -> Result<(), Error> + Send + Sync + 'static,
) -> Running {
    Running::start(builder.bind("127.0.0.1:0").unwrap(), handler)
}

fn ok(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ex.respond_with(200, &[], b"ok")
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// A connection to `addr` that has sent `req`.
fn sent(addr: SocketAddr, req: &[u8]) -> TcpStream {
    let mut s = connect(addr);
    s.write_all(req).unwrap();
    s
}

/// A connection to `addr` that has sent the head of a `POST /` announcing
/// `len` body bytes, and none of them yet.
fn upload(addr: SocketAddr, len: usize) -> TcpStream {
    let head = format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: {len}\r\n\r\n");
    sent(addr, head.as_bytes())
}

/// Reads one response head (and what came with it), or what came before
/// the close.
fn read_head(s: &mut TcpStream) -> String {
    let mut v = Vec::new();
    let mut buf = [0u8; 4096];
    while !v.windows(4).any(|w| w == b"\r\n\r\n") {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => v.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&v).into_owned()
}

/// Sends `GET /` and reads the answer's head.
fn get(s: &mut TcpStream) -> String {
    s.write_all(GET).unwrap();
    read_head(s)
}

/// Waits until `cond` holds (at most 5 s).
fn eventually(what: &str, cond: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !cond() {
        assert!(Instant::now() < deadline, "never: {what}");
        thread::sleep(Duration::from_millis(10));
    }
}

/// A cap of `n` connections whose keep-alive ones may idle 60 s, serving
/// `ok`.
fn idle_cap(n: usize) -> Running {
    start(
        quick()
            .max_connections(n)
            .idle_timeout(Duration::from_secs(60)),
        ok,
    )
}

#[test]
fn idle_keep_alive_connections_at_the_cap_are_evicted_for_a_newcomer() {
    let srv = idle_cap(4);
    let mut held: Vec<TcpStream> = Vec::new();
    for _ in 0..4 {
        let mut s = connect(srv.addr);
        assert!(get(&mut s).starts_with("HTTP/1.1 200"));
        held.push(s);
        thread::sleep(Duration::from_millis(20));
    }
    for round in 0..3 {
        let t0 = Instant::now();
        let mut newcomer = connect(srv.addr);
        let head = get(&mut newcomer);
        assert!(head.starts_with("HTTP/1.1 200"), "round {round}: {head}");
        assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
        // The longest idle was closed cleanly: end of stream, no bytes.
        let oldest = &mut held[round];
        let mut buf = [0u8; 64];
        assert_eq!(oldest.read(&mut buf).unwrap(), 0, "round {round}");
        held.push(newcomer);
    }
    let c = srv.stop.counters();
    assert_eq!(c.evicted.idle, 3, "{c:?}");
    assert_eq!(c.refused, 0, "{c:?}");
    assert_eq!(c.accepted, 7, "{c:?}");
    assert_eq!(c.current, 4, "{c:?}");
}

#[test]
fn a_slow_head_at_the_cap_is_evicted_with_503_within_the_grace_too() {
    let srv = start(
        quick()
            .max_connections(2)
            .eviction_grace(Duration::from_millis(300))
            .head_timeout(Duration::from_secs(30)),
        ok,
    );
    let mut slow: Vec<TcpStream> = (0..2)
        .map(|_| {
            let s = sent(srv.addr, b"GET / HTTP/1.1\r\nX-Slow: ");
            thread::sleep(Duration::from_millis(20));
            s
        })
        .collect();
    eventually("both admitted", || srv.stop.counters().current == 2);
    // Within the grace: the older head makes way (it was refused before).
    let mut early = connect(srv.addr);
    assert!(get(&mut early).starts_with("HTTP/1.1 200"));
    // Made way under load: `503` with `Retry-After` (D-47).
    assert!(read_head(&mut slow[0]).starts_with("HTTP/1.1 503"));
    // Past the grace: the newcomer, now idle, goes before the other head.
    thread::sleep(Duration::from_millis(400));
    let mut newcomer = connect(srv.addr);
    assert!(get(&mut newcomer).starts_with("HTTP/1.1 200"));
    let mut b = [0u8; 1];
    assert_eq!(early.read(&mut b).unwrap(), 0);
    // And a head past the grace goes before a younger one (once the
    // newcomer's slot shows it idle, it makes way for the young head).
    thread::sleep(Duration::from_millis(100));
    let mut young = sent(srv.addr, b"GET / HTTP/1.1\r\nX-Slow: ");
    eventually("the idle newcomer evicted", || {
        srv.stop.counters().evicted.idle == 2
    });
    thread::sleep(Duration::from_millis(50));
    let mut last = connect(srv.addr);
    assert!(get(&mut last).starts_with("HTTP/1.1 200"));
    assert!(read_head(&mut slow[1]).starts_with("HTTP/1.1 503"));
    young
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    assert!(young.read(&mut b).is_err(), "the younger head is kept");
    let c = srv.stop.counters();
    assert_eq!(
        (c.evicted.head, c.evicted.idle, c.refused),
        (2, 2, 0),
        "{c:?}"
    );
}

/// A handler that reads the whole body and answers its length.
fn read_body(ex: &mut Exchange<'_>) -> Result<(), Error> {
    let mut body = Vec::new();
    ex.body().read_to_end(&mut body).map_err(Error::from_io)?;
    ex.respond_with(200, &[], body.len().to_string().as_bytes())
}

#[test]
fn a_slow_body_below_the_minimum_rate_gets_408_within_the_grace() {
    let grace = Duration::from_secs(2);
    // What the handler's body read failed with (as the tokio adapter
    // reports it: `TooSlow`, not `Timeout`).
    let (err_tx, err_rx) = mpsc::channel();
    let err_tx = Mutex::new(err_tx);
    let srv = start(
        quick()
            .min_body_rate(240, grace)
            .body_timeout(Duration::from_secs(30)),
        move |ex: &mut Exchange<'_>| {
            let r = read_body(ex);
            if let Err(e) = &r {
                let _ = err_tx.lock().unwrap().send(e.to_string());
            }
            r
        },
    );
    let mut s = upload(srv.addr, 1000);
    let t0 = Instant::now();
    // One byte every 200 ms: 5 bytes/s, far below 240.
    let (tx, rx) = mpsc::channel();
    let mut w = s.try_clone().unwrap();
    let trickle = thread::spawn(move || {
        while rx.try_recv().is_err() {
            if w.write_all(b"x").is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(200));
        }
    });
    let head = read_head(&mut s);
    let took = t0.elapsed();
    let _ = tx.send(());
    trickle.join().unwrap();
    assert!(head.starts_with("HTTP/1.1 408"), "{head}");
    assert_about(took, grace);
    // Counted when the connection ends, just after its `408` left.
    eventually("the body's timeout counted", || {
        srv.stop.counters().timed_out.body == 1
    });
    let got = err_rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(got, "below the minimum data rate reading a message body");
}

#[test]
fn a_body_above_the_minimum_rate_is_read_whole() {
    let srv = start(
        quick().min_body_rate(240, Duration::from_millis(500)),
        read_body,
    );
    let mut s = upload(srv.addr, 1000);
    // 100 bytes every 100 ms: 1,000 bytes/s for a second.
    for _ in 0..10 {
        s.write_all(&[b'x'; 100]).unwrap();
        thread::sleep(Duration::from_millis(100));
    }
    let head = read_head(&mut s);
    assert!(
        head.starts_with("HTTP/1.1 200") && head.ends_with("1000"),
        "{head}"
    );
}

#[test]
fn a_body_that_stalls_gets_408_after_the_body_timeout() {
    let srv = start(
        quick()
            .min_body_rate(0, Duration::ZERO)
            .body_timeout(Duration::from_secs(1)),
        read_body,
    );
    let mut s = sent(
        srv.addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc",
    );
    let t0 = Instant::now();
    let head = read_head(&mut s);
    assert!(head.starts_with("HTTP/1.1 408"), "{head}");
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

/// A handler that writes `n` MiB in 64 KiB pieces, and reports the time of
/// the last piece the peer took and of the failure.
fn big_writer(
    mib: usize,
    report: mpsc::Sender<(Instant, Instant)>,
) -> impl Fn(&mut Exchange<'_>) -> Result<(), Error> + Send + Sync + 'static {
    let report = Mutex::new(report);
    move |ex: &mut Exchange<'_>| {
        let piece = vec![b'x'; 64 * 1024];
        let n = mib * 16;
        ex.send_head(
            200,
            &[],
            http_net_std::http_net_conn::BodyLength::Known((n * piece.len()) as u64),
        )?;
        let mut last = Instant::now();
        for _ in 0..n {
            if let Err(e) = ex.send_data(&piece) {
                let _ = report.lock().unwrap().send((last, Instant::now()));
                return Err(e);
            }
            last = Instant::now();
        }
        ex.send_end(&[])
    }
}

/// A `GET` of 256 MiB from [`big_writer`] on a server made from
/// `builder`: the server, the connection (nothing read yet), when the
/// request was sent, and the writer's report.
struct Download {
    srv: Running,
    s: TcpStream,
    t0: Instant,
    report: mpsc::Receiver<(Instant, Instant)>,
}

fn download(builder: ServerBuilder) -> Download {
    let (tx, report) = mpsc::channel();
    let srv = start(builder, big_writer(256, tx));
    let s = sent(srv.addr, GET);
    let t0 = Instant::now();
    Download { srv, s, t0, report }
}

/// Asserts that `took` is `grace`, give or take the scheduling.
fn assert_about(took: Duration, grace: Duration) {
    assert!(took >= grace - Duration::from_millis(100), "{took:?}");
    assert!(took <= grace + Duration::from_secs(2), "{took:?}");
}

#[test]
fn a_non_reading_peer_is_dropped_within_the_stall_timeout() {
    let stall = Duration::from_secs(3);
    let Download { srv, s, t0, report } = download(
        quick()
            .write_timeout(stall)
            .min_response_rate(0, Duration::ZERO),
    );
    let (last_progress, failed) = report.recv_timeout(Duration::from_secs(30)).unwrap();
    // The last 64 KiB piece the server got rid of, and the drop: the stall
    // timeout apart (the kernel may take part of a piece after it).
    let stalled = failed - last_progress;
    assert!(
        stalled >= stall - Duration::from_secs(2) && stalled <= stall + Duration::from_secs(2),
        "stalled {stalled:?}"
    );
    assert!(
        failed - t0 <= stall + Duration::from_secs(3),
        "{:?}",
        failed - t0
    );
    eventually("timed out counted", || {
        srv.stop.counters().timed_out.write == 1
    });
    drop(s);
}

#[test]
fn a_peer_reading_below_the_minimum_response_rate_is_dropped_after_the_grace() {
    let grace = Duration::from_secs(2);
    let Download {
        srv: _srv,
        mut s,
        t0,
        report,
    } = download(
        quick()
            .write_timeout(Duration::from_secs(30))
            // Above what the kernel's buffers take at once over the grace,
            // far above what the peer reads.
            .min_response_rate(8 * 1024 * 1024, grace),
    );
    // Reads 4 KiB every 50 ms: some progress, far below 1 MiB/s.
    let (stop_tx, stop_rx) = mpsc::channel::<()>();
    let reader = thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while stop_rx.try_recv().is_err() {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => thread::sleep(Duration::from_millis(50)),
            }
        }
    });
    let (_, failed) = report.recv_timeout(Duration::from_secs(30)).unwrap();
    let _ = stop_tx.send(());
    reader.join().unwrap();
    assert_about(failed - t0, grace);
}

#[test]
fn a_response_deadline_is_an_option() {
    let d = download(quick().response_timeout(Some(Duration::from_secs(1))));
    let (_, failed) = d.report.recv_timeout(Duration::from_secs(30)).unwrap();
    let took = failed - d.t0;
    assert!(took < Duration::from_secs(3), "{took:?}");
    drop(d.s);
}

#[test]
fn a_handler_with_a_512_kib_stack_array_serves_with_the_defaults() {
    let srv = Running::start(
        Server::bind("127.0.0.1:0").unwrap(),
        |ex: &mut Exchange<'_>| -> Result<(), Error> {
            let mut buf = [0u8; 512 * 1024];
            buf[ex.path().len()] = 1;
            let buf = std::hint::black_box(&mut buf);
            let sum: u32 = buf.iter().map(|&b| u32::from(b)).sum();
            ex.respond_with(200, &[], sum.to_string().as_bytes())
        },
    );
    for _ in 0..3 {
        let mut s = connect(srv.addr);
        let head = get(&mut s);
        assert!(
            head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n1"),
            "{head}"
        );
    }
}

/// A listener that reports each accepted connection as coming from the
/// next address of a list (std cannot bind a client socket to 127.0.0.2
/// before connecting).
struct FromPeers {
    inner: TcpListener,
    peers: Mutex<Vec<IpAddr>>,
}

impl Listener for FromPeers {
    type Stream = TcpStream;
    fn accept(&self) -> io::Result<(TcpStream, Option<SocketAddr>)> {
        let (s, addr) = self.inner.accept()?;
        let mut peers = self.peers.lock().unwrap();
        let ip = if peers.is_empty() {
            addr.ip()
        } else {
            peers.remove(0)
        };
        Ok((s, Some(SocketAddr::new(ip, addr.port()))))
    }
    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

#[test]
fn the_per_peer_cap_refuses_a_third_connection_from_one_address() {
    let a = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
    let b = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
    let listener = FromPeers {
        inner: TcpListener::bind("127.0.0.1:0").unwrap(),
        peers: Mutex::new(vec![a, a, a, b, a]),
    };
    let srv = Running::start(
        quick()
            .max_connections_per_peer(2)
            .idle_timeout(Duration::from_secs(60))
            .listener(listener),
        ok,
    );
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = connect(srv.addr);
        assert!(get(&mut s).starts_with("HTTP/1.1 200"));
        held.push(s);
    }
    let mut third = connect(srv.addr);
    let head = get(&mut third);
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    assert!(head.contains("\r\nRetry-After: 1\r\n"), "{head}");
    let mut other = connect(srv.addr);
    assert!(get(&mut other).starts_with("HTTP/1.1 200"));
    // One of the first address's connections closes: the address may
    // connect again.
    drop(held.pop());
    eventually("the slot given back", || srv.stop.counters().current == 2);
    let mut again = connect(srv.addr);
    assert!(get(&mut again).starts_with("HTTP/1.1 200"));
    let c = srv.stop.counters();
    assert_eq!((c.accepted, c.refused), (5, 1), "{c:?}");
}

#[test]
fn counters_count_timeouts_by_phase() {
    let srv = start(
        quick()
            .idle_timeout(Duration::from_millis(300))
            .head_timeout(Duration::from_millis(300)),
        ok,
    );
    let mut idle = connect(srv.addr);
    assert!(get(&mut idle).starts_with("HTTP/1.1 200"));
    let mut slow = sent(srv.addr, b"GET / HTTP/1.1\r\n");
    assert!(read_head(&mut slow).starts_with("HTTP/1.1 408"));
    let mut buf = [0u8; 16];
    assert_eq!(idle.read(&mut buf).unwrap_or(0), 0);
    eventually("both closed", || srv.stop.counters().current == 0);
    let c = srv.stop.counters();
    assert_eq!((c.timed_out.idle, c.timed_out.head), (1, 1), "{c:?}");
    assert_eq!((c.accepted, c.refused), (2, 0), "{c:?}");
}

/// Run as a child with a low open-file limit by
/// `a_burst_beyond_the_cap_gets_503_with_a_low_open_file_limit`: serves
/// with the default connection limit (which the limit cannot hold), prints
/// its address, and stops when its standard input closes.
#[test]
#[ignore = "run by another test, in a child process"]
fn child_server() {
    if std::env::var("DEFENCES_CHILD").as_deref() != Ok("1") {
        return;
    }
    serve_in_child(
        Server::builder(),
        |ex: &mut Exchange<'_>| -> Result<(), Error> {
            if ex.path() == b"/hold" {
                // Holds its slot, answering nothing, for a bounded time.
                thread::sleep(Duration::from_secs(30));
            }
            ex.respond_with(200, &[], b"ok")
        },
        || {},
    );
}

/// Run as a child by `out_of_descriptors_peers_get_503_not_the_backlog`:
/// a handler on `/leak` opens files until the process has no descriptor
/// left; the server must still answer newcomers.
#[test]
#[ignore = "run by another test, in a child process"]
fn child_leaking_server() {
    if std::env::var("DEFENCES_CHILD").as_deref() != Ok("leak") {
        return;
    }
    static LEAKED: Mutex<Vec<std::fs::File>> = Mutex::new(Vec::new());
    serve_in_child(
        Server::builder().max_connections(8),
        |ex: &mut Exchange<'_>| -> Result<(), Error> {
            if ex.path() == b"/leak" {
                let mut leaked = LEAKED.lock().unwrap();
                while let Ok(f) = std::fs::File::open("/dev/null") {
                    leaked.push(f);
                }
            }
            ex.respond_with(200, &[], b"ok")
        },
        // The descriptors back, so that the shutdown can wake `accept`.
        || LEAKED.lock().unwrap().clear(),
    );
}

/// A child's server: serves `handler` on a free port (shutdown timeout
/// 1 s), prints its address, and when its standard input closes, runs
/// `before_stop` and shuts down.
fn serve_in_child(
    builder: ServerBuilder,
    handler: impl http_net_std::Handler,
    before_stop: impl FnOnce(),
) {
    let server = builder
        .shutdown_timeout(Duration::from_secs(1))
        .listener(support::deep_listener());
    let addr = server.local_addr().unwrap();
    let stop = server.handle();
    let serving = thread::spawn(move || server.serve(handler));
    println!("listening on {addr}");
    let _ = io::stdout().flush();
    let mut sink = Vec::new();
    let _ = io::stdin().read_to_end(&mut sink);
    before_stop();
    stop.shutdown();
    serving.join().unwrap().unwrap();
}

/// Starts this test binary as a child running the ignored test `name`
/// (with `DEFENCES_CHILD=mode` and `ulimit -n files`, its standard error
/// to `stderr`); returns it and the address it printed.
fn start_child(
    name: &str,
    mode: &str,
    files: u32,
    stderr: Stdio,
) -> (std::process::Child, SocketAddr) {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -n {files} && exec \"$0\" --exact {name} --ignored --nocapture --test-threads=1"
        ))
        .arg(&exe)
        .env("DEFENCES_CHILD", mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut text = Vec::new();
        let mut b = [0u8; 1];
        while out.read(&mut b).unwrap_or(0) == 1 {
            text.push(b[0]);
            if b[0] == b'\n' {
                let line = String::from_utf8_lossy(&text).into_owned();
                if let Some(i) = line.find("listening on ") {
                    let _ = tx.send(line[i + 13..].trim().parse::<SocketAddr>().unwrap());
                }
                text.clear();
            }
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("child address");
    (child, addr)
}

/// Whether the open-file limit tests can run here (they read
/// `/proc/self/limits`); a note on stderr when not.
fn have_proc_limits() -> bool {
    let have = std::path::Path::new("/proc/self/limits").exists();
    if !have {
        eprintln!("note: skipping: no /proc/self/limits");
    }
    have
}

#[test]
fn out_of_descriptors_peers_get_503_not_the_backlog() {
    if !have_proc_limits() {
        return;
    }
    // 256 descriptors hold the child's 8 connections (no lowered limit, so
    // no eviction frees a descriptor).
    let (mut child, addr) = start_child("child_leaking_server", "leak", 256, Stdio::null());
    let mut leak = sent(addr, b"GET /leak HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(read_head(&mut leak).starts_with("HTTP/1.1 200"));
    // The leak took every free descriptor but one: on Linux an `accept`
    // that waits holds the number of the descriptor it will return, so the
    // first newcomer may still be admitted (it is kept open, holding it).
    let mut first = connect(addr);
    let head = get(&mut first);
    assert!(
        head.starts_with("HTTP/1.1 200") || head.starts_with("HTTP/1.1 503"),
        "{head:?}"
    );
    // Now the process has no descriptor to spare: each newcomer is
    // accepted with the reserve's, answered 503 and closed, at once.
    for i in 0..5 {
        let t0 = Instant::now();
        let mut s = connect(addr);
        s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        let head = get(&mut s);
        let took = t0.elapsed();
        assert!(head.starts_with("HTTP/1.1 503"), "newcomer {i}: {head:?}");
        assert!(took < Duration::from_millis(100), "newcomer {i}: {took:?}");
    }
    drop(first);
    drop(leak);
    drop(child.stdin.take());
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_burst_beyond_the_cap_gets_503_with_a_low_open_file_limit() {
    if !have_proc_limits() {
        return;
    }
    let (mut child, addr) = start_child("child_server", "1", 256, Stdio::piped());
    let mut err = child.stderr.take().unwrap();
    let stderr = thread::spawn(move || {
        let mut v = String::new();
        let _ = err.read_to_string(&mut v);
        v
    });
    // Fill the effective cap with requests the handler holds: the first
    // connection answered 503 at once marks the cap.
    let mut held = Vec::new();
    let cap = loop {
        let mut s = sent(addr, b"GET /hold HTTP/1.1\r\nHost: a\r\n\r\n");
        s.set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let mut buf = [0u8; 64];
        match s.read(&mut buf) {
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                held.push(s)
            }
            Ok(n) if buf[..n].starts_with(b"HTTP/1.1 503") => break held.len(),
            r => panic!("after {} held: {r:?}", held.len()),
        }
        assert!(held.len() < 1000, "no cap reached");
    };
    assert!(cap > 10 && cap < 128, "cap {cap}");
    // A burst beyond the cap, all at once: every one answered 503, each
    // within 100 ms of its connect (a few may pass it; none a second).
    support::assert_burst_of_503s(200, || get(&mut connect(addr)));
    drop(held);
    drop(child.stdin.take());
    let status = child.wait().unwrap();
    let warning = stderr.join().unwrap();
    assert!(status.success(), "{warning}");
    assert!(
        warning.contains("the open-file limit is 256") && warning.contains("max_connections 1024"),
        "{warning}"
    );
    assert!(
        warning.contains(&format!("serving at most {cap} connections")),
        "cap {cap}: {warning}"
    );
}

/// The descriptors of this process open on sockets whose local port is
/// `port` (from `/proc/net/tcp` and `/proc/self/fd`); `None` without `/proc`.
fn descriptors_on_port(port: u16) -> Option<usize> {
    let table = std::fs::read_to_string("/proc/net/tcp").ok()?;
    let inodes: Vec<String> = table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let local_port = f.get(1)?.rsplit(':').next()?;
            let inode = f.get(9)?;
            (u16::from_str_radix(local_port, 16).ok()? == port).then(|| format!("socket:[{inode}]"))
        })
        .collect();
    let mut n = 0;
    for fd in std::fs::read_dir("/proc/self/fd").ok()?.flatten() {
        if let Ok(link) = std::fs::read_link(fd.path()) {
            if inodes.iter().any(|i| link.as_os_str() == i.as_str()) {
                n += 1;
            }
        }
    }
    Some(n)
}

#[test]
fn each_tcp_connection_takes_one_descriptor() {
    let srv = start(quick().idle_timeout(Duration::from_secs(60)), ok);
    let Some(listener_only) = descriptors_on_port(srv.addr.port()) else {
        eprintln!("note: skipping: no /proc");
        return;
    };
    let mut held = Vec::new();
    for _ in 0..20 {
        let mut s = connect(srv.addr);
        assert!(get(&mut s).starts_with("HTTP/1.1 200"));
        held.push(s);
    }
    let with_20 = descriptors_on_port(srv.addr.port()).unwrap();
    // The server's side of each connection: its socket, no duplicate.
    assert_eq!(with_20 - listener_only, 20, "{listener_only} -> {with_20}");
    drop(held);
    eventually("closed", || srv.stop.counters().current == 0);
    eventually("descriptors closed", || {
        descriptors_on_port(srv.addr.port()) == Some(listener_only)
    });
}

#[test]
fn a_connection_draining_after_its_close_holds_no_slot() {
    let srv = Running::start(
        Server::builder()
            .max_connections(1)
            .drain(Duration::from_secs(5), 1024 * 1024)
            .shutdown_timeout(Duration::from_secs(1))
            .bind("127.0.0.1:0")
            .unwrap(),
        ok,
    );
    // A malformed request: 400, then the server drains this peer's input
    // for up to 5 s (the peer neither sends more nor closes).
    let mut bad = sent(
        srv.addr,
        b"GET / HTTP/1.1\r\nHost: a\r\nBad Field: x\r\n\r\n",
    );
    assert!(read_head(&mut bad).starts_with("HTTP/1.1 400"));
    let t0 = Instant::now();
    let mut next = connect(srv.addr);
    let head = get(&mut next);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    drop(bad);
}

#[test]
fn at_the_cap_a_slow_body_is_evicted_with_408_and_a_non_reader_is_cut() {
    let (tx, rx) = mpsc::channel();
    let writer = big_writer(256, tx);
    let srv = start(
        quick()
            .max_connections(3)
            .eviction_grace(Duration::from_millis(300)),
        move |ex: &mut Exchange<'_>| match ex.path() {
            b"/big" => writer(ex),
            b"/hold" => {
                thread::sleep(Duration::from_secs(2));
                ok(ex)
            }
            _ => read_body(ex),
        },
    );
    // A body at 5 bytes/s (within its own 10 s grace: not timed out yet).
    let mut slow = upload(srv.addr, 1000);
    let mut w = slow.try_clone().unwrap();
    let (stop_tx, stop_rx) = mpsc::channel::<()>();
    let trickle = thread::spawn(move || {
        while stop_rx.try_recv().is_err() && w.write_all(b"x").is_ok() {
            thread::sleep(Duration::from_millis(200));
        }
    });
    eventually("the slow body admitted", || {
        srv.stop.counters().current == 1
    });
    thread::sleep(Duration::from_millis(50));
    // A peer that asks for 256 MiB and reads none of it.
    let deaf = sent(srv.addr, b"GET /big HTTP/1.1\r\nHost: a\r\n\r\n");
    // A request its handler works on (not evictable).
    let mut busy = sent(srv.addr, b"GET /hold HTTP/1.1\r\nHost: a\r\n\r\n");
    eventually("all admitted", || srv.stop.counters().current == 3);
    thread::sleep(Duration::from_millis(600));
    // The first newcomer takes the slow body's slot (the oldest), the
    // second the non-reader's.
    // (It stays in its handler: not evictable either.)
    let mut first = sent(srv.addr, b"GET /hold HTTP/1.1\r\nHost: a\r\n\r\n");
    let head = read_head(&mut slow);
    assert!(
        head.starts_with("HTTP/1.1 408"),
        "{head:?} {:?}",
        srv.stop.counters()
    );
    let _ = stop_tx.send(());
    trickle.join().unwrap();
    let mut second = sent(
        srv.addr,
        b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    );
    let head = read_head(&mut second);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    // The non-reader's response was cut at once, long before its stall
    // timeout (30 s).
    let (_, failed) = rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(failed.elapsed() < Duration::from_secs(5));
    assert!(read_head(&mut busy).starts_with("HTTP/1.1 200"));
    assert!(read_head(&mut first).starts_with("HTTP/1.1 200"));
    let c = srv.stop.counters();
    assert_eq!(
        (c.evicted.idle, c.evicted.body, c.evicted.write),
        (0, 1, 1),
        "{c:?}"
    );
    drop(deaf);
}

/// Sends a `POST` head for a 1,000-byte body, then one byte of it a
/// second; stopped by the returned sender.
fn slow_body(addr: SocketAddr) -> (TcpStream, mpsc::Sender<()>, JoinHandle<()>) {
    let s = connect(addr);
    let mut w = s.try_clone().unwrap();
    w.write_all(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\nx")
        .unwrap();
    let (tx, rx) = mpsc::channel::<()>();
    let t = thread::spawn(move || {
        while rx.recv_timeout(Duration::from_secs(1)).is_err() && w.write_all(b"x").is_ok() {}
    });
    (s, tx, t)
}

/// A peer that pipelines `n` requests for a 64 KiB answer and reads none.
#[test]
fn at_the_cap_a_new_connection_goes_after_an_idle_keep_alive_one() {
    // The first connection has sent nothing yet; the second had its answer
    // and sits idle since. A newcomer evicts the idle keep-alive one, not
    // the new one, although the new one is older: its request, sent a
    // moment later, is served.
    let srv = idle_cap(2);
    let mut first = connect(srv.addr);
    eventually("the first admitted", || srv.stop.counters().current == 1);
    thread::sleep(Duration::from_millis(50));
    let mut idle = connect(srv.addr);
    assert!(get(&mut idle).starts_with("HTTP/1.1 200"));
    // Its thread marks it idle just after the answer leaves.
    thread::sleep(Duration::from_millis(50));
    let (_newcomer, _) = newcomer_served(&srv);
    let mut buf = [0u8; 64];
    assert_eq!(idle.read(&mut buf).unwrap_or(0), 0, "the idle one closed");
    let head = get(&mut first);
    assert!(
        head.starts_with("HTTP/1.1 200"),
        "{head:?} {:?}",
        srv.stop.counters()
    );
    assert_eq!(srv.stop.counters().evicted.idle, 1);
}

#[test]
fn by_default_a_connection_closes_after_1000_requests() {
    // As nginx's `keepalive_requests`: a pipeliner that never reads cannot
    // keep its slot by sending requests forever.
    let srv = Running::start(quick().bind("127.0.0.1:0").unwrap(), ok);
    let mut s = connect(srv.addr);
    let reader = {
        let mut r = s.try_clone().unwrap();
        thread::spawn(move || {
            let mut all = Vec::new();
            let _ = r.read_to_end(&mut all);
            all
        })
    };
    s.write_all(&GET.repeat(1001)).unwrap();
    let all = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert_eq!(all.matches("HTTP/1.1 200").count(), 1000);
    let last = all.rsplit("HTTP/1.1 200").next().unwrap();
    assert!(last.contains("\r\nConnection: close\r\n"), "{last}");
}

fn pipeliner(addr: SocketAddr, n: usize) -> TcpStream {
    let s = connect(addr);
    s.set_nonblocking(true).unwrap();
    let mut s = s;
    let req = b"GET /page HTTP/1.1\r\nHost: a\r\n\r\n".repeat(n);
    let mut sent = 0;
    let deadline = Instant::now() + Duration::from_secs(2);
    while sent < req.len() && Instant::now() < deadline {
        match s.write(&req[sent..]) {
            Ok(k) => sent += k,
            Err(_) => thread::sleep(Duration::from_millis(5)),
        }
    }
    s
}

/// Connects a newcomer and asserts that it is answered `200` (the
/// counters in the message if not); returns its connection (kept open by
/// the caller) and how long the answer took from the connect.
fn newcomer_served(srv: &Running) -> (TcpStream, Duration) {
    let t0 = Instant::now();
    let mut newcomer = connect(srv.addr);
    let head = get(&mut newcomer);
    assert!(
        head.starts_with("HTTP/1.1 200"),
        "{head} {:?}",
        srv.stop.counters()
    );
    (newcomer, t0.elapsed())
}

fn page(ex: &mut Exchange<'_>) -> Result<(), Error> {
    match ex.path() {
        b"/page" => ex.respond_with(200, &[], &[b'p'; 64 * 1024]),
        _ => read_body(ex),
    }
}

#[test]
fn at_the_cap_a_slow_body_two_seconds_old_is_evicted_with_408_for_a_newcomer() {
    // The default eviction grace (1 s) and minimum body rate (240 bytes/s
    // after 10 s): the body at 1 byte/s is protected from its own timeout.
    let srv = start(quick().max_connections(1), page);
    let (mut slow, stop, trickle) = slow_body(srv.addr);
    eventually("the slow body admitted", || {
        srv.stop.counters().current == 1
    });
    thread::sleep(Duration::from_millis(2000));
    let (_newcomer, took) = newcomer_served(&srv);
    assert!(took < Duration::from_millis(500), "{took:?}");
    let head = read_head(&mut slow);
    assert!(head.starts_with("HTTP/1.1 408"), "{head}");
    let _ = stop.send(());
    trickle.join().unwrap();
    let c = srv.stop.counters();
    assert_eq!((c.evicted.body, c.refused), (1, 0), "{c:?}");
}

#[test]
fn at_the_cap_a_non_reading_pipeliner_whose_response_stalled_is_evicted() {
    let srv = start(quick().max_connections(1), page);
    let deaf = pipeliner(srv.addr, 200);
    eventually("the pipeliner admitted", || {
        srv.stop.counters().current == 1
    });
    // Its responses fill the socket buffers, then stall.
    thread::sleep(Duration::from_millis(3000));
    let (_newcomer, took) = newcomer_served(&srv);
    assert!(took < Duration::from_millis(500), "{took:?}");
    let c = srv.stop.counters();
    assert_eq!((c.evicted.write, c.refused), (1, 0), "{c:?}");
    drop(deaf);
}

#[test]
fn without_pressure_a_slow_body_and_a_pipeliner_are_left_within_their_grace() {
    let srv = start(quick().max_connections(4), page);
    let (mut slow, stop, trickle) = slow_body(srv.addr);
    let _deaf = pipeliner(srv.addr, 200);
    eventually("both admitted", || srv.stop.counters().current == 2);
    thread::sleep(Duration::from_millis(3000));
    // A newcomer below the cap evicts no one.
    let mut newcomer = connect(srv.addr);
    assert!(get(&mut newcomer).starts_with("HTTP/1.1 200"));
    let c = srv.stop.counters();
    assert_eq!(c.current, 3, "{c:?}");
    assert_eq!(
        (
            c.evicted.body,
            c.evicted.write,
            c.timed_out.body,
            c.timed_out.write
        ),
        (0, 0, 0, 0),
        "{c:?}"
    );
    // The slow body is still being read: no answer yet.
    slow.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut b = [0u8; 1];
    assert!(slow.read(&mut b).is_err());
    let _ = stop.send(());
    trickle.join().unwrap();
}

/// A cap of one connection with an eviction grace of 10 s, serving `page`.
fn young_body_cap() -> Running {
    start(
        quick()
            .max_connections(1)
            .eviction_grace(Duration::from_secs(10)),
        page,
    )
}

#[test]
fn at_the_cap_a_young_body_below_the_rate_is_a_last_resort() {
    // Younger than the eviction grace (10 s here), but no byte of its body
    // in 300 ms: with nothing else to evict, it makes way for a newcomer.
    let srv = young_body_cap();
    let mut slow = upload(srv.addr, 1000);
    eventually("the body admitted", || srv.stop.counters().current == 1);
    thread::sleep(Duration::from_millis(300));
    let _newcomer = newcomer_served(&srv);
    assert!(read_head(&mut slow).starts_with("HTTP/1.1 408"));
    assert_eq!(srv.stop.counters().evicted.body, 1);
}

#[test]
fn at_the_cap_a_young_body_above_the_rate_is_kept() {
    // 4 KiB in its first 300 ms: well above 240 bytes/s, not evicted.
    let srv = young_body_cap();
    let mut up = upload(srv.addr, 100_000);
    // (Sent after the head was read: bytes that come with the head are not
    // counted as the body's progress.)
    thread::sleep(Duration::from_millis(100));
    up.write_all(&[b'x'; 4096]).unwrap();
    eventually("the body admitted", || srv.stop.counters().current == 1);
    thread::sleep(Duration::from_millis(300));
    let mut newcomer = connect(srv.addr);
    let head = get(&mut newcomer);
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    assert_eq!(srv.stop.counters().evicted.body, 0);
}

/// `n` connections to `addr`, each sending a request head a byte at a time
/// (one byte per connection every 20 ms) from one thread until `stop`.
fn slowloris(addr: SocketAddr, n: usize) -> (mpsc::Sender<()>, JoinHandle<()>) {
    let mut socks: Vec<TcpStream> = (0..n).map(|_| connect(addr)).collect();
    let (tx, rx) = mpsc::channel::<()>();
    let t = thread::spawn(move || {
        let head =
            b"GET / HTTP/1.1\r\nHost: a\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        for i in 0.. {
            if rx.try_recv().is_ok() {
                break;
            }
            let b = &head[i % head.len()..][..1];
            for s in &mut socks {
                let _ = s.write_all(b);
            }
            thread::sleep(Duration::from_millis(20));
        }
    });
    (tx, t)
}

#[test]
fn at_the_cap_heads_younger_than_the_grace_make_way_for_a_newcomer() {
    // Issue: a wave of slowloris heads younger than the eviction grace (1 s
    // by default) held every slot, and newcomers got `503` for a second.
    let srv = start(quick().max_connections(16), ok);
    let (stop, trickle) = slowloris(srv.addr, 20);
    thread::sleep(Duration::from_millis(50));
    let (_newcomer, took) = newcomer_served(&srv);
    assert!(took < Duration::from_millis(500), "{took:?}");
    let _ = stop.send(());
    trickle.join().unwrap();
    let c = srv.stop.counters();
    assert!(c.evicted.head >= 1, "{c:?}");
}

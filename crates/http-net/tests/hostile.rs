//! The blocking server against hostile and broken peers, in process, over
//! loopback: slowloris, the connection limit, resets, peers that never read,
//! huge heads, panicking handlers, graceful shutdown.

mod support;

use http_net::conn::ServerOptions;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use http_net::blocking::{Exchange, Server};
use support::*;

#[test]
fn slowloris_is_cut_off_while_others_are_served() {
    let _heavy = heavy();
    let srv = Running::start(
        Server::builder()
            .max_connections(400)
            .head_timeout(Duration::from_secs(2))
            .thread_stack_size(64 * 1024),
        plain,
    );
    let mut slow: Vec<TcpStream> = (0..200).map(|_| connect(srv.addr)).collect();
    let start = Instant::now();
    let head = b"GET / HTTP/1.1\r\nHost: a\r\nX-Slow: ";
    let mut sent = 0;
    // One byte a second to each slow connection, while a normal client is
    // answered within a second each time.
    let mut normal_latencies = Vec::new();
    while start.elapsed() < Duration::from_millis(3500) {
        if start.elapsed() >= Duration::from_secs(sent as u64) && sent < head.len() {
            for s in &mut slow {
                let _ = s.write_all(&head[sent..sent + 1]);
            }
            sent += 1;
        }
        let t0 = Instant::now();
        let mut c = connect(srv.addr);
        let (h, _) = roundtrip(&mut c, GET);
        assert!(h.starts_with("HTTP/1.1 200"), "{h}");
        normal_latencies.push(t0.elapsed());
        thread::sleep(Duration::from_millis(100));
    }
    let worst = normal_latencies.iter().max().unwrap();
    assert!(
        *worst < Duration::from_secs(1),
        "a normal client waited {worst:?}"
    );
    // Every slow connection got 408 and was closed.
    for s in &mut slow {
        s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
        let got = read_to_close(s);
        assert_status(&got, 408);
    }
}

#[test]
fn connection_limit_answers_503() {
    let _heavy = heavy();
    // Connections whose handlers are running cannot be evicted (a partial
    // head or an idle keep-alive connection would be, for the newcomer).
    let release = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let held_back = std::sync::Arc::clone(&release);
    let srv = Running::start(
        Server::builder().max_connections(4),
        move |ex: &mut Exchange<'_>| {
            let deadline = Instant::now() + Duration::from_secs(20);
            while ex.path() == b"/hold"
                && !held_back.load(std::sync::atomic::Ordering::SeqCst)
                && Instant::now() < deadline
            {
                thread::sleep(Duration::from_millis(10));
            }
            plain(ex)
        },
    );
    let mut held: Vec<TcpStream> = (0..4).map(|_| connect(srv.addr)).collect();
    for s in &mut held {
        s.write_all(b"GET /hold HTTP/1.1\r\nHost: a\r\n\r\n")
            .unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while srv.stop.counters().current < 4 {
        assert!(Instant::now() < deadline, "{:?}", srv.stop.counters());
        thread::sleep(Duration::from_millis(10));
    }
    thread::sleep(Duration::from_millis(50));
    let mut over = connect(srv.addr);
    let _ = over.write_all(GET);
    let got = read_to_close(&mut over);
    assert_status(&got, 503);
    // The handlers answer: their idle keep-alive connections make way.
    release.store(true, std::sync::atomic::Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        // One request that closes: read whole (a 503 closes too).
        let got = raw(
            srv.addr,
            b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
        );
        if got.starts_with(b"HTTP/1.1 200") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no slot freed: {:?}",
            String::from_utf8_lossy(&got)
        );
        thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn reset_mid_body_leaves_the_server_serving() {
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let srv = Running::start(Server::builder(), move |ex: &mut Exchange<'_>| {
        if ex.path() == b"/upload" {
            let mut sink = Vec::new();
            let r = ex.body().read_to_end(&mut sink);
            let _ = tx.lock().unwrap().send(r.map_err(|e| e.kind()));
        }
        plain(ex)
    });
    let mut s = connect(srv.addr);
    s.write_all(b"POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n")
        .unwrap();
    // Wait for 100 Continue, send part of the body, then leave unread bytes
    // (a second 100? no: the response is not sent yet) and close with a reset.
    let mut buf = [0u8; 25];
    s.read_exact(&mut buf).unwrap();
    assert_eq!(&buf, b"HTTP/1.1 100 Continue\r\n\r\n");
    s.write_all(&[b'x'; 10_000]).unwrap();
    thread::sleep(Duration::from_millis(100));
    // Unread data in our receive buffer makes close() send RST: have the
    // server send nothing more, so close abruptly via shutdown + drop.
    s.shutdown(std::net::Shutdown::Both).unwrap();
    drop(s);
    let outcome = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("handler saw nothing");
    assert!(outcome.is_err(), "a cut body read as complete");
    // The server goes on.
    let mut c = connect(srv.addr);
    let (h, _) = roundtrip(&mut c, GET);
    assert!(h.starts_with("HTTP/1.1 200"));
}

#[test]
fn a_peer_that_never_reads_is_bounded() {
    let _heavy = heavy();
    let body = vec![b'z'; 64 * 1024];
    let srv = Running::start(
        Server::builder().write_timeout(Duration::from_secs(1)),
        move |ex: &mut Exchange<'_>| ex.respond_with(200, &[], &body),
    );
    let before = rss();
    let mut s = connect(srv.addr);
    s.set_write_timeout(Some(Duration::from_secs(3))).unwrap();
    let chunk = GET.repeat(1000);
    let start = Instant::now();
    let mut sent = 0usize;
    let mut peak = before;
    // Pipeline requests and never read: the server must stop reading once
    // its output is backed up, and drop us after its write timeout.
    while start.elapsed() < Duration::from_secs(10) {
        match s.write(&chunk) {
            Ok(n) => sent += n,
            Err(_) => break,
        }
        peak = peak.max(rss());
    }
    peak = peak.max(rss());
    let grew = peak.saturating_sub(before);
    eprintln!("sent {sent} bytes of requests; RSS grew by {grew} bytes");
    assert!(
        grew < 32 * 1024 * 1024,
        "server memory grew by {grew} bytes"
    );
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "the server never gave up on the peer"
    );
}

// proves: 9110-5.4-2
#[test]
fn huge_head_gets_431_then_close() {
    let srv = Running::start(Server::builder(), plain);
    let mut s = connect(srv.addr);
    let mut w = s.try_clone().unwrap();
    let writer = thread::spawn(move || {
        let mut block = b"GET / HTTP/1.1\r\nHost: a\r\nX-Big: ".to_vec();
        block.extend(std::iter::repeat_n(b'a', 1024 * 1024));
        let _ = w.write_all(&block);
    });
    let got = read_to_close(&mut s);
    assert!(
        got.starts_with(b"HTTP/1.1 431 "),
        "{:?}",
        String::from_utf8_lossy(&got[..got.len().min(200)])
    );
    writer.join().unwrap();
}

// proves: 9112-2.2-9
#[test]
fn error_response_survives_trailing_input() {
    // A malformed request followed by more bytes than the socket buffers
    // hold: the server answers 400, half-closes and drains, so the peer
    // reads the 400 instead of a reset.
    let srv = Running::start(Server::builder(), plain);
    for _ in 0..5 {
        let mut s = connect(srv.addr);
        let mut w = s.try_clone().unwrap();
        let writer = thread::spawn(move || {
            let mut req = b"GET / HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n".to_vec();
            req.extend(std::iter::repeat_n(b'j', 256 * 1024));
            let _ = w.write_all(&req);
            let _ = w.shutdown(std::net::Shutdown::Write);
        });
        // Read late, after the server has answered and closed.
        thread::sleep(Duration::from_millis(300));
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        let end = loop {
            match s.read(&mut buf) {
                Ok(0) => break Ok(()),
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) => break Err(e),
            }
        };
        assert_status(&got, 400);
        assert!(
            got.windows(8).any(|w| w == b"\r\nDate: "),
            "no Date on the error response"
        );
        assert!(
            end.is_ok(),
            "the connection ended with {end:?}, not a clean close"
        );
        writer.join().unwrap();
    }
}

#[test]
fn handler_panic_answers_500_and_the_server_goes_on() {
    let srv = Running::start(Server::builder(), |ex: &mut Exchange<'_>| {
        if ex.path() == b"/panic" {
            panic!("handler panicked on purpose");
        }
        plain(ex)
    });
    let mut s = connect(srv.addr);
    s.write_all(b"GET /panic HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    let got = read_to_close(&mut s);
    assert_status(&got, 500);
    let mut c = connect(srv.addr);
    assert!(roundtrip(&mut c, GET).0.starts_with("HTTP/1.1 200"));
}

#[test]
fn graceful_shutdown_finishes_requests_in_flight() {
    let _heavy = heavy();
    let mut srv = Running::start(Server::builder(), |ex: &mut Exchange<'_>| {
        if ex.path() == b"/slow" {
            thread::sleep(Duration::from_millis(400));
        }
        plain(ex)
    });
    let addr = srv.addr;
    // An idle keep-alive connection.
    let mut idle = connect(addr);
    assert!(roundtrip(&mut idle, GET).0.starts_with("HTTP/1.1 200"));
    // Three requests in flight.
    let clients: Vec<_> = (0..3)
        .map(|_| {
            thread::spawn(move || {
                let mut s = connect(addr);
                s.write_all(b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
                    .unwrap();
                let (head, body) = read_response(&mut s);
                let closed = matches!(s.read(&mut [0u8; 1]), Ok(0));
                (head, body, closed)
            })
        })
        .collect();
    thread::sleep(Duration::from_millis(150));
    let took = srv.stop();
    assert!(took < Duration::from_secs(3), "shutdown took {took:?}");
    for c in clients {
        let (head, body, closed) = c.join().unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(
            head.to_ascii_lowercase().contains("connection: close"),
            "{head}"
        );
        assert_eq!(body, b"ok");
        assert!(closed, "connection left open after the last response");
    }
    // The idle connection was closed, and nobody listens any more.
    idle.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    assert!(
        matches!(idle.read(&mut [0u8; 1]), Ok(0)),
        "idle connection not closed"
    );
    match TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
        Err(e) => assert_eq!(e.kind(), ErrorKind::ConnectionRefused),
        Ok(mut s) => assert!(read_to_close(&mut s).is_empty()),
    }
}

// proves: 9112-9.5-2a
#[test]
fn idle_timeout_closes_quietly_and_head_deadline_answers_408() {
    let srv = Running::start(
        Server::builder()
            .idle_timeout(Duration::from_millis(300))
            .head_timeout(Duration::from_millis(500)),
        plain,
    );
    let mut idle = connect(srv.addr);
    let t0 = Instant::now();
    assert!(read_to_close(&mut idle).is_empty());
    assert!(t0.elapsed() < Duration::from_secs(3));
    let mut partial = connect(srv.addr);
    partial.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
    let got = read_to_close(&mut partial);
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408 "), "{text}");
    // Queued by the connection itself (`ServerConn::time_out`), like its
    // other error responses: Date, Connection: close, a text body.
    assert!(text.contains("\r\nConnection: close\r\n"), "{text}");
    assert!(text.contains("\r\nDate: "), "{text}");
    assert!(text.ends_with("\r\n\r\n408 Request Timeout\n"), "{text}");
}

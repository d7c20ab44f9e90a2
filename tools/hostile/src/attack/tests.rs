//! The attacks against loopback servers that count what they see.

use super::*;
use std::net::TcpListener;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;

/// A loopback server, a thread per connection: answers every head with
/// `status` (and closes after it when `close`), counts connections and
/// resets seen.
fn server(status: &'static str, close: bool) -> (SocketAddr, Arc<AtomicU64>, Arc<AtomicU64>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let (conns, resets) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let (c, r) = (Arc::clone(&conns), Arc::clone(&resets));
    thread::spawn(move || {
        for s in l.incoming().take(200) {
            let Ok(mut s) = s else { continue };
            c.fetch_add(1, Ordering::SeqCst);
            let r = Arc::clone(&r);
            thread::spawn(move || {
                s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                let mut got = Vec::new();
                let mut buf = [0u8; 4096];
                loop {
                    match s.read(&mut buf) {
                        Ok(0) => return,
                        Ok(n) => got.extend_from_slice(&buf[..n]),
                        Err(e) => {
                            if e.kind() == ErrorKind::ConnectionReset {
                                r.fetch_add(1, Ordering::SeqCst);
                            }
                            return;
                        }
                    }
                    if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
                        got.drain(..i + 4);
                        let answer = format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\n\r\n");
                        let _ = s.write_all(answer.as_bytes());
                        if close {
                            return;
                        }
                    }
                }
            });
        }
    });
    (addr, conns, resets)
}

#[test]
fn a_burst_opens_each_connection_once_and_reads_its_answer() {
    let (addr, conns, _) = server("200 OK", false);
    let t = run(
        addr,
        Scenario::Burst,
        5,
        Duration::from_millis(500),
        &Means::default(),
    )
    .unwrap();
    assert_eq!(t.opened, 5, "{}", t.line());
    assert_eq!(t.statuses.get(&200), Some(&5), "{}", t.line());
    assert_eq!((t.open_at_end, t.unanswered_at_end), (5, 0), "{}", t.line());
    assert_eq!(conns.load(Ordering::SeqCst), 5);
}

#[test]
fn a_burst_peer_never_closes_even_after_the_server_does() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let server = thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        let mut buf = [0u8; 256];
        let _ = s.read(&mut buf).unwrap();
        s.write_all(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
            .unwrap();
        s.shutdown(std::net::Shutdown::Write).unwrap();
        s.set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
        s.read(&mut buf).map_err(|e| e.kind())
    });
    let t = run(
        addr,
        Scenario::Burst,
        1,
        Duration::from_millis(1000),
        &Means::default(),
    )
    .unwrap();
    assert_eq!(t.statuses.get(&503), Some(&1), "{}", t.line());
    let after = server.join().unwrap();
    assert!(
        matches!(after, Err(ErrorKind::WouldBlock | ErrorKind::TimedOut)),
        "the peer closed: {after:?}"
    );
}

#[test]
fn closed_connections_reconnect_a_second_later() {
    let (addr, conns, _) = server("503 Service Unavailable", true);
    let t = run(
        addr,
        Scenario::IdleFlood,
        3,
        Duration::from_millis(1500),
        &Means::default(),
    )
    .unwrap();
    // Three at once, three again after RECONNECT_AFTER; no more.
    assert_eq!(t.opened, 6, "{}", t.line());
    assert_eq!(t.statuses.get(&503), Some(&6), "{}", t.line());
    assert_eq!((t.closed_after, t.open_at_end), (6, 0), "{}", t.line());
    assert_eq!(conns.load(Ordering::SeqCst), 6);
}

#[test]
fn resets_reach_the_server_as_resets() {
    let (addr, _, resets) = server("200 OK", false);
    let t = run(
        addr,
        Scenario::Resets,
        3,
        Duration::from_millis(600),
        &Means::default(),
    )
    .unwrap();
    assert!(t.resets_sent >= 3, "{}", t.line());
    thread::sleep(Duration::from_millis(200));
    // Mid-head and mid-body cuts leave the server reading: it sees RST.
    assert!(resets.load(Ordering::SeqCst) >= 2, "{}", t.line());
}

#[test]
fn a_slowloris_sends_its_head_a_byte_at_a_time() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let reader = thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 64];
        while let Ok(n) = s.read(&mut buf) {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        got
    });
    let t = run(
        addr,
        Scenario::Slowloris,
        1,
        Duration::from_millis(2500),
        &Means::default(),
    )
    .unwrap();
    let got = reader.join().unwrap();
    assert_eq!(t.opened, 1);
    // Two or three bytes in 2.5 s, the start of the head.
    assert!((2..=3).contains(&got.len()), "{got:?}");
    assert!(SLOW_HEAD.starts_with(&got));
}

fn tls(hello: &[u8]) -> Means {
    Means {
        hello: hello.to_vec(),
        ..Means::default()
    }
}

/// A server that reads what each connection sends, answers the first
/// read with a TLS-looking record when `answer`, and returns what it
/// read from each connection once the peer is gone.
fn tls_server(answer: bool) -> (SocketAddr, std::sync::mpsc::Receiver<Vec<u8>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    thread::spawn(move || {
        for s in l.incoming().take(50) {
            let Ok(mut s) = s else { continue };
            let tx = tx.clone();
            thread::spawn(move || {
                s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
                let mut got = Vec::new();
                let mut buf = [0u8; 4096];
                while let Ok(n) = s.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if got.is_empty() && answer {
                        let _ = s.write_all(&[22, 3, 3, 0, 1, 2]);
                    }
                    got.extend_from_slice(&buf[..n]);
                }
                let _ = tx.send(got);
            });
        }
    });
    (addr, rx)
}

#[test]
fn a_hello_flood_sends_whole_hellos_and_reconnects_once_answered() {
    let hello: Vec<u8> = (0..600u32).map(|i| i as u8).collect();
    let (addr, rx) = tls_server(true);
    let t = run(
        addr,
        Scenario::TlsHelloFlood,
        2,
        Duration::from_millis(500),
        &tls(&hello),
    )
    .unwrap();
    assert!(t.handshakes_answered >= 4, "{}", t.line());
    assert!(t.resets_sent >= 4, "{}", t.line());
    let got = rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert_eq!(got, hello);
}

#[test]
fn a_partial_hello_sends_half_and_a_silent_socket_nothing() {
    let hello: Vec<u8> = (0..600u32).map(|i| i as u8).collect();
    let (addr, rx) = tls_server(false);
    let t = run(
        addr,
        Scenario::TlsPartialHello,
        1,
        Duration::from_millis(300),
        &tls(&hello),
    )
    .unwrap();
    assert_eq!((t.opened, t.handshakes_answered), (1, 0), "{}", t.line());
    assert_eq!(
        rx.recv_timeout(Duration::from_secs(5)).unwrap(),
        &hello[..300]
    );
    let t = run(
        addr,
        Scenario::TlsSilent,
        1,
        Duration::from_millis(300),
        &tls(&hello),
    )
    .unwrap();
    assert_eq!(t.opened, 1, "{}", t.line());
    assert_eq!(rx.recv_timeout(Duration::from_secs(5)).unwrap(), b"");
}

#[test]
fn the_sockets_come_from_the_source_asked_for() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let peer = thread::spawn(move || l.accept().unwrap().1);
    let means = Means {
        sources: vec![[127, 0, 0, 2].into()],
        ..Means::default()
    };
    run(
        addr,
        Scenario::TlsSilent,
        1,
        Duration::from_millis(200),
        &means,
    )
    .unwrap();
    assert_eq!(
        peer.join().unwrap().ip(),
        std::net::IpAddr::from([127, 0, 0, 2])
    );
}

#[test]
fn stagger_stays_within_the_gap() {
    for seq in 0..2000 {
        assert!(Attack::stagger(seq, SLOW_BODY_GAP) < SLOW_BODY_GAP);
    }
}

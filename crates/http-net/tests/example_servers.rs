//! The example servers as an operator runs them, each as a child process:
//! they stop gracefully on SIGINT and SIGTERM (sent with `kill`): stop
//! accepting, close idle keep-alive connections, let responses in flight
//! finish, and exit 0; `--max-connections` limits them; `echo`'s `/stream`
//! streams a body back as it arrives.

mod support;

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use support::*;

/// Sends `signal` (`INT`, `TERM`) to the example.
fn signal(p: &Proc, signal: &str) {
    let status = Command::new("kill")
        .args(["-s", signal, &p.child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -s {signal} failed");
}

/// Waits at most `limit` for the example to exit; its exit code (`None`
/// when a signal ended it).
fn exit_code(p: &mut Proc, limit: Duration) -> Option<i32> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(st) = p.child.try_wait().expect("wait") {
            return st.code();
        }
        assert!(
            Instant::now() < deadline,
            "the example did not exit within {limit:?} of the signal"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// Waits at most 5 s until connecting to `addr` is refused (the listener is
/// closed).
fn wait_refused(addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
            Err(e) if e.kind() == ErrorKind::ConnectionRefused => return,
            // A connect that raced the listener's close: the kernel queued it,
            // then reset it with the listener; the next one is refused.
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
            Err(e) => panic!("connect failed with {e}, not a refusal"),
            Ok(_) => {}
        }
        assert!(
            Instant::now() < deadline,
            "still accepting 5 s after the signal"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// A keep-alive connection that had one answer and now sits idle.
fn idle_connection(addr: SocketAddr, req: &[u8]) -> TcpStream {
    let mut s = connect(addr);
    let (head, _) = roundtrip(&mut s, req);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    s
}

/// Whether the server closed `s` (end of stream) within 5 s.
fn closed_within_5s(s: &mut TcpStream) -> bool {
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    matches!(s.read(&mut [0u8; 1]), Ok(0))
}

/// The head (up to the blank line) and the rest of what came before close.
fn split_head(got: &[u8]) -> (String, &[u8]) {
    let end = got
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(got.len(), |i| i + 4);
    (
        String::from_utf8_lossy(&got[..end]).into_owned(),
        &got[end..],
    )
}

const BIG: usize = 8_000_000;

#[test]
fn echo_on_sigterm_finishes_an_8_mb_echo_in_flight_and_exits_0() {
    let _heavy = heavy();
    let (mut p, addr) = start_example("echo", &["--format", "probe"]);
    let data = noise(BIG, 3);
    let mut s = connect(addr);
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut r = s.try_clone().unwrap();
    // The response is read while the body is sent (echo answers in pieces).
    let reader = thread::spawn(move || {
        let mut got = Vec::new();
        let mut buf = [0u8; 65536];
        loop {
            match r.read(&mut buf) {
                Ok(0) => return (got, true),
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(_) => return (got, false),
            }
        }
    });
    s.write_all(
        format!("POST /stream HTTP/1.1\r\nHost: a\r\nContent-Length: {BIG}\r\n\r\n").as_bytes(),
    )
    .unwrap();
    s.write_all(&data[..BIG / 8]).unwrap();
    thread::sleep(Duration::from_millis(200));
    signal(&p, "TERM");
    // The server stops accepting while the upload is still in flight.
    wait_refused(addr);
    assert!(
        p.child.try_wait().unwrap().is_none(),
        "the example exited with a request in flight"
    );
    s.write_all(&data[BIG / 8..]).unwrap();
    let (got, closed) = reader.join().unwrap();
    let (head, body) = split_head(&got);
    assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
    // The head left before the signal; the connection closes after the
    // response all the same.
    assert!(closed, "the connection was left open after the response");
    assert_eq!(body.len(), BIG, "{head}");
    assert!(body == &data[..], "the echoed body differs");
    assert_eq!(exit_code(&mut p, Duration::from_secs(10)), Some(0));
}

#[test]
fn echo_closes_an_idle_connection_at_once_on_sigterm_while_a_request_is_in_flight() {
    let (mut p, addr) = start_example("echo", &["--format", "probe"]);
    let mut idle = idle_connection(addr, GET);
    let mut s = connect(addr);
    s.write_all(b"POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello")
        .unwrap();
    thread::sleep(Duration::from_millis(200));
    signal(&p, "TERM");
    assert!(closed_within_5s(&mut idle), "idle connection not closed");
    assert!(
        p.child.try_wait().unwrap().is_none(),
        "the example exited with a request in flight"
    );
    s.write_all(b"world").unwrap();
    let (head, body) = read_response(&mut s);
    assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
    assert_eq!(body, b"helloworld");
    assert_eq!(exit_code(&mut p, Duration::from_secs(10)), Some(0));
}

#[test]
fn hello_exits_0_on_sigint_and_closes_idle_connections() {
    let (mut p, addr) = start_example("hello", &[]);
    let req = b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut idle = idle_connection(addr, req);
    let t0 = Instant::now();
    signal(&p, "INT");
    assert!(closed_within_5s(&mut idle), "idle connection not closed");
    assert_eq!(exit_code(&mut p, Duration::from_secs(10)), Some(0));
    // Well before the 30 s idle timeout.
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    wait_refused(addr);
}

#[test]
fn hello_front_line_flag_refuses_what_the_default_accepts() {
    // A leading zero in Content-Length: the RFC allows it, the front-line
    // profile refuses it (parsers disagree on `05`).
    let req =
        b"POST /plaintext HTTP/1.1\r\nHost: a\r\nContent-Length: 02\r\nConnection: close\r\n\r\nhi";
    let (_p, addr) = start_example("hello", &[]);
    raw_answer(addr, req, 405);
    let (_p, addr) = start_example("hello", &["--front-line"]);
    raw_answer(addr, req, 400);
}

#[test]
fn hello_exits_0_on_sigterm() {
    let (mut p, addr) = start_example("hello", &[]);
    drop(idle_connection(
        addr,
        b"GET /json HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    signal(&p, "TERM");
    assert_eq!(exit_code(&mut p, Duration::from_secs(10)), Some(0));
}

#[test]
fn max_connections_flag_limits_the_examples() {
    // echo: the one slot is held by a running handler reading a body that
    // is not all there but flows well above the minimum body rate (a
    // stalled one would be evictable): a newcomer gets 503. The body
    // follows the head in pieces, so that the handler's own reads take them
    // (bytes that arrive with the head do not count toward the body's
    // rate).
    let (_p, addr) = start_example("echo", &["--format", "probe", "--max-connections", "1"]);
    let mut held = connect(addr);
    held.write_all(b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n")
        .unwrap();
    for _ in 0..5 {
        thread::sleep(Duration::from_millis(30));
        held.write_all(&[b'x'; 4000]).unwrap();
    }
    let mut over = connect(addr);
    let _ = over.write_all(GET);
    let text = String::from_utf8_lossy(&read_to_close(&mut over)).into_owned();
    assert!(text.starts_with("HTTP/1.1 503 "), "echo: {text}");
    // hello's handlers never wait: a head in progress holds the one slot,
    // and the newcomer evicts it (a partial head is evictable at any age)
    // and is served; with the default limit nothing is evicted.
    let req = b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n";
    for (args, evicted) in [(&["--max-connections", "1"][..], true), (&[][..], false)] {
        let (_p, addr) = start_example("hello", args);
        let mut held = connect(addr);
        held.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n").unwrap();
        thread::sleep(Duration::from_millis(100));
        let mut s = connect(addr);
        let (head, _) = roundtrip(&mut s, req);
        assert!(head.starts_with("HTTP/1.1 200 "), "hello {args:?}: {head}");
        held.set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
        let mut buf = [0u8; 256];
        let closed = match held.read(&mut buf) {
            Ok(_) => true,
            Err(e) => !matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
        };
        assert_eq!(closed, evicted, "hello {args:?}: the head in progress");
    }
}

/// The listen backlog of `addr`'s listening socket, as `ss` reports it
/// (its Send-Q column for a socket in LISTEN).
fn listen_backlog(addr: SocketAddr) -> u32 {
    let out = Command::new("ss")
        .args(["-ltnH", &format!("sport = :{}", addr.port())])
        .output()
        .expect("run ss");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text
        .lines()
        .next()
        .unwrap_or_else(|| panic!("ss: no listener on {addr}: {text:?}"));
    // State, Recv-Q (connections waiting to be accepted), Send-Q (the backlog).
    line.split_whitespace()
        .nth(2)
        .and_then(|q| q.parse().ok())
        .unwrap_or_else(|| panic!("ss: cannot read the backlog of {line:?}"))
}

#[test]
fn hello_and_echo_listen_with_a_backlog_of_1024_not_std_s_128() {
    if !have("ss") {
        return;
    }
    for (name, args) in [("hello", &[][..]), ("echo", &["--format", "probe"][..])] {
        let (_p, addr) = start_example(name, args);
        assert_eq!(listen_backlog(addr), 1024, "{name}");
    }
}

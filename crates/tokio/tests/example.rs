//! The `hello_tokio` example as a user runs it: started with `--addr
//! 127.0.0.1:0`, its routes fetched, then SIGTERM (and SIGINT) and exit 0.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{connect, example_binary, roundtrip, status_of};

fn start() -> (Child, SocketAddr) {
    let mut child = Command::new(example_binary())
        .args(["--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start hello_tokio");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("{line:?}"))
        .parse()
        .unwrap();
    (child, addr)
}

fn signal_and_wait(mut child: Child, sig: &str) -> std::process::ExitStatus {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let t = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if t.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("hello_tokio did not stop on {sig}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn serves_the_three_routes_and_stops_on_sigterm() {
    let (child, addr) = start();
    let get = |path: &str| {
        let req = format!("GET {path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        roundtrip(addr, req.as_bytes()).unwrap()
    };
    let r = get("/plaintext");
    assert_eq!((r.status, &r.body[..]), (200, &b"Hello, World!"[..]));
    assert_eq!(r.field("content-type"), Some("text/plain"));
    assert_eq!(r.field("server"), Some("http-net"));
    assert_eq!(r.field("date").map(str::len), Some(29));
    let r = get("/json");
    assert_eq!(&r.body[..], br#"{"message":"Hello, World!"}"#);
    assert_eq!(r.field("content-type"), Some("application/json"));
    let r = get("/");
    assert!(r.body.starts_with(b"<!DOCTYPE html>"));
    assert_eq!(get("/nope").status, 404);
    let r = roundtrip(
        addr,
        b"POST /json HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
    )
    .unwrap();
    assert_eq!((r.status, r.field("allow")), (405, Some("GET, HEAD")));
    // The server's own error responses carry Server and Date too.
    let r = roundtrip(addr, b"GET / HTTP/1.1\r\n\r\n").unwrap();
    assert_eq!((r.status, r.field("server")), (400, Some("http-net")));
    // A keep-alive connection open at the signal does not hold the exit up.
    let mut idle = connect(addr);
    assert_eq!(
        status_of(&mut idle, b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n"),
        200
    );
    let status = signal_and_wait(child, "-TERM");
    assert_eq!(status.code(), Some(0), "{status:?}");
}

#[test]
fn stops_on_sigint() {
    let (child, addr) = start();
    assert_eq!(
        roundtrip(addr, b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n")
            .unwrap()
            .status,
        200
    );
    let status = signal_and_wait(child, "-INT");
    assert_eq!(status.code(), Some(0), "{status:?}");
}

//! The `hello_tokio` example as a user runs it: started with `--addr
//! 127.0.0.1:0`, its routes fetched, then SIGTERM (and SIGINT) and exit 0;
//! `--front-line` on it. `echo_tokio` as a conformance origin (garden
//! format, SIGTERM; its probe format is tested against `echo`'s in
//! `crates/http-net/tests/conformance_origin.rs` and
//! `xtask/src/proxies/same_answers.rs`).
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{connect, example_binary, roundtrip, status_of};

/// The example `name` of this package: beside `hello_tokio` (which
/// `example_binary` finds, or builds), or built beside it.
fn example(name: &str) -> std::path::PathBuf {
    let hello = example_binary();
    let path = hello.with_file_name(name);
    if !path.exists() {
        // `example_binary` built into `target/tokio-examples/<profile>`.
        let profile = hello.parent().and_then(|d| d.parent()).unwrap();
        let target = profile.parent().unwrap();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "-q", "-p", "http-net-tokio", "--example", name]);
        if profile.file_name() == Some(std::ffi::OsStr::new("release")) {
            build.arg("--release");
        }
        let status = build.arg("--target-dir").arg(target).status().unwrap();
        assert!(status.success(), "building {name}");
    }
    path
}

fn start() -> (Child, SocketAddr) {
    start_with("hello_tokio", &[])
}

/// Starts the example `name` with `args` on a free port.
fn start_with(name: &str, args: &[&str]) -> (Child, SocketAddr) {
    let mut child = Command::new(example(name))
        .args(["--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {name}: {e}"));
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
            panic!("the example did not stop on {sig}");
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

#[test]
fn front_line_flag_refuses_what_the_default_accepts() {
    // A leading zero in Content-Length: the RFC allows it, the front-line
    // profile refuses it (parsers disagree on `05`).
    let req =
        b"POST /plaintext HTTP/1.1\r\nHost: a\r\nContent-Length: 02\r\nConnection: close\r\n\r\nhi";
    let (child, addr) = start();
    assert_eq!(roundtrip(addr, req).unwrap().status, 405);
    let _ = signal_and_wait(child, "-TERM");
    let (child, addr) = start_with("hello_tokio", &["--front-line"]);
    assert_eq!(roundtrip(addr, req).unwrap().status, 400);
    let _ = signal_and_wait(child, "-TERM");
}

#[test]
fn echo_tokio_garden_echoes_a_request_and_stops_on_sigterm() {
    let (child, addr) = start_with("echo_tokio", &["--format", "garden"]);
    let r = roundtrip(
        addr,
        b"POST /a?b HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi",
    )
    .unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.field("content-type"), Some("application/json"));
    // base64: POST, 1.1, /a?b, Host h, Content-Length 2, Connection close, hi.
    let want = concat!(
        r#"{"method":"UE9TVA==","version":"MS4x","uri":"L2E/Yg==","headers":["#,
        r#"["SG9zdA==","aA=="],["Q29udGVudC1MZW5ndGg=","Mg=="],["Q29ubmVjdGlvbg==","Y2xvc2U="]],"#,
        r#""body":"aGk="}"#
    );
    assert_eq!(String::from_utf8_lossy(&r.body), want);
    let status = signal_and_wait(child, "-TERM");
    assert_eq!(status.code(), Some(0), "{status:?}");
}

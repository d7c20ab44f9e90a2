//! The conformance origin's probe format answers after the body, on both
//! servers: `echo` (std) and `echo_tokio` (`http-net-tokio`), each started as
//! a child process with a short `--body-timeout`. A body that never ends
//! gets `408` and a close (or a close without a response) at the body
//! timeout, a body with a framing error gets `400` and a close, and in
//! neither case does a `200` come first; a body over 1 MiB gets `413`. The
//! streaming echo at `/stream` answers early, by design.
//!
//! The four cases of Http11Probe's suite that `echo` once failed
//! (`COMP-POST-CL-UNDERSEND`, `COMP-CHUNKED-NO-FINAL`,
//! `SMUG-CHUNK-MISSING-TRAILING-CRLF`, `SMUG-CHUNK-SPILL`) are written here
//! in our own bytes.
// The examples are started by path without an `.exe`, as the other
// example tests do.
#![cfg(unix)]

mod support;

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use support::{connect, noise, read_to_close, run, succeeded, Proc};

/// The body timeout both servers run with here, in seconds.
const BODY_TIMEOUT: f64 = 1.0;

/// The `echo_tokio` example binary: beside this test's when `cargo test
/// --workspace` built it, else built here in a target directory of its own
/// (this test's is locked by the running `cargo test`).
fn echo_tokio() -> PathBuf {
    static BUILD: Mutex<()> = Mutex::new(());
    let exe = std::env::current_exe().expect("current_exe");
    let profile = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("profile dir")
        .to_path_buf();
    let path = profile.join("examples").join("echo_tokio");
    if path.exists() {
        return path;
    }
    let _g = BUILD.lock();
    let target = profile.parent().expect("target dir").join("peer-examples");
    let built = target.join("debug").join("examples").join("echo_tokio");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    succeeded(
        "building example echo_tokio",
        run(
            Command::new(cargo)
                .args([
                    "build",
                    "-p",
                    "http-net-tokio",
                    "--example",
                    "echo_tokio",
                    "--target-dir",
                ])
                .arg(&target),
            Duration::from_secs(600),
        ),
    );
    built
}

/// Starts `server` (`echo` or `echo_tokio`) with `--format probe`, the short
/// body timeout and `args`, on a free port.
fn start(server: &str, args: &[&str]) -> (Proc, SocketAddr) {
    let bin = match server {
        "echo" => support::example("echo"),
        _ => echo_tokio(),
    };
    let timeout = BODY_TIMEOUT.to_string();
    let mut child = Command::new(bin)
        .args(["--addr", "127.0.0.1:0", "--format", "probe"])
        .args(["--body-timeout", &timeout])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the example");
    let stdout = child.stdout.take().expect("stdout");
    let proc = Proc { child };
    let (tx, rx) = std::sync::mpsc::channel();
    thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{server} did not print its address"));
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("{server}: unexpected first line {line:?}"))
        .parse()
        .expect("address");
    (proc, addr)
}

/// Sends `req` on a new connection, sends nothing more, and reads until the
/// server closes (at most 10 s); what came and how long it took.
fn exchange(addr: SocketAddr, req: &[u8]) -> (Vec<u8>, Duration) {
    let mut s = connect(addr);
    let t0 = Instant::now();
    // A server that answers and closes early may refuse the rest.
    let _ = s.write_all(req);
    let got = read_to_close(&mut s);
    (got, t0.elapsed())
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `got` is one response of `status` with `Connection: close`, and nothing
/// else (no `200` before it, nothing after it).
fn assert_only(server: &str, case: &str, got: &[u8], status: u16) {
    let t = text(got);
    assert!(
        t.starts_with(&format!("HTTP/1.1 {status} ")),
        "{server} {case}: not {status} first: {t:?}"
    );
    assert_eq!(
        t.matches("HTTP/1.1 ").count(),
        1,
        "{server} {case}: more than one response: {t:?}"
    );
    assert!(
        t.contains("\r\nConnection: close\r\n"),
        "{server} {case}: no Connection: close: {t:?}"
    );
}

/// A body that never ends: `408` then a close, or a close without any
/// response, and only once the body timeout has passed.
fn assert_timed_out(server: &str, case: &str, got: &[u8], took: Duration) {
    if !got.is_empty() {
        assert_only(server, case, got, 408);
    }
    let timeout = Duration::from_secs_f64(BODY_TIMEOUT);
    assert!(
        took >= timeout - Duration::from_millis(100),
        "{server} {case}: closed after {took:?}, before the body timeout"
    );
    assert!(
        took < timeout + Duration::from_secs(5),
        "{server} {case}: closed after {took:?}, long after the body timeout"
    );
}

/// `COMP-POST-CL-UNDERSEND`: `Content-Length: 10`, 5 bytes, then nothing.
fn post_cl_undersend(server: &str) {
    let (_p, addr) = start(server, &[]);
    let (got, took) = exchange(
        addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello",
    );
    assert_timed_out(server, "CL undersend", &got, took);
}

/// `COMP-CHUNKED-NO-FINAL`: a chunked body without its last chunk.
fn chunked_no_final(server: &str) {
    let (_p, addr) = start(server, &[]);
    let (got, took) = exchange(
        addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
    );
    assert_timed_out(server, "chunked, no last chunk", &got, took);
}

/// `SMUG-CHUNK-MISSING-TRAILING-CRLF`: a chunk's data not followed by CR LF.
fn chunk_missing_trailing_crlf(server: &str) {
    let (_p, addr) = start(server, &[]);
    let (got, _) = exchange(
        addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello0\r\n\r\n",
    );
    assert_only(server, "chunk without CR LF", &got, 400);
}

/// `SMUG-CHUNK-SPILL`: a chunk with more data than its size says.
fn chunk_spill(server: &str) {
    let (_p, addr) = start(server, &[]);
    let (got, _) = exchange(
        addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello world\r\n0\r\n\r\n",
    );
    assert_only(server, "chunk spill", &got, 400);
}

/// A whole body comes back, after it has all arrived, with its length; a
/// chunked one too (as a `Content-Length` body).
fn echoes_a_whole_body(server: &str) {
    let (_p, addr) = start(server, &[]);
    let mut s = connect(addr);
    s.write_all(b"POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello")
        .unwrap();
    // Nothing is answered while the body is incomplete.
    s.set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let mut byte = [0u8; 1];
    assert!(
        s.read(&mut byte).is_err(),
        "{server}: answered before the body was whole"
    );
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(b"world").unwrap();
    let (head, body) = support::read_response(&mut s);
    assert!(head.starts_with("HTTP/1.1 200 "), "{server}: {head}");
    assert!(
        head.contains("\r\nContent-Length: 10\r\n"),
        "{server}: {head}"
    );
    assert_eq!(body, b"helloworld", "{server}");
    let (head, body) = support::roundtrip(
        &mut s,
        b"PUT /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
    );
    assert!(head.starts_with("HTTP/1.1 200 "), "{server}: {head}");
    assert!(
        head.contains("\r\nContent-Length: 5\r\n"),
        "{server}: {head}"
    );
    assert_eq!(body, b"abcde", "{server}");
}

/// Over 1 MiB: `413`, whether declared or found while reading a chunked
/// body; exactly 1 MiB is echoed.
fn refuses_a_body_over_1_mib(server: &str) {
    let (_p, addr) = start(server, &[]);
    let (got, _) = exchange(
        addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n",
    );
    assert_only(server, "declared 1 MiB + 1", &got, 413);

    let mut s = connect(addr);
    s.write_all(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
        .unwrap();
    let piece = vec![b'x'; 64 * 1024];
    let mut sent = 0;
    // 17 chunks of 64 KiB: the 17th passes the limit. A server that has
    // answered and closed may refuse the rest of the writes.
    for _ in 0..17 {
        if s.write_all(format!("{:x}\r\n", piece.len()).as_bytes())
            .and_then(|()| s.write_all(&piece))
            .and_then(|()| s.write_all(b"\r\n"))
            .is_err()
        {
            break;
        }
        sent += piece.len();
    }
    assert!(sent > 1024 * 1024 - piece.len(), "{server}: sent {sent}");
    let got = read_to_close(&mut s);
    assert_only(server, "chunked past 1 MiB", &got, 413);

    let data = noise(1024 * 1024, 5);
    let mut s = connect(addr);
    let reader = {
        let mut r = s.try_clone().unwrap();
        thread::spawn(move || support::read_response(&mut r))
    };
    s.write_all(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048576\r\n\r\n")
        .unwrap();
    s.write_all(&data).unwrap();
    let (head, body) = reader.join().unwrap();
    assert!(head.starts_with("HTTP/1.1 200 "), "{server}: {head}");
    assert!(body == data, "{server}: the echoed 1 MiB differs");
}

/// `/stream` echoes a body piece by piece as it arrives: the head and the
/// first piece come back before the rest is sent (it answers early by
/// design, and a body over 1 MiB is fine there).
fn stream_answers_early(server: &str) {
    let (_p, addr) = start(server, &[]);
    let data = noise(2_000_000, 9);
    let first = 100_000;
    let mut s = connect(addr);
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(b"POST /stream HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\n")
        .unwrap();
    s.write_all(&data[..first]).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 65536];
    let body_start = loop {
        let n = s.read(&mut buf).unwrap_or_else(|e| {
            panic!(
                "{server}: nothing echoed before the whole body was sent ({} bytes back): {e}",
                got.len()
            )
        });
        assert!(n > 0, "{server}: closed early");
        got.extend_from_slice(&buf[..n]);
        if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            if got.len() - (i + 4) >= first {
                break i + 4;
            }
        }
    };
    let head = text(&got[..body_start]);
    assert!(head.starts_with("HTTP/1.1 200 "), "{server}: {head}");
    assert!(
        head.contains("\r\nContent-Length: 2000000\r\n"),
        "{server}: {head}"
    );
    let mut w = s.try_clone().unwrap();
    let rest = data[first..].to_vec();
    let writer = thread::spawn(move || w.write_all(&rest));
    while got.len() - body_start < data.len() {
        let n = s.read(&mut buf).expect("the rest of the echo");
        assert!(n > 0, "{server}: closed early");
        got.extend_from_slice(&buf[..n]);
    }
    writer.join().unwrap().unwrap();
    assert!(got[body_start..] == data[..], "{server}: the echo differs");
}

/// `--front-line` turns the front-line profile on: a `Content-Length` with
/// a leading zero is refused with it, echoed without it.
fn front_line_flag(server: &str) {
    let req = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 02\r\nConnection: close\r\n\r\nhi";
    let (_p, addr) = start(server, &[]);
    let (got, _) = exchange(addr, req);
    assert!(text(&got).starts_with("HTTP/1.1 200 "), "{}", text(&got));
    let (_p, addr) = start(server, &["--front-line"]);
    let (got, _) = exchange(addr, req);
    assert_only(server, "front line, CL 02", &got, 400);
}

/// Http11Probe's `MAL-LONG-METHOD`: a 100,000-byte method gets `501` (RFC
/// 9112 §3; the suite accepts only `400`, see docs/CONFORMANCE.md) and a
/// close, at the first byte over the method limit.
fn long_method_is_501(server: &str) {
    let (_p, addr) = start(server, &[]);
    let mut req = vec![b'A'; 100_000];
    req.extend_from_slice(b" / HTTP/1.1\r\nHost: a\r\n\r\n");
    let (got, _) = exchange(addr, &req);
    assert_only(server, "100,000-byte method", &got, 501);
}

/// The cases for both servers, `echo_` and `echo_tokio_` tests of each.
macro_rules! both {
    ($($case:ident),* $(,)?) => {
        mod std_echo {
            $(#[test] fn $case() { super::$case("echo") })*
        }
        mod tokio_echo {
            $(#[test] fn $case() { super::$case("echo_tokio") })*
        }
    };
}

both!(
    post_cl_undersend,
    chunked_no_final,
    chunk_missing_trailing_crlf,
    chunk_spill,
    echoes_a_whole_body,
    refuses_a_body_over_1_mib,
    stream_answers_early,
    front_line_flag,
    long_method_is_501,
);

//! The two conformance origins answer alike: `echo` (the std server) and
//! `echo_tokio` (`http-net-tokio`'s), each started as a child process with
//! the same flags (every other setting is fixed in the examples, with the
//! same values), get every request of the conformance origin set, the
//! corpus of `cargo xtask proxies` (the request rows of the head and
//! framing conformance tables, the security rows, the proxy cases) and a
//! few cases of the probe contract, in both formats (`garden`, `probe`).
//!
//! Each request goes whole on a fresh connection, which is then half-closed,
//! and everything up to the server's close is compared, `Date` values aside.
//! A difference caused by adapter code is listed in [`KNOWN`] with its
//! reason (the redesign "One surface, two I/O styles" removes them); any
//! other difference fails the test, and so does a known one that no longer
//! shows (the list must stay true).

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::corpus;

/// The flags both servers get besides `--format`.
const FLAGS: &[&str] = &["--body-timeout", "2", "--max-connections", "64"];

/// Known differences: (format, payload name, reason).
const KNOWN: &[(&str, &str, &str)] = &[];

/// A child process killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(bin: &Path, format: &str) -> Server {
    let mut child = Command::new(bin)
        .args(["--addr", "127.0.0.1:0", "--format", format])
        .args(FLAGS)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start {}: {e}", bin.display()));
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.parse().ok());
    match addr {
        Some(addr) => Server { child, addr },
        None => {
            let _ = child.kill();
            panic!("{} printed {line:?}", bin.display());
        }
    }
}

/// What the server sent back to `req` on a fresh connection half-closed
/// after it, up to its close (at most 10 s), with every `Date` value
/// blanked; `[timed out]` at the end when it did not close.
fn answer(addr: SocketAddr, req: &[u8]) -> Vec<u8> {
    let mut s = match TcpStream::connect_timeout(&addr, Duration::from_secs(5)) {
        Ok(s) => s,
        Err(e) => return format!("[cannot connect: {e}]").into_bytes(),
    };
    let _ = s.set_write_timeout(Some(Duration::from_secs(5)));
    let _ = s.set_read_timeout(Some(Duration::from_millis(200)));
    // A server that answers and closes before taking all of it may refuse
    // the rest: what it sent is still read.
    let _ = s.write_all(req);
    let _ = s.shutdown(Shutdown::Write);
    let mut got = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let t0 = Instant::now();
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                if t0.elapsed() > Duration::from_secs(10) {
                    got.extend_from_slice(b"[timed out]");
                    break;
                }
            }
            // A reset after the answer: the answer is what counts.
            Err(_) => {
                got.extend_from_slice(b"[reset]");
                break;
            }
        }
    }
    blank_dates(&got)
}

/// What the server sent back to `req` on a fresh connection left open
/// after it: up to its close, or 300 ms of quiet after a byte, or 4 s
/// without one (twice the body timeout), with every `Date` value blanked.
fn answer_held(addr: SocketAddr, req: &[u8]) -> Vec<u8> {
    let mut s = match TcpStream::connect_timeout(&addr, Duration::from_secs(5)) {
        Ok(s) => s,
        Err(e) => return format!("[cannot connect: {e}]").into_bytes(),
    };
    let _ = s.set_write_timeout(Some(Duration::from_secs(5)));
    let _ = s.set_read_timeout(Some(Duration::from_millis(20)));
    let _ = s.write_all(req);
    let mut got = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let t0 = Instant::now();
    let mut last = Instant::now();
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                got.extend_from_slice(&buf[..n]);
                last = Instant::now();
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                let quiet = if got.is_empty() {
                    t0.elapsed() > Duration::from_secs(4)
                } else {
                    last.elapsed() > Duration::from_millis(300)
                };
                if quiet {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    blank_dates(&got)
}

/// `bytes` with the value of every `Date:` line replaced by `-`.
fn blank_dates(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(i) = find(rest, b"\r\nDate: ") {
        out.extend_from_slice(&rest[..i + 8]);
        out.push(b'-');
        rest = &rest[i + 8..];
        match find(rest, b"\r\n") {
            Some(j) => rest = &rest[j..],
            None => rest = &[],
        }
    }
    out.extend_from_slice(rest);
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn show(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(400)];
    let mut s: String = cut
        .iter()
        .flat_map(|&b| std::ascii::escape_default(b).map(char::from))
        .collect();
    if bytes.len() > cut.len() {
        s.push_str("...");
    }
    s
}

/// The example binaries, beside this test's (`cargo test --workspace`
/// builds them), else built in a target directory of their own.
fn examples() -> (PathBuf, PathBuf) {
    let exe = std::env::current_exe().expect("current_exe");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("profile dir")
        .to_path_buf();
    let here = (
        profile.join("examples/echo"),
        profile.join("examples/echo_tokio"),
    );
    if here.0.exists() && here.1.exists() {
        return here;
    }
    let target = profile.parent().expect("target").join("origin-examples");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(crate::process::root())
        .args([
            "build",
            "-q",
            "-p",
            "http-net",
            "--example",
            "echo",
            "-p",
            "http-net-tokio",
            "--example",
            "echo_tokio",
            "--target-dir",
        ])
        .arg(&target)
        .status()
        .expect("run cargo build");
    assert!(status.success(), "building the echo examples");
    (
        target.join("debug/examples/echo"),
        target.join("debug/examples/echo_tokio"),
    )
}

/// The probe contract's own cases (paths, `Expect`, the body rules).
fn probe_cases() -> Vec<(String, Vec<u8>)> {
    let cases: &[(&str, &[u8])] = &[
        ("probe/echo-fields", b"GET /echo HTTP/1.1\r\nHost: a\r\nX-A:  b \r\n\r\n"),
        ("probe/ok", b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("probe/post-empty", b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"),
        ("probe/cl-undersend", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello"),
        ("probe/chunked-no-final", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"),
        ("probe/chunk-no-crlf", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello0\r\n\r\n"),
        ("probe/chunk-spill", b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello world\r\n0\r\n\r\n"),
        ("probe/over-1-mib", b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n"),
        ("probe/expect-100", b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi"),
        ("probe/stream", b"POST /stream HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"),
        ("probe/stream-chunked", b"POST /stream HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"),
        ("probe/stream-spill", b"POST /stream HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello world\r\n0\r\n\r\n"),
        ("probe/http10", b"POST /x HTTP/1.0\r\nContent-Length: 2\r\n\r\nhi"),
    ];
    cases
        .iter()
        .map(|(n, b)| ((*n).to_string(), b.to_vec()))
        .collect()
}

/// Every difference between the two servers' answers, one line each:
/// (format, case name, description).
fn differences() -> Vec<(String, String, String)> {
    let (echo, echo_tokio) = examples();
    let mut cases: Vec<(String, Vec<u8>)> = corpus::all()
        .into_iter()
        .map(|p| (p.name, p.bytes))
        .collect();
    cases.extend(probe_cases());
    let mut out = Vec::new();
    let mut statuses = std::collections::BTreeMap::new();
    for format in ["garden", "probe"] {
        let a = start(&echo, format);
        let b = start(&echo_tokio, format);
        // The two servers answer at once, on two threads.
        let answers: Vec<(Vec<u8>, Vec<u8>)> = std::thread::scope(|s| {
            let ta = s.spawn(|| {
                cases
                    .iter()
                    .map(|(_, r)| answer(a.addr, r))
                    .collect::<Vec<_>>()
            });
            let tb = s.spawn(|| {
                cases
                    .iter()
                    .map(|(_, r)| answer(b.addr, r))
                    .collect::<Vec<_>>()
            });
            let (ra, rb) = (ta.join().unwrap(), tb.join().unwrap());
            ra.into_iter().zip(rb).collect()
        });
        // The probe contract's cases again on connections left open (no
        // half-close: a stalled body meets the body timeout), each on its
        // own thread.
        let probes = probe_cases();
        let held: Vec<(Vec<u8>, Vec<u8>)> = std::thread::scope(|s| {
            let threads: Vec<_> = probes
                .iter()
                .map(|(_, r)| {
                    s.spawn(|| {
                        let (ta, tb) = std::thread::scope(|s2| {
                            let ta = s2.spawn(|| answer_held(a.addr, r));
                            let tb = s2.spawn(|| answer_held(b.addr, r));
                            (ta.join().unwrap(), tb.join().unwrap())
                        });
                        (ta, tb)
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        for ((name, _), (x, y)) in probes.iter().zip(held) {
            if x != y {
                out.push((
                    format.to_string(),
                    format!("{name} (held open)"),
                    format!("echo: {}\n    echo_tokio: {}", show(&x), show(&y)),
                ));
            }
        }
        for ((name, _), (x, y)) in cases.iter().zip(answers) {
            *statuses
                .entry(String::from_utf8_lossy(&x[..x.len().min(12)]).into_owned())
                .or_insert(0usize) += 1;
            if x != y {
                out.push((
                    format.to_string(),
                    name.clone(),
                    format!("echo: {}\n    echo_tokio: {}", show(&x), show(&y)),
                ));
            }
        }
    }
    // Enough of the set reaches the handler and is answered: a server that
    // answered nothing would make the comparison empty.
    eprintln!("same answers: the answers' first bytes: {statuses:?}");
    assert!(
        statuses.get("HTTP/1.1 200").copied().unwrap_or(0) > 300,
        "{statuses:?}"
    );
    out
}

#[test]
fn echo_and_echo_tokio_answer_every_request_of_the_origin_set_alike() {
    let found = differences();
    let mut problems = Vec::new();
    for (format, name, what) in &found {
        if !KNOWN.iter().any(|(f, n, _)| f == format && n == name) {
            problems.push(format!("{format} {name}:\n    {what}"));
        }
    }
    for (f, n, why) in KNOWN {
        if !found
            .iter()
            .any(|(format, name, _)| format == f && name == n)
        {
            problems.push(format!("known difference {f} {n} ({why}) no longer shows"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn date_values_are_blanked_and_nothing_else() {
    assert_eq!(
        blank_dates(b"HTTP/1.1 200 OK\r\nDate: Sun, 06 Dec 2026 00:46:42 GMT\r\nX: 1\r\n\r\nok"),
        b"HTTP/1.1 200 OK\r\nDate: -\r\nX: 1\r\n\r\nok".to_vec()
    );
    assert_eq!(
        blank_dates(b"HTTP/1.1 200 OK\r\nDate: x"),
        b"HTTP/1.1 200 OK\r\nDate: -".to_vec()
    );
}

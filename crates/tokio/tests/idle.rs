//! 10,000 idle keep-alive connections held open by this process against the
//! `hello_tokio` example (a separate process), while a normal client makes
//! 200 requests on new connections: its p99 must stay under 50 ms, and the
//! server's resident memory per idle connection is printed:
//! (VmRSS after − VmRSS before) / 10,000, from `/proc/<pid>/status`.
//!
//! Too heavy for `cargo test` (20,000 descriptors, about 10 s); run it with
//! a raised open-file limit, in release for the memory figure:
//!
//! ```text
//! sh -c 'ulimit -n 20000; exec cargo test --release -p http-net-tokio --test idle -- --ignored --nocapture'
//! ```
#![cfg(target_os = "linux")]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{example_binary, read_response};

const IDLE: usize = 10_000;

fn vm_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

fn fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

/// One request on a new connection, timed from connect to last byte.
fn timed_get(addr: SocketAddr) -> Duration {
    let t = Instant::now();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(b"GET /plaintext HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        .unwrap();
    let r = read_response(&mut s, &mut Vec::new(), false).unwrap();
    assert_eq!(r.status, 200);
    t.elapsed()
}

#[test]
#[ignore = "20,000 descriptors: run with `ulimit -n 20000` (see the module doc)"]
fn ten_thousand_idle_keep_alive_connections_and_a_normal_client() {
    let mut child = Command::new(example_binary())
        .args(["--addr", "127.0.0.1:0", "--max-connections", "12000"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start hello_tokio");
    let pid = child.id();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: SocketAddr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("{line:?}"))
        .parse()
        .unwrap();
    // Warm up: the runtime, the timer wheel, the date cache.
    for _ in 0..20 {
        timed_get(addr);
    }
    std::thread::sleep(Duration::from_millis(200));
    let before = vm_rss_kib(pid);
    let t = Instant::now();
    let mut idle = Vec::with_capacity(IDLE);
    let mut rest = Vec::new();
    for i in 0..IDLE {
        let mut s = TcpStream::connect(addr)
            .unwrap_or_else(|e| panic!("connection {i}: {e} (raise `ulimit -n`)"));
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n")
            .unwrap();
        let r = read_response(&mut s, &mut rest, false).unwrap();
        assert_eq!(r.status, 200, "connection {i}");
        idle.push(s);
    }
    let opened = t.elapsed();
    std::thread::sleep(Duration::from_millis(500));
    let after = vm_rss_kib(pid);
    let server_fds = fds(pid);
    assert!(
        server_fds >= IDLE,
        "the server holds {server_fds} descriptors"
    );
    let mut lat: Vec<Duration> = (0..200)
        .map(|_| {
            let d = timed_get(addr);
            std::thread::sleep(Duration::from_millis(10));
            d
        })
        .collect();
    lat.sort_unstable();
    let p50 = lat[lat.len() / 2];
    let p99 = lat[lat.len() * 99 / 100];
    // The idle ones are still served (keep-alive), and none was dropped.
    for s in idle.iter_mut().step_by(1000) {
        s.write_all(b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n")
            .unwrap();
        assert_eq!(read_response(s, &mut rest, false).unwrap().status, 200);
    }
    let per = (after.saturating_sub(before)) as f64 * 1024.0 / IDLE as f64;
    println!(
        "{IDLE} idle connections opened in {opened:?}; server VmRSS {before} KiB before, {after} KiB after: {per:.0} bytes ({:.2} KiB) per idle connection; {server_fds} descriptors; normal client p50 {p50:?} p99 {p99:?}",
        per / 1024.0
    );
    drop(idle);
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(p99 < Duration::from_millis(50), "p99 {p99:?}");
}

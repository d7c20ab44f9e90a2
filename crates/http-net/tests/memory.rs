//! The memory an idle keep-alive connection costs the server: 1,000 of them,
//! measured as the growth of this process's resident set (VmRSS).
//! Alone in its test binary so that no other test moves the figure.

mod support;

use http_net::conn::ServerOptions;
use std::net::TcpStream;
use std::thread;
use std::time::Duration;

use http_net::blocking::{Error, Exchange, Server};
use support::*;

/// The soft and hard limits on open files.
fn nofile() -> (u64, u64) {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .and_then(|l| {
            let mut v = l
                .split_whitespace()
                .skip(3)
                .map(|x| x.parse::<u64>().unwrap_or(u64::MAX));
            Some((v.next()?, v.next()?))
        })
        .unwrap_or((u64::MAX, u64::MAX))
}

#[test]
fn thousand_idle_connections_fit_a_bounded_figure() {
    let n = 1000;
    // Client sockets, server sockets and the server's interrupt handles.
    let need = 3 * n as u64 + 200;
    if nofile().0 < need {
        let hard = nofile().1;
        let _ = std::process::Command::new("prlimit")
            .arg(format!("--pid={}", std::process::id()))
            .arg(format!("--nofile={hard}:{hard}"))
            .status();
        if nofile().0 < need {
            assert!(
                std::env::var("HTTP_NET_REQUIRE_PEERS").as_deref() != Ok("1"),
                "need {need} open files, the limit is {:?}",
                nofile()
            );
            eprintln!(
                "note: skipping: need {need} open files, the limit is {:?}",
                nofile()
            );
            return;
        }
    }
    let mut srv = Running::start(
        Server::builder()
            .max_connections(n + 24)
            .idle_timeout(Duration::from_secs(120)),
        |ex: &mut Exchange<'_>| -> Result<(), Error> { ex.respond_with(200, &[], b"ok") },
    );
    let addr = srv.addr;
    // Warm up: one connection through its whole life.
    {
        let mut s = connect(addr);
        let _ = roundtrip(&mut s, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    }
    thread::sleep(Duration::from_millis(200));
    let before = rss();
    let mut conns: Vec<TcpStream> = Vec::with_capacity(n);
    for _ in 0..n {
        let mut s = connect(addr);
        let (head, _) = roundtrip(&mut s, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        conns.push(s);
    }
    thread::sleep(Duration::from_millis(500));
    let after = rss();
    let per_conn = after.saturating_sub(before) / n as u64;
    let threads = std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("Threads:").map(|v| v.trim().to_string()))
        .unwrap_or_default();
    eprintln!(
        "{n} idle connections: VmRSS {before} -> {after} bytes, {per_conn} bytes per connection, {threads} threads"
    );
    assert!(
        per_conn < 256 * 1024,
        "{per_conn} bytes per idle connection"
    );
    // Graceful shutdown closes all of them promptly (`serve` returns Ok
    // within 20 s, or `stop` fails the test).
    let took = srv.stop();
    eprintln!("shutdown with {n} idle connections took {took:?}");
    drop(conns);
}

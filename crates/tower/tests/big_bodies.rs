//! A 200 MB upload and a 200 MB download through the example's router,
//! streamed: the process's peak resident memory grows by less than 8 MiB
//! (Linux: the peak is reset through `/proc/self/clear_refs` and read from
//! `VmHWM`).
#![cfg(all(feature = "axum", target_os = "linux"))]

#[path = "../examples/support/app.rs"]
mod app;
mod support;

use std::io::{Read, Write};

use http_net_tokio::ServerOptions;
use http_net_tower::ServiceHandler;
use support::{connect, parse, start};

const SIZE: u64 = 200_000_000;

/// A `/proc/self/status` line's value in KiB.
fn status_kib(key: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap()
}

#[test]
fn two_hundred_megabytes_each_way_hold_less_than_8_mib() {
    let s = start(
        http_net_tokio::Server::builder().max_body_bytes(app::UPLOAD_LIMIT),
        ServiceHandler::new(app::router()),
    );
    // Warm: the server's buffers and the runtime, before the baseline.
    let mut c = connect(s.addr);
    c.write_all(b"GET /download?bytes=100000 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        .unwrap();
    assert_eq!(parse(&support::read_all(&mut c)).body.len(), 100_000);

    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS");
    let before = status_kib("VmRSS:");

    // Upload: the body from one 64 KiB buffer, the answer its length.
    let mut c = connect(s.addr);
    let head = format!("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: {SIZE}\r\n\r\n");
    c.write_all(head.as_bytes()).unwrap();
    let block = vec![b'u'; 64 * 1024];
    let mut left = SIZE;
    while left > 0 {
        let n = left.min(block.len() as u64) as usize;
        c.write_all(&block[..n]).unwrap();
        left -= n as u64;
    }
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.ends_with(b"}") {
        let n = c.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {:?}", String::from_utf8_lossy(&answer));
        answer.extend_from_slice(&buf[..n]);
    }
    let r = parse(&answer);
    assert_eq!(r.status, 200);
    assert!(
        String::from_utf8_lossy(&r.body).starts_with(&format!("{{\"bytes\":{SIZE},")),
        "{:?}",
        String::from_utf8_lossy(&r.body)
    );

    // Download on the same connection: read and dropped as it comes.
    c.write_all(
        format!("GET /download?bytes={SIZE} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
    .unwrap();
    let mut got = 0u64;
    let mut big = vec![0u8; 64 * 1024];
    let mut head_seen = false;
    let mut pending = Vec::new();
    loop {
        let n = c.read(&mut big).unwrap();
        if n == 0 {
            break;
        }
        if head_seen {
            got += n as u64;
            continue;
        }
        pending.extend_from_slice(&big[..n]);
        if let Some(at) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&pending[..at]).to_ascii_lowercase();
            assert!(head.starts_with("http/1.1 200"), "{head}");
            assert!(head.contains(&format!("content-length: {SIZE}")), "{head}");
            got += (pending.len() - at - 4) as u64;
            head_seen = true;
            pending = Vec::new();
        }
    }
    assert_eq!(got, SIZE);

    let peak = status_kib("VmHWM:");
    let growth = peak.saturating_sub(before);
    eprintln!("RSS before {before} KiB, peak {peak} KiB: growth {growth} KiB");
    assert!(growth < 8 * 1024, "peak RSS grew {growth} KiB");
}

//! Downloads over TLS stream through both clients: a 20 MB body is read
//! in 64 KiB pieces, every byte checked, and the client's peak resident
//! memory (VmHWM, `/proc/self/status`) grows less than 4 MiB between a
//! 2 MB and a 20 MB download. Each download runs in a child process (this
//! test binary again, running only the ignored `child_download`), so that
//! each peak is one download's; the server runs in this process.
//!
//! The measure is checked first: the same child reading the 20 MB body
//! into memory (`body_to_vec`) must show the growth, so a client that
//! buffered the body would fail the test.
#![cfg(target_os = "linux")]

mod support;

use http_net_std::ServerOptions;
use std::process::Command;
use std::time::Duration;

use http_net_std::http_net_conn::BodyLength;
use http_net_std::{Exchange, Server};
use support::*;

const SMALL: u64 = 2_000_000;
const LARGE: u64 = 20_000_000;
/// The most the peak may grow from the small download to the large one.
const MAX_GROWTH_KIB: u64 = 4 * 1024;

/// Byte `i` of every body.
fn byte(i: u64) -> u8 {
    (i % 251) as u8
}

/// The std server over TLS: `GET /N` answers `N` bytes with a
/// `Content-Length`, sent 64 KiB at a time.
fn server(dir: &TempDir, c: &Cert) -> (std::net::SocketAddr, http_net_std::ServerHandle) {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let s = Server::builder()
        .shutdown_timeout(Duration::from_secs(2))
        .listener_with_setup(l, server_tls(dir, c));
    let (addr, handle) = (s.local_addr().unwrap(), s.handle());
    std::thread::spawn(move || {
        s.serve(|ex: &mut Exchange<'_>| {
            let n: u64 = std::str::from_utf8(&ex.path()[1..])
                .ok()
                .and_then(|t| t.parse().ok())
                .unwrap_or(0);
            ex.send_head(200, &[], BodyLength::Known(n))?;
            // 261 times the pattern's period: every piece starts at its start.
            let piece: Vec<u8> = (0..251 * 261).map(byte).collect();
            let mut sent = 0;
            while sent < n {
                let len = (n - sent).min(piece.len() as u64) as usize;
                ex.send_data(&piece[..len])?;
                sent += len as u64;
            }
            ex.send_end(&[])
        })
    });
    (addr, handle)
}

/// Runs `child_download` in a child process: `client` (`std` or `tokio`)
/// fetches `bytes` from `port`, `mode` `stream` or `collect`; its peak
/// resident memory in KiB.
fn child(client: &str, mode: &str, port: u16, bytes: u64, ca: &std::path::Path) -> u64 {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_download",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(
            "HTTP_NET_DOWNLOAD",
            format!("{client} {mode} {port} {bytes}"),
        )
        .env("HTTP_NET_DOWNLOAD_CA", ca)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{client} {mode} {bytes}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find_map(|l| l.split_once("DOWNLOADED ").map(|(_, r)| r))
        .unwrap_or_else(|| panic!("{text}"));
    let (got, hwm) = line.split_once(" VmHWM ").unwrap();
    assert_eq!(got.parse::<u64>().unwrap(), bytes, "{line}");
    hwm.parse().unwrap()
}

/// The peak resident memory of this process so far, KiB.
fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Checks each byte of a body as it streams past.
struct Check {
    at: u64,
}

impl Check {
    fn take(&mut self, piece: &[u8]) {
        for (k, &b) in piece.iter().enumerate() {
            assert_eq!(b, byte(self.at + k as u64), "byte {}", self.at + k as u64);
        }
        self.at += piece.len() as u64;
    }
}

/// The child's side (run only by [`child`], through the environment).
#[test]
#[ignore = "run by the download tests in a child process"]
fn child_download() {
    let Ok(job) = std::env::var("HTTP_NET_DOWNLOAD") else {
        eprintln!("note: child_download runs only as the download tests' child");
        return;
    };
    let job: Vec<&str> = job.split(' ').collect();
    let [client, mode, port, bytes] = job[..] else {
        panic!("{job:?}")
    };
    let ca = std::env::var("HTTP_NET_DOWNLOAD_CA").unwrap();
    let tls = http_net_rustls::ClientTls::from_pem_file(ca).unwrap();
    let url = format!("https://localhost:{port}/{bytes}");
    let mut check = Check { at: 0 };
    let mut buf = vec![0u8; 64 * 1024];
    match (client, mode) {
        ("std", "stream") => {
            let c = http_net_std::Client::builder()
                .connector(move |h: &str, p: u16| tls.connect(h, p))
                .build();
            let mut resp = c.get(&url).unwrap();
            loop {
                let n = resp.read_body(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                check.take(&buf[..n]);
            }
        }
        ("std", "collect") => {
            let c = http_net_std::Client::builder()
                .connector(move |h: &str, p: u16| tls.connect(h, p))
                .build();
            let body = c.get(&url).unwrap().body_to_vec(usize::MAX).unwrap();
            check.take(&body);
        }
        #[cfg(feature = "tokio")]
        ("tokio", "stream") => {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let c = http_net_tokio::Client::builder().connector(tls);
                let mut resp = c.get(&url).await.unwrap();
                loop {
                    let n = resp.read_body(&mut buf).await.unwrap();
                    if n == 0 {
                        break;
                    }
                    check.take(&buf[..n]);
                }
            });
        }
        other => panic!("{other:?}"),
    }
    println!("DOWNLOADED {} VmHWM {}", check.at, vm_hwm_kib());
}

/// The peaks of a small and a large download by `client`, and the check.
fn streams(client: &str) {
    let dir = TempDir::new(&format!("download-{client}"));
    let c = cert(&["localhost"], false);
    let ca = write_pem(&dir, "ca.pem", &c.cert_pem);
    let (addr, handle) = server(&dir, &c);
    let port = addr.port();
    // The measure sees a client that holds the body.
    let small = child("std", "collect", port, SMALL, &ca);
    let large = child("std", "collect", port, LARGE, &ca);
    eprintln!("control (body held): peak RSS {small} KiB at 2 MB, {large} KiB at 20 MB");
    assert!(
        large.saturating_sub(small) > 16 * 1024,
        "the measure does not see a held body: {small} -> {large} KiB"
    );
    let small = child(client, "stream", port, SMALL, &ca);
    let large = child(client, "stream", port, LARGE, &ca);
    eprintln!("{client}: peak RSS {small} KiB at 2 MB, {large} KiB at 20 MB");
    assert!(
        large.saturating_sub(small) < MAX_GROWTH_KIB,
        "{client}: peak RSS {small} KiB at 2 MB, {large} KiB at 20 MB"
    );
    handle.shutdown();
}

#[test]
fn a_20_mb_download_streams_through_the_blocking_client() {
    streams("std");
}

#[cfg(feature = "tokio")]
#[test]
fn a_20_mb_download_streams_through_the_tokio_client() {
    streams("tokio");
}

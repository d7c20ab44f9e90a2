//! The examples over HTTPS, with a certificate made here: `tls_server`
//! against curl (`--cacert`: the certificate verified) and against
//! `tls_get`, and `tls_tokio` (feature `tokio`) against curl. Moved here
//! from the facade's and the tokio crate's tests with the examples.
#![cfg(unix)]

mod support;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use support::{cert, have, TempDir};

/// An example binary of this package (`cargo test` builds them).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/<test> -> target/<profile>/examples/<name>
    let path = exe
        .parent()
        .and_then(|d| d.parent())
        .unwrap()
        .join("examples")
        .join(name);
    assert!(
        path.exists(),
        "{} (cargo test builds the examples)",
        path.display()
    );
    path
}

/// A running example, killed when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the server example `name` on 127.0.0.1:0 with a certificate for
/// `localhost` and `127.0.0.1` written in `dir`; its address and the
/// certificate's path.
fn start(name: &str, dir: &TempDir) -> (Proc, SocketAddr, String) {
    let c = cert(&["localhost", "127.0.0.1"], false);
    let (cp, kp) = (dir.0.join("cert.pem"), dir.0.join("key.pem"));
    std::fs::write(&cp, &c.cert_pem).unwrap();
    std::fs::write(&kp, &c.key_pem).unwrap();
    let mut child = Command::new(example(name))
        .args(["--addr", "127.0.0.1:0", "--cert"])
        .arg(&cp)
        .arg("--key")
        .arg(&kp)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on https://")
        .unwrap_or_else(|| panic!("{line:?}"))
        .parse()
        .unwrap();
    (Proc(child), addr, cp.display().to_string())
}

/// `curl -sS` with `args`: exit code, stdout.
fn curl(args: &[&str]) -> (Option<i32>, Vec<u8>) {
    let out = Command::new("curl")
        .args(["-sS", "--max-time", "20"])
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), out.stdout)
}

#[test]
fn curl_over_https_against_tls_server() {
    if !have("curl") {
        return;
    }
    let dir = TempDir::new("ex-curl");
    let (_p, addr, cert) = start("tls_server", &dir);
    let port = addr.port();
    for url in [
        format!("https://127.0.0.1:{port}/"),
        format!("https://localhost:{port}/"),
    ] {
        let (code, out) = curl(&["--cacert", &cert, &url]);
        assert_eq!(code, Some(0), "{url}");
        assert_eq!(out, b"hello over tls\n", "{url}");
    }
    // Without the certificate, curl refuses the server.
    let (code, _) = curl(&[&format!("https://127.0.0.1:{port}/")]);
    assert_ne!(code, Some(0));
}

#[test]
fn tls_get_against_tls_server() {
    let dir = TempDir::new("ex-get");
    let (_p, addr, cert) = start("tls_server", &dir);
    let url = format!("https://localhost:{}/", addr.port());
    let out = Command::new(example("tls_get"))
        .args(["--cacert", &cert, &url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, b"hello over tls\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr).trim(), "200");
    // A certificate the client does not trust: an error naming it.
    let other = TempDir::new("ex-get-other");
    let wrong = other.0.join("wrong.pem");
    std::fs::write(&wrong, cert_other()).unwrap();
    let out = Command::new(example("tls_get"))
        .arg("--cacert")
        .arg(&wrong)
        .arg(&url)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no trusted root"), "{err}");
}

fn cert_other() -> String {
    cert(&["localhost"], false).cert_pem
}

#[cfg(feature = "tokio")]
#[test]
fn curl_over_https_against_tls_tokio() {
    if !have("curl") {
        return;
    }
    let dir = TempDir::new("ex-tokio");
    let (_p, addr, cert) = start("tls_tokio", &dir);
    let port = addr.port();
    let url = format!("https://localhost:{port}/plaintext");
    let (code, out) = curl(&["-i", "--cacert", &cert, &url]);
    assert_eq!(code, Some(0));
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(
        text.to_ascii_lowercase().contains("server: http-net"),
        "{text}"
    );
    assert!(text.ends_with("\r\n\r\nHello, World!"), "{text}");
    let (code, out) = curl(&[
        "--cacert",
        &cert,
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        &format!("https://localhost:{port}/nope"),
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(out, b"404");
    // `/` answers as `tls_server` does (the hostile suite's client asks it).
    let (code, out) = curl(&["--cacert", &cert, &format!("https://localhost:{port}/")]);
    assert_eq!(code, Some(0));
    assert_eq!(out, b"hello over tls\n");
    let (code, _) = curl(&[&url]);
    assert_ne!(code, Some(0), "without the certificate curl refuses");
}

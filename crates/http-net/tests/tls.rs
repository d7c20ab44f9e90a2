//! HTTPS by composition: the `tls_server` example against curl and the
//! `tls_get` example, over a certificate generated here.

mod support;

use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

use support::*;

/// Starts `tls_server` with a fresh self-signed certificate for
/// `localhost` and `127.0.0.1`; returns it, its address and the PEM path.
fn start(dir: &TempDir) -> (Proc, SocketAddr, String) {
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".into(), "127.0.0.1".into()])
        .expect("certificate");
    let cert = dir.0.join("cert.pem");
    let key = dir.0.join("key.pem");
    std::fs::write(&cert, ck.cert.pem()).unwrap();
    std::fs::write(&key, ck.key_pair.serialize_pem()).unwrap();
    let (cert, key) = (cert.display().to_string(), key.display().to_string());
    let (proc, addr) = start_example_on("tls_server", &["--cert", &cert, "--key", &key], "https");
    (proc, addr, cert)
}

#[test]
fn curl_over_https_against_tls_server() {
    if !have("curl") {
        return;
    }
    let dir = TempDir::new("tls-curl");
    let (_proc, addr, cert) = start(&dir);
    for url in [
        format!("https://127.0.0.1:{}/", addr.port()),
        format!("https://localhost:{}/", addr.port()),
    ] {
        let (code, out, err) = run(
            Command::new("curl").args(["-sS", "--max-time", "20", "--cacert", &cert, &url]),
            Duration::from_secs(30),
        );
        assert_eq!(code, Some(0), "{url}: {}", String::from_utf8_lossy(&err));
        assert_eq!(out, b"hello over tls\n", "{url}");
    }
    // Without the certificate, curl refuses the server.
    let (code, _, _) = run(
        Command::new("curl").args([
            "-sS",
            "--max-time",
            "20",
            &format!("https://127.0.0.1:{}/", addr.port()),
        ]),
        Duration::from_secs(30),
    );
    assert_ne!(code, Some(0));
}

#[test]
fn tls_get_against_tls_server() {
    let dir = TempDir::new("tls-get");
    let (_proc, addr, cert) = start(&dir);
    let url = format!("https://localhost:{}/", addr.port());
    let (code, out, err) = run(
        Command::new(example("tls_get")).args(["--cacert", &cert, &url]),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&err));
    assert_eq!(out, b"hello over tls\n");
    assert_eq!(String::from_utf8_lossy(&err).trim(), "200");
    // A certificate the client does not trust is an error.
    let other = TempDir::new("tls-other");
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let wrong = other.0.join("wrong.pem");
    std::fs::write(&wrong, ck.cert.pem()).unwrap();
    let (code, _, _) = run(
        Command::new(example("tls_get"))
            .arg("--cacert")
            .arg(&wrong)
            .arg(&url),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(1));
}

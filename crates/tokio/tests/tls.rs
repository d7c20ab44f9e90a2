//! The `tls_tokio` example over HTTPS: a certificate for `localhost` made
//! with rcgen, the example started with it, and curl fetching a page with
//! `--cacert` (the certificate verified, not skipped).
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn example_binary() -> std::path::PathBuf {
    // target/<profile>/deps/<test> -> target/<profile>/examples/tls_tokio
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().unwrap().parent().unwrap();
    profile_dir.join("examples").join("tls_tokio")
}

fn have_curl() -> bool {
    let found = Command::new("curl").arg("--version").output().is_ok();
    if !found && std::env::var_os("HTTP_NET_REQUIRE_PEERS").is_some() {
        panic!("curl is required (HTTP_NET_REQUIRE_PEERS is set)");
    }
    found
}

#[test]
fn curl_fetches_a_page_over_https_with_the_certificate_verified() {
    if !have_curl() {
        eprintln!("skipped: no curl");
        return;
    }
    let exe = example_binary();
    assert!(
        exe.exists(),
        "{} (cargo test builds examples)",
        exe.display()
    );
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let dir = std::env::temp_dir().join(format!("http-net-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cert_path, key_path) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert_path, cert.cert.pem()).unwrap();
    std::fs::write(&key_path, cert.key_pair.serialize_pem()).unwrap();
    let mut child = Command::new(exe)
        .args(["--addr", "127.0.0.1:0", "--cert"])
        .arg(&cert_path)
        .arg("--key")
        .arg(&key_path)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr: std::net::SocketAddr = line
        .trim()
        .strip_prefix("listening on https://")
        .unwrap_or_else(|| panic!("{line:?}"))
        .parse()
        .unwrap();
    let port = addr.port();
    let curl = |path: &str, extra: &[&str]| {
        Command::new("curl")
            .args(["-sS", "--max-time", "10", "--cacert"])
            .arg(&cert_path)
            .arg("--resolve")
            .arg(format!("localhost:{port}:127.0.0.1"))
            .args(extra)
            .arg(format!("https://localhost:{port}{path}"))
            .output()
            .unwrap()
    };
    let out = curl("/plaintext", &["-i"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let status = curl("/nope", &["-o", "/dev/null", "-w", "%{http_code}"]);
    // Without the certificate, curl refuses the server (verification is on).
    let plain = Command::new("curl")
        .args(["-sS", "--max-time", "10", "--resolve"])
        .arg(format!("localhost:{port}:127.0.0.1"))
        .arg(format!("https://localhost:{port}/plaintext"))
        .output()
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{err}");
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(
        text.to_ascii_lowercase().contains("server: http-net"),
        "{text}"
    );
    assert!(text.ends_with("\r\n\r\nHello, World!"), "{text}");
    assert_eq!(String::from_utf8_lossy(&status.stdout), "404");
    assert!(!plain.status.success());
}

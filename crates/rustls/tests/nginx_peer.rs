//! Both clients against nginx over TLS, started and stopped here with test
//! certificates on ephemeral 127.0.0.1 ports: a file fetched twice (the
//! second time over the pooled connection), and the certificate failures
//! a real server shows them named as [`TlsFailure`]s: a certificate from
//! an unknown issuer, one for another name, and an expired one.
//!
//! nginx rather than `openssl s_server -WWW`: `-WWW` answers in HTTP/1.0
//! with no `Content-Length` and closes, so every body is close-delimited
//! and the keep-alive path the clients use against real servers is never
//! taken; nginx frames its answers, keeps connections alive, and is the
//! server the proxy suite already installs.
#![cfg(unix)]

mod support;

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use http_net_rustls::{ClientTls, TlsFailure};
use support::*;

/// The nginx binary: on the path, or Debian's place for it.
fn nginx() -> Option<PathBuf> {
    for p in ["nginx", "/usr/sbin/nginx"] {
        if Command::new(p)
            .arg("-v")
            .stderr(Stdio::null())
            .status()
            .is_ok()
        {
            return Some(PathBuf::from(p));
        }
    }
    have("nginx");
    None
}

/// A free port on 127.0.0.1 (bound, then let go for nginx).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// nginx in the foreground, one process, killed when dropped.
struct Nginx {
    child: Child,
    /// The port serving a certificate for `localhost`.
    good: u16,
    /// The port serving an expired certificate for `localhost`.
    expired: u16,
    /// The body of `/file`.
    file: Vec<u8>,
    _dir: TempDir,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Nginx {
    fn start(name: &str, bin: &PathBuf, good: &Cert, expired: &Cert) -> Nginx {
        let dir = TempDir::new(name);
        let d = dir.0.display().to_string();
        std::fs::create_dir_all(dir.0.join("www")).unwrap();
        std::fs::create_dir_all(dir.0.join("tmp")).unwrap();
        let file: Vec<u8> = (0..100_000u32)
            .map(|i| b"0123456789abcdef"[(i % 16) as usize])
            .collect();
        std::fs::write(dir.0.join("www/file"), &file).unwrap();
        for (name, c) in [("good", good), ("expired", expired)] {
            write_pem(&dir, &format!("{name}.pem"), &c.cert_pem);
            write_pem(&dir, &format!("{name}.key"), &c.key_pem);
        }
        let (p_good, p_expired) = (free_port(), free_port());
        let server = |port: u16, name: &str| {
            format!(
                "server {{ listen 127.0.0.1:{port} ssl; server_name localhost;
                   ssl_certificate {d}/{name}.pem; ssl_certificate_key {d}/{name}.key;
                   location / {{ root {d}/www; }} }}\n"
            )
        };
        let conf = format!(
            "daemon off; master_process off; worker_processes 1;
             pid {d}/nginx.pid; error_log {d}/error.log;
             events {{ worker_connections 64; }}
             http {{ access_log off; keepalive_timeout 30s;
               client_body_temp_path {d}/tmp; proxy_temp_path {d}/tmp;
               fastcgi_temp_path {d}/tmp; uwsgi_temp_path {d}/tmp; scgi_temp_path {d}/tmp;
               {}{} }}\n",
            server(p_good, "good"),
            server(p_expired, "expired"),
        );
        let conf_path = write_pem(&dir, "nginx.conf", &conf);
        let child = Command::new(bin)
            .arg("-p")
            .arg(&dir.0)
            .arg("-e")
            .arg(dir.0.join("error.log"))
            .arg("-c")
            .arg(&conf_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let n = Nginx {
            child,
            good: p_good,
            expired: p_expired,
            file,
            _dir: dir,
        };
        let until = Instant::now() + Duration::from_secs(10);
        for port in [p_good, p_expired] {
            while TcpStream::connect(("127.0.0.1", port)).is_err() {
                assert!(
                    Instant::now() < until,
                    "nginx did not listen on {port}: {}",
                    std::fs::read_to_string(n._dir.0.join("error.log")).unwrap_or_default()
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        n
    }
}

/// The certificates: `localhost`'s, an expired one for `localhost`, and
/// one the clients do not trust.
fn certs() -> (Cert, Cert, Cert) {
    (
        cert(&["localhost"], false),
        cert(&["localhost"], true),
        cert(&["localhost"], false),
    )
}

/// The failure inside an I/O error (a test failure if there is none).
fn named(e: &std::io::Error) -> &'static str {
    match TlsFailure::of(e) {
        Some(TlsFailure::UnknownCertificate) => "unknown",
        Some(TlsFailure::NameMismatch) => "name",
        Some(TlsFailure::Expired) => "expired",
        other => panic!("not a named certificate failure: {other:?} ({e})"),
    }
}

#[test]
fn the_blocking_client_against_nginx() {
    let Some(bin) = nginx() else { return };
    let (good, old, stranger) = certs();
    let n = Nginx::start("nginx-std", &bin, &good, &old);
    let tls = client_tls(&good);
    let client = http_net_std::Client::builder()
        .connector(move |h: &str, p: u16| tls.connect(h, p))
        .build();
    let url = format!("https://localhost:{}/file", n.good);
    for _ in 0..2 {
        let mut resp = client.get(&url).unwrap();
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.body_to_vec(1 << 20).unwrap(), n.file);
    }
    let fail = |tls: ClientTls, url: String| -> &'static str {
        let client = http_net_std::Client::builder()
            .connector(move |h: &str, p: u16| tls.connect(h, p))
            .build();
        match client.get(&url) {
            Err(http_net_std::Error::Io(e)) => named(&e),
            Err(e) => panic!("{url}: {e}"),
            Ok(r) => panic!("{url}: {}", r.status()),
        }
    };
    assert_eq!(fail(client_tls(&stranger), url.clone()), "unknown");
    let by_ip = format!("https://127.0.0.1:{}/file", n.good);
    assert_eq!(fail(client_tls(&good), by_ip), "name");
    let expired = format!("https://localhost:{}/file", n.expired);
    assert_eq!(fail(client_tls(&old), expired), "expired");
}

#[cfg(feature = "tokio")]
#[test]
fn the_tokio_client_against_nginx() {
    let Some(bin) = nginx() else { return };
    let (good, old, stranger) = certs();
    let n = Nginx::start("nginx-tokio", &bin, &good, &old);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = http_net_tokio::Client::builder().connector(client_tls(&good));
        let url = format!("https://localhost:{}/file", n.good);
        for _ in 0..2 {
            let mut resp = client.get(&url).await.unwrap();
            assert_eq!(resp.status(), 200);
            assert_eq!(resp.body_to_vec(1 << 20).await.unwrap(), n.file);
        }
        async fn fail(tls: ClientTls, url: String) -> &'static str {
            let client = http_net_tokio::Client::builder().connector(tls);
            match client.get(&url).await {
                Err(http_net_tokio::Error::Io(e)) => named(&e),
                Err(e) => panic!("{url}: {e}"),
                Ok(r) => panic!("{url}: {}", r.status()),
            }
        }
        assert_eq!(fail(client_tls(&stranger), url.clone()).await, "unknown");
        let by_ip = format!("https://127.0.0.1:{}/file", n.good);
        assert_eq!(fail(client_tls(&good), by_ip).await, "name");
        let expired = format!("https://localhost:{}/file", n.expired);
        assert_eq!(fail(client_tls(&old), expired).await, "expired");
    });
}

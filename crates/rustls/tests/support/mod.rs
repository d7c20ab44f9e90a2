//! The tests' certificates (made here with rcgen) and servers.
#![allow(dead_code)]

use http_net_std::ServerOptions;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use http_net_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use http_net_rustls::rustls::{self, RootCertStore};
use http_net_rustls::{ClientTls, ServerTls};

/// A certificate and its key, for the names given.
pub struct Cert {
    pub cert: CertificateDer<'static>,
    pub cert_pem: String,
    pub key_pem: String,
    pub key: PrivateKeyDer<'static>,
}

/// A self-signed certificate for `names`, valid now (or expired, from 2000
/// to 2001).
pub fn cert(names: &[&str], expired: bool) -> Cert {
    make_cert(names, expired, rcgen::IsCa::NoCa)
}

/// A self-signed CA certificate (`CA:TRUE`) for `names`, valid now: what
/// `openssl req -x509` makes unless told otherwise.
pub fn ca_cert(names: &[&str]) -> Cert {
    make_cert(
        names,
        false,
        rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained),
    )
}

fn make_cert(names: &[&str], expired: bool, is_ca: rcgen::IsCa) -> Cert {
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let mut params = rcgen::CertificateParams::new(names).unwrap();
    params.is_ca = is_ca;
    // A subject of its own: two test certificates never name the same
    // issuer (so an untrusted one is unknown, not a bad signature).
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    params.distinguished_name.push(
        rcgen::DnType::CommonName,
        format!("http-net-rustls test {} {n}", std::process::id()),
    );
    if expired {
        params.not_before = rcgen::date_time_ymd(2000, 1, 1);
        params.not_after = rcgen::date_time_ymd(2001, 1, 1);
    }
    let kp = rcgen::KeyPair::generate().unwrap();
    let c = params.self_signed(&kp).unwrap();
    Cert {
        cert: c.der().clone(),
        cert_pem: c.pem(),
        key_pem: kp.serialize_pem(),
        key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(kp.serialize_der())),
    }
}

/// A directory of its own under the system's temporary one.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("http-net-rustls-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `c` written as `cert.pem` and `key.pem` in `dir`: the server's TLS from
/// the files.
pub fn server_tls(dir: &TempDir, c: &Cert) -> ServerTls {
    let (cp, kp) = (dir.0.join("cert.pem"), dir.0.join("key.pem"));
    std::fs::write(&cp, &c.cert_pem).unwrap();
    std::fs::write(&kp, &c.key_pem).unwrap();
    ServerTls::from_pem_files(&cp, &kp).unwrap()
}

/// A client trusting `c` alone.
pub fn client_tls(c: &Cert) -> ClientTls {
    let mut roots = RootCertStore::empty();
    roots.add(c.cert.clone()).unwrap();
    ClientTls::with_roots(roots)
}

/// A raw rustls client config trusting `c`, offering `alpn`.
pub fn raw_client_config(c: &Cert, alpn: &[&[u8]]) -> Arc<rustls::ClientConfig> {
    let mut roots = RootCertStore::empty();
    roots.add(c.cert.clone()).unwrap();
    let mut cfg = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::aws_lc_rs::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    cfg.alpn_protocols = alpn.iter().map(|a| a.to_vec()).collect();
    Arc::new(cfg)
}

/// The std server over TLS with `b`'s settings, answering `200 hello`, or
/// `413` at once without reading (`refuse`).
pub struct StdServer {
    pub addr: SocketAddr,
    pub handle: http_net_std::ServerHandle,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl StdServer {
    pub fn start(b: http_net_std::ServerBuilder, tls: ServerTls, refuse: bool) -> StdServer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let server = b
            .shutdown_timeout(Duration::from_secs(2))
            .listener_with_setup(listener, tls);
        let addr = server.local_addr().unwrap();
        let handle = server.handle();
        let thread = std::thread::spawn(move || {
            server.serve(move |ex: &mut http_net_std::Exchange<'_>| {
                if refuse {
                    ex.respond_with(413, &[], b"too large")
                } else {
                    ex.respond_with(200, &[], b"hello")
                }
            })
        });
        StdServer {
            addr,
            handle,
            thread: Some(thread),
        }
    }
}

impl Drop for StdServer {
    fn drop(&mut self) {
        self.handle.shutdown();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Waits (up to 5 s) until `f` holds.
pub fn eventually(f: impl Fn() -> bool) -> bool {
    let until = std::time::Instant::now() + Duration::from_secs(5);
    while std::time::Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    f()
}

/// Whether `prog` runs here (`prog --version`, `prog -v` for nginx,
/// `openssl version`);
/// `HTTP_NET_REQUIRE_PEERS=1` (set by `.ci/run`, which installs the real
/// peers) makes a missing one a failure, otherwise the caller skips with
/// the reason printed.
pub fn have(prog: &str) -> bool {
    let flag = if prog.ends_with("nginx") {
        "-v"
    } else if prog == "openssl" {
        "version"
    } else {
        "--version"
    };
    let found = std::process::Command::new(prog)
        .arg(flag)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok();
    if !found && std::env::var("HTTP_NET_REQUIRE_PEERS").as_deref() == Ok("1") {
        panic!("{prog} is required (HTTP_NET_REQUIRE_PEERS=1) but was not found");
    }
    if !found {
        eprintln!("note: skipping: {prog} not found");
    }
    found
}

/// `c`'s certificate written as `name` in `dir`: a CA file for a peer.
pub fn write_pem(dir: &TempDir, name: &str, pem: &str) -> PathBuf {
    let p = dir.0.join(name);
    std::fs::write(&p, pem).unwrap();
    p
}

/// The tokio server over TLS on a runtime of its own thread, answering
/// every request with `status` and `hello`.
#[cfg(feature = "tokio")]
pub struct TokioServer {
    pub addr: SocketAddr,
    pub handle: http_net_tokio::ServerHandle,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

#[cfg(feature = "tokio")]
struct Answer(u16);

#[cfg(feature = "tokio")]
impl http_net_tokio::Handler for Answer {
    async fn handle(
        &self,
        ex: &mut http_net_tokio::Exchange<'_>,
    ) -> Result<(), http_net_tokio::HandlerError> {
        Ok(ex.respond_with(self.0, &[], b"hello").await?)
    }
}

#[cfg(feature = "tokio")]
impl TokioServer {
    pub fn start(b: http_net_tokio::ServerBuilder, tls: ServerTls, status: u16) -> TokioServer {
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                let server = b
                    .shutdown_timeout(Duration::from_secs(2))
                    .listener_with_setup(listener, tls);
                tx.send((server.local_addr()?, server.handle())).unwrap();
                server.serve(Answer(status)).await
            })
        });
        let (addr, handle) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        TokioServer {
            addr,
            handle,
            thread: Some(thread),
        }
    }
}

#[cfg(feature = "tokio")]
impl Drop for TokioServer {
    fn drop(&mut self) {
        self.handle.shutdown();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

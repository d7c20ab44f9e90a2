//! HTTPS with tokio-rustls: `cargo run -p http-net-tokio --example tls_tokio
//! -- --cert cert.pem --key key.pem [--addr 127.0.0.1:8443]`.
//!
//! The server runs over any [`Listener`]; this one accepts TCP connections,
//! runs each TLS handshake on a task of its own (bounded to 10 s, so a slow
//! peer never holds the accept loop up) and hands the finished TLS streams
//! to the server through a channel, whose `recv` is cancel-safe as
//! `Listener::accept` must be. rustls uses the ring provider. It prints
//! `listening on https://ADDR` and serves `GET /plaintext` (`Hello, World!`)
//! and `404` elsewhere, until SIGINT.
//!
//! This crate's `tests/tls.rs` generates a certificate with rcgen, starts
//! this example and fetches a page with `curl --cacert`.

#[path = "support/runtime.rs"]
mod runtime;

use std::io::{self, Write};
use std::net::SocketAddr;
use std::process::exit;
use std::sync::Arc;
use std::time::Duration;

use http_net_tokio::http_net_conn::PreparedResponse;
use http_net_tokio::{Exchange, Handler, HandlerError, Listener, Server};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{self, ServerConfig};
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

/// Finished TLS handshakes, from the acceptor task.
struct TlsListener {
    ready: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    addr: SocketAddr,
}

impl TlsListener {
    fn new(tcp: TcpListener, acceptor: TlsAcceptor) -> io::Result<TlsListener> {
        let addr = tcp.local_addr()?;
        let (tx, ready) = mpsc::channel(64);
        tokio::spawn(async move {
            loop {
                let Ok((stream, peer)) = tcp.accept().await else {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let (acceptor, tx) = (acceptor.clone(), tx.clone());
                tokio::spawn(async move {
                    let handshake = acceptor.accept(stream);
                    if let Ok(Ok(tls)) =
                        tokio::time::timeout(Duration::from_secs(10), handshake).await
                    {
                        let _ = tx.send((tls, peer)).await;
                    }
                });
            }
        });
        Ok(TlsListener { ready, addr })
    }
}

impl Listener for TlsListener {
    type Stream = TlsStream<TcpStream>;
    async fn accept(&mut self) -> io::Result<(Self::Stream, Option<SocketAddr>)> {
        match self.ready.recv().await {
            Some((s, peer)) => Ok((s, Some(peer))),
            None => Err(io::ErrorKind::Unsupported.into()),
        }
    }
    fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.addr)
    }
}

struct Hello {
    plain: PreparedResponse,
}

impl Handler for Hello {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        match ex.path() {
            b"/plaintext" => ex.respond(&self.plain, b"Hello, World!").await?,
            _ => ex.respond_with(404, &[], b"Not Found\n").await?,
        }
        Ok(())
    }
}

fn tls_config(cert: &str, key: &str) -> Result<ServerConfig, String> {
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("{cert}: {e}"))?;
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("{key}: {e}"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| e.to_string())?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

fn main() {
    let (mut addr, mut cert, mut key) = (String::from("127.0.0.1:8443"), None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--addr", Some(a)) => addr = a,
            ("--cert", Some(c)) => cert = Some(c),
            ("--key", Some(k)) => key = Some(k),
            _ => {
                eprintln!("usage: tls_tokio --cert CERT.pem --key KEY.pem [--addr ADDR]");
                exit(2);
            }
        }
    }
    let (Some(cert), Some(key)) = (cert, key) else {
        eprintln!("usage: tls_tokio --cert CERT.pem --key KEY.pem [--addr ADDR]");
        exit(2);
    };
    let config = match tls_config(&cert, &key) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tls_tokio: {e}");
            exit(1);
        }
    };
    let plain = match PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("tls_tokio: {e:?}");
            exit(1);
        }
    };
    runtime::run("tls_tokio", async move {
        let listener = match TcpListener::bind(&addr).await {
            Ok(tcp) => TlsListener::new(tcp, TlsAcceptor::from(Arc::new(config))),
            Err(e) => Err(e),
        };
        let listener = match listener {
            Ok(l) => l,
            Err(e) => {
                eprintln!("tls_tokio: cannot listen on {addr}: {e}");
                return 2;
            }
        };
        println!("listening on https://{}", listener.addr);
        let _ = io::stdout().flush();
        let server = Server::builder().server_name("http-net").listener(listener);
        let handle = server.handle();
        tokio::spawn(async move {
            let _ = tokio::signal::ctrl_c().await;
            handle.shutdown();
        });
        match server.serve(Hello { plain }).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("tls_tokio: {e}");
                1
            }
        }
    })
}

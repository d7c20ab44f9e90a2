//! HTTPS by composition: the std server over rustls.
//!
//! `tls_server --cert CERT.pem --key KEY.pem [--addr 127.0.0.1:8443]` serves
//! `GET /` → `hello over tls` and prints `listening on https://ADDR`. The TLS
//! handshake runs lazily, in the stream's first read, on the connection's
//! own thread: a slow handshake never holds up the accept loop.

use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

use http_net::blocking::Listener;
use http_net::blocking::{Error, Exchange, Server};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

#[path = "support/tls.rs"]
mod tls;
use tls::Tls;

/// Accepts TCP connections and wraps each in a TLS session.
struct TlsListener {
    tcp: TcpListener,
    config: Arc<ServerConfig>,
}

impl Listener for TlsListener {
    type Stream = Tls<ServerConnection>;
    fn accept(&self) -> io::Result<(Tls<ServerConnection>, Option<SocketAddr>)> {
        let (sock, addr) = self.tcp.accept()?;
        let _ = sock.set_nodelay(true);
        let conn = ServerConnection::new(Arc::clone(&self.config)).map_err(io::Error::other)?;
        Ok((Tls(StreamOwned::new(conn, sock)), Some(addr)))
    }
    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.tcp.local_addr()
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(cert), Some(key)) = (arg(&args, "--cert"), arg(&args, "--key")) else {
        eprintln!("usage: tls_server --cert CERT.pem --key KEY.pem [--addr ADDR]");
        std::process::exit(2);
    };
    let addr = arg(&args, "--addr").unwrap_or_else(|| "127.0.0.1:8443".into());
    let certs = CertificateDer::pem_file_iter(&cert)?.collect::<Result<Vec<_>, _>>()?;
    let key = PrivateKeyDer::from_pem_file(&key)?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(certs, key)?;
    let listener = TlsListener {
        tcp: TcpListener::bind(&addr)?,
        config: Arc::new(config),
    };
    let server = Server::builder().listener(listener);
    println!("listening on https://{}", server.local_addr()?);
    io::stdout().flush()?;
    server.serve(|ex: &mut Exchange<'_>| -> Result<(), Error> {
        match ex.path() {
            b"/" => ex.respond_with(
                200,
                &[(b"Content-Type", b"text/plain")],
                b"hello over tls\n",
            ),
            _ => ex.respond_with(404, &[], b""),
        }
    })?;
    Ok(())
}

//! HTTPS by composition: the std client with a rustls connector.
//!
//! `tls_get --cacert CA.pem https://HOST:PORT/PATH` fetches the URL, trusting
//! only the certificates in `CA.pem`, and writes the body to stdout (exit 0
//! on any status, 1 on an error).

use std::io;
use std::net::TcpStream;
use std::sync::Arc;

use http_net::blocking::Client;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

#[path = "support/tls.rs"]
mod tls;
use tls::Tls;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [flag, ca, url] = &args[..] else {
        eprintln!("usage: tls_get --cacert CA.pem https://HOST:PORT/PATH");
        std::process::exit(2);
    };
    if flag != "--cacert" {
        eprintln!("usage: tls_get --cacert CA.pem https://HOST:PORT/PATH");
        std::process::exit(2);
    }
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(ca)? {
        roots.add(cert?)?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = Arc::new(
        ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth(),
    );
    let client = Client::builder()
        .connector(move |host: &str, port: u16| {
            let name = ServerName::try_from(host.to_owned()).map_err(io::Error::other)?;
            let conn =
                ClientConnection::new(Arc::clone(&config), name).map_err(io::Error::other)?;
            let sock = TcpStream::connect((host, port))?;
            let _ = sock.set_nodelay(true);
            Ok(Tls(StreamOwned::new(conn, sock)))
        })
        .build();
    match client.get(url) {
        Ok(mut resp) => {
            eprintln!("{}", resp.status());
            io::copy(&mut resp, &mut io::stdout().lock())?;
            Ok(())
        }
        Err(e) => {
            eprintln!("tls_get: {e}");
            std::process::exit(1);
        }
    }
}

//! HTTPS with the blocking server: `cargo run -p http-net-rustls --example
//! tls_server -- --cert CERT.pem --key KEY.pem [--addr 127.0.0.1:8443]
//! [--max-connections N] [--setup-rate-per-peer N]` serves `GET /` →
//! `hello over tls` and prints `listening on https://ADDR`. Each handshake
//! runs on its connection's thread, inside an admitted slot, under the
//! server's setup deadline; a peer may start `N` a second, `2N` at once
//! (default 64 and 128; 0: no limit).

use http_net::conn::ServerOptions;
use std::io::{self, Write};
use std::net::TcpListener;

use http_net::blocking::{Error, Exchange, Server};
use http_net_rustls::ServerTls;

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
    // The TLS setup: the certificate and key, and the listener with its handshake.
    let tls = ServerTls::from_pem_files(cert, key)?;
    let mut builder = Server::builder();
    if let Some(n) = arg(&args, "--max-connections").and_then(|n| n.parse().ok()) {
        builder = builder.max_connections(n);
    }
    if let Some(n) = arg(&args, "--setup-rate-per-peer").and_then(|n| n.parse::<u32>().ok()) {
        builder = builder.setup_rate_per_peer(n, n.saturating_mul(2));
    }
    let server = builder.listener_with_setup(TcpListener::bind(&addr)?, tls);
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

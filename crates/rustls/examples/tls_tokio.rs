//! HTTPS with the tokio server: `cargo run -p http-net-rustls --features
//! tokio --example tls_tokio -- --cert CERT.pem --key KEY.pem [--addr
//! 127.0.0.1:8443] [--max-connections N] [--setup-rate-per-peer N]`
//! prints `listening on https://ADDR` and serves `GET /plaintext`
//! (`Hello, World!`), `GET /` (`hello over tls`, as `tls_server`) and
//! `404` elsewhere. Each handshake runs on its connection's task, inside an
//! admitted slot, under the server's setup deadline; a peer may start `N`
//! a second, `2N` at once (default 64 and 128; 0: no limit).

use std::io::{self, Write};

use http_net_rustls::ServerTls;
use http_net_tokio::{Exchange, Handler, HandlerError, Server, ServerOptions};

struct Hello;

impl Handler for Hello {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        match ex.path() {
            b"/plaintext" => {
                ex.respond_with(200, &[(b"Content-Type", b"text/plain")], b"Hello, World!")
                    .await?
            }
            b"/" => {
                ex.respond_with(
                    200,
                    &[(b"Content-Type", b"text/plain")],
                    b"hello over tls\n",
                )
                .await?
            }
            _ => ex.respond_with(404, &[], b"Not Found\n").await?,
        }
        Ok(())
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(cert), Some(key)) = (arg(&args, "--cert"), arg(&args, "--key")) else {
        eprintln!("usage: tls_tokio --cert CERT.pem --key KEY.pem [--addr ADDR]");
        std::process::exit(2);
    };
    let addr = arg(&args, "--addr").unwrap_or_else(|| "127.0.0.1:8443".into());
    // The TLS setup: the certificate and key, and the listener with its handshake.
    let tls = ServerTls::from_pem_files(cert, key)?;
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let mut builder = Server::builder().server_name("http-net");
    if let Some(n) = arg(&args, "--max-connections").and_then(|n| n.parse().ok()) {
        builder = builder.max_connections(n);
    }
    if let Some(n) = arg(&args, "--setup-rate-per-peer").and_then(|n| n.parse::<u32>().ok()) {
        builder = builder.setup_rate_per_peer(n, n.saturating_mul(2));
    }
    let server = builder.listener_with_setup(listener, tls);
    println!("listening on https://{}", server.local_addr()?);
    io::stdout().flush()?;
    server.serve(Hello).await?;
    Ok(())
}

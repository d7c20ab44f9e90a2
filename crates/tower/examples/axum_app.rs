//! An axum `Router` served by `http-net-tokio` through `http-net-tower`:
//! `cargo run --release -p http-net-tower --features axum --example axum_app`.
//!
//! The routes are in `support/app.rs` (path and query extractors, JSON in
//! and out, `DefaultBodyLimit`, a streamed download and upload, a WebSocket
//! echo on the crate's upgrade handle, and the garden echo contract for
//! every other path, so that `cargo xtask proxies --origin` runs against
//! it). The server's body limit is the upload route's (1 GiB); the other
//! routes lower it to 1 MiB.
//!
//! `hello_tokio`'s flags: `--addr ADDR` (default `127.0.0.1:8080`; port 0
//! picks a free one), `--max-connections N` (default 1,024), `--front-line`
//! (the front-line strict profile). It prints `listening on http://ADDR`,
//! runs on a current-thread runtime, and every response carries
//! `Server: http-net` and `Date`. SIGINT or SIGTERM stops it gracefully
//! (requests in flight finish), and it exits 0.

#[path = "support/app.rs"]
mod app;

use http_net_tokio::ServerOptions;
use std::io::Write;
use std::process::exit;

use http_net_tokio::Server;
use http_net_tower::ServiceHandler;

/// Resolves at the first SIGINT or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

fn main() {
    let usage = || -> ! {
        eprintln!("usage: axum_app [--addr ADDR] [--max-connections N] [--front-line]");
        exit(2);
    };
    let mut addr = String::from("127.0.0.1:8080");
    let mut max_connections = 1024;
    let mut front_line = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--front-line" {
            front_line = true;
            continue;
        }
        match (arg.as_str(), args.next()) {
            ("--addr", Some(a)) => addr = a,
            ("--max-connections", Some(n)) => match n.parse() {
                Ok(n) if n > 0 => max_connections = n,
                _ => usage(),
            },
            _ => usage(),
        }
    }
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("axum_app: no runtime: {e}");
            exit(1);
        }
    };
    exit(rt.block_on(async move {
        let server = match Server::builder()
            .server_name("http-net")
            .max_connections(max_connections)
            .front_line(front_line)
            .max_body_bytes(app::UPLOAD_LIMIT)
            .bind(&addr)
            .await
        {
            Ok(s) => s,
            Err(e) => {
                eprintln!("axum_app: cannot listen on {addr}: {e}");
                return 2;
            }
        };
        let local = server.local_addr().map_or(addr, |a| a.to_string());
        println!("listening on http://{local}");
        let _ = std::io::stdout().flush();
        let handle = server.handle();
        tokio::spawn(async move {
            stop_signal().await;
            handle.shutdown();
        });
        // The garden route echoes the head as received.
        let handler = ServiceHandler::new(app::router()).received_head(true);
        match server.serve(handler).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("axum_app: {e}");
                1
            }
        }
    }))
}

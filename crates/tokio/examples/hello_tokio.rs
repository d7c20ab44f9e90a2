//! `hello` on tokio: `cargo run --release -p http-net-tokio --example hello_tokio`.
//!
//! Serves `127.0.0.1:8080` (`--addr ADDR` to change it; port 0 picks a free
//! one) on a current-thread runtime and prints `listening on http://ADDR`
//! with the real address (`--max-connections N` sets the connection limit,
//! default 1,024: beyond it the connection making least progress is
//! evicted, else the new one is answered `503`; `--front-line` turns the
//! front-line strict profile on: forms the RFC allows but real parsers read
//! differently, such as `Content-Length: 05`, get `400`):
//! - `GET /plaintext` → `Hello, World!` (`text/plain`)
//! - `GET /json` → `{"message":"Hello, World!"}` (`application/json`)
//! - `GET /` → a small HTML page
//! - other paths → `404`; methods other than `GET` and `HEAD` on these paths → `405`.
//!
//! Every response carries `Server: http-net` and `Date`, including the error
//! responses the server writes itself. SIGINT or SIGTERM stops it
//! gracefully (requests in flight finish), and it exits 0.

#[path = "support/runtime.rs"]
mod runtime;

use http_net_tokio::ServerOptions;
use std::io::Write;
use std::process::exit;

use http_net_tokio::http_net_conn::{LocalError, Method, PreparedResponse};
use http_net_tokio::{Exchange, Handler, HandlerError, Server};

const PAGE: &[u8] = b"<!DOCTYPE html>
<html lang=\"en\">
<head><meta charset=\"utf-8\"><title>http-net</title></head>
<body>
<h1 id=\"greeting\">Hello, World!</h1>
<p>Served by the http-net <code>hello_tokio</code> example.</p>
</body>
</html>
";

struct Answers {
    plain: PreparedResponse,
    json: PreparedResponse,
    html: PreparedResponse,
    not_found: PreparedResponse,
    not_allowed: PreparedResponse,
}

fn answers() -> Result<Answers, LocalError> {
    // `Server` and `Date` are written by the connection (the builder's
    // `server_name`), on these answers and on its own error responses.
    Ok(Answers {
        plain: PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")])?,
        json: PreparedResponse::new(200, &[(b"Content-Type", b"application/json")])?,
        html: PreparedResponse::new(200, &[(b"Content-Type", b"text/html; charset=utf-8")])?,
        not_found: PreparedResponse::new(404, &[(b"Content-Type", b"text/plain")])?,
        not_allowed: PreparedResponse::new(
            405,
            &[(b"Content-Type", b"text/plain"), (b"Allow", b"GET, HEAD")],
        )?,
    })
}

impl Handler for Answers {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        let (ok, body): (&PreparedResponse, &[u8]) = match ex.path() {
            b"/plaintext" => (&self.plain, b"Hello, World!"),
            b"/json" => (&self.json, br#"{"message":"Hello, World!"}"#),
            b"/" => (&self.html, PAGE),
            _ => return Ok(ex.respond(&self.not_found, b"Not Found\n").await?),
        };
        match ex.method() {
            Method::Get | Method::Head => ex.respond(ok, body).await?,
            _ => {
                ex.respond(&self.not_allowed, b"Method Not Allowed\n")
                    .await?
            }
        }
        Ok(())
    }
}

/// Resolves at the first SIGINT or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn main() {
    let usage = || -> ! {
        eprintln!("usage: hello_tokio [--addr ADDR] [--max-connections N] [--front-line]");
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
    let a = match answers() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("hello_tokio: {e:?}");
            exit(1);
        }
    };
    runtime::run("hello_tokio", async move {
        let server = match Server::builder()
            .server_name("http-net")
            .max_connections(max_connections)
            .front_line(front_line)
            .bind(&addr)
            .await
        {
            Ok(s) => s,
            Err(e) => {
                eprintln!("hello_tokio: cannot listen on {addr}: {e}");
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
        match server.serve(a).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("hello_tokio: {e}");
                1
            }
        }
    })
}

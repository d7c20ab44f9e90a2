//! The README's first command: `cargo run --release --example hello`.
//!
//! Serves `127.0.0.1:8080` (`--addr ADDR` to change it; port 0 picks a free
//! one) and prints `listening on http://ADDR` with the real address:
//! - `GET /plaintext` → `Hello, World!` (`text/plain`)
//! - `GET /json` → `{"message":"Hello, World!"}` (`application/json`)
//! - `GET /` → a small HTML page
//! - other paths → `404`; methods other than `GET` and `HEAD` on these paths → `405`.
//!
//! Every response carries `Server: http-net` and `Date`, including the error
//! responses the server writes itself (400, 408, 413, 414, 417, 431, 503...).
//!
//! `--max-connections N` sets the connection limit (default 1,024; beyond it
//! clients get `503`). `--front-line` turns the front-line strict profile
//! on (`ServerBuilder::front_line`: forms the RFC allows but real parsers
//! read differently, such as `Content-Length: 05`, get `400`). SIGINT or SIGTERM stops it gracefully: no new
//! connections, idle ones closed, responses in flight finished (for up to
//! 30 s), then exit 0; a second signal exits at once.

use http_net::conn::ServerOptions;
use std::process::exit;

use http_net::blocking::{Error, Exchange, Server};
use http_net::conn::PreparedResponse;

#[path = "support/stop.rs"]
mod stop;

const PAGE: &[u8] = b"<!DOCTYPE html>
<html lang=\"en\">
<head><meta charset=\"utf-8\"><title>http-net</title></head>
<body>
<h1 id=\"greeting\">Hello, World!</h1>
<p>Served by the http-net <code>hello</code> example.</p>
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

fn answers() -> Result<Answers, http_net::conn::LocalError> {
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

fn handle(a: &Answers, ex: &mut Exchange<'_>) -> Result<(), Error> {
    use http_net::head::Method;
    let (ok, body): (&PreparedResponse, &[u8]) = match ex.path() {
        b"/plaintext" => (&a.plain, b"Hello, World!"),
        b"/json" => (&a.json, br#"{"message":"Hello, World!"}"#),
        b"/" => (&a.html, PAGE),
        _ => return ex.respond(&a.not_found, b"Not Found\n"),
    };
    match ex.method() {
        Method::Get | Method::Head => ex.respond(ok, body),
        _ => ex.respond(&a.not_allowed, b"Method Not Allowed\n"),
    }
}

fn usage() -> ! {
    eprintln!("usage: hello [--addr ADDR] [--max-connections N] [--front-line]");
    exit(2)
}

fn main() {
    let mut addr = String::from("127.0.0.1:8080");
    let mut builder = Server::builder().server_name("http-net");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--front-line" {
            builder = builder.front_line(true);
            continue;
        }
        match (arg.as_str(), args.next()) {
            ("--addr", Some(a)) => addr = a,
            ("--max-connections", Some(n)) => match stop::max_connections(&n) {
                Some(n) => builder = builder.max_connections(n),
                None => usage(),
            },
            _ => usage(),
        }
    }
    let a = match answers() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("hello: {e:?}");
            exit(1);
        }
    };
    let server = stop::start("hello", &addr, builder);
    if let Err(e) = server.serve(move |ex: &mut Exchange<'_>| handle(&a, ex)) {
        eprintln!("hello: {e}");
        exit(1);
    }
}

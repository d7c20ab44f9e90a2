//! `echo` on tokio: the conformance origin on `http-net-tokio`'s server,
//! `cargo run -p http-net-tokio --example echo_tokio -- --format garden|probe`.
//!
//! The same contract, paths and flags as the std server's `echo`
//! (`crates/http-net/examples/echo.rs`, whose doc is the reference):
//! - `garden`: every accepted request is answered `200` with the JSON
//!   `{"method":B,"version":B,"uri":B,"headers":[[B,B],...],"body":B}`, each
//!   `B` the standard base64 of the raw bytes (the method, the version
//!   digits, the target as received, the fields as received in order, the
//!   de-chunked body).
//! - `probe`: the whole request body is read (at most 1 MiB held, `413` over
//!   that) before the response head is sent, so that a framing error in the
//!   body gets its `400` and a stalled body the body timeout's `408`; then
//!   `/echo` lists the fields (`Name: value` lines), a `POST` or a request
//!   with a body elsewhere gets its body back, anything else `OK`.
//!   `/stream` with a body echoes it piece by piece as it arrives, and
//!   answers early by design (a bad or stalled body cuts that response
//!   short instead of getting `400` or `408`).
//!
//! Flags: `--addr ADDR` (default `127.0.0.1:8080`, port 0 picks a free one),
//! `--max-connections N` (default 1,024), `--body-timeout S` (default 30,
//! fractions allowed), `--front-line` (the front-line strict profile). It
//! prints `listening on http://ADDR`, runs on a current-thread runtime, and
//! gives every other server setting explicitly with `echo`'s values, so that
//! the two servers' defaults cannot make them answer differently. SIGINT or
//! SIGTERM stops it gracefully (requests in flight finish, then exit 0); a
//! second signal exits at once.

#[path = "support/runtime.rs"]
mod runtime;

use http_net_tokio::ServerOptions;
use std::io::Write;
use std::process::exit;
use std::time::Duration;

use http_net_tokio::http_net_conn::{BodyKind, BodyLength, BodyLimits, Config, Method, Version};
use http_net_tokio::{Error, Exchange, Handler, HandlerError, Server, ServerBuilder};

const SERVER: (&[u8], &[u8]) = (b"Server", b"http-net-echo");

/// The most body bytes the probe format holds for one request (none at
/// `/stream`), as `echo`'s.
const HELD_BODY: u64 = 1024 * 1024;

/// What the flags set; everything else is fixed in [`settings`].
struct Flags {
    max_connections: usize,
    body_timeout: Duration,
    front_line: bool,
}

/// Every setting of the server, given explicitly with `echo`'s values (the
/// std server's defaults where they differ from this server's: the 16 KiB
/// output high water and 1,000 requests a connection).
fn settings(f: &Flags) -> ServerBuilder {
    let secs = Duration::from_secs;
    Server::builder()
        .conn_config(
            Config::DEFAULT
                .with_output_high_water(16 * 1024)
                .with_body_limits(BodyLimits::DEFAULT.with_body_budget(8 * 1024 * 1024)),
        )
        .front_line(f.front_line)
        .max_connections(f.max_connections)
        .max_connections_per_peer(0)
        .eviction_grace(secs(1))
        .max_requests_per_connection(1000)
        .idle_timeout(secs(30))
        .head_timeout(secs(10))
        .body_timeout(f.body_timeout)
        .write_timeout(secs(30))
        .min_body_rate(240, secs(10))
        .min_response_rate(240, secs(10))
        .response_timeout(None)
        .drain(secs(2), 1024 * 1024)
        .shutdown_timeout(secs(30))
        .tunnels(false)
}

/// Standard base64 (RFC 4648 §4) with padding.
fn base64(input: &[u8], out: &mut Vec<u8>) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for chunk in input.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(ALPHABET[(n >> 18) as usize & 63]);
        out.push(ALPHABET[(n >> 12) as usize & 63]);
        out.push(if chunk.len() > 1 {
            ALPHABET[(n >> 6) as usize & 63]
        } else {
            b'='
        });
        out.push(if chunk.len() > 2 {
            ALPHABET[n as usize & 63]
        } else {
            b'='
        });
    }
}

/// A JSON string holding the base64 of `bytes` (base64 needs no escaping).
fn json_b64(bytes: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    base64(bytes, out);
    out.push(b'"');
}

/// The whole request body; over `limit` the connection answers `413`.
async fn read_all(ex: &mut Exchange<'_>, limit: Option<u64>) -> Result<Vec<u8>, Error> {
    if let Some(limit) = limit {
        ex.conn().limit_body(limit).map_err(Error::Protocol)?;
    }
    let mut body = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match ex.read_body(&mut buf).await? {
            0 => return Ok(body),
            n => body.extend_from_slice(&buf[..n]),
        }
    }
}

struct Garden;

impl Handler for Garden {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        let Some(req) = ex.request() else {
            return Ok(ex.respond_with(500, &[SERVER], b"").await?);
        };
        let version: &[u8] = match req.version() {
            Version::Http10 => b"1.0",
            Version::Http11 => b"1.1",
        };
        let mut json = Vec::with_capacity(256);
        json.extend_from_slice(b"{\"method\":");
        json_b64(req.method_bytes(), &mut json);
        json.extend_from_slice(b",\"version\":");
        json_b64(version, &mut json);
        json.extend_from_slice(b",\"uri\":");
        json_b64(req.target(), &mut json);
        json.extend_from_slice(b",\"headers\":[");
        for (i, (name, value)) in req.fields().enumerate() {
            if i > 0 {
                json.push(b',');
            }
            json.push(b'[');
            json_b64(name, &mut json);
            json.push(b',');
            json_b64(value, &mut json);
            json.push(b']');
        }
        json.extend_from_slice(b"],\"body\":");
        let body = read_all(ex, None).await?;
        json_b64(&body, &mut json);
        json.push(b'}');
        ex.respond_with(
            200,
            &[SERVER, (b"Content-Type", b"application/json")],
            &json,
        )
        .await?;
        Ok(())
    }
}

struct Probe;

impl Handler for Probe {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        let Some(req) = ex.request() else {
            return Ok(ex.respond_with(500, &[SERVER], b"").await?);
        };
        let has_body = !matches!(req.body_kind(), BodyKind::None | BodyKind::Length(0));
        let is_post = req.method() == Method::Post;
        let length = match req.body_kind() {
            BodyKind::Length(n) => BodyLength::Known(n),
            BodyKind::None => BodyLength::Known(0),
            _ => BodyLength::Streamed,
        };
        if ex.path() == b"/stream" && (is_post || has_body) {
            return Ok(echo_body(ex, length).await?);
        }
        // The whole body first: over 1 MiB the server answers 413, a
        // framing error 400, a stall 408 (the read fails, nothing was sent).
        let body = read_all(ex, Some(HELD_BODY)).await?;
        if ex.path() == b"/echo" {
            let mut lines = Vec::new();
            if let Some(req) = ex.request() {
                for (name, value) in req.fields() {
                    lines.extend_from_slice(name);
                    lines.extend_from_slice(b": ");
                    lines.extend_from_slice(value);
                    lines.push(b'\n');
                }
            }
            ex.respond_with(200, &[SERVER, (b"Content-Type", b"text/plain")], &lines)
                .await?;
            return Ok(());
        }
        if is_post || has_body {
            ex.respond_with(
                200,
                &[SERVER, (b"Content-Type", b"application/octet-stream")],
                &body,
            )
            .await?;
            return Ok(());
        }
        ex.respond_with(200, &[SERVER, (b"Content-Type", b"text/plain")], b"OK")
            .await?;
        Ok(())
    }
}

/// Sends the request body back as it arrives, one read at a time, in
/// pieces of at most 16 KiB.
async fn echo_body(ex: &mut Exchange<'_>, length: BodyLength) -> Result<(), Error> {
    let mut buf = vec![0u8; 16 * 1024];
    // The first read comes before the head, so that a client that asked for
    // `100 Continue` gets it (no interim response follows a final head).
    let mut n = ex.read_body(&mut buf).await?;
    ex.send_head(
        200,
        &[SERVER, (b"Content-Type", b"application/octet-stream")],
        length,
    )?;
    while n > 0 {
        ex.send_data(&buf[..n]).await?;
        n = ex.read_body(&mut buf).await?;
    }
    ex.send_end(&[])
}

/// Resolves at the next SIGINT or SIGTERM.
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

fn usage() -> ! {
    eprintln!(
        "usage: echo_tokio [--addr ADDR] [--max-connections N] [--body-timeout S] [--front-line] --format garden|probe"
    );
    exit(2)
}

/// `S` seconds (fractions allowed) as a duration: positive, at most a day.
fn seconds(s: &str) -> Option<Duration> {
    let t: f64 = s.parse().ok()?;
    (t > 0.0 && t <= 86_400.0).then(|| Duration::from_secs_f64(t))
}

fn main() {
    let mut addr = String::from("127.0.0.1:8080");
    let mut format = None;
    let mut flags = Flags {
        max_connections: 1024,
        body_timeout: Duration::from_secs(30),
        front_line: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--front-line" {
            flags.front_line = true;
            continue;
        }
        match (arg.as_str(), args.next()) {
            ("--addr", Some(a)) => addr = a,
            ("--format", Some(f)) if f == "garden" || f == "probe" => format = Some(f),
            ("--max-connections", Some(n)) => match n.parse() {
                Ok(n) if n > 0 => flags.max_connections = n,
                _ => usage(),
            },
            ("--body-timeout", Some(t)) => match seconds(&t) {
                Some(t) => flags.body_timeout = t,
                None => usage(),
            },
            _ => usage(),
        }
    }
    let garden_format = match format.as_deref() {
        Some("garden") => true,
        Some("probe") => false,
        _ => usage(),
    };
    runtime::run("echo_tokio", async move {
        let server = match settings(&flags).bind(&addr).await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("echo_tokio: cannot listen on {addr}: {e}");
                return 2;
            }
        };
        let local = server.local_addr().map_or(addr, |a| a.to_string());
        println!("listening on http://{local}");
        let _ = std::io::stdout().flush();
        let handle = server.handle();
        tokio::spawn(async move {
            stop_signal().await;
            eprintln!("echo_tokio: stopping (requests in flight finish; again to stop at once)");
            handle.shutdown();
            stop_signal().await;
            eprintln!("echo_tokio: stopping now");
            exit(130);
        });
        let served = if garden_format {
            server.serve(Garden).await
        } else {
            server.serve(Probe).await
        };
        match served {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("echo_tokio: {e}");
                1
            }
        }
    })
}

//! A conformance origin: `echo --addr ADDR --format garden|probe`.
//!
//! - `garden`: every accepted request is answered `200` with the JSON
//!   `{"method":B,"version":B,"uri":B,"headers":[[B,B],...],"body":B}`, each
//!   `B` the standard base64 of the raw bytes: the method, the version digits
//!   (`1.1`), the target as received, every field name as received and value
//!   as parsed (OWS trimmed) in received order (trailers not listed), and the
//!   body after de-chunking.
//! - `probe`: the whole request body is read before the response head is
//!   sent, holding at most 1 MiB (a body over that gets `413`), so that a
//!   framing error in the body gets its `400` and a body that never ends
//!   the body timeout's `408`, never a `200` first. Then: `/echo` (any
//!   method) → `200` `text/plain` with one `Name: value` line per received
//!   field, in order; a `POST`, or any request with a body, to another
//!   path → `200` with the body echoed (`Content-Length`); every other
//!   request → `200` `OK`.
//! - `probe`, `/stream` with a body (or a `POST`): the body echoed back
//!   piece by piece as it arrives, never held whole (`Content-Length` as the
//!   request's, or chunked for a chunked request; a client sending a large
//!   body must read while it sends). It answers early by design: the `200`
//!   head leaves with the first piece, before the body is known to be
//!   whole or valid, so a framing error or a stalled body cuts the
//!   response short (the connection closes) instead of getting `400` or
//!   `408`.
//!
//! Requests the strict parser rejects get its error status (400, 431, ...).
//! Prints `listening on http://ADDR`; `--addr` defaults to `127.0.0.1:8080`
//! (port 0 picks a free one). Flags:
//! - `--max-connections N`: the connection limit (default 1,024; beyond it
//!   clients get `503`);
//! - `--body-timeout S`: the longest wait, in seconds, for the next bytes
//!   of a request body (default 30; fractions allowed);
//! - `--front-line`: the front-line strict profile
//!   (`ServerBuilder::front_line` of `http_net::blocking`).
//!
//! Every other server setting is given explicitly (see `settings`), with
//! the same values as `echo_tokio`'s (`crates/tokio/examples`), so that the
//! two servers' defaults cannot make them answer differently. SIGINT or
//! SIGTERM stops it gracefully: no new connections, idle ones closed,
//! responses in flight finished (for up to 30 s), then exit 0; a second
//! signal exits at once.

use http_net::conn::ServerOptions;
use std::io::Read;
use std::process::exit;
use std::time::Duration;

use http_net::blocking::ServerBuilder;
use http_net::blocking::{Error, Exchange, Server};
use http_net::conn::{BodyLength, Config};
use http_net::framing::BodyKind;
use http_net::framing::BodyLimits;
use http_net::head::{Method, Version};

#[path = "support/stop.rs"]
mod stop;

const SERVER: (&[u8], &[u8]) = (b"Server", b"http-net-echo");

/// The most body bytes the probe format holds for one request (the
/// streaming echo at `/stream` holds none): 1,024 slow bodies at once hold
/// at most 1 GiB, not the 8 GiB of the server's 8 MiB budget.
const HELD_BODY: u64 = 1024 * 1024;

/// What the flags set; everything else is fixed in [`settings`].
struct Flags {
    max_connections: usize,
    body_timeout: Duration,
    front_line: bool,
}

/// Every setting of the server, given explicitly (the values are
/// `http_net::blocking`'s defaults of today, and `echo_tokio` gives the same),
/// with the flags'.
fn settings(f: &Flags) -> ServerBuilder {
    let secs = Duration::from_secs;
    Server::builder()
        // Reading pauses once 16 KiB of responses wait to be sent; bodies
        // up to 8 MiB (the streaming echo's bound).
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

fn garden(ex: &mut Exchange<'_>) -> Result<(), Error> {
    let Some(req) = ex.request() else {
        return ex.respond_with(500, &[SERVER], b"");
    };
    let method = req.method_bytes().to_vec();
    let version: &[u8] = match req.version() {
        Version::Http10 => b"1.0",
        Version::Http11 => b"1.1",
    };
    let uri = req.target().to_vec();
    let mut json = Vec::with_capacity(256);
    json.extend_from_slice(b"{\"method\":");
    json_b64(&method, &mut json);
    json.extend_from_slice(b",\"version\":");
    json_b64(version, &mut json);
    json.extend_from_slice(b",\"uri\":");
    json_b64(&uri, &mut json);
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
    let mut body = Vec::new();
    ex.body().read_to_end(&mut body)?;
    json_b64(&body, &mut json);
    json.push(b'}');
    ex.respond_with(
        200,
        &[SERVER, (b"Content-Type", b"application/json")],
        &json,
    )
}

fn probe(ex: &mut Exchange<'_>) -> Result<(), Error> {
    let Some(req) = ex.request() else {
        return ex.respond_with(500, &[SERVER], b"");
    };
    let has_body = !matches!(req.body_kind(), BodyKind::None | BodyKind::Length(0));
    let is_post = req.method() == Method::Post;
    let length = match req.body_kind() {
        BodyKind::Length(n) => BodyLength::Known(n),
        BodyKind::None => BodyLength::Known(0),
        _ => BodyLength::Streamed,
    };
    if ex.path() == b"/stream" && (is_post || has_body) {
        return echo_body(ex, length);
    }
    // The whole body first: over 1 MiB the server answers 413, a framing
    // error 400, a stall 408 (the read fails and nothing was sent).
    ex.limit_body(HELD_BODY)?;
    let mut body = Vec::new();
    ex.body().read_to_end(&mut body)?;
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
        return ex.respond_with(200, &[SERVER, (b"Content-Type", b"text/plain")], &lines);
    }
    if is_post || has_body {
        return ex.respond_with(
            200,
            &[SERVER, (b"Content-Type", b"application/octet-stream")],
            &body,
        );
    }
    ex.respond_with(200, &[SERVER, (b"Content-Type", b"text/plain")], b"OK")
}

/// Sends the request body back as it arrives, one read at a time, in pieces
/// of at most 16 KiB (the connection's read chunk): with 1,024 slow bodies
/// at once the pieces hold 16 MiB, where 64 KiB ones held 64 MiB.
fn echo_body(ex: &mut Exchange<'_>, length: BodyLength) -> Result<(), Error> {
    let mut buf = vec![0u8; 16 * 1024];
    // The first read comes before the head, so that a client that asked for
    // `100 Continue` gets it (no interim response follows a final head).
    let mut n = ex.body().read(&mut buf)?;
    ex.send_head(
        200,
        &[SERVER, (b"Content-Type", b"application/octet-stream")],
        length,
    )?;
    while n > 0 {
        ex.send_data(&buf[..n])?;
        n = ex.body().read(&mut buf)?;
    }
    ex.send_end(&[])
}

fn usage() -> ! {
    eprintln!(
        "usage: echo [--addr ADDR] [--max-connections N] [--body-timeout S] [--front-line] --format garden|probe"
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
            ("--max-connections", Some(n)) => match stop::max_connections(&n) {
                Some(n) => flags.max_connections = n,
                None => usage(),
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
    let server = stop::start("echo", &addr, settings(&flags));
    let served = if garden_format {
        server.serve(garden)
    } else {
        server.serve(probe)
    };
    if let Err(e) = served {
        eprintln!("echo: {e}");
        exit(1);
    }
}

//! A small reverse proxy: `proxy --upstream http://HOST:PORT [--addr ADDR]`.
//!
//! Every request is sent on to the upstream with its method, target, fields
//! (less the hop-by-hop ones, RFC 9110 §7.6.1) and body, streamed: the
//! request body is read from the client while it is sent upstream, and the
//! response body is copied back as it arrives, through fixed buffers. An
//! upstream that cannot be reached gives `502`. Prints `listening on
//! http://ADDR`.

use http_net::conn::ClientOptions;
use http_net::conn::ServerOptions;
use std::io::{self, Read, Write};

use http_net::blocking::{Client, RequestBody, Server};
use http_net::blocking::{Error, Exchange};
use http_net::conn::{BodyLength, Config};
use http_net::framing::BodyLimits;

/// Fields that concern one connection only, never forwarded; framing
/// fields are rewritten by each side's own connection.
const HOP: [&[u8]; 10] = [
    b"connection",
    b"keep-alive",
    b"proxy-connection",
    b"te",
    b"trailer",
    b"transfer-encoding",
    b"upgrade",
    b"content-length",
    b"host",
    b"expect",
];

fn forwarded(name: &[u8]) -> bool {
    !HOP.iter().any(|h| name.eq_ignore_ascii_case(h))
}

/// The proxy's server configuration: bodies of any size pass through (the
/// server's 8 MiB default budget is for bodies a handler buffers).
pub const STREAMING: Config =
    Config::DEFAULT.with_body_limits(BodyLimits::DEFAULT.with_body_budget(0));

/// Forwards one exchange to `upstream` (`http://HOST:PORT`).
pub fn forward(client: &Client, upstream: &str, ex: &mut Exchange<'_>) -> Result<(), Error> {
    let Some(req) = ex.request() else {
        return Ok(());
    };
    let method = req.method_bytes().to_vec();
    let url = format!("{upstream}{}", String::from_utf8_lossy(req.target()));
    let fields: Vec<(Vec<u8>, Vec<u8>)> = req
        .fields()
        .filter(|(n, _)| forwarded(n))
        .map(|(n, v)| (n.to_vec(), v.to_vec()))
        .collect();
    let len = req
        .field(b"content-length")
        .and_then(|v| std::str::from_utf8(v).ok()?.parse().ok());
    let has_body = len.is_some() || req.field(b"transfer-encoding").is_some();
    let pairs: Vec<(&[u8], &[u8])> = fields.iter().map(|(n, v)| (&n[..], &v[..])).collect();
    let mut body = ex.body();
    let sent = if has_body {
        let reader = RequestBody::Reader {
            reader: &mut body,
            len,
        };
        client.send(&method, &url, &pairs, reader)
    } else {
        client.send(&method, &url, &pairs, RequestBody::Empty)
    };
    let mut resp = match sent {
        Ok(r) => r,
        Err(_) => return ex.respond_with(502, &[], b"bad gateway\n"),
    };
    let len = match resp
        .field(b"content-length")
        .and_then(|v| std::str::from_utf8(v).ok()?.parse().ok())
    {
        Some(n) => BodyLength::Known(n),
        None if method == b"HEAD" || matches!(resp.status(), 204 | 304) => BodyLength::Empty,
        None => BodyLength::Streamed,
    };
    let back: Vec<(Vec<u8>, Vec<u8>)> = resp
        .fields()
        .filter(|(n, _)| {
            forwarded(n) && !n.eq_ignore_ascii_case(b"date") && !n.eq_ignore_ascii_case(b"server")
        })
        .map(|(n, v)| (n.to_vec(), v.to_vec()))
        .collect();
    let pairs: Vec<(&[u8], &[u8])> = back.iter().map(|(n, v)| (&n[..], &v[..])).collect();
    ex.send_head(resp.status(), &pairs, len)?;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match resp.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => ex.send_data(&buf[..n])?,
            // The response is started: all that is left is to cut it short.
            Err(e) => return Err(Error::from_io(e)),
        }
    }
    ex.send_end(&[])
}

#[allow(dead_code)] // the test runs `forward` in a server of its own
fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let Some(upstream) = arg("--upstream") else {
        eprintln!("usage: proxy --upstream http://HOST:PORT [--addr ADDR]");
        std::process::exit(2);
    };
    let upstream = upstream.trim_end_matches('/').to_owned();
    let server = Server::builder()
        .conn_config(STREAMING)
        .bind(arg("--addr").unwrap_or_else(|| "127.0.0.1:8081".into()))?;
    println!("listening on http://{}", server.local_addr()?);
    io::stdout().flush()?;
    let client = Client::builder().expect_continue(None).build();
    server.serve(move |ex: &mut Exchange<'_>| forward(&client, &upstream, ex))
}

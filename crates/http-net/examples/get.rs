//! The client: `get [-i] URL`.
//!
//! Writes the response body to stdout (with `-i`, the status line and the
//! fields first) and exits 0 on a well-formed response whatever its status
//! (redirects are not followed); exits 1 with a message on stderr when the
//! response is malformed, unsafe or truncated, or its body still carries a
//! transfer coding (`Transfer-Encoding: gzip` without `chunked`: the client
//! decodes only `chunked`); exits 2 on usage, connection
//! errors and timeouts.

use http_net::conn::ClientOptions;
use std::io::{Read, Write};
use std::process::exit;
use std::time::Duration;

use http_net::blocking::{Client, Error};
use http_net::conn::Stage;

fn fail(e: &Error) -> ! {
    eprintln!("get: {e}");
    let code = match e {
        Error::Protocol(http_net::conn::Error::Remote(_))
        | Error::ConnectionClosed
        | Error::UnsupportedTransferCoding(_) => 1,
        _ => 2,
    };
    exit(code)
}

fn main() {
    let mut head = false;
    let mut url = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "-i" => head = true,
            _ if url.is_none() && !arg.starts_with('-') => url = Some(arg),
            _ => url = None,
        }
    }
    let Some(url) = url else {
        eprintln!("usage: get [-i] URL");
        exit(2)
    };
    // The body streams to stdout, so no body budget applies (0 = none).
    let config = http_net::conn::Config::DEFAULT
        .with_body_limits(http_net::framing::BodyLimits::DEFAULT.with_body_budget(0));
    let client = Client::builder()
        .conn_config(config)
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(Duration::from_secs(30))
        .write_timeout(Duration::from_secs(30))
        .build();
    let mut resp = match client.get(&url) {
        Ok(r) => r,
        Err(Error::Url(e)) => {
            eprintln!("get: {e}\nusage: get [-i] URL");
            exit(2)
        }
        Err(e) => fail(&e),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut write = |bytes: &[u8]| {
        if out.write_all(bytes).is_err() {
            exit(2);
        }
    };
    if head {
        let version: &[u8] = resp.version().as_bytes();
        let mut line = Vec::new();
        line.extend_from_slice(version);
        line.extend_from_slice(format!(" {} ", resp.status()).as_bytes());
        line.extend_from_slice(resp.reason());
        line.extend_from_slice(b"\r\n");
        for (n, v) in resp.fields() {
            line.extend_from_slice(n);
            line.extend_from_slice(b": ");
            line.extend_from_slice(v);
            line.extend_from_slice(b"\r\n");
        }
        line.extend_from_slice(b"\r\n");
        write(&line);
    }
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match resp.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => write(&buf[..n]),
            Err(e) => {
                let e = Error::from_io(e);
                if matches!(e, Error::Timeout(Stage::Body)) {
                    eprintln!("get: the response body stalled");
                }
                fail(&e)
            }
        }
    }
    if out.flush().is_err() {
        exit(2);
    }
}

//! A streaming server: `stream --root DIR [--addr ADDR]`.
//!
//! - `GET /count/{n}`: `n` lines (`line 1` ...), a chunked body written
//!   and flushed line by line as it is made, with an `X-Lines: n` trailer;
//! - `GET /files/{name}` and `HEAD`: the file `name` of `DIR` (one path
//!   segment, percent-decoded; no `/` and no leading `.`), read and sent
//!   through one 64 KiB buffer whatever its size, with `Content-Length`.
//!   `HEAD` gets the same head and the file is not read at all. A single
//!   `Range: bytes=A-B` (or `A-`, or `-N`) gets `206` and that part
//!   (RFC 9110 §14.2); a range past the end `416`; any other `Range` the
//!   whole file.
//!
//! Prints `listening on http://ADDR`.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use http_net::blocking::{Error, Exchange, Server};
use http_net::conn::{percent_decode, BodyLength};
use http_net::head::Method;

/// Counts to `n`, one flushed chunk per line, then the trailer.
fn count(ex: &mut Exchange<'_>, n: u64) -> Result<(), Error> {
    ex.send_head(
        200,
        &[(b"Content-Type", b"text/plain")],
        BodyLength::Streamed,
    )?;
    if !ex.is_head() {
        for i in 1..=n {
            ex.send_data(format!("line {i}\n").as_bytes())?;
            ex.flush()?; // each line leaves now, not with the next
        }
    }
    ex.send_end(&[(b"X-Lines", n.to_string().as_bytes())])
}

/// The one range of a `Range` value for a file of `len` bytes: `Ok(None)`
/// for the whole file (no range, or one this server does not take),
/// `Err(())` when it starts past the end (416).
fn range(value: Option<&[u8]>, len: u64) -> Result<Option<(u64, u64)>, ()> {
    let Some(spec) = value.and_then(|v| v.strip_prefix(b"bytes=")) else {
        return Ok(None);
    };
    let spec = std::str::from_utf8(spec).map_err(|_| ())?;
    let Some((a, b)) = spec.split_once('-') else {
        return Ok(None);
    };
    let (start, end) = match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(a), Ok(b)) if a <= b => (a, b.min(len.saturating_sub(1))),
        (Ok(a), Err(_)) if b.is_empty() => (a, len.saturating_sub(1)),
        (Err(_), Ok(n)) if a.is_empty() && n > 0 => (len.saturating_sub(n), len.saturating_sub(1)),
        _ => return Ok(None), // several ranges, or a malformed one
    };
    if start >= len {
        return Err(());
    }
    Ok(Some((start, end)))
}

fn file(ex: &mut Exchange<'_>, root: &Path, name: &[u8]) -> Result<(), Error> {
    let name = match percent_decode(name) {
        Ok(n) if !n.is_empty() && !n.starts_with(b".") && !n.contains(&b'/') => n,
        _ => return ex.respond_with(404, &[], b"no such file\n"),
    };
    let path = root.join(String::from_utf8_lossy(&name).as_ref());
    let Ok(mut f) = File::open(&path) else {
        return ex.respond_with(404, &[], b"no such file\n");
    };
    let len = f.metadata()?.len();
    let (status, start, n, content_range) = match range(ex.field(b"range"), len) {
        Ok(None) => (200, 0, len, None),
        Ok(Some((a, b))) => (206, a, b - a + 1, Some(format!("bytes {a}-{b}/{len}"))),
        Err(()) => {
            let unsatisfied = format!("bytes */{len}");
            let fields = [(&b"Content-Range"[..], unsatisfied.as_bytes())];
            return ex.respond_with(416, &fields, b"");
        }
    };
    let mut fields = vec![
        (&b"Content-Type"[..], &b"application/octet-stream"[..]),
        (b"Accept-Ranges", b"bytes"),
    ];
    if let Some(cr) = &content_range {
        fields.push((b"Content-Range", cr.as_bytes()));
    }
    ex.send_head(status, &fields, BodyLength::Known(n))?;
    if ex.is_head() {
        return ex.send_end(&[]); // the length of a body never read
    }
    f.seek(SeekFrom::Start(start))?;
    let mut part = f.take(n);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let got = part.read(&mut buf)?;
        if got == 0 {
            break;
        }
        ex.send_data(&buf[..got])?;
    }
    ex.send_end(&[])
}

fn handle(root: &Path, ex: &mut Exchange<'_>) -> Result<(), Error> {
    let Some(head) = ex.request_head() else {
        return Ok(());
    };
    if !matches!(ex.method(), Method::Get | Method::Head) {
        return ex.respond_with(405, &[(b"Allow", b"GET, HEAD")], b"");
    }
    let path = head.path();
    if let Some(n) = path.strip_prefix(b"/count/") {
        match std::str::from_utf8(n).ok().and_then(|n| n.parse().ok()) {
            Some(n) if n <= 1_000_000 => return count(ex, n),
            _ => return ex.respond_with(400, &[], b"count: 0 to 1000000\n"),
        }
    }
    match path.strip_prefix(b"/files/") {
        Some(name) => file(ex, root, name),
        None => ex.respond_with(404, &[], b"no such route\n"),
    }
}

fn main() {
    let (mut addr, mut root, mut ok) = (String::from("127.0.0.1:8080"), None, true);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match (flag.as_str(), args.next()) {
            ("--addr", Some(a)) => addr = a,
            ("--root", Some(r)) => root = Some(PathBuf::from(r)),
            _ => ok = false,
        }
    }
    let (Some(root), true) = (root, ok) else {
        eprintln!("usage: stream --root DIR [--addr ADDR]");
        std::process::exit(2);
    };
    let server = Server::bind(&addr).unwrap_or_else(|e| {
        eprintln!("stream: cannot listen on {addr}: {e}");
        std::process::exit(2)
    });
    println!("listening on http://{}", server.local_addr().unwrap());
    let _ = std::io::stdout().flush();
    if let Err(e) = server.serve(move |ex: &mut Exchange<'_>| handle(&root, ex)) {
        eprintln!("stream: {e}");
        std::process::exit(1);
    }
}

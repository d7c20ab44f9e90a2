//! A large download streamed to a file: `download URL FILE`.
//!
//! The body goes from the socket to the file through one 64 KiB buffer, so
//! memory stays flat whatever the size (the std client has no body budget:
//! a `Read` takes any length). Prints `STATUS BYTES` and exits 0 on a `2xx`,
//! 1 on another status or an error.

use http_net::conn::ClientOptions;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::time::Duration;

use http_net::blocking::Client;
use http_net::blocking::Error;

/// Fetches `url` into `path`; returns the status and the bytes written.
pub fn download(url: &str, path: &str) -> Result<(u16, u64), Error> {
    let client = Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(Duration::from_secs(30))
        .build();
    let mut resp = client.get(url)?;
    let status = resp.status();
    let mut out = BufWriter::with_capacity(64 * 1024, File::create(path)?);
    // `io::copy` reads and writes through a fixed stack buffer.
    let n = io::copy(&mut resp, &mut out).map_err(Error::from_io)?;
    out.flush()?;
    Ok((status, n))
}

#[allow(dead_code)] // the test calls `download` and not `main`
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, path] = &args[..] else {
        eprintln!("usage: download URL FILE");
        std::process::exit(2);
    };
    match download(url, path) {
        Ok((status, n)) => {
            println!("{status} {n}");
            std::process::exit(if (200..300).contains(&status) { 0 } else { 1 });
        }
        Err(e) => {
            eprintln!("download: {e}");
            std::process::exit(1);
        }
    }
}

//! Shared by the std adapter's tests that script an origin by hand.

use std::io::Read;
use std::net::TcpStream;

/// Reads one request head (and its small Content-Length body) from `s`.
pub fn read_request(s: &mut TcpStream) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut b = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        match s.read(&mut b) {
            Ok(1) => buf.push(b[0]),
            _ => return None,
        }
    }
    let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
    if let Some(len) = head.lines().find_map(|l| {
        l.strip_prefix("content-length:")
            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
    }) {
        let mut body = vec![0u8; len];
        s.read_exact(&mut body).ok()?;
        buf.extend_from_slice(&body);
    }
    Some(buf)
}

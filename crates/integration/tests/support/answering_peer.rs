//! The peer of the clients' allocation tests (`alloc_std_client.rs`,
//! `alloc_tokio_client.rs`): one connection, the same answer to every
//! request, written with the standard library only so that nothing of the
//! client under test runs on its side.

use std::io::{Read, Write};
use std::net::TcpListener;

/// Answers every request on one connection with the same 5-field response
/// and a 64-byte body (a request is its head, plus the body its
/// `Content-Length` says).
pub fn peer(l: TcpListener) {
    let (mut s, _) = l.accept().unwrap();
    let body = [b'x'; 64];
    let mut answer = b"HTTP/1.1 200 OK\r\nServer: p\r\nContent-Type: text/plain\r\nX-A: 1\r\nX-B: 2\r\nContent-Length: 64\r\n\r\n".to_vec();
    answer.extend_from_slice(&body);
    let mut buf: Vec<u8> = Vec::new();
    let mut tmp = [0u8; 4096];
    loop {
        // One whole request in `buf`?
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .map_or(0, |v| v.parse().unwrap());
            if buf.len() >= end + 4 + len {
                buf.drain(..end + 4 + len);
                if s.write_all(&answer).is_err() {
                    return;
                }
                continue;
            }
        }
        match s.read(&mut tmp) {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&tmp[..n]),
        }
    }
}

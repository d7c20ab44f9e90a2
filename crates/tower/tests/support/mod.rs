//! What the tests share: a server running a service on a runtime of its
//! own, raw requests over `std::net`, and a small response reader
//! (length, chunked with trailers, or until close).
#![allow(dead_code)]

use http_net_tokio::ServerOptions;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_net_tokio::{Mistake, ServerBuilder, ServerHandle};

/// A server on 127.0.0.1 with its runtime's thread; stopped on drop.
pub struct Running {
    pub addr: SocketAddr,
    pub handle: ServerHandle,
    pub mistakes: Arc<Mutex<Vec<Mistake>>>,
    /// The handler errors the access log saw, as text.
    pub errors: Arc<Mutex<Vec<String>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.handle.shutdown();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Starts `builder` serving `handler` on a current-thread runtime of its
/// own; mistakes and the access log's handler errors are collected.
pub fn start<H: http_net_tokio::Handler>(builder: ServerBuilder, handler: H) -> Running {
    let mistakes = Arc::new(Mutex::new(Vec::new()));
    let errors = Arc::new(Mutex::new(Vec::new()));
    let (m, e) = (Arc::clone(&mistakes), Arc::clone(&errors));
    let builder = builder
        .shutdown_timeout(Duration::from_secs(2))
        .mistake_log(move |x| m.lock().unwrap().push(*x))
        .access_log(move |r| {
            if let Some(err) = r.error() {
                e.lock().unwrap().push(format!("{err}"));
            }
        });
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let server = builder.bind("127.0.0.1:0").await.unwrap();
            tx.send((server.local_addr().unwrap(), server.handle()))
                .unwrap();
            server.serve(handler).await.unwrap();
        });
    });
    let (addr, handle) = rx.recv().unwrap();
    Running {
        addr,
        handle,
        mistakes,
        errors,
        thread: Some(thread),
    }
}

/// A connected socket with a read timeout.
pub fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Sends `raw` and reads until the server closes.
pub fn exchange(addr: SocketAddr, raw: &[u8]) -> Vec<u8> {
    let mut s = connect(addr);
    s.write_all(raw).unwrap();
    read_all(&mut s)
}

/// Reads until the peer closes (or a reset: what came before it).
pub fn read_all(s: &mut TcpStream) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
}

/// A response as read off the wire.
#[derive(Debug, Default)]
pub struct Resp {
    pub status: u16,
    pub fields: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub trailers: Vec<(String, String)>,
    /// The body was chunked.
    pub chunked: bool,
    /// The body was complete (its length, its last chunk; or until close).
    pub complete: bool,
}

impl Resp {
    /// The first field named `name` (case-insensitive).
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn lines(block: &[u8]) -> Vec<(String, String)> {
    String::from_utf8_lossy(block)
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let (n, v) = l.split_once(':')?;
            Some((n.to_string(), v.trim().to_string()))
        })
        .collect()
}

/// Reads one response (skipping 1xx ones) from the front of `bytes`; the
/// rest is returned. `head` says the request was `HEAD` (no body).
pub fn parse_one(bytes: &[u8], head: bool) -> (Resp, &[u8]) {
    let mut rest = bytes;
    loop {
        let end = find(rest, b"\r\n\r\n").expect("a whole head");
        let block = &rest[..end];
        let status: u16 = String::from_utf8_lossy(&block[9..12]).parse().unwrap();
        let line_end = find(block, b"\r\n").unwrap_or(block.len());
        let fields = lines(&block[line_end..]);
        rest = &rest[end + 4..];
        if (100..200).contains(&status) && status != 101 {
            continue;
        }
        let mut r = Resp {
            status,
            fields,
            ..Resp::default()
        };
        if head || status == 204 || status == 304 || status == 101 {
            r.complete = true;
            return (r, rest);
        }
        if r.field("transfer-encoding").is_some() {
            r.chunked = true;
            loop {
                let Some(le) = find(rest, b"\r\n") else {
                    return (r, &[]);
                };
                let size_text = String::from_utf8_lossy(&rest[..le]);
                let size_text = size_text.split(';').next().unwrap_or("").trim().to_string();
                let size = usize::from_str_radix(&size_text, 16).unwrap();
                rest = &rest[le + 2..];
                if size == 0 {
                    let t_end = find(rest, b"\r\n\r\n").map(|e| e + 4);
                    let t_end = match (t_end, rest.starts_with(b"\r\n")) {
                        (_, true) => 2,
                        (Some(e), false) => e,
                        (None, false) => return (r, &[]),
                    };
                    r.trailers = lines(&rest[..t_end]);
                    r.complete = true;
                    return (r, &rest[t_end..]);
                }
                if rest.len() < size + 2 {
                    r.body.extend_from_slice(&rest[..rest.len().min(size)]);
                    return (r, &[]);
                }
                r.body.extend_from_slice(&rest[..size]);
                rest = &rest[size + 2..];
            }
        }
        if let Some(n) = r.field("content-length") {
            let n: usize = n.parse().unwrap();
            let take = n.min(rest.len());
            r.body = rest[..take].to_vec();
            r.complete = take == n;
            return (r, &rest[take..]);
        }
        // Close-delimited.
        r.body = rest.to_vec();
        r.complete = true;
        return (r, &[]);
    }
}

/// One response to one request, sent with `Connection: close` by the
/// caller or closed by the server.
pub fn parse(bytes: &[u8]) -> Resp {
    parse_one(bytes, false).0
}

/// Waits (up to 5 s) until `f` holds.
pub fn eventually(mut f: impl FnMut() -> bool) -> bool {
    for _ in 0..500 {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

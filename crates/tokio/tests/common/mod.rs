//! Shared by the tests: a server on its own runtime thread, and a blocking
//! loopback client that reads one response at a time.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::JoinHandle;
use std::time::Duration;

use http_net_tokio::{Error, Exchange, Handler, ServerBuilder, ServerHandle};

/// A server running on a runtime of its own thread; `stop` shuts it down
/// and waits for `serve` to return.
pub struct Running {
    pub addr: SocketAddr,
    pub handle: ServerHandle,
    thread: Option<JoinHandle<std::io::Result<()>>>,
}

impl Running {
    pub fn stop(mut self) {
        self.handle.shutdown();
        let t = self.thread.take().expect("running");
        t.join().expect("server thread").expect("serve");
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.handle.shutdown();
    }
}

/// Starts `builder` on 127.0.0.1:0 with `handler`, on a current-thread
/// runtime (`multi` false) or a two-worker multi-thread one.
pub fn start<H: Handler>(builder: ServerBuilder, handler: H, multi: bool) -> Running {
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let rt = if multi {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
        } else {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
        }
        .expect("runtime");
        rt.block_on(async move {
            let server = builder.bind("127.0.0.1:0").await?;
            tx.send((server.local_addr()?, server.handle()))
                .expect("send");
            server.serve(handler).await
        })
    });
    let (addr, handle) = rx.recv_timeout(Duration::from_secs(10)).expect("started");
    Running {
        addr,
        handle,
        thread: Some(thread),
    }
}

pub fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// A connection to `addr` that has sent `req`.
pub fn sent(addr: SocketAddr, req: &[u8]) -> TcpStream {
    let mut s = connect(addr);
    s.write_all(req).unwrap();
    s
}

/// One response: status, head text, body (de-chunked).
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// Reads bytes into `buf` until it holds `needle`; false at end of stream
/// (or a read error, the read timeout among them).
pub fn fill_until(s: &mut TcpStream, buf: &mut Vec<u8>, needle: &[u8]) -> bool {
    let mut tmp = [0u8; 4096];
    while !buf.windows(needle.len()).any(|w| w == needle) {
        match s.read(&mut tmp) {
            Ok(0) | Err(_) => return false,
            Ok(n) => buf.extend_from_slice(&tmp[..n]),
        }
    }
    true
}

fn fill_to(s: &mut TcpStream, buf: &mut Vec<u8>, len: usize) -> bool {
    let mut tmp = [0u8; 4096];
    while buf.len() < len {
        match s.read(&mut tmp) {
            Ok(0) | Err(_) => return false,
            Ok(n) => buf.extend_from_slice(&tmp[..n]),
        }
    }
    true
}

/// Reads one response from `s`, keeping bytes past it in `rest`; `None` at
/// end of stream before a whole response. `head_request`: no body.
pub fn read_response(s: &mut TcpStream, rest: &mut Vec<u8>, head_request: bool) -> Option<Resp> {
    loop {
        if !fill_until(s, rest, b"\r\n\r\n") {
            return None;
        }
        let end = rest.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
        let head = String::from_utf8_lossy(&rest[..end]).into_owned();
        rest.drain(..end);
        let status: u16 = head.get(9..12)?.parse().ok()?;
        let mut r = Resp {
            status,
            head,
            body: Vec::new(),
        };
        if (100..200).contains(&status) && status != 101 {
            continue; // an interim response
        }
        if head_request || status == 101 || status == 204 || status == 304 {
            return Some(r);
        }
        if let Some(len) = r.field("content-length") {
            let len: usize = len.parse().ok()?;
            if !fill_to(s, rest, len) {
                return None;
            }
            r.body = rest.drain(..len).collect();
        } else if r.field("transfer-encoding").is_some() {
            loop {
                if !fill_until(s, rest, b"\r\n") {
                    return None;
                }
                let eol = rest.windows(2).position(|w| w == b"\r\n")?;
                let line = String::from_utf8_lossy(&rest[..eol]).into_owned();
                let size = usize::from_str_radix(line.split(';').next()?.trim(), 16).ok()?;
                rest.drain(..eol + 2);
                if size == 0 {
                    // Trailers end at an empty line.
                    if !fill_until(s, rest, b"\r\n") {
                        return None;
                    }
                    while !rest.starts_with(b"\r\n") {
                        if !fill_until(s, rest, b"\r\n\r\n") {
                            return None;
                        }
                        let e = rest.windows(4).position(|w| w == b"\r\n\r\n")? + 2;
                        rest.drain(..e);
                    }
                    rest.drain(..2);
                    break;
                }
                if !fill_to(s, rest, size + 2) {
                    return None;
                }
                r.body.extend(rest.drain(..size));
                rest.drain(..2);
            }
        } else {
            // Close-delimited.
            let _ = s.read_to_end(rest);
            r.body = std::mem::take(rest);
        }
        return Some(r);
    }
}

/// Sends `req` on a new connection and reads one response.
pub fn roundtrip(addr: SocketAddr, req: &[u8]) -> Option<Resp> {
    let mut s = connect(addr);
    s.write_all(req).ok()?;
    read_response(&mut s, &mut Vec::new(), req.starts_with(b"HEAD "))
}

/// Writes `req` on `s` and reads one response: its status.
pub fn status_of(s: &mut TcpStream, req: &[u8]) -> u16 {
    ask(s, req).status
}

/// Writes `req` on `s` and reads one response (to a `GET`-like request).
pub fn ask(s: &mut TcpStream, req: &[u8]) -> Resp {
    s.write_all(req).unwrap();
    read_response(s, &mut Vec::new(), false).unwrap()
}

/// Reads the next response on `s` (to a request already sent): its status.
pub fn next_status(s: &mut TcpStream) -> u16 {
    read_response(s, &mut Vec::new(), false).unwrap().status
}

/// A handler's read of the whole request body, `buf.len()` bytes at most a
/// read.
pub async fn read_whole(ex: &mut Exchange<'_>, buf: &mut [u8]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    loop {
        let n = ex.read_body(buf).await?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..n]);
    }
}

/// Whether the peer closed `s` (end of stream, or a reset) within the read
/// timeout, with nothing more to read.
pub fn closed(s: &mut TcpStream) -> bool {
    let mut b = [0u8; 64];
    match s.read(&mut b) {
        Ok(0) => true,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
        Ok(_) => false,
    }
}

/// The example's binary: `cargo test` builds examples beside the tests;
/// when only this test target was built, the example is built here, in a
/// target directory of its own (the test's own one may be locked by the
/// running `cargo test`), in the test's own profile (a `--release` test
/// runs a release server).
pub fn example_binary() -> std::path::PathBuf {
    // target/<profile>/deps/<test> -> target/<profile>/examples/hello_tokio
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().unwrap().parent().unwrap();
    let path = profile_dir.join("examples").join("hello_tokio");
    if path.exists() {
        return path;
    }
    let target = profile_dir.parent().unwrap().join("tokio-examples");
    let release = profile_dir.file_name() == Some(std::ffi::OsStr::new("release"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = std::process::Command::new(cargo);
    build.args([
        "build",
        "-q",
        "-p",
        "http-net-tokio",
        "--example",
        "hello_tokio",
    ]);
    if release {
        build.arg("--release");
    }
    let status = build
        .arg("--target-dir")
        .arg(&target)
        .status()
        .expect("cargo build");
    assert!(status.success());
    let profile = if release { "release" } else { "debug" };
    target.join(profile).join("examples").join("hello_tokio")
}

/// A loopback peer for the client's tests: accepts one connection, reads
/// the request head, then plays `script` ((pause in ms, bytes) in order)
/// and, unless the peer closed first, keeps the connection open `linger`
/// before it closes. Returns its port and its task.
pub async fn scripted_peer(
    script: Vec<(u64, &'static [u8])>,
    linger: Duration,
) -> (u16, tokio::task::JoinHandle<()>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    let t = tokio::spawn(async move {
        let Ok((mut s, _)) = l.accept().await else {
            return;
        };
        let mut head = Vec::new();
        let mut b = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match s.read(&mut b).await {
                Ok(1) => head.push(b[0]),
                _ => return,
            }
        }
        for (pause, bytes) in script {
            tokio::time::sleep(Duration::from_millis(pause)).await;
            if s.write_all(bytes).await.is_err() {
                return;
            }
        }
        tokio::time::sleep(linger).await;
    });
    (port, t)
}

/// A peer that reads the request head, writes `reply` and closes.
pub async fn answers_and_closes(reply: &'static [u8]) -> (u16, tokio::task::JoinHandle<()>) {
    scripted_peer(vec![(0, reply)], Duration::ZERO).await
}

/// Waits (up to 5 s) until `cond` holds, as a count made when a connection
/// ends (just after its last response left) does; panics naming `what`.
pub fn eventually(what: &str, cond: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !cond() {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

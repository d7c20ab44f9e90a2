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

/// Reads bytes into `buf` until it holds `needle`; false at end of stream.
fn fill_until(s: &mut TcpStream, buf: &mut Vec<u8>, needle: &[u8]) -> bool {
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

// ---- Real peers: finding and running external programs. ----

use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};

/// Heavy tests (load, browsers) take this lock so that they never overlap
/// within a test binary.
pub fn heavy() -> MutexGuard<'static, ()> {
    static HEAVY: Mutex<()> = Mutex::new(());
    match HEAVY.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// Whether `prog` can be run. When it cannot: with
/// `HTTP_NET_REQUIRE_PEERS=1` the test fails; otherwise it prints a note and
/// the caller skips.
pub fn have(prog: &str) -> bool {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {prog}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        if std::env::var("HTTP_NET_REQUIRE_PEERS").as_deref() == Ok("1") {
            panic!("{prog} is required (HTTP_NET_REQUIRE_PEERS=1) but was not found");
        }
        eprintln!(
            "note: skipping: {prog} not found (set HTTP_NET_REQUIRE_PEERS=1 to fail instead)"
        );
    }
    found
}

/// For a heavy test that runs `prog`: the [`heavy`] lock once `prog` is
/// found; `None` (the caller skips, as [`have`] says) when it is not.
pub fn heavy_peer(prog: &str) -> Option<MutexGuard<'static, ()>> {
    have(prog).then(heavy)
}

/// Runs a command with a time bound; returns (exit code, stdout, stderr).
pub fn run(cmd: &mut Command, limit: Duration) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let deadline = std::time::Instant::now() + limit;
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.code(),
        t_out.join().unwrap_or_default(),
        t_err.join().unwrap_or_default(),
    )
}

/// A free loopback port (bound then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process killed when dropped.
pub struct Proc(pub std::process::Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A fresh temporary directory (removed when dropped).
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let p =
            std::env::temp_dir().join(format!("http-net-tokio-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Deterministic pseudo-random bytes.
pub fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
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

//! Shared helpers of the real-peer tests: starting the examples, finding
//! external programs, raw sockets with timeouts, one heavy test at a time.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::thread::{self, JoinHandle};

use http_net::blocking::{Client, ClientResponse, RequestBody, ServerBuilder, ServerHandle};
use http_net::blocking::{Error, Exchange};
use http_net::conn::BodyLength;
use std::time::{Duration, Instant};

/// Sends `method url` without fields and with `reader` as its body, of
/// length `len` (`None`: unknown, sent chunked).
pub fn upload(
    client: &Client,
    method: &[u8],
    url: &str,
    reader: &mut dyn Read,
    len: Option<u64>,
) -> Result<ClientResponse, Error> {
    client.send(method, url, &[], RequestBody::Reader { reader, len })
}

/// Reads the request body to its end; its length.
pub fn body_len(ex: &mut Exchange<'_>) -> Result<u64, Error> {
    let mut n = 0u64;
    let mut buf = [0u8; 64 * 1024];
    let mut body = ex.body();
    loop {
        match body.read(&mut buf) {
            Ok(0) => return Ok(n),
            Ok(k) => n += k as u64,
            Err(e) => return Err(Error::from_io(e)),
        }
    }
}

/// Answers `200` with `len` bytes of `fill` under a `Content-Length`, sent
/// in 64 KiB pieces (never held at once).
pub fn send_generated(ex: &mut Exchange<'_>, len: u64, fill: u8) -> Result<(), Error> {
    ex.send_head(200, &[], BodyLength::Known(len))?;
    let chunk = [fill; 64 * 1024];
    let mut left = len;
    while left > 0 {
        let k = left.min(chunk.len() as u64) as usize;
        ex.send_data(&chunk[..k])?;
        left -= k as u64;
    }
    ex.send_end(&[])
}

/// Heavy tests (load, browsers, hundreds of sockets) take this lock so that
/// they never overlap within a test binary.
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

/// The target directory's profile folder (`target/debug`) of this test binary.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    // target/debug/deps/<test>-<hash>
    exe.parent()
        .and_then(Path::parent)
        .expect("profile dir")
        .to_path_buf()
}

/// The path of an example binary. `cargo test` builds the examples beside
/// the tests; when only a test target was built (`cargo test --test peers`),
/// the example is built here, in a target directory of its own (the test's
/// own one is locked by the running `cargo test`).
pub fn example(name: &str) -> PathBuf {
    static BUILD: Mutex<()> = Mutex::new(());
    let dir = profile_dir();
    let path = dir.join("examples").join(name);
    if path.exists() {
        return path;
    }
    let _g = BUILD.lock();
    let target = dir.parent().expect("target dir").join("peer-examples");
    let built = target.join("debug").join("examples").join(name);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    succeeded(
        &format!("building example {name}"),
        run(
            Command::new(cargo)
                .args(["build", "-p", "http-net", "--example", name, "--target-dir"])
                .arg(&target),
            Duration::from_secs(600),
        ),
    );
    built
}

/// The output of a [`run`] that must succeed; `what` names it in the
/// panic, with the error output.
pub fn succeeded(what: &str, (code, out, err): (Option<i32>, Vec<u8>, Vec<u8>)) -> Vec<u8> {
    assert_eq!(
        code,
        Some(0),
        "{what} failed: {}",
        String::from_utf8_lossy(&err)
    );
    out
}

/// A child process killed when dropped.
pub struct Proc {
    pub child: Child,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// [`start_example`] for a test that drives it with the program `prog`:
/// `None` when `prog` cannot be run (the test skips, see [`have`]).
pub fn start_example_for(prog: &str, name: &str, args: &[&str]) -> Option<(Proc, SocketAddr)> {
    have(prog).then(|| start_example(name, args))
}

/// Starts an example server on a free port and waits (at most 20 s) for its
/// `listening on http://ADDR` line.
pub fn start_example(name: &str, args: &[&str]) -> (Proc, SocketAddr) {
    start_example_on(name, args, "http")
}

/// [`start_example`] for a server that prints `listening on SCHEME://ADDR`.
pub fn start_example_on(name: &str, args: &[&str], scheme: &str) -> (Proc, SocketAddr) {
    let mut child = Command::new(example(name))
        .args(["--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start example");
    let stdout = child.stdout.take().expect("stdout");
    let proc = Proc { child };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("example did not print its address");
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .and_then(|l| l.strip_prefix(scheme))
        .and_then(|l| l.strip_prefix("://"))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .parse()
        .expect("address");
    (proc, addr)
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
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if Instant::now() >= deadline {
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
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A connection with read and write timeouts.
pub fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Sends `req` on a new connection and reads until the server closes.
pub fn raw(addr: SocketAddr, req: &[u8]) -> Vec<u8> {
    let mut s = connect(addr);
    s.write_all(req).unwrap();
    read_to_close(&mut s)
}

/// [`raw`], the answer as text.
pub fn raw_text(addr: SocketAddr, req: &[u8]) -> String {
    String::from_utf8_lossy(&raw(addr, req)).into_owned()
}

/// As [`raw_text`], asserting that the answer's status is `status`.
pub fn raw_answer(addr: SocketAddr, req: &[u8], status: u16) -> String {
    let text = raw_text(addr, req);
    assert_status(text.as_bytes(), status);
    text
}

/// Asserts that the bytes `got` begin with an HTTP/1.1 status line of
/// `status` (all of them, as text, in the message if not).
pub fn assert_status(got: &[u8], status: u16) {
    assert!(
        got.starts_with(format!("HTTP/1.1 {status} ").as_bytes()),
        "{:?}",
        String::from_utf8_lossy(got)
    );
}

/// Reads until the peer closes (or the read timeout); returns what came.
pub fn read_to_close(s: &mut TcpStream) -> Vec<u8> {
    let mut v = Vec::new();
    let mut buf = [0u8; 16384];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return v,
            Ok(n) => v.extend_from_slice(&buf[..n]),
        }
    }
}

/// Reads one response with a `Content-Length` body; returns (head, body).
pub fn read_response(s: &mut TcpStream) -> (String, Vec<u8>) {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        match s.read(&mut byte) {
            Ok(1) => buf.push(byte[0]),
            _ => panic!(
                "connection ended inside a head: {:?}",
                String::from_utf8_lossy(&buf)
            ),
        }
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let len = head
        .lines()
        .find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).expect("body");
    (head, body)
}

/// Sends `req` and reads one response.
pub fn roundtrip(s: &mut TcpStream, req: &[u8]) -> (String, Vec<u8>) {
    s.write_all(req).expect("write request");
    read_response(s)
}

/// VmRSS of this process, in bytes.
pub fn rss() -> u64 {
    status_bytes("VmRSS:")
}

/// VmHWM (peak resident memory) of this process, in bytes.
pub fn peak() -> u64 {
    status_bytes("VmHWM:")
}

/// A size in `/proc/self/status` (given in kB there), in bytes; 0 where
/// it is not known.
fn status_bytes(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// A fresh temporary directory (removed when dropped).
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let p = std::env::temp_dir().join(format!("http-net-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }

    /// Writes `contents` to the file `name` in the directory; its path.
    pub fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("temp file");
        path
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

/// A running in-process server; stopped (and checked to stop) when dropped.
pub struct Running {
    pub addr: SocketAddr,
    pub stop: ServerHandle,
    thread: Option<JoinHandle<std::io::Result<()>>>,
}

impl Running {
    pub fn start<H: http_net::blocking::Handler>(builder: ServerBuilder, handler: H) -> Running {
        let server = builder.bind("127.0.0.1:0").expect("bind");
        let addr = server.local_addr().unwrap();
        let stop = server.handle();
        let thread = Some(thread::spawn(move || server.serve(handler)));
        Running { addr, stop, thread }
    }

    /// Stops the server; returns how long `serve` took to return.
    pub fn stop(&mut self) -> Duration {
        let t0 = Instant::now();
        self.stop.shutdown();
        if let Some(t) = self.thread.take() {
            let deadline = Instant::now() + Duration::from_secs(20);
            while !t.is_finished() {
                assert!(
                    Instant::now() < deadline,
                    "serve did not return after shutdown"
                );
                thread::sleep(Duration::from_millis(10));
            }
            t.join().expect("serve panicked").expect("serve failed");
        }
        t0.elapsed()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if self.thread.is_some() && !thread::panicking() {
            self.stop();
        } else {
            self.stop.shutdown();
        }
    }
}

pub fn plain(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ex.respond_with(200, &[(b"Content-Type", b"text/plain")], b"ok")
}

pub const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";

/// Waits (at most 20 s) until something accepts connections on `port`;
/// panics if `proc` exits first.
pub fn wait_listening(port: u16, proc: &mut Proc) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(st)) = proc.child.try_wait() {
            panic!("server exited early: {st}");
        }
        assert!(
            std::time::Instant::now() < deadline,
            "nothing listens on port {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts nginx in the foreground on `127.0.0.1:port`, its files in `dir`,
/// and waits until it listens. `http` is added to its `http` block and
/// `server` to its one `server` block.
pub fn start_nginx(dir: &TempDir, port: u16, http: &str, server: &str) -> Proc {
    let d = dir.0.display();
    let conf = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{ worker_connections 64; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
           fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
           {http}\n\
           server {{\n    listen 127.0.0.1:{port};\n    {server}\n  }}\n}}\n"
    );
    let conf_path = dir.0.join("nginx.conf");
    std::fs::write(&conf_path, conf).unwrap();
    let mut proc = Proc {
        child: Command::new("nginx")
            .arg("-c")
            .arg(&conf_path)
            .arg("-p")
            .arg(&dir.0)
            .arg("-e")
            .arg(dir.0.join("error.log"))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx"),
    };
    wait_listening(port, &mut proc);
    proc
}

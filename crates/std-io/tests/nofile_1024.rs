//! Under `ulimit -n 1024` (a common default), with the default connection
//! limit (1,024, which needs 2,213 descriptors): the server lowers its
//! limit to what 1,024 descriptors hold, says so once on stderr, and once
//! that many connections are held, every client beyond them gets `503`
//! within 100 ms instead of waiting in the backlog.
//!
//! The server runs in a child process (this test binary again, running the
//! ignored test `child_server_1024` under `sh -c 'ulimit -n 1024; exec ...'`),
//! so that its open-file limit is not this process's.

use http_net_std::ServerOptions;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use http_net_std::{Error, Exchange, Server};

mod support;

/// What 1,024 descriptors hold: 2 per connection after the server's
/// reserve of 165 (the standard streams, the listener, the reserve
/// descriptor, 128 refused connections queued or draining, a margin of 32).
const CAP: usize = (1024 - 165) / 2;

/// Set (and signalled) when the child's standard input closes: the held
/// requests end.
static STOP: Mutex<bool> = Mutex::new(false);
static STOPPED: Condvar = Condvar::new();

#[test]
#[ignore = "run by `clients_beyond_the_cap_get_503_within_100_ms_under_ulimit_1024`, in a child process"]
fn child_server_1024() {
    if std::env::var("NOFILE_CHILD").as_deref() != Ok("1") {
        return;
    }
    let serving = support::serve(
        Server::builder().shutdown_timeout(Duration::from_secs(1)),
        |ex: &mut Exchange<'_>| -> Result<(), Error> {
            if ex.path() == b"/hold" {
                // Holds its slot, answering nothing, for a bounded time
                // (asleep: 429 threads polling would load the machine).
                let stop = STOP.lock().unwrap();
                let _ = STOPPED
                    .wait_timeout_while(stop, Duration::from_secs(60), |stop| !*stop)
                    .unwrap();
            }
            ex.respond_with(200, &[], b"ok")
        },
    );
    println!("listening on {}", serving.0);
    let _ = std::io::stdout().flush();
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    *STOP.lock().unwrap() = true;
    STOPPED.notify_all();
    support::stop(serving);
}

/// Sends a `GET` of `path` and reads the start of the answer, or the error.
fn ask(addr: SocketAddr, path: &str, wait: Duration) -> (TcpStream, std::io::Result<String>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: a\r\n\r\n").as_bytes())
        .unwrap();
    s.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 64];
    let r = s
        .read(&mut buf)
        .map(|n| String::from_utf8_lossy(&buf[..n]).into_owned());
    (s, r)
}

#[test]
fn clients_beyond_the_cap_get_503_within_100_ms_under_ulimit_1024() {
    if !std::path::Path::new("/proc/self/limits").exists() {
        eprintln!("note: skipping: no /proc/self/limits");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 1024 && exec \"$0\" --exact child_server_1024 --ignored --nocapture --test-threads=1")
        .arg(&exe)
        .env("NOFILE_CHILD", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its address from stdout, its warning from stderr, line by line.
    let (tx, rx) = mpsc::channel::<String>();
    for out in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    let (mut addr, mut warning) = (None, None);
    let deadline = Instant::now() + Duration::from_secs(30);
    while addr.is_none() || warning.is_none() {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = rx
            .recv_timeout(left)
            .expect("the child's address and warning");
        if let Some(a) = line.split("listening on ").nth(1) {
            addr = Some(a.trim().parse::<SocketAddr>().unwrap());
        } else if line.contains("open-file limit") {
            warning = Some(line);
        }
    }
    let (addr, warning) = (addr.unwrap(), warning.unwrap());
    assert!(
        warning.contains("the open-file limit is 1024")
            && warning.contains("max_connections 1024")
            && warning.contains(&format!("serving at most {CAP} connections")),
        "{warning}"
    );
    // Fill the cap with requests the handler holds, 32 at a time (so that
    // the accept loop keeps up and the listen backlog never overflows: a
    // dropped handshake would be retried a second later, and probes
    // admitted meanwhile), then make
    // sure each is admitted (held, not answered): a probe gets 503 once
    // they all are.
    let mut held: Vec<TcpStream> = Vec::with_capacity(CAP);
    while held.len() < CAP {
        for _ in 0..(CAP - held.len()).min(32) {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(b"GET /hold HTTP/1.1\r\nHost: a\r\n\r\n")
                .unwrap();
            held.push(s);
        }
        thread::sleep(Duration::from_millis(20));
    }
    let full_by = Instant::now() + Duration::from_secs(30);
    let mut admitted_probes = 0;
    loop {
        let (_, r) = ask(addr, "/", Duration::from_secs(5));
        match r {
            Ok(text) if text.starts_with("HTTP/1.1 503") => break,
            // Admitted while some held ones were still in the backlog.
            Ok(text) if text.starts_with("HTTP/1.1 200") => admitted_probes += 1,
            r => panic!("probe: {r:?}"),
        }
        if Instant::now() >= full_by {
            let mut answered = 0;
            for s in &mut held {
                s.set_nonblocking(true).unwrap();
                let r = s.read(&mut [0u8; 64]);
                if !matches!(&r, Err(e) if e.kind() == ErrorKind::WouldBlock) {
                    answered += 1;
                }
            }
            panic!(
                "the cap of {CAP} never filled: {admitted_probes} probes admitted, \
                 {answered} held requests answered or closed"
            );
        }
        thread::sleep(Duration::from_millis(20));
    }
    for (i, s) in held.iter_mut().enumerate() {
        s.set_nonblocking(true).unwrap();
        let r = s.read(&mut [0u8; 64]);
        assert!(
            matches!(&r, Err(e) if e.kind() == ErrorKind::WouldBlock),
            "held {i}: {r:?}"
        );
    }
    // A burst beyond the cap, at once: each answered 503 within 100 ms (a
    // few may pass it; none a second). In a debug build the accept loop
    // (its eviction scan over 429 connections, unoptimized) is slower, so
    // 100 there, 200 in a release build.
    let burst = if cfg!(debug_assertions) { 100 } else { 200 };
    support::assert_burst_of_503s(burst, || {
        let (_s, r) = ask(addr, "/", Duration::from_secs(5));
        r.unwrap_or_else(|e| panic!("{e}"))
    });
    drop(held);
    drop(child.stdin.take());
    assert!(child.wait().unwrap().success());
}

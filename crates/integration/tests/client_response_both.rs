//! Both clients' `ClientResponse`, written once and run against both
//! (`http_net_std::ClientResponse` and `http_net_tokio::ClientResponse`):
//!
//! - the body is a reader of its adapter's kind (`std::io::Read`,
//!   `tokio::io::AsyncRead`), so the runtime's `copy` takes it; a
//!   truncated body is an `UnexpectedEof` I/O error that carries the
//!   adapter's `Error` (its `from_io` gives it back), a body that stalls
//!   past the read timeout a `TimedOut` one;
//! - the trailers of a chunked body, and `is_done`, once the body is read;
//! - `reused`: whether the response came over a connection that had
//!   already carried an earlier response (false for a new connection: the
//!   first request, after the server closed, after a retry; each redirect
//!   hop judged on its own).
//!
//! The origins are raw `std::net` threads that script each answer, so both
//! clients meet the same bytes.

mod support;

use http_net_conn::ClientOptions;
use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use http_net_conn::{Error as ConnError, Redirects, RemoteError};
use support::std_io::read_request;

/// Closes the connection without answering (a script step).
const CLOSE: &str = "";

/// An origin that runs one script per accepted connection: after each
/// request it reads, the next step's raw bytes are written ([`CLOSE`]:
/// none, and the connection closes; a step with `Connection: close` closes
/// after it). Returns the request lines seen, per connection. It accepts
/// for at most 10 s, so a test whose client opens fewer connections than
/// scripted ends.
fn origin(scripts: Vec<Vec<&'static str>>) -> (SocketAddr, JoinHandle<Vec<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.set_nonblocking(true).unwrap();
    let addr = l.local_addr().unwrap();
    let t = thread::spawn(move || {
        let mut seen = Vec::new();
        let mut held = Vec::new();
        let until = Instant::now() + Duration::from_secs(10);
        for script in scripts {
            let Some(mut s) = accept(&l, until) else {
                break;
            };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut lines = Vec::new();
            let mut closed = false;
            for step in script {
                let Some(req) = read_request(&mut s) else {
                    break;
                };
                let line = String::from_utf8_lossy(&req);
                lines.push(line.lines().next().unwrap_or("").to_string());
                if step == CLOSE {
                    closed = true;
                    break;
                }
                s.write_all(step.as_bytes()).unwrap();
                if step.contains("Connection: close") {
                    closed = true;
                    break;
                }
            }
            seen.push(lines);
            // A connection that answered stays open until the origin ends.
            if !closed {
                held.push(s);
            }
        }
        seen
    });
    (addr, t)
}

/// The next connection, waiting at most until `until`.
fn accept(l: &TcpListener, until: Instant) -> Option<TcpStream> {
    loop {
        match l.accept() {
            Ok((s, _)) => {
                s.set_nonblocking(false).unwrap();
                return Some(s);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && Instant::now() < until => {
                thread::sleep(Duration::from_millis(5));
            }
            Err(_) => return None,
        }
    }
}

/// `200 OK` with `body`, the connection kept.
fn ok(body: &'static str) -> &'static str {
    match body {
        "one" => "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none",
        "two" => "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntwo",
        "three" => "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nthree",
        _ => "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    }
}

/// `200 OK` with `Connection: close`: the origin closes after it.
const OK_CLOSE: &str = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nclose";

/// A redirect to `/b`, the connection kept.
const TO_B: &str = "HTTP/1.1 302 Found\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n";

/// A redirect to `/b`, and the origin closes.
const TO_B_CLOSE: &str =
    "HTTP/1.1 302 Found\r\nLocation: /b\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/// A body of 100 bytes announced, 10 sent, then the close.
const TRUNCATED: &str =
    "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n0123456789";

/// A chunked body with two trailer fields.
const WITH_TRAILERS: &str = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Digest, X-Count\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-Digest: sha-256=abc\r\nX-Count: 2\r\n\r\n";

/// What a copy of the body into a `Vec` (the runtime's `copy`) gave: the
/// bytes, or the I/O error's kind and whether the adapter's error inside it
/// is the peer's truncated body (`from_io` gives back
/// `Protocol(Remote(UnexpectedEof))`).
type Copied = Result<Vec<u8>, (io::ErrorKind, bool)>;

/// A response's body read to its end, with what the response says of it
/// before and after.
#[derive(Debug, PartialEq, Eq)]
struct Read {
    body: Vec<u8>,
    done_before: bool,
    done_after: bool,
    trailers_before: usize,
    trailers: Vec<(String, String)>,
    digest: Option<String>,
}

/// The requests each test sends, through either client.
trait Both {
    fn name(&self) -> &'static str;
    /// `GET url`: the body and `reused()`, or the error as `Debug`.
    fn get(&self, url: &str) -> Result<(String, bool), String>;
    /// `GET url`, the body copied into a `Vec` by the runtime's `copy`.
    fn copy(&self, url: &str) -> Copied;
    /// `GET url`, the body copied into a `Vec` by the runtime's `copy`: the
    /// error's kind and whether the adapter's error inside it is a body
    /// read that timed out (`Timeout(Body)`).
    fn copy_timing_out(&self, url: &str) -> Option<(io::ErrorKind, bool)>;
    /// `GET url`, the body read with `read_body` into a small buffer.
    fn read(&self, url: &str) -> Read;
}

struct Std(http_net_std::Client);
struct Tokio(http_net_tokio::Client, tokio::runtime::Runtime);

fn owned<'a>(fields: impl Iterator<Item = (&'a [u8], &'a [u8])>) -> Vec<(String, String)> {
    fields
        .map(|(n, v)| {
            (
                String::from_utf8_lossy(n).into_owned(),
                String::from_utf8_lossy(v).into_owned(),
            )
        })
        .collect()
}

impl Both for Std {
    fn name(&self) -> &'static str {
        "std"
    }
    fn get(&self, url: &str) -> Result<(String, bool), String> {
        let mut r = self.0.get(url).map_err(|e| format!("{e:?}"))?;
        let body = r.body_to_vec(1024).map_err(|e| format!("{e:?}"))?;
        Ok((String::from_utf8_lossy(&body).into_owned(), r.reused()))
    }
    fn copy(&self, url: &str) -> Copied {
        let mut r = self.0.get(url).unwrap();
        let mut out = Vec::new();
        match io::copy(&mut r, &mut out) {
            Ok(_) => Ok(out),
            Err(e) => {
                let kind = e.kind();
                let inner = e.get_ref().is_some_and(|i| i.is::<http_net_std::Error>());
                let eof = matches!(
                    http_net_std::Error::from_io(e),
                    http_net_std::Error::Protocol(ConnError::Remote(RemoteError::UnexpectedEof))
                );
                Err((kind, inner && eof))
            }
        }
    }
    fn copy_timing_out(&self, url: &str) -> Option<(io::ErrorKind, bool)> {
        let mut r = self.0.get(url).unwrap();
        let e = io::copy(&mut r, &mut io::sink()).err()?;
        let kind = e.kind();
        let body = http_net_std::Stage::Body;
        let timeout =
            matches!(http_net_std::Error::from_io(e), http_net_std::Error::Timeout(s) if s == body);
        Some((kind, timeout))
    }
    fn read(&self, url: &str) -> Read {
        let mut r = self.0.get(url).unwrap();
        let done_before = r.is_done();
        let trailers_before = r.trailers().count();
        let mut body = Vec::new();
        let mut buf = [0u8; 3];
        loop {
            let n = r.read_body(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            body.extend_from_slice(&buf[..n]);
        }
        Read {
            body,
            done_before,
            done_after: r.is_done(),
            trailers_before,
            trailers: owned(r.trailers()),
            digest: r
                .trailer(b"x-digest")
                .map(|v| String::from_utf8_lossy(v).into_owned()),
        }
    }
}

impl Both for Tokio {
    fn name(&self) -> &'static str {
        "tokio"
    }
    fn get(&self, url: &str) -> Result<(String, bool), String> {
        self.1.block_on(async {
            let mut r = self.0.get(url).await.map_err(|e| format!("{e:?}"))?;
            let body = r.body_to_vec(1024).await.map_err(|e| format!("{e:?}"))?;
            Ok((String::from_utf8_lossy(&body).into_owned(), r.reused()))
        })
    }
    fn copy(&self, url: &str) -> Copied {
        self.1.block_on(async {
            let mut r = self.0.get(url).await.unwrap();
            let mut out = Vec::new();
            match tokio::io::copy(&mut r, &mut out).await {
                Ok(_) => Ok(out),
                Err(e) => {
                    let kind = e.kind();
                    let inner = e.get_ref().is_some_and(|i| i.is::<http_net_tokio::Error>());
                    let eof = matches!(
                        http_net_tokio::Error::from_io(e),
                        http_net_tokio::Error::Protocol(ConnError::Remote(
                            RemoteError::UnexpectedEof
                        ))
                    );
                    Err((kind, inner && eof))
                }
            }
        })
    }
    fn copy_timing_out(&self, url: &str) -> Option<(io::ErrorKind, bool)> {
        self.1.block_on(async {
            let mut r = self.0.get(url).await.unwrap();
            let e = tokio::io::copy(&mut r, &mut tokio::io::sink()).await.err()?;
            let kind = e.kind();
            let body = http_net_tokio::Stage::Body;
            let timeout = matches!(http_net_tokio::Error::from_io(e), http_net_tokio::Error::Timeout(s) if s == body);
            Some((kind, timeout))
        })
    }
    fn read(&self, url: &str) -> Read {
        self.1.block_on(async {
            let mut r = self.0.get(url).await.unwrap();
            let done_before = r.is_done();
            let trailers_before = r.trailers().count();
            let mut body = Vec::new();
            let mut buf = [0u8; 3];
            loop {
                let n = r.read_body(&mut buf).await.unwrap();
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&buf[..n]);
            }
            Read {
                body,
                done_before,
                done_after: r.is_done(),
                trailers_before,
                trailers: owned(r.trailers()),
                digest: r
                    .trailer(b"x-digest")
                    .map(|v| String::from_utf8_lossy(v).into_owned()),
            }
        })
    }
}

/// Both clients, following up to 5 redirects.
fn clients() -> Vec<Box<dyn Both>> {
    clients_waiting(Duration::from_secs(30))
}

/// Both clients, following up to 5 redirects, waiting at most `read` for
/// the next bytes of a response.
fn clients_waiting(read: Duration) -> Vec<Box<dyn Both>> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let follow = Redirects::follow(5);
    let std = http_net_std::Client::builder()
        .redirects(follow)
        .read_timeout(read);
    let tokio = http_net_tokio::Client::builder()
        .redirects(follow)
        .read_timeout(read);
    vec![
        Box::new(Std(std.build())),
        Box::new(Tokio(tokio.build(), rt)),
    ]
}

#[test]
fn the_runtimes_copy_takes_the_body() {
    for c in clients() {
        let (addr, t) = origin(vec![vec![ok("three")]]);
        let got = c.copy(&format!("http://{addr}/"));
        assert_eq!(got, Ok(b"three".to_vec()), "{}", c.name());
        t.join().unwrap();
    }
}

#[test]
fn the_runtimes_copy_takes_a_body_sent_in_pieces_with_pauses() {
    for c in clients() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let t = thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            read_request(&mut s).unwrap();
            let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
            s.write_all(head.as_bytes()).unwrap();
            for piece in ["4\r\nsome\r\n", "1\r\n \r\n", "6\r\npieces\r\n0\r\n\r\n"] {
                thread::sleep(Duration::from_millis(50));
                s.write_all(piece.as_bytes()).unwrap();
            }
            // Until the client is done with the connection.
            let _ = io::Read::read(&mut s, &mut [0u8; 1]);
        });
        let got = c.copy(&format!("http://{addr}/"));
        assert_eq!(got, Ok(b"some pieces".to_vec()), "{}", c.name());
        drop(c);
        t.join().unwrap();
    }
}

#[test]
fn a_truncated_body_is_unexpected_eof_carrying_the_adapters_error() {
    for c in clients() {
        let (addr, t) = origin(vec![vec![TRUNCATED]]);
        let got = c.copy(&format!("http://{addr}/"));
        assert_eq!(
            got,
            Err((io::ErrorKind::UnexpectedEof, true)),
            "{}",
            c.name()
        );
        t.join().unwrap();
    }
}

#[test]
fn a_body_that_stalls_times_out_in_the_runtimes_copy() {
    for c in clients_waiting(Duration::from_millis(300)) {
        // 10 of 100 bytes, then silence until the client gives up and
        // closes (at most 5 s).
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let t = thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            read_request(&mut s).unwrap();
            let stall = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789";
            s.write_all(stall.as_bytes()).unwrap();
            let t0 = Instant::now();
            let _ = io::Read::read(&mut s, &mut [0u8; 1]);
            t0.elapsed()
        });
        let got = c.copy_timing_out(&format!("http://{addr}/"));
        assert_eq!(got, Some((io::ErrorKind::TimedOut, true)), "{}", c.name());
        let held = t.join().unwrap();
        assert!(held < Duration::from_secs(3), "{}: {held:?}", c.name());
    }
}

#[test]
fn trailers_and_is_done_after_a_chunked_body() {
    for c in clients() {
        let (addr, t) = origin(vec![vec![WITH_TRAILERS]]);
        let got = c.read(&format!("http://{addr}/"));
        let want = Read {
            body: b"hello world".to_vec(),
            done_before: false,
            done_after: true,
            trailers_before: 0,
            trailers: vec![
                ("X-Digest".into(), "sha-256=abc".into()),
                ("X-Count".into(), "2".into()),
            ],
            digest: Some("sha-256=abc".into()),
        };
        assert_eq!(got, want, "{}", c.name());
        t.join().unwrap();
    }
}

#[test]
fn a_body_without_trailers_is_done_with_none() {
    for c in clients() {
        let (addr, t) = origin(vec![vec![ok("one")]]);
        let got = c.read(&format!("http://{addr}/"));
        let want = Read {
            body: b"one".to_vec(),
            done_before: false,
            done_after: true,
            trailers_before: 0,
            trailers: Vec::new(),
            digest: None,
        };
        assert_eq!(got, want, "{}", c.name());
        t.join().unwrap();
    }
}

#[test]
fn a_first_response_is_not_reused_the_next_on_its_connection_is() {
    for c in clients() {
        let (addr, t) = origin(vec![vec![ok("one"), ok("two"), ok("three")]]);
        let url = |p: &str| format!("http://{addr}{p}");
        assert_eq!(c.get(&url("/a")), Ok(("one".into(), false)), "{}", c.name());
        assert_eq!(c.get(&url("/b")), Ok(("two".into(), true)), "{}", c.name());
        assert_eq!(
            c.get(&url("/c")),
            Ok(("three".into(), true)),
            "{}",
            c.name()
        );
        assert_eq!(t.join().unwrap().len(), 1, "one connection: {}", c.name());
    }
}

#[test]
fn after_the_server_closed_the_next_response_is_not_reused() {
    for c in clients() {
        let (addr, t) = origin(vec![vec![OK_CLOSE], vec![ok("one"), ok("two")]]);
        let url = |p: &str| format!("http://{addr}{p}");
        assert_eq!(
            c.get(&url("/a")),
            Ok(("close".into(), false)),
            "{}",
            c.name()
        );
        assert_eq!(c.get(&url("/b")), Ok(("one".into(), false)), "{}", c.name());
        assert_eq!(c.get(&url("/c")), Ok(("two".into(), true)), "{}", c.name());
        let seen = t.join().unwrap();
        assert_eq!(
            seen,
            [
                vec!["GET /a HTTP/1.1"],
                vec!["GET /b HTTP/1.1", "GET /c HTTP/1.1"]
            ],
            "{}",
            c.name()
        );
    }
}

#[test]
fn a_response_after_a_retry_is_not_reused() {
    for c in clients() {
        // The kept connection closes under the second request: the client
        // sends it again on a new one.
        let (addr, t) = origin(vec![vec![ok("one"), CLOSE], vec![ok("two"), ok("three")]]);
        let url = |p: &str| format!("http://{addr}{p}");
        assert_eq!(c.get(&url("/a")), Ok(("one".into(), false)), "{}", c.name());
        assert_eq!(c.get(&url("/b")), Ok(("two".into(), false)), "{}", c.name());
        assert_eq!(
            c.get(&url("/c")),
            Ok(("three".into(), true)),
            "{}",
            c.name()
        );
        let seen = t.join().unwrap();
        assert_eq!(
            seen,
            [
                vec!["GET /a HTTP/1.1", "GET /b HTTP/1.1"],
                vec!["GET /b HTTP/1.1", "GET /c HTTP/1.1"]
            ],
            "retried once: {}",
            c.name()
        );
    }
}

#[test]
fn each_redirect_hop_is_judged_on_its_own() {
    for c in clients() {
        // A call that began on a new connection ends on a reused one: the
        // hop went out on the connection that carried the redirect.
        let (addr, t) = origin(vec![vec![TO_B, ok("one")]]);
        let url = |p: &str| format!("http://{addr}{p}");
        assert_eq!(c.get(&url("/a")), Ok(("one".into(), true)), "{}", c.name());
        assert_eq!(t.join().unwrap().len(), 1, "{}", c.name());
        // A call that began on a reused connection ends on a new one: the
        // redirect closed it.
        let (addr, t) = origin(vec![vec![ok("one"), TO_B_CLOSE], vec![ok("two")]]);
        let url = |p: &str| format!("http://{addr}{p}");
        assert_eq!(c.get(&url("/x")), Ok(("one".into(), false)), "{}", c.name());
        assert_eq!(c.get(&url("/a")), Ok(("two".into(), false)), "{}", c.name());
        let seen = t.join().unwrap();
        assert_eq!(
            seen,
            [
                vec!["GET /x HTTP/1.1", "GET /a HTTP/1.1"],
                vec!["GET /b HTTP/1.1"]
            ],
            "{}",
            c.name()
        );
    }
}

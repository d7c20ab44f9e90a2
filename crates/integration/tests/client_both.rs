//! The two clients' one surface, written once and run against both
//! (`http_net_std::Client` and `http_net_tokio::Client`, same names, one
//! blocking and one async): URLs with a path and a query, opt-in redirects
//! (the core's policy: `303` turns `POST` into `GET`, `307` keeps the
//! method and the body, credentials stay with the first origin, the hop
//! limit is reported), `Expect: 100-continue` (the body after `100`; a
//! `417` or `413` that comes instead is returned and the body is not
//! sent), a body over the caller's limit reported as the caller's
//! (`OverLimit`), and an `https://` URL refused without a TLS connector.
//!
//! The origins are raw `std::net` threads that script each answer, so both
//! clients meet the same bytes.

use http_net_conn::ClientOptions;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use http_net_conn::Redirects;

/// A request as the origin read it.
#[derive(Clone, Debug, Default)]
struct Seen {
    /// The request line.
    line: String,
    /// The fields, names lowercased.
    fields: Vec<(String, String)>,
    /// The body bytes the origin read.
    body: Vec<u8>,
}

impl Seen {
    fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    fn content_length(&self) -> usize {
        self.field("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }
}

/// Reads a request head (up to the empty line); `None` at end of stream.
fn read_head(s: &mut TcpStream) -> Option<Seen> {
    let mut head = Vec::new();
    let mut b = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match s.read(&mut b) {
            Ok(1) => head.push(b[0]),
            _ => return None,
        }
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let mut lines = text.split("\r\n");
    let line = lines.next().unwrap_or("").to_string();
    let fields = lines
        .filter(|l| !l.is_empty())
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some(Seen {
        line,
        fields,
        body: Vec::new(),
    })
}

/// Reads the body of `seen`: chunked, or of its `Content-Length`.
fn read_body(s: &mut TcpStream, seen: &mut Seen) {
    if seen.field("transfer-encoding") == Some("chunked") {
        return read_chunked(s, seen);
    }
    let mut body = vec![0u8; seen.content_length()];
    if s.read_exact(&mut body).is_ok() {
        seen.body = body;
    }
}

/// Reads a line, CRLF and surrounding spaces dropped.
fn read_line(s: &mut TcpStream) -> Option<String> {
    let mut l = Vec::new();
    let mut b = [0u8; 1];
    while !l.ends_with(b"\r\n") {
        match s.read(&mut b) {
            Ok(1) => l.push(b[0]),
            _ => return None,
        }
    }
    Some(String::from_utf8_lossy(&l).trim().to_string())
}

/// Reads a chunked body (RFC 9112 §7.1) into `seen`, trailers skipped.
fn read_chunked(s: &mut TcpStream, seen: &mut Seen) {
    loop {
        let Some(size) = read_line(s).and_then(|l| usize::from_str_radix(&l, 16).ok()) else {
            return;
        };
        if size == 0 {
            while read_line(s).is_some_and(|l| !l.is_empty()) {}
            return;
        }
        let mut chunk = vec![0u8; size + 2];
        if s.read_exact(&mut chunk).is_err() {
            return;
        }
        seen.body.extend_from_slice(&chunk[..size]);
    }
}

fn answer(s: &mut TcpStream, status: &str, fields: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\n{fields}Content-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = s.write_all(head.as_bytes());
    let _ = s.write_all(body);
}

/// What an origin does with one request (its head read): reads what it
/// wants of the body, answers; `false` closes the connection.
type Script = dyn Fn(&mut TcpStream, &mut Seen) -> bool + Send + Sync;

/// An origin on 127.0.0.1 running `script` on every request of every
/// connection (a thread each); the requests it saw, in order.
fn origin(script: Arc<Script>) -> (SocketAddr, Arc<Mutex<Vec<Seen>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { break };
            let script = Arc::clone(&script);
            let log = Arc::clone(&log);
            thread::spawn(move || {
                s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                while let Some(mut req) = read_head(&mut s) {
                    // Logged before it is answered (a client may look as
                    // soon as it has the answer), completed after.
                    let at = {
                        let mut log = log.lock().unwrap();
                        log.push(req.clone());
                        log.len() - 1
                    };
                    let go_on = script(&mut s, &mut req);
                    log.lock().unwrap()[at] = req;
                    if !go_on {
                        break;
                    }
                }
            });
        }
    });
    (addr, seen)
}

/// Echoes the method, target and body: `METHOD /target body`.
fn echo() -> Arc<Script> {
    Arc::new(|s, req| {
        read_body(s, req);
        let mut out = req
            .line
            .rsplit_once(' ')
            .map_or("", |(a, _)| a)
            .as_bytes()
            .to_vec();
        out.push(b' ');
        out.extend_from_slice(&req.body);
        answer(s, "200 OK", "", &out);
        true
    })
}

/// The settings a test gives both clients.
#[derive(Clone, Copy)]
struct Settings {
    redirects: Redirects,
    expect: Option<u64>,
    expect_wait: Duration,
    budget: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            redirects: Redirects::none(),
            expect: None,
            expect_wait: Duration::from_secs(1),
            budget: 0,
        }
    }
}

/// One request through either client: the status and the whole body
/// (read with `body_to_vec(limit)`), or the error as `Debug` (both clients'
/// errors have the same variant names).
trait Both {
    fn name(&self) -> &'static str;
    fn request(
        &self,
        method: &str,
        url: &str,
        fields: &[(&str, &str)],
        body: &[u8],
        limit: usize,
    ) -> Result<(u16, Vec<u8>), String>;
    /// `PUT url` with a body read from a reader of `body` (its length
    /// given when `known`, else sent chunked); the status and the body,
    /// read with `read_body` into a 3-byte buffer.
    fn put_reader(&self, url: &str, body: &[u8], known: bool) -> Result<(u16, Vec<u8>), String>;
}

struct Std(http_net_std::Client);
struct Tokio(http_net_tokio::Client, tokio::runtime::Runtime);

fn pairs<'a>(fields: &'a [(&'a str, &'a str)]) -> Vec<(&'a [u8], &'a [u8])> {
    fields
        .iter()
        .map(|(n, v)| (n.as_bytes(), v.as_bytes()))
        .collect()
}

impl Both for Std {
    fn name(&self) -> &'static str {
        "std"
    }
    fn request(
        &self,
        method: &str,
        url: &str,
        fields: &[(&str, &str)],
        body: &[u8],
        limit: usize,
    ) -> Result<(u16, Vec<u8>), String> {
        let mut r = self
            .0
            .request(method.as_bytes(), url, &pairs(fields), body)
            .map_err(|e| format!("{e:?}"))?;
        let got = r.body_to_vec(limit).map_err(|e| format!("{e:?}"))?;
        Ok((r.status(), got))
    }
    fn put_reader(&self, url: &str, body: &[u8], known: bool) -> Result<(u16, Vec<u8>), String> {
        let mut reader = body;
        let body = http_net_std::RequestBody::Reader {
            reader: &mut reader,
            len: known.then_some(body.len() as u64),
        };
        let mut r = self
            .0
            .request(b"PUT", url, &[], body)
            .map_err(|e| format!("{e:?}"))?;
        let (mut out, mut buf) = (Vec::new(), [0u8; 3]);
        loop {
            match r.read_body(&mut buf).map_err(|e| format!("{e:?}"))? {
                0 => return Ok((r.status(), out)),
                n => out.extend_from_slice(&buf[..n]),
            }
        }
    }
}

impl Both for Tokio {
    fn name(&self) -> &'static str {
        "tokio"
    }
    fn request(
        &self,
        method: &str,
        url: &str,
        fields: &[(&str, &str)],
        body: &[u8],
        limit: usize,
    ) -> Result<(u16, Vec<u8>), String> {
        self.1.block_on(async {
            let mut r = self
                .0
                .request(method.as_bytes(), url, &pairs(fields), body)
                .await
                .map_err(|e| format!("{e:?}"))?;
            let got = r.body_to_vec(limit).await.map_err(|e| format!("{e:?}"))?;
            Ok((r.status(), got))
        })
    }
    fn put_reader(&self, url: &str, body: &[u8], known: bool) -> Result<(u16, Vec<u8>), String> {
        self.1.block_on(async {
            let mut reader = body;
            let body = http_net_tokio::RequestBody::Reader {
                reader: &mut reader,
                len: known.then_some(body.len() as u64),
            };
            let mut r = self
                .0
                .request(b"PUT", url, &[], body)
                .await
                .map_err(|e| format!("{e:?}"))?;
            let (mut out, mut buf) = (Vec::new(), [0u8; 3]);
            loop {
                match r.read_body(&mut buf).await.map_err(|e| format!("{e:?}"))? {
                    0 => return Ok((r.status(), out)),
                    n => out.extend_from_slice(&buf[..n]),
                }
            }
        })
    }
}

fn clients(s: Settings) -> Vec<Box<dyn Both>> {
    use http_net_conn::BodyLimits;
    let std_config = http_net_std::CLIENT_CONFIG
        .with_body_limits(BodyLimits::DEFAULT.with_body_budget(s.budget));
    let std = http_net_std::Client::builder()
        .redirects(s.redirects)
        .expect_continue(s.expect)
        .expect_wait(s.expect_wait)
        .read_timeout(Duration::from_secs(5))
        .conn_config(std_config)
        .build();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let tokio_config = http_net_tokio::CLIENT_CONFIG
        .with_body_limits(BodyLimits::DEFAULT.with_body_budget(s.budget));
    let tokio = http_net_tokio::Client::builder()
        .redirects(s.redirects)
        .expect_continue(s.expect)
        .expect_wait(s.expect_wait)
        .read_timeout(Duration::from_secs(5))
        .conn_config(tokio_config)
        .build();
    vec![Box::new(Std(std)), Box::new(Tokio(tokio, rt))]
}

#[test]
fn a_url_sends_its_path_and_query_and_host() {
    for c in clients(Settings::default()) {
        let (addr, seen) = origin(echo());
        let url = format!("http://{addr}/a/b%20c?x=1&y=z#fragment");
        let got = c.request("GET", &url, &[], b"", 1024).unwrap();
        assert_eq!(
            got,
            (200, b"GET /a/b%20c?x=1&y=z ".to_vec()),
            "{}",
            c.name()
        );
        let seen = seen.lock().unwrap();
        assert_eq!(
            seen[0].field("host"),
            Some(&*addr.to_string()),
            "{}",
            c.name()
        );
        // An empty path is `/`, a query alone goes after it.
        drop(seen);
        let got = c
            .request("GET", &format!("http://{addr}?q"), &[], b"", 1024)
            .unwrap();
        assert_eq!(got.1, b"GET /?q ", "{}", c.name());
    }
}

/// Answers `/start` (or every target, when `always`) with `status` and
/// `Location: location`; echoes anything else.
fn redirecting(status: &'static str, location: String, always: bool) -> Arc<Script> {
    Arc::new(move |s, req| {
        read_body(s, req);
        if always || req.line.contains(" /start ") {
            answer(s, status, &format!("Location: {location}\r\n"), b"moved");
            return true;
        }
        let mut out = req
            .line
            .rsplit_once(' ')
            .map_or("", |(a, _)| a)
            .as_bytes()
            .to_vec();
        out.push(b' ');
        out.extend_from_slice(&req.body);
        answer(s, "200 OK", "", &out);
        true
    })
}

#[test]
fn a_303_turns_post_into_get_without_the_body() {
    let follow = Settings {
        redirects: Redirects::follow(5),
        ..Settings::default()
    };
    for c in clients(follow) {
        let (addr, seen) = origin(redirecting("303 See Other", "/done?k=v".into(), false));
        let fields = [("Content-Type", "text/plain"), ("X-Keep", "1")];
        let url = format!("http://{addr}/start");
        let got = c.request("POST", &url, &fields, b"data", 1024).unwrap();
        assert_eq!(got, (200, b"GET /done?k=v ".to_vec()), "{}", c.name());
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 2, "{}", c.name());
        assert_eq!(seen[1].field("content-type"), None, "{}", c.name());
        assert_eq!(seen[1].field("content-length"), None, "{}", c.name());
        assert_eq!(seen[1].field("x-keep"), Some("1"), "{}", c.name());
    }
}

#[test]
fn a_307_keeps_the_method_and_the_body() {
    let follow = Settings {
        redirects: Redirects::follow(5),
        ..Settings::default()
    };
    for c in clients(follow) {
        let (addr, seen) = origin(redirecting("307 Temporary Redirect", "again".into(), false));
        let url = format!("http://{addr}/start");
        let got = c.request("PUT", &url, &[], b"data", 1024).unwrap();
        // A relative reference resolves against the request's path.
        assert_eq!(got, (200, b"PUT /again data".to_vec()), "{}", c.name());
        let seen = seen.lock().unwrap();
        assert_eq!(seen[1].field("content-length"), Some("4"), "{}", c.name());
    }
}

#[test]
fn a_redirect_is_the_answer_when_following_is_off() {
    for c in clients(Settings::default()) {
        let (addr, seen) = origin(redirecting("302 Found", "/elsewhere".into(), false));
        let url = format!("http://{addr}/start");
        let got = c.request("GET", &url, &[], b"", 1024).unwrap();
        assert_eq!(got, (302, b"moved".to_vec()), "{}", c.name());
        assert_eq!(seen.lock().unwrap().len(), 1, "{}", c.name());
    }
}

#[test]
fn credentials_stay_with_the_first_origin() {
    let follow = Settings {
        redirects: Redirects::follow(5),
        ..Settings::default()
    };
    for c in clients(follow) {
        let (other, seen_other) = origin(echo());
        let (first, seen_first) = origin(redirecting(
            "302 Found",
            format!("http://{other}/there"),
            false,
        ));
        let fields = [
            ("Authorization", "Bearer secret"),
            ("Cookie", "a=b"),
            ("X-Keep", "1"),
        ];
        let url = format!("http://{first}/start");
        let got = c.request("GET", &url, &fields, b"", 1024).unwrap();
        assert_eq!(got, (200, b"GET /there ".to_vec()), "{}", c.name());
        let there = &seen_other.lock().unwrap()[0];
        assert_eq!(there.field("authorization"), None, "{}", c.name());
        assert_eq!(there.field("cookie"), None, "{}", c.name());
        assert_eq!(there.field("x-keep"), Some("1"), "{}", c.name());
        assert_eq!(
            there.field("host"),
            Some(&*other.to_string()),
            "{}",
            c.name()
        );
        // The first origin had them.
        let at_first = &seen_first.lock().unwrap()[0];
        assert_eq!(
            at_first.field("authorization"),
            Some("Bearer secret"),
            "{}",
            c.name()
        );
    }
}

#[test]
fn the_hop_limit_is_reported() {
    let follow = Settings {
        redirects: Redirects::follow(2),
        ..Settings::default()
    };
    for c in clients(follow) {
        let (addr, seen) = origin(redirecting("302 Found", "/loop".into(), true));
        let url = format!("http://{addr}/start");
        let e = c.request("GET", &url, &[], b"", 1024).unwrap_err();
        assert_eq!(e, "Redirect(TooMany)", "{}", c.name());
        // The first request and two hops; the third hop is not sent.
        assert_eq!(seen.lock().unwrap().len(), 3, "{}", c.name());
    }
}

#[test]
fn a_body_waits_for_100_continue_and_follows_it() {
    let expect = Settings {
        expect: Some(0),
        // Far longer than the test: the body goes after the `100`.
        expect_wait: Duration::from_secs(10),
        ..Settings::default()
    };
    for c in clients(expect) {
        let (addr, seen) = origin(Arc::new(|s, req| {
            if req.field("expect") == Some("100-continue") {
                // Nothing of the body came before the `100`.
                s.set_read_timeout(Some(Duration::from_millis(200)))
                    .unwrap();
                let mut b = [0u8; 1];
                let early = matches!(s.read(&mut b), Ok(1));
                s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                if early {
                    answer(s, "500 Internal Server Error", "", b"body before 100");
                    return false;
                }
                let _ = s.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
            }
            read_body(s, req);
            let body = req.body.clone();
            answer(s, "200 OK", "", &body);
            true
        }));
        let started = Instant::now();
        let url = format!("http://{addr}/upload");
        let got = c.request("POST", &url, &[], b"payload", 1024).unwrap();
        assert_eq!(got, (200, b"payload".to_vec()), "{}", c.name());
        assert!(started.elapsed() < Duration::from_secs(5), "{}", c.name());
        let seen = seen.lock().unwrap();
        assert_eq!(
            seen[0].field("expect"),
            Some("100-continue"),
            "{}",
            c.name()
        );
    }
}

/// An origin that answers `status` to the head of a request that expects
/// `100`, then counts the body bytes that still come within 500 ms.
fn refusing(status: &'static str) -> (SocketAddr, Arc<Mutex<Vec<Seen>>>) {
    origin(Arc::new(move |s, req| {
        answer(s, status, "Connection: close\r\n", b"refused");
        s.set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
        let mut b = [0u8; 4096];
        while let Ok(n @ 1..) = s.read(&mut b) {
            req.body.extend_from_slice(&b[..n]);
        }
        false
    }))
}

#[test]
fn a_final_response_instead_of_100_is_returned_and_the_body_not_sent() {
    let expect = Settings {
        expect: Some(0),
        expect_wait: Duration::from_secs(3),
        ..Settings::default()
    };
    for status in ["417 Expectation Failed", "413 Content Too Large"] {
        for c in clients(expect) {
            let (addr, seen) = refusing(status);
            let url = format!("http://{addr}/upload");
            let code: u16 = status[..3].parse().unwrap();
            let got = c.request("PUT", &url, &[], &[b'x'; 1000], 1024).unwrap();
            assert_eq!(got, (code, b"refused".to_vec()), "{} {status}", c.name());
            // Wait for the origin to finish counting.
            thread::sleep(Duration::from_millis(700));
            let seen = seen.lock().unwrap();
            assert_eq!(seen.len(), 1, "{} {status}", c.name());
            assert_eq!(
                seen[0].field("expect"),
                Some("100-continue"),
                "{} {status}",
                c.name()
            );
            assert!(seen[0].body.is_empty(), "{} {status}", c.name());
        }
    }
}

#[test]
fn a_body_over_the_callers_limit_is_the_callers_error() {
    let big: Arc<Script> = Arc::new(|s, req| {
        read_body(s, req);
        answer(s, "200 OK", "", &[b'b'; 100]);
        true
    });
    for c in clients(Settings::default()) {
        let (addr, _) = origin(Arc::clone(&big));
        let url = format!("http://{addr}/big");
        let e = c.request("GET", &url, &[], b"", 10).unwrap_err();
        assert_eq!(e, "OverLimit(BodyToVec(10))", "{}", c.name());
        let got = c.request("GET", &url, &[], b"", 100).unwrap();
        assert_eq!(got.1.len(), 100, "{}", c.name());
    }
    let budget = Settings {
        budget: 10,
        ..Settings::default()
    };
    for c in clients(budget) {
        let (addr, _) = origin(Arc::clone(&big));
        let url = format!("http://{addr}/big");
        let e = c.request("GET", &url, &[], b"", 1000).unwrap_err();
        assert_eq!(e, "OverLimit(BodyBudget(10))", "{}", c.name());
    }
}

#[test]
fn an_https_url_without_a_tls_connector_is_refused_not_sent_in_plain_text() {
    for c in clients(Settings::default()) {
        let (addr, seen) = origin(echo());
        let url = format!("https://{addr}/secret");
        let e = c.request("GET", &url, &[], b"", 1024).unwrap_err();
        assert_eq!(e, "Url(HttpsWithoutConnector)", "{}", c.name());
        thread::sleep(Duration::from_millis(100));
        assert!(seen.lock().unwrap().is_empty(), "{}", c.name());
        let e = c.request("GET", "ftp://a/", &[], b"", 1024).unwrap_err();
        assert_eq!(e, "Url(UnsupportedScheme)", "{}", c.name());
    }
}

#[test]
fn a_body_from_a_reader_goes_up_and_read_body_fills_a_buffer() {
    for c in clients(Settings::default()) {
        let (addr, _) = origin(echo());
        let url = format!("http://{addr}/up");
        let got = c.put_reader(&url, b"streamed body", true).unwrap();
        assert_eq!(
            got,
            (200, b"PUT /up streamed body".to_vec()),
            "{}",
            c.name()
        );
    }
}

/// A body of unknown length goes up chunked, in chunks larger than the
/// connection copies (left to the client after the output: a chunk's end
/// is then due with the next bytes, and nothing is to be written alone).
#[test]
fn a_large_body_of_unknown_length_goes_up_chunked() {
    let body: Vec<u8> = (0..200_000u32).map(|i| b'a' + (i % 26) as u8).collect();
    for c in clients(Settings::default()) {
        let (addr, _) = origin(echo());
        let got = c.put_reader(&format!("http://{addr}/up"), &body, false);
        let mut want = b"PUT /up ".to_vec();
        want.extend_from_slice(&body);
        assert_eq!(got, Ok((200, want)), "{}", c.name());
    }
}

#[test]
fn a_307_refuses_a_body_read_from_a_reader() {
    let follow = Settings {
        redirects: Redirects::follow(5),
        ..Settings::default()
    };
    for c in clients(follow) {
        let (addr, seen) = origin(redirecting("307 Temporary Redirect", "/b".into(), false));
        let e = c
            .put_reader(&format!("http://{addr}/start"), b"once", true)
            .unwrap_err();
        assert_eq!(e, "Redirect(BodyNotReplayable)", "{}", c.name());
        assert_eq!(seen.lock().unwrap().len(), 1, "{}", c.name());
    }
}

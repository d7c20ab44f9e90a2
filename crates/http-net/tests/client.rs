//! The std client against real servers on loopback (ours and nginx):
//! streaming both ways, early responses to uploads, local limits,
//! deadlines and redirects.

mod support;

use std::io::{self, Read, Write};
use std::net::TcpListener;
use std::thread;
use std::time::{Duration, Instant};

use http_net::conn::BodyLength;
use http_net::io::{Client, Limit, RedirectError, Redirects, RequestBody, Stage};
use http_net::{Error, Exchange, Server};
use support::*;

/// Generated body bytes: `len` of them, never held in memory at once.
fn pattern(len: u64) -> io::Take<io::Repeat> {
    io::repeat(b'x').take(len)
}

/// A reader of unknown length (as `RequestBody::Reader` with `len: None`).
struct Unknown(io::Take<io::Repeat>);
impl Read for Unknown {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

/// The client the done-when tests use: automatic `Expect` off.
fn no_expect() -> Client {
    Client::builder().expect_continue(None).build()
}

/// A handler that answers `200` without reading the request body.
fn answer_unread(ex: &mut Exchange<'_>) -> Result<(), Error> {
    ex.respond_with(200, &[], b"not read")
}

/// A handler that reads the body (an error over the server's budget is the
/// server's `413`) and answers with its length.
fn count_body(ex: &mut Exchange<'_>) -> Result<(), Error> {
    let n = body_len(ex)?;
    ex.respond_with(200, &[], n.to_string().as_bytes())
}

#[test]
fn a_64_mb_upload_answered_413_at_the_head_is_seen_20_of_20() {
    let srv = Running::start(Server::builder(), count_body);
    let client = no_expect();
    let url = format!("http://{}/up", srv.addr);
    for i in 0..20 {
        let mut body = pattern(64 << 20);
        let r = upload(&client, b"PUT", &url, &mut body, Some(64 << 20))
            .unwrap_or_else(|e| panic!("run {i}: {e:?}"));
        assert_eq!(r.status(), 413, "run {i}");
    }
}

#[test]
fn a_chunked_upload_answered_413_after_8_mib_is_seen_20_of_20() {
    let srv = Running::start(Server::builder(), count_body);
    let client = no_expect();
    let url = format!("http://{}/up", srv.addr);
    for i in 0..20 {
        let mut body = Unknown(pattern(32 << 20));
        let r = upload(&client, b"POST", &url, &mut body, None)
            .unwrap_or_else(|e| panic!("run {i}: {e:?}"));
        assert_eq!(r.status(), 413, "run {i}");
    }
}

#[test]
fn a_200_without_reading_the_body_is_seen_20_of_20_from_our_server() {
    let srv = Running::start(Server::builder(), answer_unread);
    let client = no_expect();
    let url = format!("http://{}/up", srv.addr);
    // Under the server's 8 MiB budget, over its 1 MiB drain.
    const LEN: u64 = 6 << 20;
    for i in 0..20 {
        let mut body = pattern(LEN);
        let mut r = upload(&client, b"PUT", &url, &mut body, Some(LEN))
            .unwrap_or_else(|e| panic!("run {i}: {e:?}"));
        assert_eq!(r.status(), 200, "run {i}");
        assert_eq!(r.read_body(100).unwrap(), b"not read", "run {i}");
    }
    // The connection cut short is not reused; the next request works.
    let mut r = client.get(&url).unwrap();
    assert_eq!(r.read_body(100).unwrap(), b"not read");
}

#[test]
fn a_200_without_reading_the_body_is_seen_20_of_20_from_nginx() {
    if !have("nginx") {
        return;
    }
    let dir = TempDir::new("nginx-early");
    let port = free_port();
    let _nginx = start_nginx(
        &dir,
        port,
        "client_max_body_size 0;",
        "location / { return 200 \"nginx\"; }",
    );
    let client = no_expect();
    let url = format!("http://127.0.0.1:{port}/up");
    for i in 0..20 {
        let mut body = pattern(16 << 20);
        let mut r = upload(&client, b"POST", &url, &mut body, Some(16 << 20))
            .unwrap_or_else(|e| panic!("run {i}: {e:?}"));
        assert_eq!(r.status(), 200, "run {i}");
        assert_eq!(r.read_body(100).unwrap(), b"nginx", "run {i}");
    }
}

#[test]
fn a_20_mb_body_is_read_with_the_defaults_and_read_body_limits_are_local() {
    const LEN: u64 = 20_000_000;
    let srv = Running::start(Server::builder(), |ex: &mut Exchange<'_>| {
        send_generated(ex, LEN, b'y')
    });
    let url = format!("http://{}/big", srv.addr);
    let mut r = http_net::io::get(&url).unwrap();
    let n = io::copy(&mut r, &mut io::sink()).unwrap();
    assert_eq!(n, LEN);
    let body = Client::new()
        .get(&url)
        .unwrap()
        .read_body(32 << 20)
        .unwrap();
    assert_eq!(body.len() as u64, LEN);
    let e = Client::new()
        .get(&url)
        .unwrap()
        .read_body(1 << 20)
        .unwrap_err();
    assert!(
        matches!(e, Error::OverLimit(Limit::ReadBody(n)) if n == 1 << 20),
        "{e:?}"
    );
    assert!(!e.is_peer_fault());
    assert!(e.to_string().contains("read_body"), "{e}");
}

#[test]
fn a_chunked_upload_of_unknown_length_streams_and_trailers_arrive() {
    let srv = Running::start(Server::builder(), |ex: &mut Exchange<'_>| {
        let chunked = ex.field(b"transfer-encoding") == Some(b"chunked");
        let n = body_len(ex)?;
        ex.send_head(200, &[(b"Trailer", b"x-count")], BodyLength::Streamed)?;
        ex.send_data(format!("chunked={chunked}").as_bytes())?;
        ex.send_end(&[(b"X-Count", n.to_string().as_bytes())])
    });
    let client = no_expect();
    let mut body = Unknown(pattern(3 << 20));
    let url = format!("http://{}/up", srv.addr);
    let mut r = upload(&client, b"POST", &url, &mut body, None).unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.trailer(b"x-count"), None);
    assert_eq!(r.read_body(100).unwrap(), b"chunked=true");
    assert_eq!(r.trailer(b"x-count"), Some(&b"3145728"[..]));
}

/// An origin that reads whatever comes and answers each connection with
/// the bytes `reply` gives for its request head.
/// With `early`, it answers right after the head, then records whatever
/// else the client sends until it closes, and serves no further request on
/// that connection.
fn scripted(
    conns: usize,
    early: bool,
    reply: impl Fn(&str, &mut std::net::TcpStream) + Send + 'static,
) -> (thread::JoinHandle<Vec<String>>, String) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let t = thread::spawn(move || {
        let mut seen = Vec::new();
        for _ in 0..conns {
            let Ok((mut s, _)) = l.accept() else { break };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            loop {
                let mut head = Vec::new();
                let mut b = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    match s.read(&mut b) {
                        Ok(1) => head.push(b[0]),
                        _ => break,
                    }
                }
                if !head.ends_with(b"\r\n\r\n") {
                    break;
                }
                let text = String::from_utf8_lossy(&head).into_owned();
                if early {
                    reply(&text, &mut s);
                    let mut rest = Vec::new();
                    let _ = s.read_to_end(&mut rest);
                    seen.push(format!("{text}{}", String::from_utf8_lossy(&rest)));
                    break;
                }
                let lower = text.to_ascii_lowercase();
                if let Some(n) = lower.lines().find_map(|l| {
                    l.strip_prefix("content-length:")
                        .and_then(|v| v.trim().parse::<usize>().ok())
                }) {
                    let mut body = vec![0u8; n];
                    let _ = s.read_exact(&mut body);
                    seen.push(format!("{text}{}", String::from_utf8_lossy(&body)));
                } else {
                    seen.push(text.clone());
                }
                reply(&text, &mut s);
            }
        }
        seen
    });
    (t, base)
}

#[test]
fn the_whole_request_deadline_stops_a_trickling_server() {
    let (t, base) = scripted(1, false, |_, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
        for _ in 0..5 {
            thread::sleep(Duration::from_millis(400));
            if s.write_all(b"z").is_err() {
                return;
            }
        }
    });
    let client = Client::builder()
        .read_timeout(Duration::from_secs(5))
        .request_timeout(Duration::from_millis(500))
        .build();
    let t0 = Instant::now();
    let mut r = client.get(&format!("{base}/")).unwrap();
    let e = r.read_body(1000).unwrap_err();
    assert!(matches!(e, Error::Timeout(Stage::Deadline)), "{e:?}");
    assert!(
        t0.elapsed() < Duration::from_millis(900),
        "{:?}",
        t0.elapsed()
    );
    drop(r);
    t.join().unwrap();
}

#[test]
fn the_deadline_also_bounds_waiting_for_the_head() {
    let (t, base) = scripted(1, false, |_, _| thread::sleep(Duration::from_millis(800)));
    let client = Client::builder()
        .request_timeout(Duration::from_millis(300))
        .build();
    let e = client.get(&format!("{base}/")).unwrap_err();
    assert!(matches!(e, Error::Timeout(Stage::Deadline)), "{e:?}");
    t.join().unwrap();
}

#[test]
fn a_final_answer_to_expect_means_the_body_is_not_sent() {
    let (t, base) = scripted(1, true, |_, s| {
        let _ = s.write_all(b"HTTP/1.1 417 Expectation Failed\r\nContent-Length: 0\r\n\r\n");
    });
    let client = Client::builder()
        .expect_continue(Some(1000))
        .expect_wait(Duration::from_secs(5))
        .build();
    let body = vec![b'q'; 5000];
    let t0 = Instant::now();
    let r = client
        .send(b"PUT", &format!("{base}/"), &[], RequestBody::Bytes(&body))
        .unwrap();
    assert_eq!(r.status(), 417);
    assert!(t0.elapsed() < Duration::from_secs(2));
    drop(r);
    let seen = t.join().unwrap();
    assert!(
        seen[0].contains("Expect: 100-continue\r\n"),
        "{:?}",
        seen[0]
    );
    // After the 417 the client closed the connection without a body byte.
    assert!(seen[0].ends_with("\r\n\r\n"), "the body was sent");
}

#[test]
fn expect_gives_up_waiting_after_expect_wait_and_sends_the_body() {
    let (t, base) = scripted(1, false, |_, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    });
    let client = Client::builder()
        .expect_continue(Some(1000))
        .expect_wait(Duration::from_millis(200))
        .build();
    let body = vec![b'q'; 5000];
    let mut r = client
        .send(b"PUT", &format!("{base}/"), &[], RequestBody::Bytes(&body))
        .unwrap();
    assert_eq!(r.read_body(10).unwrap(), b"ok");
    drop(r);
    drop(client);
    let seen = t.join().unwrap();
    assert!(seen[0].contains("Expect: 100-continue\r\n"));
    assert!(seen[0].ends_with(&"q".repeat(5000)));
}

fn redirecting(
    conns: usize,
    replies: &'static [&'static str],
) -> (thread::JoinHandle<Vec<String>>, String) {
    let n = std::sync::atomic::AtomicUsize::new(0);
    scripted(conns, false, move |_, s| {
        let i = n.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let r = replies
            .get(i)
            .copied()
            .unwrap_or("HTTP/1.1 500 X\r\nContent-Length: 0\r\n\r\n");
        let _ = s.write_all(r.as_bytes());
    })
}

#[test]
fn redirects_are_off_by_default() {
    let (t, base) = redirecting(
        1,
        &["HTTP/1.1 302 Found\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n"],
    );
    let r = Client::new().get(&format!("{base}/a")).unwrap();
    assert_eq!(r.status(), 302);
    drop(r);
    assert_eq!(t.join().unwrap().len(), 1);
}

#[test]
fn redirect_method_and_body_rules() {
    let (t, base) = redirecting(
        1,
        &[
            "HTTP/1.1 303 See Other\r\nLocation: /b\r\nContent-Length: 3\r\n\r\nabc",
            "HTTP/1.1 307 Temporary\r\nLocation: b2\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 302 Found\r\nLocation: /c\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 308 Permanent\r\nLocation: /d\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        ],
    );
    let client = Client::builder().redirects(Redirects::follow(5)).build();
    // 303: POST becomes GET without a body; the following 307 keeps GET.
    let mut r = client
        .request(
            b"POST",
            &format!("{base}/a"),
            &[(b"Content-Type", b"text/plain")],
            b"hello",
        )
        .unwrap();
    assert_eq!(
        (r.status(), r.read_body(10).unwrap()),
        (200, b"ok".to_vec())
    );
    // (A response holds the client's pool: drop each, so that the pooled
    // connection closes when the client is dropped.)
    drop(r);
    // 302: POST becomes GET.
    let mut r = client
        .request(b"POST", &format!("{base}/x"), &[], b"hello")
        .unwrap();
    assert_eq!(r.read_body(10).unwrap(), b"ok");
    drop(r);
    // 308: PUT stays PUT with its body.
    let mut r = client
        .request(b"PUT", &format!("{base}/y"), &[], b"hello")
        .unwrap();
    assert_eq!(r.read_body(10).unwrap(), b"ok");
    drop(r);
    drop(client);
    let seen = t.join().unwrap();
    // Five bytes are under the default 1 MiB threshold: no Expect.
    assert!(
        !seen[0].to_ascii_lowercase().contains("expect:"),
        "{:?}",
        seen[0]
    );
    assert!(
        seen[0].starts_with("POST /a ") && seen[0].ends_with("hello"),
        "{:?}",
        seen[0]
    );
    assert!(seen[1].starts_with("GET /b "), "{:?}", seen[1]);
    assert!(
        !seen[1].to_ascii_lowercase().contains("content-type"),
        "{:?}",
        seen[1]
    );
    assert!(seen[2].starts_with("GET /b2 "), "{:?}", seen[2]);
    assert!(seen[3].starts_with("POST /x "), "{:?}", seen[3]);
    assert!(seen[4].starts_with("GET /c "), "{:?}", seen[4]);
    assert!(seen[5].starts_with("PUT /y "), "{:?}", seen[5]);
    assert!(
        seen[6].starts_with("PUT /d ") && seen[6].ends_with("hello"),
        "{:?}",
        seen[6]
    );
}

#[test]
fn a_307_with_a_streamed_body_is_not_followed_and_hops_are_limited() {
    let (t, base) = redirecting(
        2,
        &[
            "HTTP/1.1 307 T\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 302 F\r\nLocation: /1\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 302 F\r\nLocation: /2\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 302 F\r\nLocation: /3\r\nContent-Length: 0\r\n\r\n",
        ],
    );
    let client = Client::builder()
        .redirects(Redirects::follow(2))
        .expect_continue(None)
        .build();
    let mut body = pattern(10);
    let e = upload(&client, b"PUT", &format!("{base}/a"), &mut body, Some(10)).unwrap_err();
    assert!(
        matches!(e, Error::Redirect(RedirectError::BodyNotReplayable)),
        "{e:?}"
    );
    let e = client.get(&format!("{base}/0")).unwrap_err();
    assert!(
        matches!(e, Error::Redirect(RedirectError::TooMany)),
        "{e:?}"
    );
    drop(client);
    assert_eq!(t.join().unwrap().len(), 4);
}

#[test]
fn credentials_are_dropped_across_origins_and_kept_within_one() {
    // The second origin (another port) records what it is sent.
    let (t2, base2) = scripted(1, false, |_, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    });
    let loc1 = "/same".to_owned();
    let loc2 = format!("{base2}/other");
    let replies: &'static [String] = Box::leak(Box::new([
        format!("HTTP/1.1 301 M\r\nLocation: {loc1}\r\nContent-Length: 0\r\n\r\n"),
        format!("HTTP/1.1 301 M\r\nLocation: {loc2}\r\nContent-Length: 0\r\n\r\n"),
    ]));
    let n = std::sync::atomic::AtomicUsize::new(0);
    let (t1, base1) = scripted(1, false, move |_, s| {
        let i = n.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let _ = s.write_all(replies[i.min(1)].as_bytes());
    });
    let client = Client::builder().redirects(Redirects::follow(5)).build();
    let fields: &[(&[u8], &[u8])] = &[
        (b"Authorization", b"Bearer t"),
        (b"Cookie", b"a=b"),
        (b"Proxy-Authorization", b"Basic x"),
        (b"X-Keep", b"1"),
    ];
    let mut r = client
        .request(b"GET", &format!("{base1}/start"), fields, b"")
        .unwrap();
    assert_eq!(r.read_body(10).unwrap(), b"ok");
    drop(r);
    drop(client);
    let first = t1.join().unwrap();
    let second = t2.join().unwrap();
    assert!(first[1].starts_with("GET /same ") && first[1].contains("Authorization: Bearer t"));
    assert!(first[1].contains("Cookie: a=b"), "{:?}", first[1]);
    let other = second[0].to_ascii_lowercase();
    assert!(other.starts_with("get /other "), "{other}");
    assert!(
        !other.contains("authorization") && !other.contains("cookie"),
        "{other}"
    );
    assert!(other.contains("x-keep: 1"), "{other}");
    assert!(other.contains(&format!("host: {}", &base2[7..])), "{other}");
}

#[test]
fn https_needs_a_connector_and_downgrades_are_refused() {
    let e = Client::new().get("https://127.0.0.1:1/").unwrap_err();
    assert!(
        matches!(e, Error::Url(http_net::io::UrlError::HttpsWithoutConnector)),
        "{e:?}"
    );
    // A connector that speaks plain TCP stands in for TLS here: the rules
    // about schemes are what is tested.
    let (t, base) = redirecting(
        1,
        &["HTTP/1.1 301 M\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 0\r\n\r\n"],
    );
    let client = Client::builder()
        .redirects(Redirects::follow(3))
        .connector(|host: &str, port: u16| std::net::TcpStream::connect((host, port)))
        .build();
    let e = client.get(&format!("https{}/", &base[4..])).unwrap_err();
    assert!(
        matches!(e, Error::Redirect(RedirectError::Downgrade)),
        "{e:?}"
    );
    drop(client);
    t.join().unwrap();
}

#[test]
fn a_connection_whose_request_was_cut_short_is_not_reused() {
    // Each connection answers its first request at the head and serves no
    // other: a second request that went out on the same connection would
    // get no answer.
    let (t, base) = scripted(2, true, |_, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    });
    let client = Client::builder()
        .expect_continue(None)
        .read_timeout(Duration::from_secs(3))
        .build();
    for _ in 0..2 {
        let mut body = pattern(8 << 20);
        let url = format!("{base}/");
        let mut r = upload(&client, b"PUT", &url, &mut body, Some(8 << 20)).unwrap();
        assert_eq!(r.read_body(10).unwrap(), b"ok");
    }
    drop(client);
    let seen = t.join().unwrap();
    assert_eq!(seen.len(), 2);
    // Each connection got one request head and part of its body, no more.
    for s in &seen {
        assert_eq!(s.matches("PUT / HTTP/1.1").count(), 1);
        assert!(s.len() < (8 << 20) + 200, "{}", s.len());
    }
}

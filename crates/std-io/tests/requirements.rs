//! RFC requirements of the std adapters that no other test proves on its
//! own: the request line and `Host` the client builds from a URL, the `Date`
//! the server writes, and which requests the client sends again after a
//! reused connection fails. Each test names the requirements it proves
//! (`docs/CONFORMANCE.md`).

use http_net_std::ClientOptions;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http_net_std::{imf_fixdate, Client, Exchange, Server};

mod support;
use support::read_request;

/// What an origin does with each request it reads on a connection.
#[derive(Clone, Copy)]
enum Then {
    /// Writes these bytes.
    Reply(&'static [u8]),
    /// Closes the connection without a response.
    Close,
}

/// An origin that serves one connection per script, in turn, and returns
/// the request lines it read on each.
fn origin(scripts: Vec<Vec<Then>>) -> (thread::JoinHandle<Vec<Vec<String>>>, String, TcpListener) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let spare = l.try_clone().unwrap();
    let t = thread::spawn(move || {
        let mut seen = Vec::new();
        for script in scripts {
            let Ok((mut s, _)) = l.accept() else { break };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut lines = Vec::new();
            for then in script {
                let Some(req) = read_request(&mut s) else {
                    break;
                };
                let text = String::from_utf8_lossy(&req).into_owned();
                lines.push(text.lines().next().unwrap_or("").to_string());
                match then {
                    Then::Reply(bytes) => s.write_all(bytes).unwrap(),
                    Then::Close => break,
                }
            }
            seen.push(lines);
        }
        seen
    });
    (t, base, spare)
}

const OK: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

// proves: 9112-3.2.1-3a, 9112-3.2.1-3b, 9112-3.2-5b, 9110-7.2-4b
#[test]
fn the_request_line_and_host_come_from_the_url() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let authority = l.local_addr().unwrap().to_string();
    let t = thread::spawn(move || {
        let mut heads = Vec::new();
        for _ in 0..2 {
            let (mut s, _) = l.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            heads.push(String::from_utf8(read_request(&mut s).unwrap()).unwrap());
            s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .unwrap();
        }
        heads
    });
    // No path: "/"; a path and a query: both, and nothing else of the URL.
    for url in [
        format!("http://{authority}"),
        format!("http://{authority}/p/q?x=1&y"),
    ] {
        let mut r = http_net_std::get(&url).unwrap();
        assert_eq!(r.status(), 200);
        r.body_to_vec(10).unwrap();
    }
    let heads = t.join().unwrap();
    let host = format!("Host: {authority}");
    for (head, line) in heads
        .iter()
        .zip(["GET / HTTP/1.1", "GET /p/q?x=1&y HTTP/1.1"])
    {
        let mut lines = head.lines();
        assert_eq!(lines.next(), Some(line), "{head}");
        // Host is the first field, and exactly the URL's authority.
        assert_eq!(lines.next(), Some(host.as_str()), "{head}");
    }
}

/// Whether `d` has the IMF-fixdate shape: `Sun, 06 Nov 1994 08:49:37 GMT`,
/// one SP where the grammar has one and none elsewhere.
fn is_imf_fixdate(d: &[u8]) -> bool {
    let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let Ok(s) = std::str::from_utf8(d) else {
        return false;
    };
    let digits = |r: std::ops::Range<usize>| s[r].bytes().all(|b| b.is_ascii_digit());
    s.len() == 29
        && days.contains(&&s[0..3])
        && &s[3..5] == ", "
        && digits(5..7)
        && &s[7..8] == " "
        && months.contains(&&s[8..11])
        && &s[11..12] == " "
        && digits(12..16)
        && &s[16..17] == " "
        && digits(17..19)
        && &s[19..20] == ":"
        && digits(20..22)
        && &s[22..23] == ":"
        && digits(23..25)
        && &s[25..] == " GMT"
}

// proves: 9110-5.6.7-7b, 9110-5.6.7-17, 9110-6.6.1-5
#[test]
fn the_server_dates_its_responses_now_in_imf_fixdate() {
    assert_eq!(&imf_fixdate(0), b"Thu, 01 Jan 1970 00:00:00 GMT");
    assert_eq!(&imf_fixdate(784_111_777), b"Sun, 06 Nov 1994 08:49:37 GMT");
    assert_eq!(&imf_fixdate(951_782_400), b"Tue, 29 Feb 2000 00:00:00 GMT");
    for secs in (0..4_000_000_000u64).step_by(9_999_991) {
        assert!(is_imf_fixdate(&imf_fixdate(secs)), "{secs}");
    }
    let server = Server::builder().bind("127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap();
    let stop = server.handle();
    let serving = thread::spawn(move || {
        server.serve(|ex: &mut Exchange<'_>| ex.respond_with(200, &[], b"ok"))
    });
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut got = Vec::new();
    s.read_to_end(&mut got).unwrap();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    stop.shutdown();
    serving.join().unwrap().unwrap();
    let text = String::from_utf8_lossy(&got);
    let date = text
        .lines()
        .find_map(|l| l.strip_prefix("Date: "))
        .unwrap_or_else(|| panic!("no Date: {text}"));
    assert!(is_imf_fixdate(date.as_bytes()), "{date:?}");
    // The time of the response, to within the few seconds the test takes.
    assert!(
        (now.saturating_sub(10)..=now).any(|t| imf_fixdate(t) == date.as_bytes()),
        "{date} is not now ({now})"
    );
}

// proves: 9110-9.2.2-4, 9110-9.2.2-7b
#[test]
fn only_idempotent_requests_are_sent_again_and_only_once() {
    use Then::{Close, Reply};
    let (t, base, spare) = origin(vec![
        // A POST on a reused connection that closes unanswered: an error,
        // never sent again.
        vec![Reply(OK), Close],
        // A GET there: sent again, once, on a new connection.
        vec![Reply(OK), Close],
        vec![Reply(OK), Close],
        // The new connection fails too: the retry is not retried.
        vec![Close],
    ]);
    let client = Client::builder()
        .read_timeout(Duration::from_secs(5))
        .build();
    let get = |path: &str| {
        client
            .get(&format!("{base}{path}"))
            .and_then(|mut r| r.body_to_vec(10))
    };
    assert_eq!(get("/a").unwrap(), b"ok");
    let posted = client.request(b"POST", &format!("{base}/b"), &[], b"data");
    assert!(posted.is_err(), "an unanswered POST is an error");
    assert_eq!(get("/c").unwrap(), b"ok");
    assert_eq!(get("/d").unwrap(), b"ok", "sent again on a new connection");
    assert!(get("/e").is_err(), "the retry failed too");
    let seen = t.join().unwrap();
    assert_eq!(
        seen,
        [
            vec!["GET /a HTTP/1.1", "POST /b HTTP/1.1"],
            vec!["GET /c HTTP/1.1", "GET /d HTTP/1.1"],
            vec!["GET /d HTTP/1.1", "GET /e HTTP/1.1"],
            vec!["GET /e HTTP/1.1"],
        ]
    );
    // No fifth connection was opened.
    spare.set_nonblocking(true).unwrap();
    assert!(spare.accept().is_err());
}

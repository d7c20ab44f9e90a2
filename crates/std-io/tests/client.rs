//! The client against scripted origins on loopback: informational
//! responses, close-delimited and chunked bodies, HEAD, connection reuse
//! across a server that closes, and the errors that name what was wrong.

use http_net_std::ClientOptions;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use http_net_conn::{Error as ConnError, RemoteError};
use http_net_std::{Client, Error};

mod support;
use support::read_request;

/// An origin that answers each connection's requests with `replies` in
/// turn, then closes that connection; it serves `conns` connections.
fn origin(conns: usize, replies: &'static [&'static [u8]]) -> (JoinHandle<Vec<Vec<u8>>>, String) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let t = thread::spawn(move || {
        let mut seen = Vec::new();
        for _ in 0..conns {
            let Ok((mut s, _)) = l.accept() else { break };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            for reply in replies {
                match read_request(&mut s) {
                    Some(req) => seen.push(req),
                    None => break,
                }
                let _ = s.write_all(reply);
            }
        }
        seen
    });
    (t, base)
}

// proves: 9110-15.2-3, 9112-3.2-5b, 9110-7.2-4a
#[test]
fn informational_responses_are_skipped() {
    let (t, base) = origin(
        1,
        &[b"HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"],
    );
    let mut r = http_net_std::get(&format!("{base}/")).unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.body_to_vec(100).unwrap(), b"ok");
    let seen = t.join().unwrap();
    let req = String::from_utf8_lossy(&seen[0]);
    assert!(req.starts_with("GET / HTTP/1.1\r\n"), "{req}");
    assert!(req.contains(&format!("Host: {}\r\n", &base[7..])), "{req}");
}

// proves: 9112-7.1.1-4
#[test]
fn close_delimited_and_chunked_bodies() {
    let (t, base) = origin(
        1,
        &[b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end"],
    );
    let mut r = http_net_std::get(&format!("{base}/")).unwrap();
    let mut s = String::new();
    r.read_to_string(&mut s).unwrap();
    assert_eq!(s, "until the end");
    t.join().unwrap();
    let (t, base) = origin(
        1,
        &[b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4;ext=1\r\ndefg\r\n0\r\nX-Trailer: t\r\n\r\n"],
    );
    let mut r = http_net_std::get(&format!("{base}/")).unwrap();
    assert_eq!(r.body_to_vec(100).unwrap(), b"abcdefg");
    t.join().unwrap();
}

// proves: 9110-8.6-5a, 9112-9.3-1
#[test]
fn head_and_reuse_across_a_server_close() {
    // First connection: answers GET and HEAD, then the origin closes it; the
    // third request must go out on a new connection and succeed.
    let (t, base) = origin(
        2,
        &[
            b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none",
            b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n",
        ],
    );
    let client = Client::new();
    let mut r = client.get(&format!("{base}/a")).unwrap();
    assert_eq!(r.body_to_vec(100).unwrap(), b"one");
    drop(r);
    let mut r = client
        .request(b"HEAD", &format!("{base}/h"), &[], b"")
        .unwrap();
    assert_eq!(r.field(b"content-length"), Some(&b"10"[..]));
    assert_eq!(r.body_to_vec(100).unwrap(), b"");
    drop(r);
    thread::sleep(Duration::from_millis(100));
    let mut r = client
        .request(b"POST", &format!("{base}/b"), &[(b"X-A", b"1")], b"data")
        .unwrap();
    assert_eq!(r.body_to_vec(100).unwrap(), b"one");
    drop(r);
    drop(client);
    let seen = t.join().unwrap();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(seen[1].starts_with(b"HEAD /h HTTP/1.1\r\n"));
    let post = String::from_utf8_lossy(&seen[2]);
    assert!(
        post.contains("Content-Length: 4\r\n") && post.ends_with("\r\n\r\ndata"),
        "{post}"
    );
}

fn fetch_err(reply: &'static [u8]) -> Error {
    let (t, base) = origin(1, Box::leak(Box::new([reply])));
    let e = match http_net_std::get(&format!("{base}/")) {
        Err(e) => e,
        Ok(mut r) => r.body_to_vec(1 << 20).unwrap_err(),
    };
    t.join().unwrap();
    e
}

// proves: 9112-6.3-2.5d, 9112-8-2
#[test]
fn bad_responses_are_errors_that_say_why() {
    for reply in [
        &b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"[..],
        b"HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 2000 OK\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
    ] {
        let e = fetch_err(reply);
        assert!(
            e.is_peer_fault(),
            "{:?}: {e:?}",
            String::from_utf8_lossy(reply)
        );
        assert!(!e.to_string().is_empty());
    }
    let e = fetch_err(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort");
    assert!(
        matches!(
            e,
            Error::Protocol(ConnError::Remote(RemoteError::UnexpectedEof))
        ),
        "{e:?}"
    );
    let e = fetch_err(b"");
    assert!(matches!(e, Error::ConnectionClosed), "{e:?}");
}

#[test]
fn bad_urls_are_refused_before_connecting() {
    for url in [
        "https://a/",
        "http://a b/",
        "http://u@a/",
        "http://a:99999/",
        "http://a/\"x\"",
    ] {
        assert!(
            matches!(http_net_std::get(url), Err(Error::Url(_))),
            "{url}"
        );
    }
}

// proves: 9112-9.2-3a
#[test]
fn an_unsolicited_408_on_an_idle_pooled_connection_is_a_dead_connection() {
    // An origin that answers each connection's one request and then, in
    // the same write, sends a 408 nobody asked for (what a server does when
    // it times an idle keep-alive connection out) and keeps the connection
    // open. A connection with bytes nobody asked for is not reusable
    // (`ClientConn::reusable`), so it is not pooled; were they to arrive
    // after it was pooled, the next request on it would meet
    // `UnsolicitedResponse` before anything is written and go out again on
    // a new connection, idempotent or not (`Retry::NotSent`, C73). Either
    // way each request is sent once, on a new connection.
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let t = thread::spawn(move || {
        let mut seen = Vec::new();
        let mut held = Vec::new();
        for body in ["one", "two", "three"] {
            let Ok((mut s, _)) = l.accept() else { break };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let Some(req) = read_request(&mut s) else {
                break;
            };
            seen.push(req);
            let reply = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
                body.len()
            );
            s.write_all(reply.as_bytes()).unwrap();
            held.push(s);
        }
        seen
    });
    let client = Client::new();
    let mut r = client.get(&format!("{base}/a")).unwrap();
    assert_eq!(r.body_to_vec(100).unwrap(), b"one");
    drop(r);
    let mut r = client.get(&format!("{base}/b")).unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.body_to_vec(100).unwrap(), b"two");
    drop(r);
    let mut r = client
        .request(b"POST", &format!("{base}/c"), &[], b"data")
        .unwrap();
    assert_eq!(r.body_to_vec(100).unwrap(), b"three");
    drop(r);
    let seen = t.join().unwrap();
    let lines: Vec<String> = seen
        .iter()
        .map(|r| {
            String::from_utf8_lossy(r)
                .lines()
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(
        lines,
        ["GET /a HTTP/1.1", "GET /b HTTP/1.1", "POST /c HTTP/1.1"],
        "each request was sent once, each on a new connection"
    );
}

/// A body whose `Transfer-Encoding` does not end in `chunked` is read until
/// close with the coding left on: by default an error naming the coding,
/// never the coded bytes as if they were the content; with
/// `accept_transfer_codings`, the coded bytes and the codings.
// proves: policy-client-transfer-coding
#[test]
fn a_body_left_transfer_coded_is_refused_unless_accepted() {
    const GZIPPED: &[u8] =
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n\x1f\x8b\x08\x00coded";
    let e = fetch_err(GZIPPED);
    match &e {
        Error::UnsupportedTransferCoding(codings) => assert_eq!(codings, &[b"gzip".to_vec()]),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("gzip"), "{e}");
    let (t, base) = origin(1, &[GZIPPED]);
    let client = Client::builder().accept_transfer_codings(true).build();
    let mut r = client.get(&format!("{base}/")).unwrap();
    assert_eq!(r.transfer_codings().collect::<Vec<_>>(), [&b"gzip"[..]]);
    assert_eq!(r.body_to_vec(100).unwrap(), b"\x1f\x8b\x08\x00coded");
    t.join().unwrap();
    // A chunked body has no coding left on it.
    let (t, base) = origin(
        1,
        &[b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"],
    );
    let mut r = client.get(&format!("{base}/")).unwrap();
    assert_eq!(r.transfer_codings().count(), 0);
    assert_eq!(r.body_to_vec(100).unwrap(), b"ok");
    t.join().unwrap();
}

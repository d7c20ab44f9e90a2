//! The blocking server and client in process over loopback: keep-alive,
//! pipelining, 100-continue, streamed and large bodies, upgrades and
//! CONNECT, the request bound per connection, client connection reuse.

mod support;

use http_net::conn::ClientOptions;
use http_net::conn::ServerOptions;
use std::io::{Read, Write};
use std::thread;
use std::time::Duration;

use http_net::blocking::{Error, Exchange, Server};
use http_net::conn::{BodyLength, Placement};
use support::*;

// proves: 9110-6.6.1-6, 9112-9.3-1, 9112-9.3.2-1
#[test]
fn keep_alive_and_pipelining() {
    let srv = Running::start(Server::builder(), plain);
    let mut s = connect(srv.addr);
    for _ in 0..3 {
        let (head, body) = roundtrip(&mut s, GET);
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert!(head.contains("\r\nDate: "), "{head}");
        assert_eq!(body, b"ok");
    }
    s.write_all(&GET.repeat(5)).unwrap();
    for _ in 0..5 {
        let (head, body) = read_response(&mut s);
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert_eq!(body, b"ok");
    }
}

#[test]
fn no_answer_is_500() {
    let srv = Running::start(
        Server::builder(),
        |_: &mut Exchange<'_>| Ok::<(), Error>(()),
    );
    raw_answer(srv.addr, GET, 500);
}

// proves: 9110-10.1.1-14, 9110-10.1.1-16
#[test]
fn expect_100_continue_is_sent_on_first_read() {
    continue_for(b"Expect: 100-continue\r\n");
}

// proves: 9112-6.3-3
#[test]
fn streamed_and_large_bodies() {
    let big = noise(3 * 1024 * 1024, 9);
    let big2 = big.clone();
    let srv = Running::start(Server::builder(), move |ex: &mut Exchange<'_>| {
        match ex.path() {
            b"/big" => ex.respond_with(200, &[], &big2),
            _ => {
                ex.send_head(
                    200,
                    &[(b"Content-Type", b"text/plain")],
                    BodyLength::Streamed,
                )?;
                for i in 0..100 {
                    ex.send_data(format!("line {i}\n").as_bytes())?;
                }
                ex.send_end(&[])
            }
        }
    });
    let client = http_net::blocking::Client::new();
    let mut r = client.get(&format!("http://{}/big", srv.addr)).unwrap();
    assert!(r.body_to_vec(8 << 20).unwrap() == big);
    let mut r = client.get(&format!("http://{}/stream", srv.addr)).unwrap();
    assert_eq!(r.field(b"transfer-encoding"), Some(&b"chunked"[..]));
    let text = String::from_utf8(r.body_to_vec(1 << 20).unwrap()).unwrap();
    assert_eq!(text.lines().count(), 100);
    assert!(text.ends_with("line 99\n"));
}

#[test]
fn upgrade_hands_over_the_stream_and_buffered_bytes() {
    let srv = Running::start(Server::builder(), |ex: &mut Exchange<'_>| {
        if ex.field(b"upgrade") != Some(b"echo") {
            return plain(ex);
        }
        ex.send_head(
            101,
            &[(b"Upgrade", b"echo"), (b"Connection", b"Upgrade")],
            BodyLength::Empty,
        )?;
        // Ending what was started is a no-op after a 101 (conn's rule).
        ex.send_end(&[])?;
        let mut up = ex.upgrade()?;
        let mut buf = [0u8; 1024];
        loop {
            let n = up.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            up.write_all(&buf[..n])?;
        }
    });
    let mut s = connect(srv.addr);
    s.write_all(
        b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\nEARLY",
    )
    .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 256];
    while !got.ends_with(b"EARLY") {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {:?}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 101 "), "{text}");
    s.write_all(b"LATER").unwrap();
    let mut later = [0u8; 5];
    s.read_exact(&mut later).unwrap();
    assert_eq!(&later, b"LATER");
}

/// `CONNECT` is a proxy's method (RFC 9110 §9.3.6; no MUST or SHOULD of
/// its own, a policy): by default the server answers `501` and closes, and
/// the handler never sees it.
// proves: policy-connect-501
#[test]
fn connect_is_answered_501_without_tunnels() {
    let srv = Running::start(Server::builder(), |ex: &mut Exchange<'_>| {
        if ex.method() == http_net::head::Method::Connect {
            // Not reached: the connection answers first.
            return ex.send_head(200, &[], BodyLength::Empty);
        }
        plain(ex)
    });
    let text = raw_answer(
        srv.addr,
        b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nBYTES",
        501,
    );
    assert!(text.contains("Connection: close\r\n"), "{text}");
    assert_eq!(text.matches("HTTP/1.1 ").count(), 1, "{text}");
    // The server still answers other requests on other connections.
    let mut s = connect(srv.addr);
    let (plain_answer, _) = roundtrip(&mut s, GET);
    assert!(plain_answer.starts_with("HTTP/1.1 200 "), "{plain_answer}");
}

/// With tunnels on, the handler gets the `CONNECT` and the hand-off; the
/// `2xx` carries no `Content-Length` or `Transfer-Encoding`.
// proves: 9110-9.3.6-12a, policy-connect-501
#[test]
fn connect_tunnels_with_the_buffered_bytes() {
    let srv = Running::start(Server::builder().tunnels(true), |ex: &mut Exchange<'_>| {
        if ex.method() != http_net::head::Method::Connect {
            return plain(ex);
        }
        ex.send_head(200, &[], BodyLength::Streamed)?;
        ex.send_end(&[])?; // a no-op after a 2xx to CONNECT
        let mut up = ex.upgrade()?;
        let mut buf = [0u8; 64];
        let n = up.read(&mut buf)?;
        up.write_all(b"tunnel:")?;
        up.write_all(&buf[..n])?;
        Ok(())
    });
    let text = raw_answer(
        srv.addr,
        b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nBYTES",
        200,
    );
    assert!(text.ends_with("\r\n\r\ntunnel:BYTES"), "{text}");
    let head = &text[..text.find("\r\n\r\n").unwrap_or(0)];
    assert!(!head.contains("Content-Length"), "{text}");
    assert!(!head.contains("Transfer-Encoding"), "{text}");
}

// proves: 9112-9.6-1, 9112-9.6-7a
#[test]
fn requests_per_connection_are_bounded() {
    let srv = Running::start(Server::builder().max_requests_per_connection(2), plain);
    let mut s = connect(srv.addr);
    let (first, _) = roundtrip(&mut s, GET);
    assert!(
        !first.to_ascii_lowercase().contains("connection: close"),
        "{first}"
    );
    let (second, _) = roundtrip(&mut s, GET);
    assert!(
        second.to_ascii_lowercase().contains("connection: close"),
        "{second}"
    );
    assert!(read_to_close(&mut s).is_empty());
}

// proves: 9112-9.3-1
#[test]
fn client_reuses_connections_and_reports_bad_responses() {
    let ports = std::sync::Arc::new(std::sync::Mutex::new(std::collections::HashSet::new()));
    let p2 = std::sync::Arc::clone(&ports);
    let srv = Running::start(Server::builder(), move |ex: &mut Exchange<'_>| {
        if let Some(peer) = ex.peer_addr() {
            p2.lock().unwrap().insert(peer.port());
        }
        plain(ex)
    });
    let client = http_net::blocking::Client::new();
    for _ in 0..5 {
        let mut r = client.get(&format!("http://{}/", srv.addr)).unwrap();
        assert_eq!(r.body_to_vec(100).unwrap(), b"ok");
    }
    assert_eq!(
        ports.lock().unwrap().len(),
        1,
        "the client did not reuse its connection"
    );

    // A silent server: the read timeout fires.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let quiet = thread::spawn(move || {
        let (s, _) = l.accept().unwrap();
        thread::sleep(Duration::from_millis(800));
        drop(s);
    });
    let client = http_net::blocking::Client::builder()
        .read_timeout(Duration::from_millis(200))
        .build();
    let e = client.get(&format!("http://{addr}/")).unwrap_err();
    assert!(
        matches!(e, Error::Timeout(http_net::conn::Stage::Head)),
        "{e:?}"
    );
    quiet.join().unwrap();
}

/// Sends a head with `Expect` lines and a 5-byte body; the server must send
/// `100 Continue` before the body is written (RFC 9110 §10.1.1: every member
/// of every `Expect` line is `100-continue`).
fn continue_for(expect: &[u8]) {
    let srv = Running::start(Server::builder(), |ex: &mut Exchange<'_>| {
        let mut body = Vec::new();
        ex.body().read_to_end(&mut body)?;
        ex.respond_with(200, &[], &body)
    });
    let mut s = connect(srv.addr);
    s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
    let mut req = b"PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n".to_vec();
    req.extend_from_slice(expect);
    req.extend_from_slice(b"\r\n");
    s.write_all(&req).unwrap();
    let mut buf = [0u8; 25];
    s.read_exact(&mut buf).unwrap_or_else(|e| {
        panic!(
            "no 100 Continue for {:?}: {e}",
            String::from_utf8_lossy(expect)
        )
    });
    assert_eq!(&buf, b"HTTP/1.1 100 Continue\r\n\r\n");
    s.write_all(b"hello").unwrap();
    let (h, body) = read_response(&mut s);
    assert!(h.starts_with("HTTP/1.1 200"), "{h}");
    assert_eq!(body, b"hello");
}

#[test]
fn expect_100_continue_listed_twice_is_answered_100() {
    continue_for(b"Expect: 100-continue, 100-continue\r\n");
}

#[test]
fn expect_100_continue_on_two_lines_is_answered_100() {
    continue_for(b"Expect: 100-Continue\r\nExpect: 100-continue\r\n");
}

/// A handler that answers through `Exchange::conn()` with a prebuilt
/// response and a body `conn` copies: the connection loop sends it.
#[test]
fn an_answer_through_conn_reaches_the_peer() {
    let ok =
        http_net::conn::PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    let srv = Running::start(Server::builder(), move |ex: &mut Exchange<'_>| {
        assert_eq!(
            ex.conn().responder().respond(&ok, b"hi")?,
            Placement::Queued
        );
        Ok::<(), Error>(())
    });
    let mut s = connect(srv.addr);
    // Twice on one connection: the answer is complete and the connection
    // persists.
    for _ in 0..2 {
        let (h, got) = roundtrip(&mut s, GET);
        assert!(h.starts_with("HTTP/1.1 200 OK\r\n"), "{h}");
        assert_eq!(got, b"hi");
    }
}

/// Over `COPY_LIMIT`, `respond` leaves the body to the caller
/// (`Placement::AfterOutput`): `Exchange::send_placed` writes it after the
/// head, and the connection goes on.
#[test]
fn a_large_answer_through_conn_reaches_the_peer_with_send_placed() {
    let ok =
        http_net::conn::PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    let body = noise(64 * 1024, 9);
    let sent = body.clone();
    let srv = Running::start(Server::builder(), move |ex: &mut Exchange<'_>| {
        let placement = ex.conn().responder().respond(&ok, &sent)?;
        assert_eq!(placement, http_net::conn::Placement::AfterOutput);
        ex.send_placed(placement, &sent)
    });
    let mut s = connect(srv.addr);
    for _ in 0..2 {
        let (h, got) = roundtrip(&mut s, GET);
        assert!(h.starts_with("HTTP/1.1 200 OK\r\n"), "{h}");
        assert!(got == body, "{} bytes of {}", got.len(), body.len());
    }
}

/// The head sent with `flush` before a large body piece: nothing is pending
/// when the connection leaves the piece to the caller. `send_placed` sends
/// it and the connection goes on; a handler that does not (and ends the
/// response as if it had) has its connection closed before another
/// response can take the body's place, and the application's error is
/// counted (conn recorded no debt with nothing pending before).
#[test]
fn a_body_piece_given_after_a_flush_is_sent_with_send_placed_or_closes() {
    let body = noise(64 * 1024, 5);
    let sent = body.clone();
    let srv = Running::start(Server::builder(), move |ex: &mut Exchange<'_>| {
        if ex.path() == b"/" {
            return ex.respond_with(200, &[], b"hi");
        }
        ex.send_head(200, &[], BodyLength::Known(sent.len() as u64))?;
        ex.flush()?;
        let placement = ex.conn().responder().send_data(&sent)?;
        assert_eq!(placement, Placement::AfterOutput);
        if ex.path() == b"/placed" {
            ex.send_placed(placement, &sent)?;
        }
        ex.send_end(&[])
    });
    let mut s = connect(srv.addr);
    for _ in 0..2 {
        let (h, got) = roundtrip(&mut s, b"GET /placed HTTP/1.1\r\nHost: a\r\n\r\n");
        assert!(h.starts_with("HTTP/1.1 200 OK\r\n"), "{h}");
        assert!(got == body, "{} bytes of {}", got.len(), body.len());
    }
    let mut s = connect(srv.addr);
    s.write_all(b"GET /forgot HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    s.write_all(GET).unwrap();
    let got = read_to_close(&mut s);
    let text = String::from_utf8_lossy(&got);
    assert!(text.contains("Content-Length: 65536\r\n"), "{text}");
    assert_eq!(text.matches("HTTP/1.1 ").count(), 1, "{text}");
    assert_eq!(srv.stop.counters().unsent_bodies, 1);
}

/// A handler that takes `Placement::AfterOutput` through `conn()` and does
/// not send the body: the peer was promised those bytes, so the connection
/// sends the head and closes (it must not put another response where the
/// body belongs).
#[test]
fn a_body_left_unsent_through_conn_closes_the_connection() {
    let ok = http_net::conn::PreparedResponse::new(200, &[]).unwrap();
    let body = noise(64 * 1024, 3);
    let srv = Running::start(Server::builder(), move |ex: &mut Exchange<'_>| {
        let placement = ex.conn().responder().respond(&ok, &body)?;
        assert_eq!(placement, http_net::conn::Placement::AfterOutput);
        Ok::<(), Error>(())
    });
    let mut s = connect(srv.addr);
    s.write_all(GET).unwrap();
    s.write_all(GET).unwrap();
    let got = read_to_close(&mut s);
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(text.contains("Content-Length: 65536\r\n"), "{text}");
    assert_eq!(text.matches("HTTP/1.1 ").count(), 1, "{text}");
}

/// What a handler queues through `Exchange::conn()` is sent when it returns,
/// also when the connection ends there: a reject of its own choosing, a
/// `2xx` to CONNECT without `upgrade`.
#[test]
fn what_conn_queued_is_sent_when_the_connection_ends() {
    let srv = Running::start(Server::builder().tunnels(true), |ex: &mut Exchange<'_>| {
        if ex.method() == http_net::head::Method::Connect {
            return ex.send_head(200, &[], BodyLength::Empty);
        }
        ex.conn().reject(503).map_err(http_net::conn::Error::from)?;
        Ok(())
    });
    for (req, status) in [
        (GET, &b"HTTP/1.1 503 "[..]),
        (
            &b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n"[..],
            b"HTTP/1.1 200 ",
        ),
    ] {
        let got = raw(srv.addr, req);
        assert!(
            got.starts_with(status),
            "{:?}",
            String::from_utf8_lossy(&got)
        );
    }
}

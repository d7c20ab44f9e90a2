//! The server's body limits and hooks over real sockets: `max_body_bytes`,
//! a handler's `limit_body`, the error-body hook (a JSON `413`, `400`,
//! `500`) and the access log (method, target, status, bytes, duration,
//! the handler's error).

use http_net_std::ServerOptions;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use http_net_std::{
    AccessRecord, Error, ErrorBody, ErrorCause, Exchange, Limit, Server, ServerBuilder,
};

mod support;
use support::{exchange, serve, stop};

/// A chunked upload of `n` bytes to `target`, with the `extra` field lines.
fn chunked(target: &str, extra: &str, n: usize) -> Vec<u8> {
    let mut req =
        format!("POST {target} HTTP/1.1\r\nHost: a\r\n{extra}Transfer-Encoding: chunked\r\n\r\n")
            .into_bytes();
    req.extend_from_slice(format!("{n:x}\r\n").as_bytes());
    req.extend(std::iter::repeat_n(b'x', n));
    req.extend_from_slice(b"\r\n0\r\n\r\n");
    req
}

/// Reads the body and answers with its length; the read's error is
/// returned (and recorded in `seen`).
fn reader(seen: Arc<Mutex<Vec<String>>>) -> impl Fn(&mut Exchange<'_>) -> Result<(), Error> {
    move |ex| {
        if let Some(n) = ex
            .query_pairs()
            .find(|(k, _)| *k == b"limit")
            .map(|(_, v)| v)
        {
            let n: u64 = std::str::from_utf8(n).unwrap().parse().unwrap();
            if let Err(e) = ex.limit_body(n) {
                seen.lock().unwrap().push(format!("limit: {e}"));
                return Err(e);
            }
        }
        let mut body = Vec::new();
        match ex.body().read_to_end(&mut body) {
            Ok(_) => ex.respond_with(200, &[], body.len().to_string().as_bytes()),
            Err(e) => {
                let e = Error::from_io(e);
                seen.lock().unwrap().push(format!("read: {e}"));
                assert!(matches!(e, Error::OverLimit(Limit::BodyBudget(_))), "{e:?}");
                Err(e)
            }
        }
    }
}

#[test]
fn max_body_bytes_is_the_ceiling_before_and_while_the_handler_reads() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let calls = Arc::new(AtomicUsize::new(0));
    let (c, r) = (Arc::clone(&calls), reader(Arc::clone(&seen)));
    let s = serve(Server::builder().max_body_bytes(1000), move |ex| {
        c.fetch_add(1, Ordering::SeqCst);
        r(ex)
    });
    // Declared over the limit: 413 before the handler runs.
    let resp = exchange(
        &s.0,
        b"POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n",
    );
    assert!(resp.starts_with("HTTP/1.1 413 "), "{resp}");
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    // Chunked: the read passes the limit.
    let resp = exchange(&s.0, &chunked("/up", "", 2000));
    assert!(resp.starts_with("HTTP/1.1 413 "), "{resp}");
    assert_eq!(
        *seen.lock().unwrap(),
        ["read: the body is larger than the body limit of 1000 bytes"]
    );
    // Within it.
    let resp = exchange(&s.0, &chunked("/up", "Connection: close\r\n", 1000));
    assert!(
        resp.starts_with("HTTP/1.1 200 ") && resp.ends_with("\r\n1000"),
        "{resp}"
    );
    stop(s);
}

/// The body `json_errors` answers an error of `status` with.
fn json_error(status: u16) -> String {
    format!("{{\"error\":{status}}}")
}

/// Asserts that the response `resp` ends with the JSON error body of
/// `status`.
fn assert_json_error(resp: &str, status: u16) {
    assert!(
        resp.ends_with(&format!("\r\n\r\n{}", json_error(status))),
        "{resp}"
    );
}

fn json_errors(b: ServerBuilder, causes: Arc<Mutex<Vec<String>>>) -> ServerBuilder {
    b.error_body(move |e| {
        let cause = match e.cause() {
            ErrorCause::Peer(p) => format!("peer {}", p.rfc()),
            ErrorCause::OverLimit(l) => format!("over {l}"),
            ErrorCause::Handler(h) => format!("handler {h}"),
            other => format!("{other:?}"),
        };
        causes.lock().unwrap().push(format!(
            "{} {} {} {cause}",
            e.status(),
            e.method(),
            String::from_utf8_lossy(e.target())
        ));
        Some(ErrorBody {
            content_type: b"application/json".to_vec(),
            body: json_error(e.status()).into_bytes(),
        })
    })
}

#[test]
fn a_handler_lowers_the_limit_and_the_413_is_json() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let causes = Arc::new(Mutex::new(Vec::new()));
    let s = serve(
        json_errors(Server::builder(), Arc::clone(&causes)),
        reader(Arc::clone(&seen)),
    );
    let resp = exchange(
        &s.0,
        b"POST /up?limit=10 HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\nExpect: 100-continue\r\n\r\n",
    );
    // Refused at once: no 100 Continue first.
    assert!(
        resp.starts_with("HTTP/1.1 413 Content Too Large\r\n"),
        "{resp}"
    );
    assert!(
        resp.contains("\r\nContent-Type: application/json\r\n"),
        "{resp}"
    );
    assert_json_error(&resp, 413);
    let resp = exchange(&s.0, &chunked("/up?limit=10", "", 20));
    assert_json_error(&resp, 413);
    let resp = exchange(
        &s.0,
        b"POST /up?limit=10 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    );
    assert!(resp.ends_with("\r\n\r\n5"), "{resp}");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "limit: the body is larger than the body limit of 10 bytes",
            "read: the body is larger than the body limit of 10 bytes"
        ]
    );
    assert_eq!(
        *causes.lock().unwrap(),
        [
            "413 POST /up?limit=10 over the body limit of 10 bytes",
            "413 POST /up?limit=10 over the body limit of 10 bytes"
        ]
    );
    stop(s);
}

#[test]
fn the_error_body_hook_sees_head_errors_and_handler_failures() {
    let causes = Arc::new(Mutex::new(Vec::new()));
    let s = serve(
        json_errors(Server::builder(), Arc::clone(&causes)),
        |ex: &mut Exchange<'_>| match ex.path() {
            b"/fail" => Err(Error::BodyUnavailable),
            b"/panic" => panic!("handler panic (expected by the test)"),
            _ => Ok(()),
        },
    );
    let resp = exchange(&s.0, b"GET / HTTP/1.1\r\nHost : a\r\n\r\n");
    assert!(resp.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{resp}");
    assert_json_error(&resp, 400);
    let resp = exchange(&s.0, b"GET /fail HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_json_error(&resp, 500);
    let resp = exchange(&s.0, b"HEAD /panic HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(resp.starts_with("HTTP/1.1 500 "), "{resp}");
    assert!(resp.contains("\r\nContent-Length: 13\r\n"), "{resp}");
    assert!(resp.ends_with("\r\n\r\n"), "no body to HEAD: {resp}");
    let resp = exchange(&s.0, b"GET /none HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_json_error(&resp, 500);
    let resp = exchange(&s.0, b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n");
    assert_json_error(&resp, 501);
    assert_eq!(
        *causes.lock().unwrap(),
        [
            "400   peer RFC 9112 §5.1",
            "500 GET /fail handler the body can no longer be read",
            "500 HEAD /panic Panic",
            "500 GET /none NoAnswer",
            "501 CONNECT a:443 Connect",
        ]
    );
    stop(s);
}

#[test]
fn the_access_log_sees_each_request_and_the_errors_the_peer_does_not() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = Arc::clone(&log);
    let builder = Server::builder().access_log(move |r: &AccessRecord<'_>| {
        assert!(r.duration() < Duration::from_secs(5));
        assert!(r.peer().is_some());
        l.lock().unwrap().push(format!(
            "{} {} {:?} {} {:?} {}",
            r.method(),
            String::from_utf8_lossy(r.target()),
            r.status(),
            r.bytes(),
            r.error().map(ToString::to_string),
            r.panicked()
        ));
    });
    let s = serve(builder, |ex: &mut Exchange<'_>| match ex.path() {
        b"/ok" => ex.respond_with(200, &[], b"hello"),
        // Answered, then an error the peer never sees.
        b"/late" => {
            ex.respond_with(201, &[], b"")?;
            Err(Error::NotSwitched)
        }
        _ => ex.respond_with(404, &[], b""),
    });
    let resp = exchange(
        &s.0,
        b"GET /ok?x=1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /late HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
    );
    assert!(resp.contains("HTTP/1.1 201 Created\r\n"), "{resp}");
    let ok_bytes = resp.find("HTTP/1.1 201").unwrap();
    let late_bytes = resp.len() - ok_bytes;
    exchange(&s.0, b"GET / HTTP/1.1\r\n\r\n");
    let log = log.lock().unwrap().clone();
    assert_eq!(log.len(), 3, "{log:?}");
    assert_eq!(
        log[0],
        format!("GET /ok?x=1 Some(200) {ok_bytes} None false")
    );
    assert_eq!(
        log[1],
        format!(
            "POST /late Some(201) {late_bytes} Some(\"the connection was not switched to another protocol\") false"
        )
    );
    assert!(log[2].starts_with("  Some(400) "), "{log:?}");
    stop(s);
}

#[test]
fn the_503_beyond_the_connection_limit_takes_the_hooks_body() {
    let causes = Arc::new(Mutex::new(Vec::new()));
    let builder = Server::builder()
        .max_connections(1)
        .eviction_grace(Duration::from_secs(30));
    let release = Arc::new(AtomicBool::new(false));
    let held = Arc::clone(&release);
    let s = serve(json_errors(builder, Arc::clone(&causes)), move |ex| {
        // `/hold` keeps its handler running (a busy slot is never evicted;
        // a partial head would be) until released, 10 s at most.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while ex.path() == b"/hold"
            && !held.load(Ordering::SeqCst)
            && std::time::Instant::now() < deadline
        {
            thread::sleep(Duration::from_millis(10));
        }
        ex.respond_with(200, &[], b"")
    });
    // Holds the only slot, in its handler.
    let mut holder = TcpStream::connect(&s.0).unwrap();
    holder
        .write_all(b"GET /hold HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while s.1.counters().current < 1 {
        assert!(std::time::Instant::now() < deadline, "not admitted");
        thread::sleep(Duration::from_millis(10));
    }
    thread::sleep(Duration::from_millis(50));
    let resp = exchange(&s.0, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(
        resp.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
        "{resp}"
    );
    assert!(resp.contains("\r\nRetry-After: 1\r\n"), "{resp}");
    assert!(
        resp.contains("\r\nContent-Type: application/json\r\n"),
        "{resp}"
    );
    assert_json_error(&resp, 503);
    assert_eq!(*causes.lock().unwrap(), ["503   Busy"]);
    release.store(true, Ordering::SeqCst);
    drop(holder);
    stop(s);
}

#[test]
fn a_head_deadline_is_logged_from_the_heads_first_byte() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let causes = Arc::new(Mutex::new(Vec::new()));
    let l = Arc::clone(&log);
    let builder = Server::builder()
        .head_timeout(Duration::from_millis(300))
        .access_log(move |r| {
            l.lock()
                .unwrap()
                .push((r.method().to_string(), r.status(), r.duration()))
        });
    let s = serve(json_errors(builder, Arc::clone(&causes)), |ex| {
        ex.respond_with(200, &[], b"")
    });
    // A keep-alive connection: one request, a pause, then a head that
    // stalls: its time counts from its first byte, not from the first request.
    let mut c = TcpStream::connect(&s.0).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    c.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
    let mut first = Vec::new();
    let mut b = [0u8; 1];
    while !first.ends_with(b"\r\n\r\n") {
        c.read_exact(&mut b).unwrap();
        first.push(b[0]);
    }
    assert!(first.starts_with(b"HTTP/1.1 200 OK\r\n"));
    thread::sleep(Duration::from_millis(1500));
    c.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n").unwrap();
    let mut rest = Vec::new();
    let _ = c.read_to_end(&mut rest);
    let resp = String::from_utf8_lossy(&rest);
    assert!(resp.contains("HTTP/1.1 408 "), "{resp}");
    assert_json_error(&resp, 408);
    assert_eq!(*causes.lock().unwrap(), ["408   Timeout(Head)"]);
    let log = log.lock().unwrap().clone();
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!((log[0].0.as_str(), log[0].1), ("GET", Some(200)));
    let (method, status, took) = &log[1];
    assert_eq!((method.as_str(), *status), ("", Some(408)));
    assert!(
        *took >= Duration::from_millis(300) && *took < Duration::from_millis(1200),
        "{took:?}"
    );
    drop(c);
    stop(s);
}

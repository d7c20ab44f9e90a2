//! Server behaviour written once and run against both adapters (issue 24,
//! "One surface, two I/O styles"): each `both!` below is the tests
//! `<name>::std` and `<name>::tokio`, over the harness of
//! `support/both.rs` (a server of either adapter with the same settings
//! and the same named handler behaviour, spoken to with raw bytes). An
//! instantiation marked `#[ignore]` is a difference between the adapters
//! that the reason names; the README's parity table lists them.

mod support;
#[macro_use]
#[path = "support/both.rs"]
mod both;

use std::io::Write;
use std::thread;
use std::time::Duration;

use both::{ask, closed, connect, json_error, next, raw, read_all, start, Adapter, Do, Settings};

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";

both! {
    /// `max_body_bytes`: a declared length over it is answered `413`
    /// before the handler runs and the connection closes; a chunked body
    /// passing it is `413` too; a body within it is served.
    fn body_limit_per_server(a) {
        let set = Settings { max_body_bytes: Some(8), ..Settings::default() };
        let srv = start(a, &set, Do::Echo);
        let mut s = connect(srv.addr);
        let r = ask(&mut s, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 8\r\n\r\n12345678");
        assert_eq!((r.status, &r.body[..]), (200, &b"12345678"[..]));
        let r = ask(&mut s, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n123456789");
        assert_eq!(r.status, 413, "{r:?}");
        assert!(closed(&mut s));
        drop(s);
        let chunked = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n5\r\n67890\r\n0\r\n\r\n";
        let r = raw(srv.addr, chunked);
        assert!(r.starts_with("HTTP/1.1 413 "), "{r}");
        srv.stop();
    }
}

both! {
    /// `Handler::limits_request_bodies`: a handler that says it limits
    /// bodies itself gets no default body budget (a declared 9 MiB reaches
    /// it; the default handler's 8 MiB answers `413` before it runs); a
    /// budget set with `max_body_bytes` applies to both.
    fn a_handler_that_limits_bodies_gets_no_default_budget(a) {
        let nine = format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n", 9 << 20);
        let answer = |set: &Settings| {
            let srv = start(a, set, Do::Refuse(202));
            let r = ask(&mut connect(srv.addr), nine.as_bytes());
            srv.stop();
            r.status
        };
        assert_eq!(answer(&Settings::default()), 413);
        assert_eq!(answer(&Settings { limits_bodies: true, ..Settings::default() }), 202);
        let chosen = Settings { max_body_bytes: Some(8 << 20), limits_bodies: true, ..Settings::default() };
        assert_eq!(answer(&chosen), 413);
    }
}

both! {
    /// `Exchange::limit_body`: a declared length over the request's own
    /// limit is `413` (without `100 Continue`), a chunked body when it
    /// passes it; one within it is served.
    fn body_limit_per_request(a) {
        let srv = start(a, &Settings::default(), Do::LimitBody(4));
        let r = ask(&mut connect(srv.addr), b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd");
        assert_eq!((r.status, &r.body[..]), (200, &b"abcd"[..]));
        let r = raw(
            srv.addr,
            b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
        );
        assert!(r.starts_with("HTTP/1.1 413 "), "{r}");
        let r = raw(
            srv.addr,
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n",
        );
        assert!(r.starts_with("HTTP/1.1 413 "), "{r}");
        srv.stop();
    }
}

both! {
    /// `error_body`: the error responses the server writes itself carry
    /// the hook's body and content type.
    fn custom_error_bodies(a) {
        let set = Settings { json_errors: true, max_body_bytes: Some(4), ..Settings::default() };
        let srv = start(a, &set, Do::Echo);
        for (req, status) in [
            (&b"GET / HTTP/1.1\r\n\r\n"[..], 400),
            (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nabcde", 413),
        ] {
            let r = ask(&mut connect(srv.addr), req);
            assert_eq!(r.status, status, "{r:?}");
            assert_eq!(r.field("content-type"), Some("application/json"), "{r:?}");
            assert_eq!(r.body, json_error(status).into_bytes(), "{r:?}");
        }
        srv.stop();
    }
}

both! {
    /// `access_log`: one record per request, with method, target and
    /// status, the refused ones included.
    fn access_log_records_each_request(a) {
        let log = both::Log::default();
        let set = Settings { access_log: Some(log.clone()), ..Settings::default() };
        let srv = start(a, &set, Do::Hello);
        let mut s = connect(srv.addr);
        assert_eq!(ask(&mut s, b"GET /a?b=c HTTP/1.1\r\nHost: a\r\n\r\n").status, 200);
        assert_eq!(ask(&mut s, b"DELETE /x HTTP/1.1\r\nHost: a\r\n\r\n").status, 200);
        assert!(raw(srv.addr, b"GET / HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 400 "));
        srv.stop();
        let lines = log.lock().unwrap().clone();
        assert!(lines.contains(&"GET /a?b=c 200".to_string()), "{lines:?}");
        assert!(lines.contains(&"DELETE /x 200".to_string()), "{lines:?}");
        assert!(lines.iter().any(|l| l.ends_with(" 400")), "{lines:?}");
    }
}

both! {
    /// A final answer before the body: to a request that expects
    /// `100-continue`, no `100` is sent; the answer comes, and the
    /// connection closes (the unread body is never read as a request).
    fn early_final_response_without_100(a) {
        let srv = start(a, &Settings::default(), Do::Refuse(403));
        let r = raw(
            srv.addr,
            b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n",
        );
        assert!(r.starts_with("HTTP/1.1 403 "), "{r}");
        assert!(!r.contains(" 100 "), "{r}");
        assert!(r.ends_with("\r\n\r\nrefused"), "{r}");
        srv.stop();
    }
}

both! {
    /// `Expect: 100-continue`: `100` is sent when the handler first reads
    /// the body, before the client sends it; then the answer.
    fn continue_on_first_body_read(a) {
        let srv = start(a, &Settings::default(), Do::Echo);
        let mut s = connect(srv.addr);
        s.write_all(b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            .unwrap();
        let mut got = Vec::new();
        assert!(support::on_tokio::fill_until(&mut s, &mut got, b"\r\n\r\n"));
        assert_eq!(got, b"HTTP/1.1 100 Continue\r\n\r\n");
        let r = ask(&mut s, b"body");
        assert_eq!((r.status, &r.body[..]), (200, &b"body"[..]));
        srv.stop();
    }
}

both! {
    /// `send_informational`: a `103` with its fields before the final
    /// answer.
    fn informational_before_final(a) {
        let srv = start(a, &Settings::default(), Do::EarlyHints);
        let r = raw(srv.addr, b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.ends_with("\r\n\r\nhinted"), "{r}");
        srv.stop();
    }
}

both! {
    /// Request trailers reach the handler once the body is read.
    fn request_trailers_in(a) {
        let srv = start(a, &Settings::default(), Do::Trailers);
        let r = ask(
            &mut connect(srv.addr),
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\nX-Sum: 7\r\nX-Other: a b\r\n\r\n",
        );
        assert_eq!(r.status, 200, "{r:?}");
        assert_eq!(String::from_utf8_lossy(&r.body), "x-sum=7;x-other=a b;");
        srv.stop();
    }
}

both! {
    /// `send_end` with trailers: a chunked body ending in them.
    fn response_trailers_out(a) {
        let srv = start(a, &Settings::default(), Do::TrailersOut);
        let r = raw(srv.addr, b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("\r\nTransfer-Encoding: chunked\r\n"), "{r}");
        assert!(r.ends_with("\r\n\r\n4\r\npart\r\n0\r\nX-Checksum: 42\r\n\r\n"), "{r}");
        srv.stop();
    }
}

both! {
    /// A body the connection leaves to the caller, written with
    /// `send_placed`, arrives whole.
    fn send_placed_body(a) {
        let srv = start(a, &Settings::default(), Do::Placed(64 * 1024));
        let r = ask(&mut connect(srv.addr), GET);
        assert_eq!(r.status, 200);
        assert_eq!(r.body.len(), 64 * 1024);
        assert!(r.body.iter().all(|&b| b == b'x'));
        srv.stop();
    }
}

both! {
    /// `101` then raw bytes both ways: bytes sent with the request head
    /// (buffered by the server) come first, then the rest.
    fn upgrade_then_raw_bytes(a) {
        let srv = start(a, &Settings::default(), Do::Upgrade);
        let mut s = connect(srv.addr);
        s.write_all(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: echo\r\n\r\nhel")
            .unwrap();
        let mut got = Vec::new();
        assert!(support::on_tokio::fill_until(&mut s, &mut got, b"\r\n\r\n"));
        let head = String::from_utf8_lossy(&got).into_owned();
        assert!(head.starts_with("HTTP/1.1 101 Switching Protocols\r\n"), "{head}");
        assert!(head.contains("\r\nUpgrade: echo\r\n"), "{head}");
        thread::sleep(Duration::from_millis(20));
        s.write_all(b"lo").unwrap();
        let mut echo = [0u8; 5];
        std::io::Read::read_exact(&mut s, &mut echo).unwrap();
        assert_eq!(&echo, b"hello");
        assert!(closed(&mut s));
        srv.stop();
    }
}

both! {
    /// `CONNECT` with tunnels off (the default): `501`, and the handler
    /// never sees it.
    fn connect_off_is_501(a) {
        let srv = start(a, &Settings::default(), Do::Tunnel);
        let r = raw(srv.addr, b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\nhello");
        assert!(r.starts_with("HTTP/1.1 501 "), "{r}");
        srv.stop();
    }
}

both! {
    /// `CONNECT` with `tunnels(true)`: the handler's `200`, then a tunnel.
    fn connect_on_tunnels(a) {
        let set = Settings { tunnels: true, ..Settings::default() };
        let srv = start(a, &set, Do::Tunnel);
        let mut s = connect(srv.addr);
        s.write_all(b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n").unwrap();
        let mut got = Vec::new();
        assert!(support::on_tokio::fill_until(&mut s, &mut got, b"\r\n\r\n"));
        assert!(got.starts_with(b"HTTP/1.1 200 OK\r\n"), "{}", String::from_utf8_lossy(&got));
        s.write_all(b"tunnl").unwrap();
        let mut echo = [0u8; 5];
        std::io::Read::read_exact(&mut s, &mut echo).unwrap();
        assert_eq!(&echo, b"tunnl");
        srv.stop();
    }
}

both! {
    /// Three requests in one write: three answers, in order.
    fn pipelining_answers_in_order(a) {
        let srv = start(a, &Settings::default(), Do::Field("x-n"));
        let mut s = connect(srv.addr);
        s.write_all(
            b"GET / HTTP/1.1\r\nHost: a\r\nX-N: 1\r\n\r\n\
              POST / HTTP/1.1\r\nHost: a\r\nX-N: 2\r\nContent-Length: 3\r\n\r\nabc\
              GET / HTTP/1.1\r\nHost: a\r\nX-N: 3\r\n\r\n",
        )
        .unwrap();
        let mut rest = Vec::new();
        for n in [b"1", b"2", b"3"] {
            let r = support::on_tokio::read_response(&mut s, &mut rest, false).unwrap();
            assert_eq!((r.status, &r.body[..]), (200, &n[..]));
        }
        srv.stop();
    }
}

both! {
    /// A graceful shutdown closes an idle keep-alive connection at once and
    /// lets a request in flight finish (its answer says
    /// `Connection: close`).
    fn graceful_shutdown(a) {
        let srv = start(a, &Settings::default(), Do::Slow(400));
        let mut idle = connect(srv.addr);
        assert_eq!(ask(&mut idle, GET).status, 200);
        let mut busy = connect(srv.addr);
        busy.write_all(b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
        thread::sleep(Duration::from_millis(100));
        srv.shutdown();
        assert!(closed(&mut idle), "the idle connection stays open");
        let r = next(&mut busy);
        assert_eq!((r.status, &r.body[..]), (200, &b"done"[..]));
        assert_eq!(r.field("connection"), Some("close"), "{r:?}");
        assert!(closed(&mut busy));
        drop((idle, busy));
        srv.stop();
    }
}

both! {
    /// A graceful stop does not wait out the drain of a connection that is
    /// closing after an error response its peer has read (the drain keeps
    /// reading so that the peer gets the response, 2 s by default): `serve`
    /// returns at once.
    fn graceful_shutdown_does_not_wait_out_a_drain(a) {
        let srv = start(a, &Settings::default(), Do::Hello);
        let mut s = connect(srv.addr);
        let r = ask(&mut s, b"GET / HTTP/1.1\r\n\r\n");
        assert_eq!(r.status, 400);
        assert!(closed(&mut s));
        let t = std::time::Instant::now();
        srv.stop();
        let took = t.elapsed();
        assert!(took < Duration::from_secs(1), "the stop took {took:?}");
        drop(s);
    }
}

both! {
    /// `max_requests_per_connection(2)`: the second answer carries
    /// `Connection: close` and the connection closes.
    fn max_requests_per_connection(a) {
        let set = Settings { max_requests: Some(2), ..Settings::default() };
        let srv = start(a, &set, Do::Hello);
        let mut s = connect(srv.addr);
        let first = ask(&mut s, GET);
        assert_eq!(first.status, 200);
        assert_eq!(first.field("connection"), None, "{first:?}");
        let second = ask(&mut s, GET);
        assert_eq!(second.status, 200);
        assert_eq!(second.field("connection"), Some("close"), "{second:?}");
        assert!(closed(&mut s));
        drop(s);
        srv.stop();
    }
}

both! {
    /// `HEAD`: the head the `GET` would get (its `Content-Length`), no body.
    fn head_answered_without_body(a) {
        let srv = start(a, &Settings::default(), Do::Hello);
        let r = raw(srv.addr, b"HEAD / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("\r\nContent-Length: 5\r\n"), "{r}");
        assert!(r.ends_with("\r\n\r\n"), "{r}");
        srv.stop();
    }
}

both! {
    /// `front_line(true)`: a form the default serves (`%00` in the target)
    /// is answered `400` and the connection closed.
    fn front_line_profile(a) {
        let req = b"GET /a%00b HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
        let off = start(a, &Settings::default(), Do::Hello);
        assert!(raw(off.addr, req).starts_with("HTTP/1.1 200 "));
        off.stop();
        let set = Settings { front_line: true, ..Settings::default() };
        let on = start(a, &set, Do::Hello);
        let mut s = connect(on.addr);
        s.write_all(req).unwrap();
        let r = read_all(&mut s);
        assert!(r.starts_with("HTTP/1.1 400 "), "{r}");
        drop(s);
        on.stop();
    }
}

both! {
    /// `query` and `query_pairs`: the query as received (still
    /// percent-encoded), split at `&` into `key=value` pairs; none without
    /// a `?`.
    fn query_and_pairs(a) {
        let srv = start(a, &Settings::default(), Do::Describe);
        let mut s = connect(srv.addr);
        let r = ask(&mut s, b"GET /p?a=1&b=x%20y&c HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!(String::from_utf8_lossy(&r.body), "GET a=1&b=x%20y&c a=1|b=x%20y|c=");
        let r = ask(&mut s, b"GET /p HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!(String::from_utf8_lossy(&r.body), "GET - ");
        srv.stop();
    }
}

both! {
    /// `method_str`: the method as received, extension methods included.
    fn method_as_text(a) {
        let srv = start(a, &Settings::default(), Do::Describe);
        let mut s = connect(srv.addr);
        for method in ["PATCH", "PURGE", "DELETE"] {
            let req = format!("{method} /x HTTP/1.1\r\nHost: a\r\n\r\n");
            let r = ask(&mut s, req.as_bytes());
            assert_eq!(String::from_utf8_lossy(&r.body), format!("{method} - "));
        }
        srv.stop();
    }
}

both! {
    /// The streaming body reader (`Read` / `AsyncRead`) and writer
    /// (`Write` / `AsyncWrite`): a chunked upload read 3 bytes at a time
    /// and written back piece by piece arrives whole, chunked.
    fn streaming_body_reader_and_writer(a) {
        let srv = start(a, &Settings::default(), Do::Stream);
        let r = ask(
            &mut connect(srv.addr),
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nstre\r\n6\r\naming!\r\n0\r\n\r\n",
        );
        assert_eq!(r.status, 200);
        assert_eq!(r.field("transfer-encoding"), Some("chunked"), "{r:?}");
        assert_eq!(r.body, b"streaming!");
        srv.stop();
    }
}

both! {
    /// A handler that returns `Ok` without answering: `500`, the
    /// connection closed; the server goes on.
    fn no_answer_is_500(a) {
        let srv = start(a, &Settings::default(), Do::Nothing);
        for _ in 0..2 {
            let r = raw(srv.addr, GET);
            assert!(r.starts_with("HTTP/1.1 500 "), "{r}");
        }
        srv.stop();
    }
}

both! {
    /// A handler that panics: `500`, the connection closed; the server
    /// goes on.
    fn panic_is_500(a) {
        let srv = start(a, &Settings::default(), Do::Panic);
        for _ in 0..2 {
            let r = raw(srv.addr, GET);
            assert!(r.starts_with("HTTP/1.1 500 "), "{r}");
        }
        srv.stop();
    }
}

both! {
    /// A handler uses `?` on its own errors (`Utf8Error`,
    /// `ParseIntError`): one it returns is answered `500`.
    fn handler_errors_with_question_mark(a) {
        let srv = start(a, &Settings::default(), Do::Double);
        let r = ask(&mut connect(srv.addr), b"GET /?21 HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!((r.status, &r.body[..]), (200, &b"42"[..]));
        let r = raw(srv.addr, b"GET /?x HTTP/1.1\r\nHost: a\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 500 "), "{r}");
        srv.stop();
    }
}

both! {
    /// `mistake_log`: a field name the connection refuses and a handler
    /// that answers nothing are the application's mistakes, reported
    /// through the hook (the peer gets `500`).
    fn mistakes_reported_through_the_hook(a) {
        for (what, kind) in [(Do::BadField, "Refused(InvalidFieldName)"), (Do::Nothing, "Unanswered")] {
            let log = both::Log::default();
            let set = Settings { mistakes: Some(log.clone()), ..Settings::default() };
            let srv = start(a, &set, what);
            let r = raw(srv.addr, GET);
            assert!(r.starts_with("HTTP/1.1 500 "), "{r}");
            srv.stop();
            assert_eq!(*log.lock().unwrap(), [kind.to_string()]);
        }
    }
}

both! {
    /// `report_mistakes(false)` silences the hook; the peer's answer does
    /// not change.
    fn report_mistakes_off_silences_them(a) {
        let log = both::Log::default();
        let set = Settings { mistakes: Some(log.clone()), quiet: true, ..Settings::default() };
        let srv = start(a, &set, Do::BadField);
        let r = raw(srv.addr, GET);
        assert!(r.starts_with("HTTP/1.1 500 "), "{r}");
        srv.stop();
        assert!(log.lock().unwrap().is_empty(), "{:?}", log.lock().unwrap());
    }
}

both! {
    /// `body_and_writer`: the request body copied into a streamed
    /// response while it arrives (`std::io::copy`, `tokio::io::copy`),
    /// for a body of known length and a chunked one, on one connection.
    fn body_and_writer_copies_the_body_into_the_response(a) {
        let srv = start(a, &Settings::default(), Do::Copy);
        let mut s = connect(srv.addr);
        let body: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let mut req = format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n", body.len()).into_bytes();
        req.extend_from_slice(&body);
        let r = ask(&mut s, &req);
        assert_eq!(r.status, 200, "{r:?}");
        assert_eq!(r.field("transfer-encoding"), Some("chunked"), "{r:?}");
        assert!(r.body == body, "{} bytes back of {}", r.body.len(), body.len());
        let r = ask(&mut s, b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n");
        assert_eq!((r.status, &r.body[..]), (200, &b"abcdefg"[..]));
        drop(s);
        srv.stop();
    }
}

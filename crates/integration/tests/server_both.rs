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

use both::{
    ask, closed, connect, json_error, next, raw, read_all, start, Adapter, Do, Log, Settings,
};

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
    /// A body over `max_body_bytes` has one cause for the `error_body`
    /// hook, and one text for the peer, whether its length was declared
    /// (refused before the handler runs) or found while the handler read a
    /// chunked body: the local side's limit, not bad framing.
    fn body_over_the_limit_has_one_cause(a) {
        let log = Log::default();
        let set = Settings {
            max_body_bytes: Some(1024),
            causes: Some(log.clone()),
            ..Settings::default()
        };
        let srv = start(a, &set, Do::Echo);
        let body = vec![b'x'; 2048];
        let mut declared = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2048\r\n\r\n".to_vec();
        declared.extend_from_slice(&body);
        let mut chunked = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n".to_vec();
        chunked.extend_from_slice(&body);
        chunked.extend_from_slice(b"\r\n0\r\n\r\n");
        let mut texts = Vec::new();
        for req in [&declared, &chunked] {
            let r = ask(&mut connect(srv.addr), req);
            assert_eq!(r.status, 413, "{r:?}");
            texts.push(String::from_utf8_lossy(&r.body).into_owned());
        }
        srv.stop();
        let seen = log.lock().unwrap().clone();
        assert_eq!(seen, ["413 OverLimit(BodyBudget(1024))"; 2], "the causes the hook saw");
        assert_eq!(texts[0], texts[1], "one text for both");
        assert!(!texts[0].contains("framing"), "not bad framing: {}", texts[0]);
        assert!(texts[0].contains("1024"), "names the limit: {}", texts[0]);
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
    /// A `?` on a parse error with a chosen `400`
    /// (`.map_err(HandlerError::bad_request)?`, `.with_status(400)?`) is
    /// an answer: `400` as if the handler had called `respond_with`, the
    /// connection kept and reused for the next request, no mistake
    /// reported, and the status with the error in the access log.
    fn a_chosen_status_is_an_answer_not_a_mistake(a) {
        let (log, mistakes) = (Log::default(), Log::default());
        let set = Settings {
            access_log: Some(log.clone()),
            mistakes: Some(mistakes.clone()),
            ..Settings::default()
        };
        let srv = start(a, &set, Do::Chosen);
        let mut s = connect(srv.addr);
        let r = ask(&mut s, b"GET /?x HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!((r.status, &r.body[..]), (400, &b"400 Bad Request\n"[..]), "{r:?}");
        assert_eq!(r.field("connection"), None, "no Connection: close: {r:?}");
        // The same connection serves the next request.
        let r = ask(&mut s, b"GET /?21 HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!((r.status, &r.body[..]), (200, &b"42"[..]));
        // A body the handler did not read is drained, as after any answer.
        let r = ask(&mut s, b"POST /?y HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc");
        assert_eq!(r.status, 400, "{r:?}");
        s.write_all(b"HEAD /?z HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
        let r = both::read_response(&mut s, &mut Vec::new(), true).expect("a head");
        assert_eq!((r.status, &r.body[..]), (400, &b""[..]), "{r:?}");
        assert_eq!(r.field("content-length"), Some("16"), "{r:?}");
        assert_eq!(ask(&mut s, b"GET /?1 HTTP/1.1\r\nHost: a\r\n\r\n").status, 200);
        drop(s);
        srv.stop();
        assert!(mistakes.lock().unwrap().is_empty(), "{:?}", mistakes.lock().unwrap());
        let lines = log.lock().unwrap().clone();
        let want = "GET /?x 400 error=invalid digit found in string";
        assert!(lines.contains(&want.to_string()), "{lines:?}");
        assert!(lines.contains(&"GET /?21 200".to_string()), "{lines:?}");
    }
}

both! {
    /// The `error_body` hook gives the body of a chosen answer: it sees
    /// the status and `ErrorCause::Handler` with the error; the answer
    /// keeps the error's fields and no `Connection: close` is added.
    fn the_error_body_hook_formats_chosen_answers(a) {
        let causes = Log::default();
        let set = Settings { causes: Some(causes.clone()), ..Settings::default() };
        let srv = start(a, &set, Do::Fail(405, Some(("Allow", "GET, HEAD"))));
        let mut s = connect(srv.addr);
        let r = ask(&mut s, GET);
        assert_eq!(r.status, 405, "{r:?}");
        assert_eq!(r.field("allow"), Some("GET, HEAD"), "{r:?}");
        assert_eq!(r.field("connection"), None, "{r:?}");
        assert_eq!(ask(&mut s, GET).status, 405, "kept");
        drop(s);
        let set = Settings { json_errors: true, ..Settings::default() };
        let json = start(a, &set, Do::Fail(422, None));
        let r = ask(&mut connect(json.addr), GET);
        assert_eq!(r.status, 422, "{r:?}");
        assert_eq!(r.field("content-type"), Some("application/json"), "{r:?}");
        assert_eq!(r.field("x-why"), Some("chosen"), "{r:?}");
        assert_eq!(r.body, json_error(422).into_bytes());
        json.stop();
        srv.stop();
        let seen = causes.lock().unwrap().clone();
        assert_eq!(seen, ["405 Handler(Error)"; 2], "status and cause");
    }
}

both! {
    /// The app-wide `error_status` hook chooses the status of the
    /// application's own error type (downcast): `404`, an answer like
    /// any other; without the hook the same error is a plain one.
    fn the_error_status_hook_maps_an_apps_own_error(a) {
        let mistakes = Log::default();
        let set = Settings { app_status: true, mistakes: Some(mistakes.clone()), ..Settings::default() };
        let srv = start(a, &set, Do::App);
        let mut s = connect(srv.addr);
        assert_eq!(ask(&mut s, GET).status, 404);
        assert_eq!(ask(&mut s, GET).status, 404, "kept");
        drop(s);
        srv.stop();
        assert!(mistakes.lock().unwrap().is_empty(), "{:?}", mistakes.lock().unwrap());
        let mistakes = Log::default();
        let set = Settings { mistakes: Some(mistakes.clone()), ..Settings::default() };
        let srv = start(a, &set, Do::App);
        let r = raw(srv.addr, GET);
        assert!(r.starts_with("HTTP/1.1 500 "), "{r}");
        srv.stop();
        assert_eq!(*mistakes.lock().unwrap(), ["Unanswered"]);
    }
}

both! {
    /// A plain error (no status, no hook) is still `500`, closes the
    /// connection and is reported as the application's mistake.
    fn a_plain_error_is_still_500_and_reported(a) {
        let mistakes = Log::default();
        let set = Settings { mistakes: Some(mistakes.clone()), ..Settings::default() };
        let srv = start(a, &set, Do::Double);
        let mut s = connect(srv.addr);
        let r = ask(&mut s, b"GET /?x HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!(r.status, 500, "{r:?}");
        assert_eq!(r.field("connection"), Some("close"), "{r:?}");
        assert!(closed(&mut s));
        srv.stop();
        assert_eq!(*mistakes.lock().unwrap(), ["Unanswered"]);
    }
}

both! {
    /// The edges of a chosen status: a `408` closes the connection (RFC
    /// 9110 §15.5.9); a status outside `400..=599` and a field the writer
    /// refuses are the application's mistakes (`Refused`), answered `500`.
    fn chosen_status_edges(a) {
        let srv = start(a, &Settings::default(), Do::Fail(408, None));
        let mut s = connect(srv.addr);
        let r = ask(&mut s, GET);
        assert_eq!(r.status, 408, "{r:?}");
        assert_eq!(r.field("connection"), Some("close"), "{r:?}");
        assert!(closed(&mut s));
        srv.stop();
        for (what, kind) in [
            (Do::Fail(302, None), "Refused(InvalidStatus)"),
            (Do::Fail(700, None), "Refused(InvalidStatus)"),
            (Do::Fail(400, Some(("Bad Name", "x"))), "Refused(InvalidFieldName)"),
            (Do::Fail(400, Some(("X-Ok", "a\r\nb"))), "Refused(InvalidFieldValue)"),
        ] {
            let mistakes = Log::default();
            let set = Settings { mistakes: Some(mistakes.clone()), ..Settings::default() };
            let srv = start(a, &set, what);
            let r = raw(srv.addr, GET);
            assert!(r.starts_with("HTTP/1.1 500 "), "{what:?}: {r}");
            srv.stop();
            assert_eq!(*mistakes.lock().unwrap(), [kind.to_string()], "{what:?}");
        }
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

/// A server of `a` with `set`, for one counting test.
fn counting(a: Adapter, set: Settings, what: Do) -> both::Server {
    start(a, &set, what)
}

both! {
    /// `accepted` counts every connection taken from the listener, the
    /// refused ones too; `refused` the refused ones (one `Counters` type,
    /// one meaning, in both servers).
    fn accepted_counts_every_connection_refused_the_refused(a) {
        let set = Settings { max_connections: Some(1), ..Settings::default() };
        let srv = counting(a, set, Do::Slow(1500));
        let mut busy = connect(srv.addr);
        busy.write_all(b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
        srv.counted(|c| c.current == 1);
        // In its handler, with no body: nothing to evict; refused.
        let r = raw(srv.addr, GET);
        assert!(r.starts_with("HTTP/1.1 503 "), "{r}");
        assert_eq!(next(&mut busy).status, 200);
        let c = srv.counters();
        assert_eq!((c.accepted, c.refused), (2, 1), "{c:?}");
        drop(busy);
        srv.stop();
    }
}

both! {
    /// Each deadline that closes a connection is counted once, in the
    /// stage that ran out, whichever adapter: the head deadline, the idle
    /// timeout, a body below its minimum rate, a write that stalls, and
    /// the drain of a body the handler left unread.
    fn each_timeout_is_counted_once_in_its_stage(a) {
        let short = Duration::from_millis(300);
        // The whole head.
        let set = Settings { head_timeout: Some(short), ..Settings::default() };
        let srv = counting(a, set, Do::Hello);
        let r = raw(srv.addr, b"GET / HTTP/1.1\r\nHost: a\r\n");
        assert!(r.starts_with("HTTP/1.1 408 "), "{r}");
        let c = srv.counted(|c| c.timed_out.head == 1);
        assert_eq!(c.timed_out, only(|t| t.head = 1), "{c:?}");
        srv.stop();
        // Idle between requests.
        let set = Settings { idle_timeout: Some(short), ..Settings::default() };
        let srv = counting(a, set, Do::Hello);
        let mut s = connect(srv.addr);
        assert_eq!(ask(&mut s, GET).status, 200);
        assert!(closed(&mut s));
        let c = srv.counted(|c| c.timed_out.idle == 1);
        assert_eq!(c.timed_out, only(|t| t.idle = 1), "{c:?}");
        srv.stop();
        // A body below its minimum rate (one byte, then nothing).
        let set = Settings {
            min_body_rate: Some((1000, short)),
            body_timeout: Some(Duration::from_secs(30)),
            ..Settings::default()
        };
        let srv = counting(a, set, Do::Echo);
        let r = raw(srv.addr, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nx");
        assert!(r.starts_with("HTTP/1.1 408 "), "{r}");
        let c = srv.counted(|c| c.timed_out.body == 1);
        assert_eq!(c.timed_out, only(|t| t.body = 1), "{c:?}");
        srv.stop();
        // A response the peer does not read: the write stalls.
        let set = Settings {
            write_timeout: Some(short),
            min_response_rate: Some((0, Duration::ZERO)),
            ..Settings::default()
        };
        let srv = counting(a, set, Do::Placed(64 << 20));
        let s = connect(srv.addr);
        (&s).write_all(GET).unwrap();
        let c = srv.counted(|c| c.timed_out.write == 1);
        thread::sleep(Duration::from_millis(300));
        assert_eq!(srv.counters().timed_out, only(|t| t.write = 1), "{c:?}");
        drop(s);
        srv.stop();
        // The unread rest of a body, drained after the answer, stalls.
        let set = Settings { body_timeout: Some(short), ..Settings::default() };
        let srv = counting(a, set, Do::Hello);
        let mut s = connect(srv.addr);
        s.write_all(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nabc").unwrap();
        assert_eq!(next(&mut s).status, 200);
        assert!(closed(&mut s));
        let c = srv.counted(|c| c.timed_out.body == 1);
        assert_eq!(c.timed_out, only(|t| t.body = 1), "{c:?}");
        srv.stop();
    }
}

both! {
    /// The request body's and the responses' paces are the connection's
    /// (`ServerConn::transfer_until`), the same for both servers: a body
    /// that stalls with no minimum rate is answered `408` and counted in
    /// the body stage; a response the peer does not read, bounded by the
    /// minimum response rate alone (the write timeout far off), is cut and
    /// counted in the write stage.
    fn the_transfers_paces_are_the_connections(a) {
        let short = Duration::from_millis(300);
        let set = Settings {
            body_timeout: Some(short),
            min_body_rate: Some((0, Duration::ZERO)),
            ..Settings::default()
        };
        let srv = counting(a, set, Do::Echo);
        let r = raw(srv.addr, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nx");
        assert!(r.starts_with("HTTP/1.1 408 "), "{r}");
        let c = srv.counted(|c| c.timed_out.body == 1);
        assert_eq!(c.timed_out, only(|t| t.body = 1), "{c:?}");
        srv.stop();
        let set = Settings {
            write_timeout: Some(Duration::from_secs(30)),
            min_response_rate: Some((1 << 30, short)),
            ..Settings::default()
        };
        let srv = counting(a, set, Do::Placed(64 << 20));
        let s = connect(srv.addr);
        (&s).write_all(GET).unwrap();
        let c = srv.counted(|c| c.timed_out.write == 1);
        assert_eq!(c.timed_out, only(|t| t.write = 1), "{c:?}");
        drop(s);
        srv.stop();
    }
}

/// Stage counts with only what `set` sets.
fn only(set: impl FnOnce(&mut http_net_conn::StageCounts)) -> http_net_conn::StageCounts {
    let mut t = http_net_conn::StageCounts::default();
    set(&mut t);
    t
}

both! {
    /// A handler that answers after its body read timed out (a body below
    /// its minimum rate) gets its answer sent, and the connection closes
    /// after it: nothing more is read from a peer whose body stopped (it
    /// is not drained for another body timeout, which held every socket
    /// of a slow-body flood open).
    fn an_answer_after_a_body_timeout_closes_the_connection(a) {
        let set = Settings {
            min_body_rate: Some((1000, Duration::from_millis(300))),
            body_timeout: Some(Duration::from_secs(30)),
            ..Settings::default()
        };
        let srv = start(a, &set, Do::Forgive);
        let mut s = connect(srv.addr);
        let r = ask(&mut s, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nabc");
        assert_eq!((r.status, &r.body[..]), (200, &b"abc"[..]), "{r:?}");
        let t = std::time::Instant::now();
        assert!(closed(&mut s), "still open after the answer");
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
        srv.counted(|c| c.timed_out.body == 1);
        srv.stop();
    }
}

both! {
    /// At the connection limit, a connection whose head is still arriving
    /// is evicted for a newcomer when nothing is idle: it gets `503` with
    /// `Retry-After: 1` (it may come back; RFC 9110 §15.6.4, §10.2.3), the
    /// same in both servers, and the `error_body` hook sees
    /// `ErrorCause::Evicted`; it is counted once, as evicted mid-head.
    fn an_evicted_partial_head_gets_503_with_retry_after(a) {
        let causes = Log::default();
        let set = Settings {
            max_connections: Some(1),
            causes: Some(causes.clone()),
            ..Settings::default()
        };
        let srv = start(a, &set, Do::Hello);
        let mut slow = connect(srv.addr);
        slow.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
        srv.counted(|c| c.current == 1);
        thread::sleep(Duration::from_millis(100));
        assert_eq!(ask(&mut connect(srv.addr), GET).status, 200);
        let r = next(&mut slow);
        assert_eq!(r.status, 503, "{r:?}");
        assert_eq!(r.field("retry-after"), Some("1"), "{r:?}");
        assert_eq!(r.field("connection"), Some("close"), "{r:?}");
        let c = srv.counted(|c| c.current == 0);
        assert_eq!((c.evicted.head, c.timed_out.head), (1, 0), "{c:?}");
        srv.stop();
        assert_eq!(*causes.lock().unwrap(), ["503 Evicted"]);
    }
}

both! {
    /// A handler whose connection is evicted at the connection limit gets
    /// one error from either adapter, `Error::Evicted`: while it reads a
    /// stalled body (the peer then gets `408`), and while it writes a
    /// response the peer does not read (cut). The access log records it.
    fn eviction_is_one_error_in_both(a) {
        let evicted = "error=evicted at the connection limit to admit a newcomer";
        // A body read.
        let log = Log::default();
        let set = Settings { max_connections: Some(1), access_log: Some(log.clone()), ..Settings::default() };
        let srv = start(a, &set, Do::Echo);
        let mut slow = connect(srv.addr);
        slow.write_all(b"POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\nabc").unwrap();
        thread::sleep(Duration::from_millis(1200));
        assert_eq!(ask(&mut connect(srv.addr), GET).status, 200);
        assert_eq!(next(&mut slow).status, 408);
        srv.counted(|c| c.evicted.body == 1);
        srv.stop();
        let lines = log.lock().unwrap().clone();
        assert!(lines.contains(&format!("POST /up 408 {evicted}")), "{lines:?}");
        // A write the peer does not read.
        let log = Log::default();
        let set = Settings { max_connections: Some(1), access_log: Some(log.clone()), ..Settings::default() };
        let srv = start(a, &set, Do::Placed(64 << 20));
        let deaf = connect(srv.addr);
        (&deaf).write_all(b"GET /big HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
        thread::sleep(Duration::from_millis(1200));
        srv.counted(|c| c.current == 1);
        let mut newcomer = connect(srv.addr);
        newcomer.write_all(GET).unwrap();
        srv.counted(|c| c.evicted.write == 1);
        drop(deaf);
        drop(newcomer);
        srv.stop();
        let lines = log.lock().unwrap().clone();
        assert!(lines.contains(&format!("GET /big 200 {evicted}")), "{lines:?}");
    }
}

both! {
    /// At the connection limit, an idle keep-alive connection is evicted
    /// for a newcomer (it is closed between requests, without an answer),
    /// the same in both servers; it is counted once, as evicted idle.
    fn an_idle_connection_is_evicted_at_the_limit(a) {
        let set = Settings { max_connections: Some(1), ..Settings::default() };
        let srv = start(a, &set, Do::Hello);
        let mut idle = connect(srv.addr);
        assert_eq!(ask(&mut idle, GET).status, 200);
        srv.counted(|c| c.current == 1);
        // The connection shows itself idle once its answer has left, just
        // after the peer may have read it: the newcomer comes after that.
        thread::sleep(Duration::from_millis(100));
        assert_eq!(ask(&mut connect(srv.addr), GET).status, 200);
        assert!(closed(&mut idle), "the idle connection stays open");
        let c = srv.counted(|c| c.evicted.idle == 1);
        assert_eq!(c.evicted, only(|e| e.idle = 1), "{c:?}");
        assert_eq!((c.accepted, c.refused), (2, 0), "{c:?}");
        assert_eq!(c.timed_out, only(|_| {}), "{c:?}");
        srv.stop();
    }
}

both! {
    /// What follows a handler that took the stream over is the core's one
    /// rule (`ServerConn::after_handler`; std asked it and tokio skipped it
    /// on a switch): the connection closes, sending nothing more, though
    /// the handler returned an error after the switch.
    fn a_handler_that_fails_after_the_switch_closes_with_nothing_more(a) {
        let srv = start(a, &Settings::default(), Do::UpgradeFail);
        let mut s = connect(srv.addr);
        s.write_all(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: echo\r\n\r\nhello")
            .unwrap();
        let mut got = Vec::new();
        assert!(support::on_tokio::fill_until(&mut s, &mut got, b"\r\n\r\n"));
        assert!(got.starts_with(b"HTTP/1.1 101 "), "{}", String::from_utf8_lossy(&got));
        let mut rest = Vec::new();
        let _ = std::io::Read::read_to_end(&mut s, &mut rest);
        let head_end = got.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        got.drain(..head_end);
        got.extend_from_slice(&rest);
        assert_eq!(got, b"hello", "the echo, then the close: {}", String::from_utf8_lossy(&got));
        srv.stop();
    }
}

both! {
    /// A newcomer at the connection limit with nothing to evict (a handler
    /// at work) gets `503` with `Retry-After: 1` and `Connection: close`
    /// (RFC 9110 §15.6.4, §10.2.3), written before any byte of its request
    /// is read; it is counted accepted and refused, and the connection
    /// in its handler is answered.
    fn a_refusal_at_the_limit_is_503_with_retry_after(a) {
        let set = Settings { max_connections: Some(1), ..Settings::default() };
        let srv = start(a, &set, Do::Slow(1500));
        let mut busy = connect(srv.addr);
        busy.write_all(b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
        srv.counted(|c| c.current == 1);
        let mut refused = connect(srv.addr);
        let r = ask(&mut refused, GET);
        assert_eq!(r.status, 503, "{r:?}");
        assert_eq!(r.field("retry-after"), Some("1"), "{r:?}");
        assert_eq!(r.field("connection"), Some("close"), "{r:?}");
        assert!(closed(&mut refused));
        assert_eq!(next(&mut busy).status, 200);
        let c = srv.counters();
        assert_eq!((c.accepted, c.refused, c.evicted), (2, 1, only(|_| {})), "{c:?}");
        srv.stop();
    }
}

both! {
    /// Both servers fit the connection limit into the open-file limit: two
    /// descriptors per connection plus the core's reserve. With room for
    /// two connections in the files, a limit of 10 serves two: a third
    /// newcomer, with both in their handlers, gets `503`.
    fn the_open_file_limit_caps_the_connection_limit(a) {
        let files = http_net_conn::driver::RESERVED_DESCRIPTORS + 2 * 2;
        let set = Settings {
            max_connections: Some(10),
            open_file_limit: Some(files),
            ..Settings::default()
        };
        let srv = start(a, &set, Do::Slow(1500));
        let mut held = [connect(srv.addr), connect(srv.addr)];
        for s in &mut held {
            s.write_all(b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
        }
        srv.counted(|c| c.current == 2);
        let r = raw(srv.addr, GET);
        assert!(r.starts_with("HTTP/1.1 503 "), "{r}");
        assert!(r.contains("\r\nRetry-After: 1\r\n"), "{r}");
        for s in &mut held {
            assert_eq!(next(s).status, 200);
        }
        let c = srv.counters();
        assert_eq!((c.accepted, c.refused), (3, 1), "{c:?}");
        srv.stop();
    }
}

both! {
    /// A burst of newcomers at the limit, more than the refusals that
    /// linger at once (`REFUSING_AT_ONCE`): every one is answered `503`
    /// (those beyond it without the linger), none closed unanswered, in
    /// both servers; each is counted refused.
    fn every_refusal_of_a_burst_is_answered(a) {
        let set = Settings { max_connections: Some(1), ..Settings::default() };
        let srv = start(a, &set, Do::Slow(3000));
        let mut busy = connect(srv.addr);
        busy.write_all(b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\n").unwrap();
        srv.counted(|c| c.current == 1);
        let n = http_net_conn::driver::REFUSING_AT_ONCE + 36;
        let mut burst: Vec<_> = (0..n).map(|_| connect(srv.addr)).collect();
        for s in &mut burst {
            let _ = s.write_all(GET);
        }
        for (i, s) in burst.iter_mut().enumerate() {
            let r = read_all(s);
            assert!(r.starts_with("HTTP/1.1 503 "), "{i}: {r:?}");
        }
        assert_eq!(next(&mut busy).status, 200);
        let c = srv.counters();
        assert_eq!((c.accepted, c.refused), (n as u64 + 1, n as u64), "{c:?}");
        srv.stop();
    }
}

both! {
    /// The cause the `error_body` hook sees after a handler is the core's
    /// one rule (`ErrorCause::after_handler`): a body the peer broke
    /// (bad chunk framing) is the peer's error, even when the handler goes
    /// on and fails at something else (here its answer, refused on the
    /// failed connection). tokio named the handler's error.
    fn a_body_the_peer_broke_is_the_peers_cause_whatever_the_handler_returned(a) {
        let log = Log::default();
        let set = Settings { causes: Some(log.clone()), ..Settings::default() };
        let srv = start(a, &set, Do::Forgive);
        let req = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n";
        let r = raw(srv.addr, req);
        assert!(r.starts_with("HTTP/1.1 400 "), "{r}");
        srv.stop();
        let seen = log.lock().unwrap().clone();
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].starts_with("400 Peer("), "{seen:?}");
    }
}

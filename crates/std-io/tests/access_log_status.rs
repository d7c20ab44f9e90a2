//! The access log's status is the connection's (`ServerConn::response_status`):
//! an answer given through `Exchange::conn()` is logged with its status,
//! as the shortcuts' answers and the server's own error responses are.

use std::sync::{Arc, Mutex};

use http_net_std::http_net_conn::PreparedResponse;
use http_net_std::{AccessRecord, Error, Exchange, Server};

mod support;
use support::{exchange, serve, stop};

#[test]
fn an_answer_through_conn_is_logged_with_its_status() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = Arc::clone(&log);
    let builder = Server::builder().access_log(move |r: &AccessRecord<'_>| {
        let target = String::from_utf8_lossy(r.target()).into_owned();
        l.lock().unwrap().push((target, r.status()));
    });
    let teapot = PreparedResponse::new(418, &[]).unwrap();
    let big = vec![b'x'; 64 * 1024];
    let s = serve(builder, move |ex: &mut Exchange<'_>| match ex.path() {
        b"/small" => {
            let placement = ex.conn().responder().respond(&teapot, b"hi")?;
            ex.send_placed(placement, b"hi")
        }
        b"/big" => {
            let placement = ex.conn().responder().respond_with(203, &[], &big)?;
            ex.send_placed(placement, &big)
        }
        b"/none" => Ok(()),
        _ => ex.respond_with(404, &[], b""),
    });
    let resp = exchange(
        &s.0,
        b"GET /small HTTP/1.1\r\nHost: a\r\n\r\nGET /big HTTP/1.1\r\nHost: a\r\n\r\nGET /other HTTP/1.1\r\nHost: a\r\n\r\nGET /none HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    assert!(resp.starts_with("HTTP/1.1 418 "), "{resp}");
    assert!(resp.contains("HTTP/1.1 203 "), "{resp}");
    assert!(resp.contains("HTTP/1.1 404 "), "{resp}");
    assert!(resp.contains("HTTP/1.1 500 "), "{resp}");
    let log = log.lock().unwrap().clone();
    let want = [
        ("/small".to_string(), Some(418)),
        ("/big".to_string(), Some(203)),
        ("/other".to_string(), Some(404)),
        // No answer: the server's own 500.
        ("/none".to_string(), Some(500)),
    ];
    assert_eq!(log, want);
    stop(s);
}

#[test]
fn a_handler_limit_over_a_declared_length_is_413_and_logged() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = Arc::clone(&log);
    let builder = Server::builder().access_log(move |r: &AccessRecord<'_>| {
        l.lock().unwrap().push(r.status());
    });
    let s = serve(builder, |ex: &mut Exchange<'_>| match ex.limit_body(4) {
        Err(Error::OverLimit(limit)) => {
            assert_eq!(limit.to_string(), "the body limit of 4 bytes");
            Err(Error::OverLimit(limit))
        }
        other => panic!("{other:?}"),
    });
    let resp = exchange(
        &s.0,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
    );
    assert!(
        resp.starts_with("HTTP/1.1 413 Content Too Large\r\n"),
        "{resp}"
    );
    assert_eq!(*log.lock().unwrap(), [Some(413)]);
    stop(s);
}

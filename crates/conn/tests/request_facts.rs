//! The facts about the current request an adapter asks the connection for
//! instead of keeping copies: the status of the final response (its own
//! error responses included), the body bytes surfaced so far, and the
//! request's own body limit, refused with `413` like the configured budget.

use http_net_conn::framing::{BodyLimits, Error as FramingError};
use http_net_conn::{
    BodyLength, Config, Error, Placement, PreparedResponse, RemoteError, ServerConn, ServerEvent,
};

const TOO_LARGE: Error = Error::Remote(RemoteError::Framing(FramingError::BodyTooLarge));

fn feed(conn: &mut ServerConn, bytes: &[u8]) {
    assert_eq!(conn.recv(bytes), bytes.len());
}

fn conn_with(bytes: &[u8]) -> ServerConn {
    let mut conn = ServerConn::new(Config::DEFAULT);
    feed(&mut conn, bytes);
    conn
}

fn expect_request(conn: &mut ServerConn) {
    match conn.poll_event() {
        Ok(ServerEvent::Request(_)) => {}
        other => panic!("{other:?}"),
    }
}

/// A chunked POST whose streamed `200` answer has started.
fn chunked_post_answered_200() -> ServerConn {
    let mut conn = conn_with(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
    expect_request(&mut conn);
    conn.responder()
        .send_head(200, &[], BodyLength::Streamed)
        .unwrap();
    conn
}

/// Polls body events until `End`, `NeedInput` or an error; the bytes.
fn read_body(conn: &mut ServerConn) -> Result<Vec<u8>, Error> {
    let mut body = Vec::new();
    loop {
        match conn.poll_event()? {
            ServerEvent::Data(d) => body.extend_from_slice(d),
            ServerEvent::End(_) | ServerEvent::NeedInput => return Ok(body),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn response_status_is_the_final_answers_and_is_none_before_it() {
    let mut conn = conn_with(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
    expect_request(&mut conn);
    assert_eq!(conn.response_status(), None);
    conn.responder().send_informational(103, &[]).unwrap();
    assert_eq!(conn.response_status(), None);
    conn.responder()
        .send_head(404, &[], BodyLength::Known(2))
        .unwrap();
    // Started, not complete: already the final status.
    assert_eq!(conn.response_status(), Some(404));
    assert_eq!(
        conn.responder().send_data(b"no").unwrap(),
        Placement::Queued
    );
    conn.responder().send_end(&[]).unwrap();
    assert_eq!(conn.response_status(), Some(404));

    // The next request forgets it until answered.
    expect_request(&mut conn);
    assert_eq!(conn.response_status(), None);
    let ok = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        conn.responder().respond(&ok, b"hi").unwrap(),
        Placement::Queued
    );
    assert_eq!(conn.response_status(), Some(200));
}

#[test]
fn response_status_reports_the_connections_own_error_responses() {
    // A peer error before any answer: the connection's 400.
    let mut conn = conn_with(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n");
    assert!(conn.poll_event().is_err());
    assert_eq!(conn.response_status(), Some(400));

    // The same after a first request was answered 200.
    let mut conn = conn_with(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost a\r\n\r\n");
    expect_request(&mut conn);
    let ok = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        conn.responder().respond(&ok, b"").unwrap(),
        Placement::Queued
    );
    assert!(conn.poll_event().is_err());
    assert_eq!(conn.response_status(), Some(400));

    // `reject` and `time_out`.
    let mut conn = conn_with(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    expect_request(&mut conn);
    conn.reject(500).unwrap();
    assert_eq!(conn.response_status(), Some(500));
    let mut conn = conn_with(b"GET / HTT");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    conn.time_out().unwrap();
    assert_eq!(conn.response_status(), Some(408));
}

#[test]
fn a_peer_error_after_the_answer_started_keeps_the_callers_status() {
    let mut conn = chunked_post_answered_200();
    feed(&mut conn, b"zz\r\n");
    assert!(conn.poll_event().is_err());
    assert!(conn.failed());
    assert_eq!(conn.response_status(), Some(200));
}

#[test]
fn a_connection_closed_without_an_answer_has_no_status() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    conn.recv_eof();
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Closed)));
    assert_eq!(conn.response_status(), None);
}

#[test]
fn body_delivered_counts_the_data_surfaced_for_the_current_request() {
    let mut conn = conn_with(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel");
    expect_request(&mut conn);
    assert_eq!(conn.body_delivered(), 0);
    assert_eq!(read_body(&mut conn).unwrap(), b"hel");
    assert_eq!(conn.body_delivered(), 3);
    feed(&mut conn, b"lo");
    assert_eq!(read_body(&mut conn).unwrap(), b"lo");
    assert_eq!(conn.body_delivered(), 5);
    let ok = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        conn.responder().respond(&ok, b"").unwrap(),
        Placement::Queued
    );
    assert_eq!(conn.body_delivered(), 5);

    // A request without a body: 0, whatever the last one read.
    feed(&mut conn, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    expect_request(&mut conn);
    assert_eq!(conn.body_delivered(), 0);
    assert_eq!(
        conn.responder().respond(&ok, b"").unwrap(),
        Placement::Queued
    );

    // A chunked body starts from 0 again.
    feed(
        &mut conn,
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n",
    );
    expect_request(&mut conn);
    assert_eq!(conn.body_delivered(), 0);
    assert_eq!(read_body(&mut conn).unwrap(), b"ab");
    assert_eq!(conn.body_delivered(), 2);
}

#[test]
fn a_body_drained_after_the_answer_is_not_counted() {
    let mut conn = conn_with(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nab");
    expect_request(&mut conn);
    assert_eq!(read_body(&mut conn).unwrap(), b"ab");
    let ok = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        conn.responder().respond(&ok, b"").unwrap(),
        Placement::Queued
    );
    feed(&mut conn, b"cd");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    assert_eq!(conn.body_delivered(), 2);
}

#[test]
fn limit_body_refuses_a_declared_length_over_it_at_once_with_413() {
    let mut conn = conn_with(
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n",
    );
    expect_request(&mut conn);
    assert!(conn.continue_due());
    conn.limit_body(20).unwrap();
    assert_eq!(conn.body_budget(), Some(20));
    assert_eq!(conn.limit_body(9), Err(TOO_LARGE));
    assert!(conn.failed());
    assert!(!conn.continue_due());
    assert_eq!(conn.response_status(), Some(413));
    assert!(conn
        .output()
        .starts_with(b"HTTP/1.1 413 Content Too Large\r\n"));
    // The budget an adapter names in its error.
    assert_eq!(conn.body_budget(), Some(9));
}

#[test]
fn limit_body_refuses_a_chunked_body_at_the_data_that_passes_it() {
    let mut conn = conn_with(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
    expect_request(&mut conn);
    conn.limit_body(5).unwrap();
    // Only lowered: a higher limit later changes nothing.
    conn.limit_body(100).unwrap();
    assert_eq!(conn.body_budget(), Some(5));
    feed(&mut conn, b"3\r\nabc\r\n");
    assert_eq!(read_body(&mut conn).unwrap(), b"abc");
    feed(&mut conn, b"2\r\nde\r\n");
    assert_eq!(read_body(&mut conn).unwrap(), b"de");
    assert_eq!(conn.body_delivered(), 5);
    feed(&mut conn, b"1\r\nf\r\n0\r\n\r\n");
    assert_eq!(read_body(&mut conn), Err(TOO_LARGE));
    assert_eq!(conn.body_delivered(), 5);
    assert!(conn.failed());
    assert_eq!(conn.response_status(), Some(413));
    assert!(conn
        .output()
        .starts_with(b"HTTP/1.1 413 Content Too Large\r\n"));
}

#[test]
fn limit_body_below_what_was_read_fails_at_once() {
    let mut conn =
        conn_with(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n");
    expect_request(&mut conn);
    assert_eq!(read_body(&mut conn).unwrap(), b"abcd");
    conn.limit_body(4).unwrap();
    assert_eq!(conn.limit_body(3), Err(TOO_LARGE));
    assert_eq!(conn.response_status(), Some(413));
}

#[test]
fn over_the_limit_after_the_answer_started_cuts_it_short() {
    let mut conn = chunked_post_answered_200();
    conn.limit_body(1).unwrap();
    let queued = conn.output().len();
    feed(&mut conn, b"2\r\nab\r\n");
    assert_eq!(read_body(&mut conn), Err(TOO_LARGE));
    assert!(conn.failed());
    // No second answer: only the head already queued.
    assert_eq!(conn.output().len(), queued);
    assert_eq!(conn.response_status(), Some(200));
}

#[test]
fn the_configured_budget_is_the_ceiling_and_a_body_free_request_is_not_bounded() {
    let limits = BodyLimits::DEFAULT.with_body_budget(8);
    let config = Config::DEFAULT.with_body_limits(limits);
    let mut conn = ServerConn::new(config);
    feed(&mut conn, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nabGET / HTTP/1.1\r\nHost: a\r\n\r\n");
    expect_request(&mut conn);
    assert_eq!(conn.body_budget(), Some(8));
    conn.limit_body(100).unwrap();
    assert_eq!(conn.body_budget(), Some(8));
    conn.limit_body(2).unwrap();
    assert_eq!(conn.body_budget(), Some(2));
    assert_eq!(read_body(&mut conn).unwrap(), b"ab");
    let ok = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        conn.responder().respond(&ok, b"").unwrap(),
        Placement::Queued
    );
    // After the answer: nothing left to bound.
    conn.limit_body(0).unwrap();
    assert!(!conn.failed());

    // The next request has no body: the earlier limit does not apply, and
    // a limit on it is a no-op.
    expect_request(&mut conn);
    assert_eq!(conn.body_budget(), Some(8));
    conn.limit_body(0).unwrap();
    assert!(!conn.failed());
    assert_eq!(conn.body_budget(), Some(8));

    // No configured budget and no limit: unbounded.
    let unbounded = Config::DEFAULT.with_body_limits(BodyLimits::DEFAULT.with_body_budget(0));
    let mut conn = ServerConn::new(unbounded);
    feed(
        &mut conn,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nab",
    );
    expect_request(&mut conn);
    assert_eq!(conn.body_budget(), None);
}

#[test]
fn a_limit_of_one_request_does_not_carry_to_the_next_with_a_body() {
    let mut conn = conn_with(
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nabPOST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\n\r\nabcdef",
    );
    expect_request(&mut conn);
    conn.limit_body(2).unwrap();
    assert_eq!(read_body(&mut conn).unwrap(), b"ab");
    let ok = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        conn.responder().respond(&ok, b"").unwrap(),
        Placement::Queued
    );
    expect_request(&mut conn);
    assert_eq!(conn.body_delivered(), 0);
    assert_eq!(read_body(&mut conn).unwrap(), b"abcdef");
    assert!(!conn.failed());
}

#[test]
fn respond_with_is_send_head_send_data_send_end_in_one_command() {
    let pairs = [(&b"Content-Type"[..], &b"text/plain"[..])];
    // Each answer as the three commands would write it.
    for (request, body) in [
        (&b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"[..], &b"hello"[..]),
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", b""),
        (b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n", b"hello"),
        (b"GET / HTTP/1.0\r\n\r\n", b"hello"),
    ] {
        let mut one = conn_with(request);
        expect_request(&mut one);
        let placement = one.responder().respond_with(200, &pairs, body).unwrap();
        assert_eq!(placement, Placement::Queued);

        let mut three = conn_with(request);
        expect_request(&mut three);
        let len = if body.is_empty() {
            BodyLength::Empty
        } else {
            BodyLength::Known(body.len() as u64)
        };
        let mut res = three.responder();
        res.send_head(200, &pairs, len).unwrap();
        if !body.is_empty() {
            assert_eq!(res.send_data(body).unwrap(), Placement::Queued);
        }
        res.send_end(&[]).unwrap();
        assert_eq!(one.output(), three.output(), "{request:?}");
        assert_eq!(one.answer_state(), three.answer_state());
        assert_eq!(one.should_close(), three.should_close());
    }
}

#[test]
fn respond_with_leaves_a_large_body_to_the_caller_and_refuses_a_bad_head() {
    let mut conn = conn_with(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    expect_request(&mut conn);
    let big = vec![b'x'; 64 * 1024];
    assert_eq!(
        conn.responder().respond_with(200, &[], &big).unwrap(),
        Placement::AfterOutput
    );
    assert!(conn.output().ends_with(b"Content-Length: 65536\r\n\r\n"));
    assert_eq!(conn.response_status(), Some(200));

    let mut conn = conn_with(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    expect_request(&mut conn);
    let bad = [(&b"Bad Name"[..], &b"v"[..])];
    assert!(conn.responder().respond_with(200, &bad, b"x").is_err());
    assert!(conn.output().is_empty());
    assert_eq!(conn.response_status(), None);
}

//! Scripted server conversations about answers: prebuilt and borrowed heads,
//! field validation, caller framing fields, body placement (copy limit,
//! barrier), streamed and bodiless answers, informational responses.

mod common;

use common::*;
use http_net_conn::{
    BodyLength, Config, Error, LocalError, Phase, Placement, PreparedResponse, ServerConn,
    ServerEvent, COPY_LIMIT,
};

const DATE: &[u8; 29] = b"Sun, 06 Nov 1994 08:49:37 GMT";

/// The request most answers here answer.
const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";

/// A connection that read all of [`GET`] and waits for its answer.
fn after_get() -> ServerConn {
    let mut c = conn();
    read_request(&mut c, GET);
    c
}

// proves: 9112-2.2-4a, 9110-6.6.1-6, 9110-5.3-3, 9110-5.6.3-2a, 9110-5.6.3-2b
#[test]
fn send_head_validates_borrowed_fields_and_writes_date() {
    let mut c = conn();
    c.set_date(DATE);
    read_request(&mut c, GET);
    let mut res = c.responder();
    assert_eq!(
        res.send_head(200, &[(b"Bad Name", b"v")], BodyLength::Empty),
        Err(LocalError::InvalidFieldName.into())
    );
    assert_eq!(
        res.send_head(
            200,
            &[(b"X", b"x\r\nSet-Cookie: evil=1")],
            BodyLength::Empty
        ),
        Err(LocalError::InvalidFieldValue.into())
    );
    assert_eq!(
        res.send_head(200, &[(b"X", b"a\0b")], BodyLength::Empty),
        Err(LocalError::InvalidFieldValue.into())
    );
    assert_eq!(
        res.send_head(1000, &[], BodyLength::Empty),
        Err(LocalError::InvalidStatus.into())
    );
    assert_eq!(
        res.send_head(102, &[], BodyLength::Empty),
        Err(LocalError::InformationalAsFinal.into())
    );
    assert_eq!(c.output(), b"", "refused heads leave nothing behind");
    let five = [
        (&b"Content-Type"[..], &b"text/plain"[..]),
        (b"Server", b"t"),
        (b"Cache-Control", b"no-cache"),
        (b"X-A", b"1"),
        (b"X-B", b"2"),
    ];
    send_head(&mut c, 200, &five, BodyLength::Known(3));
    send_queued(&mut c, b"abc");
    c.responder().send_end(&[]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nServer: t\r\nCache-Control: no-cache\r\nX-A: 1\r\nX-B: 2\r\n\
Date: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 3\r\n\r\nabc"
    );
    // A caller's Date wins.
    read_request(&mut c, GET);
    send_head(&mut c, 204, &[(b"Date", b"today")], BodyLength::Empty);
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 204 No Content\r\nDate: today\r\n\r\n"
    );
}

// proves: 9112-6.2-2, 9110-8.6-8a, 9110-8.6-12, 9110-8.6-13, 9112-6.1-4b, 9112-6.1-4d, 9110-5.3-3
#[test]
fn caller_framing_fields_must_agree_with_the_body() {
    let mut c = after_get();
    let mut res = c.responder();
    let conflict = Err(Error::Local(LocalError::ConflictingFraming));
    assert_eq!(
        res.send_head(200, &[(b"Content-Length", b"5")], BodyLength::Known(4)),
        conflict
    );
    assert_eq!(
        res.send_head(200, &[(b"Content-Length", b"5")], BodyLength::Streamed),
        conflict
    );
    assert_eq!(
        res.send_head(200, &[(b"Content-Length", b"x")], BodyLength::Known(1)),
        conflict
    );
    assert_eq!(
        res.send_head(
            200,
            &[(b"Transfer-Encoding", b"chunked")],
            BodyLength::Known(1)
        ),
        conflict
    );
    assert_eq!(
        res.send_head(
            200,
            &[(b"Transfer-Encoding", b"gzip, chunked")],
            BodyLength::Streamed
        ),
        conflict
    );
    assert_eq!(
        res.send_head(204, &[(b"Content-Length", b"0")], BodyLength::Empty),
        conflict
    );
    assert_eq!(c.output(), b"");
    // Agreeing fields are kept, and not written twice.
    send_head(
        &mut c,
        200,
        &[(b"content-length", b"3")],
        BodyLength::Known(3),
    );
    send_queued(&mut c, b"abc");
    c.responder().send_end(&[]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabc"
    );
    read_request(&mut c, GET);
    send_head(
        &mut c,
        200,
        &[(b"Transfer-Encoding", b"chunked")],
        BodyLength::Streamed,
    );
    c.responder().send_end(&[]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    );
}

// proves: 9110-8.6-12
#[test]
fn body_length_overrun_and_underrun() {
    let mut c = after_get();
    send_head(&mut c, 200, &[], BodyLength::Known(3));
    assert_eq!(
        c.responder().send_data(b"abcd"),
        Err(LocalError::BodyOverrun.into())
    );
    send_queued(&mut c, b"ab");
    assert_eq!(
        c.responder().send_end(&[]),
        Err(LocalError::BodyUnderrun.into())
    );
    // Promised bytes were not sent: never reuse the connection (C117).
    assert!(c.should_close());
    assert_eq!(c.phase(), Phase::Closed);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
}

#[test]
fn bodies_over_the_copy_limit_are_left_to_the_caller() {
    let big = vec![b'b'; COPY_LIMIT + 1];
    let mut c = after_get();
    let r = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        c.responder().respond(&r, &big).unwrap(),
        Placement::AfterOutput
    );
    assert_eq!(
        c.output(),
        format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", big.len()).as_bytes()
    );
    // Exactly at the limit: copied.
    read_request(&mut c, b"");
    discard_output(&mut c);
    read_request(&mut c, GET);
    respond_queued(&mut c, &r, &big[..COPY_LIMIT]);
    assert!(c.output().ends_with(&big[..COPY_LIMIT]));
}

/// A connection that read a GET, started a streamed answer and was handed
/// `big` (over the copy limit): it stands behind the barrier.
fn streamed_past_the_copy_limit(big: &[u8]) -> ServerConn {
    let mut c = after_get();
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    assert_eq!(
        c.responder().send_data(big).unwrap(),
        Placement::AfterOutput
    );
    c
}

#[test]
fn chunked_big_chunk_defers_its_crlf_behind_the_barrier() {
    let big = vec![b'c'; COPY_LIMIT + 10];
    let mut c = streamed_past_the_copy_limit(&big);
    c.responder().send_end(&[(b"X-T", b"1")]).unwrap();
    // Up to the barrier: the head and the chunk size line.
    assert_eq!(
        c.output(),
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100a\r\n"
    );
    assert_eq!(
        c.output_queued(),
        c.output().len() + "\r\n0\r\nX-T: 1\r\n\r\n".len()
    );
    let mut wire = c.output().to_vec();
    discard_output(&mut c);
    wire.extend_from_slice(&big); // the caller's vectored write
    flush(&mut c, &mut wire);
    let mut expect = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100a\r\n".to_vec();
    expect.extend_from_slice(&big);
    expect.extend_from_slice(b"\r\n0\r\nX-T: 1\r\n\r\n");
    assert_eq!(wire, expect);
}

#[test]
fn head_only_answer_leaves_the_body_to_the_caller() {
    let mut c = conn();
    read_request(&mut c, b"GET /file HTTP/1.1\r\nHost: x\r\n\r\n");
    let r = PreparedResponse::new(200, &[(b"Content-Type", b"application/octet-stream")]).unwrap();
    assert_eq!(
        c.responder().respond_head_only(&r, 1_000_000).unwrap(),
        Placement::AfterOutput
    );
    assert_eq!(
        c.output(),
        b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n"
    );
    assert!(c.request().is_none(), "the response is complete");
    // With send_head + send_data_direct.
    discard_output(&mut c);
    read_request(&mut c, b"GET /file HTTP/1.1\r\nHost: x\r\n\r\n");
    send_head(&mut c, 200, &[], BodyLength::Known(10));
    assert_eq!(
        c.responder().send_data_direct(10).unwrap(),
        Placement::AfterOutput
    );
    c.responder().send_end(&[]).unwrap();
    // To HEAD: nothing for the caller to send.
    discard_output(&mut c);
    read_request(&mut c, b"HEAD /file HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(
        c.responder().respond_head_only(&r, 7).unwrap(),
        Placement::Queued
    );
    assert!(take_output(&mut c).ends_with("Content-Length: 7\r\n\r\n"));
}

// proves: 9112-6.1-13b, 9112-6.3-3, 9110-5.6.3-5a, 9112-2.3-6, 9110-6.2-7a, 9110-6.2-7b
#[test]
fn streamed_bodies_are_chunked_to_11_and_close_delimited_to_10() {
    let mut c = after_get();
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    send_queued(&mut c, b"hello");
    send_queued(&mut c, b"");
    c.responder().send_end(&[(b"X-Checksum", b"42")]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Checksum: 42\r\n\r\n"
    );
    assert!(!c.should_close());

    let mut c = conn();
    read_request(&mut c, b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    send_queued(&mut c, b"hello");
    c.responder().send_end(&[(b"X-Dropped", b"1")]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello"
    );
    assert!(c.should_close());
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
    assert_eq!(c.phase(), Phase::Closed);
}

// proves: 9110-9.3.2-1, 9110-9.3.2-2, 9110-8.6-6, 9110-8.6-7, 9110-8.6-8a, 9112-6.1-10a, 9110-9.1-9
#[test]
fn no_body_leaves_for_head_204_304() {
    let r = PreparedResponse::new(200, &[]).unwrap();
    let mut c = conn();
    read_request(&mut c, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
    respond_queued(&mut c, &r, b"hello");
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
    );
    read_request(&mut c, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    send_queued(&mut c, b"dropped");
    c.responder().send_end(&[]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    for (status, line) in [
        (204, "HTTP/1.1 204 No Content\r\n\r\n"),
        (304, "HTTP/1.1 304 Not Modified\r\n\r\n"),
    ] {
        read_request(&mut c, GET);
        assert_eq!(
            c.responder()
                .respond(&PreparedResponse::new(status, &[]).unwrap(), b"hello")
                .unwrap(),
            Placement::Queued
        );
        assert_eq!(take_output(&mut c), line);
        read_request(&mut c, GET);
        send_head(&mut c, status, &[], BodyLength::Streamed);
        send_queued(&mut c, b"x");
        c.responder().send_end(&[]).unwrap();
        assert_eq!(take_output(&mut c), line);
    }
    assert!(!c.should_close());
}

// proves: 9110-15.2-1, 9110-8.6-8a
#[test]
fn informational_responses() {
    let mut c = conn();
    read_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    let mut res = c.responder();
    res.send_informational(103, &[(b"Link", b"</s.css>; rel=preload")])
        .unwrap();
    res.send_informational(103, &[(b"Link", b"</t.js>; rel=preload")])
        .unwrap();
    assert_eq!(
        res.send_informational(101, &[]),
        Err(LocalError::NotInformational.into())
    );
    assert_eq!(
        res.send_informational(200, &[]),
        Err(LocalError::NotInformational.into())
    );
    assert_eq!(
        res.send_informational(103, &[(b"Content-Length", b"0")]),
        Err(LocalError::ConflictingFraming.into())
    );
    res.send_head(204, &[], BodyLength::Empty).unwrap();
    assert_eq!(
        res.send_informational(103, &[]),
        Err(LocalError::WrongState.into())
    );
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n\
HTTP/1.1 103 Early Hints\r\nLink: </t.js>; rel=preload\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
    );
    // Never to an HTTP/1.0 peer.
    let mut c = conn();
    read_request(&mut c, b"GET / HTTP/1.0\r\n\r\n");
    c.responder()
        .send_informational(103, &[(b"Link", b"</s.css>")])
        .unwrap();
    c.responder().send_continue().unwrap();
    assert_eq!(c.output(), b"");
    assert_eq!(
        c.responder()
            .send_informational(103, &[(b"Bad Name", b"x")]),
        Err(LocalError::InvalidFieldName.into())
    );
}

#[test]
fn wrong_state_commands_are_refused() {
    let mut c = conn();
    let wrong = Err(Error::Local(LocalError::WrongState));
    assert_eq!(c.responder().send_head(200, &[], BodyLength::Empty), wrong);
    assert_eq!(c.responder().send_data(b"x").map(drop), wrong);
    assert_eq!(c.responder().send_end(&[]), wrong);
    assert_eq!(c.responder().send_continue(), wrong);
    read_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(c.responder().send_data(b"x").map(drop), wrong);
    send_head(&mut c, 200, &[], BodyLength::Known(1));
    assert_eq!(
        c.responder().send_head(200, &[], BodyLength::Known(1)),
        wrong
    );
    send_queued(&mut c, b"x");
    assert_eq!(
        c.responder().send_end(&[(b"X", b"1")]),
        Err(LocalError::TrailersNotChunked.into())
    );
    c.responder().send_end(&[]).unwrap();
}

#[test]
fn nothing_shows_past_a_barrier_before_the_next_command() {
    // A writer that loops on output() (as a vectored-write helper does) must
    // not see the chunk's CR LF before it has sent the body.
    let big = vec![b'c'; COPY_LIMIT + 1];
    let mut c = streamed_past_the_copy_limit(&big);
    let mut wire = Vec::new();
    flush(&mut c, &mut wire);
    assert!(wire.ends_with(b"1001\r\n"));
    assert_eq!(c.output(), b"", "the CR LF waits for the next command");
    wire.extend_from_slice(&big);
    send_queued(&mut c, b"xy");
    c.responder().send_end(&[]).unwrap();
    flush(&mut c, &mut wire);
    assert!(wire.ends_with(b"c\r\n2\r\nxy\r\n0\r\n\r\n"));
}

#[test]
fn send_end_after_a_switch_is_a_no_op() {
    // After a 101 (or a 2xx to CONNECT) the connection is handed over: an
    // adapter that always ends what it started gets `Ok` and nothing is
    // queued; trailers there are a misuse.
    let mut c = conn();
    accept_request(
        &mut c,
        b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    );
    send_head(
        &mut c,
        101,
        &[(b"Upgrade", b"websocket")],
        BodyLength::Empty,
    );
    let head = take_output(&mut c);
    assert_eq!(c.responder().send_end(&[]), Ok(()));
    assert_eq!(
        c.responder().send_end(&[(b"X", b"1")]),
        Err(LocalError::WrongState.into())
    );
    assert_eq!(c.output(), b"");
    assert!(head.starts_with("HTTP/1.1 101 "));
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Switched(b""))));

    let mut c = conn();
    read_request(
        &mut c,
        b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n",
    );
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    assert_eq!(take_output(&mut c), "HTTP/1.1 200 OK\r\n\r\n");
    assert_eq!(c.responder().send_end(&[]), Ok(()));
    assert_eq!(c.output(), b"");
    assert_eq!(c.phase(), Phase::Switched);
}

// proves: 9112-9.5-2a, 9112-9.6-7a
#[test]
fn time_out_mid_head_queues_408_and_drains() {
    let mut c = conn();
    c.set_date(DATE);
    // Part of a head, then the adapter's head deadline expires.
    assert_eq!(
        read_request(&mut c, b"GET /slow HTTP/1.1\r\nHo"),
        [Got::NeedInput]
    );
    assert_eq!(c.phase(), Phase::Head);
    c.time_out().unwrap();
    assert_eq!(c.phase(), Phase::Draining);
    assert!(c.should_close());
    let out = take_output(&mut c);
    assert!(out.starts_with("HTTP/1.1 408 Request Timeout\r\n"), "{out}");
    assert!(out.contains("\r\nConnection: close\r\n"), "{out}");
    assert!(
        out.contains("\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"),
        "{out}"
    );
    let body = &out[out.find("\r\n\r\n").unwrap() + 4..];
    assert!(
        out.contains(&format!("\r\nContent-Length: {}\r\n", body.len())),
        "{out}"
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
    assert!(c.spare_mut().is_empty(), "nothing more is read");
    // Once only.
    assert_eq!(c.time_out(), Err(LocalError::WrongState));
    assert_eq!(c.output(), b"");
}

#[test]
fn reject_only_before_a_final_head() {
    // Between requests, and while the request waits for its answer (even
    // after a 100 Continue).
    let mut c = conn();
    assert_eq!(c.reject(399), Err(LocalError::InvalidStatus));
    assert_eq!(c.reject(600), Err(LocalError::InvalidStatus));
    c.reject(503).unwrap();
    assert!(take_output(&mut c).starts_with("HTTP/1.1 503 Service Unavailable\r\n"));
    let mut c = conn();
    read_request(
        &mut c,
        b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
    );
    c.responder().send_continue().unwrap();
    c.time_out().unwrap();
    let out = take_output(&mut c);
    assert!(
        out.starts_with("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 408 Request Timeout\r\n"),
        "{out}"
    );
    assert_eq!(c.phase(), Phase::Draining);
    // Not once a final head went out: nothing is queued.
    let mut c = conn();
    read_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    send_head(&mut c, 200, &[], BodyLength::Known(10));
    let before = c.output().len();
    assert_eq!(c.reject(500), Err(LocalError::WrongState));
    assert_eq!(c.output().len(), before);
    // Nor after the response completed (the next request has not started).
    let mut c = conn();
    read_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    send_head(&mut c, 204, &[], BodyLength::Empty);
    assert_eq!(c.time_out(), Err(LocalError::WrongState));
}

// proves: 9110-5.3-3
#[test]
fn server_name_on_every_response_head_the_connection_writes() {
    let config = Config::DEFAULT.with_server_name(b"http-net/0.1").unwrap();
    assert_eq!(
        Config::DEFAULT.with_server_name(b""),
        Err(LocalError::InvalidFieldValue)
    );
    assert_eq!(
        Config::DEFAULT.with_server_name(b" x"),
        Err(LocalError::InvalidFieldValue)
    );
    let server = "\r\nServer: http-net/0.1\r\n";
    // A prebuilt answer, after a 100 Continue (which carries none).
    let mut c = ServerConn::new(config);
    c.set_date(DATE);
    read_request(
        &mut c,
        b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n",
    );
    c.responder().send_continue().unwrap();
    let ok = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    respond_queued(&mut c, &ok, b"hi");
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nServer: http-net/0.1\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 2\r\n\r\nhi"
    );
    // Borrowed fields; a caller's own Server is not doubled.
    read_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    send_head(&mut c, 404, &[], BodyLength::Empty);
    assert!(take_output(&mut c).contains(server));
    read_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    send_head(&mut c, 200, &[(b"server", b"mine")], BodyLength::Empty);
    let out = take_output(&mut c);
    assert!(
        out.contains("\r\nserver: mine\r\n") && !out.contains(server),
        "{out}"
    );
    // The connection's own error responses.
    for bad in [
        &b"GET / HTTP/1.1\r\nHost : a\r\n\r\n"[..],
        b"GET / HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\n\r\n",
        b"GET / HTTP/2.0\r\nHost: a\r\n\r\n",
    ] {
        let mut c = ServerConn::new(config);
        c.set_date(DATE);
        feed(&mut c, bad);
        assert!(c.poll_event().is_err());
        let out = take_output(&mut c);
        assert!(out.contains(server), "{out}");
        assert!(out.contains("\r\nDate: "), "{out}");
    }
    let mut c = ServerConn::new(config);
    feed(&mut c, b"GET / HT");
    c.poll_event().unwrap();
    c.time_out().unwrap();
    assert!(take_output(&mut c).contains(server));
    // None by default.
    let mut c = conn();
    feed(&mut c, b"GET / HTTP/1.1\r\nHost : a\r\n\r\n");
    assert!(c.poll_event().is_err());
    assert!(!take_output(&mut c).contains("Server"));
}

/// What provokes an error response.
type Act = fn(&mut ServerConn);

/// The response a fresh connection gives to `request` after `act`: a HEAD
/// and a GET request get the same head; HEAD's carries no content.
fn error_answer(request: &[u8], act: Act) -> String {
    let mut c = conn();
    feed(&mut c, request);
    let _ = c.poll_event();
    act(&mut c);
    take_output(&mut c)
}

// proves: 9110-9.3.2-1, 9110-9.3.2-2, 9110-8.6-6
#[test]
fn error_responses_to_head_carry_no_content() {
    let acts: [(&str, Act); 3] = [
        ("reject", |c| c.reject(503).unwrap()),
        ("time_out", |c| c.time_out().unwrap()),
        // A peer error after the head: a bad chunk line (400 by the connection).
        ("peer error", |c| {
            feed(c, b"zz\r\n");
            assert!(c.poll_event().is_err());
        }),
    ];
    for (what, act) in acts {
        let get = error_answer(
            b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
            act,
        );
        let head = error_answer(
            b"HEAD / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
            act,
        );
        let (get_head, get_body) = get.split_once("\r\n\r\n").unwrap();
        assert!(
            !get_body.is_empty(),
            "{what}: GET's answer explains the status"
        );
        assert!(
            get_head.contains(&format!("Content-Length: {}\r\n", get_body.len())),
            "{what}: {get:?}"
        );
        // The same head, the length of the content a GET gets (RFC 9110
        // §8.6), and nothing after it.
        assert_eq!(head, format!("{get_head}\r\n\r\n"), "{what}");
    }
    // Between requests (after an answered HEAD) no HEAD is in progress: the
    // answer has its text.
    let mut c = conn();
    read_request(&mut c, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(
        c.responder()
            .respond(&PreparedResponse::new(200, &[]).unwrap(), b"")
            .unwrap(),
        Placement::Queued
    );
    take_output(&mut c);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    c.reject(503).unwrap();
    assert!(take_output(&mut c).ends_with("\r\n\r\n503 Service Unavailable\n"));
}

/// The answers written without a connection (refusals at accept) check
/// their status, then a caller's content type, and write nothing when
/// either is wrong.
#[test]
fn standalone_error_responses_refuse_a_bad_status_or_content_type() {
    use http_net_conn::driver::{write_error_response, write_error_response_with_body};
    let mut buf = Vec::new();
    for status in [200, 399, 600] {
        assert_eq!(
            write_error_response(&mut buf, status, None, None, None),
            Err(LocalError::InvalidStatus)
        );
        assert_eq!(
            write_error_response_with_body(&mut buf, status, None, None, None, b"a\r\nb", b"x"),
            Err(LocalError::InvalidStatus),
            "the status is checked first"
        );
    }
    assert_eq!(
        write_error_response_with_body(&mut buf, 503, None, None, None, b"a\r\nb", b"x"),
        Err(LocalError::InvalidFieldValue)
    );
    assert!(buf.is_empty());
    write_error_response_with_body(&mut buf, 400, None, Some(DATE), None, b"text/plain", b"no")
        .unwrap();
    let out = String::from_utf8(buf).unwrap();
    assert!(
        out.starts_with("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\n"),
        "{out}"
    );
    assert!(out.ends_with("\r\n\r\nno"), "{out}");
    let mut buf = Vec::new();
    write_error_response(&mut buf, 599, Some(7), None, None).unwrap();
    let out = String::from_utf8(buf).unwrap();
    assert!(out.starts_with("HTTP/1.1 599 "), "{out}");
    assert!(out.contains("\r\nRetry-After: 7\r\n"), "{out}");
}

//! Whether a connection persists is one value inside the connection: every
//! getter an adapter reads (`should_close`, `phase`, `failed`) and what the
//! response head says (`Connection: close`) agree, whether or not
//! `poll_event` ran since the last command.

mod common;

use common::{feed, respond_queued, send_head};
use http_net_conn::{
    BodyLength, Config, Phase, Placement, PreparedResponse, ServerConn, ServerEvent,
};

/// Feeds `bytes` and polls until the request's `End` (or `Request` when
/// `head_only`).
fn read(conn: &mut ServerConn, bytes: &[u8], head_only: bool) {
    feed(conn, bytes);
    loop {
        match conn.poll_event() {
            Ok(ServerEvent::Request(_)) if head_only => return,
            Ok(ServerEvent::End(_)) => return,
            Ok(ServerEvent::Request(_) | ServerEvent::Data(_)) => {}
            other => panic!("{other:?}"),
        }
    }
}

fn has(out: &[u8], line: &[u8]) -> bool {
    out.windows(line.len()).any(|w| w == line)
}

fn ok() -> PreparedResponse {
    PreparedResponse::new(200, &[]).unwrap()
}

#[test]
fn the_peers_close_is_answered_with_close_and_read_before_polling() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    read(
        &mut conn,
        b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
        false,
    );
    assert!(conn.should_close(), "decided with the request");
    respond_queued(&mut conn, &ok(), b"hi");
    assert!(has(conn.output(), b"Connection: close\r\n"));
    // Before and after the poll that applies the close.
    assert_eq!(conn.phase(), Phase::Closed);
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Closed)));
    assert_eq!(conn.phase(), Phase::Closed);
    assert!(!conn.failed());
}

#[test]
fn an_http10_keep_alive_request_persists() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    read(
        &mut conn,
        b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        false,
    );
    respond_queued(&mut conn, &ok(), b"hi");
    assert!(has(conn.output(), b"Connection: keep-alive\r\n"));
    assert!(!conn.should_close());
    assert_eq!(conn.phase(), Phase::Idle);
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
}

#[test]
fn a_graceful_close_while_idle_closes_at_once() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    conn.close_after_response();
    assert!(conn.should_close());
    assert_eq!(conn.phase(), Phase::Closed, "before any poll");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Closed)));
}

#[test]
fn a_graceful_close_mid_request_closes_after_the_answer() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    read(&mut conn, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", false);
    conn.close_after_response();
    assert_eq!(conn.phase(), Phase::Responding);
    respond_queued(&mut conn, &ok(), b"");
    assert!(has(conn.output(), b"Connection: close\r\n"));
    assert_eq!(conn.phase(), Phase::Closed);
}

#[test]
fn an_unread_body_past_the_drain_bound_closes_a_persistent_connection() {
    let mut conn = ServerConn::new(Config::DEFAULT.with_drain_limit(4));
    read(
        &mut conn,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n",
        true,
    );
    assert!(!conn.should_close());
    send_head(&mut conn, 413, &[], BodyLength::Empty);
    assert!(has(conn.output(), b"Connection: close\r\n"));
    assert!(conn.should_close());
    assert_eq!(conn.phase(), Phase::Closed);
}

#[test]
fn an_unread_body_within_the_drain_bound_is_drained_and_the_next_request_read() {
    let mut conn = ServerConn::new(Config::DEFAULT.with_drain_limit(64));
    read(
        &mut conn,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n",
        true,
    );
    respond_queued(&mut conn, &ok(), b"");
    assert!(!has(conn.output(), b"Connection: close"));
    assert_eq!(conn.phase(), Phase::Body, "draining");
    feed(&mut conn, b"bodyGET /next HTTP/1.1\r\nHost: a\r\n\r\n");
    match conn.poll_event() {
        Ok(ServerEvent::Request(r)) => assert_eq!(r.target(), b"/next"),
        other => panic!("{other:?}"),
    }
    assert!(!conn.should_close());
}

#[test]
fn failure_outranks_every_close() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    read(&mut conn, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", false);
    conn.close_after_response();
    conn.reject(503).unwrap();
    conn.close_after_response();
    assert!(conn.failed());
    assert_eq!(conn.phase(), Phase::Draining);
    assert!(conn.should_close());
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Closed)));
    assert_eq!(conn.phase(), Phase::Draining);
}

#[test]
fn a_body_ended_short_never_lets_the_connection_persist() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    read(&mut conn, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", false);
    let mut r = conn.responder();
    r.send_head(200, &[], BodyLength::Known(5)).unwrap();
    assert_eq!(r.send_data(b"ab").unwrap(), Placement::Queued);
    assert!(r.send_end(&[]).is_err());
    assert!(conn.should_close());
    assert_eq!(conn.phase(), Phase::Closed);
    assert!(!conn.failed(), "the caller's misuse is not a peer failure");
}

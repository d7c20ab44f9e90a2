//! The getters an adapter drives a connection from (it keeps no copy of the
//! protocol state): the expectation, whether `100` is due or sent, where the
//! answer stands, and failure.

mod common;

use common::{discard_output, feed, respond_queued, send_head, send_queued};
use http_net_conn::{AnswerState, BodyLength, Config, Phase, ServerConn, ServerEvent};

fn request(conn: &mut ServerConn, bytes: &[u8]) -> bool {
    feed(conn, bytes);
    match conn.poll_event() {
        Ok(ServerEvent::Request(view)) => view.expects_continue(),
        other => panic!("{other:?}"),
    }
}

/// A new connection that surfaced the request in `bytes`.
fn surfaced(bytes: &[u8]) -> ServerConn {
    let mut conn = ServerConn::new(Config::DEFAULT);
    request(&mut conn, bytes);
    conn
}

#[test]
fn every_member_of_every_expect_line_counts() {
    for (expect, want) in [
        (&b"Expect: 100-continue\r\n"[..], true),
        (b"Expect: 100-continue, 100-continue\r\n", true),
        (b"Expect: 100-CONTINUE\r\nExpect: 100-continue\r\n", true),
        (b"", false),
    ] {
        let mut conn = ServerConn::new(Config::DEFAULT);
        let mut req = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n".to_vec();
        req.extend_from_slice(expect);
        req.extend_from_slice(b"\r\n");
        assert_eq!(request(&mut conn, &req), want, "{expect:?}");
        assert_eq!(conn.continue_due(), want);
        if want {
            conn.responder().send_continue().unwrap();
            assert!(conn.continue_sent());
            assert!(!conn.continue_due());
        }
    }
}

// proves: 9110-10.1.1-13.1
#[test]
fn http10_never_expects_continue() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let req = b"POST / HTTP/1.0\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n";
    assert!(!request(&mut conn, req));
    assert!(!conn.continue_due());
}

#[test]
fn no_continue_due_without_a_body_or_after_an_answer() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    assert!(request(
        &mut conn,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
    ));
    send_head(&mut conn, 413, &[], BodyLength::Empty);
    assert!(!conn.continue_due());
}

#[test]
fn answer_state_follows_the_write_half() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    assert_eq!(conn.answer_state(), AnswerState::NotStarted);
    request(&mut conn, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(conn.answer_state(), AnswerState::NotStarted);
    conn.responder().send_informational(103, &[]).unwrap();
    assert_eq!(conn.answer_state(), AnswerState::NotStarted);
    send_head(&mut conn, 200, &[], BodyLength::Known(2));
    assert_eq!(conn.answer_state(), AnswerState::Started);
    send_queued(&mut conn, b"ok");
    conn.responder().send_end(&[]).unwrap();
    assert_eq!(conn.answer_state(), AnswerState::Complete);
    assert!(!conn.failed());
}

#[test]
fn a_closing_answer_stays_complete_and_an_upgrade_is_switched() {
    let mut conn = surfaced(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
    send_head(&mut conn, 204, &[], BodyLength::Empty);
    conn.responder().send_end(&[]).unwrap();
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Closed)));
    assert_eq!(conn.answer_state(), AnswerState::Complete);

    let mut conn =
        surfaced(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: x\r\n\r\n");
    send_head(&mut conn, 101, &[(b"Upgrade", b"x")], BodyLength::Empty);
    assert_eq!(conn.answer_state(), AnswerState::Switched);
}

#[test]
fn an_error_response_written_by_the_connection_is_complete_and_failed() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    feed(&mut conn, b"GET / HTTP/1.1\r\nHost : a\r\n\r\n");
    assert!(conn.poll_event().is_err());
    assert!(conn.failed());
    assert_eq!(conn.phase(), Phase::Draining);
    assert_eq!(conn.answer_state(), AnswerState::Complete);

    let mut conn = surfaced(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    conn.reject(500).unwrap();
    assert!(conn.failed());
    assert_eq!(conn.answer_state(), AnswerState::Complete);
}

#[test]
fn an_answer_cut_by_a_peer_error_stays_started() {
    let mut conn = surfaced(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
    send_head(&mut conn, 200, &[], BodyLength::Streamed);
    feed(&mut conn, b"zz\r\n");
    assert!(conn.poll_event().is_err());
    assert!(conn.failed());
    assert_eq!(conn.answer_state(), AnswerState::Started);
}

/// A body left to the caller is visible as owed until the output before it
/// is consumed; an adapter can tell a handler that ignored the placement
/// (`output()` and `output_queued()` are equal then).
#[test]
fn body_owed_tells_a_body_left_to_the_caller() {
    use http_net_conn::{Placement, PreparedResponse};
    let mut conn = surfaced(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(conn.body_owed(), None);
    let big = vec![b'x'; http_net_conn::COPY_LIMIT + 1];
    let ok = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        conn.responder().respond(&ok, &big).unwrap(),
        Placement::AfterOutput
    );
    assert_eq!(conn.output().len(), conn.output_queued());
    assert_eq!(conn.body_owed(), Some(big.len() as u64));
    conn.consume_output(1);
    assert_eq!(conn.body_owed(), Some(big.len() as u64), "head partly sent");
    let rest = conn.output().len();
    conn.consume_output(rest);
    assert_eq!(
        conn.body_owed(),
        None,
        "the end of the output is where the body went"
    );

    // A copied body owes nothing.
    request(&mut conn, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    respond_queued(&mut conn, &ok, b"small");
    assert_eq!(conn.body_owed(), None);
    discard_output(&mut conn);

    // A head-only answer owes its length.
    request(&mut conn, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(
        conn.responder().respond_head_only(&ok, 7).unwrap(),
        Placement::AfterOutput
    );
    assert_eq!(conn.body_owed(), Some(7));
    discard_output(&mut conn);
    assert_eq!(conn.body_owed(), None);

    // To HEAD nothing may leave: nothing is owed.
    request(&mut conn, b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n");
    respond_queued(&mut conn, &ok, &big);
    assert_eq!(conn.body_owed(), None);
}

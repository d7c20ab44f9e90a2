//! The server connection's policy around a handler, both servers' rules,
//! without I/O: what starts a request (`ServerConn::begin_request`:
//! `CONNECT` without tunnels, requests per connection, a stop) and what
//! follows it (`ServerConn::after_handler`, from where the answer stands).

use http_net_conn::driver::{AfterHandler, Begin, HandlerOutcome, RequestPolicy};
use http_net_conn::{BodyLength, Config, Placement, PreparedResponse, ServerConn, ServerEvent};

/// A connection that has read `req` up to its request event.
fn requested(req: &[u8]) -> ServerConn {
    let mut conn = ServerConn::new(Config::DEFAULT);
    assert_eq!(conn.recv(req), req.len());
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    conn
}

fn get() -> ServerConn {
    requested(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
}

const OUTCOMES: [HandlerOutcome; 3] = [
    HandlerOutcome::Ok,
    HandlerOutcome::Failed,
    HandlerOutcome::Panicked,
];

#[test]
fn a_whole_answer_goes_on_when_the_handler_succeeded_and_lingers_otherwise() {
    for outcome in OUTCOMES {
        let mut conn = get();
        let placement = conn.responder().respond_with(200, &[], b"ok").unwrap();
        assert_eq!(placement, Placement::Queued);
        let want = if outcome == HandlerOutcome::Ok {
            AfterHandler::Next
        } else {
            AfterHandler::Linger
        };
        assert_eq!(conn.after_handler(outcome, false), want, "{outcome:?}");
        assert!(conn.output().starts_with(b"HTTP/1.1 200 OK\r\n"));
    }
}

#[test]
fn no_answer_is_500_or_408_after_a_body_timeout_then_linger() {
    for outcome in OUTCOMES {
        for (timed_out, status) in [(false, &b"500"[..]), (true, &b"408"[..])] {
            let mut conn = get();
            assert_eq!(
                conn.after_handler(outcome, timed_out),
                AfterHandler::Linger,
                "{outcome:?}"
            );
            assert_eq!(&conn.output()[9..12], status, "{outcome:?} {timed_out}");
            assert!(conn.should_close());
        }
    }
}

#[test]
fn an_answer_begun_and_not_ended_is_the_applications_error_unless_a_body_timed_out() {
    let mut conn = get();
    conn.responder()
        .send_head(200, &[], BodyLength::Known(10))
        .unwrap();
    assert_eq!(
        conn.responder().send_data(b"abc").unwrap(),
        Placement::Queued
    );
    assert_eq!(
        conn.after_handler(HandlerOutcome::Ok, false),
        AfterHandler::Truncated
    );
    assert_eq!(
        conn.after_handler(HandlerOutcome::Ok, true),
        AfterHandler::CloseAfterOutput
    );
}

#[test]
fn a_body_owed_is_truncated_whatever_the_outcome() {
    for outcome in OUTCOMES {
        let mut conn = get();
        let ok = PreparedResponse::new(200, &[]).unwrap();
        let big = vec![b'x'; 100_000];
        let placement = conn.responder().respond(&ok, &big).unwrap();
        assert_eq!(placement, Placement::AfterOutput);
        assert_eq!(
            conn.after_handler(outcome, false),
            AfterHandler::Truncated,
            "{outcome:?}"
        );
    }
}

#[test]
fn a_peer_error_in_the_body_lingers_with_its_error_response() {
    let mut conn =
        requested(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
    assert!(conn.poll_event().is_err());
    assert!(conn.failed());
    for outcome in OUTCOMES {
        assert_eq!(conn.after_handler(outcome, false), AfterHandler::Linger);
    }
    assert!(conn.output().starts_with(b"HTTP/1.1 400 "));
}

#[test]
fn a_switch_not_taken_over_sends_its_head_and_closes() {
    let mut conn = requested(
        b"GET /chat HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n",
    );
    conn.responder()
        .send_head(
            101,
            &[(b"Connection", b"upgrade"), (b"Upgrade", b"websocket")],
            BodyLength::Empty,
        )
        .unwrap();
    assert_eq!(
        conn.after_handler(HandlerOutcome::Ok, false),
        AfterHandler::CloseAfterOutput
    );
    assert!(conn.output().starts_with(b"HTTP/1.1 101 "));
}

/// One rule for both servers (tokio skipped `after_handler` once the
/// stream was taken over, std asked it): once the handler took the
/// stream over (`Switched` polled), the connection closes, sending
/// nothing more, whatever the handler returned.
#[test]
fn a_switch_taken_over_closes_whatever_the_handler_returned() {
    for outcome in OUTCOMES {
        let mut conn = requested(
            b"GET /chat HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: echo\r\n\r\n",
        );
        conn.responder()
            .send_head(101, &[(b"Upgrade", b"echo")], BodyLength::Empty)
            .unwrap();
        let n = conn.output().len();
        conn.consume_output(n);
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Switched(_))));
        assert_eq!(
            conn.after_handler(outcome, false),
            AfterHandler::Close,
            "{outcome:?}"
        );
        assert!(conn.output().is_empty());
    }
}

// The start of a request (`ServerConn::begin_request`), the rule both
// servers apply before the handler.

#[test]
fn connect_without_tunnels_is_refused_with_501_and_with_tunnels_handled() {
    let req = b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n";
    let mut conn = requested(req);
    assert_eq!(
        conn.begin_request(0, false, &RequestPolicy::DEFAULT),
        Ok(Begin::Refused)
    );
    assert!(conn.output().starts_with(b"HTTP/1.1 501 "));
    assert!(conn.should_close());
    let tunnels = RequestPolicy {
        tunnels: true,
        ..RequestPolicy::DEFAULT
    };
    let mut conn = requested(req);
    assert_eq!(conn.begin_request(0, false, &tunnels), Ok(Begin::Handle));
    assert!(conn.output().is_empty());
}

#[test]
fn the_request_that_reaches_max_requests_is_the_last_and_a_stop_ends_any() {
    let three = RequestPolicy {
        max_requests: 3,
        ..RequestPolicy::DEFAULT
    };
    let unlimited = RequestPolicy {
        max_requests: 0,
        ..RequestPolicy::DEFAULT
    };
    for (served, stopping, policy, last) in [
        (0, false, three, false),
        (1, false, three, false),
        (2, false, three, true),
        (0, true, three, true),
        (1_000_000, false, unlimited, false),
        (5, true, unlimited, true),
    ] {
        let mut conn = get();
        assert_eq!(
            conn.begin_request(served, stopping, &policy),
            Ok(Begin::Handle)
        );
        let placement = conn.responder().respond_with(200, &[], b"ok").unwrap();
        assert_eq!(placement, Placement::Queued);
        let out = String::from_utf8_lossy(conn.output()).into_owned();
        assert_eq!(
            out.contains("Connection: close\r\n"),
            last,
            "{served} {stopping} {policy:?}: {out}"
        );
        assert_eq!(conn.should_close(), last);
    }
}

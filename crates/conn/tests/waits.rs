//! The waits between handlers (`ReadDeadlines::next_read`) with a
//! simulated clock: the idle timeout, the whole-head deadline, the drain's
//! deadline, and what a graceful stop closes. No sleeps, no sockets.

use core::time::Duration;

use http_net_conn::driver::{NextRead, ReadDeadlines, ReadTimeouts, SlotState};
use http_net_conn::{Config, PreparedResponse, ServerConn, ServerEvent, Stage, Timestamp};

const T: ReadTimeouts = ReadTimeouts {
    idle: Duration::from_secs(30),
    head: Duration::from_secs(10),
    body: Duration::from_secs(20),
};

fn at(secs: u64) -> Timestamp {
    Timestamp::from_nanos(0).saturating_add(Duration::from_secs(secs))
}

fn wait(until: Timestamp, stage: Stage, slot: SlotState, stop_closes: bool) -> NextRead {
    NextRead::Wait {
        until,
        stage,
        slot,
        stop_closes,
    }
}

#[test]
fn idle_waits_the_idle_timeout_from_each_wait_fresh_before_the_first_request() {
    let conn = ServerConn::new(Config::DEFAULT);
    let mut d = ReadDeadlines::new();
    assert_eq!(
        d.next_read(&conn, true, at(0), &T),
        wait(at(30), Stage::Idle, SlotState::Fresh, true)
    );
    assert_eq!(
        d.next_read(&conn, false, at(7), &T),
        wait(at(37), Stage::Idle, SlotState::Idle, true)
    );
}

#[test]
fn the_head_deadline_runs_from_the_first_wait_for_its_rest_however_it_trickles() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let mut d = ReadDeadlines::new();
    let _ = conn.recv(b"GET / HTTP/1.1\r\n");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    assert_eq!(
        d.next_read(&conn, true, at(100), &T),
        wait(at(110), Stage::Head, SlotState::Head, false)
    );
    // A byte at a time: the deadline does not move.
    for t in 101..110 {
        let _ = conn.recv(b"X");
        let _ = conn.poll_event();
        assert_eq!(
            d.next_read(&conn, true, at(t), &T),
            wait(at(110), Stage::Head, SlotState::Head, false),
            "{t}"
        );
    }
    assert_eq!(d.head_started(&T), Some(at(100)));
    assert_eq!(
        d.next_read(&conn, true, at(110), &T),
        NextRead::HeadTimedOut
    );
}

#[test]
fn a_new_request_starts_new_deadlines() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let mut d = ReadDeadlines::new();
    let _ = conn.recv(b"GET / HTTP/1.1\r\n");
    let _ = conn.poll_event();
    let _ = d.next_read(&conn, true, at(0), &T);
    let _ = conn.recv(b"Host: a\r\n\r\nGET /2 HTTP/1.1\r\n");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    d.request_started();
    assert_eq!(d.head_started(&T), None);
    let ok = PreparedResponse::new(200, &[]).unwrap();
    let _ = conn.responder().respond(&ok, b"").unwrap();
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    // The second head's deadline, from its own first wait.
    assert_eq!(
        d.next_read(&conn, false, at(50), &T),
        wait(at(60), Stage::Head, SlotState::Head, false)
    );
}

#[test]
fn an_unread_body_is_drained_within_one_body_timeout_in_all() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let mut d = ReadDeadlines::new();
    let _ = conn.recv(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\nab");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    d.request_started();
    let ok = PreparedResponse::new(200, &[]).unwrap();
    let _ = conn.responder().respond(&ok, b"").unwrap();
    while !matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)) {}
    assert_eq!(
        d.next_read(&conn, false, at(5), &T),
        wait(at(25), Stage::Body, SlotState::Drain, true)
    );
    let _ = conn.recv(b"cd");
    while !matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)) {}
    assert_eq!(
        d.next_read(&conn, false, at(24), &T),
        wait(at(25), Stage::Body, SlotState::Drain, true)
    );
    assert_eq!(d.next_read(&conn, false, at(25), &T), NextRead::Close);
}

#[test]
fn after_an_error_response_nothing_more_is_read() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let mut d = ReadDeadlines::new();
    let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n");
    assert!(conn.poll_event().is_err());
    assert_eq!(d.next_read(&conn, true, at(0), &T), NextRead::Linger);
}

//! The deadlines a server connection owns between handlers
//! (`ServerConn::poll_timeout`, `handle_timeout`, `next_read`, `evict`)
//! with a simulated clock: the idle timeout, the whole-head deadline, the
//! drain's deadline, what a graceful stop closes, and what an expiry or an
//! eviction does. No sleeps, no sockets.

use core::time::Duration;

use http_net_conn::driver::{Expiry, NextRead, ReadTimeouts, SlotState};
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

fn conn() -> ServerConn {
    let mut conn = ServerConn::new(Config::DEFAULT);
    conn.set_timeouts(T);
    conn
}

/// Answers the request `conn` just yielded with an empty `200`, sent.
fn answer(conn: &mut ServerConn) {
    let ok = PreparedResponse::new(200, &[]).unwrap();
    let _ = conn.responder().respond(&ok, b"").unwrap();
    let n = conn.output().len();
    conn.consume_output(n);
}

#[test]
fn idle_runs_from_the_first_wait_and_a_stale_wakeup_does_not_move_it() {
    let mut conn = conn();
    assert_eq!(
        conn.next_read(at(0)),
        wait(at(30), Stage::Idle, SlotState::Fresh, true)
    );
    assert_eq!(
        conn.next_read(at(7)),
        wait(at(30), Stage::Idle, SlotState::Fresh, true)
    );
    assert_eq!(conn.handle_timeout(at(29)), None);
    assert_eq!(
        conn.handle_timeout(at(30)),
        Some(Expiry {
            stage: Stage::Idle,
            linger: false,
            timed_out: Some(Stage::Idle),
            look_once: false,
        })
    );
    assert!(
        conn.output().is_empty(),
        "an idle connection closes quietly"
    );
}

#[test]
fn after_a_request_the_idle_wait_is_keep_alive_from_its_own_first_wait() {
    let mut conn = conn();
    let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    let _ = conn.begin_request(0, false, &http_net_conn::driver::RequestPolicy::DEFAULT);
    answer(&mut conn);
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    assert_eq!(
        conn.next_read(at(40)),
        wait(at(70), Stage::Idle, SlotState::Idle, true)
    );
}

#[test]
fn the_head_deadline_runs_from_the_first_wait_for_its_rest_however_it_trickles() {
    let mut conn = conn();
    let _ = conn.recv(b"GET / HTTP/1.1\r\n");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    assert_eq!(
        conn.next_read(at(100)),
        wait(at(110), Stage::Head, SlotState::Head, false)
    );
    // A byte at a time: the deadline does not move.
    for t in 101..110 {
        let _ = conn.recv(b"X");
        let _ = conn.poll_event();
        assert_eq!(
            conn.next_read(at(t)),
            wait(at(110), Stage::Head, SlotState::Head, false),
            "{t}"
        );
    }
    assert_eq!(conn.head_started(), Some(at(100)));
    let expired = Expiry {
        stage: Stage::Head,
        linger: true,
        timed_out: Some(Stage::Head),
        look_once: false,
    };
    assert_eq!(conn.next_read(at(110)), NextRead::Expired(expired));
    assert!(conn.output().starts_with(b"HTTP/1.1 408 "));
    // Expired once: the connection lingers now.
    assert_eq!(conn.handle_timeout(at(200)), None);
    assert_eq!(conn.poll_timeout(at(200)), None);
}

#[test]
fn a_head_that_arrives_whole_asks_no_deadline() {
    let mut conn = conn();
    let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    assert_eq!(conn.head_started(), None);
    assert_eq!(conn.handle_timeout(at(1_000_000)), None);
}

#[test]
fn a_new_request_starts_new_deadlines() {
    let mut conn = conn();
    let _ = conn.recv(b"GET / HTTP/1.1\r\n");
    let _ = conn.poll_event();
    let _ = conn.next_read(at(0));
    let _ = conn.recv(b"Host: a\r\n\r\nGET /2 HTTP/1.1\r\n");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    let _ = conn.begin_request(0, false, &http_net_conn::driver::RequestPolicy::DEFAULT);
    assert_eq!(conn.head_started(), None);
    answer(&mut conn);
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    // The second head's deadline, from its own first wait.
    assert_eq!(
        conn.next_read(at(50)),
        wait(at(60), Stage::Head, SlotState::Head, false)
    );
}

#[test]
fn an_unread_body_is_drained_within_one_body_timeout_in_all() {
    let mut conn = conn();
    let _ = conn.recv(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\nab");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    let _ = conn.begin_request(0, false, &http_net_conn::driver::RequestPolicy::DEFAULT);
    answer(&mut conn);
    while !matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)) {}
    assert_eq!(
        conn.next_read(at(5)),
        wait(at(25), Stage::Body, SlotState::Drain, true)
    );
    let _ = conn.recv(b"cd");
    while !matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)) {}
    assert_eq!(
        conn.next_read(at(24)),
        wait(at(25), Stage::Body, SlotState::Drain, true)
    );
    let expired = Expiry {
        stage: Stage::Body,
        linger: false,
        timed_out: Some(Stage::Body),
        look_once: false,
    };
    assert_eq!(conn.next_read(at(25)), NextRead::Expired(expired));
}

#[test]
fn after_an_error_response_nothing_more_is_read() {
    let mut conn = conn();
    let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n");
    assert!(conn.poll_event().is_err());
    assert_eq!(conn.next_read(at(0)), NextRead::Linger);
    assert_eq!(conn.poll_timeout(at(0)), None);
}

#[test]
fn an_eviction_mid_head_queues_503_and_between_requests_closes() {
    let mut conn = conn();
    let _ = conn.recv(b"GET / HT");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    let e = conn.evict();
    assert_eq!((e.stage, e.linger, e.timed_out), (Stage::Head, true, None));
    assert!(conn.output().starts_with(b"HTTP/1.1 503 "));
    assert!(!e.look_once);
    let mut idle = self::conn();
    let e = idle.evict();
    assert_eq!((e.stage, e.linger, e.timed_out), (Stage::Idle, false, None));
    assert!(idle.output().is_empty());
}

/// One rule for both servers (tokio looked once more after an eviction,
/// std read what its shut socket still held, without telling the core):
/// an idle connection evicted reads once more what had arrived; a request
/// that came is answered with `Connection: close`; the eviction asked
/// again closes.
#[test]
fn an_idle_connection_evicted_looks_once_more_and_answers_what_came_as_its_last() {
    let mut conn = conn();
    let e = conn.evict();
    assert!(e.look_once);
    let _ = conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    let _ = conn.begin_request(0, false, &http_net_conn::driver::RequestPolicy::DEFAULT);
    let ok = PreparedResponse::new(200, &[]).unwrap();
    let _ = conn.responder().respond(&ok, b"").unwrap();
    let out = String::from_utf8_lossy(conn.output()).into_owned();
    assert!(out.contains("\r\nConnection: close\r\n"), "{out}");
    let n = conn.output().len();
    conn.consume_output(n);
    // Nothing more is read: the connection is closing.
    assert!(conn.should_close());
    let mut again = self::conn();
    assert!(again.evict().look_once);
    assert!(!again.evict().look_once, "asked again, it closes");
}

#[test]
fn a_reset_forgets_the_deadlines_and_keeps_the_timeouts() {
    let mut conn = conn();
    let _ = conn.recv(b"GET / HT");
    let _ = conn.poll_event();
    let _ = conn.poll_timeout(at(0));
    conn.reset();
    assert_eq!(conn.head_started(), None);
    assert_eq!(conn.poll_timeout(at(100)), Some(at(130)));
    assert_eq!(conn.handle_timeout(at(129)), None);
}

/// One rule for both servers' idle buffers (std kept a thread's
/// connection if it had not grown, tokio lent them to its pool after a
/// grace, grown or not): the core says when an idle connection gives its
/// buffers up and whether they are worth keeping.
#[test]
fn an_idle_connection_gives_its_buffers_up_after_the_grace_if_its_peer_was_quick() {
    use http_net_conn::driver::IDLE_GRACE;
    use http_net_conn::Buffers;
    let mut conn = conn();
    assert_eq!(
        conn.allocated_bytes(),
        Buffers::fresh_bytes(conn.config()),
        "the figure of a new connection, without allocating"
    );
    assert!(conn.buffers_kept());
    let _ = conn.poll_timeout(at(10));
    assert_eq!(
        conn.buffers_idle_at(),
        Some(at(10).saturating_add(IDLE_GRACE))
    );
    // Back within the grace: still quick.
    conn.idle_ended(at(10));
    assert_eq!(
        conn.buffers_idle_at(),
        Some(at(10).saturating_add(IDLE_GRACE))
    );
    // Back later: the next idle wait gives them up at once.
    conn.idle_ended(at(11));
    assert_eq!(conn.buffers_idle_at(), Some(at(10)));
    // A pipeliner that reads nothing grows the output: not worth keeping.
    let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n".repeat(2000);
    let _ = conn.recv(&req);
    let ok = PreparedResponse::new(200, &[]).unwrap();
    for _ in 0..2000 {
        match conn.poll_event() {
            Ok(ServerEvent::Request(_)) => {
                let _ =
                    conn.begin_request(0, false, &http_net_conn::driver::RequestPolicy::DEFAULT);
                let _ = conn.responder().respond(&ok, &[b'x'; 64]);
            }
            _ => break,
        }
    }
    assert!(!conn.buffers_kept(), "{} bytes", conn.allocated_bytes());
}

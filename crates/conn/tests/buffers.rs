//! Buffer lending: an idle connection hands its buffers to a pool between
//! requests and takes them back before the next read.

mod common;

use common::*;
use http_net_conn::{
    Buffers, Config, HeadLimits, Phase, Placement, PreparedResponse, ServerConn, ServerEvent,
};

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";

fn answer(c: &mut ServerConn) {
    assert_eq!(
        c.responder()
            .respond(&PreparedResponse::new(200, &[]).unwrap(), b"ok")
            .unwrap(),
        Placement::Queued
    );
}

/// Serves one request and leaves the connection idle (`NeedInput`).
fn serve(c: &mut ServerConn, input: &[u8]) -> String {
    read_request(c, input);
    answer(c);
    let out = take_output(c);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    out
}

#[test]
fn buffers_are_lent_only_while_idle_between_requests() {
    let mut c = conn();
    assert!(c.take_buffers().is_some(), "a new connection is idle");
    c.restore_buffers(Buffers::new(c.config())).unwrap();

    // A head in progress: unread input.
    feed(&mut c, b"GET / HT");
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    assert!(c.take_buffers().is_none(), "part of a head is unread");
    accept_request(&mut c, b"TP/1.1\r\nHost: a\r\n\r\n");
    assert!(c.take_buffers().is_none(), "a request is in progress");
    answer(&mut c);
    assert!(c.take_buffers().is_none(), "the answer is not sent");
    take_output(&mut c);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));

    // A pipelined request waiting is unread input.
    feed(&mut c, GET);
    assert!(c.take_buffers().is_none());
    serve(&mut c, b"");

    let lent = c.take_buffers().unwrap();
    assert!(c.buffers_lent());
    assert!(c.take_buffers().is_none(), "already lent");
    assert!(lent.allocated_bytes() >= 32 * 1024);
}

#[test]
fn a_connection_without_buffers_waits_idle_and_copies_nothing() {
    let mut c = conn();
    serve(&mut c, GET);
    let mut pool = vec![c.take_buffers().unwrap()];
    assert!(c.spare_mut().is_empty());
    assert_eq!(c.recv(GET), 0, "recv copies nothing while lent");
    assert_eq!(c.phase(), Phase::Idle);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    assert!(c.request().is_none());
    assert!(!c.should_close());

    c.restore_buffers(pool.pop().unwrap()).unwrap();
    assert!(!c.buffers_lent());
    assert_eq!(
        serve(&mut c, GET),
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    );
    // Restoring to a connection that holds its own gives them back.
    let spare = Buffers::new(c.config());
    assert!(c.restore_buffers(spare).is_err());
}

#[test]
fn end_of_input_while_lent_closes() {
    let mut c = conn();
    serve(&mut c, GET);
    let _lent = c.take_buffers().unwrap();
    c.recv_eof();
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
}

#[test]
fn a_timeout_while_lent_is_queued_and_kept_across_the_restore() {
    let mut c = conn();
    serve(&mut c, GET);
    let lent = c.take_buffers().unwrap();
    c.reject(503).unwrap();
    let queued = c.output().to_vec();
    assert!(queued.starts_with(b"HTTP/1.1 503 "));
    c.restore_buffers(lent).unwrap();
    assert_eq!(c.output(), &queued[..]);
    assert_eq!(c.phase(), Phase::Draining);
}

#[test]
fn buffers_too_small_for_the_config_are_resized() {
    let small = Config::DEFAULT
        .with_head_limits(
            HeadLimits::DEFAULT
                .with_max_head_bytes(64)
                .with_max_fields(1),
        )
        .with_read_chunk(16);
    let tiny = Buffers::new(&small);
    let full = Buffers::new(&Config::DEFAULT);
    assert!(tiny.allocated_bytes() < full.allocated_bytes() - 32 * 1024);

    let mut c = conn();
    let _own = c.take_buffers().unwrap();
    c.restore_buffers(tiny).unwrap();
    // A head larger than the small buffer, with many fields, still fits.
    let mut req = b"GET / HTTP/1.1\r\nHost: a\r\n".to_vec();
    for i in 0..50 {
        req.extend_from_slice(format!("X-Field-{i}: {}\r\n", "v".repeat(40)).as_bytes());
    }
    req.extend_from_slice(b"\r\n");
    let events = read_request(&mut c, &req);
    assert!(matches!(events[0], Got::Request { .. }), "{events:?}");
    assert_eq!(c.request().unwrap().fields().count(), 51);
    answer(&mut c);
    take_output(&mut c);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    let back = c.take_buffers().unwrap();
    assert!(back.allocated_bytes() >= full.allocated_bytes());
}

#[test]
fn reset_keeps_the_buffers_lent() {
    let mut c = conn();
    let lent = c.take_buffers().unwrap();
    c.reset();
    assert!(c.buffers_lent());
    c.restore_buffers(lent).unwrap();
    assert_eq!(
        serve(&mut c, GET),
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    );
}

#[test]
fn what_an_idle_connection_keeps_while_lent_is_small() {
    // The connection's own state, without its buffers (792 bytes on x86-64
    // when this was written; 992 before the request's two transfer paces,
    // 184 bytes of meters and bounds, moved in from the adapters'
    // per-connection state: 1,176). `cargo test --workspace` turns on
    // head's test-only `count-work` (the parser's work counter), 24 bytes
    // more: 1,200.
    let size = std::mem::size_of::<ServerConn>();
    println!("size_of::<ServerConn>() = {size}");
    assert!(size <= 1200, "{size}");
}

#[test]
fn a_client_lends_its_buffers_only_with_nothing_outstanding() {
    use http_net_conn::{BodyLength, ClientConn, ClientEvent};
    let mut c = ClientConn::new(Config::DEFAULT);
    let lent = c.take_buffers().expect("a new client is idle");
    assert!(c.buffers_lent());
    assert!(c.spare_mut().is_empty());
    assert_eq!(c.recv(b"HTTP/1.1 200 OK\r\n"), 0);
    c.restore_buffers(lent).unwrap();

    c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
        .unwrap();
    assert!(c.take_buffers().is_none(), "output waits");
    discard_output(&mut c);
    assert!(c.take_buffers().is_none(), "a response is outstanding");
    feed(&mut c, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    assert!(c.take_buffers().is_none(), "unread input");
    loop {
        match c.poll_event().unwrap() {
            ClientEvent::End(_) => break,
            ClientEvent::Response(_) | ClientEvent::Data(_) => {}
            other => panic!("{other:?}"),
        }
    }
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Idle)));
    let lent = c.take_buffers().expect("idle after the response");

    // A request sent while lent is kept across the restore.
    c.send_request(b"GET", b"/next", &[(b"Host", b"a")], BodyLength::Empty)
        .unwrap();
    let queued = c.output().to_vec();
    c.restore_buffers(lent).unwrap();
    assert_eq!(c.output(), &queued[..]);
    assert!(queued.starts_with(b"GET /next HTTP/1.1\r\n"));
    assert!(c.restore_buffers(Buffers::new(c.config())).is_err());
}

//! Zero allocations per request after warm-up, on both sides (a goal of the
//! Sans-IO design: buffers are made with the connection and reused): a
//! per-thread counting global allocator (`support/counting.rs`) wraps the
//! system allocator.

#[path = "support/counting.rs"]
mod counting;

use counting::allocations;

use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, Phase, Placement, PreparedResponse, ServerConn,
    ServerEvent,
};

fn drain_output(conn: &mut ServerConn) -> usize {
    let n = conn.output().len();
    conn.consume_output(n);
    n
}

/// Serves one request from `input` with `answer`, checking the events.
fn serve_one(conn: &mut ServerConn, input: &[u8], answer: &mut dyn FnMut(&mut ServerConn)) {
    assert_eq!(conn.recv(input), input.len());
    let mut ended = false;
    loop {
        match conn.poll_event().unwrap() {
            ServerEvent::Request(_) | ServerEvent::Data(_) => {}
            ServerEvent::End(_) => {
                answer(conn);
                ended = true;
            }
            ServerEvent::NeedInput => break,
            other => panic!("{other:?}"),
        }
    }
    assert!(ended);
    assert!(drain_output(conn) > 0);
}

fn steady_state(input: &[u8], answer: &mut dyn FnMut(&mut ServerConn)) -> u64 {
    let mut conn = ServerConn::new(Config::DEFAULT);
    conn.set_date(b"Sun, 06 Nov 1994 08:49:37 GMT");
    for _ in 0..16 {
        serve_one(&mut conn, input, answer);
    }
    allocations(|| {
        for _ in 0..1000 {
            serve_one(&mut conn, input, answer);
        }
    })
}

const GET: &[u8] = b"GET /plaintext HTTP/1.1\r\nHost: a\r\nUser-Agent: t\r\nAccept: */*\r\n\r\n";
const FIVE: [(&[u8], &[u8]); 5] = [
    (b"Content-Type", b"text/plain"),
    (b"Server", b"http-net"),
    (b"Cache-Control", b"no-cache"),
    (b"X-Frame-Options", b"DENY"),
    (b"Vary", b"Accept-Encoding"),
];

#[test]
fn the_counter_counts() {
    assert!(allocations(|| drop(std::hint::black_box(vec![1u8; 10]))) >= 1);
}

#[test]
fn server_prebuilt_response_allocates_nothing() {
    let ok = PreparedResponse::new(200, &FIVE).unwrap();
    let body = [b'x'; 1024];
    assert_eq!(
        steady_state(GET, &mut |c| assert_eq!(
            c.responder().respond(&ok, &body).unwrap(),
            Placement::Queued
        )),
        0
    );
}

#[test]
fn server_send_head_with_borrowed_fields_allocates_nothing() {
    let body = [b'x'; 1024];
    let mut answer = |c: &mut ServerConn| {
        let mut r = c.responder();
        r.send_head(200, &FIVE, BodyLength::Known(body.len() as u64))
            .unwrap();
        assert_eq!(r.send_data(&body).unwrap(), Placement::Queued);
        r.send_end(&[]).unwrap();
    };
    assert_eq!(steady_state(GET, &mut answer), 0);
}

#[test]
fn server_chunked_bodies_both_ways_allocate_nothing() {
    let input = b"POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nX-Sum: 1\r\n\r\n";
    let mut answer = |c: &mut ServerConn| {
        let mut r = c.responder();
        r.send_head(200, &FIVE, BodyLength::Streamed).unwrap();
        assert_eq!(r.send_data(b"hello").unwrap(), Placement::Queued);
        assert_eq!(r.send_data(&[b'y'; 300]).unwrap(), Placement::Queued);
        r.send_end(&[(b"X-Checksum", b"42")]).unwrap();
    };
    assert_eq!(steady_state(input, &mut answer), 0);
}

#[test]
fn server_with_wiping_allocates_nothing() {
    let ok = PreparedResponse::new(204, &[]).unwrap();
    let mut conn = ServerConn::new(Config::DEFAULT);
    conn.set_wipe(true);
    let mut answer = |c: &mut ServerConn| {
        assert_eq!(c.responder().respond(&ok, b"").unwrap(), Placement::Queued)
    };
    for _ in 0..16 {
        serve_one(&mut conn, GET, &mut answer);
    }
    assert_eq!(
        allocations(|| (0..1000).for_each(|_| serve_one(&mut conn, GET, &mut answer))),
        0
    );
}

/// Lending in the loop: the buffers go to a pool of one after every request
/// and come back before the next read, and nothing is allocated.
#[test]
fn server_lending_buffers_between_requests_allocates_nothing() {
    use http_net_conn::Buffers;
    let ok = PreparedResponse::new(200, &FIVE).unwrap();
    let body = [b'x'; 1024];
    for wipe in [false, true] {
        let mut conn = ServerConn::new(Config::DEFAULT);
        conn.set_wipe(wipe);
        conn.set_date(b"Sun, 06 Nov 1994 08:49:37 GMT");
        let mut pool: Vec<Buffers> = Vec::with_capacity(1);
        let mut answer = |c: &mut ServerConn| {
            assert_eq!(
                c.responder().respond(&ok, &body).unwrap(),
                Placement::Queued
            )
        };
        let mut cycle = |conn: &mut ServerConn, pool: &mut Vec<Buffers>| {
            pool.push(conn.take_buffers().expect("idle between requests"));
            assert!(conn.spare_mut().is_empty());
            assert_eq!(conn.phase(), Phase::Idle);
            conn.restore_buffers(pool.pop().unwrap()).unwrap();
            serve_one(conn, GET, &mut answer);
        };
        for _ in 0..16 {
            cycle(&mut conn, &mut pool);
        }
        assert_eq!(
            allocations(|| (0..1000).for_each(|_| cycle(&mut conn, &mut pool))),
            0,
            "wipe {wipe}"
        );
    }
}

fn fetch_one(conn: &mut ClientConn, response: &[u8], streamed: bool) {
    if streamed {
        conn.send_request(
            b"POST",
            b"/up",
            &[(b"Host", b"a"), (b"Accept", b"*/*")],
            BodyLength::Streamed,
        )
        .unwrap();
        assert_eq!(conn.send_data(b"hello").unwrap(), Placement::Queued);
        conn.send_end(&[(b"X-Sum", b"1")]).unwrap();
    } else {
        conn.send_request(
            b"GET",
            b"/",
            &[(b"Host", b"a"), (b"Accept", b"*/*")],
            BodyLength::Empty,
        )
        .unwrap();
    }
    let n = conn.output().len();
    assert!(n > 0);
    conn.consume_output(n);
    assert_eq!(conn.recv(response), response.len());
    let mut body = 0;
    loop {
        match conn.poll_event().unwrap() {
            ClientEvent::Response(r) => assert_eq!(r.status(), 200),
            ClientEvent::Data(d) => body += d.len(),
            ClientEvent::End(_) => break,
            other => panic!("{other:?}"),
        }
    }
    assert!(body > 0);
    assert!(matches!(conn.poll_event(), Ok(ClientEvent::Idle)));
}

#[test]
fn client_exchanges_allocate_nothing() {
    let mut cl =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nServer: s\r\nContent-Length: 1024\r\n\r\n"
            .to_vec();
    cl.extend_from_slice(&[b'z'; 1024]);
    let chunked =
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n";
    for (response, streamed) in [(&cl[..], false), (&chunked[..], true)] {
        let mut conn = ClientConn::new(Config::DEFAULT);
        for _ in 0..16 {
            fetch_one(&mut conn, response, streamed);
        }
        assert_eq!(
            allocations(|| (0..1000).for_each(|_| fetch_one(&mut conn, response, streamed))),
            0
        );
    }
}

/// A pooled client connection lends its buffers between uses: nothing is
/// allocated with take and restore around every exchange.
#[test]
fn client_lending_buffers_between_exchanges_allocates_nothing() {
    use http_net_conn::Buffers;
    let mut response =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1024\r\n\r\n".to_vec();
    response.extend_from_slice(&[b'z'; 1024]);
    let mut conn = ClientConn::new(Config::DEFAULT);
    let mut pool: Vec<Buffers> = Vec::with_capacity(1);
    let cycle = |conn: &mut ClientConn, pool: &mut Vec<Buffers>| {
        pool.push(conn.take_buffers().expect("idle between exchanges"));
        assert!(conn.spare_mut().is_empty());
        conn.restore_buffers(pool.pop().unwrap()).unwrap();
        fetch_one(conn, &response, false);
    };
    for _ in 0..16 {
        cycle(&mut conn, &mut pool);
    }
    assert_eq!(
        allocations(|| (0..1000).for_each(|_| cycle(&mut conn, &mut pool))),
        0
    );
}

#[test]
fn reset_serves_the_next_connection_without_allocating() {
    // A pool thread keeps one connection and resets it per accepted peer;
    // whatever the last peer left (an error mid-head, a request half read,
    // an answer half sent), the next one is served as by a new connection.
    let ok = PreparedResponse::new(200, &FIVE).unwrap();
    let mut answer = |c: &mut ServerConn| {
        assert_eq!(
            c.responder().respond(&ok, b"hello").unwrap(),
            Placement::Queued
        );
    };
    let mut conn = ServerConn::new(Config::DEFAULT);
    conn.set_wipe(true);
    let leftovers: [&dyn Fn(&mut ServerConn); 4] = [
        &|c| {
            assert_eq!(
                c.recv(b"GET / HTTP/1.1\r\nHost : a\r\n\r\n"),
                b"GET / HTTP/1.1\r\nHost : a\r\n\r\n".len()
            );
            assert!(c.poll_event().is_err());
        },
        &|c| {
            assert_eq!(
                c.recv(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc"),
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc".len()
            );
            assert!(matches!(c.poll_event(), Ok(ServerEvent::Request(_))));
        },
        &|c| {
            assert_eq!(
                c.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /next HTTP/1.1\r\nHo"),
                b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /next HTTP/1.1\r\nHo".len()
            );
            assert!(matches!(c.poll_event(), Ok(ServerEvent::Request(_))));
            let mut r = c.responder();
            r.send_head(200, &[], BodyLength::Streamed).unwrap();
            assert_eq!(r.send_data(&[b'x'; 9000]).unwrap(), Placement::AfterOutput);
        },
        &|c| {
            assert_eq!(c.recv(b"GET / HT"), b"GET / HT".len());
            assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
            c.time_out().unwrap();
        },
    ];
    let mut next = |conn: &mut ServerConn, leftover: &dyn Fn(&mut ServerConn)| {
        leftover(conn);
        conn.reset();
        assert_eq!(conn.phase(), Phase::Idle);
        assert_eq!(conn.output(), b"");
        assert_eq!(conn.output_queued(), 0);
        assert!(!conn.should_close());
        assert!(conn.request().is_none());
        serve_one(conn, GET, &mut answer);
    };
    for _ in 0..4 {
        for leftover in leftovers {
            next(&mut conn, leftover);
        }
    }
    assert_eq!(
        allocations(|| {
            for _ in 0..250 {
                for leftover in leftovers {
                    next(&mut conn, leftover);
                }
            }
        }),
        0
    );
    // What `new` would allocate instead, per connection.
    assert!(allocations(|| drop(ServerConn::new(Config::DEFAULT))) >= 4);
}

#[test]
fn client_reset_allocates_nothing() {
    let response = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc";
    let mut conn = ClientConn::new(Config::DEFAULT);
    let next = |conn: &mut ClientConn| {
        // A request left outstanding, a stray response byte.
        conn.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
            .unwrap();
        assert_eq!(conn.recv(b"HTTP/1.1 2"), b"HTTP/1.1 2".len());
        conn.reset();
        assert_eq!(conn.outstanding(), 0);
        assert_eq!(conn.output(), b"");
        assert!(matches!(conn.poll_event(), Ok(ClientEvent::Idle)));
        fetch_one(conn, response, false);
    };
    for _ in 0..16 {
        next(&mut conn);
    }
    assert_eq!(allocations(|| (0..1000).for_each(|_| next(&mut conn))), 0);
}

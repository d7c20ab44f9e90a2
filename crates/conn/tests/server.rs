//! Scripted server conversations: bytes in → events and bytes out, for every
//! rule of the server connection. Most run whole, one byte at a time and at
//! every split point.

mod common;

use common::*;
use http_net_conn::{
    BodyLength, Config, Error, LocalError, Phase, Placement, PreparedResponse, RemoteError,
    ServerConn, ServerEvent,
};

// proves: 9112-9.3-1, 9110-8.6-9, 9110-6.6.1-7, 9110-9.1-9
#[test]
fn get_answered_with_a_prebuilt_response_keeps_the_connection() {
    let t = serve_ok(b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(t.targets(), vec![b"/a".to_vec()]);
    assert_eq!(
        t.output_str(),
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    );
    assert!(!t.should_close);
    assert_eq!(t.phase, Phase::Idle);
    assert_eq!(t.events.last(), Some(&Got::NeedInput));
}

// proves: 9110-5.1-6b
#[test]
fn request_view_exposes_the_head() {
    let mut c = conn();
    let ev = read_request(
        &mut c,
        b"GET /p?q=1 HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nx-a: 2\r\n\r\n",
    );
    let Got::Request {
        method,
        target,
        version,
        fields,
        body,
    } = &ev[0]
    else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (method.as_slice(), target.as_slice()),
        (&b"GET"[..], &b"/p?q=1"[..])
    );
    assert_eq!(*version, http_net_head::Version::Http11);
    assert_eq!(fields.len(), 3);
    assert_eq!(*body, http_net_framing::BodyKind::None);
    let req = c.request().unwrap();
    assert_eq!(req.field(b"X-a"), Some(&b"1"[..]));
    assert_eq!(req.method(), http_net_head::Method::Get);
    assert_eq!(req.target_form(), http_net_head::TargetForm::Origin);
    assert_eq!(req.field_spans().len(), 3);
    assert_eq!(c.phase(), Phase::Responding);
    // The view stays until the response is complete.
    let (view, mut res) = c.parts();
    assert_eq!(view.unwrap().target(), b"/p?q=1");
    res.send_head(204, &[], BodyLength::Empty).unwrap();
    assert!(c.request().is_none());
}

// proves: 9112-6.1-4a, 9112-7.1-4, 9112-7.1.1-4, 9112-7.1.2-3a
#[test]
fn content_length_and_chunked_bodies_with_trailers() {
    let input = b"POST /u HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello\
POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;e=1\r\nde\r\n0\r\nX-Sum: 9\r\nY: z\r\n\r\n";
    let t = serve_ok(input);
    let n = normalize(&t.events);
    assert_eq!(t.targets(), vec![b"/u".to_vec(), b"/c".to_vec()]);
    assert_eq!(n[1], Got::Data(b"hello".to_vec()));
    assert_eq!(n[2], Got::End(vec![]));
    assert_eq!(n[4], Got::Data(b"abcde".to_vec()));
    assert_eq!(
        n[5],
        Got::End(vec![
            (b"X-Sum".to_vec(), b"9".to_vec()),
            (b"Y".to_vec(), b"z".to_vec())
        ])
    );
    assert_eq!(t.output_str().matches("HTTP/1.1 200 OK").count(), 2);
}

// proves: 9112-9.3.2-1
#[test]
fn pipelined_requests_wait_for_the_response() {
    let mut c = conn();
    feed(
        &mut c,
        b"GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    assert_eq!(Got::of(&c.poll_event().unwrap()).target(), Some(&b"/1"[..]));
    assert!(matches!(c.poll_event(), Ok(ServerEvent::End(_))));
    // Not answered yet: the second request waits in the buffer.
    for _ in 0..3 {
        assert!(matches!(c.poll_event(), Ok(ServerEvent::Paused)));
    }
    send_head(&mut c, 200, &[], BodyLength::Known(2));
    assert!(
        matches!(c.poll_event(), Ok(ServerEvent::Paused)),
        "body not sent yet"
    );
    send_queued(&mut c, b"hi");
    c.responder().send_end(&[]).unwrap();
    assert_eq!(Got::of(&c.poll_event().unwrap()).target(), Some(&b"/2"[..]));
}

// proves: 9112-9.5-4
#[test]
fn output_high_water_pauses_the_next_request() {
    let config = Config::DEFAULT.with_output_high_water(64);
    let mut c = ServerConn::new(config);
    accept_request(
        &mut c,
        b"GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::End(_))));
    let r = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        c.responder().respond(&r, &[b'x'; 100]).unwrap(),
        Placement::Queued
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Paused)));
    discard_output(&mut c);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Request(_))));
}

// proves: 9112-9.6-6a, 9112-9.6-6b, 9112-9.6-6c
#[test]
fn connection_persistence_rules() {
    // HTTP/1.1 with close: answered with Connection: close, then closed; the
    // pipelined second request is never surfaced (C69).
    let t = serve_ok(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /second HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(t.targets(), vec![b"/".to_vec()]);
    assert_eq!(
        t.output_str(),
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
    );
    assert!(t.should_close);
    assert_eq!(t.phase, Phase::Closed);
    assert_eq!(t.events.last(), Some(&Got::Closed));
    // HTTP/1.0 persists only with keep-alive, which is echoed (C70).
    let t = serve(b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.0\r\n\r\nGET /3 HTTP/1.0\r\n\r\n");
    assert_eq!(t.targets(), vec![b"/".to_vec(), b"/2".to_vec()]);
    assert_eq!(
        t.output_str(),
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok\
HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
    );
    assert!(t.should_close);
    // Connection tokens are compared as tokens.
    let t = serve(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: closed, x\r\n\r\n");
    assert!(!t.should_close);
    let t = serve(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: x, CLOSE\r\n\r\n");
    assert!(t.should_close);
}

// proves: 9112-9.6-1, 9112-9.6-7a, 9112-9.6-7b
#[test]
fn caller_connection_close_and_graceful_shutdown() {
    let mut c = conn();
    read_request(&mut c, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    send_head(&mut c, 200, &[(b"Connection", b"close")], BodyLength::Empty);
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    );
    assert!(c.should_close());
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));

    let mut c = conn();
    accept_request(
        &mut c,
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    c.close_after_response();
    assert!(c.should_close());
    answer_ok(&mut c);
    assert!(take_output(&mut c).contains("\r\nConnection: close\r\n"));
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));

    // An idle connection closes at once.
    let mut c = conn();
    c.close_after_response();
    assert_eq!(c.phase(), Phase::Closed);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
}

// proves: 9112-9.3-7a
#[test]
fn unread_body_is_drained_then_the_next_request_surfaces() {
    let input = b"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789\
POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n\
GET /c HTTP/1.1\r\nHost: x\r\n\r\n";
    // Answer at the head, before reading the body.
    let mut c = conn();
    let mut t = Transcript {
        events: vec![],
        output: vec![],
        should_close: false,
        phase: Phase::Idle,
    };
    for piece in input.chunks(7) {
        feed(&mut c, piece);
        loop {
            let got = Got::of(&c.poll_event().unwrap());
            t.events.push(got.clone());
            match got {
                Got::Request { .. } => answer_ok(&mut c),
                Got::NeedInput => break,
                Got::Data(_) | Got::End(_) => panic!("a drained body is not surfaced"),
                other => panic!("{other:?}"),
            }
        }
    }
    assert_eq!(
        t.targets(),
        vec![b"/a".to_vec(), b"/b".to_vec(), b"/c".to_vec()]
    );
    assert!(!c.should_close());
}

// proves: 9112-9.3-7a, 9110-10.1.1-13.4
#[test]
fn unread_body_past_the_drain_bound_closes() {
    let config = Config::DEFAULT.with_drain_limit(4);
    let mut c = ServerConn::new(config);
    accept_request(
        &mut c,
        b"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01",
    );
    answer_ok(&mut c);
    assert!(
        take_output(&mut c).contains("Connection: close"),
        "known in advance: said in the response"
    );
    assert!(c.should_close());
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
    // Chunked: discovered while draining.
    let mut c = ServerConn::new(config);
    accept_request(
        &mut c,
        b"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    answer_ok(&mut c);
    assert!(!c.should_close());
    feed(
        &mut c,
        b"a\r\n0123456789\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
    assert!(c.should_close());
}

// proves: 9110-10.1.1-13.3
#[test]
fn expect_100_continue_is_the_applications_call() {
    // The application sends 100, then reads the body.
    let mut c = conn();
    accept_request(
        &mut c,
        b"PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    c.responder().send_continue().unwrap();
    c.responder().send_continue().unwrap(); // once only
    assert_eq!(take_output(&mut c), "HTTP/1.1 100 Continue\r\n\r\n");
    feed(&mut c, b"hello");
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Data(b"hello"))));
    assert!(matches!(c.poll_event(), Ok(ServerEvent::End(_))));
    answer_ok(&mut c);
    assert!(!c.should_close());
    // Other expectations: 417 (RFC 9110 §10.1.1).
    assert_eq!(
        assert_rejected(b"PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue, x\r\nContent-Length: 5\r\n\r\nhello", 417, 0),
        RemoteError::UnsupportedExpectation
    );
    assert_rejected(
        b"PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n",
        417,
        0,
    );
}

// proves: 9110-7.8-5c
#[test]
fn upgrade_hands_over_the_buffered_bytes() {
    let mut c = conn();
    accept_request(&mut c, b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x80rest");
    send_head(
        &mut c,
        101,
        &[(b"Upgrade", b"websocket"), (b"Connection", b"Upgrade")],
        BodyLength::Empty,
    );
    assert_eq!(
        take_output(&mut c),
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
    );
    assert!(matches!(
        c.poll_event(),
        Ok(ServerEvent::Switched(b"\x81\x80rest"))
    ));
    assert!(matches!(
        c.poll_event(),
        Ok(ServerEvent::Switched(b"\x81\x80rest"))
    ));
    assert_eq!(c.phase(), Phase::Switched);
    assert!(c.spare_mut().is_empty());
    // A non-101 answer keeps HTTP.
    let t = serve(
        b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    assert_eq!(t.targets(), vec![b"/ws".to_vec(), b"/next".to_vec()]);
    // 101 without an offered upgrade is refused.
    let mut c = conn();
    read_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(
        c.responder().send_head(101, &[], BodyLength::Empty),
        Err(LocalError::UpgradeNotOffered.into())
    );
}

// proves: 9112-6.1-10b, 9110-8.6-8b, 9110-9.3.6-12a
#[test]
fn connect_2xx_switches_and_other_answers_keep_http() {
    let mut c = conn();
    accept_request(
        &mut c,
        b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n\x16\x03\x01",
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::End(_))));
    assert_eq!(
        c.responder()
            .respond(&PreparedResponse::new(200, &[]).unwrap(), b"ignored")
            .unwrap(),
        Placement::Queued
    );
    assert_eq!(take_output(&mut c), "HTTP/1.1 200 OK\r\n\r\n");
    assert!(matches!(
        c.poll_event(),
        Ok(ServerEvent::Switched(b"\x16\x03\x01"))
    ));
    let t = serve(b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
    // answer_ok is a 200: switched, the GET bytes belong to the tunnel.
    assert_eq!(
        t.events.last(),
        Some(&Got::Switched(
            b"GET / HTTP/1.1\r\nHost: a\r\n\r\n".to_vec()
        ))
    );
    let mut deny = |c: &mut ServerConn| {
        c.responder()
            .respond(&PreparedResponse::new(407, &[]).unwrap(), b"")
            .map(drop)
            .unwrap()
    };
    let t = serve_with(
        &mut conn(),
        &[b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"],
        false,
        &mut deny,
    );
    assert_eq!(t.requests(), 2);
}

// proves: 9110-5.3-6
#[test]
fn phases_follow_the_exchange() {
    let mut c = conn();
    assert_eq!(c.phase(), Phase::Idle);
    feed(&mut c, b"POST / HTTP/1.1\r\nHo");
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    assert_eq!(c.phase(), Phase::Head);
    accept_request(&mut c, b"st: a\r\nContent-Length: 2\r\n\r\n");
    assert_eq!(c.phase(), Phase::Body);
    feed(&mut c, b"ok");
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Data(_))));
    assert!(matches!(c.poll_event(), Ok(ServerEvent::End(_))));
    assert_eq!(c.phase(), Phase::Responding);
    answer_ok(&mut c);
    assert_eq!(c.phase(), Phase::Idle);
    feed(&mut c, b"\x01");
    assert!(c.poll_event().is_err());
    assert_eq!(c.phase(), Phase::Draining);
    assert!(
        c.spare_mut().is_empty(),
        "nothing more is read after an error"
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
}

// proves: 9112-6.3-2.6, 9112-9.5-2b
#[test]
fn end_of_input() {
    // Each input in one piece, then the end of input.
    let serve_to_eof = |input: &[u8]| serve_with(&mut conn(), &[input], true, &mut answer_ok);
    // Between requests: closed cleanly.
    let t = serve_to_eof(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(t.events.last(), Some(&Got::Closed));
    assert!(t.error().is_none());
    // Inside a head or a body: an error (RFC 9112 §8, C85).
    let t = serve_to_eof(b"GET / HTTP/1.1\r\nHo");
    assert_eq!(t.error(), Some(Error::Remote(RemoteError::UnexpectedEof)));
    let t = serve_to_eof(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc");
    assert_eq!(t.error(), Some(Error::Remote(RemoteError::UnexpectedEof)));
    assert!(t.should_close);
    assert!(t.output_str().starts_with("HTTP/1.1 400 Bad Request\r\n"));
}

#[test]
fn wipe_zeroes_consumed_input() {
    for wipe in [false, true] {
        let mut c = conn();
        c.set_wipe(wipe);
        let t = serve_with(
            &mut c,
            &[b"POST / HTTP/1.1\r\nHost: secret\r\nContent-Length: 6\r\n\r\nsecret"],
            false,
            &mut answer_ok,
        );
        assert_eq!(t.requests(), 1);
        let spare = c.spare_mut();
        let leaked = spare.windows(6).any(|w| w == b"secret");
        assert_eq!(leaked, !wipe, "wipe={wipe}");
        if wipe {
            assert!(spare.iter().all(|&b| b == 0));
        }
    }
}

// proves: 9110-15.5-1a
#[test]
fn error_response_names_the_rule() {
    let t = serve(b"GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n");
    let out = t.output_str();
    assert!(out.starts_with("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "), "{out}");
    let body = &out[out.find("\r\n\r\n").unwrap() + 4..];
    assert!(body.starts_with("400 Bad Request: "), "{body}");
    let len: usize = out["HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ".len()..]
        .split("\r\n")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(len, body.len());
}

#[test]
fn trailers_survive_a_read_between_the_last_data_and_the_end() {
    // Small buffer: the read after the last `Data` compacts. (Today the
    // decoder ends a message in a step without data, so `End` follows at
    // once; `spare_mut` also refuses to compact while an `End` with trailers
    // is due, for a decoder that would return both in one step.)
    let config = Config::DEFAULT
        .with_head_limits(http_net_head::HeadLimits::DEFAULT.with_max_head_bytes(200))
        .with_read_chunk(64);
    let mut c = ServerConn::new(config);
    accept_request(
        &mut c,
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    let mut tail = b"50\r\n".to_vec();
    tail.extend_from_slice(&[b'd'; 0x50]);
    tail.extend_from_slice(b"\r\n0\r\nX-Trailer: kept\r\n\r\n");
    feed(&mut c, &tail);
    let mut events = Vec::new();
    loop {
        let got = Got::of(&c.poll_event().unwrap());
        if matches!(got, Got::Data(_)) {
            // The adapter reads again before polling the end.
            assert!(c.spare_mut().len() >= 64, "room for a read");
            feed(&mut c, b"GET /next HTTP/1.1\r\nHost: a\r\n\r\n");
        }
        events.push(got.clone());
        if matches!(got, Got::End(_)) {
            break;
        }
    }
    assert_eq!(
        events.last(),
        Some(&Got::End(vec![(b"X-Trailer".to_vec(), b"kept".to_vec())]))
    );
    answer_ok(&mut c);
    assert_eq!(
        Got::of(&c.poll_event().unwrap()).target(),
        Some(&b"/next"[..])
    );
}

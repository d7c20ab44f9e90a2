//! Server side of every connection-related known attack on a server connection
//! (PIPE: pipelining and reuse desync; SM: state-machine confusion; UPG: Upgrade
//! and CONNECT confusion; SPLIT: response splitting through the writer; and the
//! DOS/MEM resource and overflow cases a connection bounds) as a
//! scripted conversation. Server rows run whole, one byte at a time and at
//! every split point; "400+close" rows assert the error, that no request is
//! surfaced after the faulty message, and that the connection must close.

mod common;

use common::*;
use http_net_conn::{
    BodyLength, ClientConn, Config, Error, LocalError, Phase, Placement, PreparedResponse,
    RemoteError, ServerConn, ServerEvent,
};

fn framing(e: http_net_framing::Error) -> RemoteError {
    RemoteError::Framing(e)
}

// ---------------------------------------------------------------- SM ----

// proves: 9112-5.2-4, 9112-2.2-9
#[test]
fn c35_obs_fold_in_a_request_is_400() {
    let e = assert_rejected(
        b"GET /hoge HTTP/1.1\r\nHost: ex\r\n\tample.com\r\nCookie: \r\n\r\n",
        400,
        0,
    );
    assert_eq!(e, RemoteError::Head(http_net_head::Error::ObsFold));
}

// proves: 9112-2.2-9
#[test]
fn c38_space_before_the_method_is_400() {
    assert_rejected(b" GET / HTTP/1.1\r\nfoo:bar\r\n\r\n", 400, 0);
}

// proves: 9112-2.2-9, 9112-3.2-4a
#[test]
fn c43_http09_request_is_400() {
    assert_rejected(b"GET /\r\n\r\n", 400, 0);
}

// proves: 9112-2.2-9
#[test]
fn c54_whitespace_before_a_chunk_size_is_400_after_the_head() {
    let e = assert_rejected(
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n           0\r\n\r\nGET /x HTTP/1.1\r\nHost: a\r\n\r\n",
        400,
        1,
    );
    assert!(matches!(e, RemoteError::Framing(_)));
}

// proves: 9112-7.1.1-4, 9110-5.6.3-5b
#[test]
fn c56_c57_chunk_extensions_are_accepted() {
    for input in [
        &b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2 ; ext=1\r\naa\r\n0\r\n\r\n"[..],
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;a=\"x;\\\"y\"\r\naa\r\n0\r\n\r\n",
    ] {
        let t = serve_ok(input);
        assert_eq!(t.error(), None);
        assert_eq!(t.body(), b"aa");
        assert!(!t.should_close);
    }
}

// proves: 9112-7.1.2-3a, 9112-7.1.2-3b, 9110-6.5.1-3
#[test]
fn c61_trailers_are_delivered_apart_and_never_reframe() {
    let input = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nContent-Length: 50\r\nHost: evil\r\n\r\n\
GET /next HTTP/1.1\r\nHost: a\r\n\r\n";
    let t = serve_ok(input);
    // Delivered as trailers only: the head keeps its Host, and the next
    // request is read with its own framing.
    assert_eq!(t.error(), None);
    let n = normalize(&t.events);
    let Got::Request { fields, .. } = &n[0] else {
        panic!()
    };
    assert!(fields.contains(&(b"Host".to_vec(), b"a".to_vec())));
    assert!(!fields.iter().any(|(_, v)| v == b"evil"));
    assert_eq!(
        n[1],
        Got::End(vec![
            (b"Content-Length".to_vec(), b"50".to_vec()),
            (b"Host".to_vec(), b"evil".to_vec())
        ])
    );
    assert_eq!(t.targets(), vec![b"/".to_vec(), b"/next".to_vec()]);
}

// -------------------------------------------------------------- PIPE ----

// proves: 9112-2.2-9
#[test]
fn c62_a_framing_error_is_terminal() {
    assert_rejected(
        b"POST / HTTP/1.1\r\nHost: whatever\r\nTransfer-Encoding: chunked\r\n\r\nINVALID!!!\r\nGET / HTTP/1.1\r\nHost: whatever\r\n\r\n",
        400,
        1,
    );
}

#[test]
fn c63_a_stray_byte_after_a_message_is_a_bad_next_request() {
    let e = assert_rejected(
        b"GET / HTTP/1.1\r\nHost: whatever\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n\x00",
        400,
        1,
    );
    assert!(matches!(e, RemoteError::Head(_)));
}

// proves: 9112-9.3-7a
#[test]
fn c64_a_get_body_is_framed_by_its_content_length() {
    let t = serve_ok(b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 35\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(t.targets(), vec![b"/".to_vec()]);
    assert_eq!(t.body(), b"GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n");
    // Unread (answered at the head): drained, still never a request.
    let at_head = |c: &mut ServerConn| answer_ok(c);
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 35\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n");
    at_head(&mut c);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::NeedInput)));
    assert_eq!(c.phase(), Phase::Idle);
}

#[test]
fn c65_content_length_zero_leaves_the_next_request() {
    let t = serve_ok(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(t.targets(), vec![b"/".to_vec(), b"/next".to_vec()]);
    assert_eq!(t.body(), b"");
}

#[test]
fn c66_body_over_the_budget_is_413_and_close() {
    let config = Config::DEFAULT
        .with_body_limits(http_net_framing::BodyLimits::DEFAULT.with_body_budget(10));
    let e = assert_rejected_with(
        config,
        b"POST /one HTTP/1.1\r\nHost: t\r\nContent-Length: 12\r\n\r\nBBBBBBBBBBBBGET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n",
        413,
        0,
    );
    assert_eq!(e, framing(http_net_framing::Error::BodyTooLarge));
    // Chunked: discovered in the body.
    let e = assert_rejected_with(
        config,
        b"POST /one HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nc\r\nBBBBBBBBBBBB\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n",
        413,
        1,
    );
    assert_eq!(e, framing(http_net_framing::Error::BodyTooLarge));
}

// proves: 9110-10.1.1-13.4, 9112-9.3-7a, 9112-9.6-7a
#[test]
fn c67_final_answer_before_100_continue_closes() {
    let input = b"PUT /big HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhelloGET /x HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, input);
    assert_eq!(
        c.responder()
            .respond(&PreparedResponse::new(413, &[]).unwrap(), b"")
            .unwrap(),
        Placement::Queued
    );
    let mut out = Vec::new();
    flush(&mut c, &mut out);
    let out = String::from_utf8(out).unwrap();
    assert!(!out.contains("100 Continue"));
    assert!(out.starts_with("HTTP/1.1 413 Content Too Large\r\n"));
    assert!(
        out.contains("\r\nConnection: close\r\n"),
        "says which: {out}"
    );
    assert!(c.should_close());
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
}

// proves: 9112-9.6-6a, 9112-9.6-6c
#[test]
fn c69_nothing_is_processed_after_close() {
    let t = serve_ok(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /second HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(t.requests(), 1);
    assert!(t.should_close);
    assert_eq!(t.output_str().matches("HTTP/1.1 ").count(), 1);
}

// proves: 9112-9.3.2-1
#[test]
fn c71_c72_pipelined_requests_are_answered_in_order_and_none_is_lost() {
    let input = b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\nGET /fast HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut answer = |c: &mut ServerConn| {
        let target = c.request().unwrap().target().to_vec();
        send_head(c, 200, &[(b"X-For", &target)], BodyLength::Empty);
    };
    let t = serve_all_ways(Config::DEFAULT, input, false, &mut answer);
    assert_eq!(t.targets(), vec![b"/slow".to_vec(), b"/fast".to_vec()]);
    let out = t.output_str();
    assert!(out.find("X-For: /slow").unwrap() < out.find("X-For: /fast").unwrap());
    // The second request is not surfaced before the first is answered.
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, input);
    assert!(matches!(c.poll_event(), Ok(ServerEvent::End(_))));
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Paused)));
}

// proves: 9112-9.5-4
#[test]
fn c84_pipelining_is_bounded_when_the_peer_does_not_read() {
    let config = Config::DEFAULT.with_output_high_water(1024);
    let mut c = ServerConn::new(config);
    let one = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut answered = 0;
    let mut paused = false;
    for _ in 0..1000 {
        if c.recv(one) == 0 {
            break;
        }
        loop {
            match c.poll_event().unwrap() {
                ServerEvent::End(_) => {
                    answer_ok(&mut c);
                    answered += 1;
                }
                ServerEvent::Paused => {
                    paused = true;
                    break;
                }
                ServerEvent::Request(_) => {}
                _ => break,
            }
        }
        // The peer never reads: output stays under the mark plus one answer.
        assert!(c.output_queued() <= 1024 + 64);
    }
    assert!(paused);
    assert!(answered < 1000);
    assert!(
        c.spare_mut().len() < 1000 * one.len(),
        "input is bounded too"
    );
}

// proves: 9112-6.3-2.6
#[test]
fn c85_end_of_input_inside_a_body_is_an_error_not_a_spin() {
    let t = serve_with(
        &mut ServerConn::new(Config::DEFAULT),
        &[b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc"],
        true,
        &mut answer_ok,
    );
    assert_eq!(t.error(), Some(Error::Remote(RemoteError::UnexpectedEof)));
    assert!(t.should_close);
}

#[test]
fn c88_many_small_reads_end_exactly_at_the_length() {
    let mut input = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', 100_000));
    input.extend_from_slice(b"GET /next HTTP/1.1\r\nHost: a\r\n\r\n");
    let pieces: Vec<&[u8]> = input.chunks(7).collect();
    let t = serve_with(
        &mut ServerConn::new(Config::DEFAULT),
        &pieces,
        false,
        &mut answer_ok,
    );
    assert_eq!(t.body().len(), 100_000);
    assert_eq!(t.targets(), vec![b"/".to_vec(), b"/next".to_vec()]);
}

// --------------------------------------------------------------- UPG ----

#[test]
fn c44_http2_preface_is_505() {
    assert_rejected(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505, 0);
}

#[test]
fn c92_only_a_101_switches() {
    let input = b"GET /socket HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 1337\r\n\r\nGET /internal HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut refuse = |c: &mut ServerConn| send_head(c, 426, &[], BodyLength::Empty);
    let t = serve_all_ways(Config::DEFAULT, input, false, &mut refuse);
    assert_eq!(
        t.targets(),
        vec![b"/socket".to_vec(), b"/internal".to_vec()]
    );
    assert!(!t.events.iter().any(|e| matches!(e, Got::Switched(_))));
}

#[test]
fn c93_bytes_after_the_upgrade_head_are_handed_over() {
    let input = b"GET /chat HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n\x81\x80\x00\x00\x00\x00";
    let mut accept = |c: &mut ServerConn| {
        c.responder()
            .send_head(
                101,
                &[(b"Upgrade", b"websocket"), (b"Connection", b"Upgrade")],
                BodyLength::Empty,
            )
            .unwrap()
    };
    // Whole: every byte after the head is handed over. (Split, the bytes not
    // yet received when HTTP ends are read by the new protocol's owner.)
    let t = serve_with(
        &mut ServerConn::new(Config::DEFAULT),
        &[input],
        false,
        &mut accept,
    );
    assert_eq!(
        t.events.last(),
        Some(&Got::Switched(b"\x81\x80\x00\x00\x00\x00".to_vec()))
    );
    assert_eq!(t.phase, Phase::Switched);
    // Answered at the head (as the std adapter does): `Switched` stands for the end.
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, input);
    accept(&mut c);
    assert!(matches!(
        c.poll_event(),
        Ok(ServerEvent::Switched(b"\x81\x80\x00\x00\x00\x00"))
    ));
}

#[test]
fn c94_the_upgrade_request_body_comes_first() {
    let input = b"POST /up HTTP/1.1\r\nHost: a\r\nUpgrade: foo/2\r\nConnection: Upgrade\r\nContent-Length: 5\r\n\r\nhello\x00\x01";
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, input);
    send_head(
        &mut c,
        101,
        &[(b"Upgrade", b"foo/2"), (b"Connection", b"Upgrade")],
        BodyLength::Empty,
    );
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Data(b"hello"))));
    assert!(matches!(
        c.poll_event(),
        Ok(ServerEvent::Switched(b"\x00\x01"))
    ));
}

// proves: 9110-7.8-5c
#[test]
fn c95_connection_upgrade_without_upgrade_is_no_upgrade() {
    let input = b"POST / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nContent-Length: 5\r\n\r\nhelloGET /next HTTP/1.1\r\nHost: a\r\n\r\n";
    let t = serve_ok(input);
    assert_eq!(t.targets(), vec![b"/".to_vec(), b"/next".to_vec()]);
    assert_eq!(t.body(), b"hello");
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, input);
    assert_eq!(
        c.responder().send_head(101, &[], BodyLength::Empty),
        Err(LocalError::UpgradeNotOffered.into())
    );
}

// proves: 9110-7.8-14b
#[test]
fn c96_upgrade_in_http10_is_ignored() {
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(
        &mut c,
        b"GET / HTTP/1.0\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    );
    assert_eq!(
        c.responder().send_head(101, &[], BodyLength::Empty),
        Err(LocalError::UpgradeNotOffered.into())
    );
    assert_eq!(c.output(), b"");
}

// proves: 9110-9.3.6-4
#[test]
fn c97_connect_has_no_content_and_needs_authority_form() {
    let e = assert_rejected(
        b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\nContent-Length: 5\r\n\r\nhello",
        400,
        0,
    );
    assert_eq!(e, RemoteError::ConnectWithContent);
    assert_rejected(b"CONNECT / HTTP/1.1\r\nHost: a\r\n\r\n", 400, 0);
    // Tunnel data only after a 2xx; otherwise the connection stays HTTP.
    let input = b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut deny = |c: &mut ServerConn| send_head(c, 403, &[], BodyLength::Empty);
    let t = serve_all_ways(Config::DEFAULT, input, false, &mut deny);
    assert_eq!(t.requests(), 2);
}

// ------------------------------------------------------------- SPLIT ----

// proves: 9112-2.2-4a, 9112-5.2-3, 9110-6.5.1-2
#[test]
fn c113_field_values_with_line_breaks_are_refused() {
    let mut c = answering();
    for v in [
        &b"x\r\nSet-Cookie: evil=1"[..],
        b"x\nSet-Cookie: evil=1",
        b"x\rSet-Cookie: evil=1",
        b"x\0y",
    ] {
        assert_eq!(
            c.responder()
                .send_head(200, &[(b"X", v)], BodyLength::Empty),
            Err(LocalError::InvalidFieldValue.into())
        );
        assert_eq!(
            PreparedResponse::new(200, &[(b"X", v)]),
            Err(LocalError::InvalidFieldValue)
        );
        assert_eq!(
            c.responder().send_informational(103, &[(b"X", v)]),
            Err(LocalError::InvalidFieldValue.into())
        );
    }
    assert_eq!(
        c.responder()
            .send_head(200, &[(b"X\r\nY", b"1")], BodyLength::Empty),
        Err(LocalError::InvalidFieldName.into())
    );
    // Trailers too.
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    assert_eq!(
        c.responder().send_end(&[(b"X", b"a\r\nb")]),
        Err(LocalError::InvalidFieldValue.into())
    );
    assert_eq!(
        c.responder().send_end(&[(b"Content-Length", b"5")]),
        Err(LocalError::ForbiddenTrailerField.into())
    );
    assert_eq!(
        c.output(),
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
}

// proves: 9112-2.2-4a
#[test]
fn c114_reason_phrases_with_line_breaks_are_refused() {
    assert_eq!(
        PreparedResponse::with_reason(200, b"OK\r\nSet-Cookie: x=y", &[]),
        Err(LocalError::InvalidReason)
    );
    assert_eq!(
        PreparedResponse::with_reason(200, b"OK\n", &[]),
        Err(LocalError::InvalidReason)
    );
    assert!(PreparedResponse::with_reason(200, b"Fine \t\x80", &[]).is_ok());
}

// proves: 9112-3.2-5a, 9110-7.2-4a, 9112-2.2-4a
#[test]
fn c115_request_line_and_host_injection_is_refused() {
    let mut c = ClientConn::new(Config::DEFAULT);
    let host: &[(&[u8], &[u8])] = &[(b"Host", b"a")];
    for (m, t) in [
        (&b"GET"[..], &b"/a HTTP/1.1\r\nX-Injected: 1\r\nY: "[..]),
        (b"GET", b"/a b"),
        (b"GET", b"/\xc3\xa9"),
        (b"GET /x HTTP/1.1\r\n", b"/"),
        (b"G E", b"/"),
        (b"", b"/"),
    ] {
        assert_eq!(
            c.send_request(m, t, host, BodyLength::Empty),
            Err(LocalError::InvalidRequestLine.into()),
            "{t:?}"
        );
    }
    for fields in [
        &[(&b"Host"[..], &b"a\r\nX: 1"[..])][..],
        &[(b"Host", b"google.com\x00.evil")],
    ] {
        assert_eq!(
            c.send_request(b"GET", b"/", fields, BodyLength::Empty),
            Err(LocalError::InvalidFieldValue.into())
        );
    }
    assert_eq!(
        c.send_request(b"GET", b"/", &[(b"Host", b"a/b")], BodyLength::Empty),
        Err(LocalError::InvalidHost.into())
    );
    assert_eq!(
        c.send_request(b"GET", b"/", &[], BodyLength::Empty),
        Err(LocalError::InvalidHost.into())
    );
    assert_eq!(
        c.send_request(
            b"GET",
            b"/",
            &[(b"Host", b"a"), (b"Host", b"b")],
            BodyLength::Empty
        ),
        Err(LocalError::InvalidHost.into())
    );
    assert_eq!(c.output(), b"");
    assert_eq!(c.outstanding(), 0);
}

// proves: 9110-9.3.2-1, 9112-6.1-10a, 9112-6.1-10b, 9110-8.6-8a, 9110-8.6-8b, 9110-9.3.6-12a, 9112-6.1-13b
#[test]
fn c116_no_framing_where_it_is_forbidden() {
    // HEAD with a streamed body: no body bytes.
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n");
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    send_queued(&mut c, b"body");
    c.responder().send_end(&[]).unwrap();
    assert!(!c.output().ends_with(b"body"));
    assert!(!String::from_utf8_lossy(c.output()).contains("0\r\n\r\n"));
    // 204: no Content-Length, no Transfer-Encoding, no body.
    let mut c = answering();
    send_head(&mut c, 204, &[], BodyLength::Streamed);
    send_queued(&mut c, b"body");
    c.responder().send_end(&[]).unwrap();
    assert_eq!(c.output(), b"HTTP/1.1 204 No Content\r\n\r\n");
    // HTTP/1.0: close-delimited, never chunked.
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, b"GET / HTTP/1.0\r\n\r\n");
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    assert_eq!(
        c.responder().send_head(200, &[], BodyLength::Streamed),
        Err(LocalError::WrongState.into())
    );
    send_queued(&mut c, b"body");
    c.responder().send_end(&[]).unwrap();
    assert_eq!(
        c.output(),
        b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nbody"
    );
    // A caller's Transfer-Encoding toward HTTP/1.0 is refused.
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, b"GET / HTTP/1.0\r\n\r\n");
    assert_eq!(
        c.responder().send_head(
            200,
            &[(b"Transfer-Encoding", b"chunked")],
            BodyLength::Streamed
        ),
        Err(LocalError::ConflictingFraming.into())
    );
    // 2xx to CONNECT: no framing.
    let mut c = ServerConn::new(Config::DEFAULT);
    accept_request(&mut c, b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n");
    assert_eq!(
        c.responder()
            .send_head(200, &[(b"Content-Length", b"0")], BodyLength::Empty),
        Err(LocalError::ConflictingFraming.into())
    );
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    assert_eq!(c.output(), b"HTTP/1.1 200 OK\r\n\r\n");
}

// proves: 9110-8.6-12
#[test]
fn c117_a_short_body_aborts_the_connection() {
    let mut c = answering();
    send_head(&mut c, 200, &[], BodyLength::Known(10));
    send_queued(&mut c, b"1234");
    assert_eq!(
        c.responder().send_end(&[]),
        Err(LocalError::BodyUnderrun.into())
    );
    assert!(c.should_close());
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
    // Client side too.
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"POST", b"/", &[(b"Host", b"a")], BodyLength::Known(10))
        .unwrap();
    assert_eq!(c.send_data(b"1234").unwrap(), Placement::Queued);
    assert_eq!(c.send_end(&[]), Err(LocalError::BodyUnderrun.into()));
    assert!(c.should_close());
}

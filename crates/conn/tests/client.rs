//! Scripted client conversations: requests in → bytes out; response bytes in
//! → events out (whole, one byte at a time, every split).

mod common;

use common::*;
use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, Error, LocalError, Placement, RemoteError,
    COPY_LIMIT,
};
use http_net_framing::BodyKind;

// proves: 9112-2.2-5a, 9112-6.3-6, 9112-6.3-7a, 9110-8.6-5a, 9110-8.6-5b, 9110-6.2-5a, 9110-6.2-5b
#[test]
fn requests_are_written_with_their_framing() {
    let mut c = ClientConn::new(Config::DEFAULT);
    let host: &[(&[u8], &[u8])] = &[(b"Host", b"a.example")];
    c.send_request(b"GET", b"/", host, BodyLength::Empty)
        .unwrap();
    assert_eq!(
        take_output(&mut c),
        "GET / HTTP/1.1\r\nHost: a.example\r\n\r\n"
    );
    c.send_request(b"POST", b"/f?x=1", host, BodyLength::Empty)
        .unwrap();
    assert_eq!(
        take_output(&mut c),
        "POST /f?x=1 HTTP/1.1\r\nHost: a.example\r\nContent-Length: 0\r\n\r\n"
    );
    c.send_request(b"PUT", b"/u", host, BodyLength::Known(5))
        .unwrap();
    assert_eq!(
        c.send_request(b"GET", b"/", host, BodyLength::Empty),
        Err(LocalError::WrongState.into())
    );
    assert_eq!(c.send_data(b"hel").unwrap(), Placement::Queued);
    assert_eq!(c.send_data(b"loo"), Err(LocalError::BodyOverrun.into()));
    assert_eq!(c.send_data(b"lo").unwrap(), Placement::Queued);
    c.send_end(&[]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "PUT /u HTTP/1.1\r\nHost: a.example\r\nContent-Length: 5\r\n\r\nhello"
    );
    c.send_request(b"POST", b"http://a.example/s", host, BodyLength::Streamed)
        .unwrap();
    assert_eq!(c.send_data(b"abc").unwrap(), Placement::Queued);
    c.send_end(&[(b"X-Sum", b"3")]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "POST http://a.example/s HTTP/1.1\r\nHost: a.example\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Sum: 3\r\n\r\n"
    );
    c.send_request(b"OPTIONS", b"*", host, BodyLength::Empty)
        .unwrap();
    assert_eq!(
        take_output(&mut c),
        "OPTIONS * HTTP/1.1\r\nHost: a.example\r\n\r\n"
    );
    assert_eq!(c.outstanding(), 5);
}

// proves: 9112-6.1-4c, 9112-6.2-2
#[test]
fn caller_framing_fields_must_agree() {
    let mut c = ClientConn::new(Config::DEFAULT);
    let conflict = Err(Error::Local(LocalError::ConflictingFraming));
    assert_eq!(
        c.send_request(
            b"POST",
            b"/",
            &[(b"Host", b"a"), (b"Content-Length", b"4")],
            BodyLength::Known(5)
        ),
        conflict
    );
    assert_eq!(
        c.send_request(
            b"POST",
            b"/",
            &[(b"Host", b"a"), (b"Content-Length", b"4")],
            BodyLength::Streamed
        ),
        conflict
    );
    assert_eq!(
        c.send_request(
            b"POST",
            b"/",
            &[(b"Host", b"a"), (b"Transfer-Encoding", b"gzip")],
            BodyLength::Streamed
        ),
        conflict
    );
    assert_eq!(
        c.send_request(
            b"CONNECT",
            b"a:1",
            &[(b"Host", b"a:1")],
            BodyLength::Known(1)
        ),
        conflict
    );
    assert_eq!(c.output(), b"");
    c.send_request(
        b"POST",
        b"/",
        &[(b"Host", b"a"), (b"Content-Length", b"2")],
        BodyLength::Known(2),
    )
    .unwrap();
    assert_eq!(c.send_data(b"ok").unwrap(), Placement::Queued);
    c.send_end(&[]).unwrap();
    assert_eq!(
        take_output(&mut c),
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok"
    );
}

#[test]
fn large_request_bodies_are_left_to_the_caller() {
    let mut c = ClientConn::new(Config::DEFAULT);
    let big = vec![b'x'; COPY_LIMIT * 2];
    c.send_request(
        b"POST",
        b"/",
        &[(b"Host", b"a")],
        BodyLength::Known(big.len() as u64),
    )
    .unwrap();
    assert_eq!(c.send_data(&big).unwrap(), Placement::AfterOutput);
    c.send_end(&[]).unwrap();
    assert_eq!(
        c.output(),
        format!(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n",
            big.len()
        )
        .as_bytes()
    );
    assert_eq!(c.body_owed(), Some(big.len() as u64));
    discard_output(&mut c);
    assert_eq!(c.body_owed(), None);
}

// proves: 9112-9.2-2a, 9112-9.2-2b, 9112-9.3-7b
#[test]
fn pipelined_responses_are_matched_in_order() {
    let requests: &[(&[u8], &[u8])] = &[(b"GET", b"/1"), (b"HEAD", b"/2"), (b"GET", b"/3")];
    let input = b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nA\
HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n\
HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nC\r\n0\r\nX-T: 1\r\n\r\n";
    let ev = normalize_c(&fetch_all_ways(requests, input, false));
    let bodies: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            GotC::Data(d) => Some(d.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(bodies, vec![b"A".to_vec(), b"C".to_vec()]);
    assert_eq!(ev.iter().filter(|e| matches!(e, GotC::End(_))).count(), 3);
    assert_eq!(
        ev.last(),
        Some(&GotC::End(vec![(b"X-T".to_vec(), b"1".to_vec())]))
    );
    let mut c = client_with(requests);
    fetch_with(&mut c, &[input], false);
    assert_eq!(c.outstanding(), 0);
    assert!(!c.should_close());
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Idle)));
}

// proves: 9112-9.6-5a, 9112-9.6-5b, 9112-9.6-8a
#[test]
fn persistence_follows_the_response() {
    for (input, close) in [
        (&b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"[..], false),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            true,
        ),
        (b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", true),
        (
            b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n",
            false,
        ),
    ] {
        let mut c = client_with(&[(b"GET", b"/")]);
        let ev = fetch_with(&mut c, &[input], false);
        assert!(ev.contains(&GotC::End(vec![])));
        assert_eq!(
            c.should_close(),
            close,
            "{:?}",
            String::from_utf8_lossy(input)
        );
        if close {
            assert_eq!(
                c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty),
                Err(LocalError::WrongState.into())
            );
        }
    }
    // The request asked to close: no more requests after it.
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(
        b"GET",
        b"/",
        &[(b"Host", b"a"), (b"Connection", b"close")],
        BodyLength::Empty,
    )
    .unwrap();
    assert_eq!(
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty),
        Err(LocalError::PipelineFull.into())
    );
    fetch_with(
        &mut c,
        &[b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"],
        false,
    );
    assert!(c.should_close());
}

// proves: 9112-8-2
#[test]
fn end_of_input() {
    // Idle: a clean close.
    let ev = fetch_with(&mut client_with(&[]), &[], true);
    assert_eq!(ev, vec![GotC::Closed]);
    // Waiting for a response: an error.
    let ev = fetch_with(
        &mut client_with(&[(b"GET", b"/")]),
        &[b"HTTP/1.1 200"],
        true,
    );
    assert_eq!(client_error(&ev), Some(RemoteError::UnexpectedEof));
    let ev = fetch_with(&mut client_with(&[(b"GET", b"/")]), &[], true);
    assert_eq!(client_error(&ev), Some(RemoteError::UnexpectedEof));
}

/// A TLS server's alert to a plain request (RFC 8446 §5.1 record header):
/// an error of its own, whose text says a TLS server answered and what to
/// do, not "malformed head"; the same however the bytes are split.
#[test]
fn a_tls_record_for_an_answer_says_the_server_speaks_https() {
    let alert = b"\x15\x03\x03\x00\x02\x02\x46";
    let e = client_error(&fetch_all_ways(&[(b"GET", b"/")], alert, false));
    assert_eq!(e, Some(RemoteError::Head(http_net_head::Error::TlsRecord)));
    assert_eq!(
        Error::Remote(RemoteError::Head(http_net_head::Error::TlsRecord)).to_string(),
        "peer error: the server answered with a TLS record, not a status line: \
         it speaks HTTPS on this port; use an https:// URL (RFC 8446 §5.1)"
    );
}

#[test]
fn head_of_a_response_is_exposed() {
    let mut c = client_with(&[(b"GET", b"/")]);
    feed(
        &mut c,
        b"HTTP/1.1 404 Nope\r\nX-A: 1\r\nContent-Length: 0\r\n\r\n",
    );
    match c.poll_event().unwrap() {
        ClientEvent::Response(r) => {
            assert_eq!((r.status(), r.reason()), (404, &b"Nope"[..]));
            assert_eq!(r.field(b"x-a"), Some(&b"1"[..]));
            assert_eq!(r.version(), http_net_head::Version::Http11);
            assert_eq!(r.body_kind(), BodyKind::Length(0));
            assert_eq!(r.head().status, 404);
        }
        other => panic!("{other:?}"),
    }
}

/// A response whose codings do not end in `chunked` is read until close
/// with the codings left on: the view names them, for the caller to decode
/// or refuse; a chunked body carries none once conn has removed `chunked`.
// proves: policy-client-transfer-coding
#[test]
fn transfer_codings_left_on_the_body_are_named() {
    let mut c = client_with(&[(b"GET", b"/")]);
    assert_eq!(c.recv(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip ; q=x\r\nTransfer-Encoding: , br\r\n\r\n\x1f\x8b"), b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip ; q=x\r\nTransfer-Encoding: , br\r\n\r\n\x1f\x8b".len());
    match c.poll_event().unwrap() {
        ClientEvent::Response(r) => {
            assert_eq!(r.body_kind(), BodyKind::CloseDelimited);
            let codings: Vec<&[u8]> = r.transfer_codings().collect();
            assert_eq!(codings, [&b"gzip"[..], &b"br"[..]]);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        c.poll_event().unwrap(),
        ClientEvent::Data(b"\x1f\x8b")
    ));
    for head in [
        &b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"[..],
        b"HTTP/1.1 200 OK\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    ] {
        let mut c = client_with(&[(b"GET", b"/")]);
        feed(&mut c, head);
        match c.poll_event().unwrap() {
            ClientEvent::Response(r) => assert_eq!(r.transfer_codings().count(), 0),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn pipeline_depth_is_bounded() {
    let mut c = ClientConn::new(Config::DEFAULT);
    for _ in 0..http_net_conn::MAX_PIPELINED {
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
            .unwrap();
    }
    assert_eq!(
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty),
        Err(LocalError::PipelineFull.into())
    );
}

#[test]
fn send_end_after_a_switch_is_a_no_op() {
    let mut c = connecting(b"a.example:443");
    take_output(&mut c);
    feed(
        &mut c,
        b"HTTP/1.1 200 Connection Established\r\n\r\n\x16\x03",
    );
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Response(_))));
    assert!(matches!(
        c.poll_event(),
        Ok(ClientEvent::Switched(b"\x16\x03"))
    ));
    assert_eq!(c.send_end(&[]), Ok(()));
    assert_eq!(
        c.send_end(&[(b"X", b"1")]),
        Err(LocalError::WrongState.into())
    );
    assert_eq!(c.output(), b"");
}

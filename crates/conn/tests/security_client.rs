//! The client-side attacks (CLI: hostile or ambiguous responses), plus the
//! client half of the SPLIT rows, as scripted conversations: response bytes
//! run whole, one byte at a time and at every split point.

mod common;

use common::*;
use http_net_conn::{BodyLength, ClientConn, Config, Error, LocalError, RemoteError};
use http_net_framing::BodyKind;

fn framing(e: http_net_framing::Error) -> RemoteError {
    RemoteError::Framing(e)
}

// --------------------------------------------------------------- CLI ----

const GET: &[(&[u8], &[u8])] = &[(b"GET", b"/")];

#[test]
fn c55_spaces_after_a_chunk_size_are_an_error() {
    let ev = fetch_all_ways(
        GET,
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3  \r\nabc\r\n0\r\n\r\n",
        false,
    );
    assert!(
        matches!(client_error(&ev), Some(RemoteError::Framing(_))),
        "{ev:?}"
    );
}

// proves: 9112-9.2-3a
#[test]
fn c73_a_response_with_no_request_outstanding_is_an_error() {
    let ev = fetch_all_ways(
        &[],
        b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
        false,
    );
    assert_eq!(client_error(&ev), Some(RemoteError::UnsolicitedResponse));
    assert!(!ev.iter().any(|e| matches!(e, GotC::Response { .. })));
}

// proves: 9112-9.2-3a, 9112-9.2-3b
#[test]
fn c73_stale_bytes_are_never_the_next_requests_response() {
    // A 408 arrives on an idle pooled connection; the application then sends
    // a request before polling: the 408 is not its response.
    let mut c = ClientConn::new(Config::DEFAULT);
    feed(
        &mut c,
        b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
    );
    assert_eq!(
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty),
        Err(Error::Remote(RemoteError::UnsolicitedResponse))
    );
    assert_eq!(c.output(), b"", "nothing was sent");
    assert!(c.should_close());
    assert!(matches!(
        c.poll_event(),
        Ok(http_net_conn::ClientEvent::Closed)
    ));
}

// proves: 9112-6.3-2.2, 9110-9.3.6-12b
#[test]
fn c98_a_2xx_to_connect_starts_the_tunnel_after_the_head() {
    let mut c = connecting(b"a:443");
    assert_eq!(c.output(), b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n");
    let ev = fetch_with(
        &mut c,
        &[b"HTTP/1.1 200 Connection established\r\nContent-Length: 10\r\n\r\n\x16\x03\x01"],
        false,
    );
    assert!(
        matches!(
            &ev[0],
            GotC::Response {
                status: 200,
                body: BodyKind::Tunnel,
                ..
            }
        ),
        "{ev:?}"
    );
    assert_eq!(ev[1], GotC::Switched(b"\x16\x03\x01".to_vec()));
    assert!(c.should_close());
    assert_eq!(
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty),
        Err(LocalError::WrongState.into())
    );
}

#[test]
fn c99_content_length_with_transfer_encoding_is_an_error() {
    let ev = fetch_all_ways(GET, b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", false);
    assert_eq!(
        client_error(&ev),
        Some(framing(
            http_net_framing::Error::ContentLengthWithTransferEncoding
        ))
    );
    assert!(!ev.iter().any(|e| matches!(e, GotC::Data(_))));
}

#[test]
fn c100_a_head_response_has_no_body() {
    let input = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    for requests in [
        &[(&b"HEAD"[..], &b"/"[..])][..],
        &[(b"HEAD", b"/"), (b"GET", b"/")],
    ] {
        let ev = fetch_all_ways(requests, input, false);
        assert!(
            matches!(
                &ev[0],
                GotC::Response {
                    status: 200,
                    body: BodyKind::None,
                    ..
                }
            ),
            "{ev:?}"
        );
        assert_eq!(ev[1], GotC::End(vec![]));
        assert!(
            client_error(&ev).is_some(),
            "`hello` is not a response: {ev:?}"
        );
        assert!(!ev.iter().any(|e| matches!(e, GotC::Data(_))));
    }
}

#[test]
fn c101_bodiless_statuses_have_no_content() {
    for status_line in [
        &b"HTTP/1.1 204 No Content"[..],
        b"HTTP/1.1 304 Not Modified",
    ] {
        let mut input = status_line.to_vec();
        input.extend_from_slice(b"\r\nContent-Length: 5\r\n\r\nhello");
        let ev = fetch_all_ways(GET, &input, false);
        assert!(
            matches!(
                &ev[0],
                GotC::Response {
                    body: BodyKind::None,
                    ..
                }
            ),
            "{ev:?}"
        );
        assert_eq!(ev[1], GotC::End(vec![]));
        assert!(!ev.iter().any(|e| matches!(e, GotC::Data(_))));
    }
}

// proves: 9110-15.2-3
#[test]
fn c102_informational_responses_are_bounded() {
    let input = b"HTTP/1.1 100 Continue\r\n\r\n".repeat(101);
    let ev = fetch_with(&mut client_with(GET), &[&input], false);
    assert_eq!(client_error(&ev), Some(RemoteError::TooManyInformational));
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, GotC::Informational { .. }))
            .count(),
        100
    );
    // The bound is per request.
    let mut input = b"HTTP/1.1 100 Continue\r\n\r\n".repeat(100);
    input.extend_from_slice(b"HTTP/1.1 204 No Content\r\n\r\n");
    input.extend_from_slice(&b"HTTP/1.1 100 Continue\r\n\r\n".repeat(100));
    input.extend_from_slice(b"HTTP/1.1 204 No Content\r\n\r\n");
    let ev = fetch_with(
        &mut client_with(&[(b"GET", b"/"), (b"GET", b"/")]),
        &[&input],
        false,
    );
    assert_eq!(client_error(&ev), None, "{:?}", ev.last());
    assert_eq!(ev.iter().filter(|e| matches!(e, GotC::End(_))).count(), 2);
}

// proves: 9110-15.2-3
#[test]
fn c103_early_hints_are_surfaced_then_the_final_response() {
    let ev = fetch_all_ways(
        GET,
        b"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        false,
    );
    let n = normalize_c(&ev);
    assert_eq!(
        n[0],
        GotC::Informational {
            status: 103,
            fields: vec![(b"Link".to_vec(), b"</s.css>; rel=preload".to_vec())]
        }
    );
    assert!(matches!(&n[1], GotC::Response { status: 200, .. }));
    assert_eq!(n[2], GotC::Data(b"ok".to_vec()));
    assert_eq!(n[3], GotC::End(vec![]));
}

#[test]
fn c104_an_unoffered_101_is_an_error() {
    let ev = fetch_all_ways(
        GET,
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        false,
    );
    assert_eq!(client_error(&ev), Some(RemoteError::UnofferedUpgrade));
    // Offered: the head, then the hand-over.
    let mut c = ClientConn::new(Config::DEFAULT);
    send_websocket_offer(&mut c, b"/chat");
    let ev = fetch_with(&mut c, &[b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x00"], false);
    assert!(matches!(&ev[0], GotC::Response { status: 101, .. }));
    assert_eq!(ev[1], GotC::Switched(b"\x81\x00".to_vec()));
}

#[test]
fn c105_a_close_delimited_body_ends_the_connection() {
    let ev = fetch_all_ways(
        GET,
        b"HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\npartial body",
        true,
    );
    let n = normalize_c(&ev);
    assert!(matches!(
        &n[0],
        GotC::Response {
            body: BodyKind::CloseDelimited,
            ..
        }
    ));
    assert_eq!(n[1], GotC::Data(b"partial body".to_vec()));
    assert_eq!(n[2], GotC::End(vec![]));
    let mut c = client_with(GET);
    fetch_with(
        &mut c,
        &[b"HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\npartial body"],
        true,
    );
    assert!(c.should_close());
}

// proves: 9112-8-2, 9112-6.3-2.6
#[test]
fn c106_a_truncated_body_is_an_error() {
    let ev = fetch_all_ways(
        GET,
        b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort",
        true,
    );
    assert_eq!(client_error(&ev), Some(RemoteError::UnexpectedEof));
    assert!(!ev.iter().any(|e| matches!(e, GotC::End(_))));
    let ev = fetch_all_ways(
        GET,
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
        true,
    );
    assert_eq!(client_error(&ev), Some(RemoteError::UnexpectedEof));
}

// proves: 9112-5.2-6
#[test]
fn c107_obs_fold_in_a_response_is_replaced_by_spaces() {
    let ev = fetch_all_ways(
        GET,
        b"HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n",
        false,
    );
    let GotC::Response { fields, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(fields[0], (b"X-Folded".to_vec(), b"a   b".to_vec()));
}

#[test]
fn c108_to_c111_malformed_response_heads_are_errors() {
    for input in [
        &b"HTTP/1.1 200 OK\nContent-Length: 2\n\nok"[..],
        b"HTTP/1.1  200  OK\r\n\r\n",
        b"HTTP/1.1 2000 OK\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nAccess-Control-Allow-Credentials : true\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nSet-Cookie: a=b\x01c\r\nContent-Length: 0\r\n\r\n",
    ] {
        let ev = fetch_all_ways(GET, input, false);
        assert!(
            matches!(client_error(&ev), Some(RemoteError::Head(_))),
            "{:?}: {ev:?}",
            String::from_utf8_lossy(input)
        );
        assert!(!ev.iter().any(|e| matches!(e, GotC::Response { .. })));
    }
    // An empty reason is fine.
    let ev = fetch_all_ways(GET, b"HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n", false);
    assert!(
        matches!(&ev[0], GotC::Response { status: 200, .. }),
        "{ev:?}"
    );
}

// proves: 9112-6.3-8, 9112-9.6-8a
#[test]
fn c112_data_after_a_closing_response_is_not_a_response() {
    let input = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil";
    let ev = fetch_all_ways(&[(b"GET", b"/"), (b"GET", b"/")], input, false);
    let n = normalize_c(&ev);
    assert_eq!(
        n.iter()
            .filter(|e| matches!(e, GotC::Response { .. }))
            .count(),
        1
    );
    assert_eq!(n[1], GotC::Data(b"ok".to_vec()));
    assert_eq!(n[2], GotC::End(vec![]));
    assert_eq!(n[3], GotC::Closed);
    assert!(client_error(&ev).is_none());
}

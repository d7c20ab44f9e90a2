//! The front-line profile through a connection's `Config`: off by default
//! (requests are served and responses read as before), on when set, with
//! the error (and, on a server, the status) the head or trailer rule names,
//! and the connection closed.

use http_net_conn::framing::Error as FramingError;
use http_net_conn::head::{Error as HeadError, ObsFold, ResponseOptions};
use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, Error, RemoteError, ServerConn, ServerEvent,
};

/// Feeds `input` and polls: the requests surfaced and the error status, if
/// any (after which the connection must close).
fn run(config: Config, input: &[u8]) -> (usize, Option<u16>) {
    let mut c = ServerConn::new(config);
    assert_eq!(c.recv(input), input.len());
    let mut requests = 0;
    for _ in 0..1000 {
        match c.poll_event() {
            Ok(ServerEvent::Request(_)) => requests += 1,
            Ok(ServerEvent::NeedInput | ServerEvent::Paused | ServerEvent::Closed) => {
                return (requests, None)
            }
            Ok(_) => {}
            Err(Error::Remote(e)) => {
                assert!(c.should_close());
                return (requests, Some(e.status()));
            }
            Err(e) => panic!("not a peer error: {e:?}"),
        }
    }
    panic!("no end");
}

// proves: policy-front-line-request-unregistered-method, policy-front-line-request-encoded-control, policy-front-line-request-cl-leading-zero, policy-front-line-request-cl-whitespace, policy-front-line-request-cl-list, policy-front-line-request-host-mismatch, policy-front-line-request-trailers, policy-front-line-request-upgrade
#[test]
fn front_line_rejects_what_the_default_accepts() {
    let on = Config::DEFAULT.with_front_line(true);
    assert!(!Config::DEFAULT.head_limits().front_line());
    assert!(on.head_limits().front_line());
    let cases: [(&[u8], u16); 9] = [
        (b"FOO / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
        (b"GET /%0d%0a HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 05\r\n\r\nhello", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\t\r\n\r\nhello", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\nhello", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: web socket\r\n\r\n",
            400,
        ),
        (b"GET http://b/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        (
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nHost: b\r\n\r\n",
            400,
        ),
    ];
    for (input, status) in cases {
        let text = String::from_utf8_lossy(input);
        let (n, err) = run(Config::DEFAULT, input);
        assert_eq!((n, err), (1, None), "off: {text}");
        let (_, err) = run(on, input);
        assert_eq!(err, Some(status), "on: {text}");
    }
}

/// What a client connection made of a response: the status and body of
/// each response surfaced, whether it switched, and the error, if any.
#[derive(Debug, Default, PartialEq, Eq)]
struct Fetched {
    responses: Vec<(u16, Vec<u8>)>,
    fields: Vec<(Vec<u8>, Vec<u8>)>,
    trailers: usize,
    switched: bool,
    error: Option<RemoteError>,
}

/// Sends one request (with an upgrade offer when `upgrade`), feeds
/// `input` and the end of input, and polls until the connection settles.
fn fetch(config: Config, upgrade: bool, input: &[u8]) -> Fetched {
    let mut c = ClientConn::new(config);
    let offer: &[(&[u8], &[u8])] = &[
        (b"Host", b"a"),
        (b"Connection", b"upgrade"),
        (b"Upgrade", b"websocket"),
    ];
    let fields = if upgrade { offer } else { &offer[..1] };
    c.send_request(b"GET", b"/", fields, BodyLength::Empty)
        .unwrap();
    let n = c.output().len();
    c.consume_output(n);
    assert_eq!(c.recv(input), input.len());
    c.recv_eof();
    let mut got = Fetched::default();
    for _ in 0..1000 {
        match c.poll_event() {
            Ok(ClientEvent::Response(r)) => {
                got.responses.push((r.status(), Vec::new()));
                got.fields = r.fields().map(|(n, v)| (n.to_vec(), v.to_vec())).collect();
            }
            Ok(ClientEvent::Data(d)) => {
                if let Some(last) = got.responses.last_mut() {
                    last.1.extend_from_slice(d);
                }
            }
            Ok(ClientEvent::End(t)) => got.trailers += t.iter().count(),
            Ok(ClientEvent::Switched(_)) => {
                got.switched = true;
                return got;
            }
            Ok(ClientEvent::Idle | ClientEvent::Closed | ClientEvent::NeedInput) => return got,
            Ok(_) => {}
            Err(Error::Remote(e)) => {
                assert!(c.should_close());
                got.error = Some(e);
                return got;
            }
            Err(e) => panic!("not a peer error: {e:?}"),
        }
    }
    panic!("no end");
}

/// The response side of the profile through `ClientConn` (for a proxy's
/// client side): each response is read as before with the profile off,
/// and rejected with the head rule's error with it on.
// proves: policy-front-line-response-cl-leading-zero, policy-front-line-response-cl-whitespace, policy-front-line-response-cl-list, policy-front-line-response-trailers, policy-front-line-response-101-upgrade
#[test]
fn client_front_line_rejects_what_the_default_accepts() {
    let on = Config::DEFAULT.with_front_line(true);
    let cases: [(&[u8], bool, HeadError); 6] = [
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 05\r\n\r\nhello",
            false,
            HeadError::NonCanonicalContentLength,
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length:  5\r\n\r\nhello",
            false,
            HeadError::NonCanonicalContentLength,
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello",
            false,
            HeadError::NonCanonicalContentLength,
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nSet-Cookie: a=1\r\n\r\n",
            false,
            HeadError::ForbiddenTrailer,
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nContent-Length: 9\r\n\r\n",
            false,
            HeadError::ForbiddenTrailer,
        ),
        (
            b"HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\n\r\n",
            true,
            HeadError::InvalidUpgrade,
        ),
    ];
    for (input, upgrade, error) in cases {
        let text = String::from_utf8_lossy(input);
        let off = fetch(Config::DEFAULT, upgrade, input);
        assert_eq!(off.error, None, "off: {text}");
        if upgrade {
            assert!(off.switched, "off: {text}");
        } else {
            assert_eq!(off.responses, [(200, b"hello".to_vec())], "off: {text}");
        }
        let got = fetch(on, upgrade, input);
        let want = if error == HeadError::ForbiddenTrailer {
            RemoteError::Framing(FramingError::Trailer(error))
        } else {
            RemoteError::Head(error)
        };
        assert_eq!(got.error, Some(want), "on: {text}");
        assert!(!got.switched, "on: {text}");
    }
    // What the profile accepts is read as without it.
    for (input, upgrade) in [
        (&b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"[..], false),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Sum: 1\r\n\r\n",
            false,
        ),
        (
            b"HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n",
            true,
        ),
    ] {
        let off = fetch(Config::DEFAULT, upgrade, input);
        assert_eq!(off.error, None);
        assert_eq!(fetch(on, upgrade, input), off);
    }
}

/// obs-fold in a response: replaced with SP by default, profile on or off
/// (RFC 9112 §5.2, a user agent's duty); rejected with `ObsFold::Reject`
/// (for a proxy, which RFC 9112 §5.2 lets answer 502 instead).
// proves: policy-response-obs-fold-reject
#[test]
fn client_obs_fold_is_replaced_by_default_and_rejected_by_the_option() {
    let input = b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 5\r\n\r\nhello";
    let reject = ResponseOptions::DEFAULT.with_obs_fold(ObsFold::Reject);
    for config in [Config::DEFAULT, Config::DEFAULT.with_front_line(true)] {
        let got = fetch(config, false, input);
        assert_eq!(got.error, None);
        assert_eq!(got.responses, [(200, b"hello".to_vec())]);
        let (_, x) = &got.fields[0];
        assert!(!x.contains(&b'\r') && !x.contains(&b'\n'), "{x:?}");
        assert!(x.starts_with(b"a ") && x.ends_with(b" b"), "{x:?}");
        let got = fetch(config.with_response_options(reject), false, input);
        assert_eq!(got.error, Some(RemoteError::Head(HeadError::ObsFold)));
    }
}

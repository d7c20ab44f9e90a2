//! The client's opt-in head leniencies, through `Config`: off by default (a
//! broken response head is an error, as before), on when set, and never for
//! chunk lines.

use http_net_conn::head::ResponseOptions;
use http_net_conn::{BodyLength, ClientConn, ClientEvent, Config, Error, RemoteError};

/// Parsed, reason and fields of the response head.
type Head = (u16, Vec<u8>, Vec<(Vec<u8>, Vec<u8>)>);
/// The head, the body and the error, if any.
type Fetched = (Option<Head>, Vec<u8>, Option<Error>);

/// Sends `GET /`, feeds `input` whole, then EOF; returns status, reason,
/// fields, the body and the error, if any.
fn fetch(config: Config, input: &[u8]) -> Fetched {
    let mut c = ClientConn::new(config);
    c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
        .unwrap();
    let n = c.output().len();
    c.consume_output(n);
    let mut rest = input;
    let (mut head, mut body, mut eof) = (None, Vec::new(), false);
    for _ in 0..1000 {
        match c.poll_event() {
            Ok(ClientEvent::Response(r)) => {
                let fields = r.fields().map(|(n, v)| (n.to_vec(), v.to_vec())).collect();
                head = Some((r.status(), r.reason().to_vec(), fields));
            }
            Ok(ClientEvent::Data(d)) => body.extend_from_slice(d),
            Ok(ClientEvent::NeedInput) if !rest.is_empty() => {
                let n = c.recv(rest);
                rest = &rest[n..];
            }
            Ok(ClientEvent::NeedInput) if !eof => {
                c.recv_eof();
                eof = true;
            }
            Ok(ClientEvent::End(_) | ClientEvent::Idle | ClientEvent::Closed) => {
                return (head, body, None)
            }
            Ok(ClientEvent::NeedInput) => panic!("stuck"),
            Ok(_) => {}
            Err(e) => return (head, body, Some(e)),
        }
    }
    panic!("no end");
}

fn head_error(e: Option<Error>) -> Option<http_net_head::Error> {
    match e {
        Some(Error::Remote(RemoteError::Head(h))) => Some(h),
        other => panic!("not a head error: {other:?}"),
    }
}

#[test]
fn broken_heads_are_errors_by_default_and_read_when_enabled() {
    let lenient = Config::DEFAULT.with_response_options(
        ResponseOptions::DEFAULT
            .with_bare_lf(true)
            .with_whitespace_before_colon(true)
            .with_reason_without_space(true),
    );
    assert_eq!(Config::DEFAULT.response_options(), ResponseOptions::DEFAULT);
    let cases: [(&[u8], http_net_head::Error); 3] = [
        (
            b"HTTP/1.1 200 OK\nContent-Length: 5\n\nhello",
            http_net_head::Error::BareLf,
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello",
            http_net_head::Error::WhitespaceBeforeColon,
        ),
        (
            b"HTTP/1.1 200\r\nContent-Length: 5\r\n\r\nhello",
            http_net_head::Error::InvalidStartLineSpacing,
        ),
    ];
    for (input, strict_error) in cases {
        let (head, _, e) = fetch(Config::DEFAULT, input);
        assert!(head.is_none());
        assert_eq!(head_error(e), Some(strict_error));
        let (head, body, e) = fetch(lenient, input);
        assert_eq!(e, None, "{input:?}");
        let (status, _, fields) = head.unwrap();
        assert_eq!(status, 200);
        assert_eq!(fields, vec![(b"Content-Length".to_vec(), b"5".to_vec())]);
        assert_eq!(body, b"hello");
    }
}

#[test]
fn chunk_lines_get_no_leniency() {
    let lenient =
        Config::DEFAULT.with_response_options(ResponseOptions::DEFAULT.with_bare_lf(true));
    let input = b"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\nhello\n0\n\n";
    let (head, body, e) = fetch(lenient, input);
    assert!(head.is_some(), "the head is read leniently");
    assert!(body.is_empty());
    assert!(matches!(e, Some(Error::Remote(_))), "{e:?}");
}

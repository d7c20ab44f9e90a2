//! The front-line profile through a server connection's `Config`: off by
//! default (the requests are served as before), on when set, with the
//! status the head or trailer rule names, and the connection closed.

use http_net_conn::{Config, Error, ServerConn, ServerEvent};

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

#[test]
fn front_line_rejects_what_the_default_accepts() {
    let on = Config::DEFAULT.with_front_line(true);
    assert!(!Config::DEFAULT.head_limits().front_line());
    assert!(on.head_limits().front_line());
    let cases: [(&[u8], u16); 5] = [
        (b"FOO / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
        (b"GET /%0d%0a HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 05\r\n\r\nhello", 400),
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

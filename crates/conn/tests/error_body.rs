//! The adapter's body for the connection's own error responses
//! (`ServerConn::set_error_body`), and the request view's owned copy and
//! target helpers.

mod common;

use common::{accept_request, feed, send_head};
use http_net_conn::{BodyKind, BodyLength, Config, LocalError, Method, ServerConn, ServerEvent};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn a_peer_errors_response_takes_the_adapters_body() {
    let mut conn = ServerConn::new(Config::DEFAULT.with_server_name(b"t").unwrap());
    conn.set_date(b"Sun, 06 Nov 1994 08:49:37 GMT");
    let input = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999\r\n\r\n";
    feed(&mut conn, input);
    assert!(conn.poll_event().is_err());
    assert_eq!(conn.error_status(), Some(413));
    conn.set_error_body(b"application/json", br#"{"error":"too large"}"#)
        .unwrap();
    // Again: the last body given wins.
    conn.set_error_body(b"application/json", br#"{"e":413}"#)
        .unwrap();
    let out = text(conn.output());
    let (head, body) = out.split_once("\r\n\r\n").unwrap();
    assert_eq!(body, r#"{"e":413}"#);
    assert!(
        head.starts_with("HTTP/1.1 413 Content Too Large\r\n"),
        "{out}"
    );
    for line in [
        "\r\nContent-Type: application/json",
        "\r\nContent-Length: 9",
        "\r\nConnection: close",
        "\r\nServer: t",
        "\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT",
    ] {
        assert!(head.contains(line), "{line:?} in {out}");
    }
    assert!(!head.contains("text/plain"), "{out}");
}

#[test]
fn a_reject_to_head_keeps_the_length_and_sends_no_body() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let input = b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n";
    accept_request(&mut conn, input);
    assert_eq!(conn.error_status(), None);
    assert_eq!(
        conn.set_error_body(b"application/json", b"{}"),
        Err(LocalError::WrongState)
    );
    conn.reject(500).unwrap();
    assert_eq!(conn.error_status(), Some(500));
    assert_eq!(
        conn.set_error_body(b"bad\r\nX: y", b"{}"),
        Err(LocalError::InvalidFieldValue)
    );
    conn.set_error_body(b"application/json", b"{\"e\":1}")
        .unwrap();
    let out = text(conn.output());
    assert!(out.contains("\r\nContent-Length: 7\r\n"), "{out}");
    assert!(out.ends_with("\r\n\r\n"), "{out}");
}

#[test]
fn once_part_of_it_is_sent_the_error_response_stays() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let input = b"GET / HTTP/1.1\r\n\r\n";
    feed(&mut conn, input);
    assert!(conn.poll_event().is_err());
    let before = conn.output().to_vec();
    conn.consume_output(1);
    assert_eq!(conn.error_status(), None);
    assert_eq!(
        conn.set_error_body(b"application/json", b"{}"),
        Err(LocalError::WrongState)
    );
    assert_eq!(conn.output(), &before[1..]);
}

#[test]
fn the_owned_head_outlives_the_view() {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let input = b"PURGE /a%20b/c?x=1&y=%7E&z HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n";
    feed(&mut conn, input);
    let Ok(ServerEvent::Request(view)) = conn.poll_event() else {
        panic!()
    };
    assert_eq!(view.method(), Method::Other);
    assert_eq!(view.method_str(), "PURGE");
    assert_eq!(view.path(), b"/a%20b/c");
    assert_eq!(view.query(), Some(&b"x=1&y=%7E&z"[..]));
    let head = view.to_owned_head();
    send_head(&mut conn, 204, &[], BodyLength::Empty);
    assert_eq!(head.method_str(), "PURGE");
    assert_eq!(head.target(), b"/a%20b/c?x=1&y=%7E&z");
    assert_eq!(
        http_net_conn::percent_decode(head.path()).unwrap(),
        &b"/a b/c"[..]
    );
    let pairs: Vec<_> = head.query_pairs().collect();
    assert_eq!(pairs, [(&b"x"[..], &b"1"[..]), (b"y", b"%7E"), (b"z", b"")]);
    assert_eq!(head.field(b"HOST"), Some(&b"h"[..]));
    assert_eq!(head.body_kind(), BodyKind::Length(0));
    assert_eq!(head.version().to_string(), "HTTP/1.1");
}

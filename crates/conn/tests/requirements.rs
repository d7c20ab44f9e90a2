//! RFC requirements that no other conversation proves on its own, through the
//! public API only: what the connection refuses to write, the status line of
//! an absent reason, the error responses that close the connection, and
//! what those responses say. Each test names the requirements it proves
//! (`docs/CONFORMANCE.md`).

mod common;

use common::{answering, connecting, discard_output, respond_queued, send_head};
use http_net_conn::{
    BodyLength, ClientConn, Config, Error, LocalError, PreparedResponse, ServerConn, ServerEvent,
};

/// The output queued so far, as text.
fn written(c: &mut ServerConn) -> String {
    let out = String::from_utf8_lossy(c.output()).into_owned();
    discard_output(c);
    out
}

/// Feeds `input` to a new server connection and polls until the error:
/// returns its status and the bytes written. No request may surface, and
/// the connection must close after its error response.
fn refused(input: &[u8]) -> (u16, String) {
    let mut c = ServerConn::new(Config::DEFAULT);
    // Some inputs are longer than the buffer: the error is found in what
    // fits, so the rest is never offered again.
    let _taken = c.recv(input);
    let status = loop {
        match c.poll_event() {
            Err(Error::Remote(e)) => break e.status(),
            Err(e) => panic!("not a peer error: {e:?}"),
            Ok(ServerEvent::Request(_)) => panic!("a request surfaced"),
            Ok(ServerEvent::NeedInput) => {
                panic!("no error for {:?}", String::from_utf8_lossy(input))
            }
            Ok(_) => {}
        }
    };
    let out = written(&mut c);
    assert!(c.should_close());
    assert!(matches!(c.poll_event(), Ok(ServerEvent::Closed)));
    (status, out)
}

// proves: 9112-2.2-7
#[test]
fn no_whitespace_is_written_before_a_field_name() {
    let mut c = answering();
    for name in [&b" X"[..], b"\tX"] {
        assert_eq!(
            c.responder()
                .send_head(200, &[(name, b"1")], BodyLength::Empty),
            Err(LocalError::InvalidFieldName.into())
        );
        assert_eq!(
            PreparedResponse::new(200, &[(name, b"1")]).err(),
            Some(LocalError::InvalidFieldName)
        );
        let mut client = ClientConn::new(Config::DEFAULT);
        assert_eq!(
            client.send_request(
                b"GET",
                b"/",
                &[(b"Host", b"a"), (name, b"1")],
                BodyLength::Empty
            ),
            Err(LocalError::InvalidFieldName.into())
        );
        assert_eq!(client.output(), b"");
    }
    assert_eq!(c.output(), b"");
}

// proves: 9112-5.2-3
#[test]
fn obs_fold_is_never_written() {
    let fold: &[u8] = b"a\r\n b";
    let mut c = answering();
    assert_eq!(
        c.responder()
            .send_head(200, &[(b"X", fold)], BodyLength::Empty),
        Err(LocalError::InvalidFieldValue.into())
    );
    send_head(&mut c, 200, &[], BodyLength::Streamed);
    assert_eq!(
        c.responder().send_end(&[(b"X", fold)]),
        Err(LocalError::InvalidFieldValue.into())
    );
    let mut client = ClientConn::new(Config::DEFAULT);
    assert_eq!(
        client.send_request(
            b"GET",
            b"/",
            &[(b"Host", b"a"), (b"X", fold)],
            BodyLength::Empty
        ),
        Err(LocalError::InvalidFieldValue.into())
    );
    assert_eq!(client.output(), b"");
}

// proves: 9112-3.2.2-6
#[test]
fn an_absolute_form_request_still_needs_host() {
    let mut c = ClientConn::new(Config::DEFAULT);
    assert_eq!(
        c.send_request(b"GET", b"http://a.example/x", &[], BodyLength::Empty),
        Err(LocalError::InvalidHost.into())
    );
    assert_eq!(c.output(), b"");
    c.send_request(
        b"GET",
        b"http://a.example/x",
        &[(b"Host", b"a.example")],
        BodyLength::Empty,
    )
    .unwrap();
    assert_eq!(
        c.output(),
        b"GET http://a.example/x HTTP/1.1\r\nHost: a.example\r\n\r\n"
    );
}

// proves: 9112-3.2.3-3
#[test]
fn a_connect_target_is_authority_form() {
    let host: &[(&[u8], &[u8])] = &[(b"Host", b"a.example:443")];
    for target in [
        &b"/"[..],
        b"http://a.example:443/",
        b"a.example:443/x",
        b"u@a.example:443",
    ] {
        let mut c = ClientConn::new(Config::DEFAULT);
        assert_eq!(
            c.send_request(b"CONNECT", target, host, BodyLength::Empty),
            Err(LocalError::InvalidRequestLine.into()),
            "{target:?}"
        );
        assert_eq!(c.output(), b"");
    }
    let c = connecting(b"a.example:443");
    assert_eq!(
        c.output(),
        b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n"
    );
}

// proves: 9112-4-9b
#[test]
fn an_absent_reason_keeps_the_space_before_it() {
    let mut c = answering();
    let r = PreparedResponse::with_reason(200, b"", &[]).unwrap();
    respond_queued(&mut c, &r, b"");
    assert!(written(&mut c).starts_with("HTTP/1.1 200 \r\n"));
    // A code without a registered reason phrase.
    let mut c = answering();
    send_head(&mut c, 599, &[], BodyLength::Empty);
    assert!(written(&mut c).starts_with("HTTP/1.1 599 \r\n"));
}

/// `input` is refused with `400` and a `Connection: close`; the answer.
fn assert_400_and_close(input: &[u8]) -> String {
    let shown = String::from_utf8_lossy(input);
    let (status, out) = refused(input);
    assert_eq!(status, 400, "{shown:?}");
    assert!(
        out.contains("\r\nConnection: close\r\n"),
        "{shown:?}: {out}"
    );
    out
}

/// A `POST` with one field `name: value` and the body `hello`.
fn post_with(name: &[u8], value: &[u8]) -> Vec<u8> {
    [
        b"POST / HTTP/1.1\r\nHost: a\r\n",
        name,
        b": ",
        value,
        b"\r\n\r\nhello",
    ]
    .concat()
}

// proves: 9112-6.1-15
#[test]
fn content_length_with_transfer_encoding_is_400_and_close() {
    for input in [
        &b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"[..],
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
    ] {
        let out = assert_400_and_close(input);
        assert!(out.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{out}");
    }
}

// proves: 9112-6.1-16
#[test]
fn transfer_encoding_in_http10_is_faulty_framing_and_closes() {
    for input in [
        &b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"[..],
        b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello",
    ] {
        assert_400_and_close(input);
    }
}

// proves: 9112-6.3-2.4
#[test]
fn a_request_whose_final_coding_is_not_chunked_is_400_and_close() {
    for te in [&b"gzip"[..], b"chunked, gzip", b"identity"] {
        assert_400_and_close(&post_with(b"Transfer-Encoding", te));
    }
}

// proves: 9112-6.3-2.5b
#[test]
fn an_invalid_content_length_is_400_and_close() {
    for cl in [&b"+5"[..], b"5, 6", b"0x5", b""] {
        assert_400_and_close(&post_with(b"Content-Length", cl));
    }
}

// proves: 9110-15.6-1a, 9110-15.6.6-1
#[test]
fn server_errors_say_what_they_are_in_their_content() {
    for status in [500, 503] {
        let mut c = answering();
        c.reject(status).unwrap();
        let out = written(&mut c);
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.contains("\r\nContent-Type: text/plain"), "{head}");
        assert!(body.starts_with(&format!("{status} ")), "{body:?}");
        assert!(body.len() > 4, "{body:?}");
    }
    let (status, out) = refused(b"GET / HTTP/2.0\r\nHost: a\r\n\r\n");
    assert_eq!(status, 505);
    let body = out.split_once("\r\n\r\n").unwrap().1;
    assert!(
        body.starts_with("505 HTTP Version Not Supported: "),
        "{body:?}"
    );
}

// proves: 9112-3-4a
#[test]
fn a_method_longer_than_any_implemented_is_501_and_close() {
    // 100 KB of method, fed at once and in small pieces: 501 from the first
    // byte over the 32-byte method limit, not 431 at the head limit.
    let mut input = vec![b'M'; 100_000];
    input.extend_from_slice(b" / HTTP/1.1\r\nHost: a\r\n\r\n");
    let (status, out) = refused(&input);
    assert_eq!(status, 501);
    assert!(out.starts_with("HTTP/1.1 501 "), "{out}");
    assert!(out.contains("\r\nConnection: close\r\n"), "{out}");
    let mut c = ServerConn::new(Config::DEFAULT);
    assert_eq!(c.recv(&input[..33]), 33);
    match c.poll_event() {
        Err(Error::Remote(e)) => assert_eq!(e.status(), 501),
        other => panic!("33 bytes of method: {other:?}"),
    }
}

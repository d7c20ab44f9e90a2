//! One body for the front-line tests of both servers and both clients
//! (`front_line_std.rs`, `front_line_tokio.rs`): the requests the profile
//! rejects and the responses it refuses, and the checks made with them.
//! Each adapter's test starts its own servers, or builds its own clients
//! and fetches with them; what is sent and what must come back is here.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use http_net_conn::framing::Error as FramingError;
use http_net_conn::head::Error as HeadError;
use http_net_conn::RemoteError;

/// Requests the profile rejects (with their status), each closing the
/// connection after its answer.
pub const REJECTED: &[(&[u8], &str)] = &[
    (
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 05\r\nConnection: close\r\n\r\nhello",
        "HTTP/1.1 400 ",
    ),
    (
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\nConnection: close\r\n\r\nhello",
        "HTTP/1.1 400 ",
    ),
    (
        b"GET /a%0d%0aX:%20y HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
        "HTTP/1.1 400 ",
    ),
    (
        b"GET http://b.example/ HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n",
        "HTTP/1.1 400 ",
    ),
    (
        b"PURGE / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
        "HTTP/1.1 501 ",
    ),
    (
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\nAuthorization: Basic YTpi\r\n\r\n",
        "HTTP/1.1 400 ",
    ),
];

/// Sends `request` (which asks for `Connection: close`, or is rejected)
/// and reads until the server closes (end of stream or a reset); a server
/// that has not closed within 10 s fails the test.
pub fn exchange(addr: SocketAddr, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                panic!(
                    "the server did not close: {:?}",
                    String::from_utf8_lossy(&got)
                )
            }
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// Servers that echo each request's body with a `200`: `off` without the
/// profile, each of `on` with it. Every request of [`REJECTED`] is served
/// by `off` and rejected by `on` with its status, alone and closing; one
/// the profile accepts is served by `on` as before.
pub fn servers_reject(off: SocketAddr, on: [SocketAddr; 2]) {
    for &(request, status) in REJECTED {
        let text = String::from_utf8_lossy(request);
        let got = exchange(off, request);
        assert!(got.starts_with("HTTP/1.1 200 "), "off: {text}: {got}");
        for addr in on {
            let got = exchange(addr, request);
            assert!(got.starts_with(status), "on: {text}: {got}");
            assert!(got.contains("Connection: close\r\n"), "on: {text}: {got}");
            assert_eq!(got.matches("HTTP/1.1 ").count(), 1, "on: {text}: {got}");
        }
    }
    // A request the profile accepts is served as before.
    let got = exchange(
        on[0],
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    );
    assert!(
        got.starts_with("HTTP/1.1 200 ") && got.ends_with("hello"),
        "{got}"
    );
}

/// Responses the profile refuses (each with the body `hello`), with the
/// rule that names them.
pub fn refused() -> [(&'static [u8], RemoteError); 6] {
    let cl = RemoteError::Head(HeadError::NonCanonicalContentLength);
    let trailer = RemoteError::Framing(FramingError::Trailer(HeadError::ForbiddenTrailer));
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 05\r\n\r\nhello", cl),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 005\r\n\r\nhello", cl),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 5 \r\n\r\nhello", cl),
        (b"HTTP/1.1 200 OK\r\nContent-Length:\t5\r\n\r\nhello", cl),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nSet-Cookie: a=1\r\n\r\n",
            trailer,
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nContent-Type: text/html\r\n\r\n",
            trailer,
        ),
    ]
}

/// What a client's fetch of `/` came to: the body, or the error (the
/// remote rule it names, if it is a protocol error of the peer's, and the
/// whole error, for the message).
pub type Fetched = Result<Vec<u8>, (Option<RemoteError>, String)>;

/// Clients `off` (without the profile) and each of `on` (with it):
/// `fetch(client, reply)` fetches `/` from an origin answering `reply`.
/// Every response of [`refused`] is read by `off` and refused by `on` with
/// its rule; one the profile accepts is read by `on` as before.
pub fn clients_refuse<C>(off: &C, on: [&C; 2], fetch: impl Fn(&C, &'static [u8]) -> Fetched) {
    for (reply, want) in refused() {
        let text = String::from_utf8_lossy(reply);
        assert_eq!(fetch(off, reply).unwrap(), b"hello", "off: {text}");
        for client in on {
            match fetch(client, reply) {
                Err((Some(e), _)) => assert_eq!(e, want, "on: {text}"),
                other => panic!("on: {text}: {other:?}"),
            }
        }
    }
    // A response the profile accepts is read as before.
    let reply = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
    assert_eq!(fetch(on[0], reply).unwrap(), b"hello");
}

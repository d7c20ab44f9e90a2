//! The front-line switch of the blocking adapter's builders, over real
//! sockets on loopback: `ServerBuilder::front_line` answers a request the
//! profile rejects with its status and closes, `ClientBuilder::front_line`
//! refuses a response the profile rejects with the rule that names it;
//! with the switch off (the default) both are served and read as before.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use http_net_conn::framing::Error as FramingError;
use http_net_conn::head::Error as HeadError;
use http_net_conn::{Config, Error as ConnError, RemoteError};
use http_net_std::{Client, Error, Exchange, Server, ServerBuilder};

mod support;
use support::Running;

/// A server from `builder` that echoes each request's body with a `200`.
fn start(builder: ServerBuilder) -> Running {
    let server = builder
        .shutdown_timeout(Duration::from_secs(2))
        .bind("127.0.0.1:0")
        .unwrap();
    Running::start(server, |ex: &mut Exchange<'_>| {
        let mut body = Vec::new();
        ex.body().read_to_end(&mut body).map_err(Error::from_io)?;
        ex.respond_with(200, &[], &body)
    })
}

/// Sends `request` (which asks for `Connection: close`, or is rejected)
/// and reads until the server closes (or 10 s pass).
fn exchange(addr: SocketAddr, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// Requests the profile rejects (with their status), each closing the
/// connection after its answer.
const REJECTED: &[(&[u8], &str)] = &[
    (
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 05\r\nConnection: close\r\n\r\nhello",
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

// proves: policy-front-line-request-cl-leading-zero, policy-front-line-request-unregistered-method, policy-front-line-request-trailers
#[test]
fn server_builder_front_line_rejects_what_the_default_serves() {
    let off = start(Server::builder());
    let on = start(Server::builder().front_line(true));
    // Set before a conn_config without it, the switch still holds.
    let on_first = start(
        Server::builder()
            .front_line(true)
            .conn_config(Config::DEFAULT),
    );
    for &(request, status) in REJECTED {
        let text = String::from_utf8_lossy(request);
        let got = exchange(off.addr, request);
        assert!(got.starts_with("HTTP/1.1 200 "), "off: {text}: {got}");
        for srv in [&on, &on_first] {
            let got = exchange(srv.addr, request);
            assert!(got.starts_with(status), "on: {text}: {got}");
            assert!(got.contains("Connection: close\r\n"), "on: {text}: {got}");
            assert_eq!(got.matches("HTTP/1.1 ").count(), 1, "on: {text}: {got}");
        }
    }
    // A request the profile accepts is served as before.
    let got = exchange(
        on.addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    );
    assert!(
        got.starts_with("HTTP/1.1 200 ") && got.ends_with("hello"),
        "{got}"
    );
}

/// An origin that answers one request on each of `conns` connections with
/// `reply`, then closes it.
fn origin(conns: usize, reply: &'static [u8]) -> (JoinHandle<()>, String) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let t = thread::spawn(move || {
        for _ in 0..conns {
            let Ok((mut s, _)) = l.accept() else { break };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            // The client's GET carries no body: this reads its head.
            let _ = support::read_request(&mut s);
            let _ = s.write_all(reply);
        }
    });
    (t, base)
}

/// Fetches `/` from an origin answering `reply`, with `client`: the body,
/// or the error.
fn fetch(client: &Client, reply: &'static [u8]) -> Result<Vec<u8>, Error> {
    let (t, base) = origin(1, reply);
    let got = client
        .get(&format!("{base}/"))
        .and_then(|mut r| r.read_body(1024));
    t.join().unwrap();
    got
}

// proves: policy-front-line-response-cl-leading-zero, policy-front-line-response-cl-whitespace, policy-front-line-response-trailers
#[test]
fn client_builder_front_line_refuses_what_the_default_reads() {
    let off = Client::new();
    let on = Client::builder().front_line(true).build();
    // Set before a conn_config without it, the switch still holds.
    let on_first = Client::builder()
        .front_line(true)
        .conn_config(http_net_std::CLIENT_CONFIG)
        .build();
    let cases: [(&'static [u8], RemoteError); 3] = [
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 05\r\n\r\nhello",
            RemoteError::Head(HeadError::NonCanonicalContentLength),
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 5 \r\n\r\nhello",
            RemoteError::Head(HeadError::NonCanonicalContentLength),
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nSet-Cookie: a=1\r\n\r\n",
            RemoteError::Framing(FramingError::Trailer(HeadError::ForbiddenTrailer)),
        ),
    ];
    for (reply, want) in cases {
        let text = String::from_utf8_lossy(reply);
        assert_eq!(fetch(&off, reply).unwrap(), b"hello", "off: {text}");
        for client in [&on, &on_first] {
            match fetch(client, reply) {
                Err(Error::Protocol(ConnError::Remote(e))) => assert_eq!(e, want, "on: {text}"),
                other => panic!("on: {text}: {other:?}"),
            }
        }
    }
    // A response the profile accepts is read as before.
    let reply = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
    assert_eq!(fetch(&on, reply).unwrap(), b"hello");
}

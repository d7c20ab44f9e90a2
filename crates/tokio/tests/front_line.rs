//! The front-line switch of the async adapter's builders, over real
//! sockets on loopback: `ServerBuilder::front_line` answers a request the
//! profile rejects with its status and closes, `ClientBuilder::front_line`
//! refuses a response the profile rejects with the rule that names it;
//! with the switch off (the default) both are served and read as before.

mod common;

use std::time::Duration;

use http_net_tokio::http_net_conn::framing::Error as FramingError;
use http_net_tokio::http_net_conn::head::Error as HeadError;
use http_net_tokio::http_net_conn::{Config, Error as ConnError, RemoteError};
use http_net_tokio::{Client, Error, Exchange, Handler, Server, ServerBuilder, ServerHandle};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

use common::{answers_and_closes, read_whole};

/// Echoes the request body.
struct Echo;

impl Handler for Echo {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), Error> {
        let body = read_whole(ex, &mut [0u8; 1024]).await?;
        ex.respond_with(200, &[], &body).await
    }
}

/// A server on an ephemeral loopback port, on this test's runtime.
async fn start(builder: ServerBuilder) -> (u16, ServerHandle, JoinHandle<std::io::Result<()>>) {
    let server = builder
        .shutdown_timeout(Duration::from_secs(2))
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let port = server.local_addr().unwrap().port();
    let handle = server.handle();
    (port, handle, tokio::spawn(server.serve(Echo)))
}

/// Sends `request` (which asks for `Connection: close`, or is rejected)
/// and reads until the server closes (at most 10 s).
async fn exchange(port: u16, request: &[u8]) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    s.write_all(request).await.unwrap();
    let mut got = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut got)).await;
    assert!(read.is_ok(), "the server did not close");
    String::from_utf8_lossy(&got).into_owned()
}

/// Requests the profile rejects (with their status), each closing the
/// connection after its answer.
const REJECTED: &[(&[u8], &str)] = &[
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
];

// proves: policy-front-line-request-cl-list, policy-front-line-request-encoded-control, policy-front-line-request-host-mismatch, policy-front-line-request-unregistered-method
#[tokio::test]
async fn server_builder_front_line_rejects_what_the_default_serves() {
    let (off, off_handle, off_task) = start(Server::builder()).await;
    let (on, on_handle, on_task) = start(Server::builder().front_line(true)).await;
    // Set before a conn_config without it, the switch still holds.
    let (first, first_handle, first_task) = start(
        Server::builder()
            .front_line(true)
            .conn_config(Config::DEFAULT),
    )
    .await;
    for &(request, status) in REJECTED {
        let text = String::from_utf8_lossy(request);
        let got = exchange(off, request).await;
        assert!(got.starts_with("HTTP/1.1 200 "), "off: {text}: {got}");
        for port in [on, first] {
            let got = exchange(port, request).await;
            assert!(got.starts_with(status), "on: {text}: {got}");
            assert!(got.contains("Connection: close\r\n"), "on: {text}: {got}");
            assert_eq!(got.matches("HTTP/1.1 ").count(), 1, "on: {text}: {got}");
        }
    }
    // A request the profile accepts is served as before.
    let got = exchange(
        on,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    )
    .await;
    assert!(
        got.starts_with("HTTP/1.1 200 ") && got.ends_with("hello"),
        "{got}"
    );
    for (handle, task) in [
        (off_handle, off_task),
        (on_handle, on_task),
        (first_handle, first_task),
    ] {
        handle.shutdown();
        task.await.unwrap().unwrap();
    }
}

/// Fetches `/` from an origin answering `reply`, with `client`: the body,
/// or the error.
async fn fetch(client: &Client, reply: &'static [u8]) -> Result<Vec<u8>, Error> {
    let (port, t) = answers_and_closes(reply).await;
    let got = match client.send("127.0.0.1", port, b"GET", b"/", &[], b"").await {
        Ok(mut r) => r.body_to_vec(1024).await,
        Err(e) => Err(e),
    };
    t.await.unwrap();
    got
}

// proves: policy-front-line-response-cl-leading-zero, policy-front-line-response-cl-whitespace, policy-front-line-response-trailers
#[tokio::test]
async fn client_builder_front_line_refuses_what_the_default_reads() {
    let off = Client::new();
    let on = Client::builder().front_line(true).build();
    // Set before a conn_config without it, the switch still holds.
    let on_first = Client::builder()
        .front_line(true)
        .conn_config(Config::DEFAULT)
        .build();
    let cases: [(&'static [u8], RemoteError); 3] = [
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 005\r\n\r\nhello",
            RemoteError::Head(HeadError::NonCanonicalContentLength),
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length:\t5\r\n\r\nhello",
            RemoteError::Head(HeadError::NonCanonicalContentLength),
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nContent-Type: text/html\r\n\r\n",
            RemoteError::Framing(FramingError::Trailer(HeadError::ForbiddenTrailer)),
        ),
    ];
    for (reply, want) in cases {
        let text = String::from_utf8_lossy(reply);
        assert_eq!(fetch(&off, reply).await.unwrap(), b"hello", "off: {text}");
        for client in [&on, &on_first] {
            match fetch(client, reply).await {
                Err(Error::Protocol(ConnError::Remote(e))) => assert_eq!(e, want, "on: {text}"),
                other => panic!("on: {text}: {other:?}"),
            }
        }
    }
    // A response the profile accepts is read as before.
    let reply = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
    assert_eq!(fetch(&on, reply).await.unwrap(), b"hello");
}

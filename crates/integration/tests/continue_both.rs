//! A handler's own `send_continue` follows one rule in both adapters: conn's
//! `ServerConn::continue_due` (RFC 9110 §10.1.1: the request is HTTP/1.1,
//! expects `100-continue`, has body bytes still to come, and no `100` or
//! final answer has been sent), the rule their body readers already follow.
//! The std adapter's used to send `100` whenever nothing had been answered,
//! with or without the expectation.

mod support;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use support::on_tokio;

/// The std server; its handler calls `send_continue` twice, then echoes
/// the request body.
fn std_server() -> support::std_io::Running {
    let server = http_net_std::Server::builder().bind("127.0.0.1:0").unwrap();
    support::std_io::Running::start(server, |ex| {
        ex.send_continue()?;
        ex.send_continue()?;
        let mut body = Vec::new();
        ex.body().read_to_end(&mut body)?;
        ex.respond_with(200, &[], &body)
    })
}

/// The tokio server's handler: the same as the std server's.
struct Ask;

impl http_net_tokio::Handler for Ask {
    async fn handle(
        &self,
        ex: &mut http_net_tokio::Exchange<'_>,
    ) -> Result<(), http_net_tokio::HandlerError> {
        ex.send_continue().await?;
        ex.send_continue().await?;
        let body = on_tokio::read_whole(ex, &mut [0u8; 16]).await?;
        Ok(ex.respond_with(200, &[], &body).await?)
    }
}

/// The checks, against a server whose handler calls `send_continue` twice
/// and echoes the body.
fn continue_only_when_due(addr: SocketAddr, server: &str) {
    let no_100: [&[u8]; 3] = [
        // No expectation.
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi",
        // HTTP/1.0 (RFC 9110 §10.1.1: never to a 1.0 client).
        b"POST / HTTP/1.0\r\nHost: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\nhi",
        // No body to come.
        b"GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
    ];
    for req in no_100 {
        let r = support::std_io::exchange(&addr.to_string(), req);
        assert!(r.starts_with("HTTP/1."), "{server}: {r}");
        assert!(r[..12].ends_with(" 200"), "{server}: {r}");
        assert!(!r.contains(" 100 Continue"), "{server}: {r}");
    }
    // Expected, with a body to come: one `100` before the body is sent.
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let mut got = [0u8; 25];
    s.read_exact(&mut got).unwrap();
    assert_eq!(&got, b"HTTP/1.1 100 Continue\r\n\r\n", "{server}");
    s.write_all(b"body").unwrap();
    let mut rest = String::new();
    let _ = s.read_to_string(&mut rest);
    assert!(rest.starts_with("HTTP/1.1 200 OK\r\n"), "{server}: {rest}");
    assert!(rest.ends_with("\r\n\r\nbody"), "{server}: {rest}");
}

#[test]
fn the_std_servers_send_continue_sends_100_only_when_due() {
    let srv = std_server();
    continue_only_when_due(srv.addr, "std");
}

#[test]
fn the_tokio_servers_send_continue_sends_100_only_when_due() {
    let srv = on_tokio::start(http_net_tokio::Server::builder(), Ask, false);
    continue_only_when_due(srv.addr, "tokio");
    srv.stop();
}

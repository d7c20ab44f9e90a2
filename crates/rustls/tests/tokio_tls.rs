//! The tokio server and client over TLS (feature `tokio`): a request
//! served, a failed handshake counted, `close_notify`, and the early answer
//! to an upload.
#![cfg(feature = "tokio")]

mod support;

use http_net_tokio::ClientOptions;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use http_net_rustls::rustls::{self, pki_types::ServerName};
use http_net_rustls::{ClientTls, ServerTls, TlsFailure};
use http_net_tokio::{Client, Server, ServerOptions};
use support::*;

fn start(b: http_net_tokio::ServerBuilder, tls: ServerTls, status: u16) -> TokioServer {
    TokioServer::start(b, tls, status)
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn the_tokio_client_fetches_from_the_tokio_server_over_tls() {
    let dir = TempDir::new("tokio-get");
    let c = cert(&["localhost"], false);
    let s = start(Server::builder(), server_tls(&dir, &c), 200);
    let client = Client::builder().connector(client_tls(&c));
    rt().block_on(async {
        for _ in 0..2 {
            let mut resp = client
                .get(&format!("https://localhost:{}/", s.addr.port()))
                .await
                .unwrap();
            assert_eq!(resp.status(), 200);
            assert_eq!(resp.body_to_vec(64).await.unwrap(), b"hello");
        }
        // A name the certificate does not hold: the failure is named.
        let Err(e) = client
            .get(&format!("https://127.0.0.1:{}/", s.addr.port()))
            .await
        else {
            panic!("a name mismatch")
        };
        let http_net_tokio::Error::Io(e) = e else {
            panic!("{e:?}")
        };
        assert!(
            matches!(TlsFailure::of(&e), Some(TlsFailure::NameMismatch)),
            "{e:?}"
        );
    });
}

#[test]
fn the_tokio_server_counts_a_failed_handshake_and_sends_close_notify() {
    let dir = TempDir::new("tokio-fail");
    let c = cert(&["localhost"], false);
    let s = start(Server::builder(), server_tls(&dir, &c), 200);
    let mut sock = TcpStream::connect(s.addr).unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    sock.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    let mut got = Vec::new();
    let _ = sock.read_to_end(&mut got);
    assert!(!got.starts_with(b"HTTP/"));
    let h = s.handle.clone();
    assert!(
        eventually(|| h.counters().setup_failed == 1),
        "{:?}",
        h.counters()
    );
    // The next connection is served, and closed with close_notify.
    let cfg = raw_client_config(&c, &[b"http/1.1"]);
    let conn =
        rustls::ClientConnection::new(cfg, ServerName::try_from("localhost").unwrap()).unwrap();
    let sock = TcpStream::connect(s.addr).unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut tls = rustls::StreamOwned::new(conn, sock);
    tls.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut got = Vec::new();
    tls.read_to_end(&mut got)
        .expect("a clean close (close_notify)");
    assert!(got.starts_with(b"HTTP/1.1 200"));
    assert_eq!(tls.conn.alpn_protocol(), Some(&b"http/1.1"[..]));
}

/// An 8 MiB upload to a server whose body limit is 1 MiB and that answers
/// `413` without reading: the tokio client returns the `413` in each of
/// the four cases, 10 times out of 10.
#[test]
fn an_early_413_survives_tls_for_the_tokio_client() {
    let dir = TempDir::new("tokio-413");
    let c = cert(&["localhost"], false);
    let s = start(
        Server::builder().max_body_bytes(1 << 20),
        server_tls(&dir, &c),
        413,
    );
    let url = format!("https://localhost:{}/", s.addr.port());
    let body = vec![b'x'; 8 << 20];
    rt().block_on(async {
        for (chunked, expect) in [(true, true), (true, false), (false, true), (false, false)] {
            let mut failed = Vec::new();
            let mut ok = 0;
            for _ in 0..10 {
                let mut b = Client::builder();
                if !expect {
                    b = b.expect_continue(None);
                }
                let client = b.connector(client_tls(&c));
                let mut reader = &body[..];
                let rb = if chunked {
                    http_net_tokio::RequestBody::Reader {
                        reader: &mut reader,
                        len: None,
                    }
                } else {
                    http_net_tokio::RequestBody::Bytes(&body)
                };
                match client.request(b"POST", &url, &[], rb).await {
                    Ok(r) if r.status() == 413 => ok += 1,
                    Ok(r) => failed.push(format!("{}", r.status())),
                    Err(e) => failed.push(format!("{e}")),
                }
            }
            assert_eq!(ok, 10, "chunked={chunked} expect={expect}: {failed:?}");
        }
    });
}

#[test]
fn the_tokio_connector_refuses_nothing_plain_and_times_out_a_mute_server() {
    let c = cert(&["localhost"], false);
    let mute = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let tls = ClientTls::with_config((*raw_client_config(&c, &[])).clone())
        .handshake_timeout(Duration::from_millis(300));
    let client = Client::builder().connector(tls);
    rt().block_on(async {
        let Err(e) = client
            .get(&format!(
                "https://localhost:{}/",
                mute.local_addr().unwrap().port()
            ))
            .await
        else {
            panic!("a timeout")
        };
        let http_net_tokio::Error::Io(e) = e else {
            panic!("{e:?}")
        };
        assert!(
            matches!(TlsFailure::of(&e), Some(TlsFailure::HandshakeTimeout)),
            "{e:?}"
        );
    });
}

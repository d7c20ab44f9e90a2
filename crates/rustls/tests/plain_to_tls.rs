//! A plain `http://` request to a TLS port: both plain clients (the
//! blocking one and, with the `tokio` feature, the async one) say that a
//! TLS server answered and that the URL should be `https://`, both against
//! this crate's TLS servers on loopback and against a socket that answers
//! with a bare TLS alert record.

mod support;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::thread::JoinHandle;
use std::time::Duration;

use support::*;

/// A TLS `protocol_version` alert (RFC 8446 §5.1 record header, §6 alert):
/// what a TLS server may send to bytes that are not a ClientHello.
const ALERT: &[u8] = b"\x15\x03\x03\x00\x02\x02\x46";

/// The error's text names the TLS answer and the fix.
fn says_tls_answered(text: &str) {
    assert!(
        text.contains("TLS record") && text.contains("https://"),
        "{text}"
    );
}

/// A socket that answers each of `n` connections with [`ALERT`] after
/// reading the request's first bytes, then closes; it stops by itself.
fn alert_socket(n: usize) -> (SocketAddr, JoinHandle<()>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let t = std::thread::spawn(move || {
        for _ in 0..n {
            let Ok((mut s, _)) = l.accept() else { return };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = s.write_all(ALERT);
        }
    });
    (addr, t)
}

/// The blocking client's error for a plain GET of `addr`.
fn std_error(addr: SocketAddr) -> http_net::blocking::Error {
    match http_net::blocking::Client::new().get(&format!("http://127.0.0.1:{}/", addr.port())) {
        Ok(r) => panic!("an answer: {}", r.status()),
        Err(e) => e,
    }
}

fn std_is_tls_record(e: &http_net::blocking::Error) -> bool {
    use http_net::conn::{Error as ConnError, RemoteError};
    matches!(
        e,
        http_net::blocking::Error::Protocol(ConnError::Remote(RemoteError::Head(
            http_net::head::Error::TlsRecord
        )))
    )
}

#[test]
fn the_blocking_client_says_a_tls_server_answered() {
    let dir = TempDir::new("plain-std");
    let c = cert(&["localhost"], false);
    let s = StdServer::start(http_net_std::Server::builder(), server_tls(&dir, &c), false);
    let e = std_error(s.addr);
    says_tls_answered(&e.to_string());
    assert!(std_is_tls_record(&e), "{e:?}");

    let (addr, t) = alert_socket(1);
    let e = std_error(addr);
    says_tls_answered(&e.to_string());
    assert!(std_is_tls_record(&e), "{e:?}");
    t.join().unwrap();
}

#[cfg(feature = "tokio")]
async fn tokio_error(addr: SocketAddr) -> http_net_tokio::Error {
    let client = http_net_tokio::Client::new();
    match client
        .get(&format!("http://127.0.0.1:{}/", addr.port()))
        .await
    {
        Ok(r) => panic!("an answer: {}", r.status()),
        Err(e) => e,
    }
}

#[cfg(feature = "tokio")]
fn tokio_is_tls_record(e: &http_net_tokio::Error) -> bool {
    use http_net::conn::{Error as ConnError, RemoteError};
    matches!(
        e,
        http_net_tokio::Error::Protocol(ConnError::Remote(RemoteError::Head(
            http_net::head::Error::TlsRecord
        )))
    )
}

#[cfg(feature = "tokio")]
#[test]
fn the_tokio_client_says_a_tls_server_answered() {
    let dir = TempDir::new("plain-tokio");
    let c = cert(&["localhost"], false);
    let s = TokioServer::start(http_net_tokio::Server::builder(), server_tls(&dir, &c), 200);
    let (addr, t) = alert_socket(1);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        for addr in [s.addr, addr] {
            let e = tokio::time::timeout(Duration::from_secs(20), tokio_error(addr))
                .await
                .expect("bounded");
            says_tls_answered(&e.to_string());
            assert!(tokio_is_tls_record(&e), "{e:?}");
        }
    });
    t.join().unwrap();
}

//! The blocking server and client over TLS: a request served, the failed
//! handshakes a server counts and survives, the failures a client names,
//! `close_notify`, and the early answer to an upload.

mod support;

use http_net_std::ClientOptions;
use http_net_std::ServerOptions;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use http_net_rustls::rustls::{self, pki_types::ServerName};
use http_net_rustls::{ClientTls, TlsFailure};
use http_net_std::{Client, RequestBody, Server};
use support::*;

fn client(tls: ClientTls) -> Client {
    Client::builder()
        .connector(move |h: &str, p: u16| tls.connect(h, p))
        .build()
}

#[test]
fn an_https_url_is_fetched_with_the_name_checked() {
    let dir = TempDir::new("std-get");
    let c = cert(&["localhost", "127.0.0.1"], false);
    let s = StdServer::start(Server::builder(), server_tls(&dir, &c), false);
    let client = client(client_tls(&c));
    for host in ["localhost", "127.0.0.1"] {
        let mut resp = client
            .get(&format!("https://{host}:{}/", s.addr.port()))
            .unwrap();
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.body_to_vec(64).unwrap(), b"hello");
    }
    // Without a connector, no plain-text attempt.
    let plain = Client::new();
    assert!(plain
        .get(&format!("https://localhost:{}/", s.addr.port()))
        .is_err());
}

#[test]
fn alpn_is_http_1_1_and_the_server_sends_close_notify() {
    let dir = TempDir::new("std-alpn");
    let c = cert(&["localhost"], false);
    let s = StdServer::start(Server::builder(), server_tls(&dir, &c), false);
    let cfg = raw_client_config(&c, &[b"h2", b"http/1.1"]);
    let conn =
        rustls::ClientConnection::new(cfg, ServerName::try_from("localhost").unwrap()).unwrap();
    let sock = TcpStream::connect(s.addr).unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut tls = rustls::StreamOwned::new(conn, sock);
    tls.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut got = Vec::new();
    // `read_to_end` fails with UnexpectedEof when the peer closes without
    // `close_notify`.
    tls.read_to_end(&mut got)
        .expect("a clean close (close_notify)");
    assert!(got.starts_with(b"HTTP/1.1 200"));
    assert_eq!(tls.conn.alpn_protocol(), Some(&b"http/1.1"[..]));
}

/// A peer that sends `bytes` to the TLS port: closed, counted, and the
/// server goes on.
fn failed_handshake(bytes: &[u8], name: &str) {
    let dir = TempDir::new(name);
    let c = cert(&["localhost"], false);
    let s = StdServer::start(Server::builder(), server_tls(&dir, &c), false);
    let mut sock = TcpStream::connect(s.addr).unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    sock.write_all(bytes).unwrap();
    let mut got = Vec::new();
    let _ = sock.read_to_end(&mut got);
    assert!(!got.starts_with(b"HTTP/"), "no HTTP answer in plain text");
    let h = s.handle.clone();
    assert!(
        eventually(|| h.counters().setup_failed == 1),
        "{:?}",
        h.counters()
    );
    let mut resp = client(client_tls(&c))
        .get(&format!("https://localhost:{}/", s.addr.port()))
        .unwrap();
    assert_eq!(resp.body_to_vec(64).unwrap(), b"hello");
}

#[test]
fn plain_http_to_the_tls_port_fails_that_connection_only() {
    failed_handshake(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", "std-plain");
}

#[test]
fn a_bad_record_fails_that_connection_only() {
    // A handshake record header with a nonsense length, then garbage.
    failed_handshake(
        &[0x16, 0x03, 0x01, 0xff, 0xff, 1, 2, 3, 4],
        "std-bad-record",
    );
}

#[test]
fn a_wrong_record_version_fails_that_connection_only() {
    // SSL 2-style bytes: not a TLS record at all.
    failed_handshake(
        &[0x80, 0x2e, 0x01, 0x00, 0x02, 0x00, 0x15, 0, 0, 0],
        "std-version",
    );
}

#[test]
fn a_client_offering_only_h2_fails_that_connection_only() {
    let dir = TempDir::new("std-h2");
    let c = cert(&["localhost"], false);
    let s = StdServer::start(Server::builder(), server_tls(&dir, &c), false);
    let cfg = raw_client_config(&c, &[b"h2"]);
    let conn =
        rustls::ClientConnection::new(cfg, ServerName::try_from("localhost").unwrap()).unwrap();
    let sock = TcpStream::connect(s.addr).unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut tls = rustls::StreamOwned::new(conn, sock);
    let e = tls
        .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .and_then(|_| tls.read(&mut [0u8; 64]).map(|_| ()));
    assert!(e.is_err(), "no protocol in common");
    let h = s.handle.clone();
    assert!(
        eventually(|| h.counters().setup_failed == 1),
        "{:?}",
        h.counters()
    );
}

#[test]
fn a_stalled_handshake_is_closed_at_the_setup_deadline() {
    let dir = TempDir::new("std-stall");
    let c = cert(&["localhost"], false);
    let b = Server::builder().setup_timeout(Duration::from_millis(300));
    let s = StdServer::start(b, server_tls(&dir, &c), false);
    let mut sock = TcpStream::connect(s.addr).unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    // Half a ClientHello's record header, then nothing.
    sock.write_all(&[0x16, 0x03, 0x01]).unwrap();
    let t0 = Instant::now();
    let _ = sock.read_to_end(&mut Vec::new());
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    let h = s.handle.clone();
    assert!(
        eventually(|| h.counters().timed_out.setup == 1),
        "{:?}",
        h.counters()
    );
}

fn client_failure(tls: ClientTls, url: &str) -> TlsFailure {
    let e = match client(tls).get(url) {
        Ok(r) => panic!("{url}: {}", r.status()),
        Err(http_net_std::Error::Io(e)) => e,
        Err(e) => panic!("{url}: {e}"),
    };
    let Some(f) = TlsFailure::of(&e) else {
        panic!("not a TlsFailure: {e:?}")
    };
    match f {
        TlsFailure::UnknownCertificate => TlsFailure::UnknownCertificate,
        TlsFailure::NameMismatch => TlsFailure::NameMismatch,
        TlsFailure::Expired => TlsFailure::Expired,
        TlsFailure::HandshakeTimeout => TlsFailure::HandshakeTimeout,
        TlsFailure::CaUsedAsEndEntity => TlsFailure::CaUsedAsEndEntity,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_client_names_what_failed() {
    let dir = TempDir::new("std-failures");
    let good = cert(&["localhost"], false);
    let s = StdServer::start(Server::builder(), server_tls(&dir, &good), false);
    let port = s.addr.port();
    // Unknown: trusting another certificate.
    let other = cert(&["localhost"], false);
    let f = client_failure(client_tls(&other), &format!("https://localhost:{port}/"));
    assert!(matches!(f, TlsFailure::UnknownCertificate), "{f:?}");
    // Name mismatch: the certificate names localhost, the URL 127.0.0.1.
    let f = client_failure(client_tls(&good), &format!("https://127.0.0.1:{port}/"));
    assert!(matches!(f, TlsFailure::NameMismatch), "{f:?}");
    // Expired.
    let dir2 = TempDir::new("std-expired");
    let old = cert(&["localhost"], true);
    let s2 = StdServer::start(Server::builder(), server_tls(&dir2, &old), false);
    let f = client_failure(
        client_tls(&old),
        &format!("https://localhost:{}/", s2.addr.port()),
    );
    assert!(matches!(f, TlsFailure::Expired), "{f:?}");
    // A CA certificate as the server's own, its name in the subjectAltName.
    let dir3 = TempDir::new("std-ca");
    let ca = ca_cert(&["localhost"]);
    let s3 = StdServer::start(Server::builder(), server_tls(&dir3, &ca), false);
    let f = client_failure(
        client_tls(&ca),
        &format!("https://localhost:{}/", s3.addr.port()),
    );
    assert!(matches!(f, TlsFailure::CaUsedAsEndEntity), "{f:?}");
    assert!(
        f.to_string().contains("basicConstraints=critical,CA:FALSE"),
        "{f}"
    );
    // A server that never answers the ClientHello.
    let mute = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let tls = client_tls(&good).handshake_timeout(Duration::from_millis(300));
    let f = client_failure(
        tls,
        &format!("https://localhost:{}/", mute.local_addr().unwrap().port()),
    );
    assert!(matches!(f, TlsFailure::HandshakeTimeout), "{f:?}");
}

/// An 8 MiB upload to a server whose body limit is 1 MiB and that answers
/// `413` without reading: the caller gets the `413`, in each of the four
/// cases, 10 times out of 10.
#[test]
fn an_early_413_survives_tls_for_the_blocking_client() {
    let dir = TempDir::new("std-413");
    let c = cert(&["localhost"], false);
    let b = Server::builder().max_body_bytes(1 << 20);
    let s = StdServer::start(b, server_tls(&dir, &c), true);
    let url = format!("https://localhost:{}/", s.addr.port());
    let body = vec![b'x'; 8 << 20];
    let mut failed = Vec::new();
    for (chunked, expect) in [(true, true), (true, false), (false, true), (false, false)] {
        let mut ok = 0;
        for _ in 0..10 {
            let mut b = Client::builder();
            if !expect {
                b = b.expect_continue(None);
            }
            let tls = client_tls(&c);
            let client = b
                .connector(move |h: &str, p: u16| tls.connect(h, p))
                .build();
            let mut reader = &body[..];
            let rb = if chunked {
                RequestBody::Reader {
                    reader: &mut reader,
                    len: None,
                }
            } else {
                RequestBody::Bytes(&body)
            };
            // With `expect`, the default: `Expect: 100-continue` above 1 MiB
            // and for every body of unknown length.
            match client.send(b"POST", &url, &[], rb) {
                Ok(r) if r.status() == 413 => ok += 1,
                Ok(r) => failed.push(format!("chunked={chunked} expect={expect}: {}", r.status())),
                Err(e) => failed.push(format!("chunked={chunked} expect={expect}: {e}")),
            }
        }
        assert_eq!(ok, 10, "chunked={chunked} expect={expect}: {failed:?}");
    }
}

/// `input_ready` answers from rustls' state: the session tickets a TLS 1.3
/// server sends after the handshake make the socket readable with nothing
/// in it for HTTP (a peek at the socket would say ready); a response does.
#[test]
fn input_ready_ignores_session_tickets_and_sees_a_response() {
    use http_net_std::Transport;
    let dir = TempDir::new("std-ready");
    let c = cert(&["localhost"], false);
    let s = StdServer::start(Server::builder(), server_tls(&dir, &c), false);
    let mut tls = client_tls(&c).connect("localhost", s.addr.port()).unwrap();
    // The tickets have arrived on the socket by now.
    std::thread::sleep(Duration::from_millis(200));
    let mut peek = [0u8; 1];
    tls.tcp().set_nonblocking(true).unwrap();
    let raw_readable = tls.tcp().peek(&mut peek).is_ok();
    tls.tcp().set_nonblocking(false).unwrap();
    assert!(raw_readable, "the server sent session tickets");
    assert_eq!(
        tls.input_ready().unwrap(),
        Some(false),
        "tickets are not input"
    );
    tls.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    tls.flush().unwrap();
    let until = Instant::now() + Duration::from_secs(5);
    while tls.input_ready().unwrap() != Some(true) {
        assert!(Instant::now() < until, "the response is seen");
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut got = [0u8; 12];
    tls.read_exact(&mut got).unwrap();
    assert_eq!(&got, b"HTTP/1.1 200");
}

/// A server that answers `response` over TLS and closes the TCP connection
/// without `close_notify`.
fn rude_server(c: &Cert, response: &'static [u8]) -> std::net::SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let mut cfg = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(vec![c.cert.clone()], c.key.clone_key())
        .unwrap();
    cfg.alpn_protocols = vec![b"http/1.1".to_vec()];
    let cfg = std::sync::Arc::new(cfg);
    std::thread::spawn(move || {
        let (sock, _) = l.accept().unwrap();
        sock.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let conn = rustls::ServerConnection::new(cfg).unwrap();
        let mut tls = rustls::StreamOwned::new(conn, sock);
        let mut buf = [0u8; 4096];
        let _ = tls.read(&mut buf);
        tls.write_all(response).unwrap();
        tls.flush().unwrap();
        // Dropped: the TCP connection closes, no close_notify.
    });
    addr
}

/// A peer that closes without `close_notify` truncates a close-delimited
/// body (an error naming it), and not a length-delimited one that arrived
/// whole.
#[test]
fn a_close_without_close_notify_truncates_a_close_delimited_body_only() {
    let c = cert(&["localhost"], false);
    let addr = rude_server(
        &c,
        b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the close",
    );
    let mut resp = client(client_tls(&c))
        .get(&format!("https://localhost:{}/", addr.port()))
        .unwrap();
    let e = resp.body_to_vec(1024).expect_err("truncated");
    let http_net_std::Error::Io(e) = e else {
        panic!("{e:?}")
    };
    assert!(
        matches!(TlsFailure::of(&e), Some(TlsFailure::Truncated)),
        "{e:?}"
    );
    let addr = rude_server(&c, b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nwhole");
    let mut resp = client(client_tls(&c))
        .get(&format!("https://localhost:{}/", addr.port()))
        .unwrap();
    assert_eq!(resp.body_to_vec(1024).unwrap(), b"whole");
}

//! Both clients' whole-request deadline (`ClientBuilder::request_timeout`,
//! conn's `RequestDeadline`), written once and run against each: an origin
//! that trickles its response one byte every 50 ms never lets a read wait
//! past the read timeout, yet the request ends at its deadline with
//! `Error::Timeout(Stage::Deadline)`, in the head and in the body.

use http_net_conn::ClientOptions;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::thread;
use std::time::{Duration, Instant};

/// An origin that reads a request head, writes `at_once`, then `slowly`
/// one byte every 50 ms (until the client goes away).
fn trickling(at_once: &'static [u8], slowly: &'static [u8]) -> SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    thread::spawn(move || {
        let Ok((mut s, _)) = l.accept() else { return };
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut head = Vec::new();
        let mut b = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match s.read(&mut b) {
                Ok(1) => head.push(b[0]),
                _ => return,
            }
        }
        if s.write_all(at_once).is_err() {
            return;
        }
        for byte in slowly {
            thread::sleep(Duration::from_millis(50));
            if s.write_all(&[*byte]).is_err() {
                return;
            }
        }
    });
    addr
}

/// A response whose head takes over 4 s to trickle.
const SLOW_HEAD: (&[u8], &[u8]) = (
    b"",
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\nok",
);
/// A head at once, then a body that takes 4 s to trickle.
const SLOW_BODY: (&[u8], &[u8]) = (
    b"HTTP/1.1 200 OK\r\nContent-Length: 80\r\n\r\n",
    b"01234567890123456789012345678901234567890123456789012345678901234567890123456789",
);

/// What a client made of a request to `addr` with a 600 ms deadline (and a
/// 2 s read timeout, which the trickle never reaches): the body, or the
/// error as `Debug`.
type Fetch = fn(SocketAddr) -> Result<Vec<u8>, String>;

fn std_fetch(addr: SocketAddr) -> Result<Vec<u8>, String> {
    let client = http_net_std::Client::builder()
        .read_timeout(Duration::from_secs(2))
        .request_timeout(Duration::from_millis(600))
        .build();
    let mut r = client
        .get(&format!("http://{addr}/"))
        .map_err(|e| format!("{e:?}"))?;
    r.body_to_vec(1024).map_err(|e| format!("{e:?}"))
}

fn tokio_fetch(addr: SocketAddr) -> Result<Vec<u8>, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = http_net_tokio::Client::builder()
            .read_timeout(Duration::from_secs(2))
            .request_timeout(Duration::from_millis(600))
            .build();
        let mut r = client
            .get(&format!("http://{addr}/"))
            .await
            .map_err(|e| format!("{e:?}"))?;
        r.body_to_vec(1024).await.map_err(|e| format!("{e:?}"))
    })
}

fn the_deadline_ends_a_trickle(fetch: Fetch) {
    for (at_once, slowly) in [SLOW_HEAD, SLOW_BODY] {
        let t = Instant::now();
        let got = fetch(trickling(at_once, slowly));
        let took = t.elapsed();
        assert_eq!(got, Err("Timeout(Deadline)".to_string()));
        assert!(took < Duration::from_millis(1500), "took {took:?}");
    }
}

#[test]
fn the_std_clients_deadline_ends_a_trickle() {
    the_deadline_ends_a_trickle(std_fetch);
}

#[test]
fn the_tokio_clients_deadline_ends_a_trickle() {
    the_deadline_ends_a_trickle(tokio_fetch);
}

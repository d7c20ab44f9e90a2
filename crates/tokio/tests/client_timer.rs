//! The client's one timer per connection: it stays with the pooled
//! connection, is re-armed when it fired for an earlier wait, moved when a
//! wait must end sooner, and never polled from another runtime than its own.

use http_net_tokio::ClientOptions;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

use http_net_tokio::{Client, Connector};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

/// A peer on its own thread: one connection, each request's head read
/// (and its body, by `Content-Length`; no `100 Continue` ever sent), then
/// after `delays[i]` the answer `ok`.
fn peer(delays: Vec<Duration>) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        let mut buf: Vec<u8> = Vec::new();
        let mut tmp = [0u8; 4096];
        for delay in delays {
            loop {
                if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("Content-Length: "))
                        .map_or(0, |v| v.parse().unwrap());
                    if buf.len() >= end + 4 + len {
                        buf.drain(..end + 4 + len);
                        break;
                    }
                }
                match s.read(&mut tmp) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => buf.extend_from_slice(&tmp[..n]),
                }
            }
            std::thread::sleep(delay);
            if s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                .is_err()
            {
                return;
            }
        }
        // Hold the connection until the client goes.
        let _ = s.read(&mut tmp);
    });
    port
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_timer_that_fired_for_an_earlier_wait_is_re_armed_not_a_timeout() {
    let port = peer(vec![Duration::from_millis(50), Duration::from_millis(150)]);
    runtime().block_on(async {
        let client = Client::builder()
            .read_timeout(Duration::from_millis(300))
            .build();
        let mut r = client
            .send_to("127.0.0.1", port, b"GET", b"/1", &[], b"")
            .await
            .unwrap();
        assert_eq!(r.body_to_vec(16).await.unwrap(), b"ok");
        drop(r);
        // The connection's timer (the first wait's end) fires while it idles.
        tokio::time::sleep(Duration::from_millis(450)).await;
        // Same connection; its answer comes within the read timeout.
        let mut r = client
            .send_to("127.0.0.1", port, b"GET", b"/2", &[], b"")
            .await
            .unwrap();
        assert_eq!(r.body_to_vec(16).await.unwrap(), b"ok");
    });
}

#[test]
fn a_wait_that_must_end_sooner_moves_the_timer_earlier() {
    let port = peer(vec![Duration::from_millis(50), Duration::ZERO]);
    runtime().block_on(async {
        let client = Client::builder()
            .read_timeout(Duration::from_secs(20))
            .expect_continue(Some(0))
            .expect_wait(Duration::from_millis(200))
            .build();
        let url = format!("http://127.0.0.1:{port}/");
        let mut r = client.get(&url).await.unwrap();
        assert_eq!(r.body_to_vec(16).await.unwrap(), b"ok");
        drop(r);
        // The connection's timer is at the read timeout, 20 s away; the
        // wait for `100 Continue` ends after 200 ms, and the body goes.
        let start = Instant::now();
        let mut r = client.request(b"POST", &url, &[], b"hello").await.unwrap();
        assert_eq!(r.body_to_vec(16).await.unwrap(), b"ok");
        let took = start.elapsed();
        assert!(
            took < Duration::from_secs(5),
            "the body waited {took:?} for 100 Continue"
        );
    });
}

/// Connections over in-memory pipes, not bound to a runtime; the peer
/// answers on a thread of its own, after 20 ms.
struct Pipes(std::sync::mpsc::Sender<DuplexStream>);

impl Connector for Pipes {
    type Stream = DuplexStream;
    async fn connect(&self, _host: &str, _port: u16) -> std::io::Result<DuplexStream> {
        let (ours, theirs) = tokio::io::duplex(4096);
        self.0.send(theirs).unwrap();
        Ok(ours)
    }
}

#[test]
fn a_pooled_connection_taken_by_another_runtime_waits_on_that_runtime() {
    let (tx, rx) = std::sync::mpsc::channel::<DuplexStream>();
    std::thread::spawn(move || {
        runtime().block_on(async move {
            let mut s = rx.recv().unwrap();
            let mut buf = [0u8; 4096];
            loop {
                match s.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
                let answer = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
                if s.write_all(answer).await.is_err() {
                    return;
                }
            }
        });
    });
    let client = Client::builder().connector(Pipes(tx));
    let get = |client: Client<Pipes>| async move {
        let mut r = client
            .send_to("peer", 80, b"GET", b"/", &[], b"")
            .await
            .unwrap();
        r.body_to_vec(16).await.unwrap()
    };
    // The connection and its timer made by a first runtime, which ends.
    let first = runtime();
    assert_eq!(first.block_on(get(client.clone())), b"ok");
    drop(first);
    // A second runtime reuses the pooled connection (the peer took one).
    assert_eq!(runtime().block_on(get(client.clone())), b"ok");
}

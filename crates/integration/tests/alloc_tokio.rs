//! Zero allocations per request in steady state: the counting global
//! allocator (`support/counting.rs`) counts what the server's thread
//! allocates (a current-thread runtime, so the accept loop, the connection
//! task and the I/O driver all run there), while a client on another thread sends requests over one
//! keep-alive connection: after a warm-up, a thousand more requests (plain
//! GETs, pipelined GETs, POSTs whose body the handler reads) allocate
//! nothing on the server. Some of them come after a pause longer than the
//! server's idle grace, so the connection lends its buffers to the server's
//! pool and takes them back: a slow peer's requests allocate nothing
//! either, even when the first such pause comes after the warm-up (CI once
//! saw one allocation there, the pool's first growth, when a loaded machine
//! paused the client by chance).

#[path = "support/counting.rs"]
mod counting;

use http_net_tokio::ServerOptions;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use counting::{count_here, marked_count};
use http_net_tokio::http_net_conn::PreparedResponse;
use http_net_tokio::{Exchange, Handler, HandlerError, Server};

struct App(PreparedResponse);

impl Handler for App {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        let mut sum = 0usize;
        let mut buf = [0u8; 256];
        loop {
            let n = ex.read_body(&mut buf).await?;
            if n == 0 {
                break;
            }
            sum += n;
        }
        let body: &[u8] = if sum == 0 {
            b"Hello, World!"
        } else {
            b"got it"
        };
        Ok(ex.respond(&self.0, body).await?)
    }
}

/// Reads exactly one response of `len` body bytes (the head is fixed size
/// but for the `Date`, which has a fixed length too).
fn read_one(s: &mut TcpStream, buf: &mut Vec<u8>) {
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .expect("length")
                .parse()
                .unwrap();
            if buf.len() >= end + 4 + len {
                assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
                buf.drain(..end + 4 + len);
                return;
            }
        }
        let mut tmp = [0u8; 4096];
        let n = s.read(&mut tmp).unwrap();
        assert!(n > 0, "server closed");
        buf.extend_from_slice(&tmp[..n]);
    }
}

/// `rounds` rounds of requests; with `pause_every`, every that many rounds
/// the client waits 5 ms first (longer than the server's 1 ms idle grace).
fn traffic(s: &mut TcpStream, buf: &mut Vec<u8>, rounds: usize, pause_every: Option<usize>) {
    const GET: &[u8] = b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n";
    const POST: &[u8] =
        b"POST /in HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n";
    for i in 0..rounds {
        if pause_every.is_some_and(|every| i % every == every - 1) {
            std::thread::sleep(Duration::from_millis(5));
        }
        match i % 3 {
            0 => {
                s.write_all(GET).unwrap();
                read_one(s, buf);
            }
            1 => {
                let mut four = Vec::new();
                for _ in 0..4 {
                    four.extend_from_slice(GET);
                }
                s.write_all(&four).unwrap();
                for _ in 0..4 {
                    read_one(s, buf);
                }
            }
            _ => {
                s.write_all(POST).unwrap();
                read_one(s, buf);
            }
        }
    }
}

#[test]
fn steady_state_requests_allocate_nothing_on_the_server() {
    let (tx, rx) = std::sync::mpsc::channel();
    let server_thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            // Every request on one connection: no per-connection limit.
            let server = Server::builder()
                .server_name("http-net")
                .max_requests_per_connection(0)
                .bind("127.0.0.1:0")
                .await
                .unwrap();
            tx.send((server.local_addr().unwrap(), server.handle()))
                .unwrap();
            let hello = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
            // Count from here on, on this thread only.
            count_here(true);
            let r = server.serve(App(hello)).await;
            count_here(false);
            r
        })
    });
    let (addr, handle) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut buf = Vec::with_capacity(64 * 1024);
    // Warm-up: the connection's task, buffers and registrations.
    // Warm-up without pauses: the buffers are never lent here.
    traffic(&mut s, &mut buf, 300, None);
    let before = marked_count();
    traffic(&mut s, &mut buf, 1000, Some(100));
    let after = marked_count();
    handle.shutdown();
    drop(s);
    server_thread.join().unwrap().unwrap();
    // 1000 rounds: 334 + 333 × 4 + 333 = 1,999 requests.
    assert_eq!(
        after - before,
        0,
        "server allocations over 1,999 requests in steady state"
    );
    assert!(
        before > 0,
        "the counter counts (the connection's buffers at least)"
    );
}

//! Zero allocations per request in steady state on the tokio client: the
//! counting global allocator (`support/counting.rs`) counts what the
//! client's thread allocates (a current-thread runtime, so the client's
//! futures, its pool and the I/O and time drivers all run there), while a
//! peer on another thread answers over one keep-alive connection: after a
//! warm-up, a thousand more requests (GETs, POSTs with a small body, one
//! with a field of the caller's, GETs to a URL) allocate nothing on the
//! client.

#[path = "support/answering_peer.rs"]
mod answering_peer;
#[path = "support/counting.rs"]
mod counting;

use std::net::TcpListener;

use answering_peer::peer;
use counting::thread_count;

async fn traffic(
    client: &http_net_tokio::Client,
    (port, url): (u16, &str),
    rounds: usize,
    buf: &mut [u8],
) {
    for i in 0..rounds {
        let mut resp = match i % 4 {
            0 => {
                client
                    .send_to("127.0.0.1", port, b"GET", b"/a", &[], b"")
                    .await
            }
            1 => {
                client
                    .send_to("127.0.0.1", port, b"POST", b"/in", &[], b"hello")
                    .await
            }
            2 => {
                client
                    .request(b"GET", url, &[(b"Accept", b"*/*")], b"")
                    .await
            }
            _ => {
                client
                    .send_to(
                        "127.0.0.1",
                        port,
                        b"GET",
                        b"/b",
                        &[(b"Accept", b"*/*")],
                        b"",
                    )
                    .await
            }
        }
        .unwrap();
        assert_eq!(resp.status(), 200);
        let mut got = 0;
        loop {
            let n = resp.read_body(buf).await.unwrap();
            if n == 0 {
                break;
            }
            got += n;
        }
        assert_eq!(got, 64);
    }
}

#[test]
fn steady_state_requests_allocate_nothing_on_the_client() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let peer = std::thread::spawn(move || peer(l));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (before, during) = rt.block_on(async {
        let client = http_net_tokio::Client::new();
        let url = format!("http://127.0.0.1:{port}/u?x=1");
        let mut buf = vec![0u8; 4096];
        // Warm-up: the connection, its buffers, the pool's entry.
        let start = thread_count();
        traffic(&client, (port, &url), 300, &mut buf).await;
        let before = thread_count() - start;
        let mark = thread_count();
        traffic(&client, (port, &url), 1000, &mut buf).await;
        let during = thread_count() - mark;
        (before, during)
    });
    drop(rt);
    peer.join().unwrap();
    assert_eq!(
        during, 0,
        "client allocations over 1,000 requests in steady state"
    );
    assert!(
        before > 0,
        "the counter counts (the connection's buffers at least)"
    );
}

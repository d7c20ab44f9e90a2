//! Zero allocations per request in steady state on the std client: the
//! counting global allocator (`support/counting.rs`) counts what the
//! client's thread allocates, while a peer on another thread answers over
//! one keep-alive connection: after a warm-up, a thousand more requests to
//! a URL (GETs, POSTs with a small body, one with a field of the caller's)
//! allocate nothing on the client.

#[path = "support/answering_peer.rs"]
mod answering_peer;
#[path = "support/counting.rs"]
mod counting;

use std::net::TcpListener;

use answering_peer::peer;
use counting::thread_count;
fn traffic(client: &http_net_std::Client, urls: &[String; 2], rounds: usize, buf: &mut [u8]) {
    for i in 0..rounds {
        let mut resp = match i % 3 {
            0 => client.request(b"GET", &urls[0], &[], b""),
            1 => client.request(b"POST", &urls[1], &[], b"hello"),
            _ => client.request(b"GET", &urls[0], &[(b"Accept", b"*/*")], b""),
        }
        .unwrap();
        assert_eq!(resp.status(), 200);
        let mut got = 0;
        loop {
            let n = resp.read_body(buf).unwrap();
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
    let urls = [
        format!("http://127.0.0.1:{port}/a"),
        format!("http://127.0.0.1:{port}/in?x=1"),
    ];
    let client = http_net_std::Client::new();
    let mut buf = vec![0u8; 4096];
    // Warm-up: the connection, its buffers, the pool's entry.
    let start = thread_count();
    traffic(&client, &urls, 300, &mut buf);
    let before = thread_count() - start;
    let mark = thread_count();
    traffic(&client, &urls, 1000, &mut buf);
    let during = thread_count() - mark;
    drop(client);
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

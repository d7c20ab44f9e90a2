//! Scheduling and admission under pressure, over loopback: a pipelining
//! peer takes its turn with the others, a new connection is answered ahead
//! of the turns already queued, the per-peer cap, the eviction grace and
//! the whole-response deadline. Every test stops its server.

mod common;

use http_net_tokio::ServerOptions;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{connect, next_status, read_response, roundtrip, sent, start, status_of};
use http_net_tokio::http_net_conn::BodyLength;
use http_net_tokio::{Exchange, Handler, HandlerError, Server, ServerBuilder};

/// Counts the requests served; `/block` holds the runtime's thread for
/// 300 ms (so that bytes pile up in other sockets meanwhile), `/b` records
/// how many requests were served before it.
#[derive(Default)]
struct Order {
    served: AtomicUsize,
    b_at: AtomicUsize,
}

struct Ordered(Arc<Order>);

impl Handler for Ordered {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        match ex.path() {
            // Blocking on purpose: nothing else runs on this thread meanwhile.
            b"/block" => std::thread::sleep(Duration::from_millis(300)),
            b"/b" => self
                .0
                .b_at
                .store(self.0.served.load(Ordering::SeqCst), Ordering::SeqCst),
            _ => {}
        }
        self.0.served.fetch_add(1, Ordering::SeqCst);
        Ok(ex.respond_with(200, &[], b"").await?)
    }
}

fn builder() -> ServerBuilder {
    Server::builder().shutdown_timeout(Duration::from_secs(5))
}

const GET_A: &[u8] = b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n";
const GET_B: &[u8] = b"GET /b HTTP/1.1\r\nHost: a\r\n\r\n";

/// A request that holds the runtime's thread, with 200 more behind it.
fn blocking_burst() -> Vec<u8> {
    let mut burst = b"GET /block HTTP/1.1\r\nHost: a\r\n\r\n".to_vec();
    burst.extend(GET_A.repeat(200));
    burst
}

#[test]
fn a_connection_pipelining_without_end_yields_to_the_others() {
    let order = Arc::new(Order::default());
    let srv = start(builder(), Ordered(Arc::clone(&order)), false);
    let mut a = connect(srv.addr);
    let mut b = connect(srv.addr);
    std::thread::sleep(Duration::from_millis(100));
    // `a` blocks the thread, with 200 requests behind it in its buffer; `b`
    // asks meanwhile.
    a.write_all(&blocking_burst()).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(status_of(&mut b, GET_B), 200);
    let at = order.b_at.load(Ordering::SeqCst);
    // `a` yields after a turn of 16 requests (not after all 201).
    assert!(at <= 40, "b was served after {at} requests");
    drop(a);
    srv.stop();
}

#[test]
fn a_new_connection_is_answered_ahead_of_the_turns_already_queued() {
    let order = Arc::new(Order::default());
    let srv = start(builder(), Ordered(Arc::clone(&order)), false);
    let mut peers: Vec<_> = (0..8).map(|_| connect(srv.addr)).collect();
    std::thread::sleep(Duration::from_millis(100));
    peers[0].write_all(&blocking_burst()).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    // While the thread is held: seven more pipeliners get their requests,
    // and a new connection arrives with one.
    for p in &mut peers[1..] {
        p.write_all(&GET_A.repeat(200)).unwrap();
    }
    let mut b = connect(srv.addr);
    assert_eq!(status_of(&mut b, GET_B), 200);
    let at = order.b_at.load(Ordering::SeqCst);
    // Spawned behind the eight pipeliners it would wait for a turn of
    // each (about 8 × 16 requests); its first turn runs when it is accepted.
    assert!(
        at <= 60,
        "the new connection was served after {at} requests"
    );
    drop(peers);
    srv.stop();
}

struct Hi;

impl Handler for Hi {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        Ok(ex.respond_with(200, &[], b"hi").await?)
    }
}

#[test]
fn beyond_the_per_peer_cap_503_whatever_the_free_slots() {
    let srv = start(builder().max_connections_per_peer(2), Hi, false);
    let mut held: Vec<_> = (0..2)
        .map(|_| {
            let mut s = connect(srv.addr);
            assert_eq!(status_of(&mut s, GET_A), 200);
            s
        })
        .collect();
    // Two idle connections from 127.0.0.1 and 1,022 free slots: a third
    // from the same address is refused, and evicts neither.
    let r = roundtrip(srv.addr, GET_A).unwrap();
    assert_eq!(r.status, 503);
    assert_eq!(r.field("retry-after"), Some("1"));
    for s in &mut held {
        assert_eq!(status_of(s, GET_A), 200);
    }
    let c = srv.handle.counters();
    assert_eq!((c.refused, c.evicted.idle), (1, 0));
    // Once one closes, the address may connect again.
    drop(held.pop());
    let t = Instant::now();
    loop {
        let r = roundtrip(srv.addr, GET_A).unwrap();
        if r.status == 200 {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(5), "still refused");
        std::thread::sleep(Duration::from_millis(20));
    }
    srv.stop();
}

#[test]
fn a_head_older_than_the_eviction_grace_goes_before_a_new_connection() {
    let b = builder()
        .max_connections(2)
        .eviction_grace(Duration::from_millis(200));
    let srv = start(b, Hi, false);
    // The older connection sends nothing; the younger starts a head and
    // stops, then spends longer than the grace on it.
    let mut fresh = connect(srv.addr);
    std::thread::sleep(Duration::from_millis(50));
    let mut slow = sent(srv.addr, b"GET / HTTP/1.1\r\nHo");
    std::thread::sleep(Duration::from_millis(500));
    let r = roundtrip(srv.addr, GET_A).unwrap();
    assert_eq!(r.status, 200);
    // The head is evicted (503); the connection that is older but has not
    // been under way for the grace stays.
    assert_eq!(next_status(&mut slow), 503);
    assert_eq!(status_of(&mut fresh, GET_A), 200);
    assert_eq!(srv.handle.counters().evicted.head, 1);
    srv.stop();
}

/// A streamed answer of 20 pieces, 100 ms apart.
struct Drip;

impl Handler for Drip {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        ex.send_head(200, &[], BodyLength::Streamed)?;
        for _ in 0..20 {
            ex.send_data(b"x").await?;
            ex.flush().await?;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(ex.send_end(&[])?)
    }
}

#[test]
fn a_response_past_the_response_timeout_is_cut() {
    let b = builder().response_timeout(Some(Duration::from_millis(500)));
    let srv = start(b, Drip, false);
    let mut s = sent(srv.addr, GET_A);
    let t = Instant::now();
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    let took = t.elapsed();
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    // Cut: no last chunk, well before the 2 s the answer would take.
    assert!(!text.ends_with("0\r\n\r\n"), "{text}");
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert_eq!(srv.handle.counters().timed_out.write, 1);
    srv.stop();
}

#[test]
fn without_a_response_timeout_a_slow_answer_completes() {
    let srv = start(builder(), Drip, false);
    let mut s = sent(srv.addr, GET_A);
    let r = read_response(&mut s, &mut Vec::new(), false).unwrap();
    assert_eq!((r.status, r.body.len()), (200, 20));
    drop(s);
    srv.stop();
}

//! A new connection on a warm pool thread reuses the `ServerConn` of the
//! thread's last one (`ServerConn::reset`): accepting and serving it
//! allocates nothing on that thread. The per-thread count of the counting
//! allocator (`support/counting.rs`): the handler (on the pool thread)
//! publishes the thread's count, and each thread's count is compared with
//! its count at its previous connection.

#[path = "support/counting.rs"]
mod counting;
mod support;

use http_net_std::ServerOptions;
use std::cell::Cell;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use counting::thread_count;
use http_net_conn::PreparedResponse;
use http_net_std::{Error, Exchange, Server};
use support::std_io::{serve, stop};

thread_local! {
    static TAG: Cell<u64> = const { Cell::new(0) };
}

/// Which pool thread served the last request, and its allocation count then.
static THREAD: AtomicU64 = AtomicU64::new(0);
static COUNT: AtomicU64 = AtomicU64::new(0);
static NEXT_TAG: AtomicU64 = AtomicU64::new(1);

#[test]
fn a_new_connection_on_a_warm_thread_allocates_nothing() {
    let hello = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    let serving = serve(
        Server::builder().server_name("http-net"),
        move |ex: &mut Exchange<'_>| -> Result<(), Error> {
            let tag = TAG.with(|t| {
                if t.get() == 0 {
                    t.set(NEXT_TAG.fetch_add(1, Ordering::SeqCst));
                }
                t.get()
            });
            COUNT.store(thread_count(), Ordering::SeqCst);
            THREAD.store(tag, Ordering::SeqCst);
            ex.respond(&hello, b"Hello, World!")
        },
    );
    // One request per connection; the server closes (Connection: close), and
    // the client closes too, so the thread ends the connection and goes
    // back to the pool before the next one (the pause makes that likely).
    // Each thread's count is compared with its own count at its previous
    // connection, whichever pool thread serves.
    let req = b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
    // The last count each pool thread published.
    let mut last: Vec<(u64, u64)> = Vec::new();
    let (mut compared, mut allocs) = (0, Vec::new());
    for i in 0..60 {
        let mut s = TcpStream::connect(&serving.0).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(req).unwrap();
        let mut got = Vec::new();
        s.read_to_end(&mut got).unwrap();
        assert!(got.starts_with(b"HTTP/1.1 200 OK\r\n"));
        assert!(got.ends_with(b"Hello, World!"));
        drop(s);
        let (tag, now) = (THREAD.load(Ordering::SeqCst), COUNT.load(Ordering::SeqCst));
        match last.iter_mut().find(|(t, _)| *t == tag) {
            Some((_, prev)) => {
                // The first connections warm things up (the registry's
                // HashMap, a thread's first ServerConn).
                if i >= 10 {
                    compared += 1;
                    allocs.push(now - *prev);
                }
                *prev = now;
            }
            None => last.push((tag, now)),
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        compared >= 40,
        "only {compared} connections on a warm thread"
    );
    assert!(
        allocs.iter().all(|&n| n == 0),
        "allocations per connection on a warm thread: {allocs:?}"
    );
    stop(serving);
}

//! After warm-up, serving a request through the blocking server allocates
//! nothing: a counting global allocator over 1,000 keep-alive requests.
//!
//! Only the threads that take part in the exchange count: the server's
//! connection thread (which marks itself from inside the handler) and the
//! test's client thread. Other threads of the process (the test harness,
//! the server's accept loop) are not part of serving a request, and a
//! process-wide count made this test fail now and then when one of them
//! allocated.

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use http_net_conn::PreparedResponse;
use http_net_std::{Error, Exchange, Server};
use support::{serve, stop};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    // Const-initialised and without a destructor: reading it never allocates.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTED.with(Cell::get) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn serving_a_request_allocates_nothing() {
    let hello = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    // 1,100 requests on one connection: no per-connection request limit.
    let serving = serve(
        Server::builder().max_requests_per_connection(0),
        move |ex: &mut Exchange<'_>| -> Result<(), Error> {
            COUNTED.with(|c| c.set(true));
            ex.respond(&hello, b"Hello, World!")
        },
    );
    let mut s = TcpStream::connect(&serving.0).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let req = b"GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut buf = [0u8; 4096];
    let mut exchange = |s: &mut TcpStream| {
        s.write_all(req).unwrap();
        let mut got = 0;
        loop {
            let n = s.read(&mut buf[got..]).unwrap();
            assert!(n > 0, "closed");
            got += n;
            if buf[..got].ends_with(b"Hello, World!") {
                break;
            }
        }
        assert!(buf.starts_with(b"HTTP/1.1 200 OK\r\n"));
    };
    for _ in 0..100 {
        exchange(&mut s);
    }
    COUNTED.with(|c| c.set(true));
    let before = ALLOCS.load(Ordering::SeqCst);
    for _ in 0..1000 {
        exchange(&mut s);
    }
    let allocs = ALLOCS.load(Ordering::SeqCst) - before;
    COUNTED.with(|c| c.set(false));
    assert_eq!(allocs, 0, "{allocs} allocations for 1,000 requests");
    drop(s);
    stop(serving);
}

//! After warm-up, serving a request through the blocking server allocates
//! nothing: the counting global allocator (`support/counting.rs`) over
//! 1,000 keep-alive requests.
//!
//! Only the threads that take part in the exchange count: the server's
//! connection thread (which marks itself from inside the handler) and the
//! test's client thread. Other threads of the process (the test harness,
//! the server's accept loop) are not part of serving a request, and a
//! process-wide count made this test fail now and then when one of them
//! allocated.

#[path = "support/counting.rs"]
mod counting;
mod support;

use http_net_std::ServerOptions;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use counting::{count_here, marked_count};
use http_net_conn::PreparedResponse;
use http_net_std::{Error, Exchange, Server};
use support::std_io::{serve, stop};

#[test]
fn serving_a_request_allocates_nothing() {
    let hello = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    // 1,100 requests on one connection: no per-connection request limit.
    let serving = serve(
        Server::builder().max_requests_per_connection(0),
        move |ex: &mut Exchange<'_>| -> Result<(), Error> {
            count_here(true);
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
    count_here(true);
    let before = marked_count();
    for _ in 0..1000 {
        exchange(&mut s);
    }
    let allocs = marked_count() - before;
    count_here(false);
    assert_eq!(allocs, 0, "{allocs} allocations for 1,000 requests");
    drop(s);
    stop(serving);
}

//! Issue 22: answers through `Exchange::conn()` whose body the connection
//! leaves to the caller (`Placement::AfterOutput`, over `COPY_LIMIT`).
//! `Exchange::send_placed` sends it; a handler that does not leaves a
//! promise unkept: the connection closes after what was due before the
//! body, never to be reused, and the server counts the application's error.

mod common;

use http_net_tokio::ServerOptions;
use std::io::Write;
use std::time::{Duration, Instant};

use common::{closed, connect, fill_until, read_response, sent, start, Running};
use http_net_tokio::http_net_conn::{BodyLength, Placement, PreparedResponse};
use http_net_tokio::{Exchange, Handler, HandlerError, Server, ServerBuilder};

/// The 64 KiB body, a pattern that a lost or repeated piece breaks.
fn big() -> Vec<u8> {
    (0..64 * 1024).map(|i| (i % 251) as u8).collect()
}

struct Placed {
    ok: PreparedResponse,
    big: Vec<u8>,
    /// 64 MiB, for a peer that does not read it.
    huge: Vec<u8>,
}

impl Handler for Placed {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        Ok(match ex.path() {
            b"/placed" => {
                let placement = ex.conn().responder().respond(&self.ok, &self.big)?;
                assert_eq!(placement, Placement::AfterOutput);
                ex.send_placed(placement, &self.big).await
            }
            b"/small" => {
                let placement = ex.conn().responder().respond(&self.ok, b"hi")?;
                assert_eq!(placement, Placement::Queued);
                ex.send_placed(placement, b"hi").await
            }
            // The head sent first: the body piece finds no output pending.
            b"/placed-after-flush" | b"/forgot-after-flush" => {
                ex.send_head(200, &[], BodyLength::Known(self.big.len() as u64))?;
                ex.flush().await?;
                let placement = ex.conn().responder().send_data(&self.big)?;
                assert_eq!(placement, Placement::AfterOutput);
                if ex.path() == b"/placed-after-flush" {
                    ex.send_placed(placement, &self.big).await?;
                }
                // The response is whole as far as the counts go.
                ex.send_end(&[])
            }
            b"/forgot" => {
                let placement = ex.conn().responder().respond(&self.ok, &self.big)?;
                assert_eq!(placement, Placement::AfterOutput);
                Ok(())
            }
            // Ten bytes promised, three sent, no end.
            b"/short" => {
                ex.send_head(200, &[], BodyLength::Known(10))?;
                ex.send_data(b"abc").await
            }
            b"/huge" => {
                let placement = ex.conn().responder().respond(&self.ok, &self.huge)?;
                ex.send_placed(placement, &self.huge).await
            }
            _ => ex.respond_with(404, &[], b"").await,
        }?)
    }
}

fn serve_with(b: ServerBuilder) -> Running {
    let app = Placed {
        ok: PreparedResponse::new(200, &[(b"Content-Type", b"application/octet-stream")]).unwrap(),
        big: big(),
        huge: vec![b'x'; 64 * 1024 * 1024],
    };
    start(b.shutdown_timeout(Duration::from_secs(5)), app, false)
}

fn serve() -> Running {
    serve_with(Server::builder())
}

#[test]
fn a_body_sent_with_send_placed_reaches_the_peer_whole_and_the_connection_goes_on() {
    let srv = serve();
    let mut s = connect(srv.addr);
    let mut rest = Vec::new();
    for path in ["/placed", "/small", "/placed"] {
        let req = format!("GET {path} HTTP/1.1\r\nHost: a\r\n\r\n");
        s.write_all(req.as_bytes()).unwrap();
        let r = read_response(&mut s, &mut rest, false).expect("a whole response");
        assert_eq!(r.status, 200, "{path}: {}", r.head);
        let want = if path == "/small" {
            b"hi".to_vec()
        } else {
            big()
        };
        assert_eq!(r.field("content-length"), Some(&*want.len().to_string()));
        assert!(
            r.body == want,
            "{path}: {} bytes of {}",
            r.body.len(),
            want.len()
        );
    }
    let c = srv.handle.counters();
    assert_eq!(c.accepted, 1, "one connection carried all three");
    assert_eq!(c.unsent_bodies, 0);
    srv.stop();
}

#[test]
fn a_body_left_unsent_closes_the_connection_and_is_the_applications_error() {
    forgotten("/forgot");
}

#[test]
fn a_body_left_unsent_after_a_flush_closes_the_connection_too() {
    // The head went out before the body piece was given: nothing was
    // pending, and conn recorded no debt before (the second response went
    // where the body belonged, on a connection kept open).
    forgotten("/forgot-after-flush");
}

#[test]
fn a_body_placed_after_a_flush_reaches_the_peer_and_the_connection_goes_on() {
    let srv = serve();
    let mut s = connect(srv.addr);
    let mut rest = Vec::new();
    for path in ["/placed-after-flush", "/small"] {
        let req = format!("GET {path} HTTP/1.1\r\nHost: a\r\n\r\n");
        s.write_all(req.as_bytes()).unwrap();
        let r = read_response(&mut s, &mut rest, false).expect("a whole response");
        assert_eq!(r.status, 200, "{path}: {}", r.head);
        let want = if path == "/small" {
            b"hi".to_vec()
        } else {
            big()
        };
        assert!(r.body == want, "{path}: {} bytes", r.body.len());
    }
    assert_eq!(srv.handle.counters().unsent_bodies, 0);
    srv.stop();
}

/// `path` leaves its 64 KiB body unsent: the connection closes before the
/// body's end, the next request is not answered in its place, and the
/// application's error is counted.
fn forgotten(path: &str) {
    let srv = serve();
    let mut s = connect(srv.addr);
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    // Two requests in one write: the second must not be answered where the
    // first one's body belongs.
    let reqs =
        format!("GET {path} HTTP/1.1\r\nHost: a\r\n\r\nGET /small HTTP/1.1\r\nHost: a\r\n\r\n");
    s.write_all(reqs.as_bytes()).unwrap();
    let t = Instant::now();
    let mut got = Vec::new();
    assert!(fill_until(&mut s, &mut got, b"\r\n\r\n"), "no head");
    let text = String::from_utf8_lossy(&got).into_owned();
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(text.contains("Content-Length: 65536\r\n"), "{text}");
    // Then the end of the connection, before the promised body's end, and
    // no second response.
    let head_end = got.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let mut body = got.split_off(head_end);
    let mut b = [0u8; 4096];
    loop {
        use std::io::Read;
        match s.read(&mut b) {
            Ok(0) => break,
            Ok(n) => body.extend_from_slice(&b[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!(
                "the connection stayed open: {e}; after the head: {:?}",
                String::from_utf8_lossy(&body)
            ),
        }
    }
    assert!(body.len() < 64 * 1024, "the whole body arrived");
    assert!(
        !String::from_utf8_lossy(&body).contains("HTTP/1.1 "),
        "a second response was sent in the body's place"
    );
    assert!(closed(&mut s));
    assert!(t.elapsed() < Duration::from_secs(5));
    // The application's error, counted before the connection closed.
    assert_eq!(srv.handle.counters().unsent_bodies, 1);
    srv.stop();
}

/// An answer begun and not ended is the application's error too: the
/// connection closes after the bytes sent, and it is counted.
#[test]
fn an_answer_begun_and_not_ended_is_counted_and_closes() {
    let srv = serve();
    let mut s = sent(
        srv.addr,
        b"GET /short HTTP/1.1\r\nHost: a\r\n\r\nGET /small HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    let mut got = Vec::new();
    assert!(fill_until(&mut s, &mut got, b"\r\n\r\nabc"), "{got:?}");
    assert!(closed(&mut s), "the connection is not reused");
    let text = String::from_utf8_lossy(&got);
    assert_eq!(text.matches("HTTP/1.1 ").count(), 1, "{text}");
    assert_eq!(srv.handle.counters().unsent_bodies, 1);
    srv.stop();
}

/// The bytes `send_placed` writes are a response's like any other: a peer
/// that does not read them is cut by the write timeout, one that reads too
/// slowly by the minimum response rate.
#[test]
fn send_placed_writes_are_bounded_by_the_write_timeout_and_the_response_rate() {
    let huge = b"GET /huge HTTP/1.1\r\nHost: a\r\n\r\n";
    // Nothing read: the write timeout.
    let srv = serve_with(
        Server::builder()
            .min_response_rate(0, Duration::ZERO)
            .write_timeout(Duration::from_millis(300)),
    );
    let s = sent(srv.addr, huge);
    let t = Instant::now();
    while srv.handle.counters().timed_out.write == 0 {
        assert!(t.elapsed() < Duration::from_secs(10), "no write timeout");
        std::thread::sleep(Duration::from_millis(20));
    }
    let c = srv.handle.counters();
    assert_eq!((c.timed_out.write, c.unsent_bodies), (1, 0), "counted once");
    drop(s);
    srv.stop();
    // Read late: below the minimum response rate (what was written earns
    // well under 1.5 s at 20 MB/s).
    let srv = serve_with(
        Server::builder()
            .min_response_rate(20_000_000, Duration::from_millis(300))
            .write_timeout(Duration::from_secs(20)),
    );
    let mut s = sent(srv.addr, huge);
    std::thread::sleep(Duration::from_millis(1500));
    let t = Instant::now();
    let mut total = 0usize;
    let mut buf = [0u8; 65536];
    loop {
        use std::io::Read;
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n,
        }
    }
    assert!(total < 64 * 1024 * 1024, "the whole body arrived");
    assert!(t.elapsed() < Duration::from_secs(5));
    let c = srv.handle.counters();
    assert_eq!((c.timed_out.write, c.unsent_bodies), (1, 0), "{c:?}");
    srv.stop();
}

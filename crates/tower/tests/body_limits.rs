//! Body limits are the service's, as on hyper: the server's default body
//! budget (8 MiB) does not apply to a `ServiceHandler`, so axum's
//! `DefaultBodyLimit` decides, and a layer around the router (a
//! `TraceLayer`'s place) sees every answer; a budget set with
//! `max_body_bytes` still applies, before the service.
#![cfg(feature = "axum")]

mod support;

use http_net_tokio::ServerOptions;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{DefaultBodyLimit, Request};
use axum::middleware::{self, Next};
use axum::routing::post;
use axum::Router;
use bytes::Bytes;
use http_net_tower::ServiceHandler;
use support::{connect, parse, read_all, start, Resp};

/// 20 MB: over axum's 2 MB default and the server's 8 MiB default.
const BIG: usize = 20_000_000;

/// The statuses the layer around the router saw.
type Seen = Arc<Mutex<Vec<u16>>>;

/// `/limited` reads the body with axum's default limit (2 MB);
/// `/unlimited` with `DefaultBodyLimit::disable()`; both answer its
/// length. A layer around both records each answer's status.
fn app(seen: Seen) -> Router {
    let len = |b: Bytes| async move { b.len().to_string() };
    Router::new()
        .route("/limited", post(len))
        .route("/unlimited", post(len).layer(DefaultBodyLimit::disable()))
        .layer(middleware::from_fn(move |req: Request, next: Next| {
            let seen = Arc::clone(&seen);
            async move {
                let r = next.run(req).await;
                seen.lock().unwrap().push(r.status().as_u16());
                r
            }
        }))
}

/// Posts `BIG` bytes of body to `path`, declared (`Content-Length`) or
/// chunked (64 KiB chunks), from a thread of its own (write errors
/// ignored: a refused body is cut), and reads the answer until the server
/// closes.
fn upload(addr: SocketAddr, path: &str, chunked: bool) -> Resp {
    let mut s = connect(addr);
    let framing = if chunked {
        "Transfer-Encoding: chunked".to_string()
    } else {
        format!("Content-Length: {BIG}")
    };
    let head = format!("POST {path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n{framing}\r\n\r\n");
    let mut w = s.try_clone().unwrap();
    let writer = std::thread::spawn(move || {
        let block = vec![b'u'; 64 * 1024];
        let _ = w.write_all(head.as_bytes());
        let mut left = BIG;
        while left > 0 {
            let n = left.min(block.len());
            let sent = if chunked {
                let mut c = format!("{n:x}\r\n").into_bytes();
                c.extend_from_slice(&block[..n]);
                c.extend_from_slice(b"\r\n");
                w.write_all(&c)
            } else {
                w.write_all(&block[..n])
            };
            if sent.is_err() {
                return;
            }
            left -= n;
        }
        if chunked {
            let _ = w.write_all(b"0\r\n\r\n");
        }
    });
    let answer = read_all(&mut s);
    drop(s);
    let _ = writer.join();
    parse(&answer)
}

#[test]
fn a_route_without_disable_gets_axums_own_413_seen_by_the_layer() {
    let seen = Seen::default();
    let s = start(
        http_net_tokio::Server::builder(),
        ServiceHandler::new(app(Arc::clone(&seen))),
    );
    let r = upload(s.addr, "/limited", false);
    assert_eq!(r.status, 413, "{r:?}");
    // axum's text, not the server's.
    let text = String::from_utf8_lossy(&r.body);
    assert!(text.ends_with("length limit exceeded"), "{text}");
    assert_eq!(*seen.lock().unwrap(), [413]);
}

#[test]
fn twenty_megabytes_declared_and_chunked_reach_a_route_with_disable() {
    let seen = Seen::default();
    let s = start(
        http_net_tokio::Server::builder(),
        ServiceHandler::new(app(Arc::clone(&seen))),
    );
    for chunked in [false, true] {
        let r = upload(s.addr, "/unlimited", chunked);
        assert_eq!(r.status, 200, "chunked {chunked}: {r:?}");
        assert_eq!(r.body, BIG.to_string().as_bytes(), "chunked {chunked}");
    }
    assert_eq!(*seen.lock().unwrap(), [200, 200]);
}

#[test]
fn a_budget_set_with_max_body_bytes_still_applies_before_the_service() {
    let seen = Seen::default();
    let s = start(
        http_net_tokio::Server::builder().max_body_bytes(1 << 20),
        ServiceHandler::new(app(Arc::clone(&seen))),
    );
    for chunked in [false, true] {
        let r = upload(s.addr, "/unlimited", chunked);
        assert_eq!(r.status, 413, "chunked {chunked}: {r:?}");
        // The server's own text, not axum's.
        let text = String::from_utf8_lossy(&r.body);
        assert!(!text.contains("length limit"), "chunked {chunked}: {text}");
    }
    // The declared one never reached the service; the chunked one did, and
    // its answer was replaced by the server's `413` (it stands).
    assert!(seen.lock().unwrap().iter().all(|&s| s != 200), "{seen:?}");
}

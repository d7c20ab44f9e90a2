//! `serve_with_graceful_shutdown`: once the signal resolves, new
//! connections are refused, the request in flight finishes (with
//! `Connection: close`), and the call returns.
#![cfg(feature = "axum")]

mod support;

use http_net_tokio::ServerOptions;
use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::routing::get;
use axum::Router;
use http_net_tower::{serve_with_graceful_shutdown, ServiceHandler};
use support::{connect, eventually, parse, read_all};
use tokio::sync::Notify;

#[test]
fn the_signal_refuses_new_connections_lets_the_request_in_flight_finish_and_returns() {
    // `/slow` answers once the gate opens; `entered` says it was called.
    let gate = Arc::new(Notify::new());
    let entered = Arc::new(AtomicBool::new(false));
    let app = {
        let (gate, entered) = (Arc::clone(&gate), Arc::clone(&entered));
        Router::new().route(
            "/slow",
            get(move || async move {
                entered.store(true, Ordering::SeqCst);
                gate.notified().await;
                "finished"
            }),
        )
    };
    let (stop, signal) = tokio::sync::oneshot::channel::<()>();
    let (tx, rx) = std::sync::mpsc::channel();
    let server = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let builder =
                http_net_tokio::Server::builder().shutdown_timeout(Duration::from_secs(5));
            let server = builder.bind("127.0.0.1:0").await.unwrap();
            tx.send(server.local_addr().unwrap()).unwrap();
            let signal = async move {
                let _ = signal.await;
            };
            serve_with_graceful_shutdown(server, ServiceHandler::new(app), signal).await
        })
    });
    let addr = rx.recv_timeout(Duration::from_secs(10)).unwrap();

    let mut in_flight = connect(addr);
    in_flight
        .write_all(b"GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    assert!(eventually(|| entered.load(Ordering::SeqCst)));

    stop.send(()).unwrap();
    // The listener is closed: new connections are refused.
    assert!(eventually(|| TcpStream::connect(addr).is_err()));
    std::thread::sleep(Duration::from_millis(100));
    assert!(!server.is_finished(), "returned with a request in flight");

    gate.notify_one();
    let r = parse(&read_all(&mut in_flight));
    assert_eq!((r.status, &r.body[..]), (200, &b"finished"[..]), "{r:?}");
    assert_eq!(r.field("connection"), Some("close"), "{r:?}");
    assert!(eventually(|| server.is_finished()), "serve did not return");
    server.join().unwrap().unwrap();
}

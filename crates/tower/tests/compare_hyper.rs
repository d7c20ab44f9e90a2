//! The example's router on hyper and on `http-net-tower`, sent the same
//! requests (only requests both servers accept), compared on the status,
//! the fields (`Date` aside) and the body. The WebSocket route has its own
//! test (`websocket.rs`).
#![cfg(feature = "axum")]

#[path = "../examples/support/app.rs"]
mod app;
mod support;

use std::net::SocketAddr;

use http_net_tokio::ServerOptions;
use http_net_tower::{PeerAddr, ServiceHandler};
use support::{exchange, parse_one, start, Resp};

/// The router on hyper (HTTP/1.1, a connection a task, as `axum::serve`
/// does), with the peer's address in the extensions as `http-net-tower`
/// puts it; returns the address.
fn hyper_server() -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let router = app::router();
            loop {
                let Ok((stream, peer)) = listener.accept().await else {
                    continue;
                };
                let router = router.clone();
                tokio::spawn(async move {
                    let svc = hyper::service::service_fn(move |req: http::Request<_>| {
                        let mut router = router.clone();
                        let mut req = req.map(axum::body::Body::new);
                        req.extensions_mut().insert(PeerAddr(peer));
                        tower_service::Service::call(&mut router, req)
                    });
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(io, svc)
                        .with_upgrades()
                        .await;
                });
            }
        });
    });
    rx.recv().unwrap()
}

/// A response as compared: the status, the fields with lowercased names
/// sorted (`Date` left out; to HTTP/1.0, `Connection` too: a closing
/// HTTP/1.0 answer needs no `Connection: close`, RFC 9112 §9.3, which
/// http-net writes and hyper does not), the body.
fn comparable(r: &Resp, http10: bool) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut fields: Vec<_> = r
        .fields
        .iter()
        .map(|(n, v)| (n.to_ascii_lowercase(), v.clone()))
        .filter(|(n, _)| n != "date" && !(http10 && n == "connection"))
        .collect();
    fields.sort();
    (r.status, fields, r.body.clone())
}

#[test]
fn the_router_answers_alike_on_hyper_and_on_http_net() {
    let hyper = hyper_server();
    let ours = start(
        http_net_tokio::Server::builder().max_body_bytes(app::UPLOAD_LIMIT),
        ServiceHandler::new(app::router()),
    );
    let json_big = format!("{{\"a\":1,\"b\":2,\"pad\":\"{}\"}}", "x".repeat(2000));
    let requests: Vec<(bool, Vec<u8>)> = vec![
        (false, b"GET /hello/world HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /hello/%C3%A9t%C3%A9 HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (true, b"HEAD /hello/world HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"PUT /hello/world HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n".to_vec()),
        (false, b"GET /hello/world HTTP/1.0\r\n".to_vec()),
        (false, b"DELETE /hello/world HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /search?q=rust&limit=3 HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /search?q=only HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /search?limit=x HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (
            false,
            b"POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"a\":1,\"b\":2}"
                .to_vec(),
        ),
        (
            false,
            b"POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nd\r\n{\"a\":1,\"b\":2}\r\n0\r\n\r\n"
                .to_vec(),
        ),
        (
            false,
            b"POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 6\r\n\r\n{\"a\":1"
                .to_vec(),
        ),
        (
            false,
            b"POST /json HTTP/1.1\r\nHost: a\r\nContent-Length: 13\r\n\r\n{\"a\":1,\"b\":2}".to_vec(),
        ),
        (
            false,
            format!(
                "POST /json HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{json_big}",
                json_big.len()
            )
            .into_bytes(),
        ),
        (false, b"GET /peer HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /download?bytes=0 HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /download?bytes=10 HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /download?bytes=300000 HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (true, b"HEAD /download?bytes=100 HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /download?bytes=abc HTTP/1.1\r\nHost: a\r\n".to_vec()),
        (false, b"GET /download?bytes=70000 HTTP/1.0\r\n".to_vec()),
        (
            false,
            b"POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world".to_vec(),
        ),
        (
            false,
            b"POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n"
                .to_vec(),
        ),
        (false, b"GET /elsewhere?x=1 HTTP/1.1\r\nHost: a\r\nX-A: 1\r\nX-A: 2\r\n".to_vec()),
        (
            false,
            b"POST /elsewhere HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nbody".to_vec(),
        ),
        (false, b"DELETE / HTTP/1.1\r\nHost: a\r\n".to_vec()),
    ];
    let mut compared = 0;
    for (head, req) in &requests {
        // Each on a connection of its own, closed by the client's ask.
        let mut raw = req.clone();
        match raw.windows(4).position(|w| w == b"\r\n\r\n") {
            Some(at) => drop(raw.splice(at + 2..at + 2, *b"Connection: close\r\n")),
            None => raw.extend_from_slice(b"Connection: close\r\n\r\n"),
        }
        let theirs = exchange(hyper, &raw);
        let mine = exchange(ours.addr, &raw);
        let (a, _) = parse_one(&theirs, *head);
        let (b, _) = parse_one(&mine, *head);
        let text = String::from_utf8_lossy(req);
        let http10 = text.contains("HTTP/1.0\r\n");
        assert_eq!(comparable(&a, http10), comparable(&b, http10), "{text}");
        compared += 1;
    }
    assert_eq!(compared, requests.len());
}

//! The axum router of the H6 axum servers (`compare/src/axum_common.rs`)
//! on hyper and on `http-net-tower`, over a `tokio::io::duplex` on a
//! current-thread runtime (as H2 compares the tokio server with hyper), for
//! callgrind: `axum-count hyper|http-net N` answers `N` `GET /plaintext`
//! on one keep-alive connection. Two runs with different `N` give the
//! instructions per request (their difference over the difference of `N`).

use http_net_compare::hyper_side::{read_one_response, runtime};
use http_net_compare::tokio_side::DuplexListener;
use http_net_tokio::ServerOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

include!("../axum_common.rs");

const REQUEST: &[u8] = b"GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(side), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u64>().ok()))
    else {
        eprintln!("usage: axum-count hyper|http-net N");
        std::process::exit(2);
    };
    let rt = runtime();
    let (mut client, server) = tokio::io::duplex(64 * 1024);
    match side.as_str() {
        "hyper" => {
            rt.spawn(async move {
                let app = router();
                let svc = hyper::service::service_fn(move |req: hyper::Request<_>| {
                    let mut app = app.clone();
                    tower_service::Service::call(&mut app, req.map(axum::body::Body::new))
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(server), svc)
                    .await;
            });
        }
        "http-net" => {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            tx.send(server).expect("queued");
            let s = http_net_tokio::Server::builder()
                .max_requests_per_connection(0)
                .listener(DuplexListener::new(rx));
            rt.spawn(async move {
                let _ = s
                    .serve(http_net_tower::ServiceHandler::new(router()))
                    .await;
                drop(tx);
            });
        }
        _ => {
            eprintln!("usage: axum-count hyper|http-net N");
            std::process::exit(2);
        }
    }
    rt.block_on(async move {
        client.write_all(REQUEST).await.expect("write");
        let one = read_one_response(&mut client).await;
        let mut buf = vec![0u8; one.len()];
        for _ in 0..n {
            client.write_all(REQUEST).await.expect("write");
            client.read_exact(&mut buf).await.expect("read");
        }
    });
}

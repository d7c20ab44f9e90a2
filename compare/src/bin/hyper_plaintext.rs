//! H6: hyper 1.x plaintext server on a current-thread tokio runtime (the
//! server is pinned to one core), `TCP_NODELAY` set, `pipeline_flush` on.
//! `GET /plaintext` answers `Hello, World!`.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;

include!("../plaintext_common.rs");

async fn plaintext(_req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    Ok(Response::builder()
        .header("Server", "hyper")
        .header("Content-Type", "text/plain")
        .body(Full::new(Bytes::from_static(PLAINTEXT)))
        .expect("a valid response"))
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr_arg())
            .await
            .expect("bind");
        announce(listener.local_addr().expect("address"));
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .pipeline_flush(true)
                    .serve_connection(TokioIo::new(stream), service_fn(plaintext))
                    .await;
            });
        }
    });
}

//! H6: the same axum `Router` as `axum-hyper`, served by `http-net-tokio`
//! through `http-net-tower` on a current-thread tokio runtime (the server
//! is pinned to one core; the server sets `TCP_NODELAY`). `GET /plaintext`
//! answers `Hello, World!`.

include!("../plaintext_common.rs");
include!("../axum_common.rs");

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let server = http_net_tokio::Server::bind(addr_arg())
            .await
            .expect("bind");
        announce(server.local_addr().expect("address"));
        let handler = http_net_tower::ServiceHandler::new(router());
        server.serve(handler).await.expect("serve");
    });
}

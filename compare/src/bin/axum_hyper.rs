//! H6: an axum `Router` served by `axum::serve` (hyper underneath) on a
//! current-thread tokio runtime (the server is pinned to one core);
//! `axum::serve` sets `TCP_NODELAY`. `GET /plaintext` answers
//! `Hello, World!`. Its twin, `axum-http-net`, serves the same router on
//! http-net.

include!("../plaintext_common.rs");
include!("../axum_common.rs");

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr_arg())
            .await
            .expect("bind");
        announce(listener.local_addr().expect("address"));
        axum::serve(listener, router()).await.expect("serve");
    });
}

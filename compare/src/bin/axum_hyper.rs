//! H6: an axum `Router` served by `axum::serve` (hyper underneath) on a
//! current-thread tokio runtime (the server is pinned to one core).
//! `axum::serve` leaves `TCP_NODELAY` off; this server sets it on every
//! accepted connection as axum's documentation shows (`ListenerExt::tap_io`),
//! as its twin and every other H6 server do: without it, the answers to a
//! pipelined batch wait on the peer's delayed acknowledgements (5,830
//! requests a second at 16 connections with 16 pipelined, 2% of a core).
//! `GET /plaintext` answers `Hello, World!`. Its twin, `axum-http-net`,
//! serves the same router on http-net.

include!("../plaintext_common.rs");
include!("../axum_common.rs");

fn main() {
    use axum::serve::{Listener, ListenerExt};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr_arg())
            .await
            .expect("bind")
            .tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
        announce(listener.local_addr().expect("address"));
        axum::serve(listener, router()).await.expect("serve");
    });
}

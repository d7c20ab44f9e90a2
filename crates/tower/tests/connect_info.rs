//! With the `connect-info` feature, axum's `ConnectInfo<SocketAddr>`
//! extractor works unchanged: the peer's address is in every request.
#![cfg(feature = "connect-info")]

mod support;

use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use http_net_tower::ServiceHandler;
use support::{exchange, parse, start};

#[test]
fn connect_info_extractors_see_the_peer() {
    let app = axum::Router::new().route(
        "/who",
        axum::routing::get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move {
            format!("{} {}", peer.ip(), peer.port() != 0)
        }),
    );
    let s = start(http_net_tokio::Server::builder(), ServiceHandler::new(app));
    let r = parse(&exchange(
        s.addr,
        b"GET /who HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 200);
    assert_eq!(r.body, b"127.0.0.1 true");
}

//! The example's WebSocket echo, on the crate's upgrade handle, driven by
//! a tokio-tungstenite client (the route the comparison with hyper leaves
//! out: axum's `WebSocketUpgrade` does not run on this server, so the two
//! servers cannot serve the same WebSocket router). The echo is the
//! README's recipe (`examples/support/websocket.rs`), which the README
//! shows verbatim: checked here, so that the two cannot drift.
#![cfg(feature = "axum")]

#[path = "../examples/support/app.rs"]
mod app;
mod support;

use futures_util::{SinkExt, StreamExt};
use http_net_tower::ServiceHandler;
use support::start;
use tokio_tungstenite::tungstenite::Message;

#[test]
fn a_websocket_client_gets_its_messages_back() {
    let s = start(
        http_net_tokio::Server::builder(),
        ServiceHandler::new(app::router()),
    );
    let url = format!("ws://{}/ws", s.addr);
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async move {
            let stream = tokio::net::TcpStream::connect(s.addr).await.unwrap();
            let (mut ws, resp) = tokio_tungstenite::client_async(url.as_str(), stream)
                .await
                .expect("the handshake");
            assert_eq!(resp.status(), 101);
            for text in ["hello", "world"] {
                ws.send(Message::text(text)).await.unwrap();
                let back = ws.next().await.unwrap().unwrap();
                assert_eq!(back, Message::text(text));
            }
            let big = vec![7u8; 200_000];
            ws.send(Message::binary(big.clone())).await.unwrap();
            assert_eq!(ws.next().await.unwrap().unwrap(), Message::binary(big));
            ws.close(None).await.unwrap();
            // The server's close answers ours, then the stream ends.
            while let Some(Ok(m)) = ws.next().await {
                assert!(m.is_close(), "{m:?}");
            }
            // Without the WebSocket fields: refused before any switch.
            let r = support::exchange(
                s.addr,
                b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: upgrade, close\r\n\r\n",
            );
            assert!(r.starts_with(b"HTTP/1.1 400 "), "{:?}", String::from_utf8_lossy(&r));
        });
}

#[test]
fn the_readme_shows_the_recipe_the_example_serves_verbatim() {
    let readme = include_str!("../README.md");
    let recipe = include_str!("../examples/support/websocket.rs");
    assert!(
        readme.contains(&format!("```rust\n{recipe}```\n")),
        "the README's WebSocket recipe is not examples/support/websocket.rs"
    );
    // The handler, helpers included, is at most 12 lines.
    let handler = recipe
        .lines()
        .skip_while(|l| !l.starts_with("pub async fn"));
    assert!(handler.count() <= 12, "{recipe}");
}

use axum::{body::Body, extract::Request, http::StatusCode, response::Response};
use futures_util::StreamExt;
use http_net_tower::OnUpgrade;
use tokio_tungstenite::tungstenite::{handshake::server, protocol::Role};
use tokio_tungstenite::WebSocketStream;

/// A WebSocket echo. tungstenite checks the handshake and makes the `101`
/// (RFC 6455 §4.2); once that is sent, `OnUpgrade` yields the connection,
/// on which tokio-tungstenite runs the frames.
pub async fn ws(on: OnUpgrade, req: Request) -> Result<Response, StatusCode> {
    let switch = server::create_response_with_body(&req, Body::empty);
    let switch = switch.map_err(|_| StatusCode::BAD_REQUEST)?;
    tokio::spawn(async move {
        let Ok(io) = on.await else { return };
        let ws = WebSocketStream::from_raw_socket(io, Role::Server, None).await;
        let (tx, rx) = ws.split();
        let _ = rx.forward(tx).await; // each message back, until a close
    });
    Ok(switch)
}

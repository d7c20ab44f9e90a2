//! The axum application of the `axum_app` example, shared with the tests
//! that serve it on hyper and on `http-net-tower` and compare the answers.
//!
//! Routes:
//! - `GET /hello/{name}` → `Hello, {name}!` (a path extractor); `DELETE`
//!   → `204`;
//! - `GET /search?q=..&limit=..` → the query back as JSON (a query
//!   extractor);
//! - `POST /json` with `{"a":1,"b":2}` → `{"sum":3}` (JSON in and out; over
//!   1 KiB of JSON: axum's own `413`, `DefaultBodyLimit`);
//! - `GET /peer` → the peer's IP address ([`PeerAddr`]);
//! - `GET /download?bytes=N` → `N` bytes streamed in 64 KiB frames;
//! - `POST /upload` → the body streamed and counted: `{"bytes":N,"fnv1a":H}`
//!   (the server's body limit, [`UPLOAD_LIMIT`], is this route's; every
//!   other route lowers it to [`SMALL_BODY`] with [`BodyLimit`]);
//! - `GET /ws` → a WebSocket echo on the crate's upgrade handle
//!   ([`OnUpgrade`](http_net_tower::OnUpgrade), with tokio-tungstenite): the README's recipe, which
//!   is `websocket.rs` beside this file;
//! - anything else → the garden echo contract: `200` with the JSON
//!   `{"method":B,"version":B,"uri":B,"headers":[[B,B],...],"body":B}`, each
//!   `B` the base64 of the raw bytes (the target and fields as received,
//!   from [`ReceivedHead`], and the de-chunked body), as `echo_tokio
//!   --format garden` answers, so that `cargo xtask proxies --origin` runs
//!   against the application.
#![allow(dead_code)]

/// The README's WebSocket recipe, verbatim.
#[path = "websocket.rs"]
mod websocket;

use std::future::poll_fn;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Body as AxumBody;
use axum::extract::{DefaultBodyLimit, Path, Query, Request};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use bytes::Bytes;
use http::{header, HeaderValue, StatusCode};
use http_body::{Body as _, Frame, SizeHint};
use http_net_tower::{BodyLimit, PeerAddr, ReceivedHead};
use serde::{Deserialize, Serialize};

/// The server's body limit: the upload route's.
pub const UPLOAD_LIMIT: u64 = 1 << 30;
/// The body limit of every other route.
pub const SMALL_BODY: u64 = 1 << 20;
/// `/json`'s limit, axum's own (`DefaultBodyLimit`).
pub const JSON_LIMIT: usize = 1024;

/// The application.
pub fn router() -> Router {
    let small = Router::new()
        .route("/hello/{name}", get(hello).delete(forget))
        .route("/search", get(search))
        .route("/json", post(sum).layer(DefaultBodyLimit::max(JSON_LIMIT)))
        .route("/peer", get(peer))
        .route("/download", get(download))
        .route("/ws", get(websocket::ws))
        .fallback(garden)
        .layer(middleware::from_fn(small_bodies));
    Router::new().route("/upload", post(upload)).merge(small)
}

/// Every route but `/upload` takes at most [`SMALL_BODY`].
async fn small_bodies(req: Request, next: Next) -> Response {
    if let Some(limit) = req.extensions().get::<BodyLimit>() {
        limit.lower_to(SMALL_BODY);
    }
    next.run(req).await
}

async fn hello(Path(name): Path<String>) -> String {
    format!("Hello, {name}!")
}

/// `204 No Content` (axum gives it `Content-Length: 0`).
async fn forget(Path(_): Path<String>) -> StatusCode {
    StatusCode::NO_CONTENT
}

#[derive(Deserialize, Serialize)]
struct Search {
    q: String,
    limit: Option<u32>,
}

async fn search(Query(s): Query<Search>) -> Json<Search> {
    Json(s)
}

#[derive(Deserialize)]
struct Terms {
    a: i64,
    b: i64,
}

#[derive(Serialize)]
struct Sum {
    sum: i64,
}

async fn sum(Json(t): Json<Terms>) -> Json<Sum> {
    Json(Sum {
        sum: t.a.wrapping_add(t.b),
    })
}

async fn peer(peer: Option<Extension<PeerAddr>>) -> String {
    match peer {
        Some(Extension(PeerAddr(a))) => a.ip().to_string(),
        None => "unknown".into(),
    }
}

#[derive(Deserialize)]
struct Size {
    bytes: u64,
}

/// 64 KiB of `x`, the download's frame.
static FRAME: [u8; 64 * 1024] = [b'x'; 64 * 1024];

/// `left` bytes of `x` in 64 KiB frames, with an exact size hint.
struct Repeat {
    left: u64,
}

impl http_body::Body for Repeat {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if self.left == 0 {
            return Poll::Ready(None);
        }
        let n = self.left.min(FRAME.len() as u64) as usize;
        self.left -= n as u64;
        Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(&FRAME[..n])))))
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.left)
    }
}

async fn download(Query(s): Query<Size>) -> Response {
    let mut r = Response::new(AxumBody::new(Repeat { left: s.bytes }));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    r
}

#[derive(Serialize)]
struct Uploaded {
    bytes: u64,
    fnv1a: u64,
}

/// The body streamed, never held: its length and FNV-1a hash.
async fn upload(req: Request) -> Response {
    let mut body = req.into_body();
    let (mut bytes, mut hash) = (0u64, 0xcbf2_9ce4_8422_2325u64);
    while let Some(frame) = poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let Ok(frame) = frame else {
            return StatusCode::BAD_REQUEST.into_response();
        };
        if let Ok(data) = frame.into_data() {
            bytes += data.len() as u64;
            for b in data.iter() {
                hash = (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    Json(Uploaded { bytes, fnv1a: hash }).into_response()
}

/// Standard base64 (RFC 4648 §4) with padding, as a JSON string.
fn json_b64(input: &[u8], out: &mut Vec<u8>) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out.push(b'"');
    for chunk in input.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(ALPHABET[(n >> 18) as usize & 63]);
        out.push(ALPHABET[(n >> 12) as usize & 63]);
        out.push(if chunk.len() > 1 {
            ALPHABET[(n >> 6) as usize & 63]
        } else {
            b'='
        });
        out.push(if chunk.len() > 2 {
            ALPHABET[n as usize & 63]
        } else {
            b'='
        });
    }
    out.push(b'"');
}

/// The garden echo contract (see the module's doc). Without a
/// [`ReceivedHead`] (on hyper) the URI and the `HeaderMap` stand in.
async fn garden(req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let body = match axum::body::to_bytes(body, SMALL_BODY as usize).await {
        Ok(b) => b,
        Err(_) => return StatusCode::BAD_REQUEST.into_response(),
    };
    let version: &[u8] = if parts.version == http::Version::HTTP_10 {
        b"1.0"
    } else {
        b"1.1"
    };
    let mut json = Vec::with_capacity(256);
    json.extend_from_slice(b"{\"method\":");
    json_b64(parts.method.as_str().as_bytes(), &mut json);
    json.extend_from_slice(b",\"version\":");
    json_b64(version, &mut json);
    json.extend_from_slice(b",\"uri\":");
    let fields: Vec<(Vec<u8>, Vec<u8>)> = match parts.extensions.get::<ReceivedHead>() {
        Some(head) => {
            json_b64(head.target(), &mut json);
            head.fields()
                .map(|(n, v)| (n.to_vec(), v.to_vec()))
                .collect()
        }
        None => {
            json_b64(parts.uri.to_string().as_bytes(), &mut json);
            parts
                .headers
                .iter()
                .map(|(n, v)| (n.as_str().as_bytes().to_vec(), v.as_bytes().to_vec()))
                .collect()
        }
    };
    json.extend_from_slice(b",\"headers\":[");
    for (i, (name, value)) in fields.iter().enumerate() {
        if i > 0 {
            json.push(b',');
        }
        json.push(b'[');
        json_b64(name, &mut json);
        json.push(b',');
        json_b64(value, &mut json);
        json.push(b']');
    }
    json.extend_from_slice(b"],\"body\":");
    json_b64(&body, &mut json);
    json.push(b'}');
    let mut r = Response::new(AxumBody::from(json));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

//! hyper 1.x driven in memory: a `tokio::io::duplex` pipe on a
//! current-thread runtime, with the peer written by hand on the other end.
//! Each workload also has a "runtime only" twin that moves the same bytes
//! over the same pipe on the same runtime with no HTTP at all, so the
//! runtime's own share of hyper's time can be reported.

use std::convert::Infallible;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE, HOST, SERVER};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::runtime::Runtime;

use crate::inputs::{self, EXCHANGE_REQUEST, READ, RESPONSE_1K, SMALL_ANSWER_BODY};

/// A current-thread runtime, as a single-core server would run, with its
/// timer (http-net-tokio keeps its deadlines on it; hyper without a
/// `Timer` keeps none). Every side of H2, H3 client and H5 over the duplex
/// runs on one of these, the runtime-only twins too.
pub fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a current-thread runtime")
}

// Header values built once, as a real service builds them (statics built
// at compile time: a clone per response is a pointer copy, with no parsing
// or validation). The same fields as `ANSWER_FIELDS`, checked by
// `answer_fields_are_the_inputs`.
static SERVER_BENCH: HeaderValue = HeaderValue::from_static("bench");
static TEXT_UTF8: HeaderValue = HeaderValue::from_static("text/plain; charset=utf-8");
static NO_CACHE: HeaderValue = HeaderValue::from_static("no-cache");
static TEXT_PLAIN: HeaderValue = HeaderValue::from_static("text/plain");
static LOCALHOST: HeaderValue = HeaderValue::from_static("localhost");

/// The H2 answer: the fields of `response_1k.http` (hyper writes `Date` and
/// `Content-Length` itself) and its 1 KiB body.
async fn answer_1k(_req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let mut r = Response::new(Full::new(Bytes::from_static(inputs::answer_body())));
    let h = r.headers_mut();
    h.insert(SERVER, SERVER_BENCH.clone());
    h.insert(CONTENT_TYPE, TEXT_UTF8.clone());
    h.insert(CACHE_CONTROL, NO_CACHE.clone());
    Ok(r)
}

/// The H5 answer: `Hello, World!` as text/plain.
async fn answer_small(_req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let mut r = Response::new(Full::new(Bytes::from_static(SMALL_ANSWER_BODY)));
    let h = r.headers_mut();
    h.insert(SERVER, SERVER_BENCH.clone());
    h.insert(CONTENT_TYPE, TEXT_PLAIN.clone());
    Ok(r)
}

/// Reads one response head and its Content-Length body from `io`, returning
/// all of its bytes (setup only: learns what a server sends).
pub async fn read_one_response(io: &mut DuplexStream) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = io.read(&mut buf).await.expect("read");
        assert!(n > 0, "hyper closed the connection");
        got.extend_from_slice(&buf[..n]);
        if let Some(end) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&got[..end]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse().expect("a length"))
                .unwrap_or(0);
            let total = end + 4 + len;
            while got.len() < total {
                let n = io.read(&mut buf).await.expect("read");
                got.extend_from_slice(&buf[..n]);
            }
            got.truncate(total);
            return got;
        }
    }
}

/// H2: a hyper server connection answering `exchange_request.http`.
pub struct ServerExchange {
    rt: Runtime,
    client: DuplexStream,
    response_len: usize,
    buf: Vec<u8>,
    /// The exact bytes hyper answered with (for the runtime-only twin).
    pub response: Vec<u8>,
}

impl ServerExchange {
    /// Starts the connection and runs one exchange to learn the answer.
    pub fn new() -> ServerExchange {
        let rt = runtime();
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        let response = rt.block_on(async {
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(server), service_fn(answer_1k))
                    .await;
            });
            client.write_all(EXCHANGE_REQUEST).await.expect("write");
            read_one_response(&mut client).await
        });
        ServerExchange {
            rt,
            client,
            response_len: response.len(),
            buf: vec![0; response.len()],
            response,
        }
    }

    /// `iters` exchanges; returns the time they took.
    pub fn run(&mut self, iters: u64) -> Duration {
        let (client, buf) = (&mut self.client, &mut self.buf[..self.response_len]);
        self.rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                client.write_all(EXCHANGE_REQUEST).await.expect("write");
                client.read_exact(buf).await.expect("read");
            }
            start.elapsed()
        })
    }
}

impl Default for ServerExchange {
    fn default() -> Self {
        ServerExchange::new()
    }
}

/// The runtime alone: a task on the far end of the pipe reads `request`
/// bytes and writes `response` bytes back, with no HTTP.
pub struct RuntimeExchange {
    rt: Runtime,
    client: DuplexStream,
    request: Vec<u8>,
    buf: Vec<u8>,
}

impl RuntimeExchange {
    /// A pipe whose far end answers every `request.len()` bytes with `response`.
    pub fn new(request: Vec<u8>, response: Vec<u8>) -> RuntimeExchange {
        let rt = runtime();
        let (client, mut server) = tokio::io::duplex(64 * 1024);
        let req_len = request.len();
        let resp = response.clone();
        rt.block_on(async {
            tokio::spawn(async move {
                let mut buf = vec![0u8; req_len];
                while server.read_exact(&mut buf).await.is_ok() {
                    if server.write_all(&resp).await.is_err() {
                        break;
                    }
                }
            });
        });
        RuntimeExchange {
            rt,
            client,
            request,
            buf: vec![0; response.len()],
        }
    }

    /// `iters` exchanges; returns the time they took.
    pub fn run(&mut self, iters: u64) -> Duration {
        let (client, req, buf) = (&mut self.client, &self.request, &mut self.buf);
        self.rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                client.write_all(req).await.expect("write");
                client.read_exact(buf).await.expect("read");
            }
            start.elapsed()
        })
    }
}

/// H3: a hyper client connection; the peer answers each request with
/// `response_1k.http`.
pub struct ClientExchange {
    rt: Runtime,
    sender: hyper::client::conn::http1::SendRequest<Empty<Bytes>>,
    /// The exact bytes of the request hyper sends (for the runtime-only twin).
    pub request: Vec<u8>,
}

/// `GET /` with `Host: localhost` (the default URI is `/`; the value a
/// constant).
fn get_request() -> Request<Empty<Bytes>> {
    let mut r = Request::new(Empty::new());
    r.headers_mut().insert(HOST, LOCALHOST.clone());
    r
}

/// The peer of the client exchanges (hyper's and http-net-tokio's): learns
/// the request's length from the first request (sent on `learned`), then
/// answers it and every later request of that length with
/// `response_1k.http`.
pub async fn response_peer(
    mut server: DuplexStream,
    learned: Option<tokio::sync::oneshot::Sender<Vec<u8>>>,
) {
    let mut got = Vec::new();
    let mut b = [0u8; 1024];
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        match server.read(&mut b).await {
            Ok(0) | Err(_) => return,
            Ok(n) => got.extend_from_slice(&b[..n]),
        }
    }
    let len = got.len();
    if let Some(tx) = learned {
        let _ = tx.send(got);
    }
    let mut buf = vec![0u8; len];
    loop {
        if server.write_all(RESPONSE_1K).await.is_err() {
            break;
        }
        if server.read_exact(&mut buf).await.is_err() {
            break;
        }
    }
}

impl ClientExchange {
    /// Connects and runs one exchange to learn the request bytes.
    pub fn new() -> ClientExchange {
        let rt = runtime();
        let (client, server) = tokio::io::duplex(64 * 1024);
        let (sender, request) = rt.block_on(async {
            let (tx, rx) = tokio::sync::oneshot::channel();
            tokio::spawn(response_peer(server, Some(tx)));
            let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(client))
                .await
                .expect("handshake");
            tokio::spawn(async move {
                let _ = conn.await;
            });
            let res = sender.send_request(get_request()).await.expect("response");
            let body = res.into_body().collect().await.expect("body").to_bytes();
            assert_eq!(body.len(), 1024);
            (sender, rx.await.expect("the request bytes"))
        });
        ClientExchange {
            rt,
            sender,
            request,
        }
    }

    /// `iters` exchanges; returns the time they took.
    pub fn run(&mut self, iters: u64) -> Duration {
        let sender = &mut self.sender;
        self.rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                let res = sender.send_request(get_request()).await.expect("response");
                let body = res.into_body().collect().await.expect("body").to_bytes();
                debug_assert_eq!(body.len(), 1024);
                std::hint::black_box(body);
            }
            start.elapsed()
        })
    }
}

impl Default for ClientExchange {
    fn default() -> Self {
        ClientExchange::new()
    }
}

/// H5: a hyper server connection with `pipeline_flush`, fed the 100,000
/// pipelined requests in 16 KiB writes through a 16 KiB pipe; the client
/// end reads until every answer arrived.
pub struct Pipelined {
    rt: Runtime,
    input: &'static [u8],
    response_len: usize,
}

impl Pipelined {
    /// Learns the length of one answer.
    pub fn new(input: &'static [u8]) -> Pipelined {
        let rt = runtime();
        let response_len = rt.block_on(async {
            let (mut client, server) = tokio::io::duplex(READ);
            tokio::spawn(serve_small(server));
            client.write_all(inputs::SMALL_GET).await.expect("write");
            read_one_response(&mut client).await.len()
        });
        Pipelined {
            rt,
            input,
            response_len,
        }
    }

    /// The length of one answer.
    pub fn response_len(&self) -> usize {
        self.response_len
    }

    /// One run over a fresh connection; returns its time.
    pub fn run_once(&mut self) -> Duration {
        let input = self.input;
        let expected = input.len() / inputs::SMALL_GET.len() * self.response_len;
        self.rt.block_on(async move {
            let start = Instant::now();
            let (client, server) = tokio::io::duplex(READ);
            tokio::spawn(serve_small(server));
            let (mut rd, mut wr) = tokio::io::split(client);
            tokio::join!(write_pieces(&mut wr, input), read_count(&mut rd, expected));
            start.elapsed()
        })
    }
}

async fn serve_small(io: DuplexStream) {
    let _ = hyper::server::conn::http1::Builder::new()
        .pipeline_flush(true)
        .serve_connection(TokioIo::new(io), service_fn(answer_small))
        .await;
}

/// Writes `input` in 16 KiB writes (the reads of the far end).
pub async fn write_pieces<W: AsyncWriteExt + Unpin>(wr: &mut W, input: &[u8]) {
    for piece in input.chunks(READ) {
        wr.write_all(piece).await.expect("write");
    }
}

/// Reads until `expected` bytes arrived.
pub async fn read_count<R: AsyncReadExt + Unpin>(rd: &mut R, expected: usize) {
    let mut buf = vec![0u8; 64 * 1024];
    let mut got = 0;
    while got < expected {
        let n = rd.read(&mut buf).await.expect("read");
        assert!(n > 0, "closed after {got} of {expected} bytes");
        got += n;
    }
}

/// The runtime alone for H5: the same writes; the far end reads 16 KiB at a
/// time and writes back, for each complete request received, one answer of
/// the same length as hyper's, with no HTTP.
pub fn runtime_pipelined(rt: &Runtime, input: &'static [u8], response_len: usize) -> Duration {
    let per = inputs::SMALL_GET.len();
    let expected = input.len() / per * response_len;
    rt.block_on(async move {
        let start = Instant::now();
        let (client, mut server) = tokio::io::duplex(READ);
        tokio::spawn(async move {
            let answers = vec![b'x'; response_len * (READ / per + 1)];
            let mut buf = vec![0u8; READ];
            let (mut received, mut answered) = (0usize, 0usize);
            loop {
                let n = match server.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                received += n;
                let due = received / per - answered;
                answered += due;
                if server
                    .write_all(&answers[..due * response_len])
                    .await
                    .is_err()
                {
                    break;
                }
            }
        });
        let (mut rd, mut wr) = tokio::io::split(client);
        tokio::join!(write_pieces(&mut wr, input), read_count(&mut rd, expected));
        start.elapsed()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_fields_are_the_inputs() {
        let ours = [
            (SERVER.as_str(), &SERVER_BENCH),
            (CONTENT_TYPE.as_str(), &TEXT_UTF8),
            (CACHE_CONTROL.as_str(), &NO_CACHE),
        ];
        for ((n, v), (name, value)) in ours.iter().zip(inputs::ANSWER_FIELDS) {
            assert!(n.eq_ignore_ascii_case(name));
            assert_eq!(v.as_bytes(), value.as_bytes());
        }
    }
}

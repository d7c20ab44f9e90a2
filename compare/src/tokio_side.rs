//! http-net over the same pipe and runtime as hyper: `http-net-tokio`'s
//! server and client on a `tokio::io::duplex`, on the current-thread
//! runtime of [`hyper_side::runtime`], with the same hand-written peer on
//! the other end as hyper's side. So H2, H3 client and H5 compare the two
//! libraries on equal footing ("tokio duplex, current-thread"), and the
//! runtime-only twins of [`hyper_side`] are the share both pay for the pipe.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use http_net_tokio::http_net_conn::PreparedResponse;
use http_net_tokio::{Connector, Exchange, Handler, HandlerError, Listener, Server, ServerOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::runtime::Runtime;
use tokio::sync::mpsc;

use crate::hyper_side::{self, read_count, read_one_response, runtime, write_pieces};
use crate::inputs::{self, ANSWER_FIELDS, EXCHANGE_REQUEST, READ, SMALL_ANSWER_BODY};

/// A listener whose connections are the server ends of duplex pipes sent
/// to it (cancel-safe: `recv` loses nothing when dropped).
pub struct DuplexListener(mpsc::UnboundedReceiver<DuplexStream>);

impl DuplexListener {
    /// The listener of the pipes sent on `rx`'s sender.
    pub fn new(rx: mpsc::UnboundedReceiver<DuplexStream>) -> DuplexListener {
        DuplexListener(rx)
    }
}

impl Listener for DuplexListener {
    type Stream = DuplexStream;
    async fn accept(&mut self) -> io::Result<(DuplexStream, Option<SocketAddr>)> {
        match self.0.recv().await {
            Some(s) => Ok((s, None)),
            // No more pipes: wait for the shutdown.
            None => std::future::pending().await,
        }
    }
    fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(SocketAddr::from(([127, 0, 0, 1], 0)))
    }
}

/// Answers every request with one prebuilt response and its body, as a
/// real service answers with values it built once.
struct Answer {
    response: PreparedResponse,
    body: &'static [u8],
}

impl Handler for Answer {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        Ok(ex.respond(&self.response, self.body).await?)
    }
}

fn answer_1k() -> Answer {
    let fields: Vec<(&[u8], &[u8])> = ANSWER_FIELDS
        .iter()
        .map(|(n, v)| (n.as_bytes(), v.as_bytes()))
        .collect();
    Answer {
        response: PreparedResponse::new(200, &fields).expect("valid fields"),
        body: inputs::answer_body(),
    }
}

fn answer_small() -> Answer {
    Answer {
        response: PreparedResponse::new(
            200,
            &[(b"Server", b"bench"), (b"Content-Type", b"text/plain")],
        )
        .expect("valid fields"),
        body: SMALL_ANSWER_BODY,
    }
}

/// Starts an `http-net-tokio` server on `rt` taking its connections from
/// the returned sender.
fn serve(rt: &Runtime, answer: Answer) -> mpsc::UnboundedSender<DuplexStream> {
    let (tx, rx) = mpsc::unbounded_channel();
    // One keep-alive connection for every exchange the bench makes, as
    // hyper's side (which has no per-connection request limit).
    let server = Server::builder()
        .max_requests_per_connection(0)
        .listener(DuplexListener(rx));
    rt.spawn(async move {
        let _ = server.serve(answer).await;
    });
    tx
}

/// H2: an `http-net-tokio` server connection answering
/// `exchange_request.http` over the duplex; the client end is driven as
/// [`hyper_side::ServerExchange`] drives hyper's.
pub struct ServerExchange {
    rt: Runtime,
    client: DuplexStream,
    buf: Vec<u8>,
    /// The exact bytes the server answered with.
    pub response: Vec<u8>,
}

impl ServerExchange {
    /// Starts the server and the connection, and runs one exchange to learn
    /// the answer.
    pub fn new() -> ServerExchange {
        let rt = runtime();
        let tx = serve(&rt, answer_1k());
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        tx.send(server).expect("the server runs");
        let response = rt.block_on(async {
            client.write_all(EXCHANGE_REQUEST).await.expect("write");
            read_one_response(&mut client).await
        });
        ServerExchange {
            rt,
            client,
            buf: vec![0; response.len()],
            response,
        }
    }

    /// `iters` exchanges; returns the time they took.
    pub fn run(&mut self, iters: u64) -> Duration {
        let (client, buf) = (&mut self.client, &mut self.buf);
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

/// Opens duplex pipes whose far end is [`hyper_side::response_peer`]:
/// the peer hyper's client talks to.
struct DuplexConnector {
    learned: std::sync::Mutex<Option<tokio::sync::oneshot::Sender<Vec<u8>>>>,
}

/// Connections [`DuplexConnector`] opened (one per client when its pool
/// reuses the connection).
static CONNECTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Connector for DuplexConnector {
    type Stream = DuplexStream;
    fn connect(
        &self,
        _host: &str,
        _port: u16,
    ) -> impl Future<Output = io::Result<DuplexStream>> + Send {
        let tx = self.learned.lock().ok().and_then(|mut g| g.take());
        CONNECTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        async move {
            let (client, server) = tokio::io::duplex(64 * 1024);
            tokio::spawn(hyper_side::response_peer(server, tx));
            Ok(client)
        }
    }
}

/// H3: an `http-net-tokio` client sending `GET /` with `Host: localhost`
/// over the duplex; the peer answers each request with `response_1k.http`
/// (the same peer as hyper's client has). The connection is kept in the
/// client's pool and reused, as hyper's `SendRequest` reuses its own.
pub struct ClientExchange {
    rt: Runtime,
    client: http_net_tokio::Client<DuplexConnector>,
    buf: Vec<u8>,
    /// The exact bytes of the request the client sends.
    pub request: Vec<u8>,
}

impl ClientExchange {
    /// Connects and runs one exchange to learn the request bytes.
    pub fn new() -> ClientExchange {
        let rt = runtime();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let client = http_net_tokio::Client::builder().connector(DuplexConnector {
            learned: std::sync::Mutex::new(Some(tx)),
        });
        let mut buf = vec![0u8; 4096];
        let before = CONNECTS.load(std::sync::atomic::Ordering::Relaxed);
        let request = rt.block_on(async {
            assert_eq!(exchange(&client, &mut buf).await, 1024);
            let request = rx.await.expect("the request bytes");
            // Equal footing with hyper's one `SendRequest`: the second
            // exchange reuses the pooled connection.
            assert_eq!(exchange(&client, &mut buf).await, 1024);
            request
        });
        assert_eq!(
            CONNECTS.load(std::sync::atomic::Ordering::Relaxed) - before,
            1,
            "the pooled connection is reused"
        );
        ClientExchange {
            rt,
            client,
            buf,
            request,
        }
    }

    /// `iters` exchanges; returns the time they took.
    pub fn run(&mut self, iters: u64) -> Duration {
        let (client, buf) = (&self.client, &mut self.buf);
        self.rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                let n = exchange(client, buf).await;
                debug_assert_eq!(n, 1024);
                std::hint::black_box(n);
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

/// One request, the response head, and the whole body read into `buf`
/// (reused); returns the body length.
async fn exchange(client: &http_net_tokio::Client<DuplexConnector>, buf: &mut [u8]) -> usize {
    let mut res = client
        .send_to("localhost", 80, b"GET", b"/", &[], b"")
        .await
        .expect("a response");
    std::hint::black_box(res.status());
    let mut body = 0;
    loop {
        let n = res.read_body(buf).await.expect("the body");
        if n == 0 {
            return body;
        }
        body += n;
    }
}

/// H5: an `http-net-tokio` server fed the 100,000 pipelined requests in
/// 16 KiB writes through a 16 KiB pipe, a fresh connection each run, as
/// [`hyper_side::Pipelined`] does for hyper.
pub struct Pipelined {
    rt: Runtime,
    tx: mpsc::UnboundedSender<DuplexStream>,
    input: &'static [u8],
    response_len: usize,
}

impl Pipelined {
    /// Starts the server and learns the length of one answer.
    pub fn new(input: &'static [u8]) -> Pipelined {
        let rt = runtime();
        let tx = serve(&rt, answer_small());
        let (mut client, server) = tokio::io::duplex(READ);
        tx.send(server).expect("the server runs");
        let response_len = rt.block_on(async {
            client.write_all(inputs::SMALL_GET).await.expect("write");
            read_one_response(&mut client).await.len()
        });
        Pipelined {
            rt,
            tx,
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
        let tx = &self.tx;
        self.rt.block_on(async move {
            let start = Instant::now();
            let (client, server) = tokio::io::duplex(READ);
            tx.send(server).expect("the server runs");
            let (mut rd, mut wr) = tokio::io::split(client);
            tokio::join!(write_pieces(&mut wr, input), read_count(&mut rd, expected));
            start.elapsed()
        })
    }
}

//! The ceiling rows of H2 and H3 client: the core (`ServerConn`,
//! `ClientConn`) driven directly by a short loop over the same
//! `tokio::io::duplex` and the same current-thread runtime (time driver on)
//! as the `http-net-tokio` and hyper rows, with the same peers, and no
//! deadlines, no connection slots, no handler. What an adapter adds is the
//! `http-net-tokio` row's time less this one's.
//!
//! The server loop answers with the same prebuilt response and body as
//! `tokio_side`'s handler; its `Date` is set once per connection (the
//! adapter sets it at most once a second), so its answers are the adapter's
//! bytes, `Date` value aside (`tests/conn_sides.rs`). The client loop sends
//! the request the `http-net-tokio` client sends (checked there too).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use http_net_conn::{
    imf_fixdate, BodyLength, ClientConn, ClientEvent, Config, Placement, PreparedResponse,
    ServerConn, ServerEvent,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::runtime::Runtime;

use crate::hyper_side::{read_one_response, response_peer, runtime};
use crate::inputs::{self, ANSWER_FIELDS, EXCHANGE_REQUEST};

/// Writes the whole output of `conn` to `io` (and the body a
/// [`Placement::AfterOutput`] left to the caller right after it).
async fn flush(
    conn: &mut ServerConn,
    io: &mut DuplexStream,
    after: Option<&[u8]>,
) -> std::io::Result<()> {
    io.write_all(conn.output()).await?;
    if let Some(body) = after {
        io.write_all(body).await?;
    }
    let n = conn.output().len();
    conn.consume_output(n);
    Ok(())
}

/// One server connection: read into the connection's spare buffer, take
/// every event, answer each request with `answer` and `body`, write the
/// output once per read.
async fn serve(mut io: DuplexStream, answer: PreparedResponse, body: &'static [u8]) {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    conn.set_date(&imf_fixdate(now));
    loop {
        let mut after = None;
        loop {
            match conn.poll_event() {
                Ok(ServerEvent::Request(_) | ServerEvent::Data(_)) => {}
                Ok(ServerEvent::End(_)) => match conn.responder().respond(&answer, body) {
                    Ok(Placement::Queued) => {}
                    Ok(Placement::AfterOutput) => {
                        after = Some(body);
                        break;
                    }
                    Err(_) => return,
                },
                Ok(ServerEvent::NeedInput) => break,
                Ok(ServerEvent::Paused) => {
                    if flush(&mut conn, &mut io, None).await.is_err() {
                        return;
                    }
                }
                // A closed connection, an upgrade, a malformed request (its
                // error response queued): write what is queued and stop.
                Ok(_) | Err(_) => {
                    let _ = flush(&mut conn, &mut io, None).await;
                    return;
                }
            }
        }
        if flush(&mut conn, &mut io, after).await.is_err() || conn.should_close() {
            return;
        }
        if after.is_some() {
            continue;
        }
        match io.read(conn.spare_mut()).await {
            Ok(0) | Err(_) => return,
            Ok(n) => conn.commit(n),
        }
    }
}

/// H2's ceiling: `ServerConn` answering `exchange_request.http` with the
/// five fields and the 1 KiB body, over the duplex; the client end is
/// driven as `hyper_side::ServerExchange` drives hyper's.
pub struct ServerExchange {
    rt: Runtime,
    client: DuplexStream,
    buf: Vec<u8>,
    /// The exact bytes of the first answer.
    pub response: Vec<u8>,
}

impl ServerExchange {
    /// Starts the connection and runs one exchange to learn the answer.
    pub fn new() -> ServerExchange {
        let rt = runtime();
        let fields: Vec<(&[u8], &[u8])> = ANSWER_FIELDS
            .iter()
            .map(|(n, v)| (n.as_bytes(), v.as_bytes()))
            .collect();
        let answer = PreparedResponse::new(200, &fields).expect("valid fields");
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        let response = rt.block_on(async {
            tokio::spawn(serve(server, answer, inputs::answer_body()));
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

/// H3 client's ceiling: `ClientConn` sending `GET /` with the `Host` the
/// adapter's client sends (`localhost:80`) over the duplex to `hyper_side::response_peer`, reading each response's
/// head and body.
pub struct ClientExchange {
    rt: Runtime,
    conn: ClientConn,
    io: DuplexStream,
    /// The exact bytes of the request sent.
    pub request: Vec<u8>,
}

/// One exchange over `io`: the request written, the response read through
/// the connection's spare buffer to its end. Returns the body length.
async fn exchange(conn: &mut ClientConn, io: &mut DuplexStream) -> usize {
    // The `Host` the `http-net-tokio` client writes for `send_to("localhost",
    // 80, ..)`: with the port (checked by `tests/conn_sides.rs`).
    conn.send_request(
        b"GET",
        b"/",
        &[(b"Host", b"localhost:80")],
        BodyLength::Empty,
    )
    .expect("a request");
    io.write_all(conn.output()).await.expect("write");
    let n = conn.output().len();
    conn.consume_output(n);
    let mut body = 0;
    loop {
        loop {
            match conn.poll_event().expect("a valid response") {
                ClientEvent::Response(r) => {
                    std::hint::black_box(r.status());
                }
                ClientEvent::Data(d) => body += std::hint::black_box(d).len(),
                ClientEvent::End(_) => return body,
                ClientEvent::NeedInput => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        let n = io.read(conn.spare_mut()).await.expect("read");
        assert!(n > 0, "the peer closed");
        conn.commit(n);
    }
}

impl ClientExchange {
    /// Connects and runs one exchange to learn the request bytes.
    pub fn new() -> ClientExchange {
        let rt = runtime();
        let (mut io, server) = tokio::io::duplex(64 * 1024);
        let mut conn = ClientConn::new(Config::DEFAULT);
        let request = rt.block_on(async {
            let (tx, rx) = tokio::sync::oneshot::channel();
            tokio::spawn(response_peer(server, Some(tx)));
            assert_eq!(exchange(&mut conn, &mut io).await, 1024);
            rx.await.expect("the request bytes")
        });
        ClientExchange {
            rt,
            conn,
            io,
            request,
        }
    }

    /// `iters` exchanges; returns the time they took.
    pub fn run(&mut self, iters: u64) -> Duration {
        let (conn, io) = (&mut self.conn, &mut self.io);
        self.rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                let n = exchange(conn, io).await;
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

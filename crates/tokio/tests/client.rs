//! The async client against the tokio server and against raw loopback
//! peers: the pool, streamed bodies both ways, early responses, a stale
//! pooled connection, deadlines, malformed responses.

mod common;

use http_net_tokio::ClientOptions;
use http_net_tokio::ServerOptions;
use std::time::Duration;

use http_net_tokio::http_net_conn::BodyLength;
use http_net_tokio::{
    Client, ClientResponse, Error, Exchange, Handler, HandlerError, Limit, Progress, Server,
    ServerBuilder, ServerHandle, Stage,
};
use tokio::task::JoinHandle;

use common::{answers_and_closes, read_whole, scripted_peer};

struct App;

impl Handler for App {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        Ok(match ex.path() {
            b"/echo" => {
                let body = read_whole(ex, &mut [0u8; 8192]).await?;
                ex.respond_with(200, &[], &body).await
            }
            b"/stream" => {
                ex.send_head(200, &[], BodyLength::Streamed)?;
                for i in 0..50u32 {
                    ex.send_data(format!("{i},").as_bytes()).await?;
                    ex.flush().await?;
                }
                ex.send_end(&[])
            }
            // Answers at once, reading nothing of the body.
            b"/refuse" => ex.respond_with(413, &[], b"too big").await,
            _ => ex.respond_with(200, &[], b"hi").await,
        }?)
    }
}

async fn serve(b: ServerBuilder) -> (u16, ServerHandle, JoinHandle<std::io::Result<()>>) {
    let server = b.bind("127.0.0.1:0").await.unwrap();
    let port = server.local_addr().unwrap().port();
    let handle = server.handle();
    (port, handle, tokio::spawn(server.serve(App)))
}

/// `GET /` from the loopback server on `port`.
async fn get(client: &Client, port: u16) -> Result<ClientResponse, Error> {
    client
        .send_to("127.0.0.1", port, b"GET", b"/", &[], b"")
        .await
}

async fn stop(handle: ServerHandle, task: JoinHandle<std::io::Result<()>>) {
    handle.shutdown();
    task.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_reuses_one_connection() {
    let (port, handle, task) = serve(Server::builder()).await;
    let client = Client::new();
    for _ in 0..5 {
        let mut r = get(&client, port).await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.body_to_vec(100).await.unwrap(), b"hi");
    }
    let mut r = client
        .send_to("127.0.0.1", port, b"POST", b"/echo", &[], b"payload")
        .await
        .unwrap();
    assert_eq!(r.body_to_vec(100).await.unwrap(), b"payload");
    assert_eq!(handle.counters().accepted, 1);
    drop(client);
    stop(handle, task).await;
}

#[tokio::test]
async fn bodies_stream_both_ways() {
    let (port, handle, task) = serve(Server::builder()).await;
    let client = Client::new();
    let mut req = client
        .start(
            "127.0.0.1",
            port,
            b"PUT",
            b"/echo",
            &[],
            BodyLength::Streamed,
        )
        .await
        .unwrap();
    let mut want = Vec::new();
    for i in 0..200u32 {
        let piece = format!("piece {i};").repeat(20);
        assert_eq!(req.write(piece.as_bytes()).await.unwrap(), Progress::Sent);
        want.extend_from_slice(piece.as_bytes());
    }
    let mut r = req.finish(&[(b"X-Trailer", b"yes")]).await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.body_to_vec(1 << 20).await.unwrap(), want);
    let mut r = client
        .send_to("127.0.0.1", port, b"GET", b"/stream", &[], b"")
        .await
        .unwrap();
    assert_eq!(r.field(b"transfer-encoding"), Some(&b"chunked"[..]));
    let mut got = Vec::new();
    let mut buf = [0u8; 3];
    loop {
        let n = r.read_body(&mut buf).await.unwrap();
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
    }
    let want: String = (0..50).map(|i| format!("{i},")).collect();
    assert_eq!(String::from_utf8(got).unwrap(), want);
    stop(handle, task).await;
}

#[tokio::test]
async fn a_final_response_during_the_upload_is_returned() {
    let (port, handle, task) = serve(Server::builder()).await;
    let client = Client::new();
    // Within the server's body budget (8 MiB), but far more than it drains
    // after answering (1 MiB): it closes on us.
    let body = vec![b'x'; 6 * 1024 * 1024];
    let mut r = client
        .send_to("127.0.0.1", port, b"POST", b"/refuse", &[], &body)
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
    assert_eq!(r.body_to_vec(100).await.unwrap(), b"too big");
    // Streamed: `write` says the server answered.
    let mut req = client
        .start(
            "127.0.0.1",
            port,
            b"POST",
            b"/refuse",
            &[],
            BodyLength::Streamed,
        )
        .await
        .unwrap();
    let chunk = vec![b'y'; 64 * 1024];
    let mut answered = false;
    for _ in 0..1024 {
        if req.write(&chunk).await.unwrap() == Progress::Answered {
            answered = true;
            break;
        }
    }
    assert!(answered, "the early 413 was not seen while writing 64 MiB");
    let r = req.finish(&[]).await.unwrap();
    assert_eq!(r.status(), 413);
    stop(handle, task).await;
}

#[tokio::test]
async fn a_pooled_connection_the_server_closed_is_replaced() {
    let (port, handle, task) =
        serve(Server::builder().idle_timeout(Duration::from_millis(100))).await;
    let client = Client::new();
    for _ in 0..2 {
        let mut r = get(&client, port).await.unwrap();
        assert_eq!(r.body_to_vec(100).await.unwrap(), b"hi");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert_eq!(handle.counters().accepted, 2);
    assert_eq!(handle.counters().timed_out.idle, 2);
    stop(handle, task).await;
}

/// A peer that reads the request and then plays `script`: (pause, bytes),
/// holding the connection open 2 s after.
async fn scripted(script: Vec<(u64, &'static [u8])>) -> (u16, JoinHandle<()>) {
    scripted_peer(script, Duration::from_millis(2000)).await
}

#[tokio::test]
async fn read_and_request_deadlines() {
    // No answer at all: the read timeout, at the head.
    let (port, t) = scripted(vec![]).await;
    let client = Client::builder()
        .read_timeout(Duration::from_millis(200))
        .build();
    let e = get(&client, port).await.unwrap_err();
    assert!(matches!(e, Error::Timeout(Stage::Head)), "{e:?}");
    t.abort();
    // A body that trickles within the read timeout, past the whole-request
    // deadline.
    let mut script = vec![(0, &b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"[..])];
    script.extend(std::iter::repeat_n((100, &b"x"[..]), 30));
    let (port, t) = scripted(script).await;
    let client = Client::builder()
        .read_timeout(Duration::from_secs(5))
        .request_timeout(Duration::from_millis(600))
        .build();
    let mut r = get(&client, port).await.unwrap();
    let e = r.body_to_vec(1000).await.unwrap_err();
    // Named as the std client names it: the whole-request deadline, not
    // the read that was waiting when it passed.
    assert!(matches!(e, Error::Timeout(Stage::Deadline)), "{e:?}");
    t.abort();
    // No answer, with the whole-request deadline before the read timeout.
    let (port, t) = scripted(vec![]).await;
    let client = Client::builder()
        .read_timeout(Duration::from_secs(5))
        .request_timeout(Duration::from_millis(300))
        .build();
    let started = std::time::Instant::now();
    let e = get(&client, port).await.unwrap_err();
    assert!(matches!(e, Error::Timeout(Stage::Deadline)), "{e:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    t.abort();
}

/// A streamed request that asks for `100` and ends without a body byte:
/// the wait for `100` running out while the response head is awaited
/// keeps reading (it ended the request with no head before: status 0).
#[tokio::test]
async fn the_continue_window_ending_while_the_head_is_awaited_keeps_reading() {
    let answer = &b"HTTP/1.1 204 No Content\r\n\r\n"[..];
    let (port, t) = scripted(vec![(300, answer)]).await;
    let client = Client::builder()
        .expect_wait(Duration::from_millis(50))
        .build();
    let expect: &[(&[u8], &[u8])] = &[(b"Expect", b"100-continue")];
    let req = client
        .start(
            "127.0.0.1",
            port,
            b"POST",
            b"/",
            expect,
            BodyLength::Streamed,
        )
        .await
        .unwrap();
    let resp = req.finish(&[]).await.unwrap();
    assert_eq!(resp.status(), 204);
    t.abort();
}

#[tokio::test]
async fn malformed_and_truncated_responses_are_errors() {
    for reply in [
        &b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"[..],
        b"HTTP/1.1 200 OK\nContent-Length: 5\n\nhello",
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ] {
        let (port, t) = scripted(vec![(0, reply)]).await;
        let e = get(&Client::new(), port).await.unwrap_err();
        assert!(e.is_peer_fault(), "{e:?}");
        t.abort();
    }
    // Truncated body: the peer closes mid-body.
    let (port, t) =
        answers_and_closes(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello").await;
    let mut r = get(&Client::new(), port).await.unwrap();
    let e = r.body_to_vec(1000).await.unwrap_err();
    assert!(e.is_peer_fault(), "{e:?}");
    t.await.unwrap();
}

/// A body whose `Transfer-Encoding` does not end in `chunked` is read until
/// close with the coding left on: by default an error naming the coding,
/// never the coded bytes as if they were the content; with
/// `accept_transfer_codings`, the coded bytes and the codings.
// proves: policy-client-transfer-coding
#[tokio::test]
async fn a_body_left_transfer_coded_is_refused_unless_accepted() {
    const GZIPPED: &[u8] =
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n\x1f\x8b\x08\x00coded";
    let (port, t) = answers_and_closes(GZIPPED).await;
    let e = get(&Client::new(), port).await.unwrap_err();
    match &e {
        Error::UnsupportedTransferCoding(codings) => assert_eq!(codings, &[b"gzip".to_vec()]),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("gzip"), "{e}");
    assert!(!e.is_peer_fault(), "{e:?}");
    t.await.unwrap();
    // Streamed requests meet the same policy at `finish`.
    let (port, t) = answers_and_closes(GZIPPED).await;
    let req = Client::new()
        .start("127.0.0.1", port, b"GET", b"/", &[], BodyLength::Empty)
        .await
        .unwrap();
    let e = req.finish(&[]).await.unwrap_err();
    assert!(matches!(e, Error::UnsupportedTransferCoding(_)), "{e:?}");
    t.await.unwrap();
    let client = Client::builder().accept_transfer_codings(true).build();
    let (port, t) = answers_and_closes(GZIPPED).await;
    let mut r = get(&client, port).await.unwrap();
    assert_eq!(r.transfer_codings().collect::<Vec<_>>(), [&b"gzip"[..]]);
    assert_eq!(r.body_to_vec(100).await.unwrap(), b"\x1f\x8b\x08\x00coded");
    t.await.unwrap();
    // A chunked body has no coding left on it.
    let (port, t) = answers_and_closes(
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
    )
    .await;
    let mut r = get(&client, port).await.unwrap();
    assert_eq!(r.transfer_codings().count(), 0);
    assert_eq!(r.body_to_vec(100).await.unwrap(), b"ok");
    t.await.unwrap();
}

/// The byte at `i` of the large bodies below: a pattern that a lost,
/// repeated or reordered piece breaks.
fn pattern(i: usize) -> u8 {
    (i % 251) as u8
}

/// A peer that reads the request head, then answers `head` and `len` bytes
/// of [`pattern`] (chunked in 64 KiB chunks when `chunked`), and closes.
async fn large_peer(head: String, len: usize, chunked: bool) -> (u16, JoinHandle<()>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    let t = tokio::spawn(async move {
        let Ok((mut s, _)) = l.accept().await else {
            return;
        };
        let mut got = Vec::new();
        let mut b = [0u8; 1024];
        while !got.windows(4).any(|w| w == b"\r\n\r\n") {
            match s.read(&mut b).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&b[..n]),
            }
        }
        if s.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let mut at = 0;
        while at < len {
            let n = (len - at).min(64 * 1024);
            let piece: Vec<u8> = (at..at + n).map(pattern).collect();
            let r = if chunked {
                let mut c = format!("{n:x}\r\n").into_bytes();
                c.extend_from_slice(&piece);
                c.extend_from_slice(b"\r\n");
                s.write_all(&c).await
            } else {
                s.write_all(&piece).await
            };
            if r.is_err() {
                return;
            }
            at += n;
        }
        if chunked {
            let _ = s.write_all(b"0\r\n\r\n").await;
        }
        let _ = s.shutdown().await;
    });
    (port, t)
}

/// Reads the whole body of `r` in 64 KiB reads, checking it against
/// [`pattern`]; the number of bytes.
async fn read_pattern(r: &mut ClientResponse) -> Result<usize, Error> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0usize;
    loop {
        let n = r.read_body(&mut buf).await?;
        if n == 0 {
            return Ok(total);
        }
        for (k, b) in buf[..n].iter().enumerate() {
            assert_eq!(*b, pattern(total + k), "byte {}", total + k);
        }
        total += n;
    }
}

/// Issue 22: the client's default is the std client's, no response-body
/// budget (8 MiB is a server's default): a 20,000,000-byte body arrives
/// whole, with `Content-Length` and chunked, from `Client::new()` and from
/// the builder's defaults.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_8_mib_arrives_whole_with_the_default_settings() {
    const LEN: usize = 20_000_000;
    for (chunked, client) in [(false, Client::new()), (true, Client::builder().build())] {
        let head = if chunked {
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_string()
        } else {
            format!("HTTP/1.1 200 OK\r\nContent-Length: {LEN}\r\n\r\n")
        };
        let (port, peer) = large_peer(head, LEN, chunked).await;
        let got = tokio::time::timeout(Duration::from_secs(60), async {
            let mut r = get(&client, port).await?;
            assert_eq!(r.status(), 200);
            read_pattern(&mut r).await
        })
        .await
        .expect("the download is bounded in time");
        match got {
            Ok(n) => assert_eq!(n, LEN, "chunked: {chunked}"),
            Err(e) => panic!("chunked: {chunked}: {e:?}: {e}"),
        }
        peer.await.unwrap();
    }
}

/// Issue 22: a body over a limit the caller set (a body budget in the
/// client's connection configuration, or `body_to_vec`'s limit) is the
/// caller's limit, never the peer's fault.
#[tokio::test]
async fn a_body_over_a_limit_the_caller_set_is_not_the_peers_fault() {
    use http_net_tokio::http_net_conn::{BodyLimits, Config};
    let budget = Config::DEFAULT.with_body_limits(BodyLimits::DEFAULT.with_body_budget(1000));
    let client = Client::builder().conn_config(budget).build();
    // A declared length over the budget: refused with the head.
    let (port, peer) = large_peer(
        "HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n".to_string(),
        2000,
        false,
    )
    .await;
    let e = get(&client, port).await.unwrap_err();
    assert!(!e.is_peer_fault(), "{e:?}");
    assert!(!e.to_string().contains("peer"), "{e}");
    assert!(
        matches!(e, Error::OverLimit(Limit::BodyBudget(1000))),
        "{e:?}"
    );
    peer.abort();
    // A chunked body that grows over it: refused while it is read.
    let (port, peer) = large_peer(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_string(),
        2000,
        true,
    )
    .await;
    let mut r = get(&client, port).await.unwrap();
    let e = read_pattern(&mut r).await.unwrap_err();
    assert!(!e.is_peer_fault(), "{e:?}");
    assert!(!e.to_string().contains("peer"), "{e}");
    assert!(
        matches!(e, Error::OverLimit(Limit::BodyBudget(1000))),
        "{e:?}"
    );
    peer.abort();
    // `body_to_vec`'s limit.
    let (port, peer) = large_peer(
        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".to_string(),
        100,
        false,
    )
    .await;
    let mut r = get(&Client::new(), port).await.unwrap();
    let e = r.body_to_vec(10).await.unwrap_err();
    assert!(!e.is_peer_fault(), "{e:?}");
    assert!(!e.to_string().contains("peer"), "{e}");
    assert!(matches!(e, Error::OverLimit(Limit::BodyToVec(10))), "{e:?}");
    peer.abort();
}

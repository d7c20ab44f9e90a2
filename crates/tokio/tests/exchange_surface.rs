//! The tokio `Exchange`'s surface with the std `Exchange`'s names and
//! meanings: the method as text, `is_head`, the query and its pairs, the
//! owned head, request trailers, a per-request body limit, the body as
//! `AsyncRead` and the response body as `AsyncWrite`. Each test starts a
//! server on 127.0.0.1:0, talks raw HTTP over a `TcpStream`, and stops it.

mod common;

use http_net_tokio::ServerOptions;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{read_response, sent, start};
use http_net_tokio::http_net_conn::{form_decode, BodyLength};
use http_net_tokio::{Error, Exchange, Handler, HandlerError, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What a handler returns.
type Out = Result<(), HandlerError>;

/// What a handler saw, for the test to look at after the response.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<String>>>);

impl Seen {
    fn push(&self, s: String) {
        self.0.lock().unwrap().push(s);
    }
    fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Answers with what the head accessors say, in a field (so that a `HEAD`
/// gets it too) and as the body.
struct Head;

impl Handler for Head {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Out {
        let owned = ex.request_head().expect("a request");
        let pairs: Vec<String> = ex
            .query_pairs()
            .map(|(k, v)| format!("{}={}", text(k), text(&form_decode(v).unwrap())))
            .collect();
        let info = format!(
            "{} head={} query={:?} pairs={} owned={}",
            ex.method_str(),
            ex.is_head(),
            ex.query().map(text),
            pairs.join(","),
            text(owned.path()),
        );
        // The owned head outlives the borrowing accessors' answers.
        ex.respond_with(200, &[(b"X-Info", info.as_bytes())], owned.target())
            .await?;
        Ok(())
    }
}

#[test]
fn method_text_head_query_pairs_and_the_owned_head() {
    let srv = start(Server::builder(), Head, false);
    let mut s = sent(
        srv.addr,
        b"PURGE /s/t?q=a+b%21&x=1 HTTP/1.1\r\nHost: a\r\n\r\n\
          HEAD /h HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    let mut rest = Vec::new();
    let r = read_response(&mut s, &mut rest, false).expect("a response");
    assert_eq!(r.status, 200);
    assert_eq!(
        r.field("x-info"),
        Some(r#"PURGE head=false query=Some("q=a+b%21&x=1") pairs=q=a b!,x=1 owned=/s/t"#)
    );
    assert_eq!(r.body, b"/s/t?q=a+b%21&x=1");
    let r = read_response(&mut s, &mut rest, true).expect("a response");
    assert_eq!(
        r.field("x-info"),
        Some("HEAD head=true query=None pairs= owned=/h")
    );
    drop(s);
    srv.stop();
}

/// Reads the body to its end, then echoes its trailer `X-Sum`.
struct Trailers;

impl Handler for Trailers {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Out {
        let before = ex.trailer(b"x-sum").is_some();
        let mut buf = [0u8; 64];
        let mut body = Vec::new();
        loop {
            let n = ex.read_body(&mut buf).await?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&buf[..n]);
        }
        let got = ex.trailer(b"X-SUM").unwrap_or(b"none").to_vec();
        let count = ex.trailers().count().to_string();
        let before = if before { "yes" } else { "no" };
        ex.respond_with(
            200,
            &[
                (b"X-Got-Sum", &got),
                (b"X-Trailers", count.as_bytes()),
                (b"X-Before-End", before.as_bytes()),
            ],
            &body,
        )
        .await?;
        Ok(())
    }
}

#[test]
fn request_trailers_are_kept_once_the_body_is_read_to_its_end() {
    let srv = start(Server::builder(), Trailers, false);
    let mut s = sent(
        srv.addr,
        b"POST /t HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
          5\r\nhello\r\n0\r\nX-Sum: 42\r\nX-Other: b\r\n\r\n\
          POST /t HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi",
    );
    let mut rest = Vec::new();
    let r = read_response(&mut s, &mut rest, false).expect("a response");
    assert_eq!(r.status, 200);
    assert_eq!(r.body, b"hello");
    assert_eq!(r.field("x-got-sum"), Some("42"));
    assert_eq!(r.field("x-trailers"), Some("2"));
    assert_eq!(r.field("x-before-end"), Some("no"));
    // The next request on the connection starts with none.
    let r = read_response(&mut s, &mut rest, false).expect("a response");
    assert_eq!(r.body, b"hi");
    assert_eq!(r.field("x-got-sum"), Some("none"));
    assert_eq!(r.field("x-trailers"), Some("0"));
    drop(s);
    srv.stop();
}

/// Lowers the body limit to 10 bytes, then reads the body through
/// `read_body` (`/read`) or `body()` (`/async-read`); records the error.
struct Limited(Seen);

impl Handler for Limited {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Out {
        if let Err(e) = ex.limit_body(10) {
            self.0.push(format!("limit_body: {e:?}"));
            return Err(e.into());
        }
        let r = if ex.path() == b"/read" {
            let mut buf = [0u8; 64];
            loop {
                match ex.read_body(&mut buf).await {
                    Ok(0) => break Ok(()),
                    Ok(_) => {}
                    Err(e) => break Err(e),
                }
            }
        } else {
            let mut body = Vec::new();
            ex.body()
                .read_to_end(&mut body)
                .await
                .map(|_| ())
                .map_err(|e| {
                    let inner = e.into_inner().expect("the adapter's error inside");
                    *inner.downcast::<Error>().expect("an http_net_tokio::Error")
                })
        };
        match r {
            Ok(()) => {
                ex.respond_with(200, &[], b"read").await?;
                Ok(())
            }
            Err(e) => {
                self.0.push(format!("read: {e:?}"));
                // A second read fails alike.
                let again = ex.read_body(&mut [0u8; 8]).await;
                self.0.push(format!("again: {again:?}"));
                Err(e.into())
            }
        }
    }
}

#[test]
fn limit_body_lowers_the_limit_for_one_request_and_an_overrun_is_answered_413() {
    let seen = Seen::default();
    let srv = start(Server::builder(), Limited(seen.clone()), false);
    let over = "OverLimit(BodyBudget(10))";

    // Within the limit: read whole.
    let r = common::roundtrip(
        srv.addr,
        b"POST /read HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789",
    )
    .expect("a response");
    assert_eq!((r.status, r.body.as_slice()), (200, &b"read"[..]));

    // A declared length over it: `limit_body` itself fails.
    let r = common::roundtrip(
        srv.addr,
        b"POST /read HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n0123456789a",
    )
    .expect("a response");
    assert_eq!(r.status, 413);
    assert_eq!(seen.all(), [format!("limit_body: {over}")]);

    // A chunked body passing it: the read fails, and every later one.
    for path in ["/read", "/async-read"] {
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
             8\r\n01234567\r\n8\r\n89abcdef\r\n0\r\n\r\n"
        );
        let r = common::roundtrip(srv.addr, req.as_bytes()).expect("a response");
        assert_eq!(r.status, 413, "{path}");
        let seen = seen.all();
        assert_eq!(
            seen[seen.len() - 2..],
            [format!("read: {over}"), format!("again: Err({over})")],
            "{path}"
        );
    }
    srv.stop();
}

/// `AsyncReadExt::read_to_end` on the body; answers its length and its
/// bytes' sum.
struct ReadToEnd;

impl Handler for ReadToEnd {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Out {
        let mut body = Vec::new();
        ex.body().read_to_end(&mut body).await?;
        let sum: u64 = body.iter().map(|&b| u64::from(b)).sum();
        let answer = format!("{} {sum}", body.len());
        ex.respond_with(200, &[], answer.as_bytes()).await?;
        Ok(())
    }
}

#[test]
fn the_body_as_async_read_reads_to_its_end_across_waits() {
    let srv = start(Server::builder(), ReadToEnd, false);
    let body: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
    let sum: u64 = body.iter().map(|&b| u64::from(b)).sum();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut s = sent(srv.addr, head.as_bytes());
    // `100 Continue` is sent on the first read; then the body in pieces,
    // with pauses, so that the reader waits between them.
    let mut rest = Vec::new();
    assert!(common::fill_until(
        &mut s,
        &mut rest,
        b"HTTP/1.1 100 Continue\r\n\r\n"
    ));
    rest.clear();
    for piece in body.chunks(30_000) {
        s.write_all(piece).unwrap();
        std::thread::sleep(Duration::from_millis(20));
    }
    let r = read_response(&mut s, &mut rest, false).expect("a response");
    assert_eq!(r.status, 200);
    assert_eq!(text(&r.body), format!("{} {sum}", body.len()));
    drop(s);
    srv.stop();
}

/// Echoes the request body with `tokio::io::copy` from the body into the
/// body writer: chunked (`/chunked`) or within the declared length.
struct Echo;

impl Handler for Echo {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Out {
        let length = match ex.field(b"content-length") {
            Some(n) => BodyLength::Known(text(n).parse().unwrap()),
            None => BodyLength::Streamed,
        };
        ex.send_head(200, &[], length)?;
        let (mut body, mut out) = ex.body_and_writer();
        tokio::io::copy(&mut body, &mut out).await?;
        out.shutdown().await?;
        Ok(())
    }
}

#[test]
fn copy_from_the_body_into_the_body_writer_echoes_a_1_mib_chunked_upload() {
    let srv = start(Server::builder(), Echo, true);
    let body: Vec<u8> = (0..1u32 << 20).map(|i| (i * 7 % 253) as u8).collect();
    let mut s = sent(
        srv.addr,
        b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    // The upload goes on while the echo comes back.
    let mut w = s.try_clone().unwrap();
    let up = body.clone();
    let writer = std::thread::spawn(move || {
        for piece in up.chunks(8192) {
            write!(w, "{:x}\r\n", piece.len()).unwrap();
            w.write_all(piece).unwrap();
            w.write_all(b"\r\n").unwrap();
        }
        w.write_all(b"0\r\n\r\n").unwrap();
    });
    let r = read_response(&mut s, &mut Vec::new(), false).expect("a response");
    writer.join().unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.field("transfer-encoding"), Some("chunked"));
    assert_eq!(r.body.len(), body.len());
    assert!(r.body == body, "the echo differs");

    // A declared length: the writer stays within it, with no chunks.
    let mut s = sent(
        srv.addr,
        b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world",
    );
    let r = read_response(&mut s, &mut Vec::new(), false).expect("a response");
    assert_eq!(r.field("content-length"), Some("11"));
    assert_eq!(r.body, b"hello world");
    drop(s);
    srv.stop();
}

/// A body written with `write_all` in small pieces, ended by `shutdown`.
struct Writes;

impl Handler for Writes {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Out {
        ex.send_head(200, &[], BodyLength::Streamed)?;
        let mut w = ex.body_writer();
        for i in 0..5000 {
            w.write_all(format!("{i}\n").as_bytes()).await?;
        }
        w.flush().await?;
        w.shutdown().await?;
        Ok(())
    }
}

#[test]
fn the_body_writer_sends_chunks_and_shutdown_ends_the_body() {
    let srv = start(Server::builder(), Writes, false);
    let mut s = sent(
        srv.addr,
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    let want: String = (0..5000).map(|i| format!("{i}\n")).collect();
    let mut rest = Vec::new();
    for _ in 0..2 {
        // Both answers whole: the first one ended, so the connection
        // went on to the second.
        let r = read_response(&mut s, &mut rest, false).expect("a response");
        assert_eq!(r.status, 200);
        assert_eq!(text(&r.body), want);
    }
    drop(s);
    srv.stop();
}

/// Reads the body with no limit of its own; records the error.
struct Unlimited(Seen);

impl Handler for Unlimited {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Out {
        let mut body = Vec::new();
        let mut buf = [0u8; 8];
        loop {
            match ex.read_body(&mut buf).await {
                Ok(0) => break,
                Ok(n) => body.extend_from_slice(&buf[..n]),
                Err(e) => {
                    self.0.push(format!("{e:?}"));
                    return Err(e.into());
                }
            }
        }
        ex.respond_with(200, &[], &body).await?;
        Ok(())
    }
}

#[test]
fn a_chunked_body_over_the_servers_limit_is_the_callers_over_limit_and_413() {
    let seen = Seen::default();
    let builder = Server::builder().max_body_bytes(16);
    let srv = start(builder, Unlimited(seen.clone()), false);
    let r = common::roundtrip(
        srv.addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
          c\r\n0123456789ab\r\nc\r\n0123456789ab\r\n0\r\n\r\n",
    )
    .expect("a response");
    assert_eq!(r.status, 413);
    assert_eq!(seen.all(), ["OverLimit(BodyBudget(16))"]);
    srv.stop();
}

/// Reads the body with `AsyncReadExt::read_to_end`; records the error's
/// kind and whether `Error::from_io` gives the peer's truncated body back.
struct KindOfFailure(Seen);

impl Handler for KindOfFailure {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Out {
        let mut body = Vec::new();
        if let Err(e) = ex.body().read_to_end(&mut body).await {
            let kind = e.kind();
            let back = Error::from_io(e);
            self.0.push(format!("{kind:?} {back:?}"));
            return Err(back.into());
        }
        ex.respond_with(200, &[], b"whole").await?;
        Ok(())
    }
}

#[test]
fn a_truncated_body_read_as_async_read_is_unexpected_eof() {
    let seen = Seen::default();
    let srv = start(Server::builder(), KindOfFailure(seen.clone()), false);
    let mut s = sent(
        srv.addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n0123456789",
    );
    s.shutdown(std::net::Shutdown::Write).unwrap();
    // The server closes (the request was cut short); the handler has
    // recorded what its read saw by then.
    let mut rest = Vec::new();
    let _ = read_response(&mut s, &mut rest, false);
    let t0 = std::time::Instant::now();
    while seen.all().is_empty() && t0.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        seen.all(),
        ["UnexpectedEof Protocol(Remote(UnexpectedEof))"]
    );
    srv.stop();
}

//! A tower service on the server, end to end over TCP: the request it
//! gets, the request body it streams (limits, trailers, a client that goes
//! away), the response it returns (lengths, chunked, close-delimited,
//! trailers, HEAD, 1xx, refused fields), readiness, errors and panics, and
//! the upgrade handle.

mod support;

use http_net_tokio::ServerOptions;
use std::collections::VecDeque;
use std::future::Future;
use std::io::{Read, Write};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request, Response, StatusCode};
use http_body::{Body as _, Frame, SizeHint};
use http_net_tokio::http_net_conn::LocalError;
use http_net_tokio::{Mistake, Server};
use http_net_tower::{Body, BodyLimit, BoxError, OnUpgrade, PeerAddr, ServiceHandler};
use support::{connect, exchange, parse, parse_one, read_all, start};

/// The response bodies the test service returns.
enum TestBody {
    /// Frames in order; `exact` sets an exact size hint (the data's length).
    Frames {
        frames: VecDeque<Frame<Bytes>>,
        exact: Option<u64>,
    },
    /// The request body, as it arrives (its trailers too).
    Echo(Body),
    /// `first`, then waits for `gate`, then `second`.
    Gated {
        first: Option<Bytes>,
        gate: Pin<Box<dyn Future<Output = ()> + Send>>,
        second: Option<Bytes>,
    },
    /// `abc`, then an error.
    Fails(bool),
    /// 64 KiB frames without end; sets the flag when dropped.
    Endless(Arc<AtomicBool>),
}

impl Drop for TestBody {
    fn drop(&mut self) {
        if let TestBody::Endless(flag) = self {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

impl http_body::Body for TestBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            TestBody::Frames { frames, .. } => Poll::Ready(frames.pop_front().map(Ok)),
            TestBody::Echo(b) => Pin::new(b)
                .poll_frame(cx)
                .map(|f| f.map(|r| r.map_err(Into::into))),
            TestBody::Gated {
                first,
                gate,
                second,
            } => {
                if let Some(f) = first.take() {
                    return Poll::Ready(Some(Ok(Frame::data(f))));
                }
                std::task::ready!(gate.as_mut().poll(cx));
                *gate = Box::pin(std::future::ready(()));
                Poll::Ready(second.take().map(|s| Ok(Frame::data(s))))
            }
            TestBody::Fails(sent) => {
                if !*sent {
                    *sent = true;
                    return Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b"abc")))));
                }
                Poll::Ready(Some(Err("the body broke".into())))
            }
            TestBody::Endless(_) => {
                Poll::Ready(Some(Ok(Frame::data(Bytes::from(vec![b'x'; 64 * 1024])))))
            }
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            TestBody::Frames { exact: Some(n), .. } => SizeHint::with_exact(*n),
            TestBody::Echo(b) => b.size_hint(),
            _ => SizeHint::default(),
        }
    }
}

fn full(status: u16, body: &str) -> Response<TestBody> {
    let mut r = Response::new(TestBody::Frames {
        frames: VecDeque::from([Frame::data(Bytes::from(body.to_string()))]),
        exact: Some(body.len() as u64),
    });
    *r.status_mut() = StatusCode::from_u16(status).unwrap();
    r
}

/// Reads the whole request body: its bytes, or the error's text.
async fn collect(mut body: Body) -> Result<Vec<u8>, String> {
    let mut all = Vec::new();
    while let Some(f) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        match f {
            Ok(f) => {
                if let Ok(d) = f.into_data() {
                    all.extend_from_slice(&d);
                }
            }
            Err(e) => return Err(format!("{e}")),
        }
    }
    Ok(all)
}

type Fut = Pin<Box<dyn Future<Output = Result<Response<TestBody>, BoxError>> + Send>>;

/// The test service: a route per behaviour, by path.
#[derive(Clone, Default)]
struct Svc {
    /// `poll_ready` is pending until a timer thread readies it.
    slow_ready: bool,
    /// `poll_ready` fails.
    ready_fails: bool,
    /// Set when `poll_ready` answered ready.
    readied: Arc<AtomicBool>,
    /// Calls made.
    calls: Arc<AtomicUsize>,
    /// What the routes noted (a body error's text).
    notes: Arc<Mutex<Vec<String>>>,
    /// Opens `/gated`'s gate.
    gate: Arc<tokio::sync::Notify>,
    /// `/endless`'s body was dropped.
    dropped: Arc<AtomicBool>,
}

impl tower_service::Service<Request<Body>> for Svc {
    type Response = Response<TestBody>;
    type Error = BoxError;
    type Future = Fut;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        if self.ready_fails {
            return Poll::Ready(Err("not ready, ever".into()));
        }
        if self.slow_ready && !self.readied.load(Ordering::SeqCst) {
            let (flag, waker) = (Arc::clone(&self.readied), cx.waker().clone());
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                flag.store(true, Ordering::SeqCst);
                waker.wake();
            });
            return Poll::Pending;
        }
        self.readied.store(true, Ordering::SeqCst);
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut req: Request<Body>) -> Fut {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let me = self.clone();
        Box::pin(async move {
            let path = req.uri().path().to_string();
            Ok(match path.as_str() {
                "/info" => {
                    let mut s = format!("{} {} {:?}\n", req.method(), req.uri(), req.version());
                    for (n, v) in req.headers() {
                        s += &format!("{n}: {}\n", v.to_str().unwrap_or("?"));
                    }
                    if let Some(PeerAddr(a)) = req.extensions().get::<PeerAddr>() {
                        s += &format!("peer: {}\n", a.ip());
                    }
                    full(200, &s)
                }
                "/echo" => Response::new(TestBody::Echo(req.into_body())),
                "/collect" => match collect(req.into_body()).await {
                    Ok(b) => full(200, &b.len().to_string()),
                    Err(e) => {
                        me.notes.lock().unwrap().push(e);
                        full(400, "body failed")
                    }
                },
                "/limited" => {
                    req.extensions().get::<BodyLimit>().unwrap().lower_to(10);
                    match collect(req.into_body()).await {
                        Ok(b) => full(200, &b.len().to_string()),
                        Err(e) => {
                            me.notes.lock().unwrap().push(e);
                            full(400, "body failed")
                        }
                    }
                }
                "/unknown" => Response::new(TestBody::Frames {
                    frames: VecDeque::from([
                        Frame::data(Bytes::from_static(b"hello ")),
                        Frame::data(Bytes::from_static(b"world")),
                    ]),
                    exact: None,
                }),
                "/split-exact" => Response::new(TestBody::Frames {
                    frames: VecDeque::from([
                        Frame::data(Bytes::from_static(b"hello ")),
                        Frame::data(Bytes::from_static(b"world")),
                    ]),
                    exact: Some(11),
                }),
                "/empty-exact" => Response::new(TestBody::Frames {
                    frames: VecDeque::new(),
                    exact: Some(0),
                }),
                "/trailers" => {
                    let mut t = HeaderMap::new();
                    t.insert("x-sum", HeaderValue::from_static("6"));
                    Response::new(TestBody::Frames {
                        frames: VecDeque::from([
                            Frame::data(Bytes::from_static(b"abc")),
                            Frame::trailers(t),
                        ]),
                        exact: None,
                    })
                }
                "/early-hints" => full(103, ""),
                "/no-content" => {
                    let mut r = full(204, "");
                    r.headers_mut()
                        .insert("content-length", HeaderValue::from_static("0"));
                    r
                }
                "/bad-field" => {
                    let mut r = full(200, "never sent");
                    r.headers_mut()
                        .insert("x-padded", HeaderValue::from_static(" padded "));
                    r
                }
                "/bad-length" => {
                    let mut r = full(200, "never sent");
                    r.headers_mut()
                        .insert("content-length", HeaderValue::from_static("5, 6"));
                    r
                }
                "/mismatch" => {
                    let mut r = full(200, "abc");
                    r.headers_mut()
                        .insert("content-length", HeaderValue::from_static("5"));
                    r
                }
                "/error" => return Err("boom".into()),
                "/panic" => panic!("the service panicked"),
                "/body-error" => Response::new(TestBody::Fails(false)),
                "/gated" => {
                    let gate = Arc::clone(&me.gate);
                    Response::new(TestBody::Gated {
                        first: Some(Bytes::from_static(b"first")),
                        gate: Box::pin(async move { gate.notified().await }),
                        second: Some(Bytes::from_static(b"second")),
                    })
                }
                "/endless" => Response::new(TestBody::Endless(Arc::clone(&me.dropped))),
                "/streamed-then-report" => {
                    // Answers at once, then reports how the body read went.
                    let body = req.into_body();
                    let notes = Arc::clone(&me.notes);
                    let (tx, rx) = tokio::sync::oneshot::channel::<String>();
                    tokio::spawn(async move {
                        let r = collect(body).await;
                        let text = match r {
                            Ok(b) => format!("read {}", b.len()),
                            Err(e) => format!("failed: {e}"),
                        };
                        notes.lock().unwrap().push(text.clone());
                        let _ = tx.send(text);
                    });
                    Response::new(TestBody::Gated {
                        first: Some(Bytes::from_static(b"started\n")),
                        gate: Box::pin(async move {
                            let _ = rx.await;
                        }),
                        second: Some(Bytes::from_static(b"done\n")),
                    })
                }
                "/upgrade" | "/upgrade-endless-body" => {
                    let Some(on) = req.extensions_mut().remove::<OnUpgrade>() else {
                        return Ok(full(426, "no upgrade"));
                    };
                    tokio::spawn(async move {
                        use tokio::io::{AsyncReadExt, AsyncWriteExt};
                        let Ok(mut io) = on.await else { return };
                        let mut buf = [0u8; 1024];
                        while let Ok(n @ 1..) = io.read(&mut buf).await {
                            if io.write_all(&buf[..n]).await.is_err() {
                                break;
                            }
                        }
                    });
                    let mut r = full(101, "");
                    if path == "/upgrade-endless-body" {
                        // A body no switch sends: dropped at the switch.
                        *r.body_mut() = TestBody::Endless(Arc::clone(&me.dropped));
                    }
                    r.headers_mut()
                        .insert("upgrade", HeaderValue::from_static("echo"));
                    r.headers_mut()
                        .insert("connection", HeaderValue::from_static("upgrade"));
                    r
                }
                _ => full(404, "not found"),
            })
        })
    }
}

fn builder() -> http_net_tokio::ServerBuilder {
    Server::builder()
}

#[test]
fn the_request_head_reaches_the_service_in_order_with_duplicates_and_the_peer() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let r = parse(&exchange(
        s.addr,
        b"GET /info?a=1 HTTP/1.1\r\nHost: example\r\nX-Dup: one\r\nAccept: */*\r\nX-Dup: two\r\n\
          Connection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 200);
    let text = String::from_utf8(r.body.clone()).unwrap();
    assert_eq!(
        text,
        "GET /info?a=1 HTTP/1.1\nhost: example\nx-dup: one\nx-dup: two\naccept: */*\n\
         connection: close\npeer: 127.0.0.1\n"
    );
    // Duplicates are kept: the `http` crate lists a name's values together.
    // The exact length from the body's hint.
    assert_eq!(
        r.field("content-length"),
        Some(text.len().to_string().as_str())
    );
    // Absolute form: the URI keeps its scheme and authority.
    let r = parse(&exchange(
        s.addr,
        b"GET http://example/info HTTP/1.1\r\nHost: example\r\nConnection: close\r\n\r\n",
    ));
    assert!(String::from_utf8(r.body)
        .unwrap()
        .starts_with("GET http://example/info HTTP/1.1\n"));
}

#[test]
fn a_request_body_streams_to_the_service_and_back_with_its_trailers() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    // A declared length: echoed with the same exact length.
    let r = parse(&exchange(
        s.addr,
        b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\nConnection: close\r\n\r\nhello world",
    ));
    assert_eq!((r.status, &r.body[..]), (200, &b"hello world"[..]));
    assert_eq!(r.field("content-length"), Some("11"));
    // Chunked with trailers, and the client takes trailers: they come back.
    let req = b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTE: trailers\r\n\
                Connection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-Checksum: 42\r\n\r\n";
    let r = parse(&exchange(s.addr, req));
    assert_eq!(r.status, 200);
    assert!(r.chunked && r.complete);
    assert_eq!(r.body, b"hello world");
    assert_eq!(r.trailers, [("x-checksum".to_string(), "42".to_string())]);
    // The same without `TE: trailers`: the trailers are dropped.
    let req = b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\
                Connection: close\r\n\r\n5\r\nhello\r\n0\r\nX-Checksum: 42\r\n\r\n";
    let r = parse(&exchange(s.addr, req));
    assert!(r.chunked && r.complete);
    assert_eq!(r.body, b"hello");
    assert!(r.trailers.is_empty());
}

#[test]
fn response_trailers_go_out_only_to_a_client_that_takes_them() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let r = parse(&exchange(
        s.addr,
        b"GET /trailers HTTP/1.1\r\nHost: a\r\nTE: trailers\r\nConnection: close\r\n\r\n",
    ));
    assert!(r.chunked && r.complete);
    assert_eq!(r.body, b"abc");
    assert_eq!(r.trailers, [("x-sum".to_string(), "6".to_string())]);
    let r = parse(&exchange(
        s.addr,
        b"GET /trailers HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert!(r.chunked && r.complete);
    assert!(r.trailers.is_empty());
}

#[test]
fn an_unknown_length_is_chunked_and_close_delimited_to_http10() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let r = parse(&exchange(
        s.addr,
        b"GET /unknown HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert!(r.chunked && r.complete);
    assert_eq!(r.body, b"hello world");
    let raw = exchange(s.addr, b"GET /unknown HTTP/1.0\r\n\r\n");
    let r = parse(&raw);
    assert_eq!(r.status, 200);
    assert!(!r.chunked);
    assert_eq!(r.field("content-length"), None);
    assert_eq!(r.body, b"hello world");
}

#[test]
fn a_known_length_goes_out_whole_or_frame_by_frame() {
    // One frame that is the whole body (the one-command path), a body of
    // a known length in two frames (its first frame polled there, then
    // sent first), and an empty body of length 0, on one connection.
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let mut c = connect(s.addr);
    c.write_all(
        b"GET /info HTTP/1.1\r\nHost: a\r\n\r\nGET /split-exact HTTP/1.1\r\nHost: a\r\n\r\n\
          GET /empty-exact HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let raw = read_all(&mut c);
    let (info, rest) = parse_one(&raw, false);
    assert_eq!(info.status, 200);
    assert!(info.body.starts_with(b"GET /info HTTP/1.1"));
    assert_eq!(
        info.field("content-length"),
        Some(info.body.len().to_string().as_str())
    );
    let (split, rest) = parse_one(rest, false);
    assert_eq!((split.status, split.chunked), (200, false));
    assert_eq!(split.field("content-length"), Some("11"));
    assert_eq!(split.body, b"hello world");
    let (empty, rest) = parse_one(rest, false);
    assert_eq!(empty.status, 200);
    assert_eq!(empty.field("content-length"), Some("0"));
    assert!(empty.body.is_empty() && rest.is_empty(), "{rest:?}");
}

#[test]
fn a_head_response_carries_no_body() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let mut c = connect(s.addr);
    c.write_all(b"HEAD /unknown HTTP/1.1\r\nHost: a\r\n\r\nHEAD /info HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        .unwrap();
    let raw = read_all(&mut c);
    let (first, rest) = parse_one(&raw, true);
    assert_eq!(first.status, 200);
    let (second, rest) = parse_one(rest, true);
    assert_eq!(second.status, 200);
    // The length a GET would get, and no byte of the body.
    assert!(second.field("content-length").is_some());
    assert!(
        rest.is_empty(),
        "a body byte followed a HEAD response: {rest:?}"
    );
}

#[test]
fn a_204_with_content_length_0_goes_out_without_it() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let raw = exchange(
        s.addr,
        b"GET /no-content HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    );
    let (r, rest) = parse_one(&raw, false);
    assert_eq!(r.status, 204);
    assert_eq!(r.field("content-length"), None);
    assert!(rest.is_empty());
}

#[test]
fn a_1xx_from_the_service_is_refused_with_500() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let r = parse(&exchange(
        s.addr,
        b"GET /early-hints HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 500);
    assert!(support::eventually(|| s
        .mistakes
        .lock()
        .unwrap()
        .contains(&Mistake::Refused(LocalError::InformationalAsFinal))));
}

#[test]
fn a_field_the_writer_refuses_is_a_500_never_a_split_response() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    for (path, refused) in [
        ("/bad-field", Some(LocalError::InvalidFieldValue)),
        ("/bad-length", Some(LocalError::ConflictingFraming)),
        ("/mismatch", None),
    ] {
        let raw = exchange(
            s.addr,
            format!("GET {path} HTTP/1.1\r\nHost: a\r\n\r\n").as_bytes(),
        );
        let (r, rest) = parse_one(&raw, false);
        assert_eq!(r.status, 500, "{path}");
        assert_eq!(r.field("connection"), Some("close"), "{path}");
        assert!(rest.is_empty(), "{path}: more after the 500: {rest:?}");
        assert!(!String::from_utf8_lossy(&raw).contains("never sent"));
        if let Some(l) = refused {
            assert!(support::eventually(|| s
                .mistakes
                .lock()
                .unwrap()
                .contains(&Mistake::Refused(l))));
        }
    }
    assert!(support::eventually(|| s
        .errors
        .lock()
        .unwrap()
        .iter()
        .any(|e| e.contains("RFC 9110 §8.6"))));
}

#[test]
fn a_service_error_and_a_panic_are_500s_reported_as_the_applications() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let r = parse(&exchange(s.addr, b"GET /error HTTP/1.1\r\nHost: a\r\n\r\n"));
    assert_eq!(r.status, 500);
    assert!(support::eventually(|| s
        .errors
        .lock()
        .unwrap()
        .iter()
        .any(|e| e == "the service failed: boom")));
    assert!(support::eventually(|| s
        .mistakes
        .lock()
        .unwrap()
        .contains(&Mistake::Unanswered)));
    let r = parse(&exchange(s.addr, b"GET /panic HTTP/1.1\r\nHost: a\r\n\r\n"));
    assert_eq!(r.status, 500);
    assert!(support::eventually(|| s
        .mistakes
        .lock()
        .unwrap()
        .contains(&Mistake::Panicked)));
    // The server goes on.
    let r = parse(&exchange(
        s.addr,
        b"GET /info HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 200);
}

#[test]
fn a_response_body_that_fails_midway_closes_the_connection() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let raw = exchange(s.addr, b"GET /body-error HTTP/1.1\r\nHost: a\r\n\r\n");
    let r = parse(&raw);
    assert_eq!(r.status, 200);
    assert_eq!(r.body, b"abc");
    assert!(!r.complete, "a failed body must not look complete");
}

#[test]
fn poll_ready_is_awaited_before_the_call() {
    let svc = Svc {
        slow_ready: true,
        ..Svc::default()
    };
    let (readied, calls) = (Arc::clone(&svc.readied), Arc::clone(&svc.calls));
    let s = start(builder(), ServiceHandler::new(svc));
    let r = parse(&exchange(
        s.addr,
        b"GET /info HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 200);
    assert!(readied.load(Ordering::SeqCst));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    // A service that is never ready fails: 500, never called.
    let svc = Svc {
        ready_fails: true,
        ..Svc::default()
    };
    let calls = Arc::clone(&svc.calls);
    let s = start(builder(), ServiceHandler::new(svc));
    let r = parse(&exchange(
        s.addr,
        b"GET /info HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 500);
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert!(support::eventually(|| s
        .errors
        .lock()
        .unwrap()
        .iter()
        .any(|e| e == "the service failed: not ready, ever")));
}

#[test]
fn over_the_limit_before_any_answer_is_the_servers_413() {
    let svc = Svc::default();
    let notes = Arc::clone(&svc.notes);
    let s = start(builder().max_body_bytes(100), ServiceHandler::new(svc));
    let mut req =
        b"POST /collect HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..5 {
        req.extend_from_slice(b"32\r\n");
        req.extend_from_slice(&[b'x'; 50]);
        req.extend_from_slice(b"\r\n");
    }
    req.extend_from_slice(b"0\r\n\r\n");
    let r = parse(&exchange(s.addr, &req));
    assert_eq!(r.status, 413, "{r:?}");
    assert!(support::eventually(|| notes
        .lock()
        .unwrap()
        .iter()
        .any(|n| n.contains("larger than"))));
    // The route's own lower limit, against a declared length: 413 too.
    let r = parse(&exchange(
        s.addr,
        b"POST /limited HTTP/1.1\r\nHost: a\r\nContent-Length: 50\r\n\r\n\
          xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ));
    assert_eq!(r.status, 413);
    // Within it: read.
    let r = parse(&exchange(
        s.addr,
        b"POST /limited HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\nxxxxx",
    ));
    assert_eq!((r.status, &r.body[..]), (200, &b"5"[..]));
    // The peer's doing: the service's dropped answer is no mistake of its.
    assert!(s.mistakes.lock().unwrap().is_empty(), "{:?}", s.mistakes);
}

#[test]
fn over_the_limit_after_the_answer_began_the_service_sees_it_and_the_connection_closes() {
    let svc = Svc::default();
    let notes = Arc::clone(&svc.notes);
    let s = start(builder().max_body_bytes(100), ServiceHandler::new(svc));
    let mut c = connect(s.addr);
    c.write_all(
        b"POST /streamed-then-report HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
    )
    .unwrap();
    for _ in 0..5 {
        c.write_all(b"32\r\n").unwrap();
        c.write_all(&[b'x'; 50]).unwrap();
        c.write_all(b"\r\n").unwrap();
    }
    c.write_all(b"0\r\n\r\n").unwrap();
    // No `Connection: close` asked: the server closes. The connection
    // failed with the body (the core takes no more of an answer on a
    // failed connection), so the answer ends where it stood.
    let raw = read_all(&mut c);
    let r = parse(&raw);
    assert_eq!(r.status, 200);
    assert_eq!(r.body, b"started\n");
    assert!(!r.complete);
    assert!(support::eventually(|| notes
        .lock()
        .unwrap()
        .iter()
        .any(|n| n.starts_with("failed:") && n.contains("larger than"))));
    // The peer's doing, not the application's mistake.
    std::thread::sleep(Duration::from_millis(50));
    assert!(s.mistakes.lock().unwrap().is_empty(), "{:?}", s.mistakes);
}

#[test]
fn a_client_that_goes_away_mid_body_is_seen_by_the_service_and_the_server_goes_on() {
    let svc = Svc::default();
    let notes = Arc::clone(&svc.notes);
    let s = start(builder(), ServiceHandler::new(svc));
    let mut c = connect(s.addr);
    c.write_all(
        b"POST /collect HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nonly a little",
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    drop(c);
    assert!(support::eventually(|| !notes.lock().unwrap().is_empty()));
    // And one that goes away mid-response: the body is dropped.
    let svc = Svc::default();
    let dropped = Arc::clone(&svc.dropped);
    let s2 = start(builder(), ServiceHandler::new(svc));
    let mut c = connect(s2.addr);
    c.write_all(b"GET /endless HTTP/1.1\r\nHost: a\r\n\r\n")
        .unwrap();
    let mut buf = [0u8; 65536];
    let _ = c.read(&mut buf).unwrap();
    drop(c);
    assert!(support::eventually(|| dropped.load(Ordering::SeqCst)));
    for s in [&s, &s2] {
        let r = parse(&exchange(
            s.addr,
            b"GET /info HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
        ));
        assert_eq!(r.status, 200);
    }
}

/// Sends a `POST /collect` whose body stalls after a few bytes of 100.
fn stalled_body(addr: std::net::SocketAddr) -> std::net::TcpStream {
    let mut c = connect(addr);
    c.write_all(b"POST /collect HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nonly a little")
        .unwrap();
    c
}

#[test]
fn a_body_that_times_out_before_any_answer_is_the_servers_408_and_the_connection_closes() {
    let svc = Svc::default();
    let notes = Arc::clone(&svc.notes);
    let b = builder().body_timeout(Duration::from_millis(200));
    let s = start(b, ServiceHandler::new(svc));
    let mut c = stalled_body(s.addr);
    // The service saw the failure and answered `400`: dropped for the
    // server's `408` (a native handler's `?` gets the same), then close.
    let r = parse(&read_all(&mut c));
    assert_eq!(r.status, 408, "{r:?}");
    assert_eq!(r.field("connection"), Some("close"), "{r:?}");
    assert!(support::eventually(|| notes
        .lock()
        .unwrap()
        .iter()
        .any(|n| n.contains("request body failed"))));
    // The peer's doing, not the application's mistake.
    assert!(s.mistakes.lock().unwrap().is_empty(), "{:?}", s.mistakes);
}

#[test]
fn a_body_reader_evicted_for_a_newcomer_gets_408_and_is_closed_at_once() {
    let svc = Svc::default();
    let calls = Arc::clone(&svc.calls);
    let b = builder().max_connections(1).eviction_grace(Duration::ZERO);
    let s = start(b, ServiceHandler::new(svc));
    let mut slow = stalled_body(s.addr);
    assert!(support::eventually(|| calls.load(Ordering::SeqCst) == 1));
    std::thread::sleep(Duration::from_millis(100));
    // The newcomer takes the one slot.
    let r = parse(&exchange(
        s.addr,
        b"GET /info HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 200, "{r:?}");
    // The evicted one is answered and closed, not left draining its body
    // outside the connection limit (with its buffers) for a body timeout.
    let t = std::time::Instant::now();
    let r = parse(&read_all(&mut slow));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_eq!(r.status, 408, "{r:?}");
}

#[test]
fn a_body_reader_evicted_after_the_answer_began_is_closed_after_it() {
    let svc = Svc::default();
    let calls = Arc::clone(&svc.calls);
    let b = builder().max_connections(1).eviction_grace(Duration::ZERO);
    let s = start(b, ServiceHandler::new(svc));
    let mut slow = connect(s.addr);
    slow.write_all(
        b"POST /streamed-then-report HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nonly a little",
    )
    .unwrap();
    assert!(support::eventually(|| calls.load(Ordering::SeqCst) == 1));
    std::thread::sleep(Duration::from_millis(100));
    let r = parse(&exchange(
        s.addr,
        b"GET /info HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 200, "{r:?}");
    // Its answer ends (the service saw the eviction in the body), and the
    // connection closes after it rather than drain the body.
    let t = std::time::Instant::now();
    let r = parse(&read_all(&mut slow));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_eq!((r.status, r.complete), (200, true), "{r:?}");
    assert!(String::from_utf8_lossy(&r.body).contains("done"), "{r:?}");
}

#[test]
fn what_is_queued_leaves_while_the_body_waits() {
    let svc = Svc::default();
    let gate = Arc::clone(&svc.gate);
    let s = start(builder(), ServiceHandler::new(svc));
    let mut c = connect(s.addr);
    c.write_all(b"GET /gated HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        .unwrap();
    // The first frame arrives while the body waits for the gate.
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    while !got.windows(5).any(|w| w == b"first") {
        let n = c
            .read(&mut buf)
            .expect("the first frame, before the gate opens");
        assert!(n > 0, "closed before the first frame");
        got.extend_from_slice(&buf[..n]);
    }
    gate.notify_one();
    got.extend(read_all(&mut c));
    let r = parse(&got);
    assert!(r.complete);
    assert_eq!(r.body, b"firstsecond");
}

#[test]
fn the_upgrade_handle_gets_the_stream_with_the_bytes_after_the_head() {
    let s = start(builder(), ServiceHandler::new(Svc::default()));
    let mut c = connect(s.addr);
    c.write_all(
        b"GET /upgrade HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\nConnection: upgrade\r\n\r\nearly ",
    )
    .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    while !got.ends_with(b"early ") {
        let n = c.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {:?}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
    }
    assert!(
        got.starts_with(b"HTTP/1.1 101 Switching Protocols\r\n"),
        "{got:?}"
    );
    c.write_all(b"ping").unwrap();
    let mut four = [0u8; 4];
    c.read_exact(&mut four).unwrap();
    assert_eq!(&four, b"ping");
    c.shutdown(std::net::Shutdown::Write).unwrap();
    assert!(read_all(&mut c).is_empty());
    // Without `Upgrade`, no handle.
    let r = parse(&exchange(
        s.addr,
        b"GET /upgrade HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ));
    assert_eq!(r.status, 426);
}

#[test]
fn a_body_returned_with_a_101_is_dropped_before_the_tunnel_runs() {
    let svc = Svc::default();
    let dropped = Arc::clone(&svc.dropped);
    let s = start(builder(), ServiceHandler::new(svc));
    let mut c = connect(s.addr);
    c.write_all(
        b"GET /upgrade-endless-body HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\nConnection: upgrade\r\n\r\n",
    )
    .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    while !got.ends_with(b"\r\n\r\n") {
        let n = c.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {:?}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
    }
    assert!(got.starts_with(b"HTTP/1.1 101 "), "{got:?}");
    // The tunnel runs (an echo through it) and the body is already gone.
    c.write_all(b"ping").unwrap();
    let mut four = [0u8; 4];
    c.read_exact(&mut four).unwrap();
    assert_eq!(&four, b"ping");
    assert!(
        dropped.load(Ordering::SeqCst),
        "the 101's body is still held"
    );
    c.shutdown(std::net::Shutdown::Write).unwrap();
    assert!(read_all(&mut c).is_empty());
}

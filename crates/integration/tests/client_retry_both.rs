//! Both clients follow conn's one retry and reuse rule
//! (`ClientConn::retry`, `ClientConn::reusable`, RFC 9110 §9.2.2): a
//! request that fails on a reused connection closed before any response
//! byte is sent again, once, on a new connection when it is idempotent,
//! and is the caller's error when it is not; a stray `408` after a
//! response never fails the next request, whatever its method. The async
//! client used to fail a `POST` on such a connection (its rule retried
//! idempotent requests only, even when nothing had been sent).

mod support;

use std::io::Write;
use std::net::{SocketAddr, TcpListener};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use support::std_io::read_request;

/// What each scripted connection does after reading a request: answer it
/// (and keep reading), answer it with a stray `408` after the response, or
/// close without answering.
#[derive(Clone, Copy)]
enum Then {
    Answer(&'static str),
    AnswerAnd408(&'static str),
    Close,
}

/// An origin that runs one script per accepted connection, one step per
/// request read; returns the request lines it saw, per connection.
fn origin(scripts: Vec<Vec<Then>>) -> (SocketAddr, JoinHandle<Vec<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let t = thread::spawn(move || {
        let mut seen = Vec::new();
        let mut held = Vec::new();
        for script in scripts {
            let Ok((mut s, _)) = l.accept() else { break };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut lines = Vec::new();
            let mut closed = false;
            for step in script {
                let Some(req) = read_request(&mut s) else {
                    break;
                };
                let line = String::from_utf8_lossy(&req);
                lines.push(line.lines().next().unwrap_or("").to_string());
                match step {
                    Then::Answer(body) => {
                        let r = format!(
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
                            body.len()
                        );
                        s.write_all(r.as_bytes()).unwrap();
                    }
                    Then::AnswerAnd408(body) => {
                        let r = format!(
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
                            body.len()
                        );
                        s.write_all(r.as_bytes()).unwrap();
                    }
                    Then::Close => {
                        closed = true;
                        break;
                    }
                }
            }
            seen.push(lines);
            // A connection that answered stays open until the origin ends
            // (a stray `408` does not close it); one told to close closes.
            if !closed {
                held.push(s);
            }
        }
        seen
    });
    (addr, t)
}

/// The requests each test sends, through either client: the status and
/// body of each, or the error's name.
trait Both {
    fn send(&self, addr: SocketAddr, method: &str, path: &str) -> Result<String, String>;
}

struct Std(http_net_std::Client);
struct Tokio(http_net_tokio::Client, tokio::runtime::Runtime);

impl Both for Std {
    fn send(&self, addr: SocketAddr, method: &str, path: &str) -> Result<String, String> {
        let url = format!("http://{addr}{path}");
        let body: &[u8] = if method == "POST" { b"data" } else { b"" };
        match self.0.request(method.as_bytes(), &url, &[], body) {
            Ok(mut r) => Ok(String::from_utf8_lossy(&r.body_to_vec(100).unwrap()).into_owned()),
            Err(http_net_std::Error::ConnectionClosed) => Err("ConnectionClosed".into()),
            Err(e) => Err(format!("{e:?}")),
        }
    }
}

impl Both for Tokio {
    fn send(&self, addr: SocketAddr, method: &str, path: &str) -> Result<String, String> {
        let body: &[u8] = if method == "POST" { b"data" } else { b"" };
        self.1.block_on(async {
            let host = addr.ip().to_string();
            let r = self
                .0
                .send_to(
                    &host,
                    addr.port(),
                    method.as_bytes(),
                    path.as_bytes(),
                    &[],
                    body,
                )
                .await;
            match r {
                Ok(mut r) => {
                    Ok(String::from_utf8_lossy(&r.body_to_vec(100).await.unwrap()).into_owned())
                }
                Err(http_net_tokio::Error::ConnectionClosed) => Err("ConnectionClosed".into()),
                Err(e) => Err(format!("{e:?}")),
            }
        })
    }
}

fn clients() -> Vec<(&'static str, Box<dyn Both>)> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    vec![
        ("std", Box::new(Std(http_net_std::Client::new()))),
        ("tokio", Box::new(Tokio(http_net_tokio::Client::new(), rt))),
    ]
}

#[test]
fn an_idempotent_request_on_a_connection_closed_under_it_is_sent_again_once() {
    for (name, client) in clients() {
        let (addr, t) = origin(vec![
            vec![Then::Answer("one"), Then::Close],
            vec![Then::Answer("two")],
        ]);
        assert_eq!(client.send(addr, "GET", "/a"), Ok("one".into()), "{name}");
        assert_eq!(client.send(addr, "GET", "/b"), Ok("two".into()), "{name}");
        let seen = t.join().unwrap();
        assert_eq!(
            seen,
            [
                vec!["GET /a HTTP/1.1", "GET /b HTTP/1.1"],
                vec!["GET /b HTTP/1.1"]
            ],
            "{name}"
        );
    }
}

#[test]
fn a_post_on_a_connection_closed_under_it_is_the_callers_error() {
    for (name, client) in clients() {
        // One connection only: a retry would find nobody listening.
        let (addr, t) = origin(vec![vec![Then::Answer("one"), Then::Close]]);
        assert_eq!(client.send(addr, "GET", "/a"), Ok("one".into()), "{name}");
        assert_eq!(
            client.send(addr, "POST", "/b"),
            Err("ConnectionClosed".into()),
            "{name}"
        );
        let seen = t.join().unwrap();
        assert_eq!(
            seen,
            [vec!["GET /a HTTP/1.1", "POST /b HTTP/1.1"]],
            "{name}"
        );
    }
}

#[test]
fn a_stray_408_after_a_response_fails_no_request() {
    for (name, client) in clients() {
        let (addr, t) = origin(vec![
            vec![Then::AnswerAnd408("one")],
            vec![Then::AnswerAnd408("two")],
            vec![Then::AnswerAnd408("three")],
        ]);
        assert_eq!(client.send(addr, "GET", "/a"), Ok("one".into()), "{name}");
        assert_eq!(client.send(addr, "POST", "/b"), Ok("two".into()), "{name}");
        assert_eq!(
            client.send(addr, "POST", "/c"),
            Ok("three".into()),
            "{name}"
        );
        let seen = t.join().unwrap();
        assert_eq!(
            seen,
            [
                vec!["GET /a HTTP/1.1"],
                vec!["POST /b HTTP/1.1"],
                vec!["POST /c HTTP/1.1"]
            ],
            "{name}: each request sent once, each on a new connection"
        );
    }
}

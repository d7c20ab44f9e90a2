//! The server's after-handler surface, as the std server's: handlers that
//! return any error, the application's mistakes reported (through a hook,
//! silenced, or on stderr by default), `max_body_bytes` with the
//! error-body hook's `413`, the error body of the `503` beyond the
//! connection limit, and the access log.

mod common;

use http_net_tokio::ServerOptions;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{ask, connect, read_response, roundtrip, start};
use http_net_tokio::http_net_conn::{BodyLength, LocalError};
use http_net_tokio::{
    AccessRecord, ErrorBody, ErrorCause, ErrorResponse, Exchange, Handler, HandlerError, Limit,
    Mistake, Server, ServerBuilder,
};

/// One route per mistake (and some that are none).
struct Mistakes;

impl Handler for Mistakes {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        match ex.path() {
            // A field name with a space: the connection refuses the answer.
            b"/bad-field" => ex.respond_with(200, &[(b"Bad Name", b"x")], b"").await?,
            b"/none" => {}
            b"/unfinished" => {
                ex.send_head(200, &[], BodyLength::Known(10))?;
                ex.send_data(b"abc").await?;
            }
            b"/panic" => panic!("on purpose"),
            // The handler's own error: `?` on a `ParseIntError`.
            b"/parse" => {
                let n: u32 = "x".parse()?;
                ex.respond_with(200, &[], n.to_string().as_bytes()).await?;
            }
            b"/body" => {
                let mut buf = [0u8; 64];
                let mut n = 0;
                while ex.read_body(&mut buf).await? > 0 {
                    n += 1;
                }
                ex.respond_with(200, &[], format!("{n} reads").as_bytes())
                    .await?;
            }
            b"/hold" => {
                tokio::time::sleep(Duration::from_millis(1500)).await;
                ex.respond_with(200, &[], b"held").await?;
            }
            _ => ex.respond_with(200, &[], b"fine").await?,
        }
        Ok(())
    }
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: a\r\n\r\n").into_bytes()
}

/// A builder whose mistake hook records what it is given.
fn recording() -> (ServerBuilder, Arc<Mutex<Vec<Mistake>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let b = Server::builder().mistake_log(move |m| log.lock().unwrap().push(*m));
    (b, seen)
}

#[test]
fn a_refused_field_name_reaches_the_mistake_hook() {
    let (b, seen) = recording();
    let server = start(b, Mistakes, false);
    let r = roundtrip(server.addr, &get("/bad-field")).unwrap();
    assert_eq!(r.status, 500, "nothing of the refused answer was sent");
    server.stop();
    assert_eq!(
        *seen.lock().unwrap(),
        [Mistake::Refused(LocalError::InvalidFieldName)]
    );
}

#[test]
fn each_kind_of_mistake_is_reported_and_the_peers_doing_and_a_whole_answer_are_not() {
    let (b, seen) = recording();
    let server = start(b, Mistakes, false);
    for path in ["/none", "/unfinished", "/panic", "/", "/body"] {
        let mut s = connect(server.addr);
        // `/body` with a malformed chunk: the peer's fault.
        let req = if path == "/body" {
            b"POST /body HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec()
        } else {
            get(path)
        };
        std::io::Write::write_all(&mut s, &req).unwrap();
        let _ = read_response(&mut s, &mut Vec::new(), false);
    }
    server.stop();
    assert_eq!(
        *seen.lock().unwrap(),
        [Mistake::Unanswered, Mistake::Unfinished, Mistake::Panicked],
        "a whole answer and a malformed body are no mistakes"
    );
}

#[test]
fn the_handlers_own_error_without_an_answer_is_unanswered() {
    let (b, seen) = recording();
    let server = start(b, Mistakes, false);
    assert_eq!(roundtrip(server.addr, &get("/parse")).unwrap().status, 500);
    server.stop();
    assert_eq!(*seen.lock().unwrap(), [Mistake::Unanswered]);
}

#[test]
fn report_mistakes_false_reports_nothing() {
    let (b, seen) = recording();
    let server = start(b.report_mistakes(false), Mistakes, false);
    for path in ["/bad-field", "/none", "/panic"] {
        assert_eq!(roundtrip(server.addr, &get(path)).unwrap().status, 500);
    }
    server.stop();
    assert!(seen.lock().unwrap().is_empty());
}

/// The child's side of `the_default_report_is_one_line_on_stderr_once_a_second`:
/// a server with the default reporting, three requests that make the same
/// mistake and one that makes another.
#[test]
fn child_serves_mistakes_with_the_default_report() {
    if std::env::var_os("HTTP_NET_MISTAKES_CHILD").is_none() {
        return;
    }
    let server = start(Server::builder(), Mistakes, false);
    for path in ["/bad-field", "/bad-field?again", "/bad-field", "/none"] {
        assert_eq!(roundtrip(server.addr, &get(path)).unwrap().status, 500);
    }
    server.stop();
}

#[test]
fn the_default_report_is_one_line_on_stderr_once_a_second() {
    // This test binary again, running only the child's test.
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_serves_mistakes_with_the_default_report",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("HTTP_NET_MISTAKES_CHILD", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("http-net: "))
        .collect();
    assert_eq!(
        lines,
        [
            "http-net: the connection refused the handler's command: \
             a field name is not a token (RFC 9110 §5.1) (GET /bad-field)",
            "http-net: the handler returned without answering (sent 500) (GET /none)",
        ],
        "one line per kind within the second: {stderr}"
    );
}

/// A builder whose error-body hook answers JSON naming the cause, and
/// records the causes.
fn json_errors(b: ServerBuilder) -> (ServerBuilder, Arc<Mutex<Vec<String>>>) {
    let causes = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&causes);
    let b = b.error_body(move |r: &ErrorResponse<'_>| {
        let cause = match r.cause() {
            ErrorCause::OverLimit(Limit::BodyBudget(n)) => format!("over-limit {n}"),
            ErrorCause::Peer(_) => "peer".to_string(),
            ErrorCause::Busy => "busy".to_string(),
            ErrorCause::Handler(e) => format!("handler: {e}"),
            ErrorCause::NoAnswer => "no answer".to_string(),
            other => format!("{other:?}"),
        };
        log.lock().unwrap().push(cause.clone());
        Some(ErrorBody {
            content_type: b"application/json".to_vec(),
            body: format!(r#"{{"status":{},"cause":"{cause}"}}"#, r.status()).into_bytes(),
        })
    });
    (b, causes)
}

#[test]
fn max_body_bytes_answers_413_with_the_error_body_hooks_json() {
    let (b, causes) = json_errors(Server::builder().max_body_bytes(10));
    let server = start(b, Mistakes, false);
    // A chunked body passes the limit as the handler reads it.
    let req = b"POST /body HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
                8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n";
    let r = roundtrip(server.addr, req).unwrap();
    assert_eq!(r.status, 413);
    assert_eq!(r.field("content-type"), Some("application/json"));
    assert_eq!(r.body, br#"{"status":413,"cause":"over-limit 10"}"#);
    // A declared length over it: refused before the handler runs, with the
    // same cause.
    let req = b"POST /body HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n01234567890";
    let r = roundtrip(server.addr, req).unwrap();
    assert_eq!(r.status, 413);
    assert_eq!(r.body, br#"{"status":413,"cause":"over-limit 10"}"#);
    // Within it: answered.
    let req = b"POST /body HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789";
    assert_eq!(roundtrip(server.addr, req).unwrap().status, 200);
    // The handler's own error without an answer: its 500, the hook sees it.
    let r = roundtrip(server.addr, &get("/parse")).unwrap();
    assert_eq!(r.status, 500);
    assert_eq!(
        r.body,
        br#"{"status":500,"cause":"handler: invalid digit found in string"}"#
    );
    server.stop();
    assert_eq!(causes.lock().unwrap().len(), 3);
}

#[test]
fn max_body_bytes_zero_is_no_limit() {
    let server = start(Server::builder().max_body_bytes(0), Mistakes, false);
    let body = vec![b'x'; 9 << 20]; // over the 8 MiB default
    let mut req = format!(
        "POST /body HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(&body);
    let mut s = connect(server.addr);
    let writer = {
        let mut s = s.try_clone().unwrap();
        std::thread::spawn(move || std::io::Write::write_all(&mut s, &req))
    };
    let r = read_response(&mut s, &mut Vec::new(), false).unwrap();
    writer.join().unwrap().unwrap();
    assert_eq!(r.status, 200);
    server.stop();
}

#[test]
fn the_503_beyond_the_connection_limit_takes_the_error_body() {
    let (b, causes) = json_errors(Server::builder().max_connections(1));
    let server = start(b, Mistakes, false);
    // The one slot: a handler at work, which is never evicted.
    let mut held = connect(server.addr);
    std::io::Write::write_all(&mut held, &get("/hold")).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let r = roundtrip(server.addr, &get("/")).unwrap();
    assert_eq!(r.status, 503);
    assert_eq!(r.field("retry-after"), Some("1"));
    assert_eq!(r.body, br#"{"status":503,"cause":"busy"}"#);
    assert_eq!(ask(&mut held, b"").status, 200);
    server.stop();
    assert_eq!(*causes.lock().unwrap(), ["busy"]);
}

/// What the access log kept of one record.
#[derive(Debug, PartialEq)]
struct Logged {
    method: String,
    target: String,
    status: Option<u16>,
    error: Option<String>,
    panicked: bool,
    bytes: u64,
}

#[test]
fn the_access_log_sees_each_requests_status_bytes_and_error() {
    let records = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&records);
    let b = Server::builder()
        .report_mistakes(false)
        .access_log(move |r: &AccessRecord<'_>| {
            assert!(r.duration() < Duration::from_secs(5));
            log.lock().unwrap().push(Logged {
                method: r.method().to_string(),
                target: String::from_utf8_lossy(r.target()).into_owned(),
                status: r.status(),
                error: r.error().map(|e| e.to_string()),
                panicked: r.panicked(),
                bytes: r.bytes(),
            });
        });
    let server = start(b, Mistakes, false);
    // Two on one connection (pipelined), then the handler's error.
    let mut s = connect(server.addr);
    let two = [get("/a"), get("/b")].concat();
    std::io::Write::write_all(&mut s, &two).unwrap();
    let mut rest = Vec::new();
    let first = read_response(&mut s, &mut rest, false).unwrap();
    let second = read_response(&mut s, &mut rest, false).unwrap();
    assert_eq!((first.status, second.status), (200, 200));
    assert_eq!(roundtrip(server.addr, &get("/parse")).unwrap().status, 500);
    assert_eq!(roundtrip(server.addr, &get("/panic")).unwrap().status, 500);
    // A malformed head: recorded with no method or target.
    assert_eq!(
        roundtrip(server.addr, b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n")
            .unwrap()
            .status,
        400
    );
    server.stop();
    let records = records.lock().unwrap();
    let summary: Vec<_> = records
        .iter()
        .map(|r| {
            (
                r.method.as_str(),
                r.target.as_str(),
                r.status,
                r.error.as_deref(),
                r.panicked,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("GET", "/a", Some(200), None, false),
            ("GET", "/b", Some(200), None, false),
            (
                "GET",
                "/parse",
                Some(500),
                Some("invalid digit found in string"),
                false
            ),
            ("GET", "/panic", Some(500), None, true),
            ("", "", Some(400), None, false),
        ]
    );
    for r in records.iter() {
        assert!(r.bytes > 30, "a status line and more were written: {r:?}");
    }
}

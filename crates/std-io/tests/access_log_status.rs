//! The access log's status is the connection's (`ServerConn::response_status`):
//! an answer given through `Exchange::conn()` is logged with its status,
//! as the shortcuts' answers and the server's own error responses are
//! (a `413` for a body over the handler's `limit_body` included).

use http_net_std::ServerOptions;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use http_net_std::http_net_conn::PreparedResponse;
use http_net_std::{AccessRecord, Exchange, Server, ServerBuilder};

mod support;
use support::{exchange, serve, stop};

/// A builder whose access log records `what` of each record.
fn logging<T: Send + 'static>(
    what: impl Fn(&AccessRecord<'_>) -> T + Send + Sync + 'static,
) -> (ServerBuilder, Arc<Mutex<Vec<T>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&log);
    let builder = Server::builder().access_log(move |r| kept.lock().unwrap().push(what(r)));
    (builder, log)
}

#[test]
fn an_answer_through_conn_is_logged_with_its_status() {
    let (builder, log) =
        logging(|r| (String::from_utf8_lossy(r.target()).into_owned(), r.status()));
    let teapot = PreparedResponse::new(418, &[]).unwrap();
    let big = vec![b'x'; 64 * 1024];
    let s = serve(builder, move |ex: &mut Exchange<'_>| match ex.path() {
        b"/small" => {
            let placement = ex.conn().responder().respond(&teapot, b"hi")?;
            ex.send_placed(placement, b"hi")
        }
        b"/big" => {
            let placement = ex.conn().responder().respond_with(203, &[], &big)?;
            ex.send_placed(placement, &big)
        }
        b"/none" => Ok(()),
        // Over a limit the handler set: the connection's 413.
        b"/limited" => ex.limit_body(4),
        _ => ex.respond_with(404, &[], b""),
    });
    let resp = exchange(
        &s.0,
        b"GET /small HTTP/1.1\r\nHost: a\r\n\r\nGET /big HTTP/1.1\r\nHost: a\r\n\r\nGET /other HTTP/1.1\r\nHost: a\r\n\r\nGET /none HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    assert!(resp.starts_with("HTTP/1.1 418 "), "{resp}");
    assert!(resp.contains("HTTP/1.1 203 "), "{resp}");
    assert!(resp.contains("HTTP/1.1 404 "), "{resp}");
    assert!(resp.contains("HTTP/1.1 500 "), "{resp}");
    let resp = exchange(
        &s.0,
        b"POST /limited HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
    );
    assert!(resp.starts_with("HTTP/1.1 413 "), "{resp}");
    // A record is written once its connection has lingered to the end,
    // which may be after the client read the response; and two connections'
    // records may come in either order.
    let deadline = Instant::now() + Duration::from_secs(5);
    while log.lock().unwrap().len() < 5 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(10));
    }
    let mut log = log.lock().unwrap().clone();
    log.sort();
    let mut want = [
        ("/small".to_string(), Some(418)),
        ("/big".to_string(), Some(203)),
        ("/other".to_string(), Some(404)),
        // No answer: the server's own 500.
        ("/none".to_string(), Some(500)),
        ("/limited".to_string(), Some(413)),
    ];
    want.sort();
    assert_eq!(log, want);
    stop(s);
}

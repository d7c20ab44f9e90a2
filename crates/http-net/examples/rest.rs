//! A small JSON API: `rest [--addr ADDR]`, an in-memory list of notes.
//!
//! - `GET /notes?prefix=P&limit=N`: the notes whose text starts with `P`
//!   (query values percent- and `+`-decoded), at most `N`;
//! - `POST /notes` (body: the text, at most 1 KiB): `201` and the new id;
//! - `GET /notes/{id}`, `DELETE /notes/{id}`: one note (`404` if none).
//!
//! Every error is JSON, the server's own ones too (`400`, `413`, `500`...:
//! the `error_body` hook): the handler raises its errors with `?`, each
//! choosing its status where it is raised (`HandlerError::bad_request`,
//! `.with_status(400)`, `HandlerError::not_found`), and the hook formats
//! them in one place. A path id, a `limit` that is not a number, or a body
//! that is not UTF-8 is `400`. The body limit is 64 KiB for the server and
//! 1 KiB for a note. Each request is logged to stderr (`access_log`).
//! Prints `listening on http://ADDR`.

use http_net::conn::ServerOptions;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::sync::Mutex;

use http_net::blocking::Exchange;
use http_net::blocking::Server;
use http_net::conn::form_decode;
use http_net::conn::{
    AccessRecord, ErrorBody, ErrorCause, ErrorResponse, HandlerError, WithStatus,
};
use http_net::head::Method;

const JSON: (&[u8], &[u8]) = (b"Content-Type", b"application/json");

/// The API's own errors, each raised with the status it stands for.
#[derive(Debug)]
struct ApiError(&'static str);

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for ApiError {}

/// A JSON string of `text` (quotes, backslashes and controls escaped).
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The body of every error response: the server's own, and the answers
/// the handler's errors choose. A `4xx` error's text is the client's to
/// read; a `5xx` says only what failed (its text stays in the log).
fn error_body(e: &ErrorResponse<'_>) -> Option<ErrorBody> {
    let message = match e.cause() {
        ErrorCause::Handler(err) if e.status() < 500 => err.to_string(),
        cause => format!("{cause:?}"),
    };
    let body = format!(
        "{{\"error\":{},\"message\":{}}}",
        e.status(),
        quoted(&message)
    );
    let content_type = b"application/json".to_vec();
    Some(ErrorBody {
        content_type,
        body: body.into_bytes(),
    })
}

/// One line per request: method, target, status, bytes, time, error.
fn log(r: &AccessRecord<'_>) {
    let (target, error) = (String::from_utf8_lossy(r.target()), r.error());
    let line = format!("{} {target} {:?} {}B", r.method(), r.status(), r.bytes());
    eprintln!("{line} {:?} {error:?}", r.duration());
}

struct Notes {
    next: u64,
    all: BTreeMap<u64, String>,
}

fn handle(store: &Mutex<Notes>, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
    let Some(head) = ex.request_head() else {
        return Ok(());
    };
    let segments: Vec<&[u8]> = head.path().split(|&b| b == b'/').skip(1).collect();
    let id = match segments.get(1) {
        Some(s) => Some(
            std::str::from_utf8(s)
                .with_status(400)?
                .parse()
                .with_status(400)?,
        ),
        None => None,
    };
    let no_such_note = || HandlerError::not_found(ApiError("no such note"));
    let lock = || store.lock().unwrap_or_else(|p| p.into_inner());
    let (status, body) = match (ex.method(), &segments[..], id) {
        (Method::Get, [b"notes"], _) => {
            let (mut prefix, mut limit) = (String::new(), usize::MAX);
            for (key, value) in head.query_pairs() {
                let value = form_decode(value).map_err(HandlerError::bad_request)?;
                let value = String::from_utf8_lossy(&value);
                match key {
                    b"prefix" => prefix = value.into_owned(),
                    b"limit" => limit = value.parse().with_status(400)?,
                    _ => {}
                }
            }
            let items: Vec<String> = (lock().all.iter())
                .filter(|(_, text)| text.starts_with(&prefix))
                .take(limit)
                .map(|(id, text)| format!("{{\"id\":{id},\"text\":{}}}", quoted(text)))
                .collect();
            (200, format!("[{}]", items.join(",")).into_bytes())
        }
        (Method::Post, [b"notes"], _) => {
            ex.limit_body(1024)?; // over it: the hook's JSON 413
            let mut bytes = Vec::new();
            ex.body().read_to_end(&mut bytes)?;
            let text = String::from_utf8(bytes).map_err(HandlerError::bad_request)?;
            let mut notes = lock();
            let id = notes.next;
            notes.next += 1;
            notes.all.insert(id, text);
            (201, format!("{{\"id\":{id}}}").into_bytes())
        }
        (Method::Get, [b"notes", _], Some(id)) => {
            let notes = lock();
            let text = notes.all.get(&id).ok_or_else(no_such_note)?;
            (
                200,
                format!("{{\"id\":{id},\"text\":{}}}", quoted(text)).into_bytes(),
            )
        }
        (Method::Delete, [b"notes", _], Some(id)) => {
            lock().all.remove(&id).ok_or_else(no_such_note)?;
            (204, Vec::new())
        }
        (_, [b"notes"], _) => {
            let e = HandlerError::new(ApiError("method not allowed")).with_status(405);
            return Err(e.with_field("Allow", "GET, POST"));
        }
        (_, [b"notes", _], _) => {
            let e = HandlerError::new(ApiError("method not allowed")).with_status(405);
            return Err(e.with_field("Allow", "GET, DELETE"));
        }
        _ => return Err(HandlerError::not_found(ApiError("no such route"))),
    };
    Ok(ex.respond_with(status, &[JSON], &body)?)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let addr = match (args.next().as_deref(), args.next()) {
        (Some("--addr"), Some(a)) => a,
        (None, _) => "127.0.0.1:8080".into(),
        _ => {
            eprintln!("usage: rest [--addr ADDR]");
            std::process::exit(2);
        }
    };
    let server = Server::builder()
        .max_body_bytes(64 * 1024)
        .error_body(error_body)
        .access_log(log)
        .bind(&addr)
        .unwrap_or_else(|e| {
            eprintln!("rest: cannot listen on {addr}: {e}");
            std::process::exit(2)
        });
    println!("listening on http://{}", server.local_addr().unwrap());
    let _ = std::io::stdout().flush();
    let notes = Mutex::new(Notes {
        next: 1,
        all: BTreeMap::new(),
    });
    if let Err(e) = server.serve(move |ex: &mut Exchange<'_>| handle(&notes, ex)) {
        eprintln!("rest: {e}");
        std::process::exit(1);
    }
}

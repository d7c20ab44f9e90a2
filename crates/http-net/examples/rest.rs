//! A small JSON API: `rest [--addr ADDR]`, an in-memory list of notes.
//!
//! - `GET /notes?prefix=P&limit=N`: the notes whose text starts with `P`
//!   (query values percent- and `+`-decoded), at most `N`;
//! - `POST /notes` (body: the text, at most 1 KiB): `201` and the new id;
//! - `GET /notes/{id}`, `DELETE /notes/{id}`: one note (`404` if none).
//!
//! Every error is JSON, the server's own ones too (`400`, `413`, `500`...:
//! the `error_body` hook); the body limit is 64 KiB for the server and
//! 1 KiB for a note. Each request is logged to stderr (`access_log`).
//! Prints `listening on http://ADDR`.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::sync::Mutex;

use http_net::blocking::Server;
use http_net::blocking::{Error, Exchange};
use http_net::conn::form_decode;
use http_net::conn::{AccessRecord, ErrorBody, ErrorResponse};
use http_net::head::Method;

const JSON: (&[u8], &[u8]) = (b"Content-Type", b"application/json");

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

fn error_json(status: u16, message: &str) -> Vec<u8> {
    format!("{{\"error\":{status},\"message\":{}}}", quoted(message)).into_bytes()
}

/// The body of the server's own error responses.
fn error_body(e: &ErrorResponse<'_>) -> Option<ErrorBody> {
    let body = error_json(e.status(), &format!("{:?}", e.cause()));
    let content_type = b"application/json".to_vec();
    Some(ErrorBody { content_type, body })
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

fn handle(store: &Mutex<Notes>, ex: &mut Exchange<'_>) -> Result<(), Error> {
    let Some(head) = ex.request_head() else {
        return Ok(());
    };
    let segments: Vec<&[u8]> = head.path().split(|&b| b == b'/').skip(1).collect();
    let id = segments
        .get(1)
        .and_then(|s| std::str::from_utf8(s).ok()?.parse::<u64>().ok());
    let lock = || store.lock().unwrap_or_else(|p| p.into_inner());
    let mut notes = lock();
    let (status, body) = match (ex.method(), &segments[..], id) {
        (Method::Get, [b"notes"], _) => {
            let (mut prefix, mut limit) = (String::new(), usize::MAX);
            for (key, value) in head.query_pairs() {
                let Ok(value) = form_decode(value) else {
                    return ex.respond_with(400, &[JSON], &error_json(400, "bad escape"));
                };
                let value = String::from_utf8_lossy(&value);
                match key {
                    b"prefix" => prefix = value.into_owned(),
                    b"limit" => limit = value.parse().unwrap_or(usize::MAX),
                    _ => {}
                }
            }
            let items: Vec<String> = (notes.all.iter())
                .filter(|(_, text)| text.starts_with(&prefix))
                .take(limit)
                .map(|(id, text)| format!("{{\"id\":{id},\"text\":{}}}", quoted(text)))
                .collect();
            (200, format!("[{}]", items.join(",")).into_bytes())
        }
        (Method::Post, [b"notes"], _) => {
            drop(notes); // not held while the body arrives
            ex.limit_body(1024)?; // over it: the hook's JSON 413
            let mut text = String::new();
            if ex.body().read_to_string(&mut text).is_err() {
                return ex.respond_with(400, &[JSON], &error_json(400, "not UTF-8"));
            }
            let mut notes = lock();
            let id = notes.next;
            notes.next += 1;
            notes.all.insert(id, text);
            (201, format!("{{\"id\":{id}}}").into_bytes())
        }
        (Method::Get, [b"notes", _], Some(id)) => match notes.all.get(&id) {
            Some(text) => (
                200,
                format!("{{\"id\":{id},\"text\":{}}}", quoted(text)).into_bytes(),
            ),
            None => (404, error_json(404, "no such note")),
        },
        (Method::Delete, [b"notes", _], Some(id)) => match notes.all.remove(&id) {
            Some(_) => (204, Vec::new()),
            None => (404, error_json(404, "no such note")),
        },
        (_, [b"notes"] | [b"notes", _], _) => (405, error_json(405, "method not allowed")),
        _ => (404, error_json(404, "no such route")),
    };
    ex.respond_with(status, &[JSON], &body)
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

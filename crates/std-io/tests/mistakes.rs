//! The application's mistakes, reported: a command the connection refused
//! (a field name with a space), no answer, an answer cut short, a panic.
//! On stderr by default (checked in a child process: this test binary run
//! again on its one ignored test), through `mistake_log` when set, never
//! with `report_mistakes(false)`, and at most once a second per kind.

use http_net_std::ServerOptions;
use std::io::Read;
use std::process::Command;
use std::sync::{Arc, Mutex};

use http_net_std::http_net_conn::{BodyLength, LocalError, Mistake};
use http_net_std::{Error, Exchange, Server, ServerBuilder};

mod support;
use support::{exchange, serve, stop};

/// Set in the child's environment: how its server reports.
const CHILD: &str = "HTTP_NET_STD_MISTAKES_CHILD";

/// The request every test sends.
const BAD: &[u8] = b"GET /bad?x=1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";

/// Answers each path with a mistake of its own kind, or none.
fn mistaken(ex: &mut Exchange<'_>) -> Result<(), Error> {
    match ex.path() {
        // A field name that is not a token: refused, and returned.
        b"/bad" => ex.respond_with(200, &[(b"Bad Name", b"x")], b"no"),
        // Refused, then answered properly: the handler dealt with it.
        b"/swallowed" => {
            let refused = ex.respond_with(200, &[(b"Bad Name", b"x")], b"no");
            assert!(refused.is_err());
            ex.respond_with(200, &[], b"fine")
        }
        b"/unanswered" => Ok(()),
        b"/unfinished" => ex.send_head(200, &[], BodyLength::Known(10)),
        b"/panic" => panic!("a handler bug"),
        // Reads a body over the limit: the peer's fault (413), no mistake.
        b"/upload" => {
            let mut body = Vec::new();
            ex.body().read_to_end(&mut body)?;
            ex.respond_with(200, &[], b"read")
        }
        _ => ex.respond_with(404, &[], b""),
    }
}

/// A builder whose mistakes go to the returned list.
fn logged(b: ServerBuilder) -> (ServerBuilder, Arc<Mutex<Vec<Mistake>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&seen);
    (b.mistake_log(move |m| kept.lock().unwrap().push(*m)), seen)
}

/// What `seen` holds once the server stopped.
fn taken(seen: &Arc<Mutex<Vec<Mistake>>>) -> Vec<Mistake> {
    std::mem::take(&mut *seen.lock().unwrap())
}

/// The child's server: one request to `/bad`, answered `500`. Run by
/// [`a_refused_field_is_reported_on_stderr_by_default`] in a process of
/// its own, whose stderr it reads.
#[test]
#[ignore = "run as a child process by the stderr tests"]
fn child_serves_one_refused_field() {
    let silent = std::env::var(CHILD).is_ok_and(|v| v == "silent");
    let s = serve(Server::builder().report_mistakes(!silent), mistaken);
    let resp = exchange(&s.0, BAD);
    assert!(resp.starts_with("HTTP/1.1 500 "), "{resp}");
    stop(s);
}

/// Runs [`child_serves_one_refused_field`] in a child process with
/// `CHILD=mode`; its stderr.
fn child_stderr(mode: &str) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "child_serves_one_refused_field",
            "--nocapture",
        ])
        .env(CHILD, mode)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("1 passed"),
        "the child ran its test: {stdout}"
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_refused_field_is_reported_on_stderr_by_default() {
    let err = child_stderr("default");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("http-net:")).collect();
    let refused = LocalError::InvalidFieldName;
    assert_eq!(
        lines,
        [format!(
            "http-net: the connection refused the handler's command: {refused} (GET /bad?x=1)"
        )],
        "{err}"
    );
    // Silenced: not a line.
    let err = child_stderr("silent");
    assert!(!err.contains("http-net:"), "{err}");
}

#[test]
fn the_hook_gets_the_refusal_and_report_mistakes_false_silences_it() {
    let (builder, seen) = logged(Server::builder());
    let s = serve(builder, mistaken);
    assert!(exchange(&s.0, BAD).starts_with("HTTP/1.1 500 "));
    stop(s);
    assert_eq!(
        taken(&seen),
        [Mistake::Refused(LocalError::InvalidFieldName)]
    );

    // Off, before or after the hook is set.
    for off_first in [false, true] {
        let (builder, seen) = if off_first {
            logged(Server::builder().report_mistakes(false))
        } else {
            let (b, seen) = logged(Server::builder());
            (b.report_mistakes(false), seen)
        };
        let s = serve(builder, mistaken);
        assert!(exchange(&s.0, BAD).starts_with("HTTP/1.1 500 "));
        stop(s);
        assert_eq!(taken(&seen), []);
    }
}

#[test]
fn two_mistakes_of_a_kind_within_a_second_give_one_report() {
    let (builder, seen) = logged(Server::builder());
    let s = serve(builder, mistaken);
    for _ in 0..2 {
        assert!(exchange(&s.0, BAD).starts_with("HTTP/1.1 500 "));
    }
    // Another kind is reported all the same.
    let unanswered = b"GET /unanswered HTTP/1.1\r\nHost: a\r\n\r\n";
    assert!(exchange(&s.0, unanswered).starts_with("HTTP/1.1 500 "));
    stop(s);
    assert_eq!(
        taken(&seen),
        [
            Mistake::Refused(LocalError::InvalidFieldName),
            Mistake::Unanswered
        ]
    );
}

#[test]
fn each_kind_is_told_apart_and_the_peers_faults_are_not_mistakes() {
    let (builder, seen) = logged(Server::builder().max_body_bytes(10));
    let s = serve(builder, mistaken);
    let ask = |target: &str| {
        let req = format!("GET {target} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        exchange(&s.0, req.as_bytes())
    };
    let cases: [(&str, &str, &[Mistake]); 4] = [
        ("/swallowed", "HTTP/1.1 200 ", &[]),
        ("/unanswered", "HTTP/1.1 500 ", &[Mistake::Unanswered]),
        ("/panic", "HTTP/1.1 500 ", &[Mistake::Panicked]),
        ("/unfinished", "HTTP/1.1 200 ", &[Mistake::Unfinished]),
    ];
    for (target, status, mistakes) in cases {
        let resp = ask(target);
        assert!(resp.starts_with(status), "{target}: {resp}");
        assert_eq!(taken(&seen), mistakes, "{target}");
    }
    // A chunked body over the 10-byte limit: 413, the peer's doing.
    let upload = b"POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
        20\r\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n0\r\n\r\n";
    let resp = exchange(&s.0, upload);
    assert!(resp.starts_with("HTTP/1.1 413 "), "{resp}");
    stop(s);
    assert_eq!(taken(&seen), []);
}

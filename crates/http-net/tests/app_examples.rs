//! The `rest` and `stream` examples end to end, each as a child process on
//! 127.0.0.1 (port 0), driven with curl and raw sockets: routes with path
//! parameters and a decoded query, the JSON `413` and `400` of the
//! error-body hook, a streamed chunked response with its trailer, file
//! serving with `HEAD` and a single `Range`.

mod support;

use std::process::Command;
use std::time::Duration;

use support::*;

/// Runs curl with `args` (plus `-sS` and a time bound); its stdout.
fn curl(args: &[&str]) -> String {
    let out = succeeded(
        &format!("curl {args:?}"),
        run(
            Command::new("curl")
                .args(["-sS", "--max-time", "20"])
                .args(args),
            Duration::from_secs(30),
        ),
    );
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn the_rest_example_answers_json_with_curl() {
    let Some((_p, addr)) = start_example_for("curl", "rest", &[]) else {
        return;
    };
    let url = format!("http://{addr}/notes");
    let code = ["-w", " %{http_code} %{content_type}"];
    let post = |text: &str| curl(&[&code[..], &["--data-binary", text, &url]].concat());
    assert_eq!(post("buy milk"), "{\"id\":1} 201 application/json");
    assert_eq!(post("buy bread"), "{\"id\":2} 201 application/json");
    assert_eq!(post("call \"mum\""), "{\"id\":3} 201 application/json");
    // The query's values are decoded (`+` and `%20` are spaces).
    assert_eq!(
        curl(&[&format!("{url}?prefix=buy+m")]),
        "[{\"id\":1,\"text\":\"buy milk\"}]"
    );
    assert_eq!(
        curl(&[&format!("{url}?prefix=buy%20&limit=1")]),
        "[{\"id\":1,\"text\":\"buy milk\"}]"
    );
    assert_eq!(
        curl(&[&format!("{url}/3")]),
        "{\"id\":3,\"text\":\"call \\\"mum\\\"\"}"
    );
    assert_eq!(
        curl(&[&code[..], &["-X", "DELETE", &format!("{url}/1")]].concat()),
        " 204 application/json"
    );
    assert_eq!(
        curl(&[&code[..], &[&format!("{url}/1")]].concat()),
        "{\"error\":404,\"message\":\"no such note\"} 404 application/json"
    );
    // The handler's `?` on a parse error, with a chosen 400: the hook's
    // JSON, on a connection kept for the next request.
    for bad in [format!("{url}/xyz"), format!("{url}?limit=x")] {
        assert_eq!(
            curl(&[&code[..], &[&bad]].concat()),
            "{\"error\":400,\"message\":\"invalid digit found in string\"} 400 application/json",
            "{bad}"
        );
    }
    let dir = TempDir::new("rest-example");
    dir.file("latin1.txt", b"caf\xe9");
    let file = format!("@{}", dir.0.join("latin1.txt").display());
    assert_eq!(
        curl(&[&code[..], &["--data-binary", &file, &url]].concat()),
        "{\"error\":400,\"message\":\"incomplete utf-8 byte sequence from index 3\"} 400 application/json"
    );
    // 405 names what is allowed.
    let got = raw_answer(
        addr,
        b"PUT /notes HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
        405,
    );
    assert!(got.contains("\r\nAllow: GET, POST\r\n"), "{got}");
    // Over the handler's 1 KiB: the hook's JSON 413.
    let big = "x".repeat(2000);
    let got = post(&big);
    assert!(
        got.starts_with("{\"error\":413,") && got.ends_with(" 413 application/json"),
        "{got}"
    );
    // Over the server's 64 KiB, declared: refused before the handler.
    let head = raw_answer(
        addr,
        b"POST /notes HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n",
        413,
    );
    assert!(
        head.contains("\r\nContent-Type: application/json\r\n"),
        "{head}"
    );
    assert!(head.ends_with("}"), "{head}");
    // A malformed head gets the JSON 400 too.
    let bad = raw_answer(
        addr,
        b"GET /notes HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n",
        400,
    );
    assert!(
        bad.contains("\r\n\r\n{\"error\":400,\"message\":\"Peer("),
        "{bad}"
    );
}

#[test]
fn the_stream_example_streams_and_serves_files_with_head_and_range() {
    if !have("curl") {
        return;
    }
    let dir = TempDir::new("stream-example");
    let data = noise(300_000, 7);
    dir.file("blob.bin", &data);
    dir.file(".secret", b"hidden");
    let (_p, addr) = start_example("stream", &["--root", dir.0.to_str().unwrap()]);
    let base = format!("http://{addr}");

    let lines: String = (1..=5).map(|i| format!("line {i}\n")).collect();
    assert_eq!(curl(&[&format!("{base}/count/5")]), lines);
    let got = raw_text(
        addr,
        b"GET /count/3 HTTP/1.1\r\nHost: a\r\nTE: trailers\r\nConnection: close\r\n\r\n",
    );
    assert!(got.contains("\r\nTransfer-Encoding: chunked\r\n"), "{got}");
    assert!(
        got.ends_with("line 3\n\r\n0\r\nX-Lines: 3\r\n\r\n"),
        "{got}"
    );

    let out = dir.0.join("copy.bin");
    curl(&[
        "-o",
        out.to_str().unwrap(),
        &format!("{base}/files/blob.bin"),
    ]);
    assert_eq!(std::fs::read(&out).unwrap(), data);
    // HEAD: the whole head, no body.
    let got = raw_text(
        addr,
        b"HEAD /files/blob%2Ebin HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    );
    assert!(got.starts_with("HTTP/1.1 200 OK\r\n"), "{got}");
    assert!(got.contains("\r\nContent-Length: 300000\r\n"), "{got}");
    assert!(got.ends_with("\r\n\r\n"), "{got}");
    let head = curl(&["-I", &format!("{base}/files/blob.bin")]);
    assert!(head.contains("Content-Length: 300000\r\n"), "{head}");
    // A single range; a suffix; one past the end.
    let part = curl(&[
        "-r",
        "1000-1009",
        "-o",
        "-",
        &format!("{base}/files/blob.bin"),
    ]);
    assert_eq!(
        part.as_bytes(),
        String::from_utf8_lossy(&data[1000..1010]).as_bytes()
    );
    let got = raw(
        addr,
        b"GET /files/blob.bin HTTP/1.1\r\nHost: a\r\nRange: bytes=-4\r\nConnection: close\r\n\r\n",
    );
    assert!(got.starts_with(b"HTTP/1.1 206 Partial Content\r\n"));
    assert!(
        String::from_utf8_lossy(&got).contains("\r\nContent-Range: bytes 299996-299999/300000\r\n")
    );
    assert!(got.ends_with(&data[299_996..]));
    let code = ["-o", "/dev/null", "-w", "%{http_code}"];
    let url = format!("{base}/files/blob.bin");
    assert_eq!(curl(&[&code[..], &["-r", "300000-", &url]].concat()), "416");
    // Nothing outside the root, no hidden files.
    for name in ["..%2Fblob.bin", ".secret", "%2Esecret", "missing"] {
        let url = format!("{base}/files/{name}");
        assert_eq!(curl(&[&code[..], &[&url]].concat()), "404", "{name}");
    }
}

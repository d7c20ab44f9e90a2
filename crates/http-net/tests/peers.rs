//! Real peers against the `get` example: Python's `http.server` and nginx
//! as origins, and hand-written origins for its exit codes. (The servers'
//! tests against real peers, the examples' and tokio's, are in
//! `crates/integration/tests/peers.rs`.)
//!
//! A test whose program is missing skips with a note, or fails when
//! `HTTP_NET_REQUIRE_PEERS=1` (as `.ci/run` sets).

mod support;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Command;
use std::time::Duration;

use support::*;

const LIMIT: Duration = Duration::from_secs(60);

/// A run of `get` that must succeed: its output.
fn ok((code, out, err): (Option<i32>, Vec<u8>, String)) -> Vec<u8> {
    assert_eq!(code, Some(0), "{err}");
    out
}

fn get(args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let (code, out, err) = run(Command::new(example("get")).args(args), LIMIT);
    (code, out, String::from_utf8_lossy(&err).into_owned())
}

/// `get` against the file server at `base`: `/big.bin` comes back as
/// `big`; `get -i` of `path` starts with the status line, holds the field
/// line and ends with the tail given in `[status, field, tail]`.
fn get_serves(base: &str, big: &[u8], path: &str, [status, field, tail]: [&str; 3]) {
    let out = ok(get(&[&format!("{base}/big.bin")]));
    assert!(out == big, "streamed file differs ({} bytes)", out.len());
    let out = ok(get(&["-i", &format!("{base}{path}")]));
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with(status), "{text}");
    assert!(text.contains(field), "{text}");
    assert!(text.ends_with(tail), "{text}");
}

#[test]
fn get_against_python_http_server() {
    if !have("python3") {
        return;
    }
    let dir = TempDir::new("pyhttp");
    let big = noise(6 * 1024 * 1024, 3);
    dir.file("big.bin", &big);
    dir.file("small.txt", b"hello\n");
    let port = free_port();
    let mut proc = Proc {
        child: Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(&dir.0)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("python3 -m http.server"),
    };
    wait_listening(port, &mut proc);
    let base = format!("http://127.0.0.1:{port}");
    get_serves(
        &base,
        &big,
        "/small.txt",
        [
            "HTTP/1.0 200 OK\r\n",
            "Content-Length: 6\r\n",
            "\r\n\r\nhello\n",
        ],
    );
    // A 404 is a well-formed response: success.
    let out = ok(get(&["-i", &format!("{base}/missing")]));
    assert!(String::from_utf8_lossy(&out).starts_with("HTTP/1.0 404"));
}

#[test]
fn get_against_nginx() {
    if !have("nginx") {
        return;
    }
    let dir = TempDir::new("nginx");
    let www = dir.0.join("www");
    std::fs::create_dir_all(&www).unwrap();
    let big = noise(8 * 1024 * 1024 + 17, 5);
    std::fs::write(www.join("big.bin"), &big).unwrap();
    std::fs::write(www.join("index.html"), b"<p>nginx</p>\n").unwrap();
    // SSI output has no length known up front: nginx sends it chunked.
    std::fs::write(
        www.join("page.shtml"),
        b"a<!--#echo var=\"x\" default=\"-ssi-\" -->b\n",
    )
    .unwrap();
    let port = free_port();
    let www = www.display();
    let _nginx = start_nginx(
        &dir,
        port,
        "types { text/html html shtml; application/octet-stream bin; }",
        &format!("root {www};\n    ssi on;"),
    );
    let base = format!("http://127.0.0.1:{port}");
    get_serves(
        &base,
        &big,
        "/page.shtml",
        [
            "HTTP/1.1 200 OK\r\n",
            "Transfer-Encoding: chunked\r\n",
            "\r\n\r\na-ssi-b\n",
        ],
    );
    assert_eq!(ok(get(&[&format!("{base}/")])), b"<p>nginx</p>\n");
    let out = ok(get(&["-i", &format!("{base}/missing")]));
    assert!(out.starts_with(b"HTTP/1.1 404"));
}

/// A one-shot origin that answers the first connection with `reply` and closes.
fn bad_origin(reply: &'static [u8]) -> (std::thread::JoinHandle<()>, u16) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let t = std::thread::spawn(move || {
        if let Ok((mut s, _)) = l.accept() {
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = s.write_all(reply);
        }
    });
    (t, port)
}

#[test]
fn get_exit_codes() {
    // Usage.
    assert_eq!(get(&[]).0, Some(2));
    assert_eq!(get(&["https://example.com/"]).0, Some(2));
    // Connection refused.
    let port = free_port();
    let (code, _, err) = get(&[&format!("http://127.0.0.1:{port}/")]);
    assert_eq!(code, Some(2), "{err}");
    // Malformed, unsafe and truncated responses.
    for reply in [
        &b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"[..],
        b"HTTP/1.1 200 OK\nContent-Length: 5\n\nhello",
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
        b"",
    ] {
        let (t, port) = bad_origin(reply);
        let (code, _, err) = get(&[&format!("http://127.0.0.1:{port}/")]);
        assert_eq!(code, Some(1), "{:?}: {err}", String::from_utf8_lossy(reply));
        assert!(err.starts_with("get: "), "{err}");
        t.join().unwrap();
    }
    // A body left transfer-coded (read until close): refused, naming the
    // coding, never written out as if the gzip bytes were the content.
    let (t, port) =
        bad_origin(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n\x1f\x8b\x08\x00");
    let (code, out, err) = get(&[&format!("http://127.0.0.1:{port}/")]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "{out:?}");
    assert!(err.starts_with("get: ") && err.contains("gzip"), "{err}");
    t.join().unwrap();
    // A well-formed error status is a success for `get`.
    let (t, port) = bad_origin(b"HTTP/1.1 500 Oops\r\nContent-Length: 2\r\n\r\nno");
    let (code, out, _) = get(&[&format!("http://127.0.0.1:{port}/")]);
    assert_eq!((code, &out[..]), (Some(0), &b"no"[..]));
    t.join().unwrap();
}

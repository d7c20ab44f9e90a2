//! Real peers against the examples: curl, Python, wrk, headless Chromium,
//! and the `get` example against Python's `http.server` and nginx.
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

/// A run of a program (`curl`, `get`) that must succeed: its output.
fn ok((code, out, err): (Option<i32>, Vec<u8>, String)) -> Vec<u8> {
    assert_eq!(code, Some(0), "{err}");
    out
}

fn curl(args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let (code, out, err) = run(
        Command::new("curl")
            .args(["-sS", "--max-time", "30"])
            .args(args),
        LIMIT,
    );
    (code, out, String::from_utf8_lossy(&err).into_owned())
}

/// Uploads `file` (holding `data`) to `url` with curl and `extra`
/// arguments, and asserts that the answer echoes it; curl's stderr.
fn curl_upload(extra: &[&str], url: &str, file: &std::path::Path, data: &[u8]) -> String {
    let at = format!("@{}", file.display());
    let mut args = extra.to_vec();
    args.extend_from_slice(&["--data-binary", &at, url]);
    let (code, out, err) = curl(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out == data,
        "upload {extra:?} not echoed ({} of {} bytes back)",
        out.len(),
        data.len()
    );
    err
}

#[test]
fn curl_against_hello() {
    let Some((_p, addr)) = start_example_for("curl", "hello", &[]) else {
        return;
    };
    let base = format!("http://{addr}");
    // Three routes over one connection.
    let (code, out, err) = curl(&[
        "-v",
        &format!("{base}/plaintext"),
        &format!("{base}/json"),
        &format!("{base}/"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.starts_with("Hello, World!{\"message\":\"Hello, World!\"}<!DOCTYPE html>"),
        "{out}"
    );
    assert!(
        err.contains("Re-using existing connection") || err.contains("Reusing existing connection"),
        "curl did not reuse the connection:\n{err}"
    );
    // Heads: Server and Date on every response, the content types.
    for (path, ctype) in [
        ("/plaintext", "text/plain"),
        ("/json", "application/json"),
        ("/", "text/html"),
        ("/nope", "text/plain"),
    ] {
        let out = ok(curl(&["-i", &format!("{base}{path}")]));
        let text = String::from_utf8_lossy(&out).to_ascii_lowercase();
        assert!(text.contains("\r\nserver: http-net\r\n"), "{text}");
        assert!(text.contains("\r\ndate: "), "{text}");
        assert!(
            text.contains(&format!("\r\ncontent-type: {ctype}")),
            "{text}"
        );
    }
    // A 405 carries them too, and so does the 400 the connection writes
    // itself for a malformed request (raw socket: curl will not send one).
    let out = ok(curl(&["-i", "-X", "POST", &format!("{base}/plaintext")]));
    let text = String::from_utf8_lossy(&out).to_ascii_lowercase();
    assert!(text.starts_with("http/1.1 405 "), "{text}");
    assert!(text.contains("\r\nserver: http-net\r\n"), "{text}");
    assert!(text.contains("\r\ndate: "), "{text}");
    for bad in [
        &b"GET / HTTP/1.1\r\nHost : a\r\n\r\n"[..],
        b"GET /a b HTTP/1.1\r\nHost: a\r\n\r\n",
    ] {
        let text = raw_answer(addr, bad, 400);
        assert!(text.contains("\r\nServer: http-net\r\n"), "{text}");
        assert!(text.contains("\r\nDate: "), "{text}");
        assert!(text.contains("\r\nConnection: close\r\n"), "{text}");
    }
    for (method, path, status) in [
        ("GET", "/nope", "404"),
        ("POST", "/plaintext", "405"),
        ("DELETE", "/", "405"),
        ("HEAD", "/json", "200"),
    ] {
        let mut args = vec!["-o", "/dev/null", "-w", "%{http_code}", "-X", method];
        if method == "HEAD" {
            args = vec!["-o", "/dev/null", "-w", "%{http_code}", "-I"];
        }
        let url = format!("{base}{path}");
        args.push(&url);
        let out = ok(curl(&args));
        assert_eq!(String::from_utf8_lossy(&out), status, "{method} {path}");
    }
}

#[test]
fn curl_against_echo() {
    let Some((_p, addr)) = start_example_for("curl", "echo", &["--format", "probe"]) else {
        return;
    };
    let dir = TempDir::new("curl");
    let small_data = noise(300 * 1024, 7);
    let big_data = noise(3 * 1024 * 1024, 11);
    let small = dir.file("small.bin", &small_data);
    let big = dir.file("big.bin", &big_data);
    let url = format!("http://{addr}/upload");

    // A chunked upload.
    curl_upload(
        &["-H", "Transfer-Encoding: chunked"],
        &url,
        &small,
        &small_data,
    );

    // Expect: 100-continue with a large body.
    let err = curl_upload(&["-v", "-H", "Expect: 100-continue"], &url, &big, &big_data);
    assert!(
        err.contains("HTTP/1.1 100 Continue"),
        "no 100 Continue seen:\n{err}"
    );

    // /echo lists the fields; other GETs say OK; keep-alive across them.
    let (code, out, err) = curl(&[
        "-v",
        "-H",
        "X-Probe:  spaced value  ",
        &format!("http://{addr}/echo"),
        &format!("http://{addr}/other"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("X-Probe: spaced value\n"), "{text}");
    assert!(text.contains(&format!("Host: {addr}\n")), "{text}");
    assert!(text.ends_with("OK"), "{text}");
    assert!(
        err.contains("Re-using existing connection") || err.contains("Reusing existing connection")
    );
}

const GARDEN_PY: &str = r#"
import base64, http.client, json, socket, sys
host, port = sys.argv[1], int(sys.argv[2])
d = base64.b64decode

def check(j, method, uri, fields, body):
    assert d(j["method"]) == method, (j["method"], method)
    assert d(j["version"]) == b"1.1", j["version"]
    assert d(j["uri"]) == uri, (d(j["uri"]), uri)
    got = [(d(n), d(v)) for n, v in j["headers"]]
    for f in fields:
        assert f in got, (f, got)
    assert d(j["body"]) == body, (d(j["body"])[:40], body[:40])

c = http.client.HTTPConnection(host, port, timeout=10)
cases = [
    (b"GET", b"/a/b?c=d&e=%20", [(b"X-One", b"1"), (b"x-two", b"two  words")], b""),
    (b"POST", b"/post", [(b"Content-Type", b"application/octet-stream")], bytes(range(256)) * 64),
    (b"DELETE", b"/thing/1", [(b"X-Obs", b"caf\xc3\xa9")], b""),
    (b"PUT", b"/put", [], b"x" * 100000),
]
sock = None
for method, uri, fields, body in cases:
    hdrs = {n.decode("latin-1"): v.decode("latin-1") for n, v in fields}
    c.request(method.decode(), uri.decode(), body=body or None, headers=hdrs)
    r = c.getresponse()
    data = r.read()
    assert r.status == 200, r.status
    assert r.getheader("Content-Type") == "application/json"
    check(json.loads(data), method, uri, fields, body)
    if sock is None:
        sock = c.sock
    assert c.sock is sock, "keep-alive connection was not reused"

# A chunked body, de-chunked by the server.
c.request("PUT", "/chunked", body=iter([b"abc", b"", b"defg" * 1000]),
          headers={"Transfer-Encoding": "chunked"}, encode_chunked=True)
r = c.getresponse()
j = json.loads(r.read())
check(j, b"PUT", b"/chunked", [(b"Transfer-Encoding", b"chunked")], b"abc" + b"defg" * 1000)
assert c.sock is sock
c.close()

# Pipelined requests on a raw socket.
s = socket.create_connection((host, port), timeout=10)
s.sendall(b"GET /p1 HTTP/1.1\r\nHost: x\r\n\r\n"
          b"POST /p2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
          b"GET /p3 HTTP/1.1\r\nHost: x\r\nX-Last: yes\r\nConnection: close\r\n\r\n")
buf = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    buf += chunk
responses = []
while buf:
    head, _, rest = buf.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    length = [int(l.split(b":", 1)[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0]
    responses.append(json.loads(rest[:length]))
    buf = rest[length:]
assert len(responses) == 3, len(responses)
check(responses[0], b"GET", b"/p1", [(b"Host", b"x")], b"")
check(responses[1], b"POST", b"/p2", [(b"Content-Length", b"5")], b"hello")
check(responses[2], b"GET", b"/p3", [(b"X-Last", b"yes"), (b"Connection", b"close")], b"")
print("ok")
"#;

#[test]
fn python_against_echo_garden() {
    let Some((_p, addr)) = start_example_for("python3", "echo", &["--format", "garden"]) else {
        return;
    };
    let dir = TempDir::new("py");
    let script = dir.file("garden.py", GARDEN_PY.as_bytes());
    let (code, out, err) = run(
        Command::new("python3")
            .arg(&script)
            .arg(addr.ip().to_string())
            .arg(addr.port().to_string()),
        LIMIT,
    );
    let err = String::from_utf8_lossy(&err);
    assert_eq!(code, Some(0), "python failed:\n{err}");
    assert_eq!(String::from_utf8_lossy(&out).trim(), "ok");
}

#[test]
fn wrk_against_hello_plaintext() {
    let Some(_heavy) = heavy_peer("wrk") else {
        return;
    };
    let (_p, addr) = start_example("hello", &[]);
    let (code, out, err) = run(
        Command::new("wrk").args([
            "-t1",
            "-c16",
            "-d2s",
            "--timeout",
            "2s",
            &format!("http://{addr}/plaintext"),
        ]),
        LIMIT,
    );
    let out = String::from_utf8_lossy(&out);
    assert_eq!(code, Some(0), "{out}{}", String::from_utf8_lossy(&err));
    eprintln!("{out}");
    assert!(!out.contains("Non-2xx"), "non-2xx responses:\n{out}");
    assert!(!out.contains("Socket errors"), "socket errors:\n{out}");
    let requests: u64 = out
        .lines()
        .find_map(|l| {
            l.trim()
                .split_once(" requests in ")
                .map(|(n, _)| n.trim().parse().unwrap_or(0))
        })
        .unwrap_or(0);
    assert!(requests > 100, "too few requests:\n{out}");
}

#[test]
fn chromium_renders_hello() {
    let Some(_heavy) = heavy_peer("chromium") else {
        return;
    };
    let (_p, addr) = start_example("hello", &[]);
    let profile = TempDir::new("chromium");
    let (code, out, err) = run(
        Command::new("chromium").args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.0.display()),
            "--dump-dom",
            &format!("http://{addr}/"),
        ]),
        Duration::from_secs(90),
    );
    let dom = String::from_utf8_lossy(&out);
    assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&err));
    assert!(dom.contains("<title>http-net</title>"), "{dom}");
    assert!(
        dom.contains("<h1 id=\"greeting\">Hello, World!</h1>"),
        "{dom}"
    );
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

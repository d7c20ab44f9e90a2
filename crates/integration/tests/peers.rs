//! Real peers against both servers: the blocking one (http-net's `hello`
//! and `echo` examples, run as programs) and the tokio one (a handler in
//! this process, on a current-thread or a two-worker runtime). Where both
//! are asked the same thing (curl over one connection, uploads, wrk,
//! Chromium, a Python client and pipelining) one test body drives either;
//! nginx sits in front of the tokio server as a reverse proxy.
//!
//! A test whose program is missing skips with a note, or fails when
//! `HTTP_NET_REQUIRE_PEERS=1` (as `.ci/run` sets).

mod support;

use http_net_tokio::ServerOptions;
use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

use http_net_tokio::http_net_conn::{BodyLength, Method, PreparedResponse};
use http_net_tokio::{Error, Exchange, Handler, HandlerError, Server, ServerBuilder};
use support::examples::*;
use support::on_tokio::{read_whole, start};

const LIMIT: Duration = Duration::from_secs(60);

// ---- The tokio server under test. ----

const PAGE: &[u8] = b"<!DOCTYPE html>
<html lang=\"en\">
<head><meta charset=\"utf-8\"><title>http-net</title></head>
<body>
<h1 id=\"greeting\">Hello, World!</h1>
</body>
</html>
";

/// The hello routes, an echo of any request body (`/upload`), the request
/// described as text (`/describe`: method, target, `Name: value` lines,
/// then the body), and a streamed (chunked) answer (`/stream`).
struct Peer {
    plain: PreparedResponse,
    json: PreparedResponse,
    html: PreparedResponse,
}

fn peer() -> Peer {
    Peer {
        plain: PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap(),
        json: PreparedResponse::new(200, &[(b"Content-Type", b"application/json")]).unwrap(),
        html: PreparedResponse::new(200, &[(b"Content-Type", b"text/html; charset=utf-8")])
            .unwrap(),
    }
}

async fn body(ex: &mut Exchange<'_>) -> Result<Vec<u8>, Error> {
    read_whole(ex, &mut vec![0u8; 16 * 1024]).await
}

impl Handler for Peer {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        Ok(match ex.path() {
            b"/plaintext" => ex.respond(&self.plain, b"Hello, World!").await,
            b"/json" => {
                ex.respond(&self.json, br#"{"message":"Hello, World!"}"#)
                    .await
            }
            b"/" => ex.respond(&self.html, PAGE).await,
            b"/upload" => {
                let b = body(ex).await?;
                ex.respond_with(200, &[(b"Content-Type", b"application/octet-stream")], &b)
                    .await
            }
            b"/describe" => {
                let mut text = Vec::new();
                if let Some(req) = ex.request() {
                    text.extend_from_slice(req.method_bytes());
                    text.push(b' ');
                    text.extend_from_slice(req.target());
                    text.push(b'\n');
                    for (n, v) in req.fields() {
                        text.extend_from_slice(n);
                        text.extend_from_slice(b": ");
                        text.extend_from_slice(v);
                        text.push(b'\n');
                    }
                }
                text.push(b'\n');
                text.extend_from_slice(&body(ex).await?);
                ex.respond_with(200, &[(b"Content-Type", b"text/plain")], &text)
                    .await
            }
            b"/stream" => {
                ex.send_head(
                    200,
                    &[(b"Content-Type", b"text/plain")],
                    BodyLength::Streamed,
                )?;
                for i in 0..100u32 {
                    ex.send_data(format!("line {i}\n").as_bytes()).await?;
                }
                ex.send_end(&[])
            }
            _ if ex.method() == Method::Get => ex.respond_with(404, &[], b"Not Found\n").await,
            _ => ex.respond_with(405, &[(b"Allow", b"GET")], b"").await,
        }?)
    }
}

fn builder() -> ServerBuilder {
    Server::builder()
        .server_name("http-net")
        .shutdown_timeout(Duration::from_secs(5))
}

// ---- What a peer asks of either server. ----

/// A run of a program (`curl`) that must succeed: its output.
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

/// curl fetches `/plaintext`, `/json` and `/` of `base` over one
/// connection; then each path of `heads` alone, whose answer carries
/// `Server: http-net`, a `Date` and the content type given with the path.
fn curl_hello_routes(base: &str, heads: &[(&str, &str)]) {
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
    for (path, ctype) in heads {
        let out = ok(curl(&["-i", &format!("{base}{path}")]));
        let text = String::from_utf8_lossy(&out).to_ascii_lowercase();
        assert!(text.contains("\r\nserver: http-net\r\n"), "{text}");
        assert!(text.contains("\r\ndate: "), "{text}");
        assert!(
            text.contains(&format!("\r\ncontent-type: {ctype}")),
            "{text}"
        );
    }
}

/// Each `(method, path, status)`: curl's `method path` of `base` is
/// answered `status`.
fn curl_statuses(base: &str, cases: &[(&str, &str, &str)]) {
    for &(method, path, status) in cases {
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

/// Uploads to `url`, which echoes them: 300 KiB chunked, then 3 MiB behind
/// `Expect: 100-continue` (the interim `100 Continue` seen).
fn curl_uploads(url: &str) {
    let dir = TempDir::new("curl");
    let small_data = noise(300 * 1024, 7);
    let big_data = noise(3 * 1024 * 1024, 11);
    let small = dir.file("small.bin", &small_data);
    let big = dir.file("big.bin", &big_data);
    // A chunked upload.
    curl_upload(
        &["-H", "Transfer-Encoding: chunked"],
        url,
        &small,
        &small_data,
    );
    // Expect: 100-continue with a large body.
    let err = curl_upload(&["-v", "-H", "Expect: 100-continue"], url, &big, &big_data);
    assert!(
        err.contains("HTTP/1.1 100 Continue"),
        "no 100 Continue seen:\n{err}"
    );
}

/// `{base}/stream` with curl: the 100 lines, de-chunked.
fn curl_streams(base: &str) {
    let (code, out, err) = curl(&[&format!("{base}/stream")]);
    assert_eq!(code, Some(0), "{err}");
    let want: String = (0..100).map(|i| format!("line {i}\n")).collect();
    assert_eq!(String::from_utf8_lossy(&out), want);
}

/// wrk's two seconds of `/plaintext` at `addr` over 16 connections: more
/// than 100 requests, every answer a 2xx, no socket error.
fn wrk_plaintext_load(addr: SocketAddr) {
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

/// Headless Chromium renders the hello page of `addr`.
fn chromium_renders(addr: SocketAddr) {
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

/// The start of both Python scripts: the server's address from the command
/// line; `kept_alive`, which asks on one `http.client` connection and
/// checks that the connection is kept; `chunked_put`, which uploads
/// `CHUNKED` in chunks (an empty one among them) on it; and `pipelined`,
/// which sends requests at once on a raw socket and returns the bodies of
/// their `200` answers (each with a `Content-Length`), read until the
/// server closes.
const PY_COMMON: &str = r#"
import base64, http.client, json, socket, sys
host, port = sys.argv[1], int(sys.argv[2])

c = http.client.HTTPConnection(host, port, timeout=10)
sock = None

def kept_alive(method, uri, body=None, headers={}, **kw):
    global sock
    c.request(method, uri, body=body, headers=headers, **kw)
    r = c.getresponse()
    data = r.read()
    if sock is None:
        sock = c.sock
    assert c.sock is sock, "keep-alive connection was not reused"
    return r, data

CHUNKED = b"abc" + b"defg" * 1000

def chunked_put(uri):
    return kept_alive("PUT", uri, body=iter([b"abc", b"", b"defg" * 1000]),
                      headers={"Transfer-Encoding": "chunked"}, encode_chunked=True)

def pipelined(requests):
    s = socket.create_connection((host, port), timeout=10)
    s.sendall(requests)
    buf = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
    bodies = []
    while buf:
        head, _, rest = buf.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        length = [int(l.split(b":", 1)[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0]
        bodies.append(rest[:length])
        buf = rest[length:]
    return bodies
"#;

/// Runs [`PY_COMMON`] and then `script` with Python against `addr`; the
/// script prints `ok` when all its checks hold.
fn python_passes(addr: SocketAddr, script: &str) {
    let dir = TempDir::new("py");
    let path = dir.file("client.py", format!("{PY_COMMON}{script}").as_bytes());
    let (code, out, err) = run(
        Command::new("python3")
            .arg(&path)
            .arg(addr.ip().to_string())
            .arg(addr.port().to_string()),
        LIMIT,
    );
    let err = String::from_utf8_lossy(&err);
    assert_eq!(code, Some(0), "python failed:\n{err}");
    assert_eq!(String::from_utf8_lossy(&out).trim(), "ok");
}

// ---- The blocking server: http-net's examples. ----

#[test]
fn curl_against_hello() {
    let Some((_p, addr)) = start_example_for("curl", "hello", &[]) else {
        return;
    };
    let base = format!("http://{addr}");
    curl_hello_routes(
        &base,
        &[
            ("/plaintext", "text/plain"),
            ("/json", "application/json"),
            ("/", "text/html"),
            ("/nope", "text/plain"),
        ],
    );
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
    curl_statuses(
        &base,
        &[
            ("GET", "/nope", "404"),
            ("POST", "/plaintext", "405"),
            ("DELETE", "/", "405"),
            ("HEAD", "/json", "200"),
        ],
    );
}

#[test]
fn curl_against_echo() {
    let Some((_p, addr)) = start_example_for("curl", "echo", &["--format", "probe"]) else {
        return;
    };
    // A 3 MiB upload: over the 1 MiB the probe format holds, so through
    // the streaming echo.
    curl_uploads(&format!("http://{addr}/stream"));

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
d = base64.b64decode

def check(j, method, uri, fields, body):
    assert d(j["method"]) == method, (j["method"], method)
    assert d(j["version"]) == b"1.1", j["version"]
    assert d(j["uri"]) == uri, (d(j["uri"]), uri)
    got = [(d(n), d(v)) for n, v in j["headers"]]
    for f in fields:
        assert f in got, (f, got)
    assert d(j["body"]) == body, (d(j["body"])[:40], body[:40])

cases = [
    (b"GET", b"/a/b?c=d&e=%20", [(b"X-One", b"1"), (b"x-two", b"two  words")], b""),
    (b"POST", b"/post", [(b"Content-Type", b"application/octet-stream")], bytes(range(256)) * 64),
    (b"DELETE", b"/thing/1", [(b"X-Obs", b"caf\xc3\xa9")], b""),
    (b"PUT", b"/put", [], b"x" * 100000),
]
for method, uri, fields, body in cases:
    hdrs = {n.decode("latin-1"): v.decode("latin-1") for n, v in fields}
    r, data = kept_alive(method.decode(), uri.decode(), body=body or None, headers=hdrs)
    assert r.status == 200, r.status
    assert r.getheader("Content-Type") == "application/json"
    check(json.loads(data), method, uri, fields, body)

# A chunked body, de-chunked by the server.
_, data = chunked_put("/chunked")
check(json.loads(data), b"PUT", b"/chunked", [(b"Transfer-Encoding", b"chunked")], CHUNKED)
c.close()

# Pipelined requests on a raw socket.
responses = [json.loads(b) for b in pipelined(
    b"GET /p1 HTTP/1.1\r\nHost: x\r\n\r\n"
    b"POST /p2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
    b"GET /p3 HTTP/1.1\r\nHost: x\r\nX-Last: yes\r\nConnection: close\r\n\r\n")]
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
    python_passes(addr, GARDEN_PY);
}

/// A heavy peer's `check` against the `hello` example: skipped (as
/// [`have`] says) when the program `prog` is not found.
fn heavy_against_hello(prog: &str, check: fn(SocketAddr)) {
    let Some(_heavy) = heavy_peer(prog) else {
        return;
    };
    let (_p, addr) = start_example("hello", &[]);
    check(addr);
}

#[test]
fn wrk_against_hello_plaintext() {
    heavy_against_hello("wrk", wrk_plaintext_load);
}

#[test]
fn chromium_renders_hello() {
    heavy_against_hello("chromium", chromium_renders);
}

// ---- The tokio server. ----

#[test]
fn curl_keep_alive_uploads_and_continue() {
    if !have("curl") {
        return;
    }
    let srv = start(builder(), peer(), true);
    let base = format!("http://{}", srv.addr);
    curl_hello_routes(&base, &[("/plaintext", "text/plain")]);
    // Uploads: chunked, and a large one behind Expect: 100-continue.
    curl_uploads(&format!("{base}/upload"));
    // A streamed answer, de-chunked by curl.
    curl_streams(&base);
    // Status codes.
    curl_statuses(&base, &[("GET", "/nope", "404"), ("DELETE", "/x", "405")]);
    srv.stop();
}

const CLIENT_PY: &str = r#"
def described(data):
    head, _, body = data.partition(b"\n\n")
    lines = head.split(b"\n")
    method, target = lines[0].split(b" ", 1)
    fields = [tuple(l.split(b": ", 1)) for l in lines[1:]]
    return method, target, fields, body

cases = [
    ("GET", "/describe?a=1&b=%20", {"X-One": "1", "x-two": "two  words"}, None),
    ("POST", "/describe", {"Content-Type": "application/octet-stream"}, bytes(range(256)) * 64),
    ("PUT", "/describe", {}, b"x" * 100000),
]
for method, uri, hdrs, body in cases:
    r, data = kept_alive(method, uri, body=body, headers=hdrs)
    assert r.status == 200, r.status
    assert r.getheader("Server") == "http-net"
    m, t, fields, b = described(data)
    assert m == method.encode() and t == uri.encode(), (m, t)
    for n, v in hdrs.items():
        assert (n.encode(), v.encode()) in fields, (n, fields)
    assert b == (body or b""), len(b)

# A chunked body, de-chunked by the server.
_, data = chunked_put("/describe")
_, _, fields, b = described(data)
assert b == CHUNKED, len(b)
# A chunked answer, de-chunked by http.client.
c.request("GET", "/stream")
r = c.getresponse()
assert r.getheader("Transfer-Encoding") == "chunked"
assert r.read() == b"".join(b"line %d\n" % i for i in range(100))
c.close()

# Pipelined requests on a raw socket.
bodies = pipelined(
    b"GET /describe HTTP/1.1\r\nHost: x\r\n\r\n"
    b"POST /describe HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
    b"GET /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
assert len(bodies) == 3, len(bodies)
assert described(bodies[0])[:2] == (b"GET", b"/describe")
assert described(bodies[1])[3] == b"hello"
assert bodies[2] == b"Hello, World!"
print("ok")
"#;

#[test]
fn python_http_client() {
    if !have("python3") {
        return;
    }
    let srv = start(builder(), peer(), false);
    python_passes(srv.addr, CLIENT_PY);
    srv.stop();
}

#[test]
fn wrk_plaintext() {
    let Some(_heavy) = heavy_peer("wrk") else {
        return;
    };
    for multi in [false, true] {
        // Keep-alive without a per-connection request limit, so that the
        // count below is wrk's connections.
        let srv = start(builder().max_requests_per_connection(0), peer(), multi);
        wrk_plaintext_load(srv.addr);
        // Keep-alive: 16 connections (wrk may open one more to probe first).
        let accepted = srv.handle.counters().accepted;
        assert!((16..=17).contains(&accepted), "{accepted} connections");
        srv.stop();
    }
}

#[test]
fn nginx_in_front() {
    if !have("nginx") || !have("curl") {
        return;
    }
    let srv = start(builder(), peer(), true);
    let dir = TempDir::new("nginx");
    let port = free_port();
    let up = srv.addr;
    // nginx as a reverse proxy keeping HTTP/1.1 connections to the server,
    // streaming request bodies through (no buffering) as chunked.
    let nginx = start_nginx(
        &dir,
        port,
        &format!("client_max_body_size 16m;\n  upstream app {{ server {up}; keepalive 4; }}"),
        "location / {\n      proxy_pass http://app;\n      proxy_http_version 1.1;\n      \
         proxy_set_header Connection \"\";\n      proxy_request_buffering off;\n      \
         proxy_buffering off;\n    }",
    );
    let base = format!("http://127.0.0.1:{port}");
    for _ in 0..3 {
        let (code, out, err) = curl(&[&format!("{base}/plaintext")]);
        assert_eq!((code, &out[..]), (Some(0), &b"Hello, World!"[..]), "{err}");
    }
    let (code, out, err) = curl(&["-i", &format!("{base}/plaintext")]);
    assert_eq!(code, Some(0), "{err}");
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    // A streamed answer through the proxy.
    curl_streams(&base);
    // Uploads through the proxy: a known length, and chunked.
    let data = noise(2 * 1024 * 1024 + 3, 9);
    let file = dir.file("up.bin", &data);
    for extra in [&[][..], &["-H", "Transfer-Encoding: chunked"][..]] {
        curl_upload(extra, &format!("{base}/upload"), &file, &data);
    }
    // nginx kept its upstream connections: fewer accepted than requests.
    let c = srv.handle.counters();
    assert!(c.accepted < 7, "{c:?}");
    drop(nginx);
    srv.stop();
}

#[test]
fn chromium_renders_the_page() {
    let Some(_heavy) = heavy_peer("chromium") else {
        return;
    };
    let srv = start(builder(), peer(), false);
    chromium_renders(srv.addr);
    srv.stop();
}

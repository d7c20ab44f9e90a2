//! Real peers against the tokio server: curl, Python's `http.client`, wrk,
//! nginx as a reverse proxy in front of it, and headless Chromium.
//!
//! A test whose program is missing skips with a note, or fails when
//! `HTTP_NET_REQUIRE_PEERS=1` (as `.ci/run` sets).

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::*;
use http_net_tokio::http_net_conn::{BodyLength, Method, PreparedResponse};
use http_net_tokio::{Error, Exchange, Handler, Server, ServerBuilder};

const LIMIT: Duration = Duration::from_secs(60);

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
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), Error> {
        match ex.path() {
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
        }
    }
}

fn builder() -> ServerBuilder {
    Server::builder()
        .server_name("http-net")
        .shutdown_timeout(Duration::from_secs(5))
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

/// Uploads `file` (holding `data`) to `{base}/upload` with curl and `extra`
/// arguments, and asserts that the answer echoes it; curl's stderr.
fn curl_upload(extra: &[&str], base: &str, file: &std::path::Path, data: &[u8]) -> String {
    let at = format!("@{}", file.display());
    let url = format!("{base}/upload");
    let mut args = extra.to_vec();
    args.extend_from_slice(&["--data-binary", &at, &url]);
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

/// `{base}/stream` with curl: the 100 lines, de-chunked.
fn curl_streams(base: &str) {
    let (code, out, err) = curl(&[&format!("{base}/stream")]);
    assert_eq!(code, Some(0), "{err}");
    let want: String = (0..100).map(|i| format!("line {i}\n")).collect();
    assert_eq!(String::from_utf8_lossy(&out), want);
}

#[test]
fn curl_keep_alive_uploads_and_continue() {
    if !have("curl") {
        return;
    }
    let srv = start(builder(), peer(), true);
    let base = format!("http://{}", srv.addr);
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
    let (code, out, err) = curl(&["-i", &format!("{base}/plaintext")]);
    assert_eq!(code, Some(0), "{err}");
    let text = String::from_utf8_lossy(&out).to_ascii_lowercase();
    assert!(text.contains("\r\nserver: http-net\r\n"), "{text}");
    assert!(text.contains("\r\ndate: "), "{text}");
    // Uploads: chunked, and a large one behind Expect: 100-continue.
    let dir = TempDir::new("curl");
    let small = dir.0.join("small.bin");
    let big = dir.0.join("big.bin");
    let small_data = noise(300 * 1024, 7);
    let big_data = noise(3 * 1024 * 1024, 11);
    std::fs::write(&small, &small_data).unwrap();
    std::fs::write(&big, &big_data).unwrap();
    curl_upload(
        &["-H", "Transfer-Encoding: chunked"],
        &base,
        &small,
        &small_data,
    );
    let err = curl_upload(
        &["-v", "-H", "Expect: 100-continue"],
        &base,
        &big,
        &big_data,
    );
    assert!(
        err.contains("HTTP/1.1 100 Continue"),
        "no 100 Continue seen:\n{err}"
    );
    // A streamed answer, de-chunked by curl.
    curl_streams(&base);
    // Status codes.
    for (method, path, status) in [("GET", "/nope", "404"), ("DELETE", "/x", "405")] {
        let url = format!("{base}{path}");
        let (code, out, err) = curl(&["-o", "/dev/null", "-w", "%{http_code}", "-X", method, &url]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(String::from_utf8_lossy(&out), status, "{method} {path}");
    }
    srv.stop();
}

const CLIENT_PY: &str = r#"
import http.client, socket, sys
host, port = sys.argv[1], int(sys.argv[2])

def described(data):
    head, _, body = data.partition(b"\n\n")
    lines = head.split(b"\n")
    method, target = lines[0].split(b" ", 1)
    fields = [tuple(l.split(b": ", 1)) for l in lines[1:]]
    return method, target, fields, body

c = http.client.HTTPConnection(host, port, timeout=10)
sock = None
cases = [
    ("GET", "/describe?a=1&b=%20", {"X-One": "1", "x-two": "two  words"}, None),
    ("POST", "/describe", {"Content-Type": "application/octet-stream"}, bytes(range(256)) * 64),
    ("PUT", "/describe", {}, b"x" * 100000),
]
for method, uri, hdrs, body in cases:
    c.request(method, uri, body=body, headers=hdrs)
    r = c.getresponse()
    data = r.read()
    assert r.status == 200, r.status
    assert r.getheader("Server") == "http-net"
    m, t, fields, b = described(data)
    assert m == method.encode() and t == uri.encode(), (m, t)
    for n, v in hdrs.items():
        assert (n.encode(), v.encode()) in fields, (n, fields)
    assert b == (body or b""), len(b)
    if sock is None:
        sock = c.sock
    assert c.sock is sock, "keep-alive connection was not reused"

# A chunked body, de-chunked by the server.
c.request("PUT", "/describe", body=iter([b"abc", b"", b"defg" * 1000]),
          headers={"Transfer-Encoding": "chunked"}, encode_chunked=True)
r = c.getresponse()
_, _, fields, b = described(r.read())
assert b == b"abc" + b"defg" * 1000, len(b)
assert c.sock is sock
# A chunked answer, de-chunked by http.client.
c.request("GET", "/stream")
r = c.getresponse()
assert r.getheader("Transfer-Encoding") == "chunked"
assert r.read() == b"".join(b"line %d\n" % i for i in range(100))
c.close()

# Pipelined requests on a raw socket.
s = socket.create_connection((host, port), timeout=10)
s.sendall(b"GET /describe HTTP/1.1\r\nHost: x\r\n\r\n"
          b"POST /describe HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
          b"GET /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
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
    let dir = TempDir::new("py");
    let script = dir.0.join("client.py");
    std::fs::write(&script, CLIENT_PY).unwrap();
    let (code, out, err) = run(
        Command::new("python3")
            .arg(&script)
            .arg(srv.addr.ip().to_string())
            .arg(srv.addr.port().to_string()),
        LIMIT,
    );
    assert_eq!(
        code,
        Some(0),
        "python failed:\n{}",
        String::from_utf8_lossy(&err)
    );
    assert_eq!(String::from_utf8_lossy(&out).trim(), "ok");
    srv.stop();
}

#[test]
fn wrk_plaintext() {
    let Some(_heavy) = heavy_peer("wrk") else {
        return;
    };
    for multi in [false, true] {
        let srv = start(builder(), peer(), multi);
        let (code, out, err) = run(
            Command::new("wrk").args([
                "-t1",
                "-c16",
                "-d2s",
                "--timeout",
                "2s",
                &format!("http://{}/plaintext", srv.addr),
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
        // Keep-alive: 16 connections (wrk may open one more to probe first).
        let accepted = srv.handle.counters().accepted;
        assert!((16..=17).contains(&accepted), "{accepted} connections");
        srv.stop();
    }
}

/// Waits until something accepts connections on `port`.
fn wait_listening(port: u16, proc: &mut Proc) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(st)) = proc.0.try_wait() {
            panic!("nginx exited early: {st}");
        }
        assert!(Instant::now() < deadline, "nothing listens on port {port}");
        std::thread::sleep(Duration::from_millis(50));
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
    let d = dir.0.display();
    let up = srv.addr;
    // nginx as a reverse proxy keeping HTTP/1.1 connections to the server,
    // streaming request bodies through (no buffering) as chunked.
    let conf = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{ worker_connections 64; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
           fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
           client_max_body_size 16m;\n\
           upstream app {{ server {up}; keepalive 4; }}\n\
           server {{\n    listen 127.0.0.1:{port};\n    location / {{\n      proxy_pass http://app;\n\
               proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n\
               proxy_request_buffering off;\n      proxy_buffering off;\n    }}\n  }}\n}}\n"
    );
    let conf_path = dir.0.join("nginx.conf");
    std::fs::write(&conf_path, conf).unwrap();
    let mut proc = Proc(
        Command::new("nginx")
            .arg("-c")
            .arg(&conf_path)
            .arg("-p")
            .arg(&dir.0)
            .arg("-e")
            .arg(dir.0.join("error.log"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("nginx"),
    );
    wait_listening(port, &mut proc);
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
    let file = dir.0.join("up.bin");
    let data = noise(2 * 1024 * 1024 + 3, 9);
    std::fs::write(&file, &data).unwrap();
    for extra in [&[][..], &["-H", "Transfer-Encoding: chunked"][..]] {
        curl_upload(extra, &base, &file, &data);
    }
    // nginx kept its upstream connections: fewer accepted than requests.
    let c = srv.handle.counters();
    assert!(c.accepted < 7, "{c:?}");
    drop(proc);
    srv.stop();
}

#[test]
fn chromium_renders_the_page() {
    let Some(_heavy) = heavy_peer("chromium") else {
        return;
    };
    let srv = start(builder(), peer(), false);
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
            &format!("http://{}/", srv.addr),
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
    srv.stop();
}

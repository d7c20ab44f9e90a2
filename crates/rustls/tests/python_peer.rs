//! Python's `ssl` module (OpenSSL underneath) as a real peer of both TLS
//! servers, std and tokio: a verified HTTPS request over TLS 1.3 and over
//! TLS 1.2 (ALPN `http/1.1`, the name checked, the connection closed with
//! `close_notify`), plain HTTP sent to the TLS port, a client offering
//! only `h2`, and a real ClientHello cut in half and then stalled. The
//! server counts two failed setups and one setup past its deadline, and
//! answers a client after all of them.

mod support;

use http_net_std::ServerOptions;
use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

use support::*;

/// The client side, one JSON object of findings on stdout. Every socket
/// has a 10 s timeout, so the script ends on its own.
const SCRIPT: &str = r#"
import json, socket, ssl, sys, time
port, ca = int(sys.argv[1]), sys.argv[2]
out = {}

def get(maximum):
    ctx = ssl.create_default_context(cafile=ca)
    ctx.set_alpn_protocols(["http/1.1"])
    if maximum:
        ctx.maximum_version = ssl.TLSVersion.TLSv1_2
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    # A close without close_notify raises SSLEOFError instead of b"".
    s = ctx.wrap_socket(raw, server_hostname="localhost", suppress_ragged_eofs=False)
    r = {"version": s.version(), "alpn": s.selected_alpn_protocol()}
    s.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                r["close"] = "close_notify"
                break
            data += chunk
    except ssl.SSLEOFError:
        r["close"] = "truncated"
    r["response"] = data.decode("latin-1")
    s.close()
    return r

out["tls13"] = get(False)
out["tls12"] = get(True)

# Plain HTTP to the TLS port: whatever comes back is no HTTP response.
raw = socket.create_connection(("127.0.0.1", port), timeout=10)
raw.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
got = b""
try:
    while True:
        chunk = raw.recv(4096)
        if not chunk:
            break
        got += chunk
except OSError as e:
    out["plain_error"] = type(e).__name__
raw.close()
out["plain_reply_is_http"] = got.startswith(b"HTTP/")

# A client that offers only h2.
ctx = ssl.create_default_context(cafile=ca)
ctx.set_alpn_protocols(["h2"])
raw = socket.create_connection(("127.0.0.1", port), timeout=10)
try:
    s = ctx.wrap_socket(raw, server_hostname="localhost")
    out["h2"] = "accepted: " + str(s.selected_alpn_protocol())
    s.close()
except ssl.SSLError as e:
    out["h2"] = str(e)
raw.close()

# OpenSSL's own ClientHello, half of it sent, then nothing.
ctx = ssl.create_default_context(cafile=ca)
inc, outg = ssl.MemoryBIO(), ssl.MemoryBIO()
obj = ctx.wrap_bio(inc, outg, server_hostname="localhost")
try:
    obj.do_handshake()
except ssl.SSLWantReadError:
    pass
hello = outg.read()
raw = socket.create_connection(("127.0.0.1", port), timeout=10)
raw.sendall(hello[: len(hello) // 2])
t0 = time.monotonic()
try:
    while raw.recv(4096):
        pass
    out["stall_end"] = "closed"
except OSError as e:
    out["stall_end"] = type(e).__name__
out["stall_seconds"] = time.monotonic() - t0
out["hello_bytes"] = len(hello)
raw.close()

# After all of that, a request is still served.
out["after"] = get(False)
print(json.dumps(out))
"#;

/// The setup deadline the servers get here.
const SETUP: Duration = Duration::from_millis(800);

/// Runs the script against `addr`; its findings.
fn run_python(addr: SocketAddr, ca: &std::path::Path) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(addr.port().to_string())
        .arg(ca)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python3: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The value of `"key": ...` in the one-line JSON `json` (strings
/// unquoted), without a JSON parser.
fn field<'a>(json: &'a str, key: &str) -> &'a str {
    let pat = format!("\"{key}\": ");
    let at = json.find(&pat).unwrap_or_else(|| panic!("{key} in {json}")) + pat.len();
    let rest = &json[at..];
    if let Some(s) = rest.strip_prefix('"') {
        &s[..s.find('"').unwrap()]
    } else {
        let end = rest.find([',', '}']).unwrap();
        &rest[..end]
    }
}

/// What both servers must show: `json` from the script, and the server's
/// setup counters read by `counts` (failed, timed out).
fn check(json: &str, counts: impl Fn() -> (u64, u64)) {
    for (conn, version) in [
        ("tls13", "TLSv1.3"),
        ("tls12", "TLSv1.2"),
        ("after", "TLSv1.3"),
    ] {
        let start = json.find(&format!("\"{conn}\": {{")).unwrap();
        let part = &json[start..];
        let part = &part[..part.find('}').unwrap()];
        assert_eq!(field(part, "version"), version, "{conn}: {json}");
        assert_eq!(field(part, "alpn"), "http/1.1", "{conn}: {json}");
        assert_eq!(field(part, "close"), "close_notify", "{conn}: {json}");
        let response = field(part, "response");
        assert!(response.starts_with("HTTP/1.1 200 OK"), "{conn}: {json}");
        assert!(response.ends_with("hello"), "{conn}: {json}");
    }
    assert_eq!(field(json, "plain_reply_is_http"), "false", "{json}");
    let h2 = field(json, "h2");
    assert!(
        h2.to_ascii_lowercase().contains("no application protocol"),
        "{json}"
    );
    let stalled: f64 = field(json, "stall_seconds").parse().unwrap();
    // Cut at the setup deadline (counted from admission), not before, and
    // not at the 10 s socket timeout of the script.
    assert!(
        stalled > SETUP.as_secs_f64() * 0.5 && stalled < SETUP.as_secs_f64() + 2.0,
        "{json}"
    );
    assert!(eventually(|| counts() == (2, 1)), "{:?}: {json}", counts());
}

#[test]
fn python_ssl_against_the_std_server() {
    if !have("python3") {
        return;
    }
    let dir = TempDir::new("py-std");
    let c = cert(&["localhost"], false);
    let ca = write_pem(&dir, "ca.pem", &c.cert_pem);
    let b = http_net_std::Server::builder().setup_timeout(SETUP);
    let s = StdServer::start(b, server_tls(&dir, &c), false);
    let json = run_python(s.addr, &ca);
    let h = s.handle.clone();
    check(&json, || {
        let c = h.counters();
        (c.setup_failed, c.timed_out.setup)
    });
}

#[cfg(feature = "tokio")]
#[test]
fn python_ssl_against_the_tokio_server() {
    if !have("python3") {
        return;
    }
    let dir = TempDir::new("py-tokio");
    let c = cert(&["localhost"], false);
    let ca = write_pem(&dir, "ca.pem", &c.cert_pem);
    let b = http_net_tokio::Server::builder().setup_timeout(SETUP);
    let s = TokioServer::start(b, server_tls(&dir, &c), 200);
    let json = run_python(s.addr, &ca);
    let h = s.handle.clone();
    check(&json, || {
        let c = h.counters();
        (c.setup_failed, c.timed_out.setup)
    });
}

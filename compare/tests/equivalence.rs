//! Equal work, proven: on every input of the corpus, http-net, httparse with
//! the framing pass and picohttpparser with the framing pass accept and
//! reject alike (with the same status), and where they accept they extract
//! the same framing (head length, version, body, keep-alive, upgrade,
//! `Expect`) and httparse splits the head into the same method, target,
//! version and fields as http-net.
//!
//! The corpus: the bench inputs, the literal rows of the shared security
//! cases (`rows/security.rs`), and the rows below, written around every rule
//! of the framing pass.

use http_net_compare::rules::Verdict;
use http_net_compare::{httparse_side, httpnet, inputs, pico};
use http_net_head::Method;

/// One input: bytes fed whole; `client`: a response (to a GET).
struct Row {
    id: &'static str,
    client: bool,
    bytes: &'static [u8],
}

const SECURITY: &[Row] = include!("rows/security.rs");

/// The head crate's conformance table (plain data).
#[allow(dead_code)]
#[path = "../../crates/head/tests/cases/mod.rs"]
mod head_cases;

/// The framing crate's conformance table (plain data).
#[path = "../../crates/framing/tests/cases/mod.rs"]
mod framing_cases;

/// The conformance rows that run with the default limits, as
/// (name, bytes, response-to-method): requests and responses.
fn conformance_rows() -> Vec<(String, Vec<u8>, Option<&'static str>)> {
    let mut rows = Vec::new();
    for c in head_cases::CASES {
        if c.limits != head_cases::DEFAULT {
            continue;
        }
        let method = match c.mode {
            head_cases::Mode::Request => None,
            head_cases::Mode::Response => Some("GET"),
            _ => continue,
        };
        rows.push((format!("head:{}", c.name), c.input.to_vec(), method));
    }
    for c in framing_cases::LENGTH_CASES {
        if c.budget != framing_cases::DEFAULT_BUDGET {
            continue;
        }
        let method = match c.side {
            framing_cases::Side::Request => None,
            framing_cases::Side::Response { method, .. } => Some(method),
        };
        rows.push((format!("framing:{}", c.name), c.raw_head(), method));
    }
    rows
}

#[test]
fn conformance_rows_agree() {
    let mut failures = Vec::new();
    let rows = conformance_rows();
    assert!(rows.len() > 100, "only {} conformance rows", rows.len());
    for (id, b, method) in &rows {
        let v = match method {
            None => request_verdicts(b),
            Some(m) => response_verdicts(b, Method::from_bytes(m.as_bytes()), m.as_bytes()),
        };
        check(id, b, v, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} of {} conformance rows disagree:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

macro_rules! rows {
    ($($id:literal => $b:expr),* $(,)?) => { &[$(Row { id: $id, client: false, bytes: $b }),*] };
}

/// Requests written around each rule of the framing pass.
const OWN: &[Row] = rows![
    "get" => b"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
    "get-1.0-no-host" => b"GET / HTTP/1.0\r\n\r\n",
    "get-1.0-host" => b"GET / HTTP/1.0\r\nHost: a\r\n\r\n",
    "get-1.0-two-hosts" => b"GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n",
    "no-host" => b"GET / HTTP/1.1\r\n\r\n",
    "two-hosts" => b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    "empty-host" => b"GET / HTTP/1.1\r\nHost:\r\n\r\n",
    "host-port" => b"GET / HTTP/1.1\r\nHost: a.b:8080\r\n\r\n",
    "host-port-65536" => b"GET / HTTP/1.1\r\nHost: a:65536\r\n\r\n",
    "host-port-empty" => b"GET / HTTP/1.1\r\nHost: a:\r\n\r\n",
    "host-ipv6" => b"GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n",
    "host-ipv6-bad" => b"GET / HTTP/1.1\r\nHost: [::g]\r\n\r\n",
    "host-ipv4" => b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "host-userinfo" => b"GET / HTTP/1.1\r\nHost: u@a\r\n\r\n",
    "host-pct" => b"GET / HTTP/1.1\r\nHost: a%2db\r\n\r\n",
    "host-pct-bad" => b"GET / HTTP/1.1\r\nHost: a%2\r\n\r\n",
    "host-space" => b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
    "host-tab-trailing" => b"GET / HTTP/1.1\r\nHost: a\t\r\n\r\n",
    "http-1.2" => b"GET / HTTP/1.2\r\nHost: a\r\n\r\n",
    "http-1.9-te" => b"POST / HTTP/1.9\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
    "http-2.0" => b"GET / HTTP/2.0\r\nHost: a\r\n\r\n",
    "http-3.1" => b"GET / HTTP/3.1\r\nHost: a\r\n\r\n",
    "http-0.9" => b"GET / HTTP/0.9\r\nHost: a\r\n\r\n",
    "http-lower" => b"GET / http/1.1\r\nHost: a\r\n\r\n",
    "http-1.1x" => b"GET / HTTP/1.1x\r\nHost: a\r\n\r\n",
    "version-space" => b"GET / HTTP/1.1 \r\nHost: a\r\n\r\n",
    "leading-1" => b"\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    "leading-4" => b"\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    "leading-5" => b"\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    "leading-lf" => b"\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    "bare-lf-line" => b"GET / HTTP/1.1\nHost: a\r\n\r\n",
    "bare-lf-field" => b"GET / HTTP/1.1\r\nHost: a\nX: y\r\n\r\n",
    "bare-lf-end" => b"GET / HTTP/1.1\r\nHost: a\r\n\n",
    "bare-lf-after-ws" => b"GET / HTTP/1.1\r\nHost: a\r\nX: y \n\r\n",
    "bare-cr" => b"GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n",
    "two-spaces" => b"GET  / HTTP/1.1\r\nHost: a\r\n\r\n",
    "tab-separator" => b"GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n",
    "method-bad" => b"G(T / HTTP/1.1\r\nHost: a\r\n\r\n",
    "method-empty" => b" / HTTP/1.1\r\nHost: a\r\n\r\n",
    "method-ext" => b"PROPFIND / HTTP/1.1\r\nHost: a\r\n\r\n",
    "method-lower" => b"get / HTTP/1.1\r\nHost: a\r\n\r\n",
    "options-star" => b"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
    "get-star" => b"GET * HTTP/1.1\r\nHost: a\r\n\r\n",
    "options-star-slash" => b"OPTIONS */ HTTP/1.1\r\nHost: a\r\n\r\n",
    "absolute" => b"GET http://a.b/c?d HTTP/1.1\r\nHost: a.b\r\n\r\n",
    "absolute-v6" => b"GET http://[::1]:80/ HTTP/1.1\r\nHost: a\r\n\r\n",
    "absolute-userinfo" => b"GET http://u@a/ HTTP/1.1\r\nHost: a\r\n\r\n",
    "absolute-no-host" => b"GET http:/// HTTP/1.1\r\nHost: a\r\n\r\n",
    "absolute-bad-scheme" => b"GET 1http://a/ HTTP/1.1\r\nHost: a\r\n\r\n",
    "absolute-bracket-path" => b"GET http://a/[x] HTTP/1.1\r\nHost: a\r\n\r\n",
    "relative" => b"GET a/b HTTP/1.1\r\nHost: a\r\n\r\n",
    "connect" => b"CONNECT a.b:443 HTTP/1.1\r\nHost: a.b:443\r\n\r\n",
    "connect-v6" => b"CONNECT [::1]:443 HTTP/1.1\r\nHost: a\r\n\r\n",
    "connect-no-port" => b"CONNECT a.b HTTP/1.1\r\nHost: a.b\r\n\r\n",
    "connect-origin" => b"CONNECT / HTTP/1.1\r\nHost: a\r\n\r\n",
    "authority-get" => b"GET a.b:443 HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-quote" => b"GET /\"a\" HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-brace" => b"GET /{a} HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-pipe" => b"GET /a|b HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-backslash" => b"GET /a\\b HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-hash" => b"GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-caret" => b"GET /a^b HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-lt" => b"GET /<a> HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-utf8" => b"GET /\xc3\xa9 HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-del" => b"GET /\x7f HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-nul" => b"GET /\x00 HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-pct" => b"GET /a%20b?c=%2F HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-pct-bad" => b"GET /a%2 HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-pct-nonhex" => b"GET /a%zz HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-brackets-origin" => b"GET /[::1] HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-query" => b"GET /?a=b&c=d;e=f/g?h HTTP/1.1\r\nHost: a\r\n\r\n",
    "target-subdelims" => b"GET /!$&'()*+,;=:@-._~ HTTP/1.1\r\nHost: a\r\n\r\n",
    "cl" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
    "cl-zero" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
    "cl-leading-zeros" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0005\r\n\r\nhello",
    "cl-dup-equal" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
    "cl-list-equal" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5,5 , 5\r\n\r\nhello",
    "cl-list-empty-member" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5,\r\n\r\nhello",
    "cl-list-differ" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\nhello",
    "cl-plus" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello",
    "cl-hex" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello",
    "cl-empty" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n",
    "cl-u64-max" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 18446744073709551615\r\n\r\n",
    "cl-overflow" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 18446744073709551616\r\n\r\n",
    "cl-budget" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 8388608\r\n\r\n",
    "cl-over-budget" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 8388609\r\n\r\n",
    "cl-case" => b"POST / HTTP/1.1\r\nHost: a\r\ncOnTeNt-LeNgTh: 5\r\n\r\nhello",
    "te-chunked" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "te-chunked-case" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ChUnKeD\r\n\r\n",
    "te-empty-members" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: , ,chunked,\r\n\r\n",
    "te-empty" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\r\n\r\n",
    "te-gzip" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
    "te-gzip-chunked" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
    "te-two-lines" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n",
    "te-chunked-twice" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
    "te-chunked-param" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked;q=1\r\n\r\n",
    "te-10" => b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
    "te-cl" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
    "te-cl-bad" => b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\nTransfer-Encoding: chunked\r\n\r\n",
    "te-bad-cl-gzip" => b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\n",
    "keep-alive-10" => b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    "close-11" => b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    "close-list" => b"GET / HTTP/1.1\r\nHost: a\r\nConnection: foo, CLOSE ,bar\r\n\r\n",
    "close-substring" => b"GET / HTTP/1.1\r\nHost: a\r\nConnection: closed\r\n\r\n",
    "close-and-keep-alive-10" => b"GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n",
    "upgrade" => b"GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
    "upgrade-no-token" => b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n",
    "upgrade-no-field" => b"GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\n\r\n",
    "expect-continue" => b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx",
    "expect-other" => b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx",
    "expect-empty" => b"POST / HTTP/1.1\r\nHost: a\r\nExpect:\r\n\r\n",
    "expect-10" => b"POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx",
    "expect-10-other" => b"POST / HTTP/1.0\r\nExpect: nope\r\n\r\n",
    "expect-list" => b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue, foo\r\n\r\n",
    "obs-fold" => b"GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n",
    "ws-first-line" => b"GET / HTTP/1.1\r\n Host: a\r\n\r\n",
    "ws-before-colon" => b"GET / HTTP/1.1\r\nHost : a\r\n\r\n",
    "empty-name" => b"GET / HTTP/1.1\r\nHost: a\r\n: b\r\n\r\n",
    "no-colon" => b"GET / HTTP/1.1\r\nHost: a\r\nX\r\n\r\n",
    "name-bad" => b"GET / HTTP/1.1\r\nHost: a\r\nX(y): b\r\n\r\n",
    "value-empty" => b"GET / HTTP/1.1\r\nHost: a\r\nX:\r\n\r\n",
    "value-spaces" => b"GET / HTTP/1.1\r\nHost: a\r\nX:   \r\n\r\n",
    "value-trailing" => b"GET / HTTP/1.1\r\nHost: a\r\nX:  b  \t\r\n\r\n",
    "value-tab" => b"GET / HTTP/1.1\r\nHost: a\r\nX: a\tb\r\n\r\n",
    "value-obs-text" => b"GET / HTTP/1.1\r\nHost: a\r\nX: caf\xc3\xa9\xff\r\n\r\n",
    "value-nul" => b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n",
    "value-del" => b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x7fb\r\n\r\n",
    "value-vt" => b"GET / HTTP/1.1\r\nHost: a\r\nX: \x0bb\r\n\r\n",
    "partial-line" => b"GET / HTTP/1.1\r\nHost: a\r\n",
    "partial-cr" => b"GET / HTTP/1.1\r\nHost: a\r\n\r",
    "partial-method" => b"GE",
    "empty" => b"",
];

fn request_verdicts(buf: &[u8]) -> [Verdict; 3] {
    let mut p = httpnet::request_parser();
    let mut f = httpnet::storage();
    let mut hs = httparse_side::storage();
    let mut ps = pico::storage();
    [
        httpnet::request(&mut p, buf, &mut f),
        httparse_side::request(buf, &mut hs),
        pico::request(buf, &mut ps),
    ]
}

fn response_verdicts(buf: &[u8], method: Method, name: &[u8]) -> [Verdict; 3] {
    let mut p = httpnet::response_parser();
    let mut f = httpnet::storage();
    let mut hs = httparse_side::storage();
    let mut ps = pico::storage();
    [
        httpnet::response(&mut p, buf, method, &mut f),
        httparse_side::response(buf, name, &mut hs),
        pico::response(buf, name, &mut ps),
    ]
}

const SIDES: [&str; 3] = ["http-net", "httparse+pass", "picohttpparser+pass"];

fn check(id: &str, input: &[u8], v: [Verdict; 3], failures: &mut Vec<String>) {
    if v[1] != v[0] || v[2] != v[0] {
        failures.push(format!(
            "{id} {:?}:\n    {}: {:?}\n    {}: {:?}\n    {}: {:?}",
            String::from_utf8_lossy(input),
            SIDES[0],
            v[0],
            SIDES[1],
            v[1],
            SIDES[2],
            v[2]
        ));
    }
}

fn large_rows() -> Vec<(String, Vec<u8>)> {
    let mut rows = Vec::new();
    for n in [99usize, 100, 101] {
        let mut r = b"GET / HTTP/1.1\r\nHost: a\r\n".to_vec();
        for i in 1..n {
            r.extend_from_slice(format!("X-{i}: v\r\n").as_bytes());
        }
        r.extend_from_slice(b"\r\n");
        rows.push((format!("{n}-fields"), r));
    }
    for t in [8191usize, 8192, 8193] {
        let mut r = b"GET /".to_vec();
        r.resize(4 + t, b'a');
        r.extend_from_slice(b" HTTP/1.1\r\nHost: a\r\n\r\n");
        rows.push((format!("target-{t}"), r));
    }
    for total in [16383usize, 16384, 16385] {
        let mut r = b"GET / HTTP/1.1\r\nHost: a\r\nX: ".to_vec();
        let fill = total - r.len() - 4;
        r.resize(r.len() + fill, b'v');
        r.extend_from_slice(b"\r\n\r\n");
        assert_eq!(r.len(), total);
        rows.push((format!("head-{total}"), r));
    }
    rows
}

#[test]
fn requests_accept_and_reject_alike() {
    let mut failures = Vec::new();
    let mut count = 0;
    let bench = [
        ("browser_get", inputs::BROWSER_GET),
        ("small_get", inputs::SMALL_GET),
        ("exchange_request", inputs::EXCHANGE_REQUEST),
    ];
    for (id, b) in bench {
        check(id, b, request_verdicts(b), &mut failures);
        count += 1;
    }
    for row in SECURITY.iter().chain(OWN).filter(|r| !r.client) {
        check(
            row.id,
            row.bytes,
            request_verdicts(row.bytes),
            &mut failures,
        );
        count += 1;
    }
    for (id, b) in large_rows() {
        check(&id, &b, request_verdicts(&b), &mut failures);
        count += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {count} inputs disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_prefix_is_partial_everywhere() {
    let mut failures = Vec::new();
    for b in [
        inputs::BROWSER_GET,
        inputs::SMALL_GET,
        inputs::EXCHANGE_REQUEST,
    ] {
        for n in 0..b.len() {
            let v = request_verdicts(&b[..n]);
            if v != [Verdict::Partial; 3] {
                check(&format!("prefix {n}"), &b[..n], v, &mut failures);
                if v[0] != Verdict::Partial {
                    failures.push(format!("prefix {n}: http-net not partial: {:?}", v[0]));
                }
            }
        }
    }
    let head_len = inputs::RESPONSE_1K.len() - 1024;
    for n in 0..head_len {
        let v = response_verdicts(&inputs::RESPONSE_1K[..n], Method::Get, b"GET");
        if v != [Verdict::Partial; 3] {
            check(
                &format!("response prefix {n}"),
                &inputs::RESPONSE_1K[..n],
                v,
                &mut failures,
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Responses written around each rule of the response pass.
const OWN_RESPONSES: &[&[u8]] = &[
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
    b"HTTP/1.1 200 OK\r\n\r\nclose-delimited",
    b"HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n",
    b"HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n",
    b"HTTP/1.1 099 X\r\n\r\n",
    b"HTTP/1.1 999 X\r\nContent-Length: 0\r\n\r\n",
    b"HTTP/1.1 20 X\r\n\r\n",
    b"HTTP/1.1 2000 X\r\n\r\n",
    b"HTTP/1.1  200 OK\r\n\r\n",
    b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
    b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok",
    b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
    b"HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nok",
    b"HTTP/2.0 200 OK\r\n\r\n",
    b"HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n",
    b"HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n",
    b"HTTP/1.1 100 Continue\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n",
    b"HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok",
    b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 8388609\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nX: a\r\nContent-Length: 0\n\r\n",
    b"HTTP/1.1 200 OK\nContent-Length: 2\n\nok",
    b"HTTP/1.1 200 OK\r\nX : a\r\n\r\n",
    b"HTTP/1.1 200 O\x01K\r\n\r\n",
    b"HTTP/1.1 200 \xc3\xa9\t!\r\nContent-Length: 0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nSet-Cookie: a=b\x01c\r\nContent-Length: 0\r\n\r\n",
    b"\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
];

#[test]
fn responses_accept_and_reject_alike() {
    let mut failures = Vec::new();
    let mut count = 0;
    let rows = SECURITY
        .iter()
        .filter(|r| r.client)
        .map(|r| (r.id.to_string(), r.bytes))
        .chain(
            OWN_RESPONSES
                .iter()
                .enumerate()
                .map(|(i, b)| (format!("response-{i}"), *b)),
        )
        .chain([("response_1k".to_string(), inputs::RESPONSE_1K)]);
    for (id, b) in rows {
        for (m, name) in [
            (Method::Get, &b"GET"[..]),
            (Method::Head, b"HEAD"),
            (Method::Connect, b"CONNECT"),
        ] {
            check(
                &format!("{id} ({})", String::from_utf8_lossy(name)),
                b,
                response_verdicts(b, m, name),
                &mut failures,
            );
            count += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} inputs disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn accepted_heads_split_alike() {
    let mut failures = Vec::new();
    let inputs = SECURITY
        .iter()
        .chain(OWN)
        .filter(|r| !r.client)
        .map(|r| (r.id, r.bytes))
        .chain([
            ("browser_get", inputs::BROWSER_GET),
            ("exchange_request", inputs::EXCHANGE_REQUEST),
        ]);
    for (id, b) in inputs {
        let v = request_verdicts(b);
        if !matches!(v[0], Verdict::Complete(_)) || v[1] != v[0] {
            continue;
        }
        let (Some(ours), Some(theirs)) =
            (httpnet::request_parts(b), httparse_side::request_parts(b))
        else {
            continue;
        };
        // httparse reports HTTP/1.x (x > 1) as a version error, the pass reads
        // it as 1.1 the way http-net does: compare the rest.
        if ours != theirs && (ours.0 != theirs.0 || ours.1 != theirs.1 || ours.3 != theirs.3) {
            failures.push(format!("{id}: http-net {ours:?}\n   httparse {theirs:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

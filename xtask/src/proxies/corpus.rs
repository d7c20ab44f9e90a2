//! The payloads: every request row of the conformance tables (head and
//! framing), every server-side literal of the shared security rows, and
//! the proxy-specific cases written here (CL.TE, TE.CL, TE.TE, hop-by-hop
//! framing fields, `Expect`, pipelining, `Connection: close` followed by
//! more bytes, upgrade and CONNECT attempts, oversized heads). Each payload
//! is sent whole on a fresh attacker connection.

// The tables are plain data written for `include!`-style reuse: the fuzz
// seeds read them the same way, so the corpus grows with them.
#[allow(dead_code)]
#[path = "../../../crates/head/tests/cases/mod.rs"]
mod head_cases;

#[path = "../../../crates/framing/tests/cases/mod.rs"]
mod framing_cases;

/// A row of the shared security cases (the list the compare crate uses).
struct Row {
    id: &'static str,
    client: bool,
    bytes: &'static [u8],
}

const SECURITY: &[Row] = include!("../../../compare/tests/rows/security.rs");

/// One payload: the bytes an attacker sends on one connection.
#[derive(Clone, Debug)]
pub struct Payload {
    /// Unique name, `source/row`.
    pub name: String,
    /// One line: why a proxy in front of http-net might get it wrong.
    pub reason: String,
    /// The bytes, sent in one write.
    pub bytes: Vec<u8>,
    /// Framed by Content-Length alone and harmless: a desync on it, even
    /// behind the naive relay, means the check is broken.
    pub benign: bool,
}

/// A complete request the smuggled bytes can carry.
const SMUGGLED: &str = "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n";
/// An unfinished request: the next bytes on the upstream connection (the
/// victim's) would become its field value.
const PREFIX: &str = "GET /smuggled HTTP/1.1\r\nX-Ignore: ";

fn chunk_of(data: &str) -> String {
    format!("{:x}\r\n{data}\r\n0\r\n\r\n", data.len())
}

/// A POST head with `fields` (each ending in CRLF) and `body`.
fn post(fields: &str, body: &str) -> Vec<u8> {
    format!("POST / HTTP/1.1\r\nHost: a\r\n{fields}\r\n{body}").into_bytes()
}

/// Every payload, de-duplicated by bytes (the first name wins).
pub fn all() -> Vec<Payload> {
    let mut out = Vec::new();
    own(&mut out);
    tables(&mut out);
    security(&mut out);
    let mut seen = std::collections::HashSet::new();
    out.retain(|p: &Payload| seen.insert(p.bytes.clone()));
    out
}

fn push(out: &mut Vec<Payload>, name: &str, reason: &str, bytes: Vec<u8>) {
    out.push(Payload {
        name: name.to_string(),
        reason: reason.to_string(),
        bytes,
        benign: false,
    });
}

fn tables(out: &mut Vec<Payload>) {
    for c in head_cases::CASES {
        match c.mode {
            head_cases::Mode::Request => push(
                out,
                &format!("head/{}", c.name),
                &format!("head table row ({}), sent as is", c.rfc),
                c.input.to_vec(),
            ),
            head_cases::Mode::Block => {
                let mut b = post("Transfer-Encoding: chunked\r\n", "0\r\n");
                b.extend_from_slice(c.input);
                push(
                    out,
                    &format!("head/trailer/{}", c.name),
                    &format!(
                        "head table field-block row as the trailer section of a chunked body ({})",
                        c.rfc
                    ),
                    b,
                )
            }
            _ => {}
        }
    }
    for c in framing_cases::LENGTH_CASES {
        if !matches!(c.side, framing_cases::Side::Request) {
            continue;
        }
        let mut b = c.raw_head();
        // A body the row's own reading consumes whole; otherwise a chunked
        // body, so that a proxy reading CL 5 and an origin reading chunked
        // (or the reverse) leave different bytes behind.
        match c.expect {
            framing_cases::Expect::Length(n) if n <= 1024 => {
                b.extend(std::iter::repeat_n(b'x', n as usize))
            }
            framing_cases::Expect::Length(_) => {}
            _ => b.extend_from_slice(b"5\r\nhello\r\n0\r\n\r\n"),
        }
        push(
            out,
            &format!("framing/{}", c.name),
            &format!("framing table body-length row ({})", c.rfc),
            b,
        );
    }
    for c in framing_cases::CHUNK_CASES
        .iter()
        .chain(framing_cases::TRAILER_CASES)
    {
        let mut b = post("Transfer-Encoding: chunked\r\n", "");
        b.extend_from_slice(c.input);
        push(
            out,
            &format!("chunked/{}", c.name),
            &format!(
                "framing table chunked-body row after a chunked head ({})",
                c.rfc
            ),
            b,
        );
    }
}

fn security(out: &mut Vec<Payload>) {
    for r in SECURITY {
        // Client rows are responses; `...` rows are fragments, not requests.
        if r.client || r.bytes.starts_with(b"...") {
            continue;
        }
        push(
            out,
            &format!("security/{}", r.id),
            "shared security case, the literal bytes of the row",
            r.bytes.to_vec(),
        );
    }
}

/// TE obfuscations: a field block (each line ending in CRLF) that a
/// lenient reader may take as `Transfer-Encoding: chunked` and a strict one
/// may not.
const TE_FORMS: &[(&str, &str)] = &[
    ("plain", "Transfer-Encoding: chunked\r\n"),
    ("xchunked", "Transfer-Encoding: xchunked\r\n"),
    ("space-before-colon", "Transfer-Encoding : chunked\r\n"),
    ("htab-value", "Transfer-Encoding:\tchunked\r\n"),
    (
        "second-line-x",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n",
    ),
    (
        "first-line-x",
        "Transfer-Encoding: x\r\nTransfer-Encoding: chunked\r\n",
    ),
    (
        "twice",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
    ),
    ("bare-lf-before", "X: y\nTransfer-Encoding: chunked\r\n"),
    ("name-lf-colon", "Transfer-Encoding\n: chunked\r\n"),
    ("leading-space", " Transfer-Encoding: chunked\r\n"),
    ("obs-fold-value", "Transfer-Encoding:\r\n chunked\r\n"),
    ("folded-after-x", "X: y\r\n Transfer-Encoding: chunked\r\n"),
    ("chunk", "Transfer-Encoding: chunk\r\n"),
    ("quoted", "Transfer-Encoding: \"chunked\"\r\n"),
    (
        "chunked-identity",
        "Transfer-Encoding: chunked, identity\r\n",
    ),
    (
        "identity-chunked",
        "Transfer-Encoding: identity, chunked\r\n",
    ),
    ("gzip-chunked", "Transfer-Encoding: gzip, chunked\r\n"),
    ("chunked-semicolon", "Transfer-Encoding: chunked;\r\n"),
    ("upper-case", "TRANSFER-ENCODING: CHUNKED\r\n"),
    ("underscore-name", "Transfer_Encoding: chunked\r\n"),
    ("vt-before", "Transfer-Encoding:\x0bchunked\r\n"),
    ("nul-after", "Transfer-Encoding: chunked\x00\r\n"),
    ("comma-first", "Transfer-Encoding: ,chunked\r\n"),
    ("nbsp", "Transfer-Encoding: \u{a0}chunked\r\n"),
    ("cr-in-value", "Transfer-Encoding: chunked\rX: y\r\n"),
    (
        "hop-by-hop",
        "Transfer-Encoding: chunked\r\nConnection: Transfer-Encoding\r\n",
    ),
];

/// Content-Length forms around a 35-byte body that is itself a request.
const CL_FORMS: &[(&str, &str)] = &[
    (
        "cl0-then-cl35",
        "Content-Length: 0\r\nContent-Length: 35\r\n",
    ),
    (
        "cl35-then-cl0",
        "Content-Length: 35\r\nContent-Length: 0\r\n",
    ),
    ("list-35-0", "Content-Length: 35, 0\r\n"),
    ("list-0-35", "Content-Length: 0, 35\r\n"),
    ("list-35-35", "Content-Length: 35, 35\r\n"),
    (
        "twice-equal",
        "Content-Length: 35\r\nContent-length: 35\r\n",
    ),
    ("leading-zero", "Content-Length: 035\r\n"),
    ("plus", "Content-Length: +35\r\n"),
    ("hex", "Content-Length: 0x23\r\n"),
    ("inner-space", "Content-Length: 3 5\r\n"),
    ("decimal-point", "Content-Length: 35.0\r\n"),
    ("empty-then-35", "Content-Length:\r\nContent-Length: 35\r\n"),
    ("space-before-colon", "Content-Length : 35\r\n"),
    ("obs-fold-value", "Content-Length: 0\r\n 35\r\n"),
    ("bare-lf", "Content-Length: 35\nX: y\r\n"),
    (
        "hop-by-hop",
        "Content-Length: 35\r\nConnection: Content-Length\r\n",
    ),
    (
        "hop-by-hop-close",
        "Content-Length: 35\r\nConnection: close, Content-Length\r\n",
    ),
    ("overflow", "Content-Length: 18446744073709551651\r\n"),
    ("underscore-name", "Content_Length: 35\r\n"),
    ("nul", "Content-Length: 35\x00\r\n"),
];

fn own(out: &mut Vec<Payload>) {
    let benign: &[(&str, &str, Vec<u8>)] = &[
        (
            "get",
            "a plain GET, the baseline",
            b"GET /plain HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(),
        ),
        (
            "post-cl",
            "a POST with a 5-byte body",
            post("Content-Length: 5\r\n", "hello"),
        ),
        (
            "pipelined-2",
            "two GETs in one write",
            b"GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(),
        ),
        (
            "http10-keep-alive",
            "an HTTP/1.0 request asking to persist",
            b"GET /10 HTTP/1.0\r\nHost: a\r\nConnection: keep-alive\r\n\r\n".to_vec(),
        ),
    ];
    for (name, reason, bytes) in benign {
        out.push(Payload {
            name: format!("benign/{name}"),
            reason: format!(
                "{reason} (benign: framed by Content-Length alone, which even the naive relay \
                 reads right, so a desync here means the check is wrong)"
            ),
            bytes: bytes.clone(),
            benign: true,
        });
    }

    // CL.TE and TE.CL for every TE form: a CL reader and a TE reader end
    // the body at different bytes, and what is left starts a request.
    for (form, te) in TE_FORMS {
        let body = format!("0\r\n\r\n{PREFIX}");
        push(
            out,
            &format!("cl-te/{form}"),
            "CL covers a last chunk and a request prefix: a TE reader leaves the prefix on the upstream connection",
            post(&format!("Content-Length: {}\r\n{te}", body.len()), &body),
        );
        let inner = "GET /smuggled HTTP/1.1\r\nHost: a\r\nContent-Length: 15\r\n\r\nx=1";
        let body = chunk_of(inner);
        let size_line = format!("{:x}\r\n", inner.len());
        push(
            out,
            &format!("te-cl/{form}"),
            "CL covers only the chunk-size line: a CL reader leaves a whole request in the chunk data",
            post(&format!("{te}Content-Length: {}\r\n", size_line.len()), &body),
        );
        push(
            out,
            &format!("te-only/{form}"),
            "TE alone with a smuggled request after the last chunk: a reader that ignores this TE form reads no body",
            post(te, &format!("0\r\n\r\n{SMUGGLED}")),
        );
    }
    for (form, cl) in CL_FORMS {
        push(
            out,
            &format!("cl/{form}"),
            "a Content-Length form two readers may read as 0 and 35: the 35-byte body is a whole request",
            post(cl, SMUGGLED),
        );
    }

    let mut add = |name: &str, reason: &str, bytes: Vec<u8>| push(out, name, reason, bytes);
    // The body is exactly the next request.
    add(
        "body/post-cl-is-request",
        "the 35-byte body is exactly a request: it must stay a body",
        post("Content-Length: 35\r\n", SMUGGLED),
    );
    add(
        "body/get-cl-is-request",
        "a GET body (framed by CL) that is exactly a request (CL.0 family)",
        format!("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 35\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    add(
        "body/head-cl-is-request",
        "a HEAD body that is exactly a request: framing comes from the fields, not the method",
        format!("HEAD / HTTP/1.1\r\nHost: a\r\nContent-Length: 35\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    add(
        "body/options-cl-is-request",
        "an OPTIONS body that is exactly a request",
        format!("OPTIONS / HTTP/1.1\r\nHost: a\r\nContent-Length: 35\r\n\r\n{SMUGGLED}")
            .into_bytes(),
    );
    add(
        "body/chunk-is-request",
        "chunk data that is exactly a request",
        post("Transfer-Encoding: chunked\r\n", &chunk_of(SMUGGLED)),
    );
    add(
        "body/cl0-then-request",
        "CL 0 and a request after it: the next bytes are the next request",
        format!(
            "{}{SMUGGLED}",
            String::from_utf8_lossy(&post("Content-Length: 0\r\n", ""))
        )
        .into_bytes(),
    );
    add(
        "body/get-no-framing-then-request",
        "a GET without framing fields, then a request",
        format!("GET / HTTP/1.1\r\nHost: a\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    add(
        "body/short-cl",
        "CL 100 with 5 bytes: the proxy must wait or refuse, never reuse the rest",
        post("Content-Length: 100\r\n", "hello"),
    );
    add(
        "body/cl-prefix-left-open",
        "CL covers a request prefix that the victim's bytes could complete",
        post(&format!("Content-Length: {}\r\n", PREFIX.len()), PREFIX),
    );
    add(
        "body/post-chunked",
        "a plain chunked POST: harmless to a front that reads TE, fatal to one that frames by CL only",
        post("Transfer-Encoding: chunked\r\n", "5\r\nhello\r\n0\r\n\r\n"),
    );
    // Pipelining.
    add("pipeline/three", "three GETs in one write: answered in order, none lost", b"GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\nGET /3 HTTP/1.1\r\nHost: a\r\n\r\n".to_vec());
    add(
        "pipeline/post-then-get",
        "a CL body, then a GET in the same write",
        format!(
            "{}GET /2 HTTP/1.1\r\nHost: a\r\n\r\n",
            String::from_utf8_lossy(&post("Content-Length: 5\r\n", "hello"))
        )
        .into_bytes(),
    );
    add(
        "pipeline/chunked-then-get",
        "a chunked body, then a GET in the same write",
        format!(
            "{}GET /2 HTTP/1.1\r\nHost: a\r\n\r\n",
            String::from_utf8_lossy(&post(
                "Transfer-Encoding: chunked\r\n",
                "5\r\nhello\r\n0\r\n\r\n"
            ))
        )
        .into_bytes(),
    );
    add(
        "pipeline/get-then-garbage",
        "a GET, then bytes that are no request",
        b"GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGARBAGE\r\n\r\n".to_vec(),
    );
    add(
        "pipeline/get-then-prefix",
        "a GET, then an unfinished request",
        format!("GET /1 HTTP/1.1\r\nHost: a\r\n\r\n{PREFIX}").into_bytes(),
    );
    add(
        "pipeline/leading-crlf",
        "empty lines between pipelined requests",
        b"GET /1 HTTP/1.1\r\nHost: a\r\n\r\n\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(),
    );
    // Connection: close followed by more bytes.
    add(
        "close/get-then-request",
        "Connection: close, then a request: nothing after close may be processed",
        format!("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    add(
        "close/post-then-request",
        "a POST with Connection: close and a body, then a request",
        format!(
            "{}{SMUGGLED}",
            String::from_utf8_lossy(&post("Connection: close\r\nContent-Length: 5\r\n", "hello"))
        )
        .into_bytes(),
    );
    add(
        "close/http10-then-request",
        "an HTTP/1.0 request (closes by default), then a request",
        format!("GET / HTTP/1.0\r\nHost: a\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    add(
        "close/then-prefix",
        "Connection: close, then an unfinished request",
        format!("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n{PREFIX}").into_bytes(),
    );
    add(
        "close/keep-alive-and-close",
        "Connection: keep-alive, close: close wins",
        format!("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, close\r\n\r\n{SMUGGLED}")
            .into_bytes(),
    );
    // Expect.
    add(
        "expect/body-sent-at-once",
        "Expect: 100-continue with the body already sent",
        post("Expect: 100-continue\r\nContent-Length: 5\r\n", "hello"),
    );
    add(
        "expect/no-body-sent",
        "Expect: 100-continue and no body: the proxy waits or refuses",
        post("Expect: 100-continue\r\nContent-Length: 5\r\n", ""),
    );
    add(
        "expect/body-is-request",
        "Expect: 100-continue with a body that is exactly a request",
        post("Expect: 100-continue\r\nContent-Length: 35\r\n", SMUGGLED),
    );
    add(
        "expect/chunked",
        "Expect: 100-continue with a chunked body",
        post(
            "Expect: 100-continue\r\nTransfer-Encoding: chunked\r\n",
            "5\r\nhello\r\n0\r\n\r\n",
        ),
    );
    add(
        "expect/http10",
        "Expect on HTTP/1.0 must be ignored",
        b"POST / HTTP/1.0\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello"
            .to_vec(),
    );
    add(
        "expect/unknown",
        "an unknown expectation (417)",
        post("Expect: x-unknown\r\nContent-Length: 5\r\n", "hello"),
    );
    add(
        "expect/twice",
        "Expect: 100-continue on two lines",
        post(
            "Expect: 100-continue\r\nExpect: 100-continue\r\nContent-Length: 5\r\n",
            "hello",
        ),
    );
    add(
        "expect/get-then-request",
        "a GET with Expect and no body, then a request",
        format!("GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    // Upgrade and CONNECT.
    add("upgrade/websocket-refused-then-request", "a WebSocket upgrade the origin refuses, then a request: only a 101 switches", b"GET /socket HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\nGET /internal HTTP/1.1\r\nHost: a\r\n\r\n".to_vec());
    add("upgrade/h2c-then-request", "an h2c upgrade, then a request", b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nConnection: Upgrade, HTTP2-Settings\r\n\r\nGET /internal HTTP/1.1\r\nHost: a\r\n\r\n".to_vec());
    add(
        "upgrade/with-body-then-bytes",
        "an upgrade request with a body, then bytes of another protocol",
        post(
            "Upgrade: foo/2\r\nConnection: Upgrade\r\nContent-Length: 5\r\n",
            "hello\x00\x01",
        ),
    );
    add(
        "upgrade/connection-only",
        "Connection: upgrade without Upgrade is no upgrade",
        format!(
            "{}{SMUGGLED}",
            String::from_utf8_lossy(&post(
                "Connection: upgrade\r\nContent-Length: 5\r\n",
                "hello"
            ))
        )
        .into_bytes(),
    );
    add(
        "upgrade/h2-preface",
        "the HTTP/2 preface on an HTTP/1 connection",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec(),
    );
    add(
        "connect/then-request",
        "CONNECT, then a request: tunnel bytes only after a 2xx",
        format!("CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    add("connect/with-body", "CONNECT with a body that is a request", format!("CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\nContent-Length: 35\r\n\r\n{SMUGGLED}").into_bytes());
    add(
        "connect/origin-form",
        "CONNECT with an origin-form target",
        format!("CONNECT / HTTP/1.1\r\nHost: a\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    // Oversized heads.
    let big = |n: usize| "A".repeat(n);
    add(
        "oversized/field-20k",
        "one 20 KiB field: over most proxies' line limit",
        format!("GET / HTTP/1.1\r\nHost: a\r\nX: {}\r\n\r\n", big(20 * 1024)).into_bytes(),
    );
    add(
        "oversized/field-20k-then-request",
        "a 20 KiB field, then a request",
        format!(
            "GET / HTTP/1.1\r\nHost: a\r\nX: {}\r\n\r\n{SMUGGLED}",
            big(20 * 1024)
        )
        .into_bytes(),
    );
    add(
        "oversized/head-100k",
        "a 100 KiB head in 100 fields",
        format!(
            "GET / HTTP/1.1\r\nHost: a\r\n{}\r\n",
            (0..100)
                .map(|i| format!("X-{i}: {}\r\n", big(1000)))
                .collect::<String>()
        )
        .into_bytes(),
    );
    add(
        "oversized/target-70k",
        "a 70 000-byte target (414)",
        format!("GET /{} HTTP/1.1\r\nHost: a\r\n\r\n", big(70_000)).into_bytes(),
    );
    add(
        "oversized/fields-300",
        "300 fields: over the origin's field count",
        format!(
            "GET / HTTP/1.1\r\nHost: a\r\n{}\r\n",
            (0..300)
                .map(|i| format!("X-{i}: v\r\n"))
                .collect::<String>()
        )
        .into_bytes(),
    );
    add(
        "oversized/name-300-then-cl",
        "a 300-byte field name before CL (8-bit length overflow family)",
        post(
            &format!("{}: v\r\nContent-Length: 5\r\n", "X".repeat(300)),
            "hello",
        ),
    );
    add(
        "oversized/cl-te-after-big-field",
        "CL.TE after a 12 KiB field",
        post(
            &format!(
                "X: {}\r\nContent-Length: {}\r\nTransfer-Encoding: chunked\r\n",
                big(12 * 1024),
                5 + PREFIX.len()
            ),
            &format!("0\r\n\r\n{PREFIX}"),
        ),
    );
    add(
        "oversized/chunk-ext-20k",
        "a 20 KiB chunk extension",
        post(
            "Transfer-Encoding: chunked\r\n",
            &format!("5;{}\r\nhello\r\n0\r\n\r\n", "x".repeat(20 * 1024)),
        ),
    );
    add(
        "oversized/many-chunks",
        "2000 one-byte chunks",
        post(
            "Transfer-Encoding: chunked\r\n",
            &format!("{}0\r\n\r\n", "1\r\nA\r\n".repeat(2000)),
        ),
    );
    add(
        "oversized/trailer-20k",
        "a 20 KiB trailer, then a request",
        post(
            "Transfer-Encoding: chunked\r\n",
            &format!("0\r\nX: {}\r\n\r\n{SMUGGLED}", big(20 * 1024)),
        ),
    );
    // Chunk tricks with a request behind them.
    let chunk_tricks: &[(&str, &str, String)] = &[
        (
            "size-longest-prefix",
            "`0_2e` read as 0 by a longest-prefix reader",
            format!("0_2e\r\n\r\n{SMUGGLED}"),
        ),
        (
            "size-0x",
            "`0x23` read as hex by strtol",
            format!("0x23\r\n{SMUGGLED}\r\n0\r\n\r\n"),
        ),
        (
            "size-overflow",
            "17 hex digits wrap to 0x23",
            format!("10000000000000023\r\n{SMUGGLED}\r\n0\r\n\r\n"),
        ),
        (
            "size-plus",
            "`+23` read by a general integer parser",
            format!("+23\r\n{SMUGGLED}\r\n0\r\n\r\n"),
        ),
        (
            "size-space",
            "whitespace before the size",
            format!(" 23\r\n{SMUGGLED}\r\n0\r\n\r\n"),
        ),
        (
            "size-trailing-space",
            "whitespace after the size",
            format!("23 \r\n{SMUGGLED}\r\n0\r\n\r\n"),
        ),
        (
            "ext-bare-lf",
            "a LF inside an extension: an LF reader and a CRLF reader see different data",
            format!("2;a\nbb\r\n{}\r\n0\r\n\r\n", "hi"),
        ),
        (
            "ext-bare-cr",
            "a CR inside an extension",
            format!("5;a\rb\r\nhello\r\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "size-bare-lf",
            "the size line ends in a bare LF",
            format!("5\nhello\r\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "data-bare-lf",
            "the data ends in a bare LF",
            format!("5\r\nhello\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "data-no-crlf",
            "two bytes instead of CRLF after the data",
            format!("5\r\nAAAAAXX2\r\nBB\r\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "data-too-long",
            "the data is one byte longer than its size",
            format!("4\r\nhello\r\n0\r\n\r\n{SMUGGLED}"),
        ),
        (
            "last-chunk-00",
            "a last chunk of two zeros",
            format!("5\r\nhello\r\n00\r\n\r\n{SMUGGLED}"),
        ),
        (
            "no-last-chunk",
            "an empty line where the last chunk belongs",
            format!("1\r\nZ\r\n\r\n\r\n{SMUGGLED}"),
        ),
        (
            "trailer-cl",
            "a Content-Length trailer must never reframe",
            format!("0\r\nContent-Length: 35\r\n\r\n{SMUGGLED}"),
        ),
        (
            "trailer-te",
            "a Transfer-Encoding trailer must never reframe",
            format!("0\r\nTransfer-Encoding: chunked\r\n\r\n{SMUGGLED}"),
        ),
        (
            "trailer-request-line",
            "a trailer line that is a request line",
            format!("0\r\nX: a\r\n{SMUGGLED}"),
        ),
        (
            "trailer-fold",
            "an obs-fold in the trailer section",
            format!("0\r\nX: a\r\n b\r\n\r\n{SMUGGLED}"),
        ),
        (
            "unterminated",
            "a chunk never finished: the victim's bytes would be chunk data",
            "5\r\nhel".to_string(),
        ),
        (
            "data-holds-last-chunk",
            "chunk data holding CRLF and a last chunk",
            chunk_of("0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"),
        ),
    ];
    for (name, reason, body) in chunk_tricks {
        add(
            &format!("chunk-trick/{name}"),
            reason,
            post("Transfer-Encoding: chunked\r\n", body),
        );
    }
    // Line ends and folds around framing fields.
    add(
        "lines/request-line-lf",
        "a request line ending in a bare LF, then a request",
        format!("GET / HTTP/1.1\nHost: a\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    add(
        "lines/all-lf",
        "a head with LF line ends only, then a request",
        format!("GET / HTTP/1.1\nHost: a\nContent-Length: 35\n\n{SMUGGLED}").into_bytes(),
    );
    add(
        "lines/cr-only",
        "a head with CR line ends only",
        b"GET / HTTP/1.1\rHost: a\rContent-Length: 35\r\r".to_vec(),
    );
    add(
        "lines/lf-cr-lf",
        "a head ending LF CR LF",
        format!("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\n\r\n{SMUGGLED}").into_bytes(),
    );
    add(
        "lines/cl-after-bare-lf",
        "CL hidden after a bare LF inside another field",
        post("X: y\nContent-Length: 35\r\n", SMUGGLED),
    );
    add(
        "lines/fold-into-cl",
        "an obs-fold continuing Content-Length",
        post("Content-Length: 35\r\n \r\n", SMUGGLED),
    );
    add(
        "lines/nul-in-name",
        "a NUL inside Content-Length's name",
        post("Content-Length\x00: 35\r\n", SMUGGLED),
    );
    // Routing and version.
    add(
        "route/absolute-form-other-host",
        "absolute-form naming another host than Host",
        b"GET http://b.example/x HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(),
    );
    add(
        "route/two-hosts",
        "two Host lines",
        b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".to_vec(),
    );
    add("route/http10-te", "HTTP/1.0 with TE and CL: faulty framing", format!("POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n{SMUGGLED}").into_bytes());
    add(
        "route/http10-te-only",
        "HTTP/1.0 with TE chunked only",
        format!(
            "POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{SMUGGLED}"
        )
        .into_bytes(),
    );
    add(
        "route/http11-minor-9",
        "HTTP/1.9 is read as 1.1",
        b"GET / HTTP/1.9\r\nHost: a\r\n\r\n".to_vec(),
    );
    add(
        "route/trace-with-body",
        "TRACE with a body that is a request",
        format!("TRACE / HTTP/1.1\r\nHost: a\r\nContent-Length: 35\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    add(
        "route/options-asterisk",
        "OPTIONS * then a request",
        format!("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n{SMUGGLED}").into_bytes(),
    );
    // The positive control's own case: harmless to a proxy that reads the
    // chunked body, fatal to a front that frames by CL only.
    let inner_len = PREFIX.len();
    let data = format!("Content-Length: {inner_len}");
    add(
        "control/chunk-data-holds-cl",
        "chunk data that reads as a head with Content-Length to a front that ignores TE: its body is a request prefix",
        post("Transfer-Encoding: chunked\r\n", &format!("{:x}\r\n{data}\r\n0\r\n\r\n{PREFIX}", data.len())),
    );
}

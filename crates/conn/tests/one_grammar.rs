//! One grammar, read and write: what a connection agrees to send is exactly
//! what the peer connection parses back unchanged.
//!
//! The regression cases are values the client used to send although a
//! `ServerConn` rejects them (RFC 9110 §7.2 `Host`, RFC 9112 §3.2 request
//! targets). The proptests generate valid and invalid methods, targets,
//! fields, statuses and reasons and check both directions: sending succeeds
//! if and only if the peer parses the message back byte for byte.

mod common;

use common::{discard_output, feed, owned, pairs, push_lines, Fields};
use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, Error, LocalError, PreparedResponse, ServerConn,
    ServerEvent,
};
use proptest::prelude::*;

fn send(method: &[u8], target: &[u8], host: &[u8]) -> Result<(), Error> {
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(method, target, &[(b"Host", host)], BodyLength::Empty)
}

/// What a `ServerConn` makes of these request bytes: the method, target and
/// fields of the request it surfaces, or `None` when it refuses them.
fn server_reads(bytes: &[u8]) -> Option<(Vec<u8>, Vec<u8>, Fields)> {
    let mut s = ServerConn::new(Config::DEFAULT);
    feed(&mut s, bytes);
    match s.poll_event() {
        Ok(ServerEvent::Request(r)) => Some((
            r.method_bytes().to_vec(),
            r.target().to_vec(),
            owned(r.fields()),
        )),
        _ => None,
    }
}

/// The field lines and the empty line that ends a head, as a writer that
/// checks nothing would put them on the wire.
fn push_fields(out: &mut Vec<u8>, fields: &Fields) {
    push_lines(out, fields, b": ");
    out.extend_from_slice(b"\r\n");
}

/// The request line and fields as a writer that checks nothing would put
/// them on the wire.
fn raw_request(method: &[u8], target: &[u8], fields: &Fields) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(method);
    out.push(b' ');
    out.extend_from_slice(target);
    out.extend_from_slice(b" HTTP/1.1\r\n");
    push_fields(&mut out, fields);
    out
}

#[test]
fn client_refuses_hosts_the_server_rejects() {
    for host in [
        &b"a:99999"[..],
        b"[[::",
        b"a%zz",
        b"[::1",
        b"a:",
        b"[1::2::3]",
    ] {
        assert_eq!(
            send(b"GET", b"/", host),
            Err(LocalError::InvalidHost.into()),
            "{host:?}"
        );
        let raw = raw_request(b"GET", b"/", &vec![(b"Host".to_vec(), host.to_vec())]);
        assert_eq!(server_reads(&raw), None, "{host:?}");
    }
}

#[test]
fn client_refuses_targets_the_server_rejects() {
    for (method, target) in [
        (&b"GET"[..], &b"http://u@a/"[..]),
        (b"CONNECT", b"a.example"),
        (b"CONNECT", b"a:b:c"),
        (b"GET", b"http://a:99999/"),
        (b"GET", b"http://[::1/"),
        (b"GET", b"/[x]"),
        (b"GET", b"http://a/[x]"),
    ] {
        assert_eq!(
            send(method, target, b"a"),
            Err(LocalError::InvalidRequestLine.into()),
            "{target:?}"
        );
        let raw = raw_request(method, target, &vec![(b"Host".to_vec(), b"a".to_vec())]);
        assert_eq!(server_reads(&raw), None, "{target:?}");
    }
}

#[test]
fn client_sends_what_the_server_accepts() {
    for (method, target, host) in [
        (&b"GET"[..], &b"/"[..], &b"a"[..]),
        (b"GET", b"http://a%41/x", b"a%41"),
        (b"GET", b"http://[::1]:8080/", b"[::1]:8080"),
        (b"CONNECT", b"[v1.x]:443", b"[v1.x]:443"),
        (b"OPTIONS", b"*", b"a:1"),
    ] {
        let fields = vec![(b"Host".to_vec(), host.to_vec())];
        let mut c = ClientConn::new(Config::DEFAULT);
        c.send_request(method, target, &pairs(&fields), BodyLength::Empty)
            .unwrap();
        assert_eq!(
            server_reads(c.output()),
            Some((method.to_vec(), target.to_vec(), fields)),
            "{target:?}"
        );
    }
}

/// What a `ClientConn` that sent `GET /` makes of these response bytes: the
/// status, reason and fields of the final response it surfaces, or `None`.
fn client_reads(bytes: &[u8]) -> Option<(u16, Vec<u8>, Fields)> {
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
        .ok()?;
    discard_output(&mut c);
    feed(&mut c, bytes);
    match c.poll_event() {
        Ok(ClientEvent::Response(r)) => Some((r.status(), r.reason().to_vec(), owned(r.fields()))),
        _ => None,
    }
}

/// The status line and fields as a writer that checks nothing would put
/// them on the wire.
fn raw_response(status: u16, reason: &[u8], fields: &Fields) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} ").into_bytes();
    out.extend_from_slice(reason);
    out.extend_from_slice(b"\r\n");
    push_fields(&mut out, fields);
    out
}

/// The fields as received, less the framing field the connection adds.
fn without_framing(fields: Fields) -> Fields {
    fields
        .into_iter()
        .filter(|(n, _)| !n.eq_ignore_ascii_case(b"content-length"))
        .collect()
}

/// One of `prefixes`, then up to `len` bytes of `alphabet`, then one of
/// `suffixes`.
fn built(
    prefixes: &'static [&'static [u8]],
    alphabet: &'static [u8],
    len: usize,
    suffixes: &'static [&'static [u8]],
) -> impl Strategy<Value = Vec<u8>> {
    let mid = match alphabet {
        [] => Just(Vec::new()).boxed(),
        _ => proptest::collection::vec(proptest::sample::select(alphabet), 0..=len).boxed(),
    };
    (
        proptest::sample::select(prefixes),
        mid,
        proptest::sample::select(suffixes),
    )
        .prop_map(|(p, mid, s)| [p, &mid[..], s].concat())
}

/// Bytes near the edge of a grammar, on both sides of it: one of `prefixes`,
/// then bytes drawn mostly from `alphabet`, now and then any byte.
fn near(
    prefixes: &'static [&'static [u8]],
    alphabet: &'static [u8],
    len: usize,
) -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        20 => proptest::sample::select(alphabet),
        1 => any::<u8>(),
    ];
    (
        proptest::sample::select(prefixes),
        proptest::collection::vec(byte, 0..=len),
    )
        .prop_map(|(p, rest)| [p, &rest[..]].concat())
}

/// Three in four drawn from a valid shape, one in four near the edge.
fn mostly<S: Strategy<Value = Vec<u8>> + 'static, E: Strategy<Value = Vec<u8>> + 'static>(
    valid: S,
    edge: E,
) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![3 => valid, 1 => edge].boxed()
}

const TCHARS: &[u8] = b"AZaz09!#$%&'*+-.^_`|~";
const NONE: &[&[u8]] = &[b""];

fn method() -> BoxedStrategy<Vec<u8>> {
    mostly(
        built(
            &[b"GET", b"HEAD", b"POST", b"PUT", b"OPTIONS", b"X"],
            b"",
            0,
            NONE,
        ),
        near(
            &[b"", b"CONNECT", b"OPTIONS"],
            b"AZaz09!#$%&'*+-.^_`|~ (\"",
            8,
        ),
    )
}

fn target() -> BoxedStrategy<Vec<u8>> {
    mostly(
        built(
            &[b"/", b"http://a/", b"http://[::1]:8080/", b"HTTP://a%41:1/"],
            b"az09.-_~:@/?!$&'()*+,;=",
            16,
            &[b"", b"%4a", b"?q=%20"],
        ),
        near(
            &[
                b"/",
                b"*",
                b"",
                b"http://",
                b"http://a",
                b"HTTP://[",
                b"a:",
                b"[::1]:",
                b"http://u@",
            ],
            b"az09.-_~:@/?%fF[]!$&'()*+,;=#\" <>\\^`{|}\x7f\x80\r\nv",
            20,
        ),
    )
}

fn host_value() -> BoxedStrategy<Vec<u8>> {
    mostly(
        prop_oneof![
            built(
                &[b"a", b"127.0.0.1", b"a%41"],
                b"az09.-_~!$&'()*+,;=",
                8,
                &[b"", b":80", b":065535", b":0"],
            ),
            built(
                &[
                    b"[::1]",
                    b"[2001:db8::8:800:200c:417a]",
                    b"[::ffff:192.0.2.1]",
                    b"[v1.x]"
                ],
                b"",
                0,
                &[b"", b":443"],
            ),
        ],
        near(
            &[b"", b"a", b"[", b"[::", b"[v1.", b"127.0.0.1"],
            b"az09.-_~:%fF[]!$&'()*+,;=@/ \t\r\nv",
            14,
        ),
    )
}

/// Names whose meaning decides more than the head (framing, the
/// connection's persistence, expectations, upgrades, the Host rule, which
/// has lines of its own): the property is about the grammar alone.
fn plain_name(n: &[u8]) -> bool {
    ![
        &b"host"[..],
        b"content-length",
        b"transfer-encoding",
        b"connection",
        b"upgrade",
        b"expect",
    ]
    .iter()
    .any(|k| n.eq_ignore_ascii_case(k))
}

fn field_name() -> BoxedStrategy<Vec<u8>> {
    mostly(
        built(&[b"X-", b"Accept", b"a"], TCHARS, 8, NONE),
        near(
            &[b"", b"X-", b"Accept"],
            b"AZaz09!#$%&'*+-.^_`|~ :\t\r\n(",
            10,
        ),
    )
    .prop_filter("a name with a meaning", |n| plain_name(n))
    .boxed()
}

fn field_value() -> BoxedStrategy<Vec<u8>> {
    mostly(
        prop_oneof![
            1 => Just(Vec::new()),
            4 => built(&[b"v", b"\x80"], b"az09 \t!~\"\\:;,=/\x80\xff", 16, &[b"e", b"\xff"]),
        ],
        near(
            &[b"", b" ", b"\t", b"v"],
            b"az09 \t!~\"\\:;,=/\x80\xff\r\n\x00\x7f\x0b",
            16,
        ),
    )
}

fn fields() -> impl Strategy<Value = Fields> {
    proptest::collection::vec((field_name(), field_value()), 0..=3)
}

fn reason() -> BoxedStrategy<Vec<u8>> {
    mostly(
        built(
            &[b"", b"OK", b" ", b"Not Found"],
            b"az \t!~\x80\xff",
            12,
            NONE,
        ),
        near(&[b"", b"OK", b" "], b"az \t!~\x80\xff\r\n\x00\x7f", 12),
    )
}

fn status() -> impl Strategy<Value = u16> {
    prop_oneof![
        6 => 200u16..=599,
        1 => 100u16..=199,
        1 => 600u16..=999,
        1 => any::<u16>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// A request `ClientConn` agrees to send is parsed back by `ServerConn`
    /// with the same method, target and field lines, byte for byte; one it
    /// refuses, written out unchecked, is rejected or read back changed.
    #[test]
    fn a_request_is_sent_iff_the_server_reads_it_back(
        method in method(),
        target in target(),
        hosts in prop_oneof![
            6 => host_value().prop_map(|h| vec![h]),
            1 => proptest::collection::vec(host_value(), 0..=2),
        ],
        mut fields in fields(),
        at in any::<proptest::sample::Index>(),
    ) {
        // The Host lines (one is due), among the other fields.
        let at = at.index(fields.len() + 1);
        for h in hosts.into_iter().rev() {
            fields.insert(at, (b"Host".to_vec(), h));
        }
        let mut c = ClientConn::new(Config::DEFAULT);
        let sent = c.send_request(&method, &target, &pairs(&fields), BodyLength::Empty);
        let wire = match sent {
            Ok(()) => c.output().to_vec(),
            Err(_) => raw_request(&method, &target, &fields),
        };
        let read = server_reads(&wire).map(|(m, t, f)| (m, t, without_framing(f)));
        let same = read == Some((method.clone(), target.clone(), fields.clone()));
        prop_assert_eq!(sent.is_ok(), same, "sent {:?}, server read {:?}", sent, read);
    }

    /// A response the server's `Responder` agrees to send (prebuilt or with
    /// borrowed fields) is parsed back by `ClientConn` with the same status,
    /// reason and field lines, byte for byte; one it refuses, written out
    /// unchecked, is rejected or read back changed.
    #[test]
    fn a_response_is_sent_iff_the_client_reads_it_back(
        status in status(),
        reason in reason(),
        fields in fields(),
        prebuilt in any::<bool>(),
    ) {
        let mut s = ServerConn::new(Config::DEFAULT);
        feed(&mut s, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
        prop_assert!(matches!(s.poll_event(), Ok(ServerEvent::Request(_))));
        let sent: Result<(), Error> = if prebuilt {
            PreparedResponse::with_reason(status, &reason, &pairs(&fields))
                .map_err(Error::from)
                .and_then(|r| s.responder().respond(&r, b"").map(drop))
        } else {
            s.responder().send_head(status, &pairs(&fields), BodyLength::Empty)
        };
        // The borrowed path writes the standard reason phrase.
        let reason = if prebuilt {
            reason
        } else {
            PreparedResponse::new(status, &[])
                .ok()
                .map(|r| {
                    let line = r.head_bytes();
                    line.get(13..line.len() - 2).unwrap_or(&[]).to_vec()
                })
                .unwrap_or_default()
        };
        let wire = match sent {
            Ok(()) => s.output().to_vec(),
            Err(_) => raw_response(status, &reason, &fields),
        };
        let read = client_reads(&wire).map(|(st, r, f)| (st, r, without_framing(f)));
        let same = read == Some((status, reason.clone(), fields.clone()));
        prop_assert_eq!(sent.is_ok(), same, "sent {:?}, client read {:?}", sent, read);
    }
}

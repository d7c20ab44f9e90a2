//! Any input gives events or a remote error, never a panic or a hang (the
//! fuzzing invariant, h11's AFL harness): random bytes and mutated valid
//! messages, fed in random pieces, to both connections, with small limits so
//! the bounds are reached too.

mod common;

use common::*;
use http_net_conn::{BodyLength, ClientConn, Config, Error, PreparedResponse, ServerConn};
use proptest::prelude::*;

const VALID_REQUESTS: &[u8] = b"POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc\
GET /b HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n\
PUT /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;x=1\r\nhi\r\n0\r\nT: 1\r\n\r\n\
GET /d HTTP/1.0\r\nConnection: keep-alive\r\n\r\n\
GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n";

const VALID_RESPONSES: &[u8] =
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc\
HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\nT: 1\r\n\r\n\
HTTP/1.1 204 No Content\r\nX: a\r\n b\r\n\r\nHTTP/1.0 200 OK\r\n\r\nrest";

fn small() -> Config {
    Config::DEFAULT
        .with_head_limits(
            http_net_head::HeadLimits::DEFAULT
                .with_max_head_bytes(256)
                .with_max_fields(8),
        )
        .with_body_limits(http_net_framing::BodyLimits::DEFAULT.with_body_budget(64))
        .with_read_chunk(64)
        .with_drain_limit(16)
        .with_output_high_water(128)
}

fn mutate(base: &[u8], edits: &[(prop::sample::Index, u8, u8)]) -> Vec<u8> {
    let mut v = base.to_vec();
    for (at, kind, byte) in edits {
        let i = at.index(v.len() + 1);
        match kind % 3 {
            0 if i < v.len() => v[i] = *byte,
            1 => v.insert(i, *byte),
            _ if i < v.len() => {
                v.remove(i);
            }
            _ => {}
        }
    }
    v
}

fn pieces<'a>(input: &'a [u8], cuts: &[prop::sample::Index]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = cuts.iter().map(|i| i.index(input.len() + 1)).collect();
    at.push(0);
    at.push(input.len());
    at.sort_unstable();
    at.windows(2).map(|w| &input[w[0]..w[1]]).collect()
}

/// Answers in several ways, ignoring local refusals (a fuzzed request may
/// make some answers illegal), and tries an upgrade when one was offered.
fn answer(choice: u8) -> impl FnMut(&mut ServerConn) {
    let ok = PreparedResponse::new(200, &[(b"X", b"y")]).unwrap();
    move |c: &mut ServerConn| {
        let mut r = c.responder();
        let _ = match choice % 5 {
            0 => r.respond(&ok, b"hello").map(drop),
            1 => r
                .send_continue()
                .and_then(|()| r.send_head(101, &[], BodyLength::Empty)),
            2 => r
                .send_head(200, &[], BodyLength::Streamed)
                .and_then(|()| r.send_data(&[b'z'; 3000]).map(drop))
                .and_then(|()| r.send_end(&[(b"T", b"1")])),
            3 => r
                .send_head(304, &[], BodyLength::Known(3))
                .and_then(|()| r.send_end(&[])),
            _ => r
                .send_head(200, &[], BodyLength::Known(4))
                .and_then(|()| r.send_end(&[])),
        };
    }
}

/// Events with the bytes of `Switched` dropped: how many bytes were buffered
/// when HTTP ended depends on the split (the rest is read by the new owner).
fn comparable(events: &[Got]) -> Vec<Got> {
    normalize(events)
        .into_iter()
        .map(|e| match e {
            Got::Switched(_) => Got::Switched(Vec::new()),
            e => e,
        })
        .collect()
}

fn check_server(config: Config, input: &[u8], cuts: &[prop::sample::Index], choice: u8, eof: bool) {
    let whole = serve_with(
        &mut ServerConn::new(config),
        &[input],
        eof,
        &mut answer(choice),
    );
    let mut conn = ServerConn::new(config);
    let t = serve_with(&mut conn, &pieces(input, cuts), eof, &mut answer(choice));
    assert_eq!(
        comparable(&t.events),
        comparable(&whole.events),
        "events depend on the split"
    );
    // (The driver never writes bodies left to the caller, so answers here stay
    // under the copy limit; `pair.rs` covers `AfterOutput`.)
    assert!(
        t.output == whole.output,
        "output depends on the split: {} vs {} bytes",
        t.output.len(),
        whole.output.len()
    );
    assert_eq!(t.should_close, whole.should_close);
    // After an error nothing but Closed.
    if let Some(i) = t
        .events
        .iter()
        .position(|e| matches!(e, Got::Error(Error::Remote(_))))
    {
        assert!(
            t.events[i + 1..].iter().all(|e| matches!(e, Got::Closed)),
            "{:?}",
            t.events
        );
        assert!(t.should_close);
    }
    let _ = (conn.phase(), conn.request().is_some(), conn.output());
}

fn check_client(config: Config, input: &[u8], cuts: &[prop::sample::Index], eof: bool) {
    let mut conn = ClientConn::new(config);
    for m in [&b"GET"[..], b"HEAD", b"POST", b"GET"] {
        let fields: &[(&[u8], &[u8])] = if m == b"POST" {
            &[
                (b"Host", b"a"),
                (b"Upgrade", b"x"),
                (b"Connection", b"upgrade"),
            ]
        } else {
            &[(b"Host", b"a")]
        };
        if conn
            .send_request(m, b"/", fields, BodyLength::Empty)
            .is_err()
        {
            break;
        }
    }
    discard_output(&mut conn);
    let events = fetch_with(&mut conn, &pieces(input, cuts), eof);
    if let Some(i) = events.iter().position(|e| matches!(e, GotC::Error(_))) {
        assert!(events[i + 1..].is_empty(), "{events:?}");
        assert!(conn.should_close());
        assert!(matches!(
            conn.poll_event(),
            Ok(http_net_conn::ClientEvent::Closed)
        ));
    }
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// Random bytes, or `valid` with up to six bytes replaced, inserted or removed.
fn input(valid: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..400),
        prop::collection::vec(
            (any::<prop::sample::Index>(), any::<u8>(), any::<u8>()),
            0..6
        )
        .prop_map(move |e| mutate(valid, &e)),
    ]
}

proptest! {
    // 256 cases by default; `PROPTEST_CASES=100000` for a long run.
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn server_never_panics(
        input in input(VALID_REQUESTS),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
        choice in any::<u8>(),
        limits in any::<bool>(),
        eof in any::<bool>(),
    ) {
        check_server(if limits { small() } else { Config::DEFAULT }, &input, &cuts, choice, eof);
    }

    #[test]
    fn client_never_panics(
        input in input(VALID_RESPONSES),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
        limits in any::<bool>(),
        eof in any::<bool>(),
    ) {
        check_client(if limits { small() } else { Config::DEFAULT }, &input, &cuts, eof);
    }
}

#[test]
fn valid_streams_pass_unmutated() {
    for choice in 0..5 {
        check_server(Config::DEFAULT, VALID_REQUESTS, &[], choice, true);
        check_server(small(), VALID_REQUESTS, &[], choice, false);
    }
    let t = serve_with(
        &mut ServerConn::new(Config::DEFAULT),
        &[VALID_REQUESTS],
        false,
        &mut answer(0),
    );
    assert_eq!(t.requests(), 5);
    assert!(t.error().is_none(), "{:?}", t.events);
    check_client(Config::DEFAULT, VALID_RESPONSES, &[], true);
}

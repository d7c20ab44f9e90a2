//! proptest: random chunks, extensions and trailers → encode → decode gives
//! back the same data, trailers and leftover bytes, for the input fed whole,
//! split at every point, in random pieces, one byte at a time, and in place.

mod support;

use http_net_framing::{BodyLimits, ChunkedDecoder, ChunkedEncoder};
use proptest::prelude::*;
use support::{feed, Outcome};

const TCHARS: &[u8] =
    b"!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

fn token() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(TCHARS), 1..8)
}

/// A chunk extension value: a token, or a quoted-string with escapes.
#[derive(Clone, Debug)]
enum ExtValue {
    None,
    Token(Vec<u8>),
    Quoted(Vec<u8>),
}

#[derive(Clone, Debug)]
struct Ext {
    name: Vec<u8>,
    value: ExtValue,
    /// BWS before `;`, after `;`, around `=`.
    bws: [bool; 3],
}

fn ext() -> impl Strategy<Value = Ext> {
    // Quotes and backslashes (escaped when written) are made common.
    let quoted = prop::collection::vec(
        prop_oneof![
            Just(b'"'),
            Just(b'\\'),
            Just(b'\t'),
            Just(b' '),
            0x21u8..=0x7e,
            0x80u8..=0xff
        ],
        0..10,
    );
    let value = prop_oneof![
        Just(ExtValue::None),
        token().prop_map(ExtValue::Token),
        quoted.prop_map(ExtValue::Quoted),
    ];
    (token(), value, any::<[bool; 3]>()).prop_map(|(name, value, bws)| Ext { name, value, bws })
}

fn write_ext(out: &mut Vec<u8>, e: &Ext) {
    if e.bws[0] {
        out.extend_from_slice(b" \t");
    }
    out.push(b';');
    if e.bws[1] {
        out.push(b' ');
    }
    out.extend_from_slice(&e.name);
    let eq: &[u8] = if e.bws[2] { b" = " } else { b"=" };
    match &e.value {
        ExtValue::None => {}
        ExtValue::Token(t) => {
            out.extend_from_slice(eq);
            out.extend_from_slice(t);
        }
        ExtValue::Quoted(q) => {
            out.extend_from_slice(eq);
            out.push(b'"');
            for &b in q {
                if b == b'"' || b == b'\\' {
                    out.push(b'\\');
                }
                out.push(b);
            }
            out.push(b'"');
        }
    }
}

#[derive(Clone, Debug)]
struct Message {
    chunks: Vec<(Vec<u8>, Vec<Ext>)>,
    trailers: Vec<(Vec<u8>, Vec<u8>)>,
    trailing: Vec<u8>,
}

fn field_value() -> impl Strategy<Value = Vec<u8>> {
    let inner = prop::collection::vec(
        prop_oneof![Just(b'\t'), Just(b' '), 0x21u8..=0x7e, 0x80u8..=0xff],
        0..12,
    );
    inner.prop_map(|mut v| {
        while matches!(v.first(), Some(b' ' | b'\t')) {
            v.remove(0);
        }
        while matches!(v.last(), Some(b' ' | b'\t')) {
            v.pop();
        }
        v
    })
}

fn message() -> impl Strategy<Value = Message> {
    let chunk = (
        prop::collection::vec(any::<u8>(), 1..200),
        prop::collection::vec(ext(), 0..3),
    );
    let trailer = (
        token().prop_filter("not a framing field", |n| {
            !["content-length", "transfer-encoding", "host", "trailer"]
                .iter()
                .any(|f| n.eq_ignore_ascii_case(f.as_bytes()))
        }),
        field_value(),
    );
    (
        prop::collection::vec(chunk, 0..6),
        prop::collection::vec(trailer, 0..3),
        prop::collection::vec(any::<u8>(), 0..12),
    )
        .prop_map(|(chunks, trailers, trailing)| Message {
            chunks,
            trailers,
            trailing,
        })
}

/// The encoded message and the trailing bytes after it.
fn encode(m: &Message) -> (Vec<u8>, Vec<u8>) {
    let mut out = Vec::new();
    for (data, exts) in &m.chunks {
        let header = ChunkedEncoder::header(data.len());
        let line = header.as_bytes();
        out.extend_from_slice(&line[..line.len() - 2]);
        for e in exts {
            write_ext(&mut out, e);
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(data);
        out.extend_from_slice(ChunkedEncoder::CHUNK_END);
    }
    let trailers: Vec<(&[u8], &[u8])> = m.trailers.iter().map(|(n, v)| (&n[..], &v[..])).collect();
    ChunkedEncoder::write_last(&mut out, &trailers).unwrap();
    let len = out.len();
    out.extend_from_slice(&m.trailing);
    let trailing = out.split_off(len);
    (out, trailing)
}

fn decoder() -> ChunkedDecoder {
    ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT)
}

fn expected(m: &Message, message_len: usize) -> Outcome {
    Outcome::Done {
        data: m
            .chunks
            .iter()
            .flat_map(|(d, _)| d.iter().copied())
            .collect(),
        trailers: m.trailers.clone(),
        rest: m.trailing.clone(),
        fed: message_len,
    }
}

/// Outcome with `fed` normalised: only byte-at-a-time feeding pins it down.
fn unfed(o: Outcome) -> Outcome {
    match o {
        Outcome::Done {
            data,
            trailers,
            rest,
            ..
        } => Outcome::Done {
            data,
            trailers,
            rest,
            fed: 0,
        },
        other => other,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn encode_then_decode_gives_the_message_back(m in message(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6)) {
        let (body, trailing) = encode(&m);
        let mut whole = body.clone();
        whole.extend_from_slice(&trailing);
        let want = expected(&m, body.len());
        for in_place in [false, true] {
            prop_assert_eq!(unfed(feed(decoder(), &[&whole], in_place)), unfed(want.clone()));
            let bytes: Vec<&[u8]> = whole.chunks(1).collect();
            prop_assert_eq!(feed(decoder(), &bytes, in_place), want.clone());
            // Random pieces.
            let mut at: Vec<usize> = cuts.iter().map(|i| i.index(whole.len() + 1)).collect();
            at.sort_unstable();
            let mut pieces = Vec::new();
            let mut last = 0;
            for a in at {
                pieces.push(&whole[last..a]);
                last = a;
            }
            pieces.push(&whole[last..]);
            prop_assert_eq!(unfed(feed(decoder(), &pieces, in_place)), unfed(want.clone()));
        }
        // Every split into two pieces.
        if body.len() <= 1500 {
            for at in 0..=whole.len() {
                let got = feed(decoder(), &[&whole[..at], &whole[at..]], false);
                prop_assert_eq!(unfed(got), unfed(want.clone()), "split at {}", at);
            }
        }
    }
}

/// Bytes that make chunked framing likely, and now and then any byte.
fn framing_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: &[u8] = b"0123456789abcdefABCDEF;= \t\"\\\r\n\r\nxX:,";
    prop::collection::vec(
        prop_oneof![8 => prop::sample::select(alphabet), 1 => any::<u8>()],
        0..64,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any input: no panic, and the outcome does not depend on how it is split.
    #[test]
    fn any_input_gives_the_same_outcome_however_split(input in framing_bytes(), at in any::<prop::sample::Index>()) {
        let at = at.index(input.len() + 1);
        let whole = unfed(feed(decoder(), &[&input], false));
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        prop_assert_eq!(unfed(feed(decoder(), &bytes, false)), whole.clone());
        prop_assert_eq!(unfed(feed(decoder(), &[&input[..at], &input[at..]], false)), whole.clone());
        prop_assert_eq!(unfed(feed(decoder(), &[&input], true)), whole);
    }
}

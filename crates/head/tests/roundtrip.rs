//! proptest: a random valid head, serialised, parses back to the same
//! method, target, version and fields in order; split at every position, or
//! fed one byte at a time, it gives the same result.

use http_net_head::{
    Field, FieldBlockParser, HeadLimits, Parsed, RequestHead, RequestParser, ResponseHead,
    ResponseOptions, ResponseParser, Version,
};
use proptest::prelude::*;

const TCHARS: &[u8] =
    b"!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const PCHARS: &[u8] = b"abcxyzABZ0189-._~!$&'()*+,;=:@/?";

fn token() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::sample::select(TCHARS), 1..12)
}

fn target() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => proptest::sample::select(PCHARS).prop_map(|b| vec![b]),
        1 => (0u8..=255).prop_map(|b| format!("%{b:02X}").into_bytes()),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|ps| {
        let mut t = vec![b'/'];
        for p in ps {
            t.extend(p);
        }
        t
    })
}

/// A value with no OWS at either end: field-vchar, with SP/HTAB inside.
fn value() -> impl Strategy<Value = Vec<u8>> {
    let vchar = prop_oneof![0x21u8..=0x7e, 0x80u8..=0xff];
    let inner = prop_oneof![4 => vchar.clone(), 1 => Just(b' '), 1 => Just(b'\t')];
    prop_oneof![
        1 => Just(Vec::new()),
        6 => (vchar.clone(), proptest::collection::vec(inner, 0..60), vchar).prop_map(|(a, mut m, z)| {
            m.insert(0, a);
            m.push(z);
            m
        }),
    ]
}

const OWS: &[&[u8]] = &[b"", b" ", b"\t", b"  \t"];

fn ows() -> impl Strategy<Value = &'static [u8]> {
    proptest::sample::select(OWS)
}

type Fields = Vec<(Vec<u8>, Vec<u8>, &'static [u8], &'static [u8])>;
type Pairs = Vec<(Vec<u8>, Vec<u8>)>;

fn fields() -> impl Strategy<Value = Fields> {
    proptest::collection::vec((token(), value(), ows(), ows()), 0..20).prop_map(|fs| {
        fs.into_iter()
            .filter(|(n, ..)| !n.eq_ignore_ascii_case(b"host"))
            .collect()
    })
}

/// One field line: the name, a colon, the value between its whitespace.
fn push_field(out: &mut Vec<u8>, (n, val, a, b): &(Vec<u8>, Vec<u8>, &[u8], &[u8])) {
    for part in [n, &b":"[..], a, val, b, b"\r\n"] {
        out.extend_from_slice(part);
    }
}

fn serialise_request(m: &[u8], t: &[u8], v: Version, host_at: usize, fs: &Fields) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(m);
    out.push(b' ');
    out.extend_from_slice(t);
    out.push(b' ');
    out.extend_from_slice(v.as_bytes());
    out.extend_from_slice(b"\r\n");
    for (i, field) in fs.iter().enumerate() {
        if i == host_at {
            out.extend_from_slice(b"Host: example.com:8080\r\n");
        }
        push_field(&mut out, field);
    }
    if host_at >= fs.len() {
        out.extend_from_slice(b"Host: example.com:8080\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out
}

fn parse_request(buf: &[u8], cuts: &[usize]) -> (RequestHead, Pairs) {
    let mut p = RequestParser::new(HeadLimits::DEFAULT);
    let mut fields = [Field::default(); 32];
    for &c in cuts {
        assert_eq!(
            p.parse(&buf[..c], &mut fields),
            Ok(Parsed::Partial),
            "cut {c}"
        );
    }
    let Ok(Parsed::Complete(h)) = p.parse(buf, &mut fields) else {
        panic!("not complete: {:?}", String::from_utf8_lossy(buf));
    };
    let fs = fields[..h.field_count]
        .iter()
        .map(|f| (f.name.get(buf).to_vec(), f.value.get(buf).to_vec()))
        .collect();
    (h, fs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn request_round_trip(
        m in token(),
        t in target(),
        v in prop_oneof![Just(Version::Http10), Just(Version::Http11)],
        fs in fields(),
        host_at in 0usize..24,
    ) {
        let m = if m == b"CONNECT" { b"GET".to_vec() } else { m };
        let buf = serialise_request(&m, &t, v, host_at, &fs);
        let (h, got) = parse_request(&buf, &[]);
        prop_assert_eq!(h.method_span.get(&buf), &m[..]);
        prop_assert_eq!(h.target.get(&buf), &t[..]);
        prop_assert_eq!(h.version, v);
        prop_assert_eq!(h.len, buf.len());
        let mut want: Vec<(Vec<u8>, Vec<u8>)> = fs.iter().map(|(n, v, ..)| (n.clone(), v.clone())).collect();
        want.insert(host_at.min(fs.len()), (b"Host".to_vec(), b"example.com:8080".to_vec()));
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(h.known.host.first(), Some(host_at.min(fs.len())));

        // Every split point, then one byte at a time: the same head.
        for cut in 0..buf.len() {
            prop_assert_eq!(parse_request(&buf, &[cut]), (h, got.clone()));
        }
        let all: Vec<usize> = (0..buf.len()).collect();
        prop_assert_eq!(parse_request(&buf, &all), (h, got.clone()));
    }

    #[test]
    fn response_round_trip(
        status in 100u16..1000,
        reason in value(),
        fs in fields(),
        v in prop_oneof![Just(Version::Http10), Just(Version::Http11)],
    ) {
        let mut buf = Vec::new();
        buf.extend_from_slice(v.as_bytes());
        buf.extend_from_slice(format!(" {status} ").as_bytes());
        buf.extend_from_slice(&reason);
        buf.extend_from_slice(b"\r\n");
        for field in &fs {
            push_field(&mut buf, field);
        }
        buf.extend_from_slice(b"\r\n");
        let parse = |cut: Option<usize>| -> (ResponseHead, Pairs) {
            let mut p = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::default());
            let mut fields = [Field::default(); 32];
            if let Some(c) = cut {
                assert_eq!(p.parse(&buf[..c], &mut fields), Ok(Parsed::Partial));
            }
            let Ok(Parsed::Complete(h)) = p.parse(&buf, &mut fields) else { panic!() };
            let got = fields[..h.field_count]
                .iter()
                .map(|f| (f.name.get(&buf).to_vec(), f.value.get(&buf).to_vec()))
                .collect();
            (h, got)
        };
        let (h, got) = parse(None);
        prop_assert_eq!(h.status, status);
        prop_assert_eq!(h.version, v);
        prop_assert_eq!(h.reason.get(&buf), &reason[..]);
        prop_assert_eq!(h.len, buf.len());
        let want: Vec<(Vec<u8>, Vec<u8>)> = fs.iter().map(|(n, v, ..)| (n.clone(), v.clone())).collect();
        prop_assert_eq!(&got, &want);
        for cut in 0..buf.len() {
            prop_assert_eq!(parse(Some(cut)), (h, got.clone()));
        }
    }

    /// Arbitrary bytes never panic, and whole and split parses agree.
    #[test]
    fn any_bytes_split_invariant(
        buf in proptest::collection::vec(prop_oneof![
            4 => proptest::sample::select(&b"GET / HTTP/1.1\r\nHost: a\r\n:%[]*"[..]),
            1 => any::<u8>(),
        ], 0..120),
        cut in 0usize..120,
    ) {
        let cut = cut.min(buf.len());
        let mut fields = [Field::default(); 8];
        let whole = RequestParser::new(HeadLimits::DEFAULT).parse(&buf, &mut fields);
        let mut p = RequestParser::new(HeadLimits::DEFAULT);
        let first = p.parse(&buf[..cut], &mut fields);
        let split = match first {
            Ok(Parsed::Partial) => p.parse(&buf, &mut fields),
            other => other,
        };
        prop_assert_eq!(whole, split);

        // The same for responses (bytes after a status line) and blocks.
        let mut res = b"HTTP/1.1 200 OK\r\n".to_vec();
        res.extend_from_slice(&buf);
        let cut = cut + 17;
        let whole = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::default()).parse(&res, &mut fields);
        let mut r = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::default());
        let split = match r.parse(&res[..cut.min(res.len())], &mut fields) {
            Ok(Parsed::Partial) => r.parse(&res, &mut fields),
            other => other,
        };
        prop_assert_eq!(whole, split);
        let whole = FieldBlockParser::new(HeadLimits::DEFAULT).parse(&buf, &mut fields);
        let mut b = FieldBlockParser::new(HeadLimits::DEFAULT);
        let split = match b.parse(&buf[..cut.saturating_sub(17).min(buf.len())], &mut fields) {
            Ok(Parsed::Partial) => b.parse(&buf, &mut fields),
            other => other,
        };
        prop_assert_eq!(whole, split);
    }
}

//! Feeding a head one byte at a time costs work linear in its size: the
//! parser resumes where it stopped. Asserted on bytes examined (the
//! `count-work` feature), not on wall time.

use http_net_head::{
    Error, Field, FieldBlockParser, HeadLimits, Parsed, RequestParser, ResponseOptions,
    ResponseParser,
};

const LIMITS: HeadLimits = HeadLimits::DEFAULT
    .with_max_head_bytes(64 * 1024)
    .with_max_target_bytes(32 * 1024)
    .with_max_fields(4096);

/// Heads of about `size` bytes, of several shapes: many short fields, one
/// long value, a long target, long leading whitespace in a value.
fn heads(size: usize) -> Vec<Vec<u8>> {
    let mut many = b"GET / HTTP/1.1\r\nHost: a\r\n".to_vec();
    while many.len() < size {
        many.extend_from_slice(b"X-Field: some value\r\n");
    }
    many.extend_from_slice(b"\r\n");
    let mut long_value = b"GET / HTTP/1.1\r\nHost: a\r\nCookie: ".to_vec();
    long_value.resize(size, b'v');
    long_value.extend_from_slice(b"\r\n\r\n");
    let mut long_target = b"GET /".to_vec();
    long_target.resize(size.min(LIMITS.max_target_bytes()), b'p');
    long_target.extend_from_slice(b" HTTP/1.1\r\nHost: a\r\n\r\n");
    let mut spaces = b"GET / HTTP/1.1\r\nHost: a\r\nX:".to_vec();
    spaces.resize(size / 2, b' ');
    spaces.push(b'v');
    spaces.resize(size, b' ');
    spaces.extend_from_slice(b"\r\n\r\n");
    vec![many, long_value, long_target, spaces]
}

/// Feeds `buf` one byte more per call: `Partial` on every proper prefix,
/// complete with the whole length at the end (`parse` gives the length of
/// a complete head, `None` for `Partial`).
fn feed_bytewise(buf: &[u8], mut parse: impl FnMut(&[u8]) -> Result<Option<usize>, Error>) {
    for end in 1..buf.len() {
        assert_eq!(parse(&buf[..end]), Ok(None), "prefix of {end} bytes");
    }
    assert_eq!(parse(buf), Ok(Some(buf.len())));
}

fn byte_at_a_time(buf: &[u8]) -> u64 {
    let mut p = RequestParser::new(LIMITS);
    let mut fields = [Field::default(); 4096];
    feed_bytewise(buf, |b| {
        Ok(match p.parse(b, &mut fields)? {
            Parsed::Partial => None,
            Parsed::Complete(h) => Some(h.len),
        })
    });
    p.work()
}

fn whole(buf: &[u8]) -> u64 {
    let mut p = RequestParser::new(LIMITS);
    let mut fields = [Field::default(); 4096];
    assert!(matches!(p.parse(buf, &mut fields), Ok(Parsed::Complete(_))));
    p.work()
}

#[test]
fn byte_at_a_time_work_is_linear() {
    for size in [4 * 1024, 16 * 1024, 32 * 1024] {
        for head in heads(size) {
            let n = head.len() as u64;
            let w1 = whole(&head);
            let wn = byte_at_a_time(&head);
            // Whole: each byte examined about once. Byte at a time: each
            // call examines the new byte and re-reads at most a few (the
            // stop byte, a pending CR or `%` escape).
            assert!(
                w1 >= n / 2 && w1 <= 3 * n,
                "size {size}: whole work {w1} for {n} bytes"
            );
            assert!(
                wn <= 4 * n,
                "size {size}: byte-at-a-time work {wn} for {n} bytes"
            );
        }
    }
}

/// The ratio of work to size does not grow with the size (a quadratic
/// rescan would multiply it by 8 between 4 and 32 KiB).
#[test]
fn work_per_byte_does_not_grow() {
    let per_byte = |size: usize| -> Vec<f64> {
        heads(size)
            .iter()
            .map(|h| byte_at_a_time(h) as f64 / h.len() as f64)
            .collect()
    };
    let small = per_byte(4 * 1024);
    let large = per_byte(32 * 1024);
    for (s, l) in small.iter().zip(&large) {
        assert!(l / s < 1.2, "work per byte grew from {s} to {l}");
    }
}

#[test]
fn responses_and_blocks_are_linear_too() {
    let mut resp = b"HTTP/1.1 200 OK\r\n".to_vec();
    while resp.len() < 32 * 1024 {
        resp.extend_from_slice(b"X-Field: value\r\n folded\r\n");
    }
    resp.extend_from_slice(b"\r\n");
    let mut p = ResponseParser::new(LIMITS, ResponseOptions::default());
    let mut fields = [Field::default(); 4096];
    feed_bytewise(&resp, |b| {
        Ok(match p.parse(b, &mut fields)? {
            Parsed::Partial => None,
            Parsed::Complete(h) => Some(h.len),
        })
    });
    assert!(p.work() <= 4 * resp.len() as u64, "{}", p.work());

    let block = &resp[17..];
    let mut b = FieldBlockParser::new(LIMITS);
    let mut long = b"Trailer: ".to_vec();
    long.resize(32 * 1024, b't');
    long.extend_from_slice(b"\r\n\r\n");
    feed_bytewise(&long, |bytes| {
        Ok(match b.parse(bytes, &mut fields)? {
            Parsed::Partial => None,
            Parsed::Complete(block) => Some(block.len),
        })
    });
    assert!(b.work() <= 4 * long.len() as u64, "{}", b.work());
    assert!(!block.is_empty());
}

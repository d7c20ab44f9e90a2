//! The head attack shapes that are too big for the conformance table: an
//! endless field line (C77), a flood of fields (C78), an overlong target
//! (C79), a flood of empty lines before the request line (C80), and a field
//! name over 255 bytes that once overflowed a length field (C91), and the field known.

use http_net_head::{
    Error, Field, FieldRefs, HeadLimits, Parsed, RequestParser, ResponseOptions, ResponseParser,
};

fn parse(buf: &[u8]) -> Result<Parsed<http_net_head::RequestHead>, Error> {
    let mut fields = [Field::default(); 100];
    RequestParser::new(HeadLimits::DEFAULT).parse(buf, &mut fields)
}

// proves: 9110-5.4-2
#[test]
fn c77_endless_field_line_is_431_without_its_end() {
    let mut buf = b"GET / HTTP/1.1\r\nX: ".to_vec();
    buf.resize(HeadLimits::DEFAULT.max_head_bytes(), b'A');
    assert_eq!(parse(&buf), Ok(Parsed::Partial));
    buf.push(b'A');
    assert_eq!(parse(&buf), Err(Error::HeadTooLarge));
    buf.resize(1 << 20, b'A');
    assert_eq!(parse(&buf), Err(Error::HeadTooLarge));
}

// proves: 9110-5.4-2
#[test]
fn c78_many_fields_is_431() {
    let mut buf = b"GET / HTTP/1.1\r\nHost: a\r\n".to_vec();
    for _ in 0..100_000 {
        buf.extend_from_slice(b"a: b\r\n");
    }
    buf.extend_from_slice(b"\r\n");
    assert_eq!(parse(&buf), Err(Error::TooManyFields));
    // With a large head limit the field limit still holds.
    let mut fields = [Field::default(); 100];
    let big = HeadLimits::DEFAULT.with_max_head_bytes(1 << 30);
    assert_eq!(
        RequestParser::new(big).parse(&buf, &mut fields),
        Err(Error::TooManyFields)
    );
}

// proves: 9112-3-4b
#[test]
fn c79_long_target_is_414_as_soon_as_known() {
    let mut buf = b"GET /".to_vec();
    buf.resize(5 + 70_000, b'a');
    buf.extend_from_slice(b" HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(parse(&buf), Err(Error::TargetTooLong));
    // Known before the target or the head ends: 8 KiB + 1 bytes of target.
    let prefix = 4 + HeadLimits::DEFAULT.max_target_bytes() + 1;
    assert_eq!(parse(&buf[..prefix]), Err(Error::TargetTooLong));
    assert_eq!(parse(&buf[..prefix - 1]), Ok(Parsed::Partial));
    // A target of exactly the limit is fine.
    let mut ok = b"GET /".to_vec();
    ok.resize(4 + HeadLimits::DEFAULT.max_target_bytes(), b'a');
    ok.extend_from_slice(b" HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(matches!(parse(&ok), Ok(Parsed::Complete(_))));
}

// proves: 9112-3-4a
#[test]
fn long_method_is_501_at_the_first_byte_over_the_limit() {
    // A 100 KB method: 501 (longer than any implemented), not 431.
    let mut buf = vec![b'A'; 100_000];
    buf.extend_from_slice(b" / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(parse(&buf), Err(Error::MethodTooLong));
    assert_eq!(Error::MethodTooLong.status(), 501);
    assert_eq!(Error::MethodTooLong.rfc(), "RFC 9112 §3");
    // Known at byte 33, before the method or the head ends.
    let max = HeadLimits::DEFAULT.max_method_bytes();
    assert_eq!(max, 32);
    assert_eq!(parse(&buf[..max + 1]), Err(Error::MethodTooLong));
    assert_eq!(parse(&buf[..max]), Ok(Parsed::Partial));
    // The first error in byte order: a bad byte after the 33rd does not
    // change it.
    let mut bad = buf[..max + 1].to_vec();
    bad.extend_from_slice(b"( / HTTP/1.1\r\n\r\n");
    assert_eq!(parse(&bad), Err(Error::MethodTooLong));
    // Even when the head limit is the smaller one, as long as the method's
    // first byte over its limit is within the head.
    let mut fields = [Field::default(); 8];
    let small = HeadLimits::DEFAULT.with_max_head_bytes(64);
    assert_eq!(
        RequestParser::new(small).parse(&buf, &mut fields),
        Err(Error::MethodTooLong)
    );
    // The limit is a setting.
    let wide = HeadLimits::DEFAULT.with_max_method_bytes(200_000);
    let mut ok = vec![b'A'; 100];
    ok.extend_from_slice(b" / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(matches!(
        RequestParser::new(wide).parse(&ok, &mut fields),
        Ok(Parsed::Complete(_))
    ));
    assert_eq!(parse(&ok), Err(Error::MethodTooLong));
}

#[test]
fn c80_endless_empty_lines_are_bounded() {
    let mut buf = b"\r\n".repeat(10_000);
    buf.extend_from_slice(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    assert_eq!(parse(&buf), Err(Error::TooManyLeadingEmptyLines));
}

#[test]
fn c91_long_name_is_kept_whole() {
    let mut buf = b"POST / HTTP/1.1\r\nHost: a\r\n".to_vec();
    buf.extend_from_slice(&[b'X'; 300]);
    buf.extend_from_slice(b": v\r\nContent-Length: 5\r\n\r\nhello");
    let mut fields = [Field::default(); 8];
    let Ok(Parsed::Complete(h)) = RequestParser::new(HeadLimits::DEFAULT).parse(&buf, &mut fields)
    else {
        panic!()
    };
    assert_eq!(fields[1].name.len(), 300);
    assert_eq!(fields[1].value.get(&buf), b"v");
    assert_eq!(h.known.content_length.first(), Some(2));
    assert_eq!(&buf[h.len..], b"hello");
}

#[test]
fn field_storage_shorter_than_the_limit_bounds_fields() {
    let buf = b"GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n";
    let mut fields = [Field::default(); 2];
    let mut p = RequestParser::new(HeadLimits::DEFAULT);
    assert_eq!(p.parse(buf, &mut fields), Err(Error::TooManyFields));
    assert_eq!(p.parse(buf, &mut []), Err(Error::TooManyFields));
    let mut none: [Field; 0] = [];
    assert!(matches!(
        RequestParser::new(HeadLimits::DEFAULT).parse(b"GET / HTTP/1.0\r\n\r\n", &mut none),
        Ok(Parsed::Complete(_))
    ));
}

#[test]
fn facts_are_gathered_in_one_pass() {
    let buf = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nX: 1\r\ncontent-length: 5\r\n\
Transfer-Encoding: gzip\r\nTRANSFER-ENCODING: chunked\r\nConnection: keep-alive-x, Close\r\n\
Connection: upgrade\r\nUpgrade: websocket\r\nExpect: 100-continue\r\n\r\n";
    let mut fields = [Field::default(); 16];
    let Ok(Parsed::Complete(h)) = RequestParser::new(HeadLimits::DEFAULT).parse(buf, &mut fields)
    else {
        panic!()
    };
    let f = h.known;
    assert_eq!(f.host.count(), 1);
    assert_eq!(f.content_length.count(), 2);
    let values = |refs: FieldRefs, name: &[u8]| -> Vec<Vec<u8>> {
        refs.values(name, &fields[..h.field_count], buf)
            .map(|s| s.get(buf).to_vec())
            .collect()
    };
    assert_eq!(values(f.content_length, b"content-length"), [b"5", b"5"]);
    assert_eq!(
        values(f.transfer_encoding, b"transfer-encoding"),
        [&b"gzip"[..], b"chunked"]
    );
    assert!(f.connection.close() && f.connection.upgrade() && !f.connection.keep_alive());
    assert_eq!(f.upgrade.first(), Some(8));
    assert_eq!(f.expect.first(), Some(9));
}

#[test]
fn folded_response_connection_tokens_and_unfold() {
    let mut buf =
        b"HTTP/1.1 200 OK\r\nConnection: x,\r\n close\r\nContent-Length: 0\r\n\r\n".to_vec();
    let mut fields = [Field::default(); 4];
    let Ok(Parsed::Complete(h)) =
        ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::default())
            .parse(&buf, &mut fields)
    else {
        panic!()
    };
    assert!(h.obs_fold && h.known.connection.close());
    assert_eq!(h.known.content_length.first(), Some(1));
    http_net_head::unfold_in_place(&mut buf, fields[0].value);
    assert_eq!(fields[0].value.get(&buf), b"x,   close");
}

#[test]
fn errors_name_rule_rfc_and_status() {
    assert_eq!(Error::UnsupportedVersion.status(), 505);
    assert_eq!(Error::TargetTooLong.status(), 414);
    assert_eq!(Error::HeadTooLarge.status(), 431);
    assert_eq!(Error::BareLf.status(), 400);
    assert_eq!(
        Error::WhitespaceBeforeColon.to_string(),
        "whitespace between a field name and its colon (RFC 9112 §5.1)"
    );
}

#[test]
fn parse_after_outcome_repeats_it_until_reset() {
    let buf = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    let mut fields = [Field::default(); 4];
    let mut p = RequestParser::new(HeadLimits::DEFAULT);
    let first = p.parse(buf, &mut fields);
    assert_eq!(p.parse(buf, &mut fields), first);
    assert_eq!(p.parse(b"", &mut fields), first);
    p.reset();
    assert_eq!(p.parse(b"", &mut fields), Ok(Parsed::Partial));
}

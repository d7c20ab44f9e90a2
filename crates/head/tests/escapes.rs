//! `%` escapes taken by the one-pass request line: at and across the target
//! limit, malformed, and split anywhere (each prefix then the whole head).

use http_net_head::{Error, Field, Limits, RequestParser, Status};

fn parse_split(limits: Limits, head: &[u8]) -> Result<Vec<u8>, Error> {
    let mut whole = None;
    for cut in 0..=head.len() {
        let mut p = RequestParser::new(limits);
        let mut f = [Field::default(); 8];
        let first = p.parse(&head[..cut], &mut f);
        let r = match first {
            Ok(Status::Partial) => p.parse(head, &mut f),
            other => other,
        };
        let r = r.map(|s| match s {
            Status::Complete(h) => h.target.get(head).to_vec(),
            Status::Partial => panic!("a whole head is not partial"),
        });
        match &whole {
            None => whole = Some(r),
            Some(w) => assert_eq!(w, &r, "cut at {cut} of {head:?}"),
        }
    }
    whole.unwrap()
}

#[test]
fn escapes_within_and_at_the_target_limit() {
    let l5 = Limits::DEFAULT.with_max_target_bytes(5);
    assert_eq!(
        parse_split(l5, b"GET /a%20 HTTP/1.1\r\nHost: a\r\n\r\n"),
        Ok(b"/a%20".to_vec())
    );
    assert_eq!(
        parse_split(l5, b"GET /%20b HTTP/1.1\r\nHost: a\r\n\r\n"),
        Ok(b"/%20b".to_vec())
    );
    assert_eq!(
        parse_split(l5, b"GET /ab%20 HTTP/1.1\r\nHost: a\r\n\r\n"),
        Err(Error::TargetTooLong)
    );
    assert_eq!(
        parse_split(l5, b"GET /abc%2 HTTP/1.1\r\nHost: a\r\n\r\n"),
        Err(Error::TargetTooLong)
    );
    let d = Limits::DEFAULT;
    assert_eq!(
        parse_split(
            d,
            b"GET /a%20b/%C3%A9?q=%7e&r=%2F HTTP/1.1\r\nHost: a\r\n\r\n"
        ),
        Ok(b"/a%20b/%C3%A9?q=%7e&r=%2F".to_vec())
    );
    assert_eq!(
        parse_split(d, b"GET /a%20%zz HTTP/1.1\r\nHost: a\r\n\r\n"),
        Err(Error::InvalidTargetByte)
    );
    assert_eq!(
        parse_split(d, b"GET /a%20%2 HTTP/1.1\r\nHost: a\r\n\r\n"),
        Err(Error::InvalidTargetByte)
    );
    assert_eq!(
        parse_split(d, b"GET /a%20% HTTP/1.1\r\nHost: a\r\n\r\n"),
        Err(Error::InvalidTargetByte)
    );
    assert_eq!(
        parse_split(d, b"GET /a%20#x HTTP/1.1\r\nHost: a\r\n\r\n"),
        Err(Error::InvalidTargetByte)
    );
    assert_eq!(
        parse_split(d, b"GET %20/ HTTP/1.1\r\nHost: a\r\n\r\n"),
        Err(Error::InvalidTargetForm)
    );
    assert_eq!(
        parse_split(d, b"GET /%41 HTTP/2.0\r\nHost: a\r\n\r\n"),
        Err(Error::UnsupportedVersion)
    );
}

/// The first byte over the target limit decides, inside an escape too: a `%`
/// or a hex digit there is `TargetTooLong` as soon as it arrives (whatever
/// the split), a non-hex byte there `InvalidTargetByte`.
#[test]
fn the_limit_inside_an_escape() {
    let l5 = Limits::DEFAULT.with_max_target_bytes(5);
    for (head, want) in [
        (
            &b"GET /abcd%20 HTTP/1.1\r\nHost: a\r\n\r\n"[..],
            Error::TargetTooLong,
        ),
        (
            b"GET /abcd%zz HTTP/1.1\r\nHost: a\r\n\r\n",
            Error::TargetTooLong,
        ),
        (
            b"GET /abc%20 HTTP/1.1\r\nHost: a\r\n\r\n",
            Error::TargetTooLong,
        ),
        (
            b"GET /abc%2z HTTP/1.1\r\nHost: a\r\n\r\n",
            Error::TargetTooLong,
        ),
        (
            b"GET /abc%z0 HTTP/1.1\r\nHost: a\r\n\r\n",
            Error::InvalidTargetByte,
        ),
        (
            b"GET /ab%2z HTTP/1.1\r\nHost: a\r\n\r\n",
            Error::InvalidTargetByte,
        ),
        (
            b"GET /ab%z0 HTTP/1.1\r\nHost: a\r\n\r\n",
            Error::InvalidTargetByte,
        ),
    ] {
        assert_eq!(parse_split(l5, head), Err(want), "{head:?}");
    }
    // Known at the offending byte: the prefix ending with it is already an
    // error, not `Partial`.
    let mut p = RequestParser::new(l5);
    let mut f = [Field::default(); 4];
    assert_eq!(p.parse(b"GET /abcd%", &mut f), Err(Error::TargetTooLong));
}

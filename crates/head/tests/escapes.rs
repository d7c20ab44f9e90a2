//! `%` escapes taken by the one-pass request line: at and across the target
//! limit, malformed, and split anywhere (each prefix then the whole head).

use http_net_head::{Error, Field, HeadLimits, Parsed, RequestParser};

fn parse_split(limits: HeadLimits, head: &[u8]) -> Result<Vec<u8>, Error> {
    let mut whole = None;
    for cut in 0..=head.len() {
        let mut p = RequestParser::new(limits);
        let mut f = [Field::default(); 8];
        let first = p.parse(&head[..cut], &mut f);
        let r = match first {
            Ok(Parsed::Partial) => p.parse(head, &mut f),
            other => other,
        };
        let r = r.map(|s| match s {
            Parsed::Complete(h) => h.target.get(head).to_vec(),
            Parsed::Partial => panic!("a whole head is not partial"),
        });
        match &whole {
            None => whole = Some(r),
            Some(w) => assert_eq!(w, &r, "cut at {cut} of {head:?}"),
        }
    }
    whole.unwrap()
}

/// A `GET` of `target` with a `Host`.
fn get(target: &[u8]) -> Vec<u8> {
    [b"GET ", target, b" HTTP/1.1\r\nHost: a\r\n\r\n"].concat()
}

#[test]
fn escapes_within_and_at_the_target_limit() {
    let l5 = HeadLimits::DEFAULT.with_max_target_bytes(5);
    let d = HeadLimits::DEFAULT;
    let taken = |t: &[u8]| Ok(t.to_vec());
    for (limits, head, want) in [
        (l5, get(b"/a%20"), taken(b"/a%20")),
        (l5, get(b"/%20b"), taken(b"/%20b")),
        (l5, get(b"/ab%20"), Err(Error::TargetTooLong)),
        (l5, get(b"/abc%2"), Err(Error::TargetTooLong)),
        (
            d,
            get(b"/a%20b/%C3%A9?q=%7e&r=%2F"),
            taken(b"/a%20b/%C3%A9?q=%7e&r=%2F"),
        ),
        (d, get(b"/a%20%zz"), Err(Error::InvalidTargetByte)),
        (d, get(b"/a%20%2"), Err(Error::InvalidTargetByte)),
        (d, get(b"/a%20%"), Err(Error::InvalidTargetByte)),
        (d, get(b"/a%20#x"), Err(Error::InvalidTargetByte)),
        (d, get(b"%20/"), Err(Error::InvalidTargetForm)),
        (
            d,
            b"GET /%41 HTTP/2.0\r\nHost: a\r\n\r\n".to_vec(),
            Err(Error::UnsupportedVersion),
        ),
    ] {
        let shown = String::from_utf8_lossy(&head);
        assert_eq!(parse_split(limits, &head), want, "{shown:?}");
    }
}

/// The first byte over the target limit decides, inside an escape too: a `%`
/// or a hex digit there is `TargetTooLong` as soon as it arrives (whatever
/// the split), a non-hex byte there `InvalidTargetByte`.
#[test]
fn the_limit_inside_an_escape() {
    let l5 = HeadLimits::DEFAULT.with_max_target_bytes(5);
    for (head, want) in [
        (get(b"/abcd%20"), Error::TargetTooLong),
        (get(b"/abcd%zz"), Error::TargetTooLong),
        (get(b"/abc%20"), Error::TargetTooLong),
        (get(b"/abc%2z"), Error::TargetTooLong),
        (get(b"/abc%z0"), Error::InvalidTargetByte),
        (get(b"/ab%2z"), Error::InvalidTargetByte),
        (get(b"/ab%z0"), Error::InvalidTargetByte),
    ] {
        let shown = String::from_utf8_lossy(&head);
        assert_eq!(parse_split(l5, &head), Err(want), "{shown:?}");
    }
    // Known at the offending byte: the prefix ending with it is already an
    // error, not `Partial`.
    let mut p = RequestParser::new(l5);
    let mut f = [Field::default(); 4];
    assert_eq!(p.parse(b"GET /abcd%", &mut f), Err(Error::TargetTooLong));
}

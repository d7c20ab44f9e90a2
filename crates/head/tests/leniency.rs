//! The client's opt-in leniencies (`ResponseOptions`), both ways: off (the
//! default), each input is rejected as before; on, it is accepted and the
//! parsed view is what a careful reader expects. Every outcome is also
//! checked fed in two pieces at every split and one byte at a time.

use http_net_head::{
    Error, Field, FieldBlockParser, HeadLimits, ObsFold, Parsed, RequestHead, RequestParser,
    ResponseOptions, ResponseParser, Version,
};

/// A response head as owned parts: status, reason, fields, head length.
type View = (u16, Vec<u8>, Vec<(Vec<u8>, Vec<u8>)>, usize);

fn once(options: ResponseOptions, buf: &[u8]) -> Result<Option<View>, Error> {
    let mut fields = [Field::default(); 16];
    let got = ResponseParser::new(HeadLimits::DEFAULT, options).parse(buf, &mut fields)?;
    Ok(match got {
        Parsed::Partial => None,
        Parsed::Complete(h) => {
            assert_eq!(h.version, Version::Http11);
            let fs = fields[..h.field_count]
                .iter()
                .map(|f| (f.name.get(buf).to_vec(), f.value.get(buf).to_vec()))
                .collect();
            Some((h.status, h.reason.get(buf).to_vec(), fs, h.len))
        }
    })
}

/// Parses `buf` whole, resumed after every split, and byte by byte; all
/// must agree. Returns the outcome.
fn parse(options: ResponseOptions, buf: &[u8]) -> Result<Option<View>, Error> {
    let whole = once(options, buf);
    // Bytes after a complete head are not part of it.
    let end = match &whole {
        Ok(Some(v)) => v.3,
        _ => buf.len(),
    };
    for cut in 0..end {
        let mut fields = [Field::default(); 16];
        let mut p = ResponseParser::new(HeadLimits::DEFAULT, options);
        match p.parse(&buf[..cut], &mut fields) {
            Ok(Parsed::Partial) => {
                let again = p
                    .parse(buf, &mut fields)
                    .map(|s| matches!(s, Parsed::Complete(_)));
                assert_eq!(again, whole.clone().map(|v| v.is_some()), "split at {cut}");
            }
            Err(e) => assert_eq!(Err(e), whole, "error early at {cut}"),
            Ok(Parsed::Complete(_)) => panic!("complete on a prefix of {cut} bytes"),
        }
    }
    let mut fields = [Field::default(); 16];
    let mut p = ResponseParser::new(HeadLimits::DEFAULT, options);
    for end in 0..=buf.len() {
        match p.parse(&buf[..end], &mut fields) {
            Ok(Parsed::Partial) => assert!(end < buf.len() || whole == Ok(None)),
            other => {
                assert_eq!(other.is_ok(), whole.is_ok(), "byte at a time, {end} bytes");
                break;
            }
        }
    }
    whole
}

fn f(name: &str, value: &str) -> (Vec<u8>, Vec<u8>) {
    (name.as_bytes().to_vec(), value.as_bytes().to_vec())
}

const STRICT: ResponseOptions = ResponseOptions::DEFAULT;

/// `buf` is rejected with `off` under the strict default; its outcome with
/// `lenient`.
fn only_when_enabled(
    lenient: ResponseOptions,
    buf: &[u8],
    off: Error,
) -> Result<Option<View>, Error> {
    assert_eq!(parse(STRICT, buf), Err(off), "strict");
    parse(lenient, buf)
}

/// A request head, whole: a leniency never applies there.
fn request(buf: &[u8]) -> Result<Parsed<RequestHead>, Error> {
    RequestParser::new(HeadLimits::DEFAULT).parse(buf, &mut [Field::default(); 4])
}

#[test]
fn the_default_is_strict() {
    assert_eq!(ResponseOptions::default(), ResponseOptions::DEFAULT);
    let d = ResponseOptions::DEFAULT;
    assert!(!d.bare_lf && !d.whitespace_before_colon && !d.reason_without_space);
    assert_eq!(d.obs_fold, ObsFold::Replace);
}

// proves: 9112-2.2-4b
#[test]
fn bare_lf_line_ends_only_when_enabled() {
    let lenient = STRICT.with_bare_lf(true);
    // Status line, field lines and the empty line each ended by LF alone,
    // then a CR LF line among them.
    let buf = b"HTTP/1.1 200 OK\nContent-Length: 5\nX: a b \r\nY:\n\nhello";
    let body_at = buf.len() - 5;
    assert_eq!(
        only_when_enabled(lenient, buf, Error::BareLf),
        Ok(Some((
            200,
            b"OK".to_vec(),
            vec![f("Content-Length", "5"), f("X", "a b"), f("Y", "")],
            body_at
        )))
    );
    // An obs-fold after a bare LF is still a fold, kept for unfolding.
    let fold = b"HTTP/1.1 200 OK\nX: a\n b\n\n";
    let mut fields = [Field::default(); 4];
    let Ok(Parsed::Complete(h)) =
        ResponseParser::new(HeadLimits::DEFAULT, lenient).parse(fold, &mut fields)
    else {
        panic!()
    };
    assert!(h.obs_fold);
    assert_eq!(fields[0].value.get(fold), b"a\n b");
    // A CR not followed by LF stays invalid, lenient or not.
    for cr in [
        &b"HTTP/1.1 200 O\rK\n\n"[..],
        b"HTTP/1.1 200 OK\nX: a\rb\n\n",
        b"HTTP/1.1 200 OK\n\rX",
    ] {
        assert_eq!(parse(lenient, cr), Err(Error::BareCr), "{cr:?}");
    }
    // Never in a request nor in a field block (trailers).
    assert_eq!(request(b"GET / HTTP/1.1\nHost: a\n\n"), Err(Error::BareLf));
    assert_eq!(
        FieldBlockParser::new(HeadLimits::DEFAULT).parse(b"X: a\n\n", &mut fields),
        Err(Error::BareLf)
    );
}

#[test]
fn whitespace_before_colon_only_when_enabled() {
    let lenient = STRICT.with_whitespace_before_colon(true);
    let buf = b"HTTP/1.1 200 OK\r\nContent-Length \t : 5\r\nX\t:y\r\n\r\n";
    let Ok(Some((status, _, fields, len))) =
        only_when_enabled(lenient, buf, Error::WhitespaceBeforeColon)
    else {
        panic!()
    };
    assert_eq!(status, 200);
    // The name ends before the whitespace: this is the Content-Length the
    // body is framed by.
    assert_eq!(fields, vec![f("Content-Length", "5"), f("X", "y")]);
    assert_eq!(len, buf.len());
    let mut fs = [Field::default(); 4];
    let Ok(Parsed::Complete(h)) =
        ResponseParser::new(HeadLimits::DEFAULT, lenient).parse(buf, &mut fs)
    else {
        panic!()
    };
    assert_eq!(h.known.content_length.count(), 1);
    // Whitespace that no colon follows is still not a name.
    assert_eq!(
        parse(lenient, b"HTTP/1.1 200 OK\r\nX Y: 1\r\n\r\n"),
        Err(Error::InvalidFieldName)
    );
    assert_eq!(
        parse(lenient, b"HTTP/1.1 200 OK\r\n : 1\r\n\r\n"),
        Err(Error::ObsFold)
    );
    // Never in a request.
    assert_eq!(
        request(b"GET / HTTP/1.1\r\nHost : a\r\n\r\n"),
        Err(Error::WhitespaceBeforeColon)
    );
}

#[test]
fn reason_without_space_only_when_enabled() {
    let lenient = STRICT.with_reason_without_space(true);
    let buf = b"HTTP/1.1 204\r\nX: 1\r\n\r\n";
    assert_eq!(
        only_when_enabled(lenient, buf, Error::InvalidStartLineSpacing),
        Ok(Some((204, Vec::new(), vec![f("X", "1")], buf.len())))
    );
    // With a bare LF too, when both are enabled; not with this one alone.
    let lf = b"HTTP/1.1 200\n\n";
    assert_eq!(parse(lenient, lf), Err(Error::BareLf));
    assert_eq!(
        parse(lenient.with_bare_lf(true), lf),
        Ok(Some((200, Vec::new(), vec![], lf.len())))
    );
    // Only an empty reason: other bytes after the code are still wrong.
    assert_eq!(
        parse(lenient, b"HTTP/1.1 200OK\r\n\r\n"),
        Err(Error::InvalidStatusCode)
    );
    // The normal form is unchanged.
    let normal = b"HTTP/1.1 200 \r\n\r\n";
    assert_eq!(
        parse(lenient, normal),
        Ok(Some((200, Vec::new(), vec![], normal.len())))
    );
}

#[test]
fn obs_fold_can_be_rejected() {
    let buf = b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n";
    assert!(matches!(parse(STRICT, buf), Ok(Some(_))));
    assert_eq!(
        parse(STRICT.with_obs_fold(ObsFold::Reject), buf),
        Err(Error::ObsFold)
    );
}

//! http-net's side of the head comparisons: `http-net-head` parses,
//! `http-net-framing` decides the body, and the connection-level decisions
//! (keep-alive, upgrade, `Expect`) are read from the field facts the parser
//! gathered, as `http-net-conn` does.

use http_net_framing::{request_body, response_body, BodyKind};
use http_net_head::{
    Field, Limits, Method, RequestParser, ResponseOptions, ResponseParser, Status, Version,
};

use crate::rules::{Body, Framing, Verdict, MAX_FIELDS};

/// The body limits (SPEC §3 defaults).
pub const BODY_LIMITS: http_net_framing::Limits = http_net_framing::Limits::DEFAULT;

/// Field storage, reused across calls.
pub type Storage = [Field; MAX_FIELDS];

/// Fresh field storage.
pub fn storage() -> Storage {
    [Field::default(); MAX_FIELDS]
}

/// A request parser with the default limits.
pub fn request_parser() -> RequestParser {
    RequestParser::new(Limits::DEFAULT)
}

/// A response parser with the default limits and options.
pub fn response_parser() -> ResponseParser {
    ResponseParser::new(Limits::DEFAULT, ResponseOptions::default())
}

fn body(kind: BodyKind) -> Body {
    match kind {
        BodyKind::None => Body::None,
        BodyKind::Length(n) => Body::Length(n),
        BodyKind::Chunked => Body::Chunked,
        BodyKind::CloseDelimited => Body::CloseDelimited,
        BodyKind::Tunnel => Body::Tunnel,
    }
}

/// Request head + framing of the head at the start of `buf`.
#[inline]
pub fn request(parser: &mut RequestParser, buf: &[u8], fields: &mut Storage) -> Verdict {
    parser.reset();
    let head = match parser.parse(buf, fields) {
        Ok(Status::Complete(h)) => h,
        Ok(Status::Partial) => return Verdict::Partial,
        Err(e) => return Verdict::Reject(e.status()),
    };
    let fields = &fields[..head.field_count];
    let kind = match request_body(head.version, &head.facts, fields, buf, &BODY_LIMITS) {
        Ok(k) => k,
        Err(e) => return Verdict::Reject(e.status()),
    };
    let http11 = head.version == Version::Http11;
    let expect = head.facts.expect;
    if http11
        && expect
            .values(b"expect", fields, buf)
            .any(|v| !trim(v.get(buf)).eq_ignore_ascii_case(b"100-continue"))
    {
        return Verdict::Reject(417);
    }
    let c = head.facts.connection;
    Verdict::Complete(Framing {
        head_len: head.len,
        http11,
        body: body(kind),
        keep_alive: if http11 {
            !c.close()
        } else {
            c.keep_alive() && !c.close()
        },
        upgrade: c.upgrade() && !head.facts.upgrade.is_empty(),
        expect_continue: http11 && !expect.is_empty(),
    })
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// Response head + framing of the head at the start of `buf`, answering a
/// request with `method`.
#[inline]
pub fn response(
    parser: &mut ResponseParser,
    buf: &[u8],
    method: Method,
    fields: &mut Storage,
) -> Verdict {
    parser.reset();
    let head = match parser.parse(buf, fields) {
        Ok(Status::Complete(h)) => h,
        Ok(Status::Partial) => return Verdict::Partial,
        Err(_) => return Verdict::Reject(502),
    };
    let fields = &fields[..head.field_count];
    let kind = match response_body(
        method,
        head.status,
        head.version,
        &head.facts,
        fields,
        buf,
        &BODY_LIMITS,
    ) {
        Ok(k) => k,
        Err(_) => return Verdict::Reject(502),
    };
    let http11 = head.version == Version::Http11;
    let c = head.facts.connection;
    let body = body(kind);
    Verdict::Complete(Framing {
        head_len: head.len,
        http11,
        body,
        keep_alive: body != Body::CloseDelimited
            && if http11 {
                !c.close()
            } else {
                c.keep_alive() && !c.close()
            },
        upgrade: false,
        expect_continue: false,
    })
}

/// http-net's view of a request head, as [`crate::httparse_side::Parts`].
pub fn request_parts(buf: &[u8]) -> Option<crate::httparse_side::Parts> {
    let mut p = request_parser();
    let mut fields = storage();
    let Ok(Status::Complete(h)) = p.parse(buf, &mut fields) else {
        return None;
    };
    Some((
        h.method_span.get(buf).to_vec(),
        h.target.get(buf).to_vec(),
        u8::from(h.version == Version::Http11),
        fields[..h.field_count]
            .iter()
            .map(|f| (f.name.get(buf).to_vec(), f.value.get(buf).to_vec()))
            .collect(),
    ))
}

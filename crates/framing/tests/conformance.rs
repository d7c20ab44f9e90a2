//! Runs the conformance table of `tests/cases/mod.rs`: body-length rows
//! through `request_body` / `response_body`, chunked rows through the
//! decoder whole, split at every point, one byte at a time, in place, and
//! followed by bytes of the next message that must stay unconsumed.

mod cases;
mod support;

use cases::{
    ChunkCase, ChunkExpect, Expect, LengthCase, Side, CHUNK_CASES, LENGTH_CASES, TRAILER_CASES,
};
use http_net_framing::{request_body, response_body, BodyKind, BodyLimits, ChunkedDecoder, Error};
use http_net_head::{Field, KnownFields, Method, Span, Version};
use support::{feed, Outcome};

/// Bytes of a next, pipelined message (and a stray NUL, C63) that a complete
/// body must leave unconsumed.
const TRAILING: [&[u8]; 2] = [b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", b"\x00"];

/// Field storage and known for a row, as the head parser would build them.
fn head_of(fields: &[(&[u8], &[u8])]) -> (Vec<u8>, Vec<Field>, KnownFields) {
    let mut buf = Vec::new();
    let mut out = Vec::new();
    let mut known = KnownFields::default();
    for (i, (name, value)) in fields.iter().enumerate() {
        let n = buf.len();
        buf.extend_from_slice(name);
        buf.extend_from_slice(b": ");
        let v = buf.len();
        buf.extend_from_slice(value);
        out.push(Field {
            name: Span::new(n, n + name.len()),
            value: Span::new(v, buf.len()),
        });
        buf.extend_from_slice(b"\r\n");
        if name.eq_ignore_ascii_case(b"content-length") {
            known.content_length.push(i);
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            known.transfer_encoding.push(i);
        }
    }
    (buf, out, known)
}

fn decide(case: &LengthCase) -> Result<BodyKind, Error> {
    let (buf, fields, known) = head_of(case.fields);
    let version = if case.http11 {
        Version::Http11
    } else {
        Version::Http10
    };
    let limits = BodyLimits::DEFAULT.with_body_budget(case.budget);
    match case.side {
        Side::Request => request_body(version, &known, &fields, &buf, &limits),
        Side::Response { method, status } => response_body(
            Method::from_bytes(method.as_bytes()),
            status,
            version,
            &known,
            &fields,
            &buf,
            &limits,
        ),
    }
}

fn matches(expect: Expect, got: Result<BodyKind, Error>) -> bool {
    match (expect, got) {
        (Expect::NoBody, Ok(BodyKind::None))
        | (Expect::Chunked, Ok(BodyKind::Chunked))
        | (Expect::Close, Ok(BodyKind::CloseDelimited))
        | (Expect::Tunnel, Ok(BodyKind::Tunnel)) => true,
        (Expect::Length(n), Ok(BodyKind::Length(m))) => n == m,
        (Expect::Error(name, status), Err(e)) => format!("{e:?}") == name && e.status() == status,
        _ => false,
    }
}

/// Fails the test with every row in `failed`, if any.
/// A row names the RFC section it checks.
fn cites_an_rfc(name: &str, rfc: &str) {
    assert!(rfc.starts_with("RFC "), "{name}: no RFC section");
}

fn all_passed(failed: &[String]) {
    assert!(
        failed.is_empty(),
        "{} rows failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn length_rows() {
    let mut failed = Vec::new();
    for case in LENGTH_CASES {
        cites_an_rfc(case.name, case.rfc);
        let got = decide(case);
        if !matches(case.expect, got) {
            failed.push(format!(
                "{} ({}): expected {:?}, got {got:?}",
                case.name, case.rfc, case.expect
            ));
        }
    }
    all_passed(&failed);
}

/// The same rows as whole heads through the head parser: where the head
/// parser accepts the head, its field known give the row's decision; where it
/// rejects it first (a VT or FF in a value), the row must expect a 400.
#[test]
fn length_rows_through_the_head_parser() {
    use http_net_head::{Parsed, RequestParser, ResponseOptions, ResponseParser};
    let mut failed = Vec::new();
    let mut rejected_by_head = Vec::new();
    for case in LENGTH_CASES {
        let raw = case.raw_head();
        let mut fields = [Field::default(); 16];
        let limits = BodyLimits::DEFAULT.with_body_budget(case.budget);
        let head_limits = http_net_head::HeadLimits::DEFAULT;
        let got = match case.side {
            Side::Request => match RequestParser::new(head_limits).parse(&raw, &mut fields) {
                Ok(Parsed::Complete(h)) => {
                    Ok(request_body(h.version, &h.known, &fields, &raw, &limits))
                }
                other => Err(format!("{other:?}")),
            },
            Side::Response { method, status } => {
                match ResponseParser::new(head_limits, ResponseOptions::default())
                    .parse(&raw, &mut fields)
                {
                    Ok(Parsed::Complete(h)) => {
                        assert_eq!(h.status, status);
                        let method = Method::from_bytes(method.as_bytes());
                        Ok(response_body(
                            method, h.status, h.version, &h.known, &fields, &raw, &limits,
                        ))
                    }
                    other => Err(format!("{other:?}")),
                }
            }
        };
        let ok = match &got {
            Ok(decision) => matches(case.expect, *decision),
            Err(head_error) => {
                rejected_by_head.push(case.name);
                head_error.starts_with("Err(") && matches!(case.expect, Expect::Error(_, 400))
            }
        };
        if !ok {
            failed.push(format!(
                "{} ({}): expected {:?}, got {got:?}",
                case.name, case.rfc, case.expect
            ));
        }
    }
    all_passed(&failed);
    // Only the rows with a CTL in a value stop at the head parser.
    assert!(rejected_by_head.len() <= 6, "{rejected_by_head:?}");
}

#[test]
fn the_table_is_large_enough() {
    let rows = LENGTH_CASES.len() + CHUNK_CASES.len() + TRAILER_CASES.len();
    println!(
        "rows: {} length, {} chunked, {} trailer",
        LENGTH_CASES.len(),
        CHUNK_CASES.len(),
        TRAILER_CASES.len()
    );
    assert!(rows >= 120, "{rows} rows");
    let mut names: Vec<_> = LENGTH_CASES.iter().map(|c| c.name).collect();
    names.extend(CHUNK_CASES.iter().chain(TRAILER_CASES).map(|c| c.name));
    let total = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), total, "row names are unique");
}

fn decoder(case: &ChunkCase) -> ChunkedDecoder {
    let limits = BodyLimits::DEFAULT
        .with_body_budget(case.limits.budget)
        .with_max_chunk_ext_bytes(case.limits.max_ext);
    ChunkedDecoder::new(limits, http_net_head::HeadLimits::DEFAULT)
}

/// Runs one row every way and returns a description of each mismatch.
fn check_chunked(case: &ChunkCase) -> Vec<String> {
    let mut problems = Vec::new();
    let input = case.input;
    for trailing in TRAILING {
        let mut whole = input.to_vec();
        whole.extend_from_slice(trailing);
        let mut runs: Vec<(String, Vec<&[u8]>, bool)> = Vec::new();
        for in_place in [false, true] {
            runs.push((
                format!("whole (in place: {in_place})"),
                vec![&whole[..]],
                in_place,
            ));
            runs.push((
                format!("byte at a time (in place: {in_place})"),
                whole.chunks(1).collect(),
                in_place,
            ));
            for at in 0..=input.len() {
                runs.push((
                    format!("split at {at} (in place: {in_place})"),
                    vec![&whole[..at], &whole[at..]],
                    in_place,
                ));
            }
        }
        for (how, pieces, in_place) in runs {
            let got = feed(decoder(case), &pieces, in_place);
            let ok = match (case.expect, &got) {
                (
                    ChunkExpect::Body(data, trailers),
                    Outcome::Done {
                        data: d,
                        trailers: t,
                        rest,
                        fed,
                    },
                ) => {
                    let want: Vec<_> = trailers
                        .iter()
                        .map(|(n, v)| (n.to_vec(), v.to_vec()))
                        .collect();
                    // Done only once the last byte of the message is fed.
                    let fed_ok = pieces.len() != whole.len() || *fed == input.len();
                    d == data && *t == want && rest == trailing && fed_ok
                }
                (ChunkExpect::Error(name, status), Outcome::Error(e)) => {
                    format!("{e:?}") == name && e.status() == status
                }
                (ChunkExpect::Incomplete, Outcome::Incomplete) => true,
                // An incomplete prefix followed by other bytes may go either way;
                // only the bare prefix is checked for incomplete rows.
                (ChunkExpect::Incomplete, _) => true,
                _ => false,
            };
            if !ok {
                problems.push(format!(
                    "{} ({}), {how}, trailing {trailing:?}: expected {:?}, got {got:?}",
                    case.name, case.rfc, case.expect
                ));
            }
        }
    }
    if let ChunkExpect::Incomplete = case.expect {
        for in_place in [false, true] {
            let whole = feed(decoder(case), &[input], in_place);
            let bytes = feed(
                decoder(case),
                &input.chunks(1).collect::<Vec<_>>(),
                in_place,
            );
            for got in [whole, bytes] {
                if got != Outcome::Incomplete {
                    problems.push(format!(
                        "{} ({}): expected incomplete, got {got:?}",
                        case.name, case.rfc
                    ));
                }
            }
        }
    }
    problems
}

fn run_chunked(cases: &[ChunkCase]) {
    let mut failed = Vec::new();
    for case in cases {
        cites_an_rfc(case.name, case.rfc);
        failed.extend(check_chunked(case));
    }
    let shown: Vec<_> = failed.iter().take(30).cloned().collect();
    assert!(
        failed.is_empty(),
        "{} runs failed; the first:\n{}",
        failed.len(),
        shown.join("\n")
    );
}

#[test]
fn chunk_rows() {
    run_chunked(CHUNK_CASES);
}

#[test]
fn trailer_rows() {
    run_chunked(TRAILER_CASES);
}

/// Runs a generated body whole and returns the outcome.
fn whole(limits: BodyLimits, head_limits: http_net_head::HeadLimits, input: &[u8]) -> Outcome {
    feed(ChunkedDecoder::new(limits, head_limits), &[input], false)
}

/// A body of 1000 one-byte chunks, each line with an extension of `len`
/// bytes.
fn long_extensions(len: usize) -> Vec<u8> {
    let mut input = Vec::new();
    for _ in 0..1000 {
        input.extend_from_slice(b"1;");
        input.extend(std::iter::repeat_n(b'x', len));
        input.extend_from_slice(b"\r\nA\r\n");
    }
    input.extend_from_slice(b"0\r\n\r\n");
    input
}

#[test]
fn c81_long_extensions_on_every_chunk() {
    // RFC 9112 §7.1.1: 10,000 bytes of extension on one chunk line.
    let input = long_extensions(10_000);
    let got = whole(
        BodyLimits::DEFAULT,
        http_net_head::HeadLimits::DEFAULT,
        &input,
    );
    assert_eq!(got, Outcome::Error(Error::ChunkExtensionTooLong));
    // Within the per-chunk bound, the overhead guard stops the same attack.
    let input = long_extensions(1000);
    let got = whole(
        BodyLimits::DEFAULT,
        http_net_head::HeadLimits::DEFAULT,
        &input,
    );
    assert_eq!(got, Outcome::Error(Error::ExcessiveFramingOverhead));
    let unguarded = BodyLimits::DEFAULT.with_overhead_guard_bytes(0);
    assert!(matches!(
        whole(unguarded, http_net_head::HeadLimits::DEFAULT, &input),
        Outcome::Done { .. }
    ));
}

#[test]
fn c82_one_byte_chunks_trip_the_overhead_guard() {
    // RFC 9112 §7.1 (picohttpparser's guard): 6 framing bytes per data byte.
    let mut input = b"1\r\nA\r\n".repeat(1_000_000);
    input.extend_from_slice(b"0\r\n\r\n");
    let got = whole(
        BodyLimits::DEFAULT,
        http_net_head::HeadLimits::DEFAULT,
        &input,
    );
    assert_eq!(got, Outcome::Error(Error::ExcessiveFramingOverhead));
    assert_eq!(Error::ExcessiveFramingOverhead.status(), 400);
    // 16-byte chunks (8 framing bytes each) are a third of the bytes: fine.
    let mut input = b"10\r\n0123456789abcdef\r\n".repeat(100_000);
    input.extend_from_slice(b"0\r\n\r\n");
    let got = whole(
        BodyLimits::DEFAULT.with_body_budget(0),
        http_net_head::HeadLimits::DEFAULT,
        &input,
    );
    assert!(
        matches!(got, Outcome::Done { ref data, .. } if data.len() == 1_600_000),
        "{got:?}"
    );
}

#[test]
fn leading_zeros_without_end_trip_the_overhead_guard() {
    // RFC 9112 §7.1: a size line of zeros never completes.
    let input = vec![b'0'; 200 * 1024];
    assert_eq!(
        whole(
            BodyLimits::DEFAULT,
            http_net_head::HeadLimits::DEFAULT,
            &input
        ),
        Outcome::Error(Error::ExcessiveFramingOverhead)
    );
    let bytes: Vec<&[u8]> = input.chunks(4096).collect();
    let got = feed(
        ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT),
        &bytes,
        false,
    );
    assert_eq!(got, Outcome::Error(Error::ExcessiveFramingOverhead));
}

#[test]
fn c60_a_trailer_over_the_head_limit() {
    // RFC 9110 §5.4, RFC 6585 §5: 70,000 bytes of trailer against 16 KiB.
    let mut input = b"0\r\nX: ".to_vec();
    input.extend(std::iter::repeat_n(b'A', 70_000));
    input.extend_from_slice(b"\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n");
    let got = whole(
        BodyLimits::DEFAULT,
        http_net_head::HeadLimits::DEFAULT,
        &input,
    );
    assert_eq!(
        got,
        Outcome::Error(Error::Trailer(http_net_head::Error::HeadTooLarge))
    );
    assert_eq!(
        Error::Trailer(http_net_head::Error::HeadTooLarge).status(),
        431
    );
}

#[test]
fn c83_too_many_trailers() {
    // RFC 9110 §5.4: more trailer lines than the head's field limit.
    let mut input = b"0\r\n".to_vec();
    input.extend(b"x: y\r\n".repeat(10_000));
    input.extend_from_slice(b"\r\n");
    let head = http_net_head::HeadLimits::DEFAULT.with_max_fields(4);
    let got = whole(BodyLimits::DEFAULT, head, &input);
    assert_eq!(
        got,
        Outcome::Error(Error::Trailer(http_net_head::Error::TooManyFields))
    );
}

#[test]
fn c88_content_length_in_many_small_reads() {
    // RFC 9112 §6.3 item 6: remaining = length - consumed, exactly.
    let mut body = vec![b'a'; 100_000];
    body.extend_from_slice(b"GET / HTTP/1.1\r\n");
    let mut dec = http_net_framing::LengthDecoder::new(100_000);
    let mut taken = 0;
    for piece in body.chunks(7) {
        let step = dec.decode(piece);
        assert_eq!(step.data, 0..step.consumed);
        taken += step.consumed;
        if step.done {
            break;
        }
    }
    assert_eq!((taken, dec.remaining()), (100_000, 0));
}

#[test]
fn errors_name_rule_section_and_status() {
    for e in [
        Error::InvalidContentLength,
        Error::ConflictingContentLength,
        Error::ContentLengthWithTransferEncoding,
        Error::ChunkedNotFinal,
        Error::ChunkedTwice,
        Error::UnsupportedTransferCoding,
        Error::TransferEncodingInHttp10,
        Error::BodyTooLarge,
        Error::InvalidChunkSize,
        Error::ChunkSizeOverflow,
        Error::InvalidChunkExtension,
        Error::ChunkExtensionTooLong,
        Error::ChunkBareLf,
        Error::ChunkBareCr,
        Error::MissingChunkCrlf,
        Error::ExcessiveFramingOverhead,
        Error::Trailer(http_net_head::Error::ObsFold),
    ] {
        let text = e.to_string();
        assert!(text.contains(e.rfc()), "{text}");
        assert!(e.rfc().starts_with("RFC "), "{e:?}");
        assert!(matches!(e.status(), 400 | 413 | 431 | 501), "{e:?}");
    }
    use http_net_framing::EncodeError as E;
    for e in [
        E::BodyOverrun,
        E::BodyUnderrun,
        E::TrailersNotChunked,
        E::InvalidTrailerName,
        E::InvalidTrailerValue,
        E::ForbiddenTrailerField,
    ] {
        let text = e.to_string();
        assert!(text.contains(e.rfc()), "{text}");
        assert!(e.rfc().starts_with("RFC "), "{e:?}");
    }
}

#[test]
fn c12_whitespace_before_the_colon_never_reaches_framing() {
    // RFC 9112 §5.1: the head parser rejects `Transfer-Encoding : chunked`
    // before any framing decision, so CL 6 is never read as the length.
    use http_net_head::{Parsed, RequestParser};
    let raw = b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\nX";
    let mut fields = [Field::default(); 8];
    let got = RequestParser::new(http_net_head::HeadLimits::DEFAULT).parse(raw, &mut fields);
    assert_eq!(got, Err(http_net_head::Error::WhitespaceBeforeColon));
    // And with the space gone, TE with CL is the framing error.
    let raw =
        b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n";
    let Ok(Parsed::Complete(h)) =
        RequestParser::new(http_net_head::HeadLimits::DEFAULT).parse(raw, &mut fields)
    else {
        panic!("head")
    };
    let got = request_body(h.version, &h.known, &fields, raw, &BodyLimits::DEFAULT);
    assert_eq!(got, Err(Error::ContentLengthWithTransferEncoding));
}

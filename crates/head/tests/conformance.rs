//! The conformance table of `cases/mod.rs`, run four ways per row: whole;
//! split in two at every position; one byte at a time, where every prefix
//! must give what a fresh parser gives on that prefix; and followed by
//! trailing bytes, which must be left unconsumed.

/// The table, pulled in with `include!` exactly as a fuzz or xtask build
/// would (which proves it can be).
mod cases {
    include!("cases/mod.rs");
}

use cases::{Case, Expect, Lim, Mode, CASES};
use http_net_head::{
    Error, Field, FieldBlockParser, HeadLimits, ObsFold, Parsed, RequestParser, ResponseOptions,
    ResponseParser,
};

/// What a parse produced, owned, comparable with an [`Expect`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Got {
    Partial,
    Request {
        method: Vec<u8>,
        target: Vec<u8>,
        form: http_net_head::TargetForm,
        version: http_net_head::Version,
        fields: Vec<(Vec<u8>, Vec<u8>)>,
        len: usize,
    },
    Response {
        version: http_net_head::Version,
        status: u16,
        reason: Vec<u8>,
        fields: Vec<(Vec<u8>, Vec<u8>)>,
        obs_fold: bool,
        len: usize,
    },
    Block {
        fields: Vec<(Vec<u8>, Vec<u8>)>,
        len: usize,
    },
    Err(Error),
}

fn expected(case: &Case) -> Got {
    let owned = |f: &[cases::F]| f.iter().map(|(n, v)| (n.to_vec(), v.to_vec())).collect();
    let len = case.input.len();
    match case.expect {
        Expect::Request {
            method,
            target,
            form,
            version,
            fields,
        } => Got::Request {
            method: method.to_vec(),
            target: target.to_vec(),
            form,
            version,
            fields: owned(fields),
            len,
        },
        Expect::Response {
            version,
            status,
            reason,
            fields,
            obs_fold,
        } => Got::Response {
            version,
            status,
            reason: reason.to_vec(),
            fields: owned(fields),
            obs_fold,
            len,
        },
        Expect::Block { fields } => Got::Block {
            fields: owned(fields),
            len,
        },
        Expect::Err(e) => Got::Err(e),
    }
}

fn limits(l: Lim) -> HeadLimits {
    HeadLimits::DEFAULT
        .with_max_head_bytes(l.head)
        .with_max_fields(l.fields)
        .with_max_target_bytes(l.target)
}

/// One parser of any mode, so the runners are written once.
enum Parser {
    Request(RequestParser),
    Response(ResponseParser),
    Block(FieldBlockParser),
}

impl Parser {
    fn new(case: &Case) -> Parser {
        let l = limits(case.limits);
        match case.mode {
            Mode::Request => Parser::Request(RequestParser::new(l)),
            Mode::Response => Parser::Response(ResponseParser::new(l, ResponseOptions::default())),
            Mode::ResponseRejectFold => Parser::Response(ResponseParser::new(
                l,
                ResponseOptions::DEFAULT.with_obs_fold(ObsFold::Reject),
            )),
            Mode::Block => Parser::Block(FieldBlockParser::new(l)),
        }
    }

    fn parse(&mut self, buf: &[u8], fields: &mut [Field]) -> Got {
        let view = |fs: &[Field], n: usize| -> Vec<(Vec<u8>, Vec<u8>)> {
            fs[..n]
                .iter()
                .map(|f| (f.name.get(buf).to_vec(), f.value.get(buf).to_vec()))
                .collect()
        };
        match self {
            Parser::Request(p) => match p.parse(buf, fields) {
                Ok(Parsed::Partial) => Got::Partial,
                Ok(Parsed::Complete(h)) => Got::Request {
                    method: h.method_span.get(buf).to_vec(),
                    target: h.target.get(buf).to_vec(),
                    form: h.target_form,
                    version: h.version,
                    fields: view(fields, h.field_count),
                    len: h.len,
                },
                Err(e) => Got::Err(e),
            },
            Parser::Response(p) => match p.parse(buf, fields) {
                Ok(Parsed::Partial) => Got::Partial,
                Ok(Parsed::Complete(h)) => Got::Response {
                    version: h.version,
                    status: h.status,
                    reason: h.reason.get(buf).to_vec(),
                    fields: view(fields, h.field_count),
                    obs_fold: h.obs_fold,
                    len: h.len,
                },
                Err(e) => Got::Err(e),
            },
            Parser::Block(p) => match p.parse(buf, fields) {
                Ok(Parsed::Partial) => Got::Partial,
                Ok(Parsed::Complete(b)) => Got::Block {
                    fields: view(fields, b.field_count),
                    len: b.len,
                },
                Err(e) => Got::Err(e),
            },
        }
    }
}

fn fresh(case: &Case, buf: &[u8]) -> Got {
    let mut fields = [Field::default(); 128];
    Parser::new(case).parse(buf, &mut fields)
}

fn run_case(case: &Case) {
    let want = expected(case);
    let input = case.input;
    let name = case.name;

    // 1. Whole.
    assert_eq!(fresh(case, input), want, "{name}: whole");

    // 2. Split in two at every position.
    for cut in 0..input.len() {
        let mut fields = [Field::default(); 128];
        let mut p = Parser::new(case);
        let first = p.parse(&input[..cut], &mut fields);
        match &first {
            Got::Partial => {
                assert_eq!(p.parse(input, &mut fields), want, "{name}: split at {cut}")
            }
            Got::Err(_) => assert_eq!(first, want, "{name}: error early at {cut}"),
            _ => panic!("{name}: complete on a prefix of {cut} bytes"),
        }
    }

    // 3. One byte at a time: each step gives what a fresh parser gives on
    //    the same prefix (no result depends on how the bytes came).
    let mut fields = [Field::default(); 128];
    let mut p = Parser::new(case);
    let mut last = Got::Partial;
    for end in 0..=input.len() {
        last = p.parse(&input[..end], &mut fields);
        assert_eq!(
            last,
            fresh(case, &input[..end]),
            "{name}: byte at a time, {end} bytes"
        );
        if last != Got::Partial {
            break;
        }
    }
    assert_eq!(last, want, "{name}: byte at a time");

    // 4. Trailing bytes stay unconsumed (the outcome, `len` included, is the
    //    same as without them).
    for tail in [&b"XYZ"[..], b"\r\n\r\n", b"GET / HTTP/1.1\r\n\r\n"] {
        let mut with = input.to_vec();
        with.extend_from_slice(tail);
        assert_eq!(fresh(case, &with), want, "{name}: with trailing {tail:?}");
    }
}

#[test]
fn conformance_table() {
    assert!(CASES.len() >= 150, "{} rows", CASES.len());
    let mut names = std::collections::HashSet::new();
    for case in CASES {
        assert!(names.insert(case.name), "duplicate row name {}", case.name);
        assert!(case.rfc.starts_with("RFC "), "{}: rfc", case.name);
        run_case(case);
    }
}

/// Every head rule of the strictness policy (RFC 9112 §2–§5), with rows that
/// show it both ways: accepted
/// near-misses and rejections (the names are rows of the table).
const RULES: &[(&str, &[&str], &[&str])] = &[
    (
        "bare LF / bare CR",
        &["get", "response-fold-kept"],
        &[
            "C32-bare-lf-value",
            "C90-lf-crlf",
            "C29-bare-cr-in-value",
            "C30-cr-cr-ends-head",
        ],
    ),
    (
        "obs-fold: requests reject, responses keep",
        &["response-fold-kept", "response-fold-twice"],
        &[
            "C24-obs-fold",
            "obs-fold-after-te",
            "response-fold-rejected",
        ],
    ),
    (
        "whitespace between name and colon",
        &["ows-trimmed", "value-colons"],
        &["C23-space-before-colon", "htab-before-colon"],
    ),
    (
        "field name a non-empty token",
        &["name-all-tchars", "fields-in-order"],
        &["C28-empty-name", "C33-obs-text-in-name", "C26-no-colon"],
    ),
    (
        "CTL / DEL in a value, obs-text accepted",
        &["C34-obs-text-kept", "value-vchars", "ows-trimmed"],
        &["C31-nul-in-value", "del-in-value", "ctl-in-value"],
    ),
    (
        "method a token",
        &[
            "extension-method",
            "method-all-tchars",
            "method-case-sensitive",
        ],
        &["C37-method-not-token", "method-htab"],
    ),
    (
        "exactly one SP between parts",
        &["get", "target-query"],
        &[
            "C41-double-space",
            "space-before-version",
            "space-after-version",
            "status-missing-sp",
        ],
    ),
    (
        "version HTTP/1.0, 1.1, other 1.x as 1.1; 2+ is 505",
        &["http10-no-host", "http19-is-11", "status-http11-minor"],
        &[
            "http20",
            "C44-h2-preface",
            "C39-two-digit-minor",
            "version-lowercase",
        ],
    ),
    (
        "a few leading empty lines",
        &["one-leading-crlf", "four-leading-crlf"],
        &[
            "C80-five-leading-crlf",
            "C80-empty-lines-only",
            "C38-leading-space",
        ],
    ),
    (
        "status line: 3 digits, SP, reason may be empty",
        &["status-empty-reason", "status-100", "status-999"],
        &[
            "status-two-digits",
            "status-four-digits",
            "status-leading-zero",
            "reason-ctl",
        ],
    ),
    (
        "target bytes (RFC 3986)",
        &["target-all-pchars", "target-pct", "absolute-ipv6-port"],
        &[
            "target-fragment",
            "target-lt",
            "pct-not-hex",
            "target-utf8",
            "target-bracket-origin",
        ],
    ),
    (
        "target forms: authority only with CONNECT, * only with OPTIONS",
        &[
            "connect-authority",
            "options-asterisk",
            "absolute-form",
            "options-origin",
        ],
        &[
            "authority-form-with-get",
            "connect-origin-form",
            "asterisk-with-get",
        ],
    ),
    (
        "Host: exactly one in HTTP/1.1, valid uri-host[:port]",
        &["host-port", "host-ipv6", "http10-no-host", "host-ows"],
        &[
            "C36-missing-host",
            "C36-duplicate-host",
            "host-empty",
            "host-path",
            "http10-invalid-host",
        ],
    ),
    (
        "head / fields / target limits",
        &["head-at-limit", "fields-at-limit", "target-at-limit"],
        &[
            "C77-head-over-limit",
            "C78-too-many-fields",
            "C79-target-over-limit",
        ],
    ),
];

#[test]
fn every_head_rule_has_near_misses_and_rejections() {
    let find = |name: &str| -> &Case {
        CASES
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no row {name}"))
    };
    for (rule, accepted, rejected) in RULES {
        assert!(accepted.len() >= 2 || rejected.len() >= 2, "{rule}");
        assert!(!accepted.is_empty() && !rejected.is_empty(), "{rule}");
        for name in *accepted {
            assert!(
                !matches!(find(name).expect, Expect::Err(_)),
                "{rule}: {name} is rejected"
            );
        }
        for name in *rejected {
            assert!(
                matches!(find(name).expect, Expect::Err(_)),
                "{rule}: {name} is accepted"
            );
        }
    }
}

/// The variants of [`Error`], read from its source in declaration order,
/// each with whether its doc comment makes it a front-line profile's.
fn error_variants() -> Vec<(&'static str, bool)> {
    let src = include_str!("../src/error.rs");
    let body = src
        .split_once("pub enum Error {")
        .and_then(|(_, rest)| rest.split_once("\n}"))
        .map_or("", |(body, _)| body);
    let mut variants = Vec::new();
    let mut front_line = false;
    for line in body.lines().map(str::trim) {
        if let Some(doc) = line.strip_prefix("///") {
            front_line |= doc.trim_start().starts_with("Front-line profile");
        } else if let Some(name) = line.strip_suffix(',') {
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric()) {
                variants.push((name, front_line));
            }
            front_line = false;
        }
    }
    variants
}

/// Every error variant appears in the table (at least two rows), as does an
/// accepted row for every mode; the front-line profile's variants, which
/// need the profile on, in the profile's own table (`front_line.rs`). The
/// variants are read from `Error`'s source, so a new one cannot be left out.
#[test]
fn table_covers_every_rule() {
    let variants = error_variants();
    assert!(variants.len() >= 25, "{variants:?}");
    let front_line_table = include_str!("front_line.rs");
    for (name, front_line) in variants {
        if front_line {
            assert!(
                front_line_table.contains(&format!("=> {name},")),
                "{name}: no row in front_line.rs"
            );
            continue;
        }
        let rows = CASES
            .iter()
            .filter(|c| matches!(c.expect, Expect::Err(e) if format!("{e:?}") == name))
            .count();
        assert!(rows >= 2, "{name}: {rows} rows");
    }
    for mode in [Mode::Request, Mode::Response, Mode::Block] {
        assert!(CASES
            .iter()
            .any(|c| c.mode == mode && !matches!(c.expect, Expect::Err(_))));
    }
}

//! The front-line profile (`HeadLimits::with_front_line`), row by row: each
//! input is accepted with the profile off, exactly as by the default
//! parser, and rejected with the profile on, with its error and status;
//! inputs the profile accepts parse the same either way. Every outcome is
//! also checked fed in two pieces at every split and one byte at a time.

use http_net_head::{
    Error, Field, FieldBlockParser, HeadLimits, ObsFold, Parsed, RequestParser, ResponseOptions,
    ResponseParser,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Request,
    Trailer,
    /// A response head, strict options.
    Response,
    /// A response head, whitespace before a colon taken (a leniency).
    ResponseWsColon,
}

/// The response options of a kind.
fn options(kind: Kind) -> ResponseOptions {
    match kind {
        Kind::ResponseWsColon => ResponseOptions::DEFAULT.with_whitespace_before_colon(true),
        _ => ResponseOptions::DEFAULT,
    }
}

/// An outcome, owned: the head's length and its fields, or the error.
type Got = Result<Option<(usize, Vec<(Vec<u8>, Vec<u8>)>)>, Error>;

/// The parser of a kind, kept across calls for the split feeds.
enum Parser {
    Request(RequestParser),
    Trailer(FieldBlockParser),
    Response(ResponseParser),
}

impl Parser {
    fn new(kind: Kind, limits: HeadLimits) -> Self {
        match kind {
            Kind::Request => Self::Request(RequestParser::new(limits)),
            Kind::Trailer => Self::Trailer(FieldBlockParser::new(limits)),
            Kind::Response | Kind::ResponseWsColon => {
                Self::Response(ResponseParser::new(limits, options(kind)))
            }
        }
    }

    /// One call: `Some((len, field_count))` when complete, `None` when partial.
    fn parse(&mut self, buf: &[u8], fields: &mut [Field]) -> Result<Option<(usize, usize)>, Error> {
        Ok(match self {
            Self::Request(p) => match p.parse(buf, fields)? {
                Parsed::Partial => None,
                Parsed::Complete(h) => Some((h.len, h.field_count)),
            },
            Self::Trailer(p) => match p.parse(buf, fields)? {
                Parsed::Partial => None,
                Parsed::Complete(b) => Some((b.len, b.field_count)),
            },
            Self::Response(p) => match p.parse(buf, fields)? {
                Parsed::Partial => None,
                Parsed::Complete(h) => Some((h.len, h.field_count)),
            },
        })
    }
}

fn once(kind: Kind, limits: HeadLimits, buf: &[u8]) -> Got {
    let mut fields = [Field::default(); 32];
    let got = Parser::new(kind, limits).parse(buf, &mut fields)?;
    Ok(got.map(|(len, n)| {
        let view = fields[..n]
            .iter()
            .map(|f| (f.name.get(buf).to_vec(), f.value.get(buf).to_vec()))
            .collect();
        (len, view)
    }))
}

/// Whole, at every split, one byte at a time: all must agree.
fn parse(kind: Kind, limits: HeadLimits, buf: &[u8]) -> Got {
    let whole = once(kind, limits, buf);
    for cut in 0..buf.len() {
        let mut fields = [Field::default(); 32];
        let mut p = Parser::new(kind, limits);
        let first = p.parse(&buf[..cut], &mut fields).map(|s| s.is_none());
        let again = p.parse(buf, &mut fields).map(|s| s.is_some());
        match first {
            Ok(true) => assert_eq!(again, whole.clone().map(|w| w.is_some()), "split at {cut}"),
            Ok(false) => panic!("complete on a prefix of {cut} bytes"),
            Err(e) => assert_eq!(Err(e), whole, "error early at {cut}"),
        }
    }
    // Every prefix: still partial, or already the same error (reported as
    // soon as its byte is in); complete only when whole.
    for end in 0..=buf.len() {
        match once(kind, limits, &buf[..end]) {
            Ok(None) => {}
            Ok(Some(_)) => assert_eq!(end, buf.len(), "complete on a prefix of {end} bytes"),
            e => assert_eq!(e, whole, "prefix of {end} bytes"),
        }
    }
    whole
}

/// One row: rejected with the profile on, accepted without it.
struct Row {
    name: &'static str,
    kind: Kind,
    input: &'static [u8],
    error: Error,
}

macro_rules! rows {
    ($($kind:ident $name:literal $input:literal => $e:ident),* $(,)?) => {
        &[$(Row { name: $name, kind: Kind::$kind, input: $input, error: Error::$e }),*]
    };
}

const ON: HeadLimits = HeadLimits::DEFAULT.with_front_line(true);

const UNREGISTERED: &[Row] = rows![
    Request "extension-method" b"FOO / HTTP/1.1\r\nHost: a\r\n\r\n" => UnregisteredMethod,
    Request "lowercase-get" b"get / HTTP/1.1\r\nHost: a\r\n\r\n" => UnregisteredMethod,
    Request "m-search" b"M-SEARCH * HTTP/1.1\r\nHost: a\r\n\r\n" => InvalidTargetForm,
];

const ENCODED: &[Row] = rows![
    Request "pct-00" b"GET /a%00b HTTP/1.1\r\nHost: a\r\n\r\n" => EncodedControlInTarget,
    Request "pct-0d" b"GET /a%0d HTTP/1.1\r\nHost: a\r\n\r\n" => EncodedControlInTarget,
    Request "pct-0D" b"GET /a%0D HTTP/1.1\r\nHost: a\r\n\r\n" => EncodedControlInTarget,
    Request "pct-0a-query" b"GET /a?x=%0a HTTP/1.1\r\nHost: a\r\n\r\n" => EncodedControlInTarget,
    Request "pct-0A-after-others" b"GET /%20%41%0A HTTP/1.1\r\nHost: a\r\n\r\n" => EncodedControlInTarget,
    Request "pct-absolute" b"GET http://a/%00 HTTP/1.1\r\nHost: a\r\n\r\n" => EncodedControlInTarget,
];

const LENGTH: &[Row] = rows![
    Request "cl-leading-zero" b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 05\r\n\r\n" => NonCanonicalContentLength,
    Request "cl-zeros" b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 00\r\n\r\n" => NonCanonicalContentLength,
    Request "cl-trailing-sp" b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5 \r\n\r\n" => NonCanonicalContentLength,
    Request "cl-two-sp" b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length:  5\r\n\r\n" => NonCanonicalContentLength,
    Request "cl-htab" b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\t5\r\n\r\n" => NonCanonicalContentLength,
    Request "cl-list" b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\n" => NonCanonicalContentLength,
    Request "cl-list-tight" b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5,5\r\n\r\n" => NonCanonicalContentLength,
    Request "cl-two-lines" b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\n" => NonCanonicalContentLength,
];

const HOST: &[Row] = rows![
    Request "absolute-other-host" b"GET http://a.example/ HTTP/1.1\r\nHost: b.example\r\n\r\n" => HostMismatch,
    Request "absolute-other-port" b"GET http://a:8080/ HTTP/1.1\r\nHost: a\r\n\r\n" => HostMismatch,
    Request "absolute-no-path-other" b"GET https://a?q HTTP/1.1\r\nHost: other\r\n\r\n" => HostMismatch,
];

const TRAILERS: &[Row] = rows![
    Trailer "trailer-content-length" b"Content-Length: 5\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-transfer-encoding" b"X: 1\r\ntransfer-encoding: chunked\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-host" b"Host: evil\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-authorization" b"AUTHORIZATION: Basic YTpi\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-content-type" b"Content-Type: text/html\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-trailer" b"Trailer: X\r\n\r\n" => ForbiddenTrailer,
];

const RESPONSE_LENGTH: &[Row] = rows![
    Response "response-cl-leading-zero" b"HTTP/1.1 200 OK\r\nContent-Length: 05\r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-zeros" b"HTTP/1.1 200 OK\r\nContent-Length: 00\r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-trailing-sp" b"HTTP/1.1 200 OK\r\nContent-Length: 5 \r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-two-sp" b"HTTP/1.1 200 OK\r\nContent-Length:  5\r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-htab" b"HTTP/1.1 204 No Content\r\nContent-Length:\t0\r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-list" b"HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-list-tight" b"HTTP/1.1 200 OK\r\nContent-Length: 5,5\r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-two-lines" b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX: y\r\ncontent-length: 5\r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-after-common-lines" b"HTTP/1.1 200 OK\r\nDate: x\r\nServer: y\r\nContent-Length: 01\r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-folded" b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n \r\n\r\n" => NonCanonicalContentLength,
    Response "response-cl-folded-digits" b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\t5\r\nX: y\r\n\r\n" => NonCanonicalContentLength,
    ResponseWsColon "response-cl-ws-before-colon" b"HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n" => NonCanonicalContentLength,
];

const RESPONSE_TRAILERS: &[Row] = rows![
    Trailer "trailer-set-cookie" b"Set-Cookie: id=1\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-www-authenticate" b"X: 1\r\nWWW-Authenticate: Basic realm=a\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-proxy-authenticate" b"proxy-authenticate: Basic realm=a\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-proxy-authorization" b"Proxy-Authorization: Basic YTpi\r\n\r\n" => ForbiddenTrailer,
    Trailer "trailer-content-encoding" b"Content-Encoding: gzip\r\n\r\n" => ForbiddenTrailer,
];

const SWITCH: &[Row] = rows![
    Response "101-no-upgrade" b"HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\n\r\n" => InvalidUpgrade,
    Response "101-empty-upgrade" b"HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade:\r\n\r\n" => InvalidUpgrade,
    Response "101-empty-member" b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket,\r\n\r\n" => InvalidUpgrade,
    Response "101-not-token" b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: web socket\r\n\r\n" => InvalidUpgrade,
    Response "101-empty-version" b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c/\r\n\r\n" => InvalidUpgrade,
    Response "101-second-line-bad" b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nUpgrade: a/b/c\r\n\r\n" => InvalidUpgrade,
    Response "101-folded" b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n x\r\n\r\n" => InvalidUpgrade,
];

const UPGRADE: &[Row] = rows![
    Request "upgrade-empty" b"GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade:\r\n\r\n" => InvalidUpgrade,
    Request "upgrade-empty-member" b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket,\r\n\r\n" => InvalidUpgrade,
    Request "upgrade-not-token" b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: web socket\r\n\r\n" => InvalidUpgrade,
    Request "upgrade-empty-version" b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c/\r\n\r\n" => InvalidUpgrade,
    Request "upgrade-two-slashes" b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: a/b/c\r\n\r\n" => InvalidUpgrade,
];

fn check_rows(rows: &[Row]) {
    for row in rows {
        let name = row.name;
        let off = parse(row.kind, HeadLimits::DEFAULT, row.input);
        if row.error == Error::InvalidTargetForm {
            // Rejected either way, but for the profile's own reason first
            // when it is on.
            assert_eq!(off, Err(row.error), "{name}: off");
            assert_eq!(
                parse(row.kind, ON, row.input),
                Err(Error::UnregisteredMethod),
                "{name}"
            );
            continue;
        }
        assert!(matches!(off, Ok(Some(_))), "{name}: off: {off:?}");
        assert_eq!(
            off,
            once(
                row.kind,
                HeadLimits::DEFAULT.with_front_line(false),
                row.input
            ),
            "{name}: off is the default"
        );
        assert_eq!(parse(row.kind, ON, row.input), Err(row.error), "{name}: on");
        let status = if row.error == Error::UnregisteredMethod {
            501
        } else {
            400
        };
        assert_eq!(row.error.status(), status, "{name}");
    }
}

#[test]
fn the_profile_is_off_by_default() {
    assert!(!HeadLimits::DEFAULT.front_line());
    assert!(HeadLimits::DEFAULT.with_front_line(true).front_line());
}

// proves: policy-front-line-request-unregistered-method
#[test]
fn unregistered_methods_are_501() {
    check_rows(UNREGISTERED);
}

// proves: policy-front-line-request-encoded-control
#[test]
fn encoded_nul_cr_lf_in_the_target_are_400() {
    check_rows(ENCODED);
}

// proves: policy-front-line-request-cl-leading-zero, policy-front-line-request-cl-whitespace, policy-front-line-request-cl-list
#[test]
fn content_length_other_than_one_plain_number_is_400() {
    check_rows(LENGTH);
}

// proves: policy-front-line-request-host-mismatch
#[test]
fn an_absolute_target_naming_another_host_is_400() {
    check_rows(HOST);
}

// proves: policy-front-line-request-trailers, policy-front-line-response-trailers
#[test]
fn framing_routing_and_credential_trailers_are_400() {
    check_rows(TRAILERS);
}

// proves: policy-front-line-request-upgrade
#[test]
fn an_upgrade_naming_no_valid_protocol_is_400() {
    check_rows(UPGRADE);
}

// proves: policy-front-line-response-cl-leading-zero, policy-front-line-response-cl-whitespace, policy-front-line-response-cl-list
#[test]
fn response_content_length_other_than_one_plain_number_is_rejected() {
    check_rows(RESPONSE_LENGTH);
}

// proves: policy-front-line-response-trailers
#[test]
fn response_trailers_with_credentials_challenges_or_content_handling_are_rejected() {
    check_rows(RESPONSE_TRAILERS);
}

// proves: policy-front-line-response-101-upgrade
#[test]
fn a_101_naming_no_valid_protocol_is_rejected() {
    check_rows(SWITCH);
}

/// A response's obs-fold is the business of `ObsFold`, not of the profile:
/// kept for unfolding by default, with the profile on or off (RFC 9112
/// §5.2 has a user agent replace it with SP), rejected with
/// `ObsFold::Reject` (for a proxy), with the profile on or off.
// proves: policy-response-obs-fold-reject
#[test]
fn response_obs_fold_is_replaced_by_default_and_rejected_by_the_option() {
    let buf = b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 0\r\n\r\n";
    let reject = ResponseOptions::DEFAULT.with_obs_fold(ObsFold::Reject);
    for limits in [HeadLimits::DEFAULT, ON] {
        let mut fields = [Field::default(); 8];
        let got = ResponseParser::new(limits, ResponseOptions::DEFAULT).parse(buf, &mut fields);
        let Ok(Parsed::Complete(head)) = got else {
            panic!("{got:?}")
        };
        assert!(head.obs_fold);
        assert_eq!(fields[0].value.get(buf), b"a\r\n b");
        let got = ResponseParser::new(limits, reject).parse(buf, &mut fields);
        assert_eq!(got, Err(Error::ObsFold));
    }
}

/// What the profile accepts, it parses exactly as without it.
#[test]
fn accepted_heads_parse_the_same_either_way() {
    let rows: &[(Kind, &[u8])] = &[
        (Kind::Request, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
        (Kind::Request, b"PROPFIND /d HTTP/1.1\r\nHost: a\r\n\r\n"),
        (Kind::Request, b"UPDATEREDIRECTREF /d HTTP/1.1\r\nHost: a\r\n\r\n"),
        (Kind::Request, b"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n"),
        (Kind::Request, b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n"),
        (Kind::Request, b"GET /a%20b%0F%1A%2d?q=%0b HTTP/1.1\r\nHost: a\r\n\r\n"),
        (Kind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n"),
        (Kind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length:0\r\n\r\n"),
        (Kind::Request, b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n"),
        (Kind::Request, b"GET http://A.Example:8080/x HTTP/1.1\r\nHost: a.example:8080\r\n\r\n"),
        (Kind::Request, b"GET http://[::1]/ HTTP/1.0\r\n\r\n"),
        (Kind::Request, b"GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: websocket, h2c/1 , x/y\r\n\r\n"),
        (Kind::Trailer, b"X-Checksum: abc\r\nExpires: never\r\n\r\n"),
        (Kind::Trailer, b"Server-Timing: db;dur=5\r\nDigest: x\r\n\r\n"),
        (Kind::Response, b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"),
        (Kind::Response, b"HTTP/1.1 200 OK\r\nContent-Length:0\r\n\r\n"),
        (Kind::Response, b"HTTP/1.0 200 OK\r\nDate: x\r\nContent-Length: 1234567890\r\nServer: y\r\n\r\n"),
        (Kind::Response, b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 5\r\n\r\n"),
        (Kind::Response, b"HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"),
        (Kind::Response, b"HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n"),
        (Kind::Response, b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c/1 , x/y\r\nUpgrade: z\r\n\r\n"),
        // Only a 101 switches: another status's Upgrade is advice.
        (Kind::Response, b"HTTP/1.1 426 Upgrade Required\r\nUpgrade: a b\r\nContent-Length: 0\r\n\r\n"),
        (Kind::Response, b"HTTP/1.1 200 OK\r\nUpgrade:\r\nContent-Length: 0\r\n\r\n"),
        (Kind::ResponseWsColon, b"HTTP/1.1 200 OK\r\nX : y\r\nContent-Length: 5\r\n\r\n"),
    ];
    for &(kind, input) in rows {
        let off = parse(kind, HeadLimits::DEFAULT, input);
        assert!(
            matches!(off, Ok(Some(_))),
            "{:?}: {off:?}",
            String::from_utf8_lossy(input)
        );
        assert_eq!(
            parse(kind, ON, input),
            off,
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

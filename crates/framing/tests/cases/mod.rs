//! The framing conformance table of http-net-framing, as plain data.
//!
//! Every row names the rule it exercises (RFC section, and, as a label, the id
//! `Cnn` of the known attack or bug it reproduces, where it reproduces one). Rows are
//! `pub const` data so that a fuzzing step can export them as a seed corpus:
//! [`LengthCase::raw_head`] renders a length row as a whole message head, and
//! a [`ChunkCase`]'s `input` is the body bytes that follow a
//! `Transfer-Encoding: chunked` head.
//!
//! `tests/conformance.rs` runs the rows; the harness owns how (whole, split
//! at every point, byte at a time, with trailing bytes, in place).
#![allow(dead_code)]

/// Which side receives the message.
#[derive(Clone, Copy, Debug)]
pub enum Side {
    /// A request, at a server.
    Request,
    /// A response to a request with this method, at a client.
    Response {
        /// The request method.
        method: &'static str,
        /// The response status.
        status: u16,
    },
}

/// The body-length decision a row expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `BodyKind::None`.
    NoBody,
    /// `BodyKind::Length(n)`.
    Length(u64),
    /// `BodyKind::Chunked`.
    Chunked,
    /// `BodyKind::CloseDelimited`.
    Close,
    /// `BodyKind::Tunnel`.
    Tunnel,
    /// An error: the `Debug` form of the `Error` variant and its status.
    Error(&'static str, u16),
}

/// A body-length row: a head's version and field lines (name, value as the
/// head parser hands it: OWS trimmed), and the decision.
#[derive(Clone, Copy, Debug)]
pub struct LengthCase {
    /// What the row shows.
    pub name: &'static str,
    /// The rule's section.
    pub rfc: &'static str,
    /// `true` for HTTP/1.1, `false` for HTTP/1.0.
    pub http11: bool,
    /// Request or response.
    pub side: Side,
    /// Field lines in received order.
    pub fields: &'static [(&'static [u8], &'static [u8])],
    /// Body budget (0: none); most rows use the 8 MiB default.
    pub budget: u64,
    /// The expected decision.
    pub expect: Expect,
}

/// The default body budget (8 MiB).
pub const DEFAULT_BUDGET: u64 = 8 * 1024 * 1024;

const fn req(
    name: &'static str,
    rfc: &'static str,
    fields: &'static [(&'static [u8], &'static [u8])],
    expect: Expect,
) -> LengthCase {
    LengthCase {
        name,
        rfc,
        http11: true,
        side: Side::Request,
        fields,
        budget: DEFAULT_BUDGET,
        expect,
    }
}

const fn req10(
    name: &'static str,
    rfc: &'static str,
    fields: &'static [(&'static [u8], &'static [u8])],
    expect: Expect,
) -> LengthCase {
    LengthCase {
        name,
        rfc,
        http11: false,
        side: Side::Request,
        fields,
        budget: DEFAULT_BUDGET,
        expect,
    }
}

const fn resp(
    name: &'static str,
    rfc: &'static str,
    method: &'static str,
    status: u16,
    fields: &'static [(&'static [u8], &'static [u8])],
    expect: Expect,
) -> LengthCase {
    LengthCase {
        name,
        rfc,
        http11: true,
        side: Side::Response { method, status },
        fields,
        budget: DEFAULT_BUDGET,
        expect,
    }
}

const fn budget(mut case: LengthCase, budget: u64) -> LengthCase {
    case.budget = budget;
    case
}

const fn http10(mut case: LengthCase) -> LengthCase {
    case.http11 = false;
    case
}

impl LengthCase {
    /// The row as a whole head (`POST / HTTP/1.1` with `Host`, or
    /// `HTTP/1.1 <status> X`), for a seed corpus or a head-parser cross-check.
    pub fn raw_head(&self) -> Vec<u8> {
        let version = if self.http11 { "HTTP/1.1" } else { "HTTP/1.0" };
        let mut out = match self.side {
            Side::Request => format!("POST / {version}\r\nHost: a\r\n").into_bytes(),
            Side::Response { status, .. } => format!("{version} {status} X\r\n").into_bytes(),
        };
        for (name, value) in self.fields {
            out.extend_from_slice(name);
            out.extend_from_slice(b": ");
            out.extend_from_slice(value);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out
    }
}

use Expect::*;

const CL: &[u8] = b"Content-Length";
const TE: &[u8] = b"Transfer-Encoding";

/// Body-length rows: the CL × TE × version matrix, CL shapes, TE
/// obfuscations, and the response rules.
#[rustfmt::skip]
pub const LENGTH_CASES: &[LengthCase] = &[
    // --- the matrix: requests ---------------------------------------------
    req("1.1 neither CL nor TE: no body", "RFC 9112 §6.3 item 7", &[], NoBody),
    req10("1.0 neither CL nor TE: no body", "RFC 9112 §6.3 item 7", &[], NoBody),
    req("1.1 CL only", "RFC 9112 §6.3 item 6", &[(CL, b"5")], Length(5)),
    req10("1.0 CL only", "RFC 9112 §6.3 item 6", &[(CL, b"5")], Length(5)),
    req("C65 CL 0 is an empty body", "RFC 9112 §6.3 item 6", &[(CL, b"0")], Length(0)),
    req("C64 GET with CL: framing from fields, not the method", "RFC 9112 §6.3 item 6", &[(CL, b"35")], Length(35)),
    // proves: 9112-6.1-4a
    req("C87 1.1 TE chunked only", "RFC 9112 §6.3 item 4", &[(TE, b"chunked")], Chunked),
    // proves: 9112-6.1-16
    req10("1.0 TE chunked", "RFC 9112 §6.1", &[(TE, b"chunked")], Error("TransferEncodingInHttp10", 400)),
    // proves: 9112-6.1-15
    req("C01 CL then TE", "RFC 9112 §6.3 item 3", &[(CL, b"5"), (TE, b"chunked")], Error("ContentLengthWithTransferEncoding", 400)),
    // proves: 9112-6.1-15
    req("C01 TE then CL", "RFC 9112 §6.3 item 3", &[(TE, b"chunked"), (CL, b"5")], Error("ContentLengthWithTransferEncoding", 400)),
    req("TE chunked with CL 0", "RFC 9112 §6.3 item 3", &[(TE, b"chunked"), (CL, b"0")], Error("ContentLengthWithTransferEncoding", 400)),
    req("TE chunked with an invalid CL", "RFC 9112 §6.3 item 3", &[(TE, b"chunked"), (CL, b"x")], Error("ContentLengthWithTransferEncoding", 400)),
    // proves: 9112-6.1-16
    req10("C22 1.0 TE and CL", "RFC 9112 §6.1", &[(TE, b"chunked"), (CL, b"5")], Error("TransferEncodingInHttp10", 400)),
    req10("1.0 CL then TE", "RFC 9112 §6.1", &[(CL, b"5"), (TE, b"chunked")], Error("TransferEncodingInHttp10", 400)),
    // proves: 9112-6.3-2.4
    req("C16 1.1 lone unknown coding", "RFC 9112 §6.3 item 4", &[(TE, b"blegh")], Error("ChunkedNotFinal", 400)),
    // proves: 9112-6.3-2.4
    req("1.1 lone gzip", "RFC 9112 §6.3 item 4", &[(TE, b"gzip")], Error("ChunkedNotFinal", 400)),
    req10("1.0 lone gzip", "RFC 9112 §6.1", &[(TE, b"gzip")], Error("TransferEncodingInHttp10", 400)),
    req("1.1 gzip with CL", "RFC 9112 §6.3 item 3", &[(TE, b"gzip"), (CL, b"5")], Error("ContentLengthWithTransferEncoding", 400)),
    req("1.1 gzip, chunked with CL", "RFC 9112 §6.3 item 3", &[(TE, b"gzip, chunked"), (CL, b"5")], Error("ContentLengthWithTransferEncoding", 400)),
    // --- Content-Length shapes ----------------------------------------------
    // proves: 9112-6.3-2.5a
    req("C05 CL +5", "RFC 9110 §8.6", &[(CL, b"+5")], Error("InvalidContentLength", 400)),
    req("CL -1", "RFC 9110 §8.6", &[(CL, b"-1")], Error("InvalidContentLength", 400)),
    req("C06 CL -48", "RFC 9110 §8.6", &[(CL, b"-48")], Error("InvalidContentLength", 400)),
    req("CL 0x10", "RFC 9110 §8.6", &[(CL, b"0x10")], Error("InvalidContentLength", 400)),
    req("C07 CL 1Z, no longest-prefix reading", "RFC 9110 §8.6", &[(CL, b"1Z")], Error("InvalidContentLength", 400)),
    req("CL 5 5", "RFC 9110 §8.6", &[(CL, b"5 5")], Error("InvalidContentLength", 400)),
    req("C10 CL 1 2", "RFC 9110 §8.6", &[(CL, b"1 2")], Error("InvalidContentLength", 400)),
    req("CL 5,6", "RFC 9112 §6.3 item 5", &[(CL, b"5,6")], Error("ConflictingContentLength", 400)),
    // proves: 9112-6.3-2.5a
    req("C04 CL 5, 6", "RFC 9112 §6.3 item 5", &[(CL, b"5, 6")], Error("ConflictingContentLength", 400)),
    // proves: 9112-6.3-2.5a
    req("C04 CL 5, 5 counts as one", "RFC 9110 §8.6", &[(CL, b"5, 5")], Length(5)),
    req("CL 5,5,5 counts as one", "RFC 9110 §8.6", &[(CL, b"5,5,5")], Length(5)),
    req("CL list with OWS around members", "RFC 9110 §5.6.1", &[(CL, b"5 ,\t5")], Length(5)),
    req("CL list with an empty member", "RFC 9110 §8.6", &[(CL, b"5,,5")], Error("InvalidContentLength", 400)),
    req("CL list with a trailing comma", "RFC 9110 §8.6", &[(CL, b"5,")], Error("InvalidContentLength", 400)),
    req("CL list with a leading comma", "RFC 9110 §8.6", &[(CL, b",5")], Error("InvalidContentLength", 400)),
    req("CL list 5, 6, x: the first broken rule in byte order", "RFC 9112 §6.3 item 5", &[(CL, b"5, 6, x")], Error("ConflictingContentLength", 400)),
    req("CL list 5, x, 6: the first broken rule in byte order", "RFC 9110 §8.6", &[(CL, b"5, x, 6")], Error("InvalidContentLength", 400)),
    req("C08 CL 010 is decimal 10", "RFC 9110 §8.6", &[(CL, b"010")], Length(10)),
    req("CL 000", "RFC 9110 §8.6", &[(CL, b"000")], Length(0)),
    req("CL with 30 leading zeros", "RFC 9110 §8.6", &[(CL, b"0000000000000000000000000000005")], Length(5)),
    // proves: 9110-8.6-10
    budget(req("CL 20 digits, u64::MAX, no budget", "RFC 9110 §8.6", &[(CL, b"18446744073709551615")], Length(u64::MAX)), 0),
    req("CL u64::MAX over the default budget", "RFC 9110 §15.5.14", &[(CL, b"18446744073709551615")], Error("BodyTooLarge", 413)),
    // proves: 9110-8.6-10
    budget(req("CL u64::MAX + 1 overflows", "RFC 9110 §8.6", &[(CL, b"18446744073709551616")], Error("InvalidContentLength", 400)), 0),
    // proves: 9110-8.6-10
    req("C11 CL 18446744073709551617", "RFC 9110 §8.6", &[(CL, b"18446744073709551617")], Error("InvalidContentLength", 400)),
    req("CL 20 nines", "RFC 9110 §8.6", &[(CL, b"99999999999999999999")], Error("InvalidContentLength", 400)),
    req("C09 CL empty", "RFC 9112 §6.3 item 5", &[(CL, b"")], Error("InvalidContentLength", 400)),
    req("CL only OWS", "RFC 9112 §6.3 item 5", &[(CL, b" \t")], Error("InvalidContentLength", 400)),
    req("CL with OWS around the value", "RFC 9110 §5.5", &[(CL, b"\t5 ")], Length(5)),
    req("CL with a VT before the digits", "RFC 9110 §5.6.3", &[(CL, b"\x0b5")], Error("InvalidContentLength", 400)),
    req("CL with a FF after the digits", "RFC 9110 §5.6.3", &[(CL, b"5\x0c")], Error("InvalidContentLength", 400)),
    req("CL with NBSP", "RFC 9110 §5.6.3", &[(CL, b"\xa05")], Error("InvalidContentLength", 400)),
    req("CL with an Arabic-Indic digit", "RFC 9110 §8.6", &[(CL, b"\xd9\xa5")], Error("InvalidContentLength", 400)),
    req("CL 1_0", "RFC 9110 §8.6", &[(CL, b"1_0")], Error("InvalidContentLength", 400)),
    req("CL 5.0", "RFC 9110 §8.6", &[(CL, b"5.0")], Error("InvalidContentLength", 400)),
    req("CL 5e1", "RFC 9110 §8.6", &[(CL, b"5e1")], Error("InvalidContentLength", 400)),
    req("CL quoted", "RFC 9110 §8.6", &[(CL, b"\"5\"")], Error("InvalidContentLength", 400)),
    // --- Content-Length repeated as field lines -------------------------
    // proves: 9112-6.3-2.5a
    req("C02 CL 1 then CL 0", "RFC 9112 §6.3 item 5", &[(CL, b"1"), (CL, b"0")], Error("ConflictingContentLength", 400)),
    req("C03 CL 0 then CL 1", "RFC 9112 §6.3 item 5", &[(CL, b"0"), (CL, b"1")], Error("ConflictingContentLength", 400)),
    req("CL 5 twice counts as one", "RFC 9110 §8.6", &[(CL, b"5"), (CL, b"5")], Length(5)),
    req("CL 5 and a list 5, 5", "RFC 9110 §8.6", &[(CL, b"5"), (CL, b"5, 5")], Length(5)),
    req("CL 5 and a list 5, 6", "RFC 9112 §6.3 item 5", &[(CL, b"5"), (CL, b"5, 6")], Error("ConflictingContentLength", 400)),
    req("CL 5 and an empty CL", "RFC 9112 §6.3 item 5", &[(CL, b"5"), (CL, b"")], Error("InvalidContentLength", 400)),
    req("C09 empty CL before a valid one", "RFC 9112 §6.3 item 5", &[(CL, b""), (CL, b"5")], Error("InvalidContentLength", 400)),
    req("CL lines apart, differing", "RFC 9112 §6.3 item 5", &[(CL, b"5"), (b"X-A", b"b"), (CL, b"6")], Error("ConflictingContentLength", 400)),
    req("CL lines apart, equal", "RFC 9110 §8.6", &[(CL, b"5"), (b"X-A", b"6"), (CL, b"05")], Length(5)),
    req("CL names in any case", "RFC 9110 §5.1", &[(b"content-length", b"7"), (b"CONTENT-LENGTH", b"7")], Length(7)),
    req("CL 010 and 10 are equal values", "RFC 9110 §8.6", &[(CL, b"010"), (CL, b"10")], Length(10)),
    req("a field named Content-Lengths is not CL", "RFC 9110 §5.1", &[(b"Content-Lengths", b"5")], NoBody),
    // --- budget -------------------------------------------------------------
    budget(req("C66 CL 12 over a budget of 10", "RFC 9110 §15.5.14", &[(CL, b"12")], Error("BodyTooLarge", 413)), 10),
    budget(req("CL at the budget", "RFC 9110 §15.5.14", &[(CL, b"10")], Length(10)), 10),
    req("CL at the default budget", "RFC 9110 §15.5.14", &[(CL, b"8388608")], Length(8 * 1024 * 1024)),
    req("CL one over the default budget", "RFC 9110 §15.5.14", &[(CL, b"8388609")], Error("BodyTooLarge", 413)),
    budget(req("the budget does not apply to chunked at the head", "RFC 9110 §15.5.14", &[(TE, b"chunked")], Chunked), 1),
    // --- Transfer-Encoding obfuscations ----------------------------------
    req("TE Chunked", "RFC 9112 §7", &[(TE, b"Chunked")], Chunked),
    req("TE CHUNKED", "RFC 9112 §7", &[(TE, b"CHUNKED")], Chunked),
    req("TE cHuNkEd", "RFC 9112 §7", &[(TE, b"cHuNkEd")], Chunked),
    req("TE name in lower case", "RFC 9110 §5.1", &[(b"transfer-encoding", b"chunked")], Chunked),
    req("TE name in upper case", "RFC 9110 §5.1", &[(b"TRANSFER-ENCODING", b"chunked")], Chunked),
    req("TE with a trailing SP", "RFC 9110 §5.6.3", &[(TE, b"chunked ")], Chunked),
    req("TE with a leading SP", "RFC 9110 §5.6.3", &[(TE, b" chunked")], Chunked),
    req("C18 TE with HTABs around", "RFC 9110 §5.6.3", &[(TE, b"\tchunked\t")], Chunked),
    req("C18 TE chunked<HTAB> with CL 60", "RFC 9112 §6.3 item 3", &[(TE, b"chunked\t"), (CL, b"60")], Error("ContentLengthWithTransferEncoding", 400)),
    // proves: 9110-5.6.1.2-1a, 9110-5.6.1.2-1b
    req("C17 TE ,chunked is chunked", "RFC 9110 §5.6.1", &[(TE, b",chunked")], Chunked),
    req("C17 TE ,chunked with CL 5", "RFC 9112 §6.3 item 3", &[(TE, b",chunked"), (CL, b"5")], Error("ContentLengthWithTransferEncoding", 400)),
    req("TE chunked, (empty last member)", "RFC 9110 §5.6.1", &[(TE, b"chunked,")], Chunked),
    // proves: 9110-5.6.1.2-1a, 9110-5.6.1.2-1b
    req("TE with empty members all around", "RFC 9110 §5.6.1", &[(TE, b", ,chunked, ,")], Chunked),
    req("TE empty line then chunked line", "RFC 9110 §5.6.1", &[(TE, b""), (TE, b"chunked")], Chunked),
    req("TE empty value: no coding at all", "RFC 9112 §6.3 item 4", &[(TE, b"")], Error("ChunkedNotFinal", 400)),
    req("TE only commas", "RFC 9112 §6.3 item 4", &[(TE, b" , ,")], Error("ChunkedNotFinal", 400)),
    req("C20 TE with a VT (head rejects it first; not chunked here)", "RFC 9110 §5.6.3", &[(TE, b"\x0bchunked")], Error("ChunkedNotFinal", 400)),
    req("C20 TE VT chunked with CL", "RFC 9112 §6.3 item 3", &[(TE, b"\x0bchunked"), (CL, b"5")], Error("ContentLengthWithTransferEncoding", 400)),
    req("TE with a FF (head rejects it first; not chunked here)", "RFC 9110 §5.6.3", &[(TE, b"chunked\x0c")], Error("ChunkedNotFinal", 400)),
    req("C19 TE with NBSP around", "RFC 9110 §5.6.3", &[(TE, b"\xa0chunked\xa0")], Error("ChunkedNotFinal", 400)),
    req("TE with NEL", "RFC 9110 §5.6.3", &[(TE, b"chunked\x85")], Error("ChunkedNotFinal", 400)),
    // proves: 9112-7.1-6
    req("TE chunked;x is not chunked", "RFC 9112 §7", &[(TE, b"chunked;x")], Error("ChunkedNotFinal", 400)),
    // proves: 9112-7.1-6
    req("TE chunked ;q=1 is not chunked", "RFC 9112 §7", &[(TE, b"chunked ;q=1")], Error("ChunkedNotFinal", 400)),
    req("TE xchunked", "RFC 9112 §7", &[(TE, b"xchunked")], Error("ChunkedNotFinal", 400)),
    req("TE chunkedx", "RFC 9112 §7", &[(TE, b"chunkedx")], Error("ChunkedNotFinal", 400)),
    req("TE chunk", "RFC 9112 §7", &[(TE, b"chunk")], Error("ChunkedNotFinal", 400)),
    req("TE quoted chunked", "RFC 9112 §7", &[(TE, b"\"chunked\"")], Error("ChunkedNotFinal", 400)),
    req("TE chunked chunked (one member with a space)", "RFC 9112 §7", &[(TE, b"chunked chunked")], Error("ChunkedNotFinal", 400)),
    req("TE identity", "RFC 9112 §6.3 item 4", &[(TE, b"identity")], Error("ChunkedNotFinal", 400)),
    // proves: 9112-6.1-11
    req("TE identity, chunked", "RFC 9112 §6.1", &[(TE, b"identity, chunked")], Error("UnsupportedTransferCoding", 501)),
    // proves: 9112-6.1-11
    req("TE gzip, chunked", "RFC 9112 §6.1", &[(TE, b"gzip, chunked")], Error("UnsupportedTransferCoding", 501)),
    req("TE gzip,chunked", "RFC 9112 §6.1", &[(TE, b"gzip,chunked")], Error("UnsupportedTransferCoding", 501)),
    req("TE deflate, chunked", "RFC 9112 §6.1", &[(TE, b"deflate, chunked")], Error("UnsupportedTransferCoding", 501)),
    req("TE gzip and chunked on two lines", "RFC 9110 §5.3", &[(TE, b"gzip"), (TE, b"chunked")], Error("UnsupportedTransferCoding", 501)),
    // proves: 9112-6.3-2.4
    req("TE chunked, gzip", "RFC 9112 §6.3 item 4", &[(TE, b"chunked, gzip")], Error("ChunkedNotFinal", 400)),
    req("C15 TE chunked, identity", "RFC 9112 §6.3 item 4", &[(TE, b"chunked, identity")], Error("ChunkedNotFinal", 400)),
    req("C15 TE chunked, identity with CL 3", "RFC 9112 §6.3 item 3", &[(TE, b"chunked, identity"), (CL, b"3")], Error("ContentLengthWithTransferEncoding", 400)),
    req("C21 TE folded into chunked , identity", "RFC 9112 §6.3 item 4", &[(TE, b"chunked , identity")], Error("ChunkedNotFinal", 400)),
    req("TE chunked, chunked", "RFC 9112 §6.1", &[(TE, b"chunked, chunked")], Error("ChunkedTwice", 400)),
    req("C13 TE chunked on two lines", "RFC 9112 §6.1", &[(TE, b"chunked"), (TE, b"chunked")], Error("ChunkedTwice", 400)),
    req("TE chunked, gzip, chunked", "RFC 9112 §6.1", &[(TE, b"chunked, gzip, chunked")], Error("ChunkedTwice", 400)),
    req("TE gzip, chunked, chunked", "RFC 9112 §6.1", &[(TE, b"gzip, chunked, chunked")], Error("ChunkedTwice", 400)),
    req("TE chunked, chunked, gzip: not final first", "RFC 9112 §6.3 item 4", &[(TE, b"chunked, chunked, gzip")], Error("ChunkedNotFinal", 400)),
    req("C14 TE chunked then afterlol", "RFC 9112 §6.3 item 4", &[(TE, b"chunked"), (TE, b"afterlol")], Error("ChunkedNotFinal", 400)),
    req("TE lines apart", "RFC 9110 §5.3", &[(TE, b"gzip"), (b"X-A", b"chunked"), (TE, b"chunked")], Error("UnsupportedTransferCoding", 501)),
    req("a field named Transfer-Encodings is not TE", "RFC 9110 §5.1", &[(b"Transfer-Encodings", b"chunked"), (CL, b"3")], Length(3)),
    // --- responses ------------------------------------------------------
    resp("response with neither: read to close", "RFC 9112 §6.3 item 8", "GET", 200, &[], Close),
    http10(resp("1.0 response with neither: read to close", "RFC 9112 §6.3 item 8", "GET", 200, &[], Close)),
    resp("response CL", "RFC 9112 §6.3 item 6", "GET", 200, &[(CL, b"5")], Length(5)),
    http10(resp("1.0 response CL", "RFC 9112 §6.3 item 6", "GET", 200, &[(CL, b"5")], Length(5))),
    resp("response CL 0", "RFC 9112 §6.3 item 6", "GET", 205, &[(CL, b"0")], Length(0)),
    resp("response TE chunked", "RFC 9112 §6.3 item 4", "POST", 201, &[(TE, b"chunked")], Chunked),
    resp("C99 response CL and TE: an error (strictness policy)", "RFC 9112 §6.3 item 3", "GET", 200, &[(CL, b"5"), (TE, b"chunked")], Error("ContentLengthWithTransferEncoding", 400)),
    http10(resp("1.0 response TE chunked", "RFC 9112 §6.1", "GET", 200, &[(TE, b"chunked")], Error("TransferEncodingInHttp10", 400))),
    resp("response TE gzip: read to close", "RFC 9112 §6.3 item 4", "GET", 200, &[(TE, b"gzip")], Close),
    resp("response TE chunked, gzip: read to close", "RFC 9112 §6.3 item 4", "GET", 200, &[(TE, b"chunked, gzip")], Close),
    resp("response TE empty: read to close", "RFC 9112 §6.3 item 4", "GET", 200, &[(TE, b"")], Close),
    resp("response TE gzip, chunked: not decoded", "RFC 9112 §6.1", "GET", 200, &[(TE, b"gzip, chunked")], Error("UnsupportedTransferCoding", 501)),
    resp("response TE chunked, chunked", "RFC 9112 §6.1", "GET", 200, &[(TE, b"chunked, chunked")], Error("ChunkedTwice", 400)),
    resp("response TE chunked twice as lines", "RFC 9112 §6.1", "GET", 200, &[(TE, b"chunked"), (TE, b"chunked")], Error("ChunkedTwice", 400)),
    resp("response TE chunked, chunked, gzip: twice", "RFC 9112 §6.1", "GET", 200, &[(TE, b"chunked, chunked, gzip")], Error("ChunkedTwice", 400)),
    resp("response TE ,CHUNKED", "RFC 9110 §5.6.1", "GET", 200, &[(TE, b",CHUNKED")], Chunked),
    resp("response CL 5,6", "RFC 9112 §6.3 item 5", "GET", 200, &[(CL, b"5,6")], Error("ConflictingContentLength", 400)),
    resp("response CL +5", "RFC 9110 §8.6", "GET", 200, &[(CL, b"+5")], Error("InvalidContentLength", 400)),
    resp("response CL 5, 5", "RFC 9110 §8.6", "GET", 200, &[(CL, b"5, 5")], Length(5)),
    resp("C100 HEAD response with CL: no body", "RFC 9112 §6.3 item 1", "HEAD", 200, &[(CL, b"5")], NoBody),
    resp("HEAD response with TE: no body", "RFC 9112 §6.3 item 1", "HEAD", 200, &[(TE, b"chunked")], NoBody),
    resp("HEAD response with CL and TE: no body", "RFC 9112 §6.3 item 1", "HEAD", 200, &[(TE, b"chunked"), (CL, b"1")], NoBody),
    resp("C101 204 with CL: no body", "RFC 9112 §6.3 item 1", "GET", 204, &[(CL, b"5")], NoBody),
    resp("304 with CL: no body", "RFC 9112 §6.3 item 1", "GET", 304, &[(CL, b"5")], NoBody),
    resp("304 with TE: no body", "RFC 9112 §6.3 item 1", "GET", 304, &[(TE, b"chunked")], NoBody),
    resp("100: no body", "RFC 9112 §6.3 item 1", "POST", 100, &[], NoBody),
    resp("101: no body", "RFC 9112 §6.3 item 1", "GET", 101, &[], NoBody),
    // proves: 9110-15-4
    resp("C103 103 with fields: no body", "RFC 9112 §6.3 item 1", "GET", 103, &[(CL, b"5")], NoBody),
    // proves: 9110-15-4
    resp("199: no body", "RFC 9112 §6.3 item 1", "GET", 199, &[], NoBody),
    resp("2xx to CONNECT: tunnel", "RFC 9112 §6.3 item 2", "CONNECT", 200, &[], Tunnel),
    resp("299 to CONNECT: tunnel", "RFC 9112 §6.3 item 2", "CONNECT", 299, &[], Tunnel),
    // proves: 9112-6.3-2.2, 9110-9.3.6-12b
    resp("2xx to CONNECT with CL: tunnel, CL ignored", "RFC 9112 §6.3 item 2", "CONNECT", 200, &[(CL, b"5")], Tunnel),
    resp("407 to CONNECT with CL: a body", "RFC 9112 §6.3 item 2", "CONNECT", 407, &[(CL, b"5")], Length(5)),
    resp("300 to CONNECT with neither: read to close", "RFC 9112 §6.3 item 8", "CONNECT", 300, &[], Close),
    resp("200 to an extension method: read to close", "RFC 9112 §6.3 item 8", "PURGE", 200, &[], Close),
    resp("500 with neither: read to close", "RFC 9112 §6.3 item 8", "GET", 500, &[], Close),
    budget(resp("response CL over the budget", "RFC 9110 §15.5.14", "GET", 200, &[(CL, b"9")], Error("BodyTooLarge", 413)), 8),
];

/// Body limits of a chunked row.
#[derive(Clone, Copy, Debug)]
pub struct ChunkLimits {
    /// Body budget (0: none).
    pub budget: u64,
    /// Extension bytes per chunk line.
    pub max_ext: usize,
}

/// The default chunk limits (1 KiB of extensions per chunk, 8 MiB body).
pub const DEFAULTS: ChunkLimits = ChunkLimits {
    budget: DEFAULT_BUDGET,
    max_ext: 1024,
};
/// No body budget.
pub const NO_BUDGET: ChunkLimits = ChunkLimits {
    budget: 0,
    max_ext: 1024,
};

/// What a chunked row expects.
#[derive(Clone, Copy, Debug)]
pub enum ChunkExpect {
    /// The whole body: its data and trailer fields (name, value); every
    /// byte of the input consumed, none after it.
    Body(&'static [u8], &'static [(&'static [u8], &'static [u8])]),
    /// An error: the `Debug` form of the `Error` and its status.
    Error(&'static str, u16),
    /// The input is a valid but incomplete prefix: more is needed, no error.
    Incomplete,
}

/// A chunked-body row: the bytes after a `Transfer-Encoding: chunked` head.
#[derive(Clone, Copy, Debug)]
pub struct ChunkCase {
    /// What the row shows.
    pub name: &'static str,
    /// The rule's section.
    pub rfc: &'static str,
    /// The body bytes.
    pub input: &'static [u8],
    /// Limits to decode with.
    pub limits: ChunkLimits,
    /// The outcome.
    pub expect: ChunkExpect,
}

const fn ok(
    name: &'static str,
    rfc: &'static str,
    input: &'static [u8],
    data: &'static [u8],
) -> ChunkCase {
    ChunkCase {
        name,
        rfc,
        input,
        limits: DEFAULTS,
        expect: ChunkExpect::Body(data, &[]),
    }
}

const fn err(
    name: &'static str,
    rfc: &'static str,
    input: &'static [u8],
    e: &'static str,
) -> ChunkCase {
    ChunkCase {
        name,
        rfc,
        input,
        limits: DEFAULTS,
        expect: ChunkExpect::Error(e, 400),
    }
}

const fn too_large(name: &'static str, rfc: &'static str, input: &'static [u8]) -> ChunkCase {
    ChunkCase {
        name,
        rfc,
        input,
        limits: DEFAULTS,
        expect: ChunkExpect::Error("BodyTooLarge", 413),
    }
}

const fn more(name: &'static str, rfc: &'static str, input: &'static [u8]) -> ChunkCase {
    ChunkCase {
        name,
        rfc,
        input,
        limits: DEFAULTS,
        expect: ChunkExpect::Incomplete,
    }
}

const fn limits(mut case: ChunkCase, limits: ChunkLimits) -> ChunkCase {
    case.limits = limits;
    case
}

/// Chunk grammar rows that need no trailer parser.
#[rustfmt::skip]
pub const CHUNK_CASES: &[ChunkCase] = &[
    ok("empty body", "RFC 9112 §7.1", b"0\r\n\r\n", b""),
    // proves: 9112-7.1-4, 9112-6.1-4a
    ok("C87 one chunk", "RFC 9112 §7.1", b"5\r\nhello\r\n0\r\n\r\n", b"hello"),
    ok("lower-case hex", "RFC 9112 §7.1", b"a\r\n0123456789\r\n0\r\n\r\n", b"0123456789"),
    ok("upper-case hex", "RFC 9112 §7.1", b"A\r\n0123456789\r\n0\r\n\r\n", b"0123456789"),
    ok("mixed-case hex", "RFC 9112 §7.1", b"1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n", b"abcdefghijklmnopqrstuvwxyz"),
    ok("leading zeros in a size", "RFC 9112 §7.1", b"00000005\r\nhello\r\n0\r\n\r\n", b"hello"),
    ok("20 leading zeros before 16 digits of size", "RFC 9112 §7.1", b"000000000000000000000000000000000001\r\nx\r\n0\r\n\r\n", b"x"),
    ok("last chunk of several zeros", "RFC 9112 §7.1", b"000\r\n\r\n", b""),
    // proves: 9112-7.1-4
    ok("several chunks", "RFC 9112 §7.1", b"1\r\na\r\n2\r\nbc\r\n3\r\ndef\r\n0\r\n\r\n", b"abcdef"),
    ok("data holding CR LF and a last chunk", "RFC 9112 §7.1", b"6\r\n0\r\n\r\nX\r\n0\r\n\r\n", b"0\r\n\r\nX"),
    ok("data of every byte class", "RFC 9112 §7.1", b"4\r\n\x00\n\r\xff\r\n0\r\n\r\n", b"\x00\n\r\xff"),
    // proves: 9112-7.1.1-4
    ok("extension name only", "RFC 9112 §7.1.1", b"5;ext\r\nhello\r\n0\r\n\r\n", b"hello"),
    ok("extension token value", "RFC 9112 §7.1.1", b"5;a=b\r\nhello\r\n0\r\n\r\n", b"hello"),
    // proves: 9112-7.1.1-4
    ok("several extensions", "RFC 9112 §7.1.1", b"5;a;b=c;d=\"e\"\r\nhello\r\n0\r\n\r\n", b"hello"),
    // proves: 9110-5.6.3-5b
    ok("C56 BWS before ;", "RFC 9112 §7.1.1", b"2 ; ext=1\r\naa\r\n0\r\n\r\n", b"aa"),
    // proves: 9110-5.6.3-5b
    ok("BWS around ; and =", "RFC 9112 §7.1.1", b"2\t;\ta\t=\tb ;c\r\naa\r\n0\r\n\r\n", b"aa"),
    // proves: 9110-5.6.4-3
    ok("C57 quoted value with ; and escaped quote", "RFC 9112 §7.1.1", b"2;a=\"x;\\\"y\"\r\naa\r\n0\r\n\r\n", b"aa"),
    ok("empty quoted value", "RFC 9112 §7.1.1", b"2;a=\"\"\r\naa\r\n0\r\n\r\n", b"aa"),
    ok("quoted value with HTAB, SP and obs-text", "RFC 9110 §5.6.4", b"2;a=\"\t x\xff\"\r\naa\r\n0\r\n\r\n", b"aa"),
    ok("quoted-pair of obs-text", "RFC 9110 §5.6.4", b"2;a=\"\\\xff\"\r\naa\r\n0\r\n\r\n", b"aa"),
    ok("extension on the last chunk", "RFC 9112 §7.1", b"1\r\nz\r\n0;last=yes\r\n\r\n", b"z"),
    ok("tchar extension name and value", "RFC 9110 §5.6.2", b"1;!#$%&'*+-.^_`|~09az=!#$%&'*+-.^_`|~\r\nz\r\n0\r\n\r\n", b"z"),
    limits(ok("extension at the per-chunk bound", "RFC 9112 §7.1.1", b"1;abc\r\nz\r\n0\r\n\r\n", b"z"), ChunkLimits { budget: DEFAULT_BUDGET, max_ext: 4 }),
    limits(err("extension over the per-chunk bound", "RFC 9112 §7.1.1", b"1;abcd\r\nz\r\n0\r\n\r\n", "ChunkExtensionTooLong"), ChunkLimits { budget: DEFAULT_BUDGET, max_ext: 4 }),
    limits(ok("the extension bound is per chunk", "RFC 9112 §7.1.1", b"1;abc\r\nz\r\n1;abc\r\ny\r\n0;abc\r\n\r\n", b"zy"), ChunkLimits { budget: DEFAULT_BUDGET, max_ext: 4 }),
    limits(err("BWS counts against the extension bound", "RFC 9112 §7.1.1", b"1    ;a\r\nz\r\n0\r\n\r\n", "ChunkExtensionTooLong"), ChunkLimits { budget: DEFAULT_BUDGET, max_ext: 4 }),
    // sizes
    limits(more("size u64::MAX, no budget", "RFC 9112 §7.1", b"ffffffffffffffff\r\nabc"), NO_BUDGET),
    limits(more("size u64::MAX after leading zeros", "RFC 9112 §7.1", b"0000ffffffffffffffff\r\nabc"), NO_BUDGET),
    too_large("size u64::MAX over the default budget", "RFC 9110 §15.5.14", b"FFFFFFFFFFFFFFFF\r\nabc"),
    // proves: 9112-7.1-5
    limits(err("size u64::MAX + 1", "RFC 9112 §7.1", b"10000000000000000\r\nabc", "ChunkSizeOverflow"), NO_BUDGET),
    // proves: 9112-7.1-5
    limits(err("C47 17 digits wrapping to 3", "RFC 9112 §7.1", b"f0000000000000003\r\nabc\r\n0\r\n\r\n", "ChunkSizeOverflow"), NO_BUDGET),
    limits(err("size of 17 f", "RFC 9112 §7.1", b"fffffffffffffffff\r\n", "ChunkSizeOverflow"), NO_BUDGET),
    limits(more("size at the budget", "RFC 9110 §15.5.14", b"8\r\nabcd"), ChunkLimits { budget: 8, max_ext: 1024 }),
    limits(too_large("size over the budget", "RFC 9110 §15.5.14", b"9\r\nabcd"), ChunkLimits { budget: 8, max_ext: 1024 }),
    limits(too_large("sizes adding up over the budget", "RFC 9110 §15.5.14", b"5\r\nhello\r\n4\r\nabcd\r\n0\r\n\r\n"), ChunkLimits { budget: 8, max_ext: 1024 }),
    err("C45 size read as a longest prefix", "RFC 9112 §7.1", b"0_2e\r\n\r\n", "InvalidChunkSize"),
    err("C46 -0x0", "RFC 9112 §7.1", b"-0x0\r\n\r\n", "InvalidChunkSize"),
    err("0x prefix", "RFC 9112 §7.1", b"0x5\r\nhello\r\n0\r\n\r\n", "InvalidChunkSize"),
    err("plus sign", "RFC 9112 §7.1", b"+5\r\nhello\r\n0\r\n\r\n", "InvalidChunkSize"),
    err("non-hex digit g", "RFC 9112 §7.1", b"g\r\n", "InvalidChunkSize"),
    err("C48 empty size line", "RFC 9112 §7.1", b"\r\n\r\n", "InvalidChunkSize"),
    err("C49 no last chunk, an empty line instead", "RFC 9112 §7.1", b"1\r\nZ\r\n\r\n\r\n", "InvalidChunkSize"),
    err("C54 whitespace before the size", "RFC 9112 §7.1", b"           0\r\n\r\n", "InvalidChunkSize"),
    err("C55 whitespace after the size", "RFC 9112 §7.1.1", b"3  \r\nabc\r\n0\r\n\r\n", "InvalidChunkSize"),
    err("HTAB after the size", "RFC 9112 §7.1.1", b"3\t\r\nabc\r\n0\r\n\r\n", "InvalidChunkSize"),
    err("whitespace inside the size", "RFC 9112 §7.1", b"1 0\r\n", "InvalidChunkSize"),
    err("C62 garbage instead of a size", "RFC 9112 §7.1", b"INVALID!!!\r\nGET / HTTP/1.1\r\nHost: whatever\r\n\r\n", "InvalidChunkSize"),
    err("a size line after the data that is not hex", "RFC 9112 §7.1", b"5\r\nhello\r\nX\r\n", "InvalidChunkSize"),
    // line ends
    err("C51 bare LF after the size", "RFC 9112 §7.1", b"5\nhello\r\n0\r\n\r\n", "ChunkBareLf"),
    err("bare LF after the data", "RFC 9112 §7.1", b"5\r\nhello\n0\r\n\r\n", "ChunkBareLf"),
    err("bare LF after the last chunk", "RFC 9112 §7.1", b"5\r\nhello\r\n0\n\r\n", "ChunkBareLf"),
    err("bare LF at the start of a size line", "RFC 9112 §7.1", b"\n", "ChunkBareLf"),
    err("C53 LF inside an extension", "RFC 9112 §7.1.1", b"2;a\nbb\r\nhi\r\n0\r\n\r\n", "ChunkBareLf"),
    err("LF inside a quoted extension", "RFC 9112 §7.1.1", b"2;a=\"\n\"\r\nhi\r\n0\r\n\r\n", "ChunkBareLf"),
    err("C52 CR then CR after the size", "RFC 9112 §2.2", b"5\r\r;ABCD\r\n34\r\nE\r\n0\r\n\r\n", "ChunkBareCr"),
    err("CR then a byte after the data", "RFC 9112 §2.2", b"5\r\nhello\rX0\r\n\r\n", "ChunkBareCr"),
    err("C50 two bytes after the data instead of CR LF", "RFC 9112 §7.1", b"5\r\nAAAAAXX2\r\nBB\r\n0\r\n\r\n", "MissingChunkCrlf"),
    err("data followed by the next size", "RFC 9112 §7.1", b"5\r\nhello5\r\nhello\r\n0\r\n\r\n", "MissingChunkCrlf"),
    err("data one byte longer than its size", "RFC 9112 §7.1", b"4\r\nhello\r\n0\r\n\r\n", "MissingChunkCrlf"),
    // extensions
    err("; without a name", "RFC 9112 §7.1.1", b"5;\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("= without a name", "RFC 9112 §7.1.1", b"5;=b\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("= without a value", "RFC 9112 §7.1.1", b"5;a=\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("unbalanced quote", "RFC 9112 §7.1.1", b"5;a=\"x\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("bytes after the closing quote", "RFC 9112 §7.1.1", b"5;a=\"x\"y\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("whitespace inside a name", "RFC 9112 §7.1.1", b"5;a b\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("whitespace inside a token value", "RFC 9112 §7.1.1", b"5;a=b c\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("whitespace after a value", "RFC 9112 §7.1.1", b"5;a=b \r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("whitespace after a name", "RFC 9112 §7.1.1", b"5;a \r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("NUL in a name", "RFC 9112 §7.1.1", b"5;a\x00\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("control byte as a value", "RFC 9112 §7.1.1", b"5;a=\x01\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("control byte in a quoted value", "RFC 9110 §5.6.4", b"5;a=\"\x01\"\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("DEL in a quoted value", "RFC 9110 §5.6.4", b"5;a=\"\x7f\"\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("DEL in a quoted-pair", "RFC 9110 §5.6.4", b"5;a=\"\\\x7f\"\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("DEL in a name", "RFC 9112 §7.1.1", b"5;a\x7f\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("CR inside a quoted value", "RFC 9112 §7.1.1", b"5;a=\"x\r\n\"\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("non-tchar in a name", "RFC 9112 §7.1.1", b"5;a@b\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("non-tchar as a value", "RFC 9112 §7.1.1", b"5;a=b/c\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("obs-text outside quotes", "RFC 9112 §7.1.1", b"5;a=\xff\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    err("two ; in a row", "RFC 9112 §7.1.1", b"5;;a\r\nhello\r\n0\r\n\r\n", "InvalidChunkExtension"),
    // incomplete
    more("truncated size line", "RFC 9112 §7.1", b"5"),
    more("truncated after the size CR", "RFC 9112 §7.1", b"5\r"),
    more("truncated data", "RFC 9112 §7.1", b"5\r\nhel"),
    more("truncated after the data", "RFC 9112 §7.1", b"5\r\nhello"),
    more("no last chunk", "RFC 9112 §7.1", b"5\r\nhello\r\n"),
    more("truncated extension", "RFC 9112 §7.1.1", b"5;a=\"x"),
    more("last chunk without the trailer section", "RFC 9112 §7.1.2", b"0\r\n"),
    more("last chunk and a lone CR", "RFC 9112 §7.1.2", b"0\r\n\r"),
    more("empty input", "RFC 9112 §7.1", b""),
];

/// Chunked rows whose trailer section is parsed with the head's field rules.
pub const TRAILER_CASES: &[ChunkCase] = &[
    // proves: 9112-7.1.2-3a
    ChunkCase {
        name: "one trailer",
        rfc: "RFC 9112 §7.1.2",
        input: b"5\r\nhello\r\n0\r\nExpires: never\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Body(b"hello", &[(b"Expires", b"never")]),
    },
    ChunkCase {
        name: "C58 a trailer whose value looks like a request line",
        rfc: "RFC 9112 §7.1.2",
        input: b"0\r\nX:POST / HTTP/1.1\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Body(b"", &[(b"X", b"POST / HTTP/1.1")]),
    },
    // proves: 9112-7.1.2-3a, 9112-7.1.2-3b, 9110-6.5.1-3
    ChunkCase {
        name: "C61 framing fields in trailers are delivered, never acted on",
        rfc: "RFC 9110 §6.5.1",
        input: b"0\r\nContent-Length: 50\r\nHost: evil\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Body(b"", &[(b"Content-Length", b"50"), (b"Host", b"evil")]),
    },
    ChunkCase {
        name: "trailers with OWS trimmed",
        rfc: "RFC 9112 §5",
        input: b"2\r\nab\r\n0;e\r\nA: \t1 \r\nb:2\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Body(b"ab", &[(b"A", b"1"), (b"b", b"2")]),
    },
    ChunkCase {
        name: "C59 a trailer line that is not a field line",
        rfc: "RFC 9112 §7.1.2",
        input: b"0\r\nX: a\r\nGET /smuggled HTTP/1.1\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Error("Trailer(InvalidFieldName)", 400),
    },
    ChunkCase {
        name: "obs-fold in a trailer",
        rfc: "RFC 9112 §5.2",
        input: b"0\r\nX: a\r\n b\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Error("Trailer(ObsFold)", 400),
    },
    ChunkCase {
        name: "whitespace before the colon of a trailer",
        rfc: "RFC 9112 §5.1",
        input: b"0\r\nX : a\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Error("Trailer(WhitespaceBeforeColon)", 400),
    },
    ChunkCase {
        name: "bare LF ending a trailer",
        rfc: "RFC 9112 §2.2",
        input: b"0\r\nX: a\nY: b\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Error("Trailer(BareLf)", 400),
    },
    ChunkCase {
        name: "bare LF as the end of the trailer section",
        rfc: "RFC 9112 §2.2",
        input: b"0\r\n\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Error("Trailer(BareLf)", 400),
    },
    ChunkCase {
        name: "NUL in a trailer value",
        rfc: "RFC 9110 §5.5",
        input: b"0\r\nX: a\x00\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Error("Trailer(InvalidFieldValue)", 400),
    },
    ChunkCase {
        name: "empty trailer name",
        rfc: "RFC 9110 §5.1",
        input: b"0\r\n: a\r\n\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Error("Trailer(EmptyFieldName)", 400),
    },
    ChunkCase {
        name: "truncated trailer line",
        rfc: "RFC 9112 §7.1.2",
        input: b"0\r\nX: a",
        limits: DEFAULTS,
        expect: ChunkExpect::Incomplete,
    },
    ChunkCase {
        name: "trailer section without its empty line",
        rfc: "RFC 9112 §7.1.2",
        input: b"5\r\nhello\r\n0\r\nX: a\r\n",
        limits: DEFAULTS,
        expect: ChunkExpect::Incomplete,
    },
];

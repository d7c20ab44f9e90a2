//! The output half shared by both connections: the output buffer (allocated
//! once), the barrier that lets a large body go out with a vectored write
//! instead of a copy, field-line writing with validation, and the body
//! encoders (Content-Length, chunked, close-delimited, dropped).

use alloc::vec::Vec;

use http_net_framing::{BodyEncoder, ChunkedEncoder};

use crate::validate::{content_length, is_field_value, is_token, list_has, trim_ows};
use crate::LocalError;

/// A field to send: name and value bytes, validated when written.
pub type FieldPair<'a> = (&'a [u8], &'a [u8]);

/// Bodies up to this many bytes are copied into the output buffer; larger
/// ones are left to the caller to send after the output (vectored write).
pub const COPY_LIMIT: usize = 4096;

/// Where the body bytes of a command went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "`Placement::AfterOutput` means the body bytes were not copied: write them right after the output, or they are lost"]
pub enum Placement {
    /// Copied into the output buffer (or nothing to send).
    Queued,
    /// Not copied: the caller sends them right after the current output
    /// (write [`output`](crate::ServerConn::output), then the body, then
    /// report the output with `consume_output`; bytes queued by later commands
    /// are held back until then).
    AfterOutput,
}

/// The output buffer. `buf[sent..]` waits to be sent; when a body was left to
/// the caller ([`Placement::AfterOutput`]), `barrier` marks where it goes:
/// [`Output::pending`] stops there until the bytes before it are consumed.
#[derive(Debug)]
pub(crate) struct Output {
    buf: Vec<u8>,
    sent: usize,
    barrier: Option<usize>,
    /// The caller's body bytes that go at the barrier (meaningful while a
    /// barrier is pending).
    owed: u64,
    /// The CR LF that ends a chunk left to the caller: written in front of
    /// the next bytes queued, so nothing shows past the barrier until the
    /// caller's next command.
    crlf_due: bool,
    wipe: bool,
}

impl Output {
    pub(crate) fn new(capacity: usize) -> Output {
        Output {
            buf: Vec::with_capacity(capacity),
            sent: 0,
            barrier: None,
            owed: 0,
            crlf_due: false,
            wipe: false,
        }
    }

    pub(crate) fn set_wipe(&mut self, wipe: bool) {
        self.wipe = wipe;
    }

    /// Forgets every queued byte (zeroed first when wiping), keeping the
    /// allocation (and whatever it grew to) and the wipe setting.
    pub(crate) fn reset(&mut self) {
        if self.wipe {
            self.buf.fill(0);
        }
        self.buf.clear();
        self.sent = 0;
        self.barrier = None;
        self.crlf_due = false;
    }

    /// Nothing queued, no barrier, no chunk end due: the buffer can be lent.
    pub(crate) fn is_empty(&self) -> bool {
        self.buf.is_empty() && self.barrier.is_none() && !self.crlf_due
    }

    /// The bytes the output buffer holds allocated.
    pub(crate) fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Swaps the allocation with `other`, keeping whatever is queued: the
    /// queued bytes (the rare case: queued while the buffers were lent) are
    /// copied into `other` first. Returns the allocation given up, empty.
    pub(crate) fn swap_buf(&mut self, mut other: Vec<u8>) -> Vec<u8> {
        other.clear();
        other.extend_from_slice(&self.buf);
        let mut old = core::mem::replace(&mut self.buf, other);
        if self.wipe {
            old.fill(0);
        }
        old.clear();
        old
    }

    /// The bytes to send now (up to a barrier).
    pub(crate) fn pending(&self) -> &[u8] {
        let end = self.barrier.unwrap_or(self.buf.len());
        self.buf.get(self.sent..end).unwrap_or(&[])
    }

    /// The caller's body bytes still owed at the barrier: `Some(n)` while
    /// bytes before a barrier wait to be sent, or bytes past it are held
    /// back.
    pub(crate) fn owed(&self) -> Option<u64> {
        self.barrier.map(|_| self.owed)
    }

    /// Every byte queued and not yet sent, past a barrier too.
    pub(crate) fn queued(&self) -> usize {
        self.buf.len() - self.sent
    }

    /// Reports `n` bytes of [`pending`](Output::pending) sent. Reaching the
    /// barrier means the caller's body went out right after: it lifts.
    pub(crate) fn consume(&mut self, n: usize) {
        let n = n.min(self.pending().len());
        if self.wipe {
            self.buf[self.sent..self.sent + n].fill(0);
        }
        self.sent += n;
        if self.barrier == Some(self.sent) {
            self.barrier = None;
        }
        if self.barrier.is_none() && self.sent == self.buf.len() {
            self.buf.clear();
            self.sent = 0;
        }
    }

    /// Drops the last `len` bytes from `start` when they are the whole
    /// unsent end of the output (no barrier, none of them sent, nothing
    /// after them); false, and nothing dropped, otherwise.
    pub(crate) fn truncate_unsent(&mut self, start: usize, len: usize) -> bool {
        let whole = self.unsent_tail(start, len);
        if whole {
            if self.wipe {
                self.buf[start..].fill(0);
            }
            self.buf.truncate(start);
        }
        whole
    }

    /// Whether the last `len` bytes from `start` are the whole unsent end of
    /// the output (no barrier, none of them sent, nothing after them).
    pub(crate) fn unsent_tail(&self, start: usize, len: usize) -> bool {
        self.barrier.is_none()
            && !self.crlf_due
            && self.sent <= start
            && len > 0
            && start.checked_add(len) == Some(self.buf.len())
    }

    /// The buffer to append to (with a deferred chunk CR LF written first).
    pub(crate) fn buf(&mut self) -> &mut Vec<u8> {
        if self.crlf_due {
            self.crlf_due = false;
            self.buf.extend_from_slice(ChunkedEncoder::CHUNK_END);
        }
        &mut self.buf
    }

    /// Queues `data` (a body piece): copied up to [`COPY_LIMIT`], otherwise
    /// left to the caller behind a barrier. With a barrier already pending,
    /// the piece is copied (it must follow the earlier body).
    #[inline]
    pub(crate) fn place(&mut self, data: &[u8]) -> Placement {
        if data.len() > COPY_LIMIT && self.barrier.is_none() {
            self.leave_to_caller(data.len() as u64)
        } else {
            self.buf().extend_from_slice(data);
            Placement::Queued
        }
    }

    /// A body of `n` bytes left to the caller: out of line, so that the
    /// copy `place` inlines stays small (callgrind, H5 loop: with the
    /// barrier written inline `place` stopped being inlined, +3
    /// instructions per request).
    #[cold]
    #[inline(never)]
    fn leave_to_caller(&mut self, n: u64) -> Placement {
        self.set_barrier(n);
        Placement::AfterOutput
    }

    /// Declares that the caller sends bytes itself right after the pending
    /// output (a head-only answer). False when a barrier is already pending.
    pub(crate) fn direct(&mut self, n: u64) -> bool {
        if self.barrier.is_some() {
            return false;
        }
        self.set_barrier(n);
        true
    }

    /// Marks the end of the output as where the caller's bytes go. With
    /// nothing pending the barrier sits where sending stands: nothing shows
    /// past it, and the debt is on record, until the caller reports it sent
    /// ([`consume`](Output::consume), of 0 bytes then).
    fn set_barrier(&mut self, owed: u64) {
        self.barrier = Some(self.buf.len());
        self.owed = owed;
    }
}

/// What the caller's fields said about framing and the connection, gathered
/// while they were written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CallerFields {
    /// The `Content-Length` value, when given (all lines equal).
    pub content_length: Option<u64>,
    /// `Transfer-Encoding` lines given.
    pub transfer_encoding: u8,
    /// The only `Transfer-Encoding` value is exactly `chunked`.
    pub te_chunked: bool,
    /// A `Date` field.
    pub date: bool,
    /// A `Server` field.
    pub server: bool,
    /// `Connection` lists `close`.
    pub close: bool,
    /// `Connection` lists `keep-alive`.
    pub keep_alive: bool,
    /// `Connection` lists `upgrade`.
    pub connection_upgrade: bool,
    /// An `Upgrade` field.
    pub upgrade: bool,
    /// `Host` lines.
    pub host: u8,
    /// Some `Host` value is not a valid host.
    pub bad_host: bool,
}

impl CallerFields {
    pub(crate) fn has_framing(&self) -> bool {
        self.content_length.is_some() || self.transfer_encoding > 0
    }
}

/// Appends `name: value\r\n` for each field, validating each (token name,
/// value without CTL or surrounding whitespace). On an error nothing is left
/// appended.
pub(crate) fn write_fields(
    out: &mut Vec<u8>,
    fields: &[FieldPair<'_>],
) -> Result<CallerFields, LocalError> {
    let start = out.len();
    let mut caller = CallerFields::default();
    for &(name, value) in fields {
        if let Err(e) = check_field(name, value, &mut caller) {
            out.truncate(start);
            return Err(e);
        }
        out.extend_from_slice(name);
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    Ok(caller)
}

/// Validates one field and records what it says.
pub(crate) fn check_field(
    name: &[u8],
    value: &[u8],
    caller: &mut CallerFields,
) -> Result<(), LocalError> {
    if !is_token(name) {
        return Err(LocalError::InvalidFieldName);
    }
    if !is_field_value(value) {
        return Err(LocalError::InvalidFieldValue);
    }
    // Field caller: names ruled out by length before any comparison.
    // Fast path, general twin `eq_ignore_ascii_case` (inside `token_is`).
    match name.len() {
        4 if token_is(name, b"date") => caller.date = true,
        4 if token_is(name, b"host") => {
            caller.host = caller.host.saturating_add(1);
            caller.bad_host |= !crate::validate::is_host(value);
        }
        6 if token_is(name, b"server") => caller.server = true,
        7 if token_is(name, b"upgrade") => caller.upgrade = true,
        10 if token_is(name, b"connection") => {
            caller.close |= list_has(value, b"close");
            caller.keep_alive |= list_has(value, b"keep-alive");
            caller.connection_upgrade |= list_has(value, b"upgrade");
        }
        14 if token_is(name, b"content-length") => {
            for member in value.split(|&b| b == b',') {
                let n = content_length(trim_ows(member)).ok_or(LocalError::ConflictingFraming)?;
                match caller.content_length {
                    Some(m) if m != n => return Err(LocalError::ConflictingFraming),
                    _ => caller.content_length = Some(n),
                }
            }
        }
        17 if token_is(name, b"transfer-encoding") => {
            caller.transfer_encoding = caller.transfer_encoding.saturating_add(1);
            caller.te_chunked =
                caller.transfer_encoding == 1 && value.eq_ignore_ascii_case(b"chunked");
        }
        _ => {}
    }
    Ok(())
}

/// `name.eq_ignore_ascii_case(lower)` for a `name` that is a token and a
/// `lower` of lowercase letters and `-` of 4 to 17 bytes: each byte ORed
/// with 0x20 and compared a word at a time (first and last four or eight
/// bytes, and byte 8 of a longer name). Exact here: the only bytes that
/// 0x20 turns into a lowercase letter are that letter in either case, and
/// into `-` only `-` and CR, which no token holds.
#[inline]
fn token_is(name: &[u8], lower: &[u8]) -> bool {
    #[cfg(not(http_net_general_path))]
    {
        fn words<const N: usize>(s: &[u8]) -> Option<([u8; N], [u8; N])> {
            Some((*s.first_chunk::<N>()?, *s.last_chunk::<N>()?))
        }
        if name.len() != lower.len() {
            return false;
        }
        if let (Some((a, b)), Some((x, y))) = (words::<8>(name), words::<8>(lower)) {
            const FOLD: u64 = 0x2020_2020_2020_2020;
            let mid = name
                .get(8)
                .zip(lower.get(8))
                .is_none_or(|(n, l)| n | 0x20 == *l);
            return u64::from_le_bytes(a) | FOLD == u64::from_le_bytes(x)
                && u64::from_le_bytes(b) | FOLD == u64::from_le_bytes(y)
                && mid;
        }
        if let (Some((a, b)), Some((x, y))) = (words::<4>(name), words::<4>(lower)) {
            const FOLD: u32 = 0x2020_2020;
            return u32::from_le_bytes(a) | FOLD == u32::from_le_bytes(x)
                && u32::from_le_bytes(b) | FOLD == u32::from_le_bytes(y);
        }
    }
    name.eq_ignore_ascii_case(lower)
}

/// Appends `Server: name\r\n` (a name validated by
/// [`Config::with_server_name`](crate::Config::with_server_name)).
#[inline]
pub(crate) fn write_server(out: &mut Vec<u8>, name: Option<&[u8]>) {
    if let Some(name) = name {
        out.extend_from_slice(b"Server: ");
        out.extend_from_slice(name);
        out.extend_from_slice(b"\r\n");
    }
}

/// Appends `Content-Length: n\r\n`.
pub(crate) fn write_content_length(out: &mut Vec<u8>, n: u64) {
    // Fast path, general twin the three appends below: below 10,000 the
    // whole line is one fixed-size append a digit count (`length_line`).
    if n < 10_000 && cfg!(not(http_net_general_path)) {
        match n {
            0..=9 => out.extend_from_slice(&length_line::<19, 2>(n, b"\r\n")),
            10..=99 => out.extend_from_slice(&length_line::<20, 2>(n, b"\r\n")),
            100..=999 => out.extend_from_slice(&length_line::<21, 2>(n, b"\r\n")),
            _ => out.extend_from_slice(&length_line::<22, 2>(n, b"\r\n")),
        }
        return;
    }
    out.extend_from_slice(b"Content-Length: ");
    write_decimal(out, n);
    out.extend_from_slice(b"\r\n");
}

/// Appends `Content-Length: n\r\n` and the empty line that ends the head:
/// the last two lines of most answers.
#[inline]
pub(crate) fn write_content_length_end(out: &mut Vec<u8>, n: u64) {
    // Fast path, general twin `write_content_length` then the CR LF: below
    // 10,000 both lines are one fixed-size append a digit count (H5 by
    // callgrind, docs/DECISIONS.md, D-31).
    if n < 10_000 && cfg!(not(http_net_general_path)) {
        match n {
            0..=9 => out.extend_from_slice(&length_line::<21, 4>(n, b"\r\n\r\n")),
            10..=99 => out.extend_from_slice(&length_line::<22, 4>(n, b"\r\n\r\n")),
            100..=999 => out.extend_from_slice(&length_line::<23, 4>(n, b"\r\n\r\n")),
            _ => out.extend_from_slice(&length_line::<24, 4>(n, b"\r\n\r\n")),
        }
        return;
    }
    write_content_length(out, n);
    out.extend_from_slice(b"\r\n");
}

/// `Content-Length: n` and `end` as `L` bytes: `L - 16 - E` digits of `n`
/// (the caller picks `L` from `n`'s digit count).
#[inline(always)]
fn length_line<const L: usize, const E: usize>(mut n: u64, end: &[u8; E]) -> [u8; L] {
    const NAME: &[u8; 16] = b"Content-Length: ";
    let mut line = [0u8; L];
    line[..16].copy_from_slice(NAME);
    line[L - E..].copy_from_slice(end);
    for d in line[16..L - E].iter_mut().rev() {
        *d = b'0' + (n % 10) as u8;
        n /= 10;
    }
    line
}

/// Appends `n` in decimal. Below 10,000 (most bodies a connection copies)
/// the digits go in as one fixed-size append each length, which is inlined,
/// instead of a copy call for a few bytes.
pub(crate) fn write_decimal(out: &mut Vec<u8>, n: u64) {
    // Fast path, general twin `decimal` below: -28 instructions per
    // request on the H5 loop (docs/PERFORMANCE.md, "The instruction-count
    // pass", 5).
    if n < 10_000 && cfg!(not(http_net_general_path)) {
        let d = |k: u64| b'0' + (n / k % 10) as u8;
        match n {
            0..=9 => out.push(d(1)),
            10..=99 => out.extend_from_slice(&[d(10), d(1)]),
            100..=999 => out.extend_from_slice(&[d(100), d(10), d(1)]),
            _ => out.extend_from_slice(&[d(1000), d(100), d(10), d(1)]),
        }
        return;
    }
    out.extend_from_slice(decimal(n, &mut [0u8; 20]));
}

/// `n` in decimal, written at the end of `digits`: the slice that holds it.
pub(crate) fn decimal(mut n: u64, digits: &mut [u8; 20]) -> &[u8] {
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &digits[i..];
        }
    }
}

/// Sending a body through framing's [`BodyEncoder`] (which checks the
/// exact length) into the output buffer: the bytes placed, chunk framing
/// around them, the last chunk and trailers.
pub(crate) trait SendBody {
    /// Queues a body piece.
    fn data(&mut self, out: &mut Output, data: &[u8]) -> Result<Placement, LocalError>;
    /// Counts `n` bytes the caller sends itself after the pending output.
    fn direct(&mut self, out: &mut Output, n: u64) -> Result<(), LocalError>;
    /// Ends the body: the last chunk and trailers for chunked.
    fn end(&self, out: &mut Output, trailers: &[FieldPair<'_>]) -> Result<(), LocalError>;
}

impl SendBody for BodyEncoder {
    #[inline]
    fn data(&mut self, out: &mut Output, data: &[u8]) -> Result<Placement, LocalError> {
        self.count(data.len() as u64)?;
        match self {
            BodyEncoder::Length(_) | BodyEncoder::CloseDelimited => Ok(out.place(data)),
            BodyEncoder::Chunked if data.is_empty() => Ok(Placement::Queued),
            BodyEncoder::Chunked => {
                out.buf()
                    .extend_from_slice(ChunkedEncoder::header(data.len()).as_bytes());
                let placement = out.place(data);
                if placement == Placement::AfterOutput {
                    // The chunk's CR LF opens the next framing bytes.
                    out.crlf_due = true;
                } else {
                    out.buf.extend_from_slice(ChunkedEncoder::CHUNK_END);
                }
                Ok(placement)
            }
            BodyEncoder::Discard(_) => Ok(Placement::Queued),
        }
    }

    fn direct(&mut self, out: &mut Output, n: u64) -> Result<(), LocalError> {
        match self {
            BodyEncoder::Length(left) => {
                if n > *left {
                    return Err(LocalError::BodyOverrun);
                }
                if n > 0 && !out.direct(n) {
                    return Err(LocalError::OutputFull);
                }
                *left -= n;
                Ok(())
            }
            BodyEncoder::Discard(_) => Ok(()),
            BodyEncoder::Chunked | BodyEncoder::CloseDelimited => Err(LocalError::WrongState),
        }
    }

    fn end(&self, out: &mut Output, trailers: &[FieldPair<'_>]) -> Result<(), LocalError> {
        self.finish(!trailers.is_empty())?;
        if *self == BodyEncoder::Chunked {
            ChunkedEncoder::write_last(out.buf(), trailers)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barrier_holds_back_later_bytes() {
        let mut out = Output::new(64);
        out.buf().extend_from_slice(b"HEAD");
        let big = [b'x'; COPY_LIMIT + 1];
        assert_eq!(out.place(&big), Placement::AfterOutput);
        out.buf().extend_from_slice(b"TAIL");
        assert_eq!(out.pending(), b"HEAD");
        assert_eq!(out.queued(), 8);
        assert_eq!(out.owed(), Some(COPY_LIMIT as u64 + 1));
        out.consume(2);
        assert_eq!(out.pending(), b"AD");
        assert_eq!(out.owed(), Some(COPY_LIMIT as u64 + 1));
        out.consume(2);
        assert_eq!(out.pending(), b"TAIL");
        assert_eq!(out.owed(), None);
        out.consume(4);
        assert_eq!(out.pending(), b"");
        assert_eq!(out.queued(), 0);
    }

    #[test]
    fn fields_are_validated_and_facts_recorded() {
        let mut out = Vec::new();
        let caller = write_fields(
            &mut out,
            &[
                (b"Content-Length", b"5, 5"),
                (b"Connection", b"keep-alive, Close"),
                (b"Date", b"x"),
            ],
        )
        .unwrap();
        assert_eq!(caller.content_length, Some(5));
        assert!(caller.close && caller.keep_alive && caller.date);
        assert!(out.ends_with(b"Date: x\r\n"));
        let before = out.len();
        assert_eq!(
            write_fields(
                &mut out,
                &[(b"A", b"ok"), (b"X", b"x\r\nSet-Cookie: evil=1")]
            ),
            Err(LocalError::InvalidFieldValue)
        );
        assert_eq!(out.len(), before, "nothing is left of a refused field list");
        assert_eq!(
            write_fields(&mut out, &[(b"Content-Length", b"5, 6")]),
            Err(LocalError::ConflictingFraming)
        );
        assert_eq!(
            write_fields(&mut out, &[(b"Content-Length", b"+5")]),
            Err(LocalError::ConflictingFraming)
        );
        assert_eq!(
            write_fields(&mut out, &[(b"Bad Name", b"v")]),
            Err(LocalError::InvalidFieldName)
        );
    }

    #[test]
    fn chunked_encoder_frames_and_ends() {
        let mut out = Output::new(64);
        let mut enc = BodyEncoder::Chunked;
        assert_eq!(enc.data(&mut out, b"hello").unwrap(), Placement::Queued);
        assert_eq!(enc.data(&mut out, b"").unwrap(), Placement::Queued);
        enc.end(&mut out, &[(b"X-Sum", b"1")]).unwrap();
        assert_eq!(out.pending(), b"5\r\nhello\r\n0\r\nX-Sum: 1\r\n\r\n");
        assert_eq!(
            enc.end(&mut out, &[(b"Host", b"a")]),
            Err(LocalError::ForbiddenTrailerField)
        );
        let mut len = BodyEncoder::Length(3);
        assert_eq!(len.data(&mut out, b"abcd"), Err(LocalError::BodyOverrun));
        assert_eq!(len.data(&mut out, b"ab").unwrap(), Placement::Queued);
        assert_eq!(len.end(&mut out, &[]), Err(LocalError::BodyUnderrun));
        let mut decimal = Vec::new();
        write_decimal(&mut decimal, 0);
        write_decimal(&mut decimal, u64::MAX);
        assert_eq!(decimal, b"018446744073709551615");
        // Every length of the small-number appends, and both sides of its bound.
        for n in [
            1u64, 9, 10, 42, 99, 100, 505, 999, 1000, 1024, 9999, 10_000, 123_456,
        ] {
            let mut decimal = Vec::new();
            write_decimal(&mut decimal, n);
            assert_eq!(decimal, alloc::format!("{n}").as_bytes(), "{n}");
        }
    }

    #[test]
    fn token_is_agrees_with_eq_ignore_ascii_case_on_tokens() {
        // Every name `check_field` looks for, with each byte in turn
        // replaced by every byte that keeps the name a token.
        for lower in [
            &b"date"[..],
            b"host",
            b"server",
            b"upgrade",
            b"connection",
            b"content-length",
            b"transfer-encoding",
        ] {
            assert!(token_is(lower, lower));
            assert!(token_is(&lower.to_ascii_uppercase(), lower));
            for i in 0..lower.len() {
                for b in 0..=255u8 {
                    let mut name = lower.to_vec();
                    name[i] = b;
                    if !crate::validate::is_token(&name) {
                        continue;
                    }
                    let want = name.eq_ignore_ascii_case(lower);
                    assert_eq!(token_is(&name, lower), want, "{name:?}");
                }
            }
        }
    }

    #[test]
    fn content_length_line_every_digit_count() {
        // The fixed-size lines below 10,000 (each digit count, both sides of
        // each bound) and the general appends above.
        for n in [
            0u64,
            7,
            9,
            10,
            13,
            99,
            100,
            512,
            999,
            1000,
            1024,
            9999,
            10_000,
            65_536,
            u64::MAX,
        ] {
            let mut line = Vec::new();
            write_content_length(&mut line, n);
            assert_eq!(
                line,
                alloc::format!("Content-Length: {n}\r\n").as_bytes(),
                "{n}"
            );
            let mut head_end = Vec::new();
            write_content_length_end(&mut head_end, n);
            assert_eq!(
                head_end,
                alloc::format!("Content-Length: {n}\r\n\r\n").as_bytes(),
                "{n}"
            );
        }
    }
}

use crate::section::{lf_after_cr, Rules, Section};
use crate::work::Work;
use crate::{front, version, Error, Field, HeadLimits, KnownFields, Parsed, Span, Version};
use http_net_scan::field_value_run;

/// What a response parser does with an obs-fold (RFC 9112 §5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ObsFold {
    /// Keep the fold inside the value span and report it in
    /// [`ResponseHead::obs_fold`]; the caller applies
    /// [`unfold_in_place`](crate::unfold_in_place) (a user agent's duty).
    #[default]
    Replace,
    /// Reject it with [`Error::ObsFold`] (for proxies).
    Reject,
}

/// Options of the response parser.
///
/// The default is strict: the same line, field and spacing rules as a
/// request, with obs-fold kept for unfolding ([`ObsFold::Replace`], which
/// RFC 9112 §5.2 asks of a user agent). The three leniencies below are for
/// a client that must talk to a broken server; each is off by default,
/// applies to the head only (never to chunk lines, trailers or framing),
/// and names the risk it accepts. A proxy should leave them off: a
/// response it reads leniently may be read differently by the next hop.
///
/// ```
/// use http_net_head::{Field, HeadLimits, ResponseOptions, ResponseParser, Parsed};
///
/// let buf = b"HTTP/1.1 200\nContent-Length : 2\n\nok";
/// let mut fields = [Field::default(); 4];
/// let strict = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::DEFAULT).parse(buf, &mut fields);
/// assert!(strict.is_err());
/// let lenient = ResponseOptions::DEFAULT
///     .with_bare_lf(true)
///     .with_whitespace_before_colon(true)
///     .with_reason_without_space(true);
/// let mut parser = ResponseParser::new(HeadLimits::DEFAULT, lenient);
/// let Ok(Parsed::Complete(head)) = parser.parse(buf, &mut fields) else { panic!() };
/// assert_eq!((head.status, head.reason.get(buf)), (200, &b""[..]));
/// assert_eq!(fields[0].name.get(buf), b"Content-Length");
/// assert_eq!(&buf[head.len..], b"ok");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResponseOptions {
    /// Obs-fold handling.
    pub obs_fold: ObsFold,
    /// Take a bare LF as the end of the status line, a field line or the
    /// head (RFC 9112 §2.2 allows a recipient to; off: [`Error::BareLf`]).
    /// A CR not followed by LF is still [`Error::BareCr`].
    ///
    /// Risk: a reader that does not take a bare LF as a line end sees one
    /// line where this parser sees two, so the two disagree on the fields
    /// (and on the framing, if a hidden line is `Content-Length` or
    /// `Transfer-Encoding`).
    pub bare_lf: bool,
    /// Take SP or HTAB between a field name and its colon as belonging to
    /// neither: `Content-Length : 5` is `Content-Length` (off:
    /// [`Error::WhitespaceBeforeColon`]; RFC 9112 §5.1 makes a proxy remove
    /// it and a server reject it).
    ///
    /// Risk: a reader that keeps the whitespace in the name does not see a
    /// `Content-Length` or `Transfer-Encoding` this parser frames the body
    /// by, so the two disagree on where the response ends.
    pub whitespace_before_colon: bool,
    /// Accept a status line with no SP after the status code when the
    /// reason is empty, `HTTP/1.1 200` CR LF (RFC 9112 §4 requires the SP;
    /// off: [`Error::InvalidStartLineSpacing`]). The reason is empty.
    ///
    /// Risk: small; the status line is read as a reader that reads the
    /// code's three digits would, but a message that breaks the grammar
    /// here may come from a peer that breaks it elsewhere.
    pub reason_without_space: bool,
}

/// One `const` builder method a field: `with_x(value)` sets field `x`.
macro_rules! option_setters {
    ($($method:ident($field:ident: $ty:ty)),* $(,)?) => {$(
        #[doc = concat!("Sets [`", stringify!($field), "`](ResponseOptions::", stringify!($field), ").")]
        #[must_use]
        pub const fn $method(mut self, $field: $ty) -> ResponseOptions {
            self.$field = $field;
            self
        }
    )*};
}

impl ResponseOptions {
    /// The strict default: obs-fold kept for unfolding, no leniency.
    pub const DEFAULT: ResponseOptions = ResponseOptions {
        obs_fold: ObsFold::Replace,
        bare_lf: false,
        whitespace_before_colon: false,
        reason_without_space: false,
    };

    option_setters! {
        with_obs_fold(obs_fold: ObsFold),
        with_bare_lf(bare_lf: bool),
        with_whitespace_before_colon(whitespace_before_colon: bool),
        with_reason_without_space(reason_without_space: bool),
    }
}

/// A parsed response head; spans refer to the parsed buffer.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResponseHead {
    /// The version.
    pub version: Version,
    /// The status code, 100 to 999.
    pub status: u16,
    /// The reason phrase (possibly empty).
    pub reason: Span,
    /// How many field lines were stored.
    pub field_count: usize,
    /// Bytes of the head, the final empty line included.
    pub len: usize,
    /// Whether some field value holds an obs-fold still to be unfolded.
    pub obs_fold: bool,
    /// What the fields say about framing and the connection (the known fields).
    pub known: KnownFields,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StatusLineState {
    /// In the version (from offset 0).
    Version,
    /// After the version: SP expected.
    VersionEnd,
    /// In the three digits of the status code, which started at `mark`.
    Code,
    /// After the code: SP expected.
    CodeEnd,
    /// In the reason phrase, which started at `mark`.
    Reason,
    /// After the CR ending the status line: LF expected.
    ReasonCr,
    /// In the field lines.
    Fields,
    /// A result was returned; it is returned again until `reset`.
    Done,
}

/// A resumable response-head parser, with the same contract as
/// [`RequestParser`](crate::RequestParser).
///
/// ```text
/// status-line = HTTP-version SP status-code SP [ reason-phrase ]  ; RFC 9112 §4
/// ```
/// The second SP is required even when the reason is empty (a line such as
/// `HTTP/1.1 200` CR LF is [`Error::InvalidStartLineSpacing`]); the status
/// code is three digits from 100 to 999 (a first digit of 0 is
/// [`Error::InvalidStatusCode`]). No empty lines are skipped before the
/// status line. A response whose first bytes are a TLS record header
/// (`0x15` or `0x16`, then `0x03`: RFC 8446 §5.1) is [`Error::TlsRecord`]:
/// a TLS server answered a plain request.
///
/// ```
/// use http_net_head::{Error, Field, HeadLimits, ResponseOptions, ResponseParser};
///
/// // A TLS alert record, as a TLS server answers `GET / HTTP/1.1`.
/// let alert = b"\x15\x03\x03\x00\x02\x02\x46";
/// let mut parser = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::DEFAULT);
/// let mut fields = [Field::default(); 4];
/// assert_eq!(parser.parse(alert, &mut fields), Err(Error::TlsRecord));
/// assert!(Error::TlsRecord.to_string().contains("use an https:// URL"));
/// ```
#[derive(Clone, Debug)]
pub struct ResponseParser {
    limits: HeadLimits,
    options: ResponseOptions,
    stage: StatusLineState,
    pos: usize,
    mark: usize,
    version: Version,
    status: u16,
    reason: Span,
    section: Section,
    work: Work,
    /// After `Done`: the error, if the head was rejected.
    error: Option<Error>,
    /// After `Done` without error: the head's length.
    len: usize,
}

impl ResponseParser {
    /// A parser with these limits and options.
    pub const fn new(limits: HeadLimits, options: ResponseOptions) -> ResponseParser {
        ResponseParser {
            limits,
            options,
            stage: StatusLineState::Version,
            pos: 0,
            mark: 0,
            version: Version::Http11,
            status: 0,
            reason: Span::EMPTY,
            section: Section::new(0),
            work: Work::new(),
            error: None,
            len: 0,
        }
    }

    /// Forgets any partial progress.
    pub fn reset(&mut self) {
        *self = ResponseParser::new(self.limits, self.options);
    }

    /// Bytes examined since the last reset (only with the `count-work`
    /// feature, for the linearity test).
    #[cfg(feature = "count-work")]
    #[doc(hidden)]
    pub fn work(&self) -> u64 {
        self.work.total() + self.section.work.total()
    }

    /// Parses (or resumes parsing) a response head at the start of `buf`.
    ///
    /// ```
    /// use http_net_head::{Field, HeadLimits, ResponseOptions, ResponseParser, Parsed};
    ///
    /// let buf = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
    /// let mut parser = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::default());
    /// let mut fields = [Field::default(); 8];
    /// let Ok(Parsed::Complete(head)) = parser.parse(buf, &mut fields) else { panic!() };
    /// assert_eq!(head.status, 404);
    /// assert_eq!(head.reason.get(buf), b"Not Found");
    /// assert_eq!(head.known.content_length.count(), 1);
    /// ```
    pub fn parse(
        &mut self,
        buf: &[u8],
        fields: &mut [Field],
    ) -> Result<Parsed<ResponseHead>, Error> {
        if self.stage != StatusLineState::Done {
            let max = self.limits.max_head_bytes();
            let view = buf.get(..max).unwrap_or(buf);
            match self.step(view, fields) {
                Ok(None) if buf.len() > max => self.error = Some(Error::HeadTooLarge),
                Ok(None) => return Ok(Parsed::Partial),
                Ok(Some(len)) => self.len = len,
                Err(e) => self.error = Some(e),
            }
            self.stage = StatusLineState::Done;
        }
        match self.error {
            Some(e) => Err(e),
            None => Ok(Parsed::Complete(self.head())),
        }
    }

    /// The one-pass path for a common status line complete in `buf`:
    /// `HTTP/1.x SP 3DIGIT SP reason CR LF`. It records the line and moves
    /// on to the fields (`true`); otherwise it changes nothing (`false`) and
    /// the staged path takes the line from its start.
    // Fast path; general twin: stages Version..ReasonCr; response head 118 -> 103 ns (docs/PERFORMANCE.md).
    #[cfg(not(http_net_general_path))]
    #[inline(always)]
    fn common_status_line(&mut self, buf: &[u8]) -> bool {
        let Some((head, rest)) = buf.split_first_chunk::<13>() else {
            return false;
        };
        let (version, code) = head.split_at(8);
        // The eight version bytes as one word, two compares (as the request
        // line's): docs/DECISIONS.md, D-31.
        let Ok(version) = <[u8; 8]>::try_from(version) else {
            return false;
        };
        let version = match u64::from_le_bytes(version) {
            w if w == u64::from_le_bytes(*b"HTTP/1.1") => Version::Http11,
            w if w == u64::from_le_bytes(*b"HTTP/1.0") => Version::Http10,
            _ => return false,
        };
        let &[b' ', a @ b'1'..=b'9', b @ b'0'..=b'9', c @ b'0'..=b'9', b' '] = code else {
            return false;
        };
        let n = field_value_run(rest);
        self.work.add(14 + n);
        if rest.get(n..n + 2) != Some(b"\r\n".as_slice()) {
            return false;
        }
        self.version = version;
        self.status = u16::from(a - b'0') * 100 + u16::from(b - b'0') * 10 + u16::from(c - b'0');
        self.reason = Span::new(13, 13 + n);
        self.pos = 13 + n + 2;
        self.section = Section::new(self.pos);
        self.stage = StatusLineState::Fields;
        true
    }

    /// The head, once the stages are done.
    fn head(&self) -> ResponseHead {
        ResponseHead {
            version: self.version,
            status: self.status,
            reason: self.reason,
            field_count: self.section.count,
            len: self.len,
            obs_fold: self.section.folded,
            known: self.section.known,
        }
    }

    /// The front-line rule on a 101 (Switching Protocols), at the end of its
    /// head: at least one `Upgrade` line, each a list of protocols. Only a
    /// 101 switches, so only a 101's `Upgrade` decides what the bytes after
    /// the head are (RFC 9110 §7.8: a server sending 101 MUST send
    /// `Upgrade`).
    fn front_line_switch(&self, buf: &[u8], fields: &[Field]) -> Result<(), Error> {
        let upgrade = &self.section.known.upgrade;
        if upgrade.is_empty() {
            return Err(Error::InvalidUpgrade);
        }
        for value in upgrade.values(b"upgrade", fields, buf) {
            if !front::valid_upgrade(value.get(buf)) {
                return Err(Error::InvalidUpgrade);
            }
        }
        Ok(())
    }

    /// The SP after the version or the status code, at `pos`: taken, the
    /// next element starts after it (`mark`) in stage `next`. A line end
    /// there is [`Error::InvalidStartLineSpacing`], unless
    /// `line_end_starts_next` (the lenient empty reason: `next` starts,
    /// empty, at the line end); any other byte is `other`. `Ok(false)`: more
    /// bytes are needed.
    fn single_sp(
        &mut self,
        buf: &[u8],
        next: StatusLineState,
        line_end_starts_next: bool,
        other: Error,
    ) -> Result<bool, Error> {
        self.work.add(1);
        match buf.get(self.pos) {
            None => return Ok(false),
            Some(b' ') => self.pos += 1,
            Some(b'\r' | b'\n') if line_end_starts_next => {}
            Some(b'\r' | b'\n') => return Err(Error::InvalidStartLineSpacing),
            Some(_) => return Err(other),
        }
        self.mark = self.pos;
        self.stage = next;
        Ok(true)
    }

    /// Runs the stages on from where the last call stopped.
    fn step(&mut self, buf: &[u8], fields: &mut [Field]) -> Result<Option<usize>, Error> {
        loop {
            match self.stage {
                StatusLineState::Version => {
                    #[cfg(not(http_net_general_path))]
                    if self.common_status_line(buf) {
                        continue;
                    }
                    // A TLS record header where the status line is due
                    // (RFC 8446 §5.1: content type alert 21 or handshake
                    // 22, then the version's major byte 3): the server
                    // speaks TLS on this port. Judged on the first two
                    // bytes; the first alone waits for the second.
                    match buf {
                        [0x15 | 0x16] => return Ok(None),
                        [0x15 | 0x16, 0x03, ..] => return Err(Error::TlsRecord),
                        _ => {}
                    }
                    let v = buf.get(..8).unwrap_or(buf);
                    self.work.add(v.len().saturating_sub(self.pos));
                    self.pos = v.len();
                    match version::check(v)? {
                        None => return Ok(None),
                        Some(version) => {
                            self.version = version;
                            self.stage = StatusLineState::VersionEnd;
                        }
                    }
                }
                StatusLineState::VersionEnd => {
                    if !self.single_sp(buf, StatusLineState::Code, false, Error::InvalidVersion)? {
                        return Ok(None);
                    }
                }
                StatusLineState::Code => {
                    if buf.get(self.mark) == Some(&b' ') {
                        return Err(Error::InvalidStartLineSpacing);
                    }
                    // status-code = 3DIGIT (RFC 9112 §4), 100 to 999 here.
                    while self.pos < self.mark + 3 {
                        let Some(&b) = buf.get(self.pos) else {
                            return Ok(None);
                        };
                        self.work.add(1);
                        let first = self.pos == self.mark;
                        if !b.is_ascii_digit() || (first && b == b'0') {
                            return Err(Error::InvalidStatusCode);
                        }
                        self.status = self.status * 10 + u16::from(b - b'0');
                        self.pos += 1;
                    }
                    self.stage = StatusLineState::CodeEnd;
                }
                StatusLineState::CodeEnd => {
                    // No SP before an empty reason (lenient only): the
                    // reason stage ends the line.
                    let empty_reason = self.options.reason_without_space;
                    if !self.single_sp(
                        buf,
                        StatusLineState::Reason,
                        empty_reason,
                        Error::InvalidStatusCode,
                    )? {
                        return Ok(None);
                    }
                }
                StatusLineState::Reason => {
                    let n = field_value_run(buf.get(self.pos..).unwrap_or(&[]));
                    self.work.add(n + 1);
                    self.pos += n;
                    match buf.get(self.pos) {
                        None => return Ok(None),
                        Some(b'\r') => {
                            self.reason = Span::new(self.mark, self.pos);
                            self.pos += 1;
                            self.stage = StatusLineState::ReasonCr;
                        }
                        // The status line ended by a bare LF (lenient only).
                        Some(b'\n') if self.options.bare_lf => {
                            self.reason = Span::new(self.mark, self.pos);
                            self.pos += 1;
                            self.section = Section::new(self.pos);
                            self.stage = StatusLineState::Fields;
                        }
                        Some(b'\n') => return Err(Error::BareLf),
                        Some(_) => return Err(Error::InvalidReasonByte),
                    }
                }
                StatusLineState::ReasonCr => {
                    if !lf_after_cr(buf, self.pos, &mut self.work)? {
                        return Ok(None);
                    }
                    self.pos += 1;
                    self.section = Section::new(self.pos);
                    self.stage = StatusLineState::Fields;
                }
                StatusLineState::Fields => {
                    let cap = self.limits.max_fields().min(fields.len());
                    let rules = Rules {
                        keep_fold: self.options.obs_fold == ObsFold::Replace,
                        bare_lf: self.options.bare_lf,
                        ws_before_colon: self.options.whitespace_before_colon,
                        canonical_length: self.limits.front_line(),
                        ..Rules::STRICT
                    };
                    let Some(len) = self.section.run(buf, fields, cap, rules)? else {
                        return Ok(None);
                    };
                    if self.limits.front_line() && self.status == 101 {
                        self.front_line_switch(buf, fields)?;
                    }
                    return Ok(Some(len));
                }
                StatusLineState::Done => return Ok(None),
            }
        }
    }
}
